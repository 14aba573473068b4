/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_COUNTERS_H
#define KDELTA_COUNTERS_H

#include <stddef.h>

#include <jansson.h>

#include "kdelta/metric-rules.h"

/*
 * Per-run aggregation of sampled metrics: a sampled monitor turns each
 * sample into (metric, time, value) points; the run's single value of a
 * metric depends on its kind (kdelta/metric-rules.h), which the monitor
 * declares beside its code.
 */

/* What the aggregation needs of one metric's points; not the points. */
struct series {
	char *metric;
	size_t n;
	double first, last, sum;
	double first_time, last_time;
};

/* Series by metric name, in the order they first appeared. */
struct series_set {
	struct series *items;
	size_t n, alloc;
	size_t *slots;		/* open addressing: index + 1, 0 is free */
	size_t nslots;
};

#define SERIES_SET_INIT { NULL, 0, 0, NULL, 0 }

void series_add(struct series_set *set, const char *metric, double time,
		double value);
/*
 * Adds each series' run value to stats by its kind, which the metrics'
 * source declares in specs (metric_kind_declared()).  A rate needs two
 * samples at different times; a series without them is left out.
 */
void series_aggregate(const struct series_set *set,
		      const struct metric_spec *specs, json_t *stats);
void series_release(struct series_set *set);

/*
 * Sets stats[metric] = value: an integer when value is one (|value| < 2^53),
 * else a real.  Values that are not finite are left out.
 */
void metric_set(json_t *stats, const char *metric, double value);

#endif
