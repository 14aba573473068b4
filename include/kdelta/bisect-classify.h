/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_BISECT_CLASSIFY_H
#define KDELTA_BISECT_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Classifying a commit during a bisection (src/bisect/bisect-classify.c): are
 * its samples of the metric on the good commit's side or on the bad one's,
 * and which commit's next run would tell most.
 */

/*
 * The rate of classifying a commit whose mean lies exactly halfway between
 * good's and bad's, over all the looks at it; a commit on good's side is
 * called bad (or the other way round) less often than half of it.  Lower
 * than the 0.05 of the comparer because one wrong verdict sends the whole
 * bisection the wrong way.
 */
#define BISECT_CLASSIFY_ALPHA 0.01

enum bisect_class {
	BISECT_UNDECIDED,
	BISECT_GOOD,
	BISECT_BAD,
};

/* "skip", "good", "bad": what git bisect is told. */
const char *bisect_class_name(enum bisect_class verdict);

/* Samples of one commit's metric, and its complete runs. */
struct bisect_samples {
	size_t runs;
	double *x;
	size_t n;
};

/* A look at a commit: how many samples good, bad and the commit had then. */
struct bisect_look {
	size_t n_good, n_bad, n_x;
};

struct bisect_classification {
	enum bisect_class verdict;
	double midpoint;	/* of good's and bad's means */
	/*
	 * Where the commit's mean lies, 0 at good's mean and 1 at bad's, and
	 * the repeated confidence interval of it; NAN when good's and bad's
	 * means are equal, the interval infinite when no look decides yet.
	 */
	double position, low, high;
	double z;		/* the look's boundary (sequential.h) */
	double level;		/* its two-sided level, 2 (1 - Phi(z)) */
	double df;		/* of the t quantile used */
};

/*
 * The information fraction of a look: the inverse of the factor of the
 * variance of the commit's distance from the midpoint (below),
 * 1 / (1/n_x + 1/(4 n_good) + 1/(4 n_bad)), over its value when all three
 * have max_runs.
 */
double bisect_information(const struct bisect_look *look, size_t max_runs);

/*
 * One look at a commit's samples x with boundary z (sequential.h): the
 * distance of mean(x) from the midpoint of mean(good) and mean(bad), whose
 * own uncertainty counts (the distance's variance is s_x^2/n_x +
 * (s_good^2/n_good + s_bad^2/n_bad) / 4, its degrees of freedom the
 * fewest samples' of the three less one), gets the interval of t's
 * quantile at z's level.
 * The commit is good when that interval of its position lies below 1/2,
 * bad when above, else undecided (also with fewer than two samples of any
 * of the three, or good and bad alike).
 */
void bisect_judge(double z, const struct bisect_samples *good,
		  const struct bisect_samples *bad,
		  const struct bisect_samples *x,
		  struct bisect_classification *out);

/*
 * Classifies a commit at the newest of its k looks (looks[k - 1] must hold
 * the n of good, bad and x; -1 otherwise), a group-sequential test:
 * the boundaries of O'Brien-Fleming's spending of BISECT_CLASSIFY_ALPHA
 * at the looks' information fractions (sequential.h's seq_boundary(); the
 * last look, last: no run can be added, spends all the alpha left), then
 * bisect_judge() at the newest.
 */
int bisect_classify(const struct bisect_look *looks, size_t k,
		    size_t max_runs, bool last,
		    const struct bisect_samples *good,
		    const struct bisect_samples *bad,
		    const struct bisect_samples *x,
		    struct bisect_classification *out);

enum bisect_next {
	BISECT_NEXT_NONE,	/* nothing can be added */
	BISECT_NEXT_COMMIT,
	BISECT_NEXT_GOOD,
	BISECT_NEXT_BAD,
};

/*
 * Where one more run helps a classification most: the commit until it has
 * min_runs samples; then good or bad while it has fewer samples than the
 * commit (the fewer of the two first: the degrees of freedom are the
 * fewest samples', and good's and bad's runs serve every later commit
 * too); then whichever of the commit, good and bad contributes most to the
 * standard error of bisect_judge()'s distance (good's and bad's means
 * count a quarter each: the midpoint is their average), among those below
 * max_runs runs.  A noisy run of good or bad would otherwise leave every
 * commit undecided.
 */
enum bisect_next bisect_next_run(const struct bisect_samples *good,
				 const struct bisect_samples *bad,
				 const struct bisect_samples *x,
				 size_t min_runs, size_t max_runs);

#endif
