// SPDX-License-Identifier: GPL-2.0
/*
 * aim7, LKP's multi-user AIM Suite VII: load worker processes, each
 * repeating one test's job on files of its own for testtime, reported as
 * jobs-per-min, the jobs of all workers per minute: lkp-tests'
 * aim7.jobs-per-min (seed 004).  AIM7 runs a mix of tests from a workfile;
 * LKP runs one test per job, and so does kdelta.  A job, in file_size bytes
 * moved in block_size transfers:
 *   creat-clo      creat() and close() the worker's file 100 times;
 *   disk_cp        copy the file to a new one, close and unlink the copy;
 *   disk_rd        read the file sequentially;
 *   disk_rr        read the file's blocks at random offsets;
 *   disk_rw        write the file's blocks at random offsets;
 *   disk_src       search a directory of 64 files: one readdir() scan for
 *                  a name, then 100 lookups by name (stat()), half of them
 *                  of names not there (AIM's "directory searches");
 *   disk_wrt       create the file, write it, close and unlink it;
 *   sync_disk_cp, sync_disk_rw, sync_disk_wrt: the same with every write
 *                  synchronous (O_SYNC).
 * The files that disk_cp, disk_rd, disk_rr and disk_rw work on are written
 * and synced before the clock starts.  The workers are this process's
 * children (proc.h), so the runner's rusage covers them; they start
 * together once all are ready, report through shared memory, and die with
 * their parent (PR_SET_PDEATHSIG).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "kdelta/store.h"
#include "kdelta/proc.h"
#include "kdelta/util.h"
#include "kdelta/workload.h"

/* disk_src: files in each worker's directory, lookups per job. */
#define AIM7_SRC_FILES 64
#define AIM7_SRC_LOOKUPS 100

/* The most workers: load's bound. */
#define AIM7_MAX_LOAD 100000
#define AIM7_MAX_LOAD_TEXT "100000"

/* creat-clo: creat+close pairs per job. */
#define AIM7_CREAT_CLO_PER_JOB 100

struct aim7_worker;

struct aim7_test {
	const char *name;
	int (*job)(struct aim7_worker *w, struct kd_err *err);
	bool prepared;		/* works on a file written before the clock */
	bool sync;		/* its writes are synchronous (O_SYNC) */
};

struct aim7_params {
	const struct aim7_test *test;
	int64_t load;
	uint64_t file_size, block_size;
	double testtime;
};

/* One per worker, in memory shared with the parent. */
struct aim7_slot {
	uint64_t jobs;
	double finished;	/* now_monotonic() when the worker stopped */
	struct kd_err err;	/* why it failed; "" if it did not */
};

/* One worker's files and state. */
struct aim7_worker {
	const struct aim7_params *p;
	char file[64], copy[72];
	int fd;			/* the prepared file; -1 for the others */
	char *buf;
	uint64_t random;	/* splitmix64 state */
};

static uint64_t aim7_random(struct aim7_worker *w)
{
	return splitmix64(&w->random);
}

static uint64_t aim7_blocks(const struct aim7_params *p)
{
	return (p->file_size + p->block_size - 1) / p->block_size;
}

/* The length of block b: block_size, or less for the last one. */
static size_t aim7_block_len(const struct aim7_params *p, uint64_t b)
{
	uint64_t left = p->file_size - b * p->block_size;

	return left < p->block_size ? left : p->block_size;
}

static int aim7_write_block(struct aim7_worker *w, int fd, const char *file,
			    uint64_t b, struct kd_err *err)
{
	if (wl_pwrite_all(fd, w->buf, aim7_block_len(w->p, b),
			  (off_t)(b * w->p->block_size)) < 0)
		return kd_error(err, "write %s: %s", file, strerror(errno));
	return 0;
}

static int aim7_read_block(struct aim7_worker *w, uint64_t b,
			   struct kd_err *err)
{
	if (wl_pread_all(w->fd, w->buf, aim7_block_len(w->p, b),
			 (off_t)(b * w->p->block_size)) < 0)
		return kd_error(err, "read %s: %s", w->file, strerror(errno));
	return 0;
}

/* Writes a whole file from offset 0: disk_wrt's job, the others' setup. */
static int aim7_write_file(struct aim7_worker *w, int fd, const char *file,
			   struct kd_err *err)
{
	for (uint64_t b = 0; b < aim7_blocks(w->p); b++)
		if (aim7_write_block(w, fd, file, b, err) < 0)
			return -1;
	return 0;
}

