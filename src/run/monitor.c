// SPDX-License-Identifier: GPL-2.0
/*
 * The monitor session: every monitor of a run, its hooks, one sampler
 * thread for all the sampled monitors, and the extraction of a run
 * directory's stats from its raw files.
 *
 * The thread sleeps until the earliest due sample on CLOCK_MONOTONIC with
 * absolute deadlines (start + k * interval), so that samples do not drift
 * however long a sample takes; it waits on a condition variable rather than
 * in clock_nanosleep() so that monitors_stop() can wake it at once.  Each
 * sample is one pread() loop per file into a reused buffer and one
 * gzwrite(): no shell, no fork, no allocation once the buffer has grown.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>

#include "kdelta/counters.h"
#include "kdelta/monitor.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

/* Shorter intervals would make the sampler a workload of its own. */
#define MIN_INTERVAL 0.01

struct open_source {
	char *path;			/* after KDELTA_PROC_ROOT */
	char *label;			/* or NULL */
	int fd;
};

/* One monitor of the session. */
struct active {
	const struct monitor *monitor;
	struct monitor_context ctx;
	char *raw_path;
	bool started;			/* release() is due */
	/* Sampled monitors only: */
	struct open_source *sources;
	size_t nsources;
	gzFile gz;
	double interval;		/* 0: at start and stop only */
	double next;			/* monotonic deadline of the next sample */
	bool failed;
};

struct monitor_session {
	const struct jnode *job_root;
	char *run_dir;
	char *work_dir;
	char *scratch_dir;
	int cancel_fd;
	struct active *items;
	size_t n, alloc;
	struct strbuf unavailable;
	struct strbuf buf;		/* the sampler's read buffer */

	pthread_t thread;
	bool thread_running;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stopping;			/* under lock */
	int error;			/* the first sampling error, in err */
	struct kd_err err;
};

static bool is_sampled(const struct monitor *m)
{
	return m->path || m->sources;
}

/* Sampled at its interval by the thread (not only at start and stop). */
static bool is_periodic(const struct active *a)
{
	return a->gz && !a->failed && a->interval > 0 &&
	       !a->monitor->final_sample_only;
}

/* Reads a whole file from offset 0 and appends it to buf. */
static int read_source(const struct open_source *src, struct strbuf *buf,
		       struct kd_err *err)
{
	off_t offset = 0;

	for (;;) {
		ssize_t n;

		strbuf_grow(buf, 16384);
		n = pread(src->fd, buf->buf + buf->len, buf->alloc - buf->len - 1,
			  offset);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return kd_error(err, "%s: %s", src->path, strerror(errno));
		if (n == 0)
			break;
		offset += n;
		strbuf_setlen(buf, buf->len + (size_t)n);
	}
	return 0;
}

static int take_sample(struct active *a, struct strbuf *buf,
		       struct kd_err *err)
{
	strbuf_reset(buf);
	strbuf_addf(buf, "time: %.6f\n", now_epoch());
	for (size_t i = 0; i < a->nsources; i++) {
		if (a->sources[i].label)
			strbuf_addf(buf, "%s\n", a->sources[i].label);
		if (read_source(&a->sources[i], buf, err) < 0)
			return -1;
	}
	if (gzwrite(a->gz, buf->buf, (unsigned)buf->len) != (int)buf->len) {
		int zerr;
		const char *msg = gzerror(a->gz, &zerr);

		return kd_error(err, "%s: %s", a->raw_path,
				zerr == Z_ERRNO ? strerror(errno) : msg);
	}
	return 0;
}

