/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_BISECT_H
#define KDELTA_BISECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kdelta/bisect-classify.h"
#include "kdelta/compare.h"
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

/* Runs of good and bad before their difference is first looked at. */
#define BISECT_MIN_REPRODUCE_RUNS 3
/*
 * The rate of calling good and bad different when they are not, over all
 * the looks (sequential.h), and of calling them the same when they differ
 * by --min-change or more.
 */
#define BISECT_REPRODUCE_ALPHA 0.05

struct executor;

/* A commit classified, for whoever follows the bisection (the robot). */
struct bisect_step_info {
	const char *commit;
	enum bisect_class verdict;
	const char *said;	/* the progress line's text after the commit */
};

struct bisect_opts {
	const char *repo;		/* the work tree, absolute */
	const char *good, *bad;		/* revisions, as given */
	const char *metric;		/* NULL: the job's key result */
	unsigned runs;			/* before the first verdict, >= 2 */
	unsigned max_runs;		/* per commit, >= runs */
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
	BISECT_NOT_REPRODUCIBLE,	/* good and bad do not differ */
	BISECT_STOPPED,			/* by a signal */
};

struct bisect_result {
	enum bisect_end end;
	char *metric;		/* the metric bisected */
	char *good, *bad;	/* full hashes */
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
 * The robot's mail about the first bad commit against its base: ro holds
 * the addresses and the like; its compare options, legend labels, job file
 * and "To reproduce" (the executor's checkout and build, as --setup) are
 * filled in here.  The comparison keeps only the bisected workload result,
 * so that the mail is about it.  report_write()'s return value.
 */
struct report_options;
int bisect_report_write(struct bisect_result *res,
			const struct bisect_opts *opts, const char *build,
			struct report_options *ro, struct strbuf *out,
			struct kd_err *err);

#endif
