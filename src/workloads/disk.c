// SPDX-License-Identifier: GPL-2.0
/*
 * AIM7's disk tests, one implementation: `load` worker processes, each
 * repeating one job on its own file for testtime.  A job is file_size bytes
 * in block_size transfers:
 *   disk_wrt  create the file, write it sequentially, close and unlink it;
 *   disk_rd   read a prepared file sequentially;
 *   disk_rr   read a prepared file in blocks at random offsets;
 *   disk_rw   write a prepared file in blocks at random offsets (AIM's
 *             "random disk writes").
 * The workers are this process's children (proc.h), so the runner's rusage
 * covers them; they start together once all are ready, report through
 * shared memory, and die with their parent (PR_SET_PDEATHSIG).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"
#include "kdelta/proc.h"
#include "kdelta/util.h"
#include "kdelta/workload.h"

#define DISK_MAX_LOAD 100000
#define DISK_MAX_BLOCK (64 * 1024 * 1024)

enum disk_mode { DISK_WRT, DISK_RD, DISK_RR, DISK_RW };

struct disk_params {
	const char *name;	/* the workload's, for file names and errors */
	enum disk_mode mode;
	int64_t load;
	uint64_t file_size, block_size;
	double testtime;
};

/* One per worker, in memory shared with the parent. */
struct disk_slot {
	uint64_t jobs, bytes;
	double finished;	/* now_monotonic() when the worker stopped */
	struct kd_err err;	/* why it failed; "" if it did not */
};

/* One worker's file and state. */
struct disk_worker {
	const struct disk_params *p;
	char file[64];
	int fd;			/* the prepared file; -1 for disk_wrt */
	char *buf;
	uint64_t random;	/* splitmix64 state */
};

