/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_RESULTDB_H
#define KDELTA_RESULTDB_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "kdelta/err.h"
#include "kdelta/matrix.h"
#include "kdelta/result-index.h"
#include "kdelta/run-record.h"

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
	struct result_index *index;	/* NULL: walked instead */
	struct name_list walked;	/* every commit directory, when walked */
	struct result_dir *dirs;	/* those loaded, sorted by rel */
	size_t n, alloc;
};

/*
 * Opens root for lookups: through its index (kdelta/result-index.h) when
 * it can have one, else by walking it once.  Fails when root is missing or
 * holds no results.
 */
int resultdb_open(const char *root, struct resultdb *db, struct kd_err *err);
/*
 * The store name a label stands for: the label's own
 * (store_label_name(); also the name kdelta gave labels with '/' before),
 * or the one stored name it abbreviates (4 to 39 hex digits: a short
 * commit hash), or with repo the name of the commit git resolves it to
 * (main~19: its full hash, or a stored abbreviation of it).  An ambiguous
 * label is an error listing the candidates; an unknown one suggests a near
 * name.  Caller frees *name.
 */
int resultdb_resolve(const struct resultdb *db, const char *label,
		     const char *repo, char **name, struct kd_err *err);
/* Loads into db->dirs the commit directories with store name name. */
int resultdb_load(struct resultdb *db, const char *name, struct kd_err *err);
/* Loads every commit directory. */
int resultdb_load_all(struct resultdb *db, struct kd_err *err);
/* resultdb_open() and resultdb_load_all(). */
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
 * first run's record (run_record_params()).  No job.yaml: no parameters.
 */
int result_dir_params(const struct result_dir *dir, struct job_params *out,
		      struct kd_err *err);

#endif
