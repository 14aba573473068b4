// SPDX-License-Identifier: GPL-2.0
/*
 * Finding commit directories below a result root and grouping them into
 * comparisons, as lkp-tests does: one table per directory that holds every
 * label asked for.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kdelta/git.h"
#include "kdelta/lkp-axes.h"
#include "kdelta/name-index.h"
#include "kdelta/result-index.h"
#include "kdelta/resultdb.h"
#include "kdelta/run-record.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int compare_result_dirs(const void *a, const void *b)
{
	const struct result_dir *x = a, *y = b;

	return strcmp(x->rel, y->rel);
}

static const char *last_component(const char *rel)
{
	const char *slash = strrchr(rel, '/');

	return slash ? slash + 1 : rel;
}

/* Adds the commit directory at rel, unless it is there already. */
static void resultdb_add(struct resultdb *db, const char *rel)
{
	struct result_dir *d;

	for (size_t i = 0; i < db->n; i++)
		if (!strcmp(db->dirs[i].rel, rel))
			return;
	ALLOC_GROW(db->dirs, db->n + 1, db->alloc);
	d = &db->dirs[db->n++];
	d->path = xasprintf("%s/%s", db->root, rel);
	d->rel = xstrdup(rel);
	d->label = last_component(d->rel);
	d->matrix = NULL;
}

static int no_results(const struct resultdb *db, struct kd_err *err)
{
	return kd_error(err, "%s: the result root holds no results; run jobs with 'kdelta run' first, or name another root with --result-root",
			db->root);
}

int resultdb_open(const char *root, struct resultdb *db, struct kd_err *err)
{
	size_t len = strlen(root);
	bool any;

	memset(db, 0, sizeof(*db));
	while (len > 1 && root[len - 1] == '/')
		len--;
	db->root = xstrndup(root, len);
	if (!is_directory(root))
		return kd_error(err, "%s: no such result root; run jobs with 'kdelta run' first, or name another root with --result-root",
				root);
	if (result_index_open(db->root, &db->index, err) < 0)
		return -1;
	if (!db->index && result_walk(db->root, &db->walked, err) < 0)
		return -1;
	any = db->index ? !result_index_empty(db->index) : db->walked.n > 0;
	return any ? 0 : no_results(db, err);
}

/*
 * Loads the commit directories named name (a store name: the last
 * component); those the index names must still hold results.
 */
int resultdb_load(struct resultdb *db, const char *name, struct kd_err *err)
{
	struct name_list rels = { 0 };

	if (!db->index) {
		for (size_t i = 0; i < db->walked.n; i++)
			if (!strcmp(last_component(db->walked.items[i]), name))
				resultdb_add(db, db->walked.items[i]);
	} else if (result_index_find(db->index, name, &rels, err) < 0) {
		return -1;
	}
	for (size_t i = 0; i < rels.n; i++) {
		char *path = xasprintf("%s/%s", db->root, rels.items[i]);

		if (dir_below_root(db->root, rels.items[i]) &&
		    dir_holds_results(path))
			resultdb_add(db, rels.items[i]);
		free(path);
	}
	name_list_release(&rels);
	if (db->n > 1)
		qsort(db->dirs, db->n, sizeof(*db->dirs), compare_result_dirs);
	return 0;
}

int resultdb_load_all(struct resultdb *db, struct kd_err *err)
{
	struct name_list rels = { 0 };
	const struct name_list *all = &db->walked;

	if (db->index) {
		if (result_index_all(db->index, &rels, err) < 0)
			return -1;
		all = &rels;
	}
	for (size_t i = 0; i < all->n; i++) {
		char *path = xasprintf("%s/%s", db->root, all->items[i]);

		if (!db->index || (dir_below_root(db->root, all->items[i]) &&
				   dir_holds_results(path)))
			resultdb_add(db, all->items[i]);
		free(path);
	}
	name_list_release(&rels);
	if (db->n > 1)
		qsort(db->dirs, db->n, sizeof(*db->dirs), compare_result_dirs);
	return db->n ? 0 : no_results(db, err);
}

