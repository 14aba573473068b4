/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_RESULT_WALK_H
#define KDELTA_RESULT_WALK_H

/*
 * The walk of a result root, shared by result_walk() and the index
 * (src/store/); not an API.
 */
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "kdelta/result-index.h"

/* A subdirectory, as readdir gives it. */
struct subdir {
	char *name;
	long long ino;
};

struct subdirs {
	struct subdir *items;
	size_t n, alloc;
};

void subdirs_release(struct subdirs *s);
int compare_subdirs(const void *a, const void *b);
/* The subdirectories of dir, sorted, not following symbolic links. */
int list_subdirs(const char *dir, struct subdirs *out, struct kd_err *err);
/* A run's directory name: a decimal number without leading zeros. */
bool is_run_name(const char *name);
/* dir (with subdirs, its subdirectories) is a commit directory. */
bool holds_results(const char *dir, const struct subdirs *subdirs);
/*
 * Whether rel, read from the index file, names a directory below the
 * root (or, with root_too, "" for the root itself).
 */
bool rel_below_root(const char *rel, bool root_too);
/* rel below rel's parent, and root/rel: "" is the root. */
char *join_rel(const char *rel, const char *name);
char *full_path(const char *root, const char *rel);

/*
 * What a walk finds, in the order it finds it: each commit directory, and
 * each directory above (stamped before it was listed).
 */
struct walk_visitor {
	int (*commit)(void *ctx, const char *rel, long long ino);
	int (*above)(void *ctx, const char *rel, const struct stat *st);
	void *ctx;
};

/* Walks root/rel (depth levels below the root) with v. */
int result_walk_tree(const char *root, const char *rel, int depth,
		     const struct walk_visitor *v, struct kd_err *err);

#endif