static int aim7_open_flags(const struct aim7_worker *w)
{
	return w->p->test->sync ? O_SYNC : 0;
}

/* Closes and unlinks a file a job made; the first failure is the error. */
static int aim7_close_unlink(int fd, const char *file, int ret,
			     struct kd_err *err)
{
	if (close(fd) < 0 && !ret)
		ret = kd_error(err, "close %s: %s", file, strerror(errno));
	if (unlink(file) < 0 && !ret)
		ret = kd_error(err, "unlink %s: %s", file, strerror(errno));
	return ret;
}

static int job_creat_clo(struct aim7_worker *w, struct kd_err *err)
{
	for (int i = 0; i < AIM7_CREAT_CLO_PER_JOB; i++)
		if (wl_creat_close(w->file, err) < 0)
			return -1;
	return 0;
}

static int job_cp(struct aim7_worker *w, struct kd_err *err)
{
	int fd = open(w->copy, O_WRONLY | O_CREAT | O_TRUNC | aim7_open_flags(w),
		      0644);
	int ret = 0;

	if (fd < 0)
		return kd_error(err, "create %s: %s", w->copy, strerror(errno));
	for (uint64_t b = 0; !ret && b < aim7_blocks(w->p); b++) {
		ret = aim7_read_block(w, b, err);
		if (!ret)
			ret = aim7_write_block(w, fd, w->copy, b, err);
	}
	return aim7_close_unlink(fd, w->copy, ret, err);
}

static int job_rd(struct aim7_worker *w, struct kd_err *err)
{
	for (uint64_t b = 0; b < aim7_blocks(w->p); b++)
		if (aim7_read_block(w, b, err) < 0)
			return -1;
	return 0;
}

static int job_rr(struct aim7_worker *w, struct kd_err *err)
{
	uint64_t blocks = aim7_blocks(w->p);

	for (uint64_t i = 0; i < blocks; i++)
		if (aim7_read_block(w, aim7_random(w) % blocks, err) < 0)
			return -1;
	return 0;
}

static int job_rw(struct aim7_worker *w, struct kd_err *err)
{
	uint64_t blocks = aim7_blocks(w->p);

	for (uint64_t i = 0; i < blocks; i++)
		if (aim7_write_block(w, w->fd, w->file,
				     aim7_random(w) % blocks, err) < 0)
			return -1;
	return 0;
}

static int job_wrt(struct aim7_worker *w, struct kd_err *err)
{
	int fd = open(w->file, O_WRONLY | O_CREAT | O_TRUNC | aim7_open_flags(w),
		      0644);

	if (fd < 0)
		return kd_error(err, "create %s: %s", w->file, strerror(errno));
	return aim7_close_unlink(fd, w->file, aim7_write_file(w, fd, w->file, err),
				 err);
}

/*
 * disk_src's directory (the worker's "file"): AIM7_SRC_FILES empty files
 * f0, f1, ... made before the clock.
 */
static int aim7_make_src_dir(const struct aim7_worker *w, struct kd_err *err)
{
	char name[96];

	if (mkdir(w->file, 0755) < 0)
		return kd_error(err, "mkdir %s: %s", w->file, strerror(errno));
	for (int i = 0; i < AIM7_SRC_FILES; i++) {
		snprintf(name, sizeof(name), "%s/f%d", w->file, i);
		if (wl_creat_close(name, err) < 0)
			return -1;
	}
	return 0;
}

/* Removes what aim7_make_src_dir() made, as far as it got. */
static void aim7_remove_src_dir(const char *dir)
{
	char name[96];

	for (int i = 0; i < AIM7_SRC_FILES; i++) {
		snprintf(name, sizeof(name), "%s/f%d", dir, i);
		unlink(name);
	}
	rmdir(dir);
}

/*
 * disk_src, directory searches: one scan of the directory's entries for
 * a name (readdir), then AIM7_SRC_LOOKUPS lookups by name (stat), half of
 * them of names that are not there.
 */
