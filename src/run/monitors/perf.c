// SPDX-License-Identifier: GPL-2.0
/*
 * perf(1) for the monitors: see perf.h.
 *
 * perf's --control takes commands ("enable", "disable") on one FIFO and
 * answers "ack" on the other.  kdelta opens both before perf starts, the
 * command FIFO for reading and writing, so that neither side's open()
 * waits for the other.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kdelta/util.h"
#include "perf.h"

/* perf loads its symbols and opens its events within this. */
#define PERF_START_TIMEOUT 20.0
#define PERF_ACK_TIMEOUT 5.0

char *perf_path(const struct perf_run *run, const char *name)
{
	return xasprintf("%s/%s", run->dir, name);
}

static int make_dir(struct perf_run *run, const char *dir,
		    struct kd_err *err)
{
	const char *tmp = dir ? dir : getenv("TMPDIR");

	run->dir = xasprintf("%s/kdelta-perf.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(run->dir)) {
		kd_error(err, "cannot create a directory %s: %s", run->dir,
			 strerror(errno));
		free(run->dir);
		run->dir = NULL;
		return -1;
	}
	return 0;
}

static int open_fifo(struct perf_run *run, const char *name, int flags,
		     int *fd, struct kd_err *err)
{
	char *path = perf_path(run, name);
	int rc = 0;

	if (mkfifo(path, 0600) < 0 ||
	    (*fd = open(path, flags | O_NONBLOCK | O_CLOEXEC)) < 0)
		rc = kd_error(err, "%s: %s", path, strerror(errno));
	free(path);
	return rc;
}

