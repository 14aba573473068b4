/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_COMPARE_LOAD_H
#define KDELTA_COMPARE_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/compare.h"
#include "kdelta/err.h"
#include "kdelta/resultdb.h"

/*
 * What to compare and how to decide it: the labels (commits, or with axis
 * the values of a parameter), where to find them, the rows to keep.
 */
struct compare_query {
	const char *command;	/* "compare", for notices: "kdelta compare: ..." */
	struct compare_options opt;
	const char **labels;	/* the base first; or paths of results */
	size_t nlabels;
	const char *result_root, *repo, *axis;
	const char **commits;	/* with axis: the commit of each group */
	size_t ncommits;
	const char **metrics;	/* globs of the rows to keep, or none */
	size_t nmetrics;
	/* What describes the metrics (struct comparison.catalogue). */
	const struct metric_catalogue *catalogue;
};

/* What a whole run of such a command holds. */
struct compare_state {
	struct comparison **cmps;
	size_t n, alloc;
	struct resultdb db;
	struct result_groups groups;
	struct result_dir *path_dirs;	/* for path arguments */
	size_t npath_dirs;
	/*
	 * What the command should tell the user on stderr, whether it
	 * succeeds or not: lines "kdelta <command>: ...\n" (a stale matrix
	 * rebuilt); compare_load() fills it.
	 */
	struct strbuf notices;
};

/*
 * Finds the groups the query names, loads every variant's results, adds
 * the commit subjects (repo) and decides: one comparison per group.
 */
int compare_load(struct compare_state *st, const struct compare_query *q,
		 struct kd_err *err);
void compare_state_release(struct compare_state *st);

/* The row of metric in cmp, or NULL. */
const struct metric_row *comparison_find_row(const struct comparison *cmp,
					     const char *metric);
/* Whether any group has metric. */
bool compare_state_has_metric(const struct compare_state *st,
			      const char *metric);
/*
 * "<option>: no metric '<metric>' in these results", with the nearest
 * name as a did-you-mean.  Returns -1.
 */
int compare_no_such_metric(const struct compare_state *st, const char *option,
			   const char *metric, struct kd_err *err);

/*
 * One comparison of the commit directories (or matrices) paths[0..n), the
 * base first, loaded as compare loads the paths it is given: their labels
 * are their directories' names, and with repo, the commit subjects are
 * git's; catalogue describes the metrics (struct comparison).
 * Not decided yet: the caller may drop rows (comparison_keep_rows())
 * before compare_decide().
 */
int compare_dirs(const char *const *paths, size_t n, const char *repo,
		 const struct metric_catalogue *catalogue,
		 struct comparison *cmp, struct kd_err *err);

#endif