static int job_src(struct aim7_worker *w, struct kd_err *err)
{
	DIR *dir = opendir(w->file);
	struct dirent *de;
	struct stat st;
	char name[96];
	int found = 0;

	if (!dir)
		return kd_error(err, "opendir %s: %s", w->file, strerror(errno));
	snprintf(name, sizeof(name), "f%d",
		 (int)(aim7_random(w) % AIM7_SRC_FILES));
	while ((de = readdir(dir)))
		found += !strcmp(de->d_name, name);
	closedir(dir);
	if (found != 1)
		return kd_error(err, "%s: %s is not in it", w->file, name);
	for (int i = 0; i < AIM7_SRC_LOOKUPS; i++) {
		int f = (int)(aim7_random(w) % (2 * AIM7_SRC_FILES));
		bool there;

		snprintf(name, sizeof(name), "%s/f%d", w->file, f);
		there = !stat(name, &st);
		if (there != (f < AIM7_SRC_FILES))
			return kd_error(err, "stat %s: %s", name,
					there ? "there, but not made" :
						strerror(errno));
	}
	return 0;
}

/* In the order of aim7_test_names[]. */
static const struct aim7_test aim7_tests[] = {
	{ "creat-clo", job_creat_clo, false, false },
	{ "disk_cp", job_cp, true, false },
	{ "disk_rd", job_rd, true, false },
	{ "disk_rr", job_rr, true, false },
	{ "disk_rw", job_rw, true, false },
	{ "disk_src", job_src, false, false },
	{ "disk_wrt", job_wrt, false, false },
	{ "sync_disk_cp", job_cp, true, true },
	{ "sync_disk_rw", job_rw, true, true },
	{ "sync_disk_wrt", job_wrt, false, true },
};

static const char *const aim7_test_names[] = {
	"creat-clo", "disk_cp", "disk_rd", "disk_rr", "disk_rw", "disk_src",
	"disk_wrt", "sync_disk_cp", "sync_disk_rw", "sync_disk_wrt", NULL,
};

