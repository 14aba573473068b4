/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_SEQUENTIAL_H
#define KDELTA_SEQUENTIAL_H

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/stats.h"

/*
 * Deciding while runs are added: "kdelta run --until-decided" looks at a
 * workload result after every round and stops once it is changed or the
 * same; bisect does the same per commit.  Looking again and again with a
 * fixed 95% interval would call a change in about a quarter of A/A
 * sequences of 30 looks; here each look uses a wider interval, a repeated
 * confidence interval of a group-sequential design (Jennison and Turnbull,
 * "Group Sequential Methods", 2000, chapters 7 and 9): the error rate
 * alpha is spent over the looks by a Lan-DeMets spending function, and
 * the boundaries are computed so that under no change, the chance that any
 * look's interval excludes the true change is alpha.  So both wrong
 * verdicts are kept at alpha over the whole sequence: "changed" when
 * nothing changed (an interval clear of 0), and "same" when the change is
 * --min-change or more (an interval inside +-min_change).
 *
 * Pure functions: no I/O, no state; the caller keeps the looks it made.
 * The boundaries are those of normal statistics; each look turns its
 * boundary into a two-sided level and uses the t quantile at that level in
 * Fieller's interval (stats.h), as Jennison and Turnbull (section 3.8) do
 * for an unknown variance.  With Welch's degrees of freedom that lets
 * about 5.3% of A/A sequences of 28 looks through at a nominal 5% (the
 * looks share their variance estimates; 100,000 simulated sequences of 3
 * to 30 runs); with Hsu's conservative min(na, nb) - 1, which the looks
 * use, 4.4%.  tests/stats/test-sequential.c shows by simulation that 1,000
 * A/A sequences end "changed" in no more than alpha of them.
 */

enum seq_spending {
	SEQ_OBRIEN_FLEMING,	/* 4 - 4 Phi(z(alpha/4) / sqrt(t)), half on
				 * each side (ldbounds, gsDesign): almost
				 * nothing spent early, the last look close
				 * to the fixed-sample test */
	SEQ_POCOCK,		/* alpha ln(1 + (e - 1) t): evenly over the
				 * looks; stops early more often, the last
				 * look stricter */
};

/* "obrien-fleming", "pocock", indexed by enum seq_spending, then NULL. */
extern const char *const seq_spending_names[];

/*
 * The two-sided error spent by information fraction t (0 < t <= 1; t > 1
 * counts as 1): 0 at t = 0, alpha at t = 1.
 */
double seq_alpha_spent(enum seq_spending spending, double alpha, double t);

/*
 * The boundaries of k looks made at information fractions t[0..k) (each
 * in (0, 1], increasing): z[j] is look j's critical value on the normal
 * scale, such that under no change the probability of crossing +-z[j] at
 * look j, not having crossed before, is the alpha spent between t[j-1] and
 * t[j].  A look that spends nothing (t not above the one before, or past
 * 1) gets INFINITY.  Computed by the recursive numerical integration of
 * Armitage, McPherson and Rowe (1969) on a grid fine enough for 4 correct
 * decimals.
 */
void seq_boundaries(enum seq_spending spending, double alpha, const double *t,
		    size_t k, double *z);

/*
 * The boundary of the newest of k looks at information fractions
 * t[0..k): z[k - 1] of seq_boundaries().  When last, that look is the
 * final one whatever its fraction: it spends all the alpha left (its t
 * counts as 1), so a sequence that ends short of its planned information
 * (runs without a value) keeps its whole error rate, no more.
 */
double seq_boundary(enum seq_spending spending, double alpha, const double *t,
		    size_t k, bool last);

/* A look: how many runs each side had then. */
struct seq_look {
	size_t base_runs, runs;
};

/*
 * The information fraction of a look: the information of the difference
 * of two means, 1 / (1/na + 1/nb), over that of max_runs runs each.
 */
double seq_information(const struct seq_look *look, size_t max_runs);

struct seq_design {
	enum seq_spending spending;
	double alpha;		/* each wrong verdict's rate, e.g. 0.05 */
	size_t max_runs;	/* per side: the last look */
	double min_change;	/* percent, or points with .points */
	bool points;		/* the metric is a percentage already */
};

/*
 * The rate of each wrong verdict over all the looks -- calling two
 * commits different when they are not, or the same when they differ by
 * min_change or more -- that kdelta's sequential decisions accept: run
 * --until-decided, bisect's good and bad, the robot's base and head.
 */
#define SEQ_ALPHA 0.05

/*
 * The one design of those decisions: O'Brien-Fleming's spending of
 * SEQ_ALPHA (two-sided; doubled for a one-sided question) up to max_runs
 * a side.
 */
void seq_design_init(struct seq_design *d, size_t max_runs,
		     double min_change, bool points);

enum seq_verdict {
	SEQ_CONTINUE,		/* add a round */
	SEQ_CHANGED,		/* the interval is clear of 0 and the change
				 * at least min_change */
	SEQ_SAME,		/* the interval lies inside +-min_change */
	SEQ_UNDECIDED,		/* the last look, and neither */
};

/* "continue", "changed", "same", "undecided". */
const char *seq_verdict_name(enum seq_verdict verdict);

struct seq_result {
	enum seq_verdict verdict;
	double z;		/* this look's boundary */
	double level;		/* its two-sided level, 2 (1 - Phi(z)) */
	struct change_interval ci;	/* the repeated confidence interval */
};

/*
 * The start of a look with boundary z: its level, no interval yet, and the
 * verdict when nothing more is known (undecided at the last look, else
 * continue).
 */
void seq_result_begin(struct seq_result *out, double z, bool last);

/*
 * The verdict of a look's bounded interval (kdelta(1), DECISIONS): changed
 * when it excludes no change and the estimate is at least min_change, same
 * when it lies within min_change either way.  With a direction (+1, -1:
 * the change looked for), the one-sided claims: changed that way, or not
 * by min_change that way.
 */
void seq_result_decide(const struct seq_design *d, int direction,
		       struct seq_result *out);

/*
 * One look at the samples a (the base) and b with boundary z; last says
 * whether no look follows.  Fewer than 2 runs in either: continue.
 */
void seq_judge(const struct seq_design *d, double z, bool last,
	       const double *a, size_t na, const double *b, size_t nb,
	       struct seq_result *out);

/*
 * The decision at the newest of the k looks made so far (looks[k - 1]
 * holds na and nb): the boundaries of all k looks, then seq_judge().  The
 * look is the last when both sides have max_runs.  Returns -1 when k is 0
 * or looks[k - 1] does not match na and nb.
 */
int seq_decide(const struct seq_design *d, const struct seq_look *looks,
	       size_t k, const double *a, size_t na, const double *b,
	       size_t nb, struct seq_result *out);

#endif
