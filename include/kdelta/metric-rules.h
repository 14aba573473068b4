/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_METRIC_RULES_H
#define KDELTA_METRIC_RULES_H

#include <stdbool.h>

/*
 * What the comparer knows about a metric from its name alone, each from
 * one table in src/metric-rules.c: which direction is better, and how large
 * a change of a monitor counter must be to be worth reporting.
 */

/*
 * +1 when higher is better (ops_per_sec, jobs_per_min, throughput,
 * per_sec), -1 when lower is better (usecs, latency, elapsed, time), 0 when
 * the name does not say.  Decided by the last dot-separated component of
 * the name.
 */
int metric_direction(const char *name);

/*
 * Metrics that are percentages already: names ending in '%', vmstat.cpu.*,
 * time.percent_of_cpu_this_job_got, perf-profile.*.  Their change is shown
 * as an absolute difference.
 */
bool metric_is_percent(const char *name);

/*
 * The minimum effect for a monitor metric, after lkp-tests' "reasonable
 * change" floors (lib/stats.rb, etc/perf-metrics-threshold.yaml).  A
 * significant change is reported as changed only when all of these hold:
 *	relative change of the mean >= min_change percent,
 *	larger of the two maxima     >  min_max,
 *	|difference of the means|    >  min_delta,
 *	larger / smaller maximum     >  max_ratio (when max_ratio is not 0).
 */
struct metric_floor {
	const char *pattern;	/* exact name, or prefix when ending in '*' */
	double min_change;
	double min_max;
	double min_delta;
	double max_ratio;
	const char *rule;	/* one line for --explain */
};

/* The first floor whose pattern matches; the last one matches anything. */
const struct metric_floor *metric_floor(const char *name);

#endif