/* The prepared file, written and synced, open for the timed jobs. */
static int aim7_prepare(struct aim7_worker *w, struct kd_err *err)
{
	int fd;

	if (w->p->test->job == job_src)
		return aim7_make_src_dir(w, err);
	if (!w->p->test->prepared)
		return 0;
	fd = open(w->file, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return kd_error(err, "create %s: %s", w->file, strerror(errno));
	if (aim7_write_file(w, fd, w->file, err) < 0) {
		close(fd);
		return -1;
	}
	if (fsync(fd) < 0 || close(fd) < 0)
		return kd_error(err, "sync %s: %s", w->file, strerror(errno));
	w->fd = open(w->file, O_RDWR | aim7_open_flags(w));
	if (w->fd < 0)
		return kd_error(err, "open %s: %s", w->file, strerror(errno));
	return 0;
}

/* Waits for the parent's start signal: EOF on go_fd. */
static void aim7_wait_start(int go_fd)
{
	char c;

	while (read(go_fd, &c, 1) < 0 && errno == EINTR)
		;
}

static int aim7_work(struct aim7_worker *w, struct aim7_slot *slot,
		     int ready_fd, int go_fd, struct kd_err *err)
{
	double deadline;
	char ready;

	ready = aim7_prepare(w, err) < 0 ? 'f' : 'r';
	if (write(ready_fd, &ready, 1) != 1 || ready != 'r')
		return -1;
	close(ready_fd);
	aim7_wait_start(go_fd);
	deadline = now_monotonic() + w->p->testtime;
	do {
		if (w->p->test->job(w, err) < 0)
			return -1;
		slot->jobs++;
		slot->finished = now_monotonic();
	} while (slot->finished < deadline);
	return 0;
}

/* The workers of one run, seen from the parent. */
struct aim7_pool {
	const struct aim7_params *p;
	struct aim7_slot *slots;	/* shared, p->load of them */
	struct proc *procs;		/* p->load of them */
	int64_t started;
	int ready[2], go[2];		/* pipes: workers ready, start */
};

/* Worker index's file, and the copy disk_cp makes of it. */
static void aim7_file_names(const struct aim7_params *p, int64_t index,
			    char file[64], char copy[72])
{
	snprintf(file, 64, "%s.%" PRId64, p->test->name, index);
	snprintf(copy, 72, "%s.copy", file);
}

/*
 * A worker process.  It runs in the copy of the pool made when it was
 * forked, in which started is its own index.
 */
static int aim7_worker_main(void *arg)
{
	struct aim7_pool *pool = arg;
	const struct aim7_params *p = pool->p;
	int64_t index = pool->started;
	struct aim7_slot *slot = &pool->slots[index];
	struct aim7_worker w = { .p = p, .fd = -1 };
	int ret;

	close(pool->ready[0]);
	close(pool->go[1]);
	aim7_file_names(p, index, w.file, w.copy);
	w.random = hash64(w.file, strlen(w.file));
	w.buf = xmalloc(p->block_size);
	memset(w.buf, 'a', p->block_size);
	ret = aim7_work(&w, slot, pool->ready[1], pool->go[0], &slot->err);
	if (w.fd >= 0)
		close(w.fd);
	/* What a failed job left: a job that ended well left only w.file. */
	unlink(w.file);
	unlink(w.copy);
	free(w.buf);
	return ret < 0 ? 1 : 0;
}

static bool aim7_exited_ok(const struct proc *worker)
{
	return worker->end == PROC_EXITED && worker->status == 0;
}

/* Kills the workers still running and reaps them. */
static void aim7_stop(struct aim7_pool *pool)
{
	int64_t left = 0;

	for (int64_t i = 0; i < pool->started; i++) {
		if (pool->procs[i].reaped)
			continue;
		proc_kill(&pool->procs[i]);
		left++;
	}
	while (left > 0 && proc_reap_any(pool->procs, pool->started) >= 0)
		left--;
}

/*
 * Reaps workers as they end.  The first one to fail stops the others: there
 * is no point in finishing testtime.  run() runs in a process of its own, so
 * every child is a worker.
 */
static int aim7_reap(struct aim7_pool *pool)
{
	for (int64_t left = pool->started; left > 0; left--) {
		ssize_t i = proc_reap_any(pool->procs, pool->started);

		if (i < 0 || !aim7_exited_ok(&pool->procs[i]))
			return -1;
	}
	return 0;
}

/* Why the run failed: a worker's own message, else how one ended. */
static int aim7_failure(const struct aim7_pool *pool, struct kd_err *err)
{
	const char *name = pool->p->test->name;
	struct strbuf how = STRBUF_INIT;
	int64_t bad = -1;

	for (int64_t i = 0; i < pool->started; i++)
		if (pool->slots[i].err.msg[0])
			return kd_error(err, "aim7 %s: worker %" PRId64 ": %s",
					name, i, pool->slots[i].err.msg);
	for (int64_t i = 0; i < pool->started && bad < 0; i++)
		if (pool->procs[i].reaped && !aim7_exited_ok(&pool->procs[i]))
			bad = i;
	if (bad < 0)
		return kd_error(err, "aim7 %s: a worker stopped unexpectedly",
				name);
	proc_describe_end(&pool->procs[bad], &how);
	kd_error(err, "aim7 %s: worker %" PRId64 " %s", name, bad, how.buf);
	strbuf_release(&how);
	return -1;
}

/* Starts the workers, in this process's group: the runner stops it whole. */
static int aim7_fork(struct aim7_pool *pool, struct kd_err *err)
{
	for (int64_t i = 0; i < pool->p->load; i++) {
		struct proc *worker = &pool->procs[i];

		worker->fn = aim7_worker_main;
		worker->arg = pool;
		worker->same_group = true;
		worker->in = worker->out = worker->err = PROC_INHERIT;
		if (proc_start(worker, err) < 0)
			return kd_error_prefix(err, "aim7 %s: cannot start worker %" PRId64 " of %" PRId64,
					       pool->p->test->name, i + 1,
					       pool->p->load);
		pool->started++;
	}
	return 0;
}

/* Waits until every worker has prepared its file; -1 if one failed. */
static int aim7_wait_ready(struct aim7_pool *pool)
{
	int64_t ready = 0;
	ssize_t n;
	char c;

	close(pool->ready[1]);
	pool->ready[1] = -1;
	while (ready < pool->p->load) {
		n = read(pool->ready[0], &c, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != 1 || c != 'r')
			return -1;
		ready++;
	}
	return 0;
}

/* Forks the workers, starts them together, waits for them; 0 if all did well. */
static int aim7_pool_run(struct aim7_pool *pool, double *elapsed,
			 struct kd_err *err)
{
	double start, end = 0;

	if (aim7_fork(pool, err) < 0) {
		aim7_stop(pool);
		return -1;
	}
	if (aim7_wait_ready(pool) < 0)
		goto failed;
	start = now_monotonic();
	close(pool->go[1]);	/* EOF: every worker starts */
	pool->go[1] = -1;
	if (aim7_reap(pool) < 0)
		goto failed;
	for (int64_t i = 0; i < pool->started; i++)
		if (pool->slots[i].finished > end)
			end = pool->slots[i].finished;
	*elapsed = end - start;
	return 0;
failed:
	aim7_stop(pool);
	return aim7_failure(pool, err);
}

static int aim7_pool_init(struct aim7_pool *pool, const struct aim7_params *p,
			  struct kd_err *err)
{
	size_t n = (size_t)p->load;

	*pool = (struct aim7_pool){ .p = p, .ready = { -1, -1 }, .go = { -1, -1 } };
	pool->slots = mmap(NULL, n * sizeof(*pool->slots), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pool->slots == MAP_FAILED) {
		pool->slots = NULL;
		return kd_error(err, "aim7: shared memory for %zu workers: %s",
				n, strerror(errno));
	}
	if (pipe2(pool->ready, O_CLOEXEC) < 0 || pipe2(pool->go, O_CLOEXEC) < 0)
		return kd_error(err, "aim7: pipe: %s", strerror(errno));
	pool->procs = xcalloc(n, sizeof(*pool->procs));
	for (size_t i = 0; i < n; i++)
		pool->procs[i] = (struct proc)PROC_INIT;
	return 0;
}

/* Releases the pool, and removes any file a killed worker left behind. */
static void aim7_pool_release(struct aim7_pool *pool)
{
	char file[64], copy[72];

	for (int i = 0; i < 2; i++) {
		if (pool->ready[i] >= 0)
			close(pool->ready[i]);
		if (pool->go[i] >= 0)
			close(pool->go[i]);
	}
	for (int64_t i = 0; i < pool->started; i++) {
		aim7_file_names(pool->p, i, file, copy);
		if (pool->p->test->job == job_src)
			aim7_remove_src_dir(file);
		unlink(file);
		unlink(copy);
	}
	if (pool->slots)
		munmap(pool->slots, (size_t)pool->p->load * sizeof(*pool->slots));
	free(pool->procs);
}

static const struct aim7_test *aim7_test_find(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(aim7_tests); i++)
		if (!strcmp(aim7_tests[i].name, name))
			return &aim7_tests[i];
	return NULL;
}