/* The first line of perf's stderr that says something ("Error:" does not). */
static void perf_complaint(const struct perf_run *run, struct strbuf *out)
{
	char *path = perf_path(run, "stderr");
	struct strbuf text = STRBUF_INIT;
	char *line, *save = NULL;

	if (!read_file(path, &text, NULL))
		for (line = strtok_r(text.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			if (strcmp(line, "Error:") && *line) {
				strbuf_addf(out, ": %.200s", line);
				break;
			}
	strbuf_release(&text);
	free(path);
}

enum ack { ACKED, PERF_ENDED, CANCELLED, TIMED_OUT };

/* Sends a command and waits for perf's "ack". */
static enum ack send(struct perf_run *run, const char *cmd, int cancel_fd,
		     double timeout)
{
	double until = now_monotonic() + timeout;
	char buf[64];

	if (write(run->ctl, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		return PERF_ENDED;
	while (now_monotonic() < until) {
		struct pollfd fds[2] = {
			{ .fd = run->ack, .events = POLLIN },
			{ .fd = cancel_fd, .events = POLLIN },
		};
		ssize_t n;

		if (poll(fds, cancel_fd >= 0 ? 2 : 1, 50) > 0) {
			if (fds[1].revents & POLLIN)
				return CANCELLED;
			n = read(run->ack, buf, sizeof(buf) - 1);
			if (n > 0) {
				buf[n] = '\0';
				if (strstr(buf, "ack"))
					return ACKED;
			}
		}
		if (proc_ended(&run->proc))
			return PERF_ENDED;
	}
	return TIMED_OUT;
}

/* Why perf did not start: it ended, or it was stopped; reaped. */
static int not_started(struct perf_run *run, enum ack why, struct kd_err *err)
{
	struct strbuf msg = STRBUF_INIT;

	if (why != PERF_ENDED)
		proc_kill(&run->proc);
	proc_wait(&run->proc, NULL);
	run->running = false;
	if (why == PERF_ENDED) {
		strbuf_addstr(&msg, "perf ");
		proc_describe_end(&run->proc, &msg);
		perf_complaint(run, &msg);
	} else if (why == CANCELLED) {
		strbuf_addstr(&msg, "stopped before perf started");
	} else {
		strbuf_addf(&msg, "perf did not start within %gs",
			    PERF_START_TIMEOUT);
	}
	kd_error(err, "%s", msg.buf);
	strbuf_release(&msg);
	return MONITOR_UNAVAILABLE;
}

/* "perf", args, "--control", control: to free (not its strings). */
static const char **perf_argv(const char *const *args, const char *control)
{
	size_t n = 0;
	const char **argv;

	while (args[n])
		n++;
	argv = xcalloc(n + 4, sizeof(*argv));
	argv[0] = "perf";
	memcpy(argv + 1, args, n * sizeof(*argv));
	argv[n + 1] = "--control";
	argv[n + 2] = control;
	return argv;
}

int perf_prepare(struct perf_run *run, const char *dir, struct kd_err *err)
{
	memset(run, 0, sizeof(*run));
	run->ctl = run->ack = -1;
	run->proc = (struct proc)PROC_INIT;
	if (make_dir(run, dir, err) < 0 ||
	    open_fifo(run, "ack", O_RDONLY, &run->ack, err) < 0 ||
	    open_fifo(run, "ctl", O_RDWR, &run->ctl, err) < 0)
		return -1;
	return 0;
}

int perf_start(struct perf_run *run, const char *const *args,
	       const char *command, int cancel_fd, struct kd_err *err)
{
	char *control = xasprintf("fifo:%s/ctl,%s/ack", run->dir, run->dir);
	const char **argv = perf_argv(args, control);
	char *out_path = perf_path(run, "stdout");
	char *err_path = perf_path(run, "stderr");
	enum ack ack;
	int rc;

	run->proc.argv = argv;
	run->proc.out_path = out_path;
	run->proc.err_path = err_path;
	rc = proc_start(&run->proc, err);
	run->proc.argv = NULL;
	run->proc.out_path = run->proc.err_path = NULL;
	free(argv);
	free(control);
	free(out_path);
	free(err_path);
	if (rc < 0) {
		if (run->proc.exec_errno == ENOENT)
			kd_error(err, "perf not found in PATH (Debian's linux-perf has it)");
		return MONITOR_UNAVAILABLE;
	}
	run->running = true;
	ack = send(run, command, cancel_fd, PERF_START_TIMEOUT);
	return ack == ACKED ? 0 : not_started(run, ack, err);
}

static void timespec_at(double t, struct timespec *ts)
{
	ts->tv_sec = (time_t)t;
	ts->tv_nsec = (long)((t - (double)ts->tv_sec) * 1e9);
}

/* Waits until t (monotonic) unless stopped; returns false when stopped. */
static bool wait_until(struct perf_run *run, double t)
{
	struct timespec ts;
	bool go_on;

	timespec_at(t, &ts);
	pthread_mutex_lock(&run->lock);
	while (!run->stopping && now_monotonic() < t)
		pthread_cond_timedwait(&run->wake, &run->lock, &ts);
	go_on = !run->stopping;
	pthread_mutex_unlock(&run->lock);
	return go_on;
}

static void *timer_main(void *arg)
{
	struct perf_run *run = arg;

	if (run->enable_at >= 0 && wait_until(run, run->enable_at))
		send(run, "enable\n", -1, PERF_ACK_TIMEOUT);
	if (run->disable_at >= 0 && wait_until(run, run->disable_at))
		send(run, "disable\n", -1, PERF_ACK_TIMEOUT);
	return NULL;
}

int perf_schedule(struct perf_run *run, double enable_after,
		  double disable_after, struct kd_err *err)
{
	double now = now_monotonic();
	pthread_condattr_t attr;
	int rc;

	run->enable_at = enable_after >= 0 ? now + enable_after : -1;
	run->disable_at = disable_after >= 0 ? now + disable_after : -1;
	pthread_mutex_init(&run->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&run->wake, &attr);
	pthread_condattr_destroy(&attr);
	rc = pthread_create(&run->timer, NULL, timer_main, run);
	if (rc) {
		pthread_cond_destroy(&run->wake);
		pthread_mutex_destroy(&run->lock);
		return kd_error(err, "cannot start a thread: %s", strerror(rc));
	}
	run->timer_running = true;
	return 0;
}

static void end_timer(struct perf_run *run)
{
	if (!run->timer_running)
		return;
	pthread_mutex_lock(&run->lock);
	run->stopping = true;
	pthread_cond_signal(&run->wake);
	pthread_mutex_unlock(&run->lock);
	pthread_join(run->timer, NULL);
	pthread_cond_destroy(&run->wake);
	pthread_mutex_destroy(&run->lock);
	run->timer_running = false;
}

int perf_stop(struct perf_run *run, bool disable, struct kd_err *err)
{
	struct strbuf how = STRBUF_INIT;
	double recorded;
	int rc = 0;

	end_timer(run);
	if (!run->running)
		return 0;
	if (disable)
		send(run, "disable\n", -1, PERF_ACK_TIMEOUT);
	proc_signal(&run->proc, SIGINT);
	recorded = now_monotonic() - run->proc.start;
	run->proc.start = now_monotonic();
	run->proc.timeout = fmax(PERF_STOP_TIMEOUT, recorded);
	if (proc_wait(&run->proc, err) < 0)
		rc = -1;
	else if (run->proc.end == PROC_TIMED_OUT ||
		 (run->proc.end == PROC_EXITED && run->proc.status &&
		  run->proc.status != 128 + SIGINT) ||
		 (run->proc.end == PROC_SIGNALED &&
		  run->proc.status != SIGINT)) {
		strbuf_addstr(&how, "perf ");
		proc_describe_end(&run->proc, &how);
		perf_complaint(run, &how);
		rc = kd_error(err, "%s", how.buf);
	}
	run->running = false;
	strbuf_release(&how);
	return rc;
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *path;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		unlink(path);
		free(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

void perf_release(struct perf_run *run)
{
	end_timer(run);
	if (run->running) {
		proc_kill(&run->proc);
		proc_wait(&run->proc, NULL);
		run->running = false;
	}
	proc_clear(&run->proc);
	if (run->ctl >= 0)
		close(run->ctl);
	if (run->ack >= 0)
		close(run->ack);
	run->ctl = run->ack = -1;
	if (run->dir)
		remove_dir(run->dir);
	free(run->dir);
	run->dir = NULL;
}

/* Whether this process may count CPU cycles with this precision. */
static bool cycles_work(unsigned precise)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_period = 1000003,
		.precise_ip = precise,
		.disabled = 1,
		.exclude_hv = 1,
	};
	long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);

	if (fd < 0)
		return false;
	close((int)fd);
	return true;
}

const char *perf_cycles_event(void)
{
	if (cycles_work(2))
		return "cycles:pp";
	if (cycles_work(1))
		return "cycles:p";
	if (cycles_work(0))
		return "cycles";
	return "cpu-clock";
}
