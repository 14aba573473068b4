/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_BISECT_CLASSIFY_H
#define KDELTA_BISECT_CLASSIFY_H

#include <stddef.h>

/*
 * Classifying a commit during a bisection (src/bisect-classify.c): are
 * its samples of the metric on the good commit's side or on the bad one's,
 * and which commit's next run would tell most.
 */

/*
 * A commit is classified at this p-value.  Stricter than the test that
 * good and bad differ: a commit is tested again after every added run, and
 * one wrong verdict sends the whole bisection the wrong way.
 */
#define BISECT_CLASSIFY_ALPHA 0.01

enum bisect_class {
	BISECT_UNDECIDED,
	BISECT_GOOD,
	BISECT_BAD,
};

/* "skip", "good", "bad": what git bisect is told. */
const char *bisect_class_name(enum bisect_class verdict);

struct bisect_classification {
	enum bisect_class verdict;
	double midpoint;	/* of good's and bad's means */
	double t, df, p;	/* of the commit's mean against the midpoint */
};

/*
 * Classifies a commit's samples x against the good and the bad commit's:
 * Welch's t-test of mean(x) against the midpoint of mean(good) and
 * mean(bad), the midpoint's own uncertainty included (its variance is
 * (s_good^2/n_good + s_bad^2/n_bad) / 4, the degrees of freedom by
 * Welch-Satterthwaite).  When p < BISECT_CLASSIFY_ALPHA the commit is on
 * one side of the midpoint, that is significantly closer to good than to
 * bad, or the other way round; otherwise it is undecided.  Needs at least
 * two samples each (undecided otherwise).
 */
void bisect_classify(const double *good, size_t n_good, const double *bad,
		     size_t n_bad, const double *x, size_t n_x,
		     struct bisect_classification *out);

/* Samples of one commit's metric, and its complete runs. */
struct bisect_samples {
	size_t runs;
	double *x;
	size_t n;
};

enum bisect_next {
	BISECT_NEXT_NONE,	/* nothing can be added */
	BISECT_NEXT_COMMIT,
	BISECT_NEXT_GOOD,
	BISECT_NEXT_BAD,
};

/*
 * Where one more run helps a classification most: the commit until it has
 * min_runs samples, then whichever of the commit, good and bad contributes
 * most to the standard error of bisect_classify()'s test (good's and bad's
 * means count a quarter each: the midpoint is their average), among those
 * below max_runs runs.  A noisy run of good or bad would otherwise leave
 * every commit undecided.
 */
enum bisect_next bisect_next_run(const struct bisect_samples *good,
				 const struct bisect_samples *bad,
				 const struct bisect_samples *x,
				 size_t min_runs, size_t max_runs);

#endif
