// SPDX-License-Identifier: GPL-2.0
/*
 * Walking a result root for its commit directories (kdelta/result-index.h):
 * the directories that hold runs or a matrix, below directories that do
 * not.  The index (result-index.c) walks with a visitor to record what it
 * finds; result_walk() only collects.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "result-walk.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

/* Deeper than any store: lkp-tests' trees are 8 levels. */
#define WALK_MAX_DEPTH 32

void name_list_add(struct name_list *list, const char *name)
{
	ALLOC_GROW(list->items, list->n + 1, list->alloc);
	list->items[list->n++] = xstrdup(name);
}

void name_list_release(struct name_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		free(list->items[i]);
	free(list->items);
	memset(list, 0, sizeof(*list));
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

bool is_run_name(const char *name)
{
	if (!*name || (name[0] == '0' && name[1]))
		return false;
	for (const char *s = name; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

void subdirs_release(struct subdirs *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->items[i].name);
	free(s->items);
	memset(s, 0, sizeof(*s));
}

int compare_subdirs(const void *a, const void *b)
{
	return strcmp(((const struct subdir *)a)->name,
		      ((const struct subdir *)b)->name);
}

static bool entry_is_dir(const char *dir, const struct dirent *de)
{
	struct stat st;
	char *path;
	bool ret;

	if (de->d_type != DT_UNKNOWN)
		return de->d_type == DT_DIR;
	path = xasprintf("%s/%s", dir, de->d_name);
	ret = !lstat(path, &st) && S_ISDIR(st.st_mode);
	free(path);
	return ret;
}

/* The subdirectories of dir, sorted, not following symbolic links. */
int list_subdirs(const char *dir, struct subdirs *out,
			struct kd_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	memset(out, 0, sizeof(*out));
	if (!d)
		return kd_error(err, "%s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !entry_is_dir(dir, de))
			continue;
		ALLOC_GROW(out->items, out->n + 1, out->alloc);
		out->items[out->n].name = xstrdup(de->d_name);
		out->items[out->n++].ino = (long long)de->d_ino;
	}
	closedir(d);
	if (out->n > 1)
		qsort(out->items, out->n, sizeof(*out->items), compare_subdirs);
	return 0;
}

static bool file_in(const char *dir, const char *sub, const char *name)
{
	char *path = sub ? xasprintf("%s/%s/%s", dir, sub, name)
			 : xasprintf("%s/%s", dir, name);
	bool ret = path_exists(path);

	free(path);
	return ret;
}

bool holds_results(const char *dir, const struct subdirs *subdirs)
{
	if (file_in(dir, NULL, STORE_MATRIX_FILE) ||
	    file_in(dir, NULL, "matrix.json"))
		return true;
	for (size_t i = 0; i < subdirs->n; i++) {
		const char *name = subdirs->items[i].name;

		if (is_run_name(name) &&
		    (file_in(dir, name, STORE_STATS_FILE) ||
		     file_in(dir, name, STORE_COMPLETE_FILE)))
			return true;
	}
	return false;
}

bool dir_holds_results(const char *dir)
{
	struct subdirs subdirs;
	struct kd_err err;
	bool ret;

	if (list_subdirs(dir, &subdirs, &err) < 0)
		return false;
	ret = holds_results(dir, &subdirs);
	subdirs_release(&subdirs);
	return ret;
}

bool dir_below_root(const char *root, const char *rel)
{
	struct strbuf path = STRBUF_INIT;
	bool ok = rel_below_root(rel, false);

	strbuf_addstr(&path, root);
	for (const char *c = rel; ok && *c;) {
		size_t len = strcspn(c, "/");
		struct stat st;

		strbuf_addch(&path, '/');
		strbuf_add(&path, c, len);
		ok = !lstat(path.buf, &st) && S_ISDIR(st.st_mode);
		c += len + (c[len] == '/');
	}
	strbuf_release(&path);
	return ok;
}

char *join_rel(const char *rel, const char *name)
{
	return *rel ? xasprintf("%s/%s", rel, name) : xstrdup(name);
}

char *full_path(const char *root, const char *rel)
{
	return *rel ? xasprintf("%s/%s", root, rel) : xstrdup(root);
}

int result_walk_tree(const char *root, const char *rel, int depth,
		const struct walk_visitor *v, struct kd_err *err)
{
	char *path = full_path(root, rel);
	struct subdirs subdirs;
	struct stat st;
	int ret = 0;

	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		free(path);
		return 0;	/* gone meanwhile */
	}
	if (list_subdirs(path, &subdirs, err) < 0) {
		free(path);
		return -1;
	}
	if (*rel && holds_results(path, &subdirs)) {
		ret = v->commit(v->ctx, rel, (long long)st.st_ino);
	} else {
		ret = v->above(v->ctx, rel, &st);
		for (size_t i = 0; i < subdirs.n && !ret &&
				   depth < WALK_MAX_DEPTH; i++) {
			char *sub = join_rel(rel, subdirs.items[i].name);

			ret = result_walk_tree(root, sub, depth + 1, v, err);
			free(sub);
		}
	}
	subdirs_release(&subdirs);
	free(path);
	return ret;
}

static int collect_commit(void *ctx, const char *rel, long long ino)
{
	(void)ino;
	name_list_add(ctx, rel);
	return 0;
}

static int ignore_above(void *ctx, const char *rel, const struct stat *st)
{
	(void)ctx;
	(void)rel;
	(void)st;
	return 0;
}

int result_walk(const char *root, struct name_list *out, struct kd_err *err)
{
	const struct walk_visitor v = { collect_commit, ignore_above, out };

	memset(out, 0, sizeof(*out));
	if (result_walk_tree(root, "", 0, &v, err) < 0)
		return -1;
	if (out->n > 1)
		qsort(out->items, out->n, sizeof(*out->items), compare_strings);
	return 0;
}

/*
 * Whether rel, read from the index file, names a directory below the
 * root: components that are not empty, "." or ".."; not absolute.  The
 * index is a file in the result tree, which whoever wrote the tree may
 * have written too: it must not lead kdelta outside the root.  "" is the
 * root itself (only a directory above the commit directories).
 */
bool rel_below_root(const char *rel, bool root_too)
{
	if (!rel)
		return false;
	if (!*rel)
		return root_too;
	for (const char *c = rel;; c++) {
		size_t len = strcspn(c, "/");

		if (!len || (len == 1 && c[0] == '.') ||
		    (len == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		c += len;
		if (!*c)
			return true;
	}
}
