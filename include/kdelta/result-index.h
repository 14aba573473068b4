/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_RESULT_INDEX_H
#define KDELTA_RESULT_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/err.h"

/*
 * Finding the commit directories below a result root (src/store/result-index.c):
 * directories holding matrix.json[.gz], or numbered run directories with
 * stats.json or a completion mark, at any depth (kdelta's store has them
 * at <testcase>/<param-dir>/<host>/<commit>, lkp-tests' trees deeper).
 *
 * Walking the whole root costs the whole root: a robot's store has
 * millions of directories.  RESULT_ROOT/.kdelta-index (SQLite) keeps every
 * commit directory by name, and every directory above them with the
 * stamp it had when it was read (inode, mtime and ctime in ns): a lookup
 * checks those stamps (one lstat per directory above the commit
 * directories, however many commits) and reads again only the
 * directories that changed.  It is correct whatever wrote the tree (kdelta
 * run, lkp-tests, rsync, rm -rf): a directory changed, its stamp changed.
 * A stamp younger than the file system's clock granularity can still
 * change unseen and is not trusted (as git's racy index).  Updates are
 * SQLite transactions: concurrent processes and kill -9 leave the index as
 * it was or as it became, never half-written; a damaged index is rebuilt.
 */

struct result_index;

/* Store names (relative paths, or labels), grown as ALLOC_GROW does. */
struct name_list {
	char **items;
	size_t n, alloc;
};

void name_list_add(struct name_list *list, const char *name);
void name_list_release(struct name_list *list);

/* A commit directory: its matrix, or a numbered run with its results. */
bool dir_holds_results(const char *dir);
/*
 * Whether root/rel is a directory below root reached through directories
 * only: no component of rel is a symbolic link (nor "." or ".."), so that
 * nothing in the result tree leads outside it.
 */
bool dir_below_root(const char *root, const char *rel);

/*
 * Opens root's index, creating it (a full walk) or bringing it up to date.
 * Sets *out to NULL and returns 0 when root cannot have one (not writable,
 * or its file system has no locks): then walk it with result_walk().
 */
int result_index_open(const char *root, struct result_index **out,
		      struct kd_err *err);
void result_index_close(struct result_index *ix);

/* The commit directories named name, as paths below the root. */
int result_index_find(struct result_index *ix, const char *name,
		      struct name_list *out, struct kd_err *err);
/* The distinct commit directory names that begin with prefix, sorted. */
int result_index_prefixed(struct result_index *ix, const char *prefix,
			  struct name_list *out, struct kd_err *err);
/* Whether the index holds no commit directory. */
bool result_index_empty(struct result_index *ix);
/* Every commit directory (paths below the root), sorted. */
int result_index_all(struct result_index *ix, struct name_list *out,
		     struct kd_err *err);

/*
 * Throws root's index away and builds it again; *ncommits is set to the
 * number of commit directories it holds.
 */
int result_index_rebuild(const char *root, size_t *ncommits,
			 struct kd_err *err);
/*
 * Brings root's index up to date if it has one (kdelta run, after a run):
 * what changed is read now, not at the next lookup.
 */
int result_index_update(const char *root, struct kd_err *err);

/* Every commit directory below root, sorted, by walking it. */
int result_walk(const char *root, struct name_list *out, struct kd_err *err);

#endif
