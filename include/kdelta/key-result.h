/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_KEY_RESULT_H
#define KDELTA_KEY_RESULT_H

/* The job's key of its key results (a mapping of results to directions). */
#define KEY_RESULT_KEY "key_result"

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/err.h"

struct jnode;

/*
 * The key results a job declares (src/job/key-result.c): what report
 * writes its mail about, bisect bisects, the robot and compare's gate
 * judge, and which direction of each is better.  In a job file, and as
 * the robot's "key-result":
 *
 *	key_result:
 *	  exec.ops_per_sec: higher	# higher is better
 *	  exec.usecs: lower		# lower is better
 *	  exec.score:			# as kdelta's metric rules say
 *
 * Without one, the first result the workload prints is the key result and
 * its direction is the metric rules' (kdelta/metric-rules.h).
 */
struct key_result {
	char *metric;
	int better;		/* +1 higher is better, -1 lower, 0 the rules' */
};

struct key_results {
	struct key_result *at;	/* in the order declared */
	size_t n;
};

/* "higher", "lower" or "" (the rules'), by better. */
const char *key_result_direction_name(int better);

/*
 * Adds one: metric a result's name "<prefix>.<key>" (no blanks, a dot),
 * direction "higher", "lower", or NULL or "" for the rules'.
 */
int key_results_add(struct key_results *k, const char *metric,
		    const char *direction, struct kd_err *err);
/* From a mapping of metric to direction (a job's or the robot's). */
int key_results_parse(const struct jnode *map, struct key_results *out,
		      struct kd_err *err);
/* The declared one of that name, or NULL. */
const struct key_result *key_results_find(const struct key_results *k,
					  const char *metric);
void key_results_copy(struct key_results *to, const struct key_results *from);
void key_results_release(struct key_results *k);

#endif
