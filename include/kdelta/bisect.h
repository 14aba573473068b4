/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_BISECT_H
#define KDELTA_BISECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kdelta/bisect-classify.h"
#include "kdelta/compare.h"
#include "kdelta/executor.h"
#include "kdelta/commit-dir.h"
#include "kdelta/sequential.h"
#include "kdelta/err.h"
#include "kdelta/git-bisect.h"
#include "kdelta/job.h"
#include "kdelta/strbuf.h"

/*
 * kdelta bisect: finds the first commit of a git repository that changed a
 * metric of a job.  git bisect proposes commits (git-bisect.h), an
 * executor measures them (executor.h), each is classified good or bad
 * (bisect-classify.h), and the first bad one is compared with its parent
 * as kdelta compare compares (compare-args.h).  docs/design.md
 * "9. Bisect"; kdelta bisect in kdelta(1).
 */

/* Rounds of good and bad before their difference is first looked at. */
#define BISECT_MIN_REPRODUCE_RUNS 3
struct executor;

/* A commit classified, for whoever follows the bisection (the robot). */
struct bisect_step_info {
	const char *commit;
	enum bisect_class verdict;
	bool build_failed;	/* it does not build (verdict: undecided) */
	const char *why;	/* then why, else NULL */
	const char *said;	/* the progress line's text after the commit */
};

struct bisect_opts {
	const char *repo;		/* the work tree, absolute */
	const char *good, *bad;		/* revisions, as given */
	const char *metric;		/* NULL: the job's key result */
	unsigned runs;			/* rounds before the first look, >= 2 */
	unsigned max_runs;		/* rounds per look at most, >= runs */
	double min_change;		/* percent, good against bad */
	const char *result_root;	/* absolute */
	const struct job *job;
	struct executor *executor;	/* measures the commits */
	const char *purpose;		/* prefix of the executor's requests'
					 * purposes, or NULL */
	int cancel_fd;			/* readable: stop (proc_catch_signals) */
	FILE *log;			/* progress lines ("bisect: ...") */
	void (*on_step)(void *arg, const struct bisect_step_info *step);
	void *on_step_arg;
};

enum bisect_end {
	BISECT_FOUND,			/* first_bad is the first bad commit */
	BISECT_RANGE,			/* only skipped commits left */
	/*
	 * good and bad are not shown to differ: the same within
	 * --min-change, or undecided at --max-runs (ends.verdict says which)
	 */
	BISECT_NOT_REPRODUCIBLE,
	/*
	 * first_bad changed the metric, but whether an earlier commit did
	 * too (between good and first_bad's parent) is undecided: see
	 * earlier.
	 */
	BISECT_EARLIER_UNDECIDED,
	BISECT_STOPPED,			/* by a signal */
};

/* "found", "range", "not reproducible", "undecided", "stopped". */
const char *bisect_end_name(enum bisect_end end);

struct bisect_result {
	enum bisect_end end;
	char *metric;		/* the metric bisected */
	char *good, *bad;	/* full hashes */
	char *first_bad;	/* BISECT_FOUND, BISECT_EARLIER_UNDECIDED */
	char *subject;		/* of first_bad */
	char *base;		/* compared with first_bad: its parent, or the
				 * last good commit when the parent could not
				 * be measured */
	bool base_is_parent;
	char *last_good;	/* the last commit classified good, or NULL */
	char **candidates;	/* BISECT_RANGE, with their subjects */
	char **candidate_subjects;
	size_t n_candidates;
	/*
	 * Good against bad (the reproduction), and good against
	 * first_bad's parent (earlier_commit), which tells whether an
	 * earlier commit changed the metric too: SEQ_CHANGED sent the
	 * bisection between good and that parent; its verdict is
	 * SEQ_CONTINUE when no such look was needed (the parent is good).
	 */
	struct seq_result ends, earlier;
	char *earlier_commit;
	int direction;		/* +1: bad's values above good's, -1 below */
	/*
	 * First bad commits of later changes, found on the way to an earlier
	 * one (newest first), with their subjects.
	 */
	char **later, **later_subjects;
	size_t n_later;
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
 * uncommitted changes, a bad revision) are errors too, of the kind
 * KD_EXIT_USAGE (kd_err_status()).
 */
int bisect_run(const struct bisect_opts *opts, struct bisect_result *res,
	       struct kd_err *err);
void bisect_result_release(struct bisect_result *res);

/*
 * Where a bisection measures and what tells it the commits to look at:
 * bisect_run()'s are git, the executor and the store; a simulation's
 * (tests/bisect/test-drift.c) are a model of a machine and of git.
 */
struct bisect_env {
	void *arg;
	/*
	 * Each of the n commits to runs complete runs tagged tag, in
	 * shuffled rounds (executor.h's request); outcome[i] and why[i]
	 * (NULL, or what the callee allocated) for each; *signal when a
	 * signal stopped it.
	 */
	int (*measure)(void *arg, const char *tag, const char *const *commits,
		       size_t n, unsigned runs, enum measure_outcome *outcome,
		       char **why, int *signal, struct kd_err *err);
	/* A commit's runs tagged tag, with the metric's values. */
	int (*records)(void *arg, const char *commit, const char *tag,
		       struct tagged_runs *out, struct kd_err *err);
	/* git bisect between good and bad, anew: the first commit to test. */
	int (*start)(void *arg, const char *good, const char *bad,
		     struct git_bisect_step *step, struct kd_err *err);
	/* The verdict of step's commit: what git says next, in step. */
	int (*mark)(void *arg, enum bisect_class verdict,
		    struct git_bisect_step *step, struct kd_err *err);
	char *(*parent)(void *arg, const char *commit);	/* or NULL */
	char *(*subject)(void *arg, const char *commit);
	int (*stopped)(void *arg);	/* the signal that stops it, or 0 */
};

/*
 * The search itself, between the full hashes good and bad, of metric
 * (bisect-classify.h): shows that good and bad differ, has git bisect
 * choose commits and classifies each, and when it names a first bad
 * commit whose parent is not good, looks whether good and that parent
 * differ: when they do, an earlier commit changed the metric too, and the
 * search goes on between good and the parent.  Fills res (end, first_bad,
 * last_good, candidates, ends, earlier, later, signal).  Uses of o: runs,
 * max_runs, min_change, log, on_step.
 */
int bisect_search(const struct bisect_opts *o, const char *good,
		  const char *bad, const char *metric,
		  const struct bisect_env *env, struct bisect_result *res,
		  struct kd_err *err);

/*
 * The robot's mail about the first bad commit against its base: ro holds
 * the addresses and the like; its compare options, legend labels, job file
 * and "To reproduce" (the checkout, build and install, as --setup, in
 * repo_shown, or NULL: opts->repo) are filled in here.  The comparison
 * keeps only the bisected workload result, so that the mail is about it.
 * report_write()'s return value.
 */
struct report_options;
int bisect_report_write(struct bisect_result *res,
			const struct bisect_opts *opts, const char *build,
			const char *install, const char *repo_shown,
			struct report_options *ro, struct strbuf *out,
			struct kd_err *err);

#endif