static void timespec_from(double t, struct timespec *ts)
{
	ts->tv_sec = (time_t)t;
	ts->tv_nsec = (long)((t - (double)ts->tv_sec) * 1e9);
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

/* The earliest deadline of a monitor still sampled; INFINITY if none. */
static double next_deadline(const struct monitor_session *s)
{
	double next = INFINITY;

	for (size_t i = 0; i < s->n; i++)
		if (is_periodic(&s->items[i]) && s->items[i].next < next)
			next = s->items[i].next;
	return next;
}

/* Samples what is due; a failing monitor stops being sampled. */
static void sample_due(struct monitor_session *s, double now)
{
	for (size_t i = 0; i < s->n; i++) {
		struct active *a = &s->items[i];
		struct kd_err err;

		if (!is_periodic(a) || a->next > now)
			continue;
		if (take_sample(a, &s->buf, &err) < 0) {
			a->failed = true;
			pthread_mutex_lock(&s->lock);
			if (!s->error) {
				s->error = -1;
				s->err = err;
			}
			pthread_mutex_unlock(&s->lock);
			continue;
		}
		/* The next multiple of the interval still ahead: no bursts. */
		a->next += a->interval;
		if (a->next <= now)
			a->next += ceil((now - a->next) / a->interval) * a->interval;
	}
}

static void *sampler_main(void *arg)
{
	struct monitor_session *s = arg;

	pthread_mutex_lock(&s->lock);
	while (!s->stopping) {
		double due = next_deadline(s);
		struct timespec ts;

		if (isinf(due)) {
			pthread_cond_wait(&s->wake, &s->lock);
			continue;
		}
		timespec_from(due, &ts);
		if (pthread_cond_timedwait(&s->wake, &s->lock, &ts) != ETIMEDOUT)
			continue;
		if (s->stopping)
			break;
		pthread_mutex_unlock(&s->lock);
		sample_due(s, now_monotonic());
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

static int start_thread(struct monitor_session *s, struct kd_err *err)
{
	int rc = pthread_create(&s->thread, NULL, sampler_main, s);

	if (rc)
		return kd_error(err, "cannot start the monitor thread: %s",
				strerror(rc));
	s->thread_running = true;
	return 0;
}

static void stop_thread(struct monitor_session *s)
{
	if (!s->thread_running)
		return;
	pthread_mutex_lock(&s->lock);
	s->stopping = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	s->thread_running = false;
}

/*
 * The monitor's interval: its "interval" parameter, or the declared
 * default; 0 when it declares none (sampled at start and stop only).
 */
static int monitor_interval(const struct monitor *m, const struct jnode *params,
			    double *out, struct kd_err *err)
{
	const struct param_spec *spec = param_find(m->section.params, "interval");

	*out = 0;
	if (params && params->kind == JNODE_MAP && jnode_get(params, "interval"))
		*out = jnode_duration(params, "interval");
	else if (!spec || !spec->def)
		return 0;
	else if (parse_duration(spec->def, out, err) < 0)
		return kd_error_prefix(err, "monitor %s: default interval",
				       m->section.name);
	if (!(*out >= MIN_INTERVAL))
		return kd_error(err, "monitors: %s: interval %gs is too short: the least is %gs",
				m->section.name, *out, MIN_INTERVAL);
	return 0;
}

/* Records why a monitor's file cannot be read; not an error. */
static void add_unreadable(struct monitor_session *s, const struct monitor *m,
			   const char *source, int errnum)
{
	strbuf_addf(&s->unavailable, "%s: ", m->section.name);
	if (errnum == ENOENT)
		strbuf_addf(&s->unavailable, "%s does not exist", source);
	else if (errnum == EACCES || errnum == EPERM)
		strbuf_addf(&s->unavailable,
			    "%s: permission denied (readable by root only)",
			    source);
	else
		strbuf_addf(&s->unavailable, "%s: %s", source,
			    strerror(errnum));
	if (errnum == ENOENT && m->missing_hint)
		strbuf_addf(&s->unavailable, " (%s)", m->missing_hint);
	strbuf_addch(&s->unavailable, '\n');
}

static void close_sources(struct active *a)
{
	for (size_t i = 0; i < a->nsources; i++) {
		if (a->sources[i].fd >= 0)
			close(a->sources[i].fd);
		free(a->sources[i].path);
		free(a->sources[i].label);
	}
	free(a->sources);
	a->sources = NULL;
	a->nsources = 0;
}

/*
 * Opens the files of a sampled monitor.  Returns 1 when they are all
 * readable, 0 when one is not (noted as unavailable), -1 on error.
 */
static int open_sources(struct monitor_session *s, struct active *a,
			struct kd_err *err)
{
	const struct monitor *m = a->monitor;
	struct monitor_sources list = { NULL, 0, 0 };
	int rc = 1;

	if (!m->sources)
		monitor_sources_add(&list, m->path, NULL);
	else if ((rc = m->sources(&a->ctx, &list, err)) != 0) {
		if (rc == MONITOR_UNAVAILABLE)
			strbuf_addf(&s->unavailable, "%s: %s\n",
				    m->section.name, err->msg);
		monitor_sources_release(&list);
		return rc < 0 ? -1 : 0;
	} else {
		rc = 1;
	}
	a->sources = xcalloc(list.n ? list.n : 1, sizeof(*a->sources));
	for (size_t i = 0; i < list.n && rc == 1; i++) {
		struct open_source *src = &a->sources[a->nsources++];

		src->path = monitor_proc_path(list.items[i].path);
		src->label = list.items[i].label ? xstrdup(list.items[i].label)
						 : NULL;
		src->fd = open(src->path, O_RDONLY | O_CLOEXEC);
		if (src->fd < 0) {
			add_unreadable(s, m, src->path, errno);
			rc = 0;
		}
	}
	monitor_sources_release(&list);
	if (rc != 1)
		close_sources(a);
	return rc;
}

static int open_raw(struct active *a, struct kd_err *err)
{
	int fd = open(a->raw_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		      0644);

	if (fd < 0 || !(a->gz = gzdopen(fd, "wb"))) {
		kd_error(err, "%s: %s", a->raw_path,
			 strerror(errno ? errno : ENOMEM));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return 0;
}

/* Calls release() when due, and frees what the item holds. */
static void active_release(struct active *a)
{
	if (a->started && a->monitor->release)
		a->monitor->release(&a->ctx);
	a->started = false;
	if (a->gz)
		gzclose(a->gz);
	a->gz = NULL;
	close_sources(a);
	free(a->raw_path);
	a->raw_path = NULL;
}

/*
 * Starts one monitor: its files opened, start() called, its raw file
 * created.  Returns 1 when it runs, 0 when it is not available, -1 on
 * error.
 */
static int active_start(struct monitor_session *s, struct active *a,
			struct kd_err *err)
{
	const struct monitor *m = a->monitor;
	struct kd_err why;
	int rc;

	if (is_sampled(m) && !m->final_sample_only &&
	    monitor_interval(m, a->ctx.params, &a->interval, err) < 0)
		return -1;
	if (is_sampled(m) && (rc = open_sources(s, a, err)) != 1)
		return rc;
	if (m->start && (rc = m->start(&a->ctx, &why)) != 0) {
		if (rc == MONITOR_UNAVAILABLE) {
			strbuf_addf(&s->unavailable, "%s: %s\n",
				    m->section.name, why.msg);
			return 0;
		}
		*err = why;
		return kd_error_prefix(err, "%s", m->section.name);
	}
	a->started = true;
	if (is_sampled(m) && open_raw(a, err) < 0)
		return -1;
	return 1;
}

static int add_monitor(struct monitor_session *s, const char *name,
		       const struct jnode *params, struct kd_err *err)
{
	const struct monitor *m = monitor_find(name);
	struct active a;
	int rc;

	if (!m)
		return kd_error(err, "monitors: unknown monitor '%s'", name);
	memset(&a, 0, sizeof(a));
	a.monitor = m;
	a.raw_path = xasprintf("%s/%s.gz", s->run_dir, name);
	a.ctx.params = params;
	a.ctx.job_root = s->job_root;
	a.ctx.run_dir = s->run_dir;
	a.ctx.work_dir = s->work_dir;
	a.ctx.scratch_dir = s->scratch_dir;
	a.ctx.cancel_fd = s->cancel_fd;
	a.ctx.raw_path = a.raw_path;
	rc = active_start(s, &a, err);
	if (rc == 1) {
		ALLOC_GROW(s->items, s->n + 1, s->alloc);
		s->items[s->n++] = a;
		return 0;
	}
	active_release(&a);
	return rc;
}

/*
 * The job's "monitors": absent, every monitor that runs by default; else
 * the mapping of monitor name to options that loading made of what the
 * job file said and checked (every name a monitor's, none twice, each
 * one's options with their defaults: job-check.c), maybe empty.
 */
static int add_job_monitors(struct monitor_session *s,
			    const struct jnode *job_root, struct kd_err *err)
{
	const struct jnode *sel = job_root ? jnode_get(job_root, "monitors")
					   : NULL;

	if (!sel) {
		for (size_t i = 0; monitor_registry[i]; i++) {
			const struct monitor *m = monitor_registry[i];

			if (monitor_by_default(m) &&
			    add_monitor(s, m->section.name, NULL, err) < 0)
				return -1;
		}
		return 0;
	}
	for (size_t i = 0; sel->kind == JNODE_MAP && i < sel->n; i++)
		if (add_monitor(s, sel->keys[i], sel->values[i], err) < 0)
			return -1;
	return 0;
}

int monitors_start(const struct monitor_run *run,
		   struct monitor_session **out, struct kd_err *err)
{
	struct monitor_session *s = xcalloc(1, sizeof(*s));
	pthread_condattr_t attr;
	double now;

	s->job_root = run->job_root;
	s->cancel_fd = run->cancel_fd;
	s->run_dir = xstrdup(run->run_dir);
	s->work_dir = run->work_dir ? xstrdup(run->work_dir) : NULL;
	s->scratch_dir = run->scratch_dir ? xstrdup(run->scratch_dir) : NULL;
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &attr);
	pthread_condattr_destroy(&attr);
	strbuf_init(&s->unavailable);
	strbuf_init(&s->buf);
	*out = NULL;
	if (add_job_monitors(s, run->job_root, err) < 0)
		goto fail;
	/* The first samples, so that every counter has a first value. */
	now = now_monotonic();
	for (size_t i = 0; i < s->n; i++) {
		struct active *a = &s->items[i];

		if (!a->gz || a->monitor->final_sample_only)
			continue;
		if (take_sample(a, &s->buf, err) < 0)
			goto fail;
		a->next = now + a->interval;
	}
	if (start_thread(s, err) < 0)
		goto fail;
	*out = s;
	return 0;
fail:
	monitor_session_free(s);
	return -1;
}

/* Closes a raw file; returns -1 with err when its last bytes failed. */
static int close_raw(struct active *a, struct kd_err *err)
{
	int rc = 0;

	if (a->gz && gzclose(a->gz) != Z_OK)
		rc = kd_error(err, "%s: %s", a->raw_path,
			      strerror(errno ? errno : EIO));
	/* The raw samples reach the disk before the run is marked complete. */
	if (a->gz && !rc) {
		int raw = open(a->raw_path, O_RDONLY | O_CLOEXEC);

		if (raw < 0 || fsync(raw) < 0)
			rc = kd_error(err, "%s: %s", a->raw_path,
				      strerror(errno));
		if (raw >= 0)
			close(raw);
	}
	a->gz = NULL;
	close_sources(a);
	return rc;
}

/* stop(), then the last sample and the raw file closed, of one monitor. */
static int active_stop(struct monitor_session *s, struct active *a,
		       const struct workload_usage *usage, struct kd_err *err)
{
	const struct monitor *m = a->monitor;
	int rc = 0;

	a->ctx.stopped = true;
	if (m->stop) {
		if (m->stop(&a->ctx, usage, err) < 0)
			rc = kd_error_prefix(err, "%s", m->section.name);
	}
	if (!rc && a->gz && !a->failed)
		rc = take_sample(a, &s->buf, err);
	if (a->gz && close_raw(a, rc ? NULL : err) < 0)
		rc = -1;
	return rc;
}

int monitors_stop(struct monitor_session *s,
		  const struct workload_usage *usage, struct kd_err *err)
{
	struct kd_err first;
	int rc = 0;

	stop_thread(s);
	if (s->error) {
		first = s->err;
		rc = -1;
	}
	for (size_t i = 0; i < s->n; i++) {
		struct kd_err e;

		if (active_stop(s, &s->items[i], usage, &e) < 0 && !rc) {
			first = e;
			rc = -1;
		}
	}
	for (size_t i = 0; i < s->n; i++) {
		const struct monitor *m = s->items[i].monitor;
		struct kd_err e;

		if (!m->finish || !s->items[i].ctx.stopped)
			continue;
		if (m->finish(&s->items[i].ctx, &e) < 0 && !rc) {
			first = e;
			kd_error_prefix(&first, "%s", m->section.name);
			rc = -1;
		}
	}
	if (rc < 0 && err)
		*err = first;
	return rc;
}

void monitor_session_unavailable(const struct monitor_session *s,
				 struct strbuf *out)
{
	strbuf_add(out, s->unavailable.buf, s->unavailable.len);
}

void monitor_session_free(struct monitor_session *s)
{
	if (!s)
		return;
	stop_thread(s);
	for (size_t i = 0; i < s->n; i++)
		active_release(&s->items[i]);
	free(s->items);
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	strbuf_release(&s->unavailable);
	strbuf_release(&s->buf);
	free(s->run_dir);
	free(s->work_dir);
	free(s->scratch_dir);
	free(s);
}


static int extract_raw(const char *run_dir, const struct monitor *m,
		       json_t *stats, struct kd_err *err)
{
	char *path = xasprintf("%s/%s.gz", run_dir, m->section.name);
	struct strbuf raw = STRBUF_INIT;
	int rc = 0;

	if (path_exists(path)) {
		const char *nul;

		rc = read_file(path, &raw, err);
		/* No /proc file holds one; the parsers' names would end at it. */
		nul = rc ? NULL : memchr(raw.buf, '\0', raw.len);
		if (nul)
			rc = kd_error(err, "%s: binary data (a NUL byte at byte %zu), not a raw sample file",
				      path, (size_t)(nul - raw.buf));
		else if (!rc && monitor_extract(m, raw.buf, raw.len, stats,
						 err) < 0)
			rc = kd_error_prefix(err, "%s", path);
	}
	strbuf_release(&raw);
	free(path);
	return rc;
}

/*
 * A workload's "key: value" lines: a numeric value becomes "<prefix>.<key>",
 * anything else is the workload's own business and ignored.
 */
static void extract_log_text(const char *prefix, const char *text,
			     json_t *stats)
{
	char *key, *metric;
	double v;

	while (store_result_next(&text, &key, &v)) {
		metric = xasprintf("%s.%s", prefix, key);
		metric_set(stats, metric, v);
		free(metric);
		free(key);
	}
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

static int extract_logs(const char *run_dir, json_t *stats, struct kd_err *err)
{
	struct dirent **names;
	int n = scandir(run_dir, &names, NULL, alphasort);
	int rc = 0;

	if (n < 0)
		return kd_error(err, "%s: %s", run_dir, strerror(errno));
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;

		/* The setup hook's stdout is no workload's result. */
		if (!rc && name[0] != '.' && has_suffix(name, ".log") &&
		    strcmp(name, STORE_SETUP_LOG)) {
			char *path = xasprintf("%s/%s", run_dir, name);
			char *prefix = xstrndup(name, strlen(name) - 4);
			struct strbuf text = STRBUF_INIT;

			rc = read_file(path, &text, err);
			if (!rc)
				extract_log_text(prefix, text.buf, stats);
			strbuf_release(&text);
			free(prefix);
			free(path);
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

/*
 * Whether dir holds what kdelta or lkp-tests put in a run directory: a
 * job.yaml, a completion mark, a stats.json or a raw monitor file.  Logs
 * alone do not count: /var/log is no run directory.
 */
static bool looks_like_run_dir(const char *dir)
{
	static const char *const marks[] = {
		STORE_JOB_FILE, STORE_COMPLETE_FILE, STORE_STATS_FILE,
	};
	bool found = false;

	for (size_t i = 0; !found && i < ARRAY_SIZE(marks); i++) {
		char *path = xasprintf("%s/%s", dir, marks[i]);

		found = path_exists(path);
		free(path);
	}
	for (size_t i = 0; !found && monitor_registry[i]; i++) {
		char *path = xasprintf("%s/%s.gz", dir,
				       monitor_registry[i]->section.name);

		found = path_exists(path);
		free(path);
	}
	return found;
}

int run_dir_extract(const char *run_dir, json_t **out, struct kd_err *err)
{
	json_t *stats;

	*out = NULL;
	if (!is_directory(run_dir))
		return kd_error(err, "%s: %s", run_dir,
				path_exists(run_dir) ? "not a directory"
						     : "no such run directory");
	if (!looks_like_run_dir(run_dir))
		return kd_error(err, "%s: not a run directory: no %s, %s, %s or raw monitor file (<monitor>.gz) in it",
				run_dir, STORE_JOB_FILE, STORE_COMPLETE_FILE,
				STORE_STATS_FILE);
	stats = json_object();
	for (size_t i = 0; monitor_registry[i]; i++)
		if (extract_raw(run_dir, monitor_registry[i], stats, err) < 0)
			goto fail;
	if (extract_logs(run_dir, stats, err) < 0)
		goto fail;
	*out = stats;
	return 0;
fail:
	json_decref(stats);
	return -1;
}

int run_dir_write_stats(const char *run_dir, const json_t *stats,
			struct kd_err *err)
{
	/* 17 significant digits: every real reads back as the same double. */
	char *text = json_dumps(stats, JSON_SORT_KEYS | JSON_INDENT(1) |
					       JSON_REAL_PRECISION(17));
	char *path = xasprintf("%s/%s", run_dir, STORE_STATS_FILE);
	int rc;

	if (!text)
		xdie_nomem("out of memory");
	rc = write_file_atomic(path, text, strlen(text), err);
	free(path);
	free(text);
	return rc;
}