int resultdb_scan(const char *root, struct resultdb *db, struct kd_err *err)
{
	if (resultdb_open(root, db, err) < 0)
		return -1;
	return resultdb_load_all(db, err);
}

/* The distinct store names beginning with prefix, sorted. */
static int names_prefixed(const struct resultdb *db, const char *prefix,
			  struct name_list *out, struct kd_err *err)
{
	size_t len = strlen(prefix);

	memset(out, 0, sizeof(*out));
	if (db->index)
		return result_index_prefixed(db->index, prefix, out, err);
	for (size_t i = 0; i < db->walked.n; i++) {
		const char *name = last_component(db->walked.items[i]);
		bool seen = false;

		for (size_t j = 0; j < out->n && !seen; j++)
			seen = !strcmp(out->items[j], name);
		if (!seen && !strncmp(name, prefix, len))
			name_list_add(out, name);
	}
	if (out->n > 1)
		qsort(out->items, out->n, sizeof(*out->items), compare_strings);
	return 0;
}

static bool name_exists(const struct resultdb *db, const char *name)
{
	struct name_list found;
	struct kd_err err;
	bool ret = !names_prefixed(db, name, &found, &err) && found.n &&
		   !strcmp(found.items[0], name);

	name_list_release(&found);
	return ret;
}

/* The closest name present: a near spelling. */
static char *nearest_label(const struct resultdb *db, const char *label)
{
	struct name_list all;
	struct kd_err err;
	struct nearest n = NEAREST_INIT(label);
	char *ret;

	if (names_prefixed(db, "", &all, &err) < 0)
		return NULL;
	for (size_t i = 0; i < all.n; i++)
		nearest_offer(&n, all.items[i]);
	ret = n.best ? store_label_from_name(n.best) : NULL;
	name_list_release(&all);
	return ret;
}

static int unknown_label(const struct resultdb *db, const char *label,
			 const char *repo, struct kd_err *err)
{
	char *near = nearest_label(db, label);

	if (near) {
		kd_error(err, "%s: no results for '%s'; did you mean '%s'?",
			 db->root, label, near);
		free(near);
		return -1;
	}
	if (!repo && strpbrk(label, "~^@"))
		return kd_error(err, "%s: no results for '%s'; name the git repository with --repo to find the commit a revision names",
				db->root, label);
	return kd_error(err, "%s: no results for '%s'; see the commit directories below the result root",
			db->root, label);
}

/* The candidates of an ambiguous label, quoted, at most ten. */
static int ambiguous(const struct resultdb *db, const char *label,
		     const char *why, const struct name_list *names,
		     struct kd_err *err)
{
	struct strbuf list = STRBUF_INIT;

	for (size_t i = 0; i < names->n && i < 10; i++) {
		char *shown = store_label_from_name(names->items[i]);

		strbuf_addf(&list, "%s'%s'", i ? ", " : "", shown);
		free(shown);
	}
	if (names->n > 10)
		strbuf_addf(&list, " and %zu more", names->n - 10);
	kd_error(err, "%s: '%s' is ambiguous: %s %s", db->root, label, why,
		 list.buf);
	strbuf_release(&list);
	return -1;
}

/* An abbreviated commit hash, as git prints them: 4 to 39 hex digits. */
static bool is_hash_prefix(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return !s[n] && n >= 4 && n < 40;
}

/* The stored names that abbreviate a full hash (as --commits took them). */
static void names_abbreviating(const struct resultdb *db, const char *hash,
			       struct name_list *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t len = strlen(hash); len >= 4; len--) {
		char *prefix = xstrndup(hash, len);

		if (name_exists(db, prefix))
			name_list_add(out, prefix);
		free(prefix);
	}
}

