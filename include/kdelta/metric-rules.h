/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_METRIC_RULES_H
#define KDELTA_METRIC_RULES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * What kdelta knows about a metric from its name: how a run's samples
 * aggregate (its kind), which direction is better, whether it is a
 * percentage, and how large a change of a monitor metric must be to be
 * worth reporting (its floor).
 *
 * Each monitor and each workload declares this of its own metrics beside
 * its code (struct monitor.metrics, struct workload.metrics), as it
 * declares its parameters.  A metric's source is the part of its name
 * before the first '.': "proc-vmstat" for proc-vmstat.pgfree.  Each
 * property is decided by, in this order:
 *   1. the most specific pattern of the source's declarations that says
 *      it;
 *   2. unless the source is one of kdelta's monitors, the most specific
 *      pattern of lkp_metrics[] in src/stats/metric-rules.c that says it: what
 *      lkp-tests says of metrics found in its result trees that no kdelta
 *      monitor makes;
 *   3. the generic rules below (metric_direction(), metric_is_percent(),
 *      the default floor, gauges).
 */

/*
 * How a sampled series gives one value per run (kdelta/counters.h):
 *
 *   METRIC_GAUGE    the mean over the samples (nr_*, slabinfo, meminfo);
 *                   what nothing declares is a gauge
 *   METRIC_COUNTER  an event counter: last - first (pgfree, numa_hit); a
 *                   run that lacks it counted 0 events
 *   METRIC_RATE     a counter reported per second: (last - first) divided by
 *                   the seconds between the first and the last sample, i.e.
 *                   the time-weighted mean rate (vmstat.system.cs)
 */
enum metric_kind {
	METRIC_KIND_UNSAID,	/* in a declaration: not said here */
	METRIC_GAUGE,
	METRIC_COUNTER,
	METRIC_RATE,
};

/*
 * The minimum effect for a monitor metric.  A significant change is
 * reported as changed only when all of these hold:
 *	relative change of the mean >= min_change percent (points for
 *	                               percentages),
 *	larger of the two maxima     >  min_max,
 *	|difference of the means|    >  min_delta,
 *	larger / smaller maximum     >  max_ratio (when max_ratio is not 0).
 */
struct metric_floor {
	double min_change;
	double min_max;
	double min_delta;
	double max_ratio;
	const char *rule;	/* one line for --explain */
};

/* A floor in a declaration: METRIC_FLOOR(5, 100, 50, 0, "text"). */
#define METRIC_FLOOR(change, max, delta, ratio, rule)                          \
	(&(const struct metric_floor){ change, max, delta, ratio, rule })

/*
 * One declaration.  pattern names metrics after "<source>.": a whole name
 * ("pgfree"), or a pattern where each '*' matches any characters ("pg*",
 * "node*.nr_*", "*").  The more characters other than '*' a pattern has, the
 * more specific it is; a whole name beats a pattern of as many.  Fields left
 * 0 or NULL say nothing.  A table ends with an entry whose pattern is NULL.
 */
struct metric_spec {
	const char *pattern;
	enum metric_kind kind;
	int better;			/* +1 higher is better, -1 lower */
	bool points;			/* a percentage: change in points */
	const struct metric_floor *floor;
	/*
	 * A run that lacks the metric had none of it, although its source
	 * ran: a perf-profile function below what the profile keeps.  Every
	 * METRIC_COUNTER is so without saying it.
	 */
	bool absent_zero;
};

/* Everything at once, for a comparer's row. */
struct metric_info {
	enum metric_kind kind;		/* never METRIC_KIND_UNSAID */
	int better;			/* +1, -1, or 0: unknown */
	bool points;
	const struct metric_floor *floor;	/* never NULL */
	bool absent_zero;	/* a counter, or declared absent_zero */
};

/*
 * What kdelta knows of the sources of metrics beyond lkp-tests' rules: its
 * own monitors and workloads, each with its declarations.  The runner's
 * registries make it (metric_catalogue_default(), kdelta/catalogue.h);
 * whatever describes metrics is passed one, so that nothing below the
 * runner knows a monitor or a workload by name.  NULL, or an empty one:
 * no source known, lkp-tests' rules and the generic ones only.
 */
struct metric_source {
	const char *name;		/* "proc-vmstat", "aim9" */
	const struct metric_spec *metrics;
	/*
	 * One of kdelta's monitors: its metrics are monitor metrics, never
	 * workload results, and lkp_metrics[] does not apply to them.
	 */
	bool monitor;
	bool perturbs;		/* it slows the workload (struct monitor) */
};

struct metric_catalogue {
	const struct metric_source *sources;
	size_t n;
};

/* The source named name[0..len), or NULL. */
const struct metric_source *
metric_catalogue_find(const struct metric_catalogue *cat, const char *name,
		      size_t len);

void metric_describe(const struct metric_catalogue *cat, const char *name,
		     struct metric_info *info);

enum metric_kind metric_kind(const struct metric_catalogue *cat,
			     const char *name);

/*
 * The kind of a metric by its own source's declarations (specs) and the
 * generic rules: for a monitor aggregating its own samples, which knows
 * its declarations without a catalogue.
 */
enum metric_kind metric_kind_declared(const struct metric_spec *specs,
				      const char *name);

/*
 * +1 when higher is better, -1 when lower is better, 0 when unknown.
 * Undeclared, and not a kdelta monitor's: by the last dot-separated
 * component of the name, higher for ops_per_sec, jobs_per_min, throughput,
 * per_sec, lower for usecs, latency, elapsed, time.
 */
int metric_direction(const struct metric_catalogue *cat, const char *name);

/*
 * Metrics that are percentages already, whose change is shown as an
 * absolute difference: declared so, or ending in '%'.
 */
bool metric_is_percent(const struct metric_catalogue *cat, const char *name);

/*
 * The floor of a monitor metric; undeclared: kdelta's 5% relative change
 * (see src/stats/metric-rules.c for why 5%).
 */
const struct metric_floor *metric_floor(const struct metric_catalogue *cat,
					const char *name);

/*
 * Metric families: a key metric is a workload result, anything whose
 * source (the part before the first '.') is not a monitor -- one of
 * kdelta's (the catalogue's) or one of lkp-tests' well-known monitors.
 */
bool metric_is_key(const struct metric_catalogue *cat, const char *name);
/*
 * Whether source (a metric's part before its first '.', or a key of a job
 * that names a program) is a monitor: one of cat's (NULL: none), or one of
 * lkp-tests' well-known monitors.
 */
bool metric_source_is_monitor(const struct metric_catalogue *cat,
			      const char *source);

/*
 * An event counter that its monitor reports as zero when nothing happened,
 * so that a run lacking it counts as zero, not as absent.
 */
bool metric_absent_means_zero(const struct metric_catalogue *cat,
			      const char *name);

/*
 * The name a metric has today: lkp-tests' for the results that kdelta 0.1
 * stored under names of its own ("disk_wrt.jobs_per_min" is
 * "aim7.jobs-per-min", "creat-clo.ops_per_sec" is
 * "aim9.creat-clo.ops_per_sec"), name itself for every other.  Whatever
 * reads metric names from a store or from the user passes them through it.
 */
const char *metric_current_name(const char *name);

#endif