static uint64_t disk_random(struct disk_worker *w)
{
	uint64_t z = (w->random += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Writes the whole file from offset 0: disk_wrt's job, the others' setup. */
static int disk_write_file(struct disk_worker *w, int fd, struct kd_err *err)
{
	const struct disk_params *p = w->p;

	for (uint64_t off = 0; off < p->file_size; off += p->block_size) {
		uint64_t left = p->file_size - off;
		size_t len = left < p->block_size ? left : p->block_size;

		if (wl_pwrite_all(fd, w->buf, len, (off_t)off) < 0)
			return kd_error(err, "write %s: %s", w->file,
					strerror(errno));
	}
	return 0;
}

static int disk_job_wrt(struct disk_worker *w, struct kd_err *err)
{
	int fd = open(w->file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int ret;

	if (fd < 0)
		return kd_error(err, "create %s: %s", w->file, strerror(errno));
	ret = disk_write_file(w, fd, err);
	if (close(fd) < 0 && !ret)
		ret = kd_error(err, "close %s: %s", w->file, strerror(errno));
	if (unlink(w->file) < 0 && !ret)
		ret = kd_error(err, "unlink %s: %s", w->file, strerror(errno));
	return ret;
}

/* One block of a disk_rd, disk_rr or disk_rw job. */
static int disk_block(struct disk_worker *w, uint64_t block, struct kd_err *err)
{
	const struct disk_params *p = w->p;
	uint64_t off = block * p->block_size, left = p->file_size - off;
	size_t len = left < p->block_size ? left : p->block_size;

	if (p->mode == DISK_RW) {
		if (wl_pwrite_all(w->fd, w->buf, len, (off_t)off) < 0)
			return kd_error(err, "write %s: %s", w->file,
					strerror(errno));
	} else if (wl_pread_all(w->fd, w->buf, len, (off_t)off) < 0) {
		return kd_error(err, "read %s: %s", w->file, strerror(errno));
	}
	return 0;
}

static int disk_job(struct disk_worker *w, struct kd_err *err)
{
	const struct disk_params *p = w->p;
	uint64_t blocks = (p->file_size + p->block_size - 1) / p->block_size;

	if (p->mode == DISK_WRT)
		return disk_job_wrt(w, err);
	for (uint64_t i = 0; i < blocks; i++) {
		uint64_t b = p->mode == DISK_RD ? i : disk_random(w) % blocks;

		if (disk_block(w, b, err) < 0)
			return -1;
	}
	return 0;
}

static int disk_prepare(struct disk_worker *w, struct kd_err *err)
{
	if (w->p->mode == DISK_WRT)
		return 0;
	w->fd = open(w->file, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (w->fd < 0)
		return kd_error(err, "create %s: %s", w->file, strerror(errno));
	return disk_write_file(w, w->fd, err);
}

/* Waits for the parent's start signal: EOF on go_fd. */
static void disk_wait_start(int go_fd)
{
	char c;

	while (read(go_fd, &c, 1) < 0 && errno == EINTR)
		;
}

static int disk_work(struct disk_worker *w, struct disk_slot *slot,
		     int ready_fd, int go_fd, struct kd_err *err)
{
	double deadline;
	char ready;

	ready = disk_prepare(w, err) < 0 ? 'f' : 'r';
	if (write(ready_fd, &ready, 1) != 1 || ready != 'r')
		return -1;
	close(ready_fd);
	disk_wait_start(go_fd);
	deadline = now_monotonic() + w->p->testtime;
	do {
		if (disk_job(w, err) < 0)
			return -1;
		slot->jobs++;
		slot->bytes += w->p->file_size;
		slot->finished = now_monotonic();
	} while (slot->finished < deadline);
	return 0;
}

/* The workers of one run, seen from the parent. */
struct disk_pool {
	const struct disk_params *p;
	struct disk_slot *slots;	/* shared, p->load of them */
	struct proc *procs;		/* p->load of them */
	int64_t started;
	int ready[2], go[2];		/* pipes: workers ready, start */
};

/*
 * A worker process.  It runs in the copy of the pool made when it was
 * forked, in which started is its own index.
 */
static int disk_worker_main(void *arg)
{
	struct disk_pool *pool = arg;
	const struct disk_params *p = pool->p;
	int64_t index = pool->started;
	struct disk_slot *slot = &pool->slots[index];
	struct disk_worker w = { .p = p, .fd = -1 };
	int ret;

	close(pool->ready[0]);
	close(pool->go[1]);
	snprintf(w.file, sizeof(w.file), "%s.%" PRId64, p->name, index);
	w.random = hash64(w.file, strlen(w.file));
	w.buf = xmalloc(p->block_size);
	memset(w.buf, 'a', p->block_size);
	ret = disk_work(&w, slot, pool->ready[1], pool->go[0], &slot->err);
	if (w.fd >= 0)
		close(w.fd);
	if (p->mode != DISK_WRT)
		unlink(w.file);
	free(w.buf);
	return ret < 0 ? 1 : 0;
}

static bool disk_exited_ok(const struct proc *worker)
{
	return worker->end == PROC_EXITED && worker->status == 0;
}

/* Kills the workers still running and reaps them. */
static void disk_stop(struct disk_pool *pool)
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
static int disk_reap(struct disk_pool *pool)
{
	for (int64_t left = pool->started; left > 0; left--) {
		ssize_t i = proc_reap_any(pool->procs, pool->started);

		if (i < 0 || !disk_exited_ok(&pool->procs[i]))
			return -1;
	}
	return 0;
}

/* Why the run failed: a worker's own message, else how one ended. */
static int disk_failure(const struct disk_pool *pool, struct kd_err *err)
{
	const char *name = pool->p->name;
	struct strbuf how = STRBUF_INIT;
	int64_t bad = -1;

	for (int64_t i = 0; i < pool->started; i++)
		if (pool->slots[i].err.msg[0])
			return kd_error(err, "%s: worker %" PRId64 ": %s", name,
					i, pool->slots[i].err.msg);
	for (int64_t i = 0; i < pool->started && bad < 0; i++)
		if (pool->procs[i].reaped && !disk_exited_ok(&pool->procs[i]))
			bad = i;
	if (bad < 0)
		return kd_error(err, "%s: a worker stopped unexpectedly", name);
	proc_describe_end(&pool->procs[bad], &how);
	kd_error(err, "%s: worker %" PRId64 " %s", name, bad, how.buf);
	strbuf_release(&how);
	return -1;
}

/* Starts the workers, in this process's group: the runner stops it whole. */
static int disk_fork(struct disk_pool *pool, struct kd_err *err)
{
	for (int64_t i = 0; i < pool->p->load; i++) {
		struct proc *worker = &pool->procs[i];

		worker->fn = disk_worker_main;
		worker->arg = pool;
		worker->same_group = true;
		worker->in = worker->out = worker->err = PROC_INHERIT;
		if (proc_start(worker, err) < 0)
			return kd_error_prefix(err, "%s: cannot start worker %" PRId64 " of %" PRId64,
					       pool->p->name, i + 1, pool->p->load);
		pool->started++;
	}
	return 0;
}

/* Waits until every worker has prepared its file; -1 if one failed. */
static int disk_wait_ready(struct disk_pool *pool)
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
static int disk_pool_run(struct disk_pool *pool, double *elapsed,
			 struct kd_err *err)
{
	double start, end = 0;

	if (disk_fork(pool, err) < 0) {
		disk_stop(pool);
		return -1;
	}
	if (disk_wait_ready(pool) < 0)
		goto failed;
	start = now_monotonic();
	close(pool->go[1]);	/* EOF: every worker starts */
	pool->go[1] = -1;
	if (disk_reap(pool) < 0)
		goto failed;
	for (int64_t i = 0; i < pool->started; i++)
		if (pool->slots[i].finished > end)
			end = pool->slots[i].finished;
	*elapsed = end - start;
	return 0;
failed:
	disk_stop(pool);
	return disk_failure(pool, err);
}

static int disk_check(const struct disk_params *p, struct kd_err *err)
{
	char a[32];

	if (p->load < 1 || p->load > DISK_MAX_LOAD)
		return kd_error(err, "%s: load must be between 1 and %d processes, not %" PRId64,
				p->name, DISK_MAX_LOAD, p->load);
	if (!p->block_size || p->block_size > DISK_MAX_BLOCK)
		return kd_error(err, "%s: block_size must be between 1 byte and %s, not %s",
				p->name, "64M", wl_size_str(p->block_size, a));
	if (!p->file_size || p->file_size > INT64_MAX)
		return kd_error(err, "%s: file_size must be at least 1 byte and fit in off_t",
				p->name);
	if (!(p->testtime > 0))
		return kd_error(err, "%s: testtime must be more than 0s", p->name);
	return 0;
}

static int disk_pool_init(struct disk_pool *pool, const struct disk_params *p,
			  struct kd_err *err)
{
	size_t n = (size_t)p->load;

	*pool = (struct disk_pool){ .p = p, .ready = { -1, -1 }, .go = { -1, -1 } };
	pool->slots = mmap(NULL, n * sizeof(*pool->slots), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pool->slots == MAP_FAILED) {
		pool->slots = NULL;
		return kd_error(err, "%s: shared memory for %zu workers: %s",
				p->name, n, strerror(errno));
	}
	if (pipe2(pool->ready, O_CLOEXEC) < 0 || pipe2(pool->go, O_CLOEXEC) < 0)
		return kd_error(err, "%s: pipe: %s", p->name, strerror(errno));
	pool->procs = xcalloc(n, sizeof(*pool->procs));
	for (size_t i = 0; i < n; i++)
		pool->procs[i] = (struct proc)PROC_INIT;
	return 0;
}

/* Releases the pool, and removes any file a killed worker left behind. */
static void disk_pool_release(struct disk_pool *pool)
{
	char file[64];

	for (int i = 0; i < 2; i++) {
		if (pool->ready[i] >= 0)
			close(pool->ready[i]);
		if (pool->go[i] >= 0)
			close(pool->go[i]);
	}
	for (int64_t i = 0; i < pool->started; i++) {
		snprintf(file, sizeof(file), "%s.%" PRId64, pool->p->name, i);
		unlink(file);
	}
	if (pool->slots)
		munmap(pool->slots, (size_t)pool->p->load * sizeof(*pool->slots));
	free(pool->procs);
}

static int disk_run(const char *name, enum disk_mode mode,
		    const struct jnode *params, FILE *out, struct kd_err *err)
{
	struct disk_params p = {
		.name = name,
		.mode = mode,
		.load = jnode_int(params, "load"),
		.file_size = jnode_size(params, "file_size"),
		.block_size = jnode_size(params, "block_size"),
		.testtime = jnode_duration(params, "testtime"),
	};
	struct disk_pool pool;
	uint64_t jobs = 0, bytes = 0;
	double elapsed = 0;
	int ret;

	if (disk_check(&p, err) < 0)
		return -1;
	fflush(out);	/* nothing buffered may be written twice by a worker */
	ret = disk_pool_init(&pool, &p, err);
	if (!ret)
		ret = disk_pool_run(&pool, &elapsed, err);
	for (int64_t i = 0; !ret && i < p.load; i++) {
		jobs += pool.slots[i].jobs;
		bytes += pool.slots[i].bytes;
	}
	disk_pool_release(&pool);
	if (ret)
		return ret;
	wl_result(out, "jobs_per_min", (double)jobs * 60 / elapsed);
	wl_result(out, "throughput_MBps", (double)bytes / 1e6 / elapsed);
	return wl_flush(out, name, err);
}

static int disk_wrt_run(const struct jnode *params, FILE *out,
			struct kd_err *err)
{
	return disk_run("disk_wrt", DISK_WRT, params, out, err);
}

static int disk_rd_run(const struct jnode *params, FILE *out,
		       struct kd_err *err)
{
	return disk_run("disk_rd", DISK_RD, params, out, err);
}

static int disk_rr_run(const struct jnode *params, FILE *out,
		       struct kd_err *err)
{
	return disk_run("disk_rr", DISK_RR, params, out, err);
}

static int disk_rw_run(const struct jnode *params, FILE *out,
		       struct kd_err *err)
{
	return disk_run("disk_rw", DISK_RW, params, out, err);
}

static const struct param_spec disk_params[] = {
	{ .name = "load", .type = PARAM_INT, .def = "2",
	  .help = "number of worker processes running at once (AIM7's load; seed 004 used 3000)" },
	{ .name = "file_size", .type = PARAM_SIZE, .def = "1M",
	  .help = "size of each worker's file (<workload>.<worker>), the bytes one job moves; jobs_per_min counts jobs of all workers, throughput_MBps is their bytes in 10^6 per second" },
	{ .name = "block_size", .type = PARAM_SIZE, .def = "4k",
	  .help = "bytes per read or write call, at most 64M" },
	{ .name = "testtime", .type = PARAM_DURATION, .def = "1s",
	  .help = "how long each worker repeats its job, e.g. 10s; a job under way is finished" },
	{ .name = NULL },
};


/* The results of every disk_* workload. */
static const struct metric_spec disk_metrics[] = {
	{ "jobs_per_min", .better = +1 },
	{ "throughput_MBps", .better = +1 },
	{ NULL },
};

const struct workload workload_disk_wrt = {
	.section = {
		.name = "disk_wrt",
		.summary = "AIM7 disk_wrt: write, close and unlink a file, over and over, in load processes; results jobs_per_min, throughput_MBps",
		.params = disk_params,
	},
	.metrics = disk_metrics,
	.run = disk_wrt_run,
};

const struct workload workload_disk_rd = {
	.section = {
		.name = "disk_rd",
		.summary = "AIM7 disk_rd: read a file sequentially, over and over, in load processes; results as disk_wrt",
		.params = disk_params,
	},
	.metrics = disk_metrics,
	.run = disk_rd_run,
};

const struct workload workload_disk_rr = {
	.section = {
		.name = "disk_rr",
		.summary = "AIM7 disk_rr: read a file's blocks at random offsets, in load processes; results as disk_wrt",
		.params = disk_params,
	},
	.metrics = disk_metrics,
	.run = disk_rr_run,
};

const struct workload workload_disk_rw = {
	.section = {
		.name = "disk_rw",
		.summary = "AIM7 disk_rw: write a file's blocks at random offsets, in load processes; results as disk_wrt",
		.params = disk_params,
	},
	.metrics = disk_metrics,
	.run = disk_rw_run,
};
