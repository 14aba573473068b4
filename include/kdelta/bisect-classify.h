/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_BISECT_CLASSIFY_H
#define KDELTA_BISECT_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/commit-dir.h"
#include "kdelta/sequential.h"

/*
 * The statistics of a bisection (src/bisect/bisect-classify.c), pure
 * functions on rounds of runs: does the good commit differ from the bad
 * one, and is a commit on good's side or on bad's?
 *
 * Every look measures a commit together with its references: good and bad
 * (or two ends alone) get fresh runs in the same shuffled rounds as the
 * commit, and only runs taken alongside are compared, round by round.
 * Whatever the machine does over minutes (another job starting, a load
 * regime) then falls on the three runs of a round alike, and the
 * difference within a round does not see it: looks taken minutes apart
 * cannot disagree because the machine changed in between.
 * tests/bisect/test-drift.c shows by a seeded simulation, with noise that
 * switches between two load regimes every few minutes, that comparing a
 * commit's runs with good's and bad's runs of other minutes sends
 * bisections to a wrong commit far more often than the nominal rate, and
 * that these rounds do not.
 *
 * Disturbed runs (those compare names: load above the CPUs, another
 * kdelta run beside it, CPU, I/O or memory pressure; run-record.h): a round
 * whose runs were all disturbed, or none, is compared, since what
 * disturbed all of them falls on all of them; a round in which some runs
 * were disturbed and others not is left out, with a note, and the look
 * measures another round in its place (within max_runs).  Such a round
 * compares a quiet run with a busy one, which is the error rounds are
 * there to avoid.
 */

/*
 * The rate of classifying a commit that lies exactly halfway between good
 * and bad, over all the looks at it; a commit on good's side is called bad
 * (or the other way round) less often than half of it.  Lower than the
 * 0.05 of the comparer because one wrong verdict sends the whole bisection
 * the wrong way.
 */
#define BISECT_CLASSIFY_ALPHA 0.01

enum bisect_class {
	BISECT_UNDECIDED,
	BISECT_GOOD,
	BISECT_BAD,
};

/* "skip", "good", "bad": what git bisect is told. */
const char *bisect_class_name(enum bisect_class verdict);

/* The most commits of a round: good, bad and the commit looked at. */
#define BISECT_ROUND_MAX 3

/* One round: a run of each commit of a look, taken alongside. */
struct bisect_round {
	double value[BISECT_ROUND_MAX];		/* the metric's */
	bool disturbed[BISECT_ROUND_MAX];
	double start;		/* when its first run started (epoch) */
};

/*
 * Pairs the runs of n commits (records[c], each with the metric's value)
 * into rounds: runs of one batch and round (commit-dir.h), one of each
 * commit, all with a value; in the order they ran.  Returns the number
 * of rounds (*out: caller frees).
 */
size_t bisect_pair_rounds(const struct tagged_runs *const *records, size_t n,
			  struct bisect_round **out);

/* The rule above: no run of the round disturbed, or all of them. */
bool bisect_round_compared(const struct bisect_round *r, size_t n);

struct bisect_classification {
	enum bisect_class verdict;
	/*
	 * Where the commit's mean lies, 0 at good's and 1 at bad's (in the
	 * rounds compared), and the repeated confidence interval of it;
	 * NAN when the rounds do not tell good from bad, the interval
	 * infinite when no look was made.
	 */
	double position, low, high;
	double z;		/* the deciding look's boundary */
	double level;		/* its two-sided level, 2 (1 - Phi(z)) */
	size_t rounds;		/* looked at */
	size_t compared;	/* of those, compared (bisect_round_compared()) */
	size_t looks;		/* made, up to the deciding one */
};

/*
 * Classifies a commit from the rounds of good, bad and the commit
 * (value[0], [1], [2]), in the order they ran.  The looks are those the
 * bisection makes: after every round from min_runs rounds on, each
 * comparing the rounds so far; the first look that decides is the
 * verdict, so that the verdict is the same whenever it is computed again
 * from the same runs (a resumed bisection, the robot reading a Slurm
 * job's).  A look: the difference of the commit's run from the midpoint
 * of good's and bad's in each round compared, d = x - (g + b) / 2, and
 * the repeated confidence interval of its mean (t with their number less
 * one degrees of freedom at the look's boundary, sequential.h:
 * O'Brien-Fleming's spending of BISECT_CLASSIFY_ALPHA at information
 * fractions rounds compared / max_runs; the last look, last, spends what
 * is left).  direction is +1 when bad's values are above good's, -1 when
 * below: the commit is bad when the interval lies wholly on bad's side of
 * 0, good when wholly on good's.
 */
void bisect_classify(const struct bisect_round *rounds, size_t n,
		     size_t min_runs, size_t max_runs, bool last,
		     int direction, struct bisect_classification *out);

/*
 * Whether two commits differ (value[0] the base, value[1] the other), by
 * the sequential design d (sequential.h) over the same looks as
 * bisect_classify(): after every round from min_runs on, the first look
 * that decides (changed or the same) is the verdict; SEQ_UNDECIDED when
 * last and none did, SEQ_CONTINUE when more rounds may tell.  *compared
 * is the number of rounds compared at that look.  A look is seq_judge()'s
 * with a paired interval: the change of each round, ln(b / a), and t's
 * interval of their mean (n - 1 degrees of freedom at the look's level)
 * as a change in percent; for a percentage (d->points), or values not all
 * positive, the mean difference (in points, or in percent of a's mean).
 *
 * direction 0: the two-sided claims, changed (the interval clear of 0 and
 * the change at least min_change) or the same (the interval inside
 * +-min_change).  direction +1 or -1: the one-sided claims of whether b
 * moved that way from a: SEQ_CHANGED when the interval lies wholly on
 * that side of 0 and the change is at least min_change that way,
 * SEQ_SAME when its bound on that side is short of min_change (it did not
 * move that way by min_change; the other way it may have).  Each
 * one-sided claim is wrong at most alpha / 2 of the time: to keep each at
 * alpha, give d->alpha twice that (the interval of the two one-sided tests,
 * as Schuirmann's equivalence test takes the 90% interval for 5%).
 */
void bisect_compare_ends(const struct seq_design *d,
			 const struct bisect_round *rounds, size_t n,
			 size_t min_runs, bool last, int direction,
			 struct seq_result *out, size_t *compared);

#endif