/* What git names rev in repo, as a full hash, or NULL. */
static char *git_commit(const char *repo, const char *rev)
{
	char *spec = xasprintf("%s^{commit}", rev);
	const char *const args[] = { "rev-parse", "--verify", "--quiet",
				     "--end-of-options", spec, NULL };
	char *hash = *rev == '-' ? NULL : git_line(repo, args);

	free(spec);
	return hash;
}

/* A name found by hash: one, or an error listing them. */
static int one_name(const struct resultdb *db, const char *label,
		    const char *why, struct name_list *names, char **name,
		    struct kd_err *err)
{
	int ret = 0;

	if (names->n == 1)
		*name = xstrdup(names->items[0]);
	else if (names->n > 1)
		ret = ambiguous(db, label, why, names, err);
	name_list_release(names);
	return ret;
}

int resultdb_resolve(const struct resultdb *db, const char *label,
		     const char *repo, char **name, struct kd_err *err)
{
	char *candidates[] = { store_label_name(label),
			       safe_name(label, STORE_NAME_MAX) };
	struct name_list names;
	char *hash;
	int ret = 0;

	*name = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(candidates) && !*name; i++)
		if (name_exists(db, candidates[i]))
			*name = xstrdup(candidates[i]);
	free(candidates[0]);
	free(candidates[1]);
	if (!*name && is_hash_prefix(label)) {
		if (names_prefixed(db, label, &names, err) < 0)
			return -1;
		ret = one_name(db, label, "it abbreviates", &names, name, err);
	}
	if (!*name && !ret && repo && (hash = git_commit(repo, label))) {
		if (name_exists(db, hash))
			*name = xstrdup(hash);
		names_abbreviating(db, hash, &names);
		if (!*name) {
			char *why = xasprintf("it is commit %.12s, stored as", hash);

			ret = one_name(db, label, why, &names, name, err);
			free(why);
		} else {
			name_list_release(&names);
		}
		free(hash);
	}
	if (!*name && !ret)
		ret = unknown_label(db, label, repo, err);
	return ret;
}

void result_dir_release(struct result_dir *dir)
{
	free(dir->path);
	free(dir->rel);
	free(dir->matrix);
	memset(dir, 0, sizeof(*dir));
}

