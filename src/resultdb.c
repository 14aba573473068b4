// SPDX-License-Identifier: GPL-2.0
/*
 * Finding commit directories below a result root and grouping them into
 * comparisons, as lkp-tests does: one table per directory that holds every
 * label asked for.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <yaml.h>

#include "kdelta/lkp-axes.h"
#include "kdelta/resultdb.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

/* Deeper than any store: lkp-tests' trees are 8 levels. */
#define SCAN_MAX_DEPTH 32

static bool is_run_name(const char *name)
{
	if (!*name || (name[0] == '0' && name[1]))
		return false;
	for (const char *s = name; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static bool file_in(const char *dir, const char *sub, const char *name)
{
	char *path = sub ? xasprintf("%s/%s/%s", dir, sub, name)
			 : xasprintf("%s/%s", dir, name);
	bool ret = path_exists(path);

	free(path);
	return ret;
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

/* A commit directory: a matrix, or a run with stats or a completion mark. */
static bool holds_results(const char *dir, char *const *subdirs, size_t n)
{
	if (file_in(dir, NULL, "matrix.json.gz") ||
	    file_in(dir, NULL, "matrix.json"))
		return true;
	for (size_t i = 0; i < n; i++)
		if (is_run_name(subdirs[i]) &&
		    (file_in(dir, subdirs[i], STORE_STATS_FILE) ||
		     file_in(dir, subdirs[i], STORE_COMPLETE_FILE)))
			return true;
	return false;
}

/* The subdirectories of dir, not following symbolic links. */
static int list_subdirs(const char *dir, char ***out, size_t *n,
			struct kd_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t alloc = 0;

	*out = NULL;
	*n = 0;
	if (!d)
		return kd_error(err, "%s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !entry_is_dir(dir, de))
			continue;
		ALLOC_GROW(*out, *n + 1, alloc);
		(*out)[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	return 0;
}

static void free_strings(char **s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i]);
	free(s);
}

static void resultdb_add(struct resultdb *db, const char *path,
			 const char *rel)
{
	struct result_dir *d;
	const char *slash;

	ALLOC_GROW(db->dirs, db->n + 1, db->alloc);
	d = &db->dirs[db->n++];
	d->path = xstrdup(path);
	d->rel = xstrdup(rel);
	slash = strrchr(d->rel, '/');
	d->label = slash ? slash + 1 : d->rel;
	d->matrix = NULL;
}

static int scan_dir(struct resultdb *db, const char *path, const char *rel,
		    int depth, struct kd_err *err)
{
	char **subdirs;
	size_t n;
	int ret = 0;

	if (list_subdirs(path, &subdirs, &n, err) < 0)
		return -1;
	if (*rel && holds_results(path, subdirs, n)) {
		resultdb_add(db, path, rel);
	} else if (depth < SCAN_MAX_DEPTH) {
		for (size_t i = 0; i < n && !ret; i++) {
			char *sub_path = xasprintf("%s/%s", path, subdirs[i]);
			char *sub_rel = *rel ? xasprintf("%s/%s", rel, subdirs[i])
					     : xstrdup(subdirs[i]);

			ret = scan_dir(db, sub_path, sub_rel, depth + 1, err);
			free(sub_path);
			free(sub_rel);
		}
	}
	free_strings(subdirs, n);
	return ret;
}

static int compare_result_dirs(const void *a, const void *b)
{
	const struct result_dir *x = a, *y = b;

	return strcmp(x->rel, y->rel);
}

int resultdb_scan(const char *root, struct resultdb *db, struct kd_err *err)
{
	memset(db, 0, sizeof(*db));
	db->root = xstrdup(root);
	if (!is_directory(root))
		return kd_error(err, "%s: no such result root; run jobs with 'kdelta run' first, or name another root with --result-root",
				root);
	if (scan_dir(db, root, "", 0, err) < 0)
		return -1;
	if (!db->n)
		return kd_error(err, "%s: the result root holds no results; run jobs with 'kdelta run' first, or name another root with --result-root",
				root);
	qsort(db->dirs, db->n, sizeof(*db->dirs), compare_result_dirs);
	return 0;
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

/* The closest label present: one it abbreviates, or a near spelling. */
static const char *nearest_label(const struct resultdb *db, const char *label)
{
	const char *best = NULL;
	size_t best_distance = 3, len = strlen(label);

	for (size_t i = 0; i < db->n; i++) {
		const char *l = db->dirs[i].label;
		size_t d;

		if (len >= 4 && !strncmp(l, label, len))
			return l;
		d = edit_distance(label, l);
		if (d < best_distance) {
			best_distance = d;
			best = l;
		}
	}
	return best;
}

static int unknown_label(const struct resultdb *db, const char *label,
			 struct kd_err *err)
{
	const char *near = nearest_label(db, label);

	if (near)
		return kd_error(err, "%s: no results for '%s'; did you mean '%s'?",
				db->root, label, near);
	return kd_error(err, "%s: no results for '%s'; see the commit directories below the result root",
			db->root, label);
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
			return unknown_label(db, labels[j], err);
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

/* Keys of a kdelta job.yaml that are not parameters of the comparison. */
static const char *const unparameters[] = {
	"commit", "host", "machine", "kdelta", "monitors", "runs",
};

static bool is_parameter(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(unparameters); i++)
		if (!strcmp(key, unparameters[i]))
			return false;
	return true;
}

/* One scalar of the job: section is NULL for a top-level one. */
struct flat_param {
	const char *section, *key, *value;
};

struct flat_params {
	struct flat_param *items;
	size_t n, alloc;
};

static const char *scalar_of(yaml_document_t *doc, int id)
{
	yaml_node_t *node = yaml_document_get_node(doc, id);

	return node && node->type == YAML_SCALAR_NODE
		       ? (const char *)node->data.scalar.value
		       : NULL;
}

static void flat_add(struct flat_params *f, const char *section,
		     const char *key, const char *value)
{
	ALLOC_GROW(f->items, f->n + 1, f->alloc);
	f->items[f->n].section = section;
	f->items[f->n].key = key;
	f->items[f->n].value = value;
	f->n++;
}

/* The scalars of a mapping, and those of the mappings it holds. */
static void flatten(yaml_document_t *doc, yaml_node_t *map,
		    const char *section, struct flat_params *f)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		const char *key = scalar_of(doc, p->key);
		yaml_node_t *value = yaml_document_get_node(doc, p->value);

		if (!key || !value || (!section && !is_parameter(key)))
			continue;
		if (value->type == YAML_SCALAR_NODE)
			flat_add(f, section, key,
				 (const char *)value->data.scalar.value);
		else if (value->type == YAML_MAPPING_NODE && !section)
			flatten(doc, value, key, f);
	}
}

static bool key_taken(const struct flat_params *f, size_t self)
{
	for (size_t i = 0; i < f->n; i++)
		if (i != self && !strcmp(f->items[i].key, f->items[self].key))
			return true;
	return false;
}

static int compare_params(const void *a, const void *b)
{
	const struct param *x = a, *y = b;

	return strcmp(x->key, y->key);
}

static void params_from_flat(const struct flat_params *f,
			     struct job_params *out)
{
	out->items = xcalloc(f->n + 1, sizeof(*out->items));
	for (size_t i = 0; i < f->n; i++) {
		const struct flat_param *p = &f->items[i];

		out->items[i].key = p->section && key_taken(f, i)
			? xasprintf("%s.%s", p->section, p->key)
			: xstrdup(p->key);
		out->items[i].value = xstrdup(p->value);
	}
	out->n = f->n;
	qsort(out->items, out->n, sizeof(*out->items), compare_params);
}

static int yaml_load_first(const char *path, yaml_document_t *doc,
			   struct kd_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	yaml_parser_t parser;
	int ret = 0;

	if (read_file(path, &sb, err) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)sb.buf,
				     sb.len);
	if (!yaml_parser_load(&parser, doc))
		ret = kd_error(err, "%s:%zu:%zu: invalid YAML: %s", path,
			       parser.problem_mark.line + 1,
			       parser.problem_mark.column + 1,
			       parser.problem ? parser.problem : "unknown error");
	yaml_parser_delete(&parser);
	strbuf_release(&sb);
	return ret;
}

static char *top_scalar(yaml_document_t *doc, yaml_node_t *map,
			const char *key)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		const char *k = scalar_of(doc, p->key);
		const char *v = scalar_of(doc, p->value);

		if (k && v && *v && !strcmp(k, key))
			return xstrdup(v);
	}
	return NULL;
}