/*
 * nr_task: a number of tasks, or a percentage of the CPUs ("200%"), as
 * lkp-tests reads it: the CPUs times the percentage, rounded down, at
 * least 1.
 */
static int parse_nr_task(const char *s, long cpus, int64_t *tasks,
			 struct kd_err *err)
{
	size_t len = strlen(s);
	double pct;
	char *end;

	if (len && s[len - 1] == '%') {
		errno = 0;
		pct = strtod(s, &end);
		if (end != s + len - 1 || errno || !(pct > 0) || pct > 1e6 ||
		    !isdigit((unsigned char)*s))
			return kd_error(err, "expected a number of tasks or a percentage of the CPUs like 200%%, got '%s'",
					s);
		*tasks = (int64_t)(pct * (double)cpus / 100);
		if (*tasks < 1)
			*tasks = 1;
		return 0;
	}
	if (parse_int(s, tasks, NULL) || *tasks < 1 || *tasks > AIM7_MAX_LOAD)
		return kd_error(err, "expected a number of tasks from 1 to %d or a percentage of the CPUs like 200%%, got '%s'",
				AIM7_MAX_LOAD, s);
	return 0;
}

static int check_nr_task(const char *value, struct kd_err *err)
{
	int64_t tasks;

	return parse_nr_task(value, 1, &tasks, err);
}

/* nr_task, when given, or load: the workers (lkp-tests' rule). */
static int64_t aim7_load(const struct jnode *params)
{
	const char *nr_task = jnode_str(params, "nr_task");
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int64_t tasks;

	if (nr_task && *nr_task &&
	    !parse_nr_task(nr_task, cpus > 0 ? cpus : 1, &tasks, NULL))
		return tasks < AIM7_MAX_LOAD ? tasks : AIM7_MAX_LOAD;
	return jnode_int(params, "load");
}

static int aim7_constraints(const struct jnode *section, const char **at,
			    struct kd_err *err)
{
	const char *nr_task = jnode_str(section, "nr_task");