void resultdb_release(struct resultdb *db)
{
	for (size_t i = 0; i < db->n; i++)
		result_dir_release(&db->dirs[i]);
	free(db->dirs);
	free(db->root);
	result_index_close(db->index);
	name_list_release(&db->walked);
	memset(db, 0, sizeof(*db));
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

/* The last component of path, resolved ("." is the directory's name). */
static char *path_basename(const char *path)
{
	char *real = realpath(path, NULL);
	const char *p = real ? real : path;
	const char *slash = strrchr(p, '/');
	char *ret = xstrdup(slash && slash[1] ? slash + 1 : p);

	free(real);
	return ret;
}

int result_dir_from_path(const char *path, struct result_dir *out,
			 struct kd_err *err)
{
	char *dir = xstrdup(path);
	size_t len = strlen(dir);
	char *slash;

	memset(out, 0, sizeof(*out));
	while (len > 1 && dir[len - 1] == '/')
		dir[--len] = '\0';
	if (!is_directory(dir)) {
		if (!path_exists(dir) || !(ends_with(dir, ".json") ||
					   ends_with(dir, ".json.gz"))) {
			kd_error(err, "%s: %s", path, path_exists(dir)
				 ? "not a commit directory nor a matrix.json[.gz]"
				 : "no such file or directory");
			free(dir);
			return -1;
		}
		out->matrix = xstrdup(dir);
		slash = strrchr(dir, '/');
		if (slash == dir)
			dir[1] = '\0';
		else if (slash)
			*slash = '\0';
		else
			strcpy(dir, ".");
	}
	out->path = dir;
	out->rel = path_basename(dir);
	out->label = out->rel;
	return 0;
}

static bool has_label(const struct resultdb *db, const char *label)
{
	for (size_t i = 0; i < db->n; i++)
		if (!strcmp(db->dirs[i].label, label))
			return true;
	return false;
}

static struct result_group *groups_add(struct result_groups *g,
				       const char *name,
				       const struct result_dir **members)
{
	struct result_group *group;

	ALLOC_GROW(g->items, g->n + 1, g->alloc);
	group = &g->items[g->n++];
	group->name = xstrdup(*name ? name : ".");
	group->members = xmalloc(g->width * sizeof(*group->members));
	memcpy(group->members, members, g->width * sizeof(*members));
	return group;
}

void result_groups_release(struct result_groups *groups)
{
	for (size_t i = 0; i < groups->n; i++) {
		free(groups->items[i].name);
		free(groups->items[i].members);
	}
	free(groups->items);
	memset(groups, 0, sizeof(*groups));
}

/* A candidate member: the group it belongs to, and the variant it is. */
struct member {
	char *group;		/* exact key */
	char *name;		/* what to call the group */
	size_t variant;
	const struct result_dir *dir;
};

static int compare_members(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = strcmp(x->group, y->group);

	if (c)
		return c;
	if (x->variant != y->variant)
		return x->variant < y->variant ? -1 : 1;
	return strcmp(x->dir->rel, y->dir->rel);
}

/*
 * Sorts the candidates and makes a group of each run of them that has every
 * variant; the first directory of each variant is taken.
 */
static void groups_from_members(struct result_groups *out, struct member *m,
				size_t n)
{
	const struct result_dir **members;

	if (!n)
		return;
	members = xcalloc(out->width + 1, sizeof(*members));
	qsort(m, n, sizeof(*m), compare_members);
	for (size_t i = 0, end; i < n; i = end) {
		size_t found = 0;

		memset(members, 0, out->width * sizeof(*members));
		for (end = i; end < n && !strcmp(m[end].group, m[i].group); end++)
			if (!members[m[end].variant]) {
				members[m[end].variant] = m[end].dir;
				found++;
			}
		if (found == out->width)
			groups_add(out, m[i].name, members);
	}
	free(members);
}

static void free_members(struct member *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(m[i].group);
		free(m[i].name);
	}
	free(m);
}

static void add_member(struct member **m, size_t *n, size_t *alloc,
		       char *group, char *name, size_t variant,
		       const struct result_dir *dir)
{
	ALLOC_GROW(*m, *n + 1, *alloc);
	(*m)[*n].group = group;
	(*m)[*n].name = name;
	(*m)[*n].variant = variant;
	(*m)[*n].dir = dir;
	(*n)++;
}

static void quoted_list(struct strbuf *sb, const char *const *items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s'%s'", i ? ", " : "", items[i]);
}

int resultdb_group_labels(const struct resultdb *db,
			  const char *const *labels, size_t n,
			  struct result_groups *out, struct kd_err *err)
{
	struct member *m = NULL;
	size_t count = 0, alloc = 0;
	struct strbuf list = STRBUF_INIT;

	memset(out, 0, sizeof(*out));
	out->width = n;
	for (size_t j = 0; j < n; j++)
		if (!has_label(db, labels[j]))
			return unknown_label(db, labels[j], NULL, err);
	for (size_t i = 0; i < db->n; i++) {
		const struct result_dir *d = &db->dirs[i];
		size_t parent = (size_t)(d->label - d->rel);

		for (size_t j = 0; j < n; j++)
			if (!strcmp(d->label, labels[j]))
				add_member(&m, &count, &alloc,
					   xstrndup(d->rel, parent),
					   xstrndup(d->rel, parent ? parent - 1 : 0),
					   j, d);
	}
	groups_from_members(out, m, count);
	free_members(m, count);
	if (out->n)
		return 0;
	quoted_list(&list, labels, n);
	kd_error(err, "%s: no directory holds results of all of %s; they were run with different jobs or hosts",
		 db->root, list.buf);
	strbuf_release(&list);
	return -1;
}