static bool has_key(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		const char *k = scalar_of(doc, p->key);

		if (k && !strcmp(k, key))
			return true;
	}
	return false;
}

/*
 * The <path_params> of an lkp-tests job: from the result path it records,
 * else from where its results are (rel, below the result root).
 */
static char *job_path_params(yaml_document_t *doc, yaml_node_t *root,
			     const char *rel, const char *testcase)
{
	static const char *const keys[] = { "_rt", "result_root" };
	char *params = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(keys) && !params; i++) {
		char *path = top_scalar(doc, root, keys[i]);

		if (path)
			params = lkp_path_params(path, testcase);
		free(path);
	}
	return params || !rel ? params : lkp_path_params(rel, testcase);
}

/*
 * A job lkp-tests scheduled (kdelta's runner adds a "kdelta" key to its
 * own) holds every key of its schedule: keep the axes lkp-tests shows.
 */
static void keep_lkp_axes(yaml_document_t *doc, yaml_node_t *root,
			  const char *rel, struct flat_params *f)
{
	char *testcase = top_scalar(doc, root, "testcase"), *params = NULL;
	struct lkp_scalar *s;
	size_t kept = 0;

	if (testcase && !has_key(doc, root, "kdelta"))
		params = job_path_params(doc, root, rel, testcase);
	free(testcase);
	if (!params)
		return;
	s = xcalloc(f->n + 1, sizeof(*s));
	for (size_t i = 0; i < f->n; i++)
		s[i] = (struct lkp_scalar){ .key = f->items[i].key,
					    .value = f->items[i].value,
					    .top = !f->items[i].section };
	if (lkp_mark_axes(s, f->n, params)) {
		for (size_t i = 0; i < f->n; i++) {
			if (!s[i].keep)
				continue;
			f->items[kept] = f->items[i];
			f->items[kept].value = lkp_axis_value(s[i].key, s[i].value);
			kept++;
		}
		f->n = kept;
	}
	free(s);
	free(params);
}

