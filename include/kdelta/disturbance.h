/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_DISTURBANCE_H
#define KDELTA_DISTURBANCE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "kdelta/monitor.h"	/* PRESSURE_CPU, ... */

struct jnode;

/*
 * What else the machine was doing while a workload ran, recorded in each
 * run's job.yaml under "kdelta:" so that compare can name the runs taken
 * on a busy machine (kdelta(1), THE STORE):
 *
 *   others_cpu_seconds             the CPU time that processes other than
 *                                  the run's own and the kernel's threads
 *                                  used during the run (/proc/PID/stat)
 *   others_cpu_percent             that, as a share of one CPU over the
 *                                  run's time
 *   load_avg_start, load_avg_end   the 1-minute load average
 *                                  (/proc/loadavg) before and after
 *   concurrent_runs                the most other kdelta runs seen at
 *                                  either end
 *   pressure: {cpu, io, memory}:   where /proc/pressure has them
 *     some_avg10                   the share of the last 10 s in which
 *                                  some task stalled, at the end (%)
 *     some_stall_us                microseconds some task stalled during
 *                                  the run (the "total" counter's rise)
 *     some_stall_percent           that, as a share of the run's time
 */
struct pressure_reading {
	bool present;
	double some_avg10;		/* percent */
	uint64_t some_total_us;
};

/* A process's CPU time: utime + stime + cutime + cstime, in clock ticks. */
struct process_cpu {
	long pid;
	uint64_t ticks;
};

struct disturbance_sample {
	bool has_others;		/* the processes could be listed */
	struct process_cpu *others;	/* by pid: neither self's nor kernel's */
	size_t n_others;
	bool has_load;
	double load_avg;		/* 1 minute */
	struct pressure_reading pressure[PRESSURE_RESOURCES];
	/*
	 * The kdelta processes that run workloads ("kdelta run", "kdelta
	 * bisect") but self: each counted once, not the processes it forks.
	 */
	unsigned other_runs;
	double when;			/* now_monotonic() */
};

/*
 * Reads a sample from proc (normally "/proc"): the CPU time of the other
 * processes, load average, pressure and the other kdelta runs, self (and
 * the processes it forked) not counted.  What cannot be read is left out
 * of the sample.  Release it with disturbance_sample_release().
 */
void disturbance_read(const char *proc, pid_t self,
		      struct disturbance_sample *s);
void disturbance_sample_release(struct disturbance_sample *s);

/* Records what happened between start and end into the map kdelta. */
void disturbance_record(const struct disturbance_sample *start,
			const struct disturbance_sample *end,
			struct jnode *kdelta);

#endif
