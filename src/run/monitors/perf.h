/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_MONITORS_PERF_H
#define KDELTA_MONITORS_PERF_H

/*
 * What the monitors that run perf(1) share (perf-stat, perf-profile): perf
 * started system-wide for the run, controlled through two FIFOs (perf's
 * --control), so that the run starts only once perf counts, and stopped
 * with SIGINT, as a terminal's Ctrl-C stops it.
 */
#include <pthread.h>
#include <stdbool.h>

#include "kdelta/monitor.h"
#include "kdelta/proc.h"

struct perf_run {
	struct proc proc;
	char *dir;		/* private: the FIFOs, perf's files */
	int ctl, ack;		/* kdelta's ends of the FIFOs */
	bool running;
	/* perf_schedule()'s thread */
	pthread_t timer;
	bool timer_running;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stopping;		/* under lock */
	double enable_at, disable_at;	/* monotonic; < 0: never */
};

/*
 * Makes a private directory for perf's files below dir (the monitor's
 * scratch_dir; NULL: $TMPDIR or /tmp), and the control FIFOs in it.
 * perf_release() undoes it, also on failure.
 */
int perf_prepare(struct perf_run *run, const char *dir, struct kd_err *err);

/* A file in the private directory (caller frees). */
char *perf_path(const struct perf_run *run, const char *name);

/*
 * Starts "perf <args> --control fifo:ctl,ack", its stdout and stderr to
 * files of the private directory, then sends command ("enable\n", or
 * "ping\n" when perf enables its events itself) and waits for perf's
 * acknowledgement: when this returns 0, perf is running.  perf missing
 * from PATH or failing to start (not permitted, ...) returns
 * MONITOR_UNAVAILABLE with the reason in err.
 */
int perf_start(struct perf_run *run, const char *const *args,
	       const char *command, int cancel_fd, struct kd_err *err);

/*
 * Enables perf's events after enable_after seconds and disables them after
 * disable_after seconds (either < 0: not), from a thread of its own that
 * perf_stop() and perf_release() end: LKP's delay and duration.  perf's own
 * -D would keep it from stopping before the delay is over.
 */
int perf_schedule(struct perf_run *run, double enable_after,
		  double disable_after, struct kd_err *err);

/*
 * Sends "disable" when disable is set, then SIGINT, and waits for perf to
 * end: at most PERF_STOP_TIMEOUT seconds, or as long as it recorded when
 * that was longer (what it writes grows with that, and a slow machine, an
 * emulated guest, writes it slowly); -1 when it failed.
 */
#define PERF_STOP_TIMEOUT 30.0
int perf_stop(struct perf_run *run, bool disable, struct kd_err *err);

/* Kills perf if it still runs, removes the directory, frees run. */
void perf_release(struct perf_run *run);

/*
 * The event that samples CPU time best here: "cycles:pp", "cycles:p" or
 * "cycles" as precise as the PMU allows, or "cpu-clock" without one (a
 * virtual machine's).
 */
const char *perf_cycles_event(void);

#endif
