/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_BISECT_H
#define KDELTA_BISECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kdelta/compare.h"
#include "kdelta/err.h"
#include "kdelta/job.h"
#include "kdelta/strbuf.h"

/*
 * kdelta bisect: finds the first commit of a git repository that changed a
 * metric of a job, by driving "git bisect" and measuring each commit it
 * proposes with the runner (docs/design.md "9. Bisect"; kdelta bisect in kdelta(1)).
 */

/* Good and bad must differ at this p-value (kdelta compare's Welch test). */
#define BISECT_REPRODUCE_ALPHA 0.05
/*
 * A commit is classified at this p-value.  Stricter than the reproduction
 * test: a commit is tested again after every added run, and one wrong
 * verdict sends the whole bisection the wrong way.
 */
#define BISECT_CLASSIFY_ALPHA 0.01
/* Runs of good and bad before their difference is tested (the comparer's). */
#define BISECT_MIN_REPRODUCE_RUNS 3

enum bisect_class {
	BISECT_UNDECIDED,
	BISECT_GOOD,
	BISECT_BAD,
};

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

/* What one "git bisect start/good/bad/skip" said. */
enum git_bisect_state {
	GIT_BISECT_NEXT,	/* a commit to test was checked out */
	GIT_BISECT_FOUND,	/* "<hash> is the first bad commit" */
	GIT_BISECT_ONLY_SKIPPED,	/* "only 'skip'ped commits left" */
};

struct git_bisect_step {
	enum git_bisect_state state;
	char *commit;		/* NEXT: to test; FOUND: the first bad one */
	int steps_left;		/* NEXT: "roughly N steps", -1 if unsaid */
	char **candidates;	/* ONLY_SKIPPED: "could be any of" */
	size_t n_candidates;
};

/*
 * Parses the output of a git bisect command run with LC_ALL=C.  Returns -1
 * when it is none of the above.
 */
int git_bisect_parse(const char *text, struct git_bisect_step *out,
		     struct kd_err *err);
void git_bisect_step_release(struct git_bisect_step *step);

struct work_dir;

struct bisect_opts {
	const char *repo;		/* the work tree, absolute */
	const char *good, *bad;		/* revisions, as given */
	const char *build;		/* sh -c template: {commit} replaced */
	const char *metric;		/* NULL: the job's key result */
	unsigned runs;			/* before the first verdict, >= 2 */
	unsigned max_runs;		/* per commit, >= runs */
	double min_change;		/* percent, good against bad */
	const char *result_root;	/* absolute */
	const struct work_dir *work_dir;	/* private, opened (workdir.h) */
	const struct job *job;
	int cancel_fd;			/* readable: stop (proc_catch_signals) */
	FILE *log;			/* progress lines ("bisect: ...") */
};

enum bisect_end {
	BISECT_FOUND,			/* first_bad is the first bad commit */
	BISECT_RANGE,			/* only skipped commits left */
	BISECT_NOT_REPRODUCIBLE,	/* good and bad do not differ */
	BISECT_STOPPED,			/* by a signal */
};

struct bisect_result {
	enum bisect_end end;
	char *metric;		/* the metric bisected */
	char *first_bad;	/* BISECT_FOUND */
	char *subject;		/* of first_bad */
	char *base;		/* compared with first_bad: its parent, or the
				 * last good commit when the parent could not
				 * be measured */
	bool base_is_parent;
	char **candidates;	/* BISECT_RANGE, with their subjects */
	char **candidate_subjects;
	size_t n_candidates;
	/*
	 * Decided as kdelta compare decides: base against first_bad
	 * (BISECT_FOUND), or good against bad with only the workload's
	 * results and the metric (BISECT_NOT_REPRODUCIBLE); empty otherwise.
	 */
	struct comparison cmp;
	struct compare_options opt;
	struct strbuf log;	/* git bisect log */
	int signal;		/* BISECT_STOPPED */
	bool store_failed;	/* bisect_run() failed: the store or the work
				 * directory could not be written */
};

/*
 * Runs the whole bisection: checks the repository, shows that good and bad
 * differ, bisects, and always leaves the repository on the branch (or
 * detached commit) it was on.  A bisection that kdelta left behind (killed)
 * is reset first.  Returns -1 on errors (a git command, the store, a build
 * or run of good or bad that fails); usage problems (not a repository,
 * uncommitted changes, a bad revision) are errors too, with *usage set.
 */
int bisect_run(const struct bisect_opts *opts, struct bisect_result *res,
	       bool *usage, struct kd_err *err);
void bisect_result_release(struct bisect_result *res);

/*
 * Drops the workload results other than metric from a decided comparison,
 * so that the robot's mail (report_write(), which picks the largest change)
 * is about the bisected metric.
 */
void bisect_keep_result(struct comparison *cmp, const char *metric);

#endif
