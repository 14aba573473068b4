/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_RUN_DECIDE_H
#define KDELTA_RUN_DECIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/sequential.h"
#include "kdelta/strbuf.h"

/*
 * kdelta run --until-decided: the workload results of a batch's runs, and
 * after each round a look at every result of every job, each commit
 * against the first (the base), through the sequential design of
 * kdelta/sequential.h, which keeps both wrong verdicts at alpha however
 * many looks are made.  A job gets another round while one of its results
 * can still become changed or same; it stops when each is decided, when
 * the design's last look (max_runs runs a side) is reached, or when one of
 * its commits has no result at all (its runs fail: more runs would not
 * tell).
 */
struct run_decider;

struct run_decider *run_decider_new(size_t n_jobs, size_t n_commits,
				    const struct seq_design *design);
void run_decider_free(struct run_decider *d);

/* A workload result of a complete run of job and commit. */
void run_decider_add(struct run_decider *d, size_t job, size_t commit,
		     const char *metric, double value);

/* What a look found out, beyond the verdicts. */
struct run_decider_news {
	/* "<job>/<commit> <metric> -3.1% (-9.0% .. +2.8%)", "; " between: */
	struct strbuf undecided;	/* getting another round */
	struct strbuf final;		/* undecided at max_runs runs */
	struct strbuf failing;		/* "<job>/<commit>: no run gave a result" */
};

/*
 * Looks at every job with looked[job] (those that ran in the round just
 * done; runs[job] runs each so far, job names[job]); sets more[job] for
 * those that need another round, and says why in news (initialised by the
 * caller).  Returns the number of jobs that need more.
 */
size_t run_decider_look(struct run_decider *d, const char *const *job_names,
			const char *const *commits, const unsigned *runs,
			const bool *looked, bool *more,
			struct run_decider_news *news);

/* Counts of the verdicts at the latest looks: index enum seq_verdict. */
void run_decider_count(const struct run_decider *d, size_t counts[4]);

#endif