static int job_file_params(const char *path, const char *rel,
			   struct job_params *out, struct kd_err *err)
{
	struct flat_params f = { NULL, 0, 0 };
	yaml_document_t doc;
	yaml_node_t *root;

	if (yaml_load_first(path, &doc, err) < 0)
		return -1;
	root = yaml_document_get_root_node(&doc);
	if (root && root->type != YAML_MAPPING_NODE) {
		yaml_document_delete(&doc);
		return kd_error(err, "%s: not a job: expected a mapping of parameters",
				path);
	}
	if (root) {
		flatten(&doc, root, NULL, &f);
		keep_lkp_axes(&doc, root, rel, &f);
		params_from_flat(&f, out);
		out->testcase = top_scalar(&doc, root, "testcase");
		out->host = top_scalar(&doc, root, "host");
		if (!out->host)
			out->host = top_scalar(&doc, root, "testbox");
	}
	free(f.items);
	yaml_document_delete(&doc);
	return 0;
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
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (path)
		ret = job_file_params(path, dir->rel, out, err);
	free(path);
	if (ret < 0)
		job_params_release(out);
	return ret;
}

const char *job_params_get(const struct job_params *params, const char *key)
{
	for (size_t i = 0; i < params->n; i++)
		if (!strcmp(params->items[i].key, key))
			return params->items[i].value;
	return NULL;
}

void job_params_release(struct job_params *params)
{
	for (size_t i = 0; i < params->n; i++) {
		free(params->items[i].key);
		free(params->items[i].value);
	}
	free(params->items);
	free(params->testcase);
	free(params->host);
	memset(params, 0, sizeof(*params));
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

/* The runs of a commit directory. */
struct run_scan {
	char **ok_stats;	/* stats.json of each complete run */
	size_t nok, alloc;
	size_t failed, incomplete;
};

static void run_scan_release(struct run_scan *rs)
{
	free_strings(rs->ok_stats, rs->nok);
	memset(rs, 0, sizeof(*rs));
}

/*
 * kdelta marks each run "ok" or "failed: ..." when it ends; lkp-tests marks
 * nothing, so in its trees (no mark anywhere) a run with stats is complete.
 */
static int scan_runs(const struct result_dir *dir, struct run_scan *rs,
		     struct kd_err *err)
{
	unsigned *runs;
	size_t n, marked = 0;
	char **status;

	memset(rs, 0, sizeof(*rs));
	if (store_list_runs(dir->path, &runs, &n, err) < 0)
		return -1;
	status = xcalloc(n + 1, sizeof(*status));
	for (size_t i = 0; i < n; i++) {
		char *run = xasprintf("%s/%u", dir->path, runs[i]);

		status[i] = store_run_status(run);
		marked += status[i] != NULL;
		free(run);
	}
	for (size_t i = 0; i < n; i++) {
		char *stats = xasprintf("%s/%u/%s", dir->path, runs[i],
					STORE_STATS_FILE);

		if (status[i] ? !strcmp(status[i], "ok")
			      : !marked && path_exists(stats)) {
			ALLOC_GROW(rs->ok_stats, rs->nok + 1, rs->alloc);
			rs->ok_stats[rs->nok++] = stats;
			continue;
		}
		free(stats);
		if (status[i])
			rs->failed++;
		else
			rs->incomplete++;
	}
	free_strings(status, n);
	free(runs);
	return 0;
}

static char *matrix_file(const struct result_dir *dir)
{
	static const char *const names[] = { STORE_MATRIX_FILE, "matrix.json" };

	if (dir->matrix)
		return xstrdup(dir->matrix);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *path = xasprintf("%s/%s", dir->path, names[i]);

		if (path_exists(path))
			return path;
		free(path);
	}
	return NULL;
}

int result_dir_load(const struct result_dir *dir, struct matrix *m,
		    struct variant *v, struct kd_err *err)
{
	char *path = matrix_file(dir);
	struct run_scan rs;
	int ret;

	memset(m, 0, sizeof(*m));
	if (scan_runs(dir, &rs, err) < 0) {
		free(path);
		return -1;
	}
	if (path)
		ret = matrix_load(path, m, err);
	else
		ret = matrix_from_stats((const char *const *)rs.ok_stats,
					rs.nok, m, err);
	/* lkp-tests' incomplete runs are in its matrix: counted apart. */
	v->runs = m->nruns - m->nincomplete;
	v->runs_failed = rs.failed;
	v->runs_incomplete = rs.incomplete + m->nincomplete;
	run_scan_release(&rs);
	free(path);
	return ret;
}