	*at = NULL;
	if (!jnode_get(section, "load") && !(nr_task && *nr_task))
		return kd_error(err, "aim7: give load (the worker processes) or nr_task");
	return 0;
}

static int aim7_run(const struct jnode *params, FILE *out, struct kd_err *err)
{
	struct aim7_params p = {
		.test = aim7_test_find(jnode_str(params, "test")),
		.load = aim7_load(params),
		.file_size = jnode_size(params, "file_size"),
		.block_size = jnode_size(params, "block_size"),
		.testtime = jnode_duration(params, "testtime"),
	};
	struct aim7_pool pool;
	uint64_t jobs = 0;
	double elapsed = 0;
	int ret;

	if (!p.test)	/* the schema lets no other test through */
		return kd_error(err, "aim7: no test '%s'",
				jnode_str(params, "test"));
	fflush(out);	/* nothing buffered may be written twice by a worker */
	ret = aim7_pool_init(&pool, &p, err);
	if (!ret)
		ret = aim7_pool_run(&pool, &elapsed, err);
	for (int64_t i = 0; !ret && i < p.load; i++)
		jobs += pool.slots[i].jobs;
	aim7_pool_release(&pool);
	if (ret)
		return ret;
	store_result_write(out, "jobs-per-min", (double)jobs * 60 / elapsed);
	return wl_flush(out, "aim7", err);
}

static const struct param_spec aim7_params[] = {
	{ .name = "test", .type = PARAM_CHOICE, .choices = aim7_test_names,
	  .choices_are = "aim7 tests kdelta implements", .required = true,
	  .lkp_option = true,
	  .help = "what every worker repeats: creat-clo (creat and close its file 100 times), disk_cp (copy its file), disk_rd (read it), disk_rr (read its blocks at random), disk_rw (write its blocks at random), disk_src (search a directory of 64 files: a readdir scan and 100 stat lookups, half of them misses), disk_wrt (create, write and unlink it), sync_disk_cp, sync_disk_rw, sync_disk_wrt (the same with O_SYNC writes)" },
	{ .name = "load", .type = PARAM_INT, .min = "1",
	  .max = AIM7_MAX_LOAD_TEXT, .lkp_option = true,
	  .help = "worker processes running at once, like 3000 in seed 004; the result, jobs-per-min, counts the jobs of all workers; this or nr_task is required" },
	{ .name = "nr_task", .type = PARAM_STRING, .check = check_nr_task,
	  .lkp_option = true,
	  .help = "instead of load, as in lkp-tests: the worker processes, or a percentage of the CPUs like 200% (rounded down, at least 1)" },
	{ .name = "testtime", .type = PARAM_DURATION, .def = "10s",
	  .min = "1ms",
	  .help = "how long each worker repeats its job; a job under way is finished" },
	{ .name = "file_size", .type = PARAM_SIZE, .def = "1M", .min = "1",
	  .max = "1T",
	  .help = "size of each worker's file (<test>.<worker>), the bytes one disk job moves (AIM7's FILESIZE)" },
	{ .name = "block_size", .type = PARAM_SIZE, .def = "4k", .min = "1",
	  .max = "64M",
	  .help = "bytes per read or write call" },
	{ .name = NULL },
};

/*
 * kdelta 0.1's disk workloads, with the same parameters; load had a
 * default of 2 there, and testtime one of 1s.
 */
#define AIM7_OLD_DEFAULTS "load: 2, testtime: 1s"
static const struct param_renamed aim7_renamed[] = {
	{ "disk_rd", "aim7: {test: disk_rd}", AIM7_OLD_DEFAULTS },
	{ "disk_rr", "aim7: {test: disk_rr}", AIM7_OLD_DEFAULTS },
	{ "disk_rw", "aim7: {test: disk_rw}", AIM7_OLD_DEFAULTS },
	{ "disk_wrt", "aim7: {test: disk_wrt}", AIM7_OLD_DEFAULTS },
	{ NULL },
};

static const struct metric_spec aim7_metrics[] = {
	{ "jobs-per-min", .better = +1 },
	{ NULL },
};

const struct workload workload_aim7 = {
	.section = {
		.name = "aim7",
		.summary = "AIM Suite VII, as LKP runs it: one test, repeated by load processes for testtime; result jobs-per-min",
		.params = aim7_params,
		.renamed = aim7_renamed,
		.constraints = aim7_constraints,
	},
	.metrics = aim7_metrics,
	.run = aim7_run,
};
