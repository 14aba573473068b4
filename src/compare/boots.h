// SPDX-License-Identifier: GPL-2.0
/*
 * Runs that share a boot, for decide.c: a variant's runs grouped by the
 * boot they were made in, and the samples a cell is tested on (its runs,
 * or its boots' means); why, in boots.c.
 */
#ifndef KDELTA_COMPARE_BOOTS_H
#define KDELTA_COMPARE_BOOTS_H

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/compare.h"

/*
 * A variant's runs by boot (why: boots.c): of_run[i] is run i's boot,
 * 0 to nboots - 1; shared when a boot holds two runs or more.  Without
 * boots, every run is its own (shared false).
 */
struct boot_groups {
	size_t nruns, nboots;
	size_t *of_run;
	bool shared;
};

/* What a cell is tested on: its runs, or its boots' means. */
struct test_samples {
	const double *base, *cell;
	size_t nb, nv;
	bool by_boots;
};

/* Scratch for the means, per variant (one thread's). */
struct boot_scratch {
	double *base, *cell;
	size_t *count;
	size_t n;
};

/* A comparison's variants' boot_groups, one per variant. */
struct boot_groups *boot_groups_new(const struct comparison *cmp);
void boot_groups_free(struct boot_groups *groups, size_t nvariants);

/* Scratch for the variants first to last (those of one thread). */
void boot_scratch_init(struct boot_scratch *scratch,
		       const struct boot_groups *groups, size_t first,
		       size_t last);
void boot_scratch_release(struct boot_scratch *scratch);

/*
 * The samples of the test of variant v's cell against the base's: the
 * boots' means when either side's runs share boots and both sides'
 * samples are their runs (a side without boots is its runs, each its own
 * boot); else the runs.  groups NULL: the runs.
 */
void test_samples_of(const struct boot_groups *groups, size_t v,
		     const struct metric_cell *base,
		     const struct metric_cell *cell,
		     struct boot_scratch *scratch, struct test_samples *t);

#endif
