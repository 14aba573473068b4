/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_RESULTDB_H
#define KDELTA_RESULTDB_H

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/compare.h"
#include "kdelta/err.h"
#include "kdelta/matrix.h"

/*
 * Finding results below a result root, kdelta's own
 * (<testcase>/<param-dir>/<host>/<commit>/) or an lkp-tests tree
 * (/result/aim7/<params>/<host>/<rootfs>/<kconfig>/<compiler>/<commit>/),
 * and grouping them into comparisons.
 */

/* A commit directory: one that holds results (a matrix or runs). */
struct result_dir {
	char *path;		/* as it can be opened */
	char *rel;		/* below the result root; for a path, its
				 * last component */
	const char *label;	/* the last component of rel */
	char *matrix;		/* an explicit matrix file, or NULL */
};

struct resultdb {
	char *root;
	struct result_dir *dirs;	/* sorted by rel */
	size_t n, alloc;
};

/*
 * Finds every commit directory below root: a directory holding
 * matrix.json[.gz] or numbered run directories with stats.json or a
 * completion mark.  Fails when root is missing or holds no results.
 */
int resultdb_scan(const char *root, struct resultdb *db, struct kd_err *err);
void resultdb_release(struct resultdb *db);

/* One comparison to make: a result directory per variant. */
struct result_group {
	char *name;			/* see struct comparison.name */
	const struct result_dir **members;	/* one per variant */
};

struct result_groups {
	struct result_group *items;
	size_t n, alloc;
	size_t width;			/* variants per group */
};

/*
 * One group per directory holding all the labels as commit directories,
 * sorted by name; an error (with a did-you-mean) for a label found nowhere
 * or when no group holds them all.
 */
int resultdb_group_labels(const struct resultdb *db,
			  const char *const *labels, size_t n,
			  struct result_groups *out, struct kd_err *err);
/*
 * --axis: groups of commit directories whose jobs differ only in parameter
 * key, one member per value; commits (ncommits of them, 0: any) restricts
 * the commit labels.
 */
int resultdb_group_axis(const struct resultdb *db, const char *key,
			const char *const *values, size_t n,
			const char *const *commits, size_t ncommits,
			struct result_groups *out, struct kd_err *err);
void result_groups_release(struct result_groups *groups);

/*
 * A result directory for a path argument: a commit directory, or a
 * matrix.json[.gz] (its directory then being the commit directory).
 */
int result_dir_from_path(const char *path, struct result_dir *out,
			 struct kd_err *err);
void result_dir_release(struct result_dir *dir);

/*
 * The parameters of the job that made a commit directory's runs, from its
 * first run's job.yaml, flattened: top-level scalars as "key", a section's
 * scalars as "key" too, or "section.key" when the name is taken; sorted by
 * key; without commit, host, machine, kdelta, monitors and runs.  Any YAML
 * job file works, lkp-tests' too.  No job.yaml: no parameters.
 */
struct job_params {
	struct param *items;
	size_t n;
	char *testcase;		/* the job's testcase, or NULL */
	char *host;		/* the job's host (or testbox), or NULL */
};

int result_dir_params(const struct result_dir *dir, struct job_params *out,
		      struct kd_err *err);
const char *job_params_get(const struct job_params *params, const char *key);
void job_params_release(struct job_params *params);

/*
 * Loads a commit directory's matrix (matrix.json[.gz], else the stats.json
 * of its complete runs) and counts its runs into v: complete ones from the
 * matrix, failed and incomplete ones from the run directories.
 */
int result_dir_load(const struct result_dir *dir, struct matrix *m,
		    struct variant *v, struct kd_err *err);

#endif
