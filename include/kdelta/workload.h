/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_WORKLOAD_H
#define KDELTA_WORKLOAD_H

#include <stdio.h>

#include "kdelta/err.h"
#include "kdelta/job.h"
#include "kdelta/metric-rules.h"
#include "kdelta/schema.h"
#include "kdelta/strbuf.h"

/*
 * A workload: one file in src/run/workloads/, one line in the registry
 * (src/workloads/registry.c).
 *
 * The runner forks a child, makes the job's work directory its current
 * directory, points stdout at the run directory's "<prefix>.log" and stderr
 * at "<prefix>.stderr", and calls run().  The workload writes its results as
 * "key: value" lines (value a number) to out; they become the metrics
 * "<prefix>.<key>", where <prefix> is the workload's "name" parameter if it
 * declares one (exec does), else the workload's name.  The child exits 0 when
 * run() returns 0, else prints err to stderr and exits 1.  A workload never
 * touches anything outside its current directory.
 */
struct workload {
	struct param_section section;	/* name, summary, parameters */
	/*
	 * What kdelta should know of "<name>.<key>" (kdelta/metric-rules.h):
	 * NULL-terminated, or NULL.  Patterns are keys (the part after the
	 * workload's name); a workload whose prefix is the job's choice (exec)
	 * declares none.
	 */
	const struct metric_spec *metrics;
	int (*run)(const struct jnode *params, FILE *out, struct kd_err *err);
};

/* NULL-terminated, in the order --help and the man page list them. */
extern const struct workload *const workload_registry[];

const struct workload *workload_find(const char *name);

/*
 * The workload a job runs, as its loading resolved it
 * (job->workload_section): NULL when it has none, or when its schema was
 * not job_schema_default()'s, whose workload sections are the registry's.
 */
const struct workload *workload_of_job(const struct job *job);

/* The prefix of a workload's metrics for these parameters (see above). */
const char *workload_prefix(const struct workload *wl,
			    const struct jnode *params);

/*
 * Checks a workload's "name" (its metrics' prefix; "" is the workload's
 * own): it must name the workload's files in the run directory -- a safe
 * name (safe_name()) that is not the setup hook's log -- and must not be a
 * monitor's (kdelta's or lkp-tests'), whose metrics it would overwrite or
 * join.  The check() of such "name" parameters.
 */
int workload_name_check(const char *name, struct kd_err *err);
/* workload_name_check() of the prefix the parameters give. */
int workload_prefix_check(const struct workload *wl,
			  const struct jnode *params, struct kd_err *err);

/*
 * AIM9's tests and what one operation of each is, as lines of a man page
 * (kdelta-job(5), AIM9 TESTS).
 */
void workload_aim9_tests_man(struct strbuf *out);

#endif