/* The job.yaml of the first run that has one, or NULL. */
static char *first_job_file(const struct result_dir *dir)
{
	unsigned *runs;
	size_t n;
	struct kd_err err;
	char *path = NULL;

	if (store_list_runs(dir->path, &runs, &n, &err) < 0)
		return NULL;
	for (size_t i = 0; i < n && !path; i++) {
		path = xasprintf("%s/%u/%s", dir->path, runs[i], STORE_JOB_FILE);
		if (!path_exists(path)) {
			free(path);
			path = NULL;
		}
	}
	free(runs);
	return path;
}

int result_dir_params(const struct result_dir *dir, struct job_params *out,
		      struct kd_err *err)
{
	char *path = first_job_file(dir);
	struct jnode *root = NULL;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (path)
		ret = run_record_load(path, &root, err);
	if (!ret)
		run_record_params(root, dir->rel, out);
	jnode_free(root);
	free(path);
	return ret;
}

static bool in_list(const char *s, const char *const *list, size_t n,
		    size_t *index)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, list[i])) {
			if (index)
				*index = i;
			return true;
		}
	return false;
}

/*
 * Where a commit directory goes for --axis key: the exact key is every
 * other parameter, the testcase, the host and the commit; the name reads
 * like a store path, "<testcase>/<values>/<host>/<commit>".
 */
static void axis_group(const struct job_params *p, const char *key,
		       const struct result_dir *d, char **group, char **name)
{
	struct strbuf g = STRBUF_INIT, n = STRBUF_INIT;
	const char *testcase = p->testcase ? p->testcase : "";
	size_t values = 0;

	strbuf_addf(&g, "%s\n%s\n%s", testcase, p->host ? p->host : "",
		    d->label);
	strbuf_addstr(&n, *testcase ? testcase : "-");
	for (size_t i = 0; i < p->n; i++) {
		if (!strcmp(p->items[i].key, key) ||
		    !strcmp(p->items[i].key, "testcase"))
			continue;
		strbuf_addf(&g, "\n%s=%s", p->items[i].key, p->items[i].value);
		strbuf_addf(&n, "%c%s", values++ ? '-' : '/',
			    p->items[i].value);
	}
	if (p->host)
		strbuf_addf(&n, "/%s", p->host);
	strbuf_addf(&n, "/%s", d->label);
	*group = strbuf_detach(&g);
	*name = strbuf_detach(&n);
}

static int axis_error(const struct resultdb *db, const char *key,
		      bool key_seen, const char *const *values, size_t n,
		      struct kd_err *err)
{
	struct strbuf list = STRBUF_INIT;

	if (!key_seen)
		return kd_error(err, "%s: no job of these results has a parameter '%s'",
				db->root, key);
	quoted_list(&list, values, n);
	kd_error(err, "%s: no jobs that differ only in '%s' have results for all of %s",
		 db->root, key, list.buf);
	strbuf_release(&list);
	return -1;
}

int resultdb_group_axis(const struct resultdb *db, const char *key,
			const char *const *values, size_t n,
			const char *const *commits, size_t ncommits,
			struct result_groups *out, struct kd_err *err)
{
	struct member *m = NULL;
	size_t count = 0, alloc = 0, j;
	bool key_seen = false;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->width = n;
	for (size_t i = 0; i < db->n && !ret; i++) {
		const struct result_dir *d = &db->dirs[i];
		struct job_params p;
		const char *value;
		char *group, *name;

		if (ncommits && !in_list(d->label, commits, ncommits, NULL))
			continue;
		if ((ret = result_dir_params(d, &p, err)) < 0)
			break;
		value = job_params_get(&p, key);
		key_seen |= value != NULL;
		if (value && in_list(value, values, n, &j)) {
			axis_group(&p, key, d, &group, &name);
			add_member(&m, &count, &alloc, group, name, j, d);
		}
		job_params_release(&p);
	}
	if (!ret)
		groups_from_members(out, m, count);
	free_members(m, count);
	if (!ret && !out->n)
		ret = axis_error(db, key, key_seen, values, n, err);
	return ret;
}
