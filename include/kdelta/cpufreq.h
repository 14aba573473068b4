/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_CPUFREQ_H
#define KDELTA_CPUFREQ_H

#include <stddef.h>

#include "kdelta/err.h"

/*
 * The cpufreq governor of every CPU, as a job's cpufreq_governor asks: set
 * before a run, put back after it (src/sys/cpufreq.c).
 */

/* Where the CPUs are: <root>/cpu<N>/cpufreq/scaling_governor. */
#define CPUFREQ_ROOT "/sys/devices/system/cpu"

/* The governors a CPU had before cpufreq_set(), to put back. */
struct cpufreq_saved {
	char **paths;		/* scaling_governor files */
	char **governors;	/* what each held */
	size_t n;
};

/*
 * Gives every CPU under root the governor, saving each one's own in saved.
 * Returns 0; 1 when the machine has no cpufreq (err says so, nothing is
 * changed); -1 when a CPU does not offer the governor or refuses it (err
 * says which), with what was changed put back.
 */
int cpufreq_set(const char *root, const char *governor,
		struct cpufreq_saved *saved, struct kd_err *err);

/* Puts the saved governors back and empties saved; 0 or -1 with err. */
int cpufreq_restore(struct cpufreq_saved *saved, struct kd_err *err);

#endif
