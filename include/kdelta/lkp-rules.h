/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_LKP_RULES_H
#define KDELTA_LKP_RULES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * What lkp-tests decides about a stat, from what its documentation, data
 * files and behaviour say (the facts are listed in src/stats/lkp-rules.c, each
 * with the lkp-tests file it comes from): which stats are failures, which
 * it compares at all, and when it calls a stat changed.  "--test lkp" and
 * the fail:runs table use these, so that a robot moving from lkp-tests to
 * kdelta sees the same changes on the same results.
 */

/*
 * A failure stat (lkp-tests calls them function stats): dmesg.*, kmsg.*,
 * last_state.*, stderr.*, names ending in .fail, .error, .warn or .pass,
 * ...  Its values count occurrences per run; lkp-tests shows it in the
 * fail:runs table.
 */
bool lkp_failure_stat(const char *name);

/*
 * One side of a comparison as lkp-tests sees it: the values of the runs
 * (absent ones as 0), how many runs its matrix has, and whether the stat
 * is in it at all.
 */
struct lkp_side {
	const double *samples;	/* NULL when absent */
	size_t n;		/* samples */
	size_t runs;		/* runs of the matrix */
	bool source_present;	/* the stat's monitor (its part before the
				 * first dot) reported something */
	/* Whether this side has stat name (asked of the base only). */
	bool (*has)(const void *ctx, const char *name);
	const void *ctx;
	bool integers;		/* every value written as an integer: Ruby
				 * Integers to lkp-tests */
};

/* Why lkp-tests calls a stat changed, or does not. */
enum lkp_decision {
	LKP_CHANGED,
	LKP_NOT_COMPARED,	/* denylisted and not allowlisted */
	LKP_FEW_RUNS,		/* a regular stat, fewer than 3 runs on
				 * both sides */
	LKP_NO_BASE,		/* absent from the base */
	LKP_NO_PASS_FAIL_PAIR,	/* a .fail without a .pass in the base, or
				 * the other way round */
	LKP_SAME,		/* the interval rule */
	LKP_SAME_MAXIMA,	/* a failure stat's largest counts equal */
	LKP_RATIO_1_PERCENT,	/* middles not more than 1% apart */
	LKP_RATIO_5_PERCENT,	/* not a performance metric, middles not
				 * more than 5% apart */
	LKP_UNREASONABLE,	/* below lkp-tests' per-metric threshold */
	LKP_NO_COMPLETE_RUN,	/* a failure stat lkp-tests compares over
				 * complete runs only, and a side has none
				 * (lkp_decide_over_all_runs()) */
};

/*
 * Whether lkp-tests also decides failure stat name over every run, runs it
 * marks incomplete too, where a side has some: dmesg.*, last_state.* and
 * stderr.*; the others (kmsg.*, *.fail, ...) over the complete runs only.
 * It calls a stat changed when either decision does.
 */
bool lkp_decide_over_all_runs(const char *name);

/*
 * lkp-tests' decision on stat name between base and other.  key: the
 * comparer takes name for a workload result (kdelta/matrix.h), which
 * stands for lkp-tests' list of its test programs.
 */
enum lkp_decision lkp_decide(const char *name, bool key,
			     const struct lkp_side *base,
			     const struct lkp_side *other);

/* One line for --explain, per decision. */
const char *lkp_decision_rule(enum lkp_decision decision);

#endif
