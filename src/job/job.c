// SPDX-License-Identifier: GPL-2.0
/*
 * Job files (kdelta-job(5)): documents merged over the first one, lists
 * expanded into their cartesian product as lkp-tests' split-job does (the
 * first list in the file varies slowest), defaults filled in, and a
 * readable, unique name for each job.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "job-internal.h"
#include "kdelta/util.h"

/* Longest value of kdelta's own that goes into a job name as it is. */
#define JOB_NAME_VALUE_MAX 32
/* lkp-tests' values in a name: their first 31 characters. */
#define JOB_NAME_LKP_VALUE_CHARS 31
/* Longest job name: it is one path component of the store. */
#define JOB_NAME_MAX 120

/*
 * Called for each list that expands, in file order; a nonzero return stops
 * the walk.  section is set when the list is one of mappings (a workload's
 * or a monitor's section), NULL when it is one of values.
 */
typedef int (*point_fn)(struct jnode **slot,
			const struct param_section *section, void *ctx);

/* The '{{ }}' expressions in a value that does not expand. */
static int walk_expressions(struct jnode **slot, point_fn fn, void *ctx)
{
	if ((*slot)->expr)
		return fn(slot, NULL, ctx);
	for (size_t i = 0; i < (*slot)->n; i++)
		if (walk_expressions(&(*slot)->values[i], fn, ctx))
			return 1;
	return 0;
}

/* A value: a list that expands, or the expressions in it. */
static int walk_value(const struct param_spec *spec, struct jnode **slot,
		      point_fn fn, void *ctx)
{
	if ((*slot)->kind == JNODE_LIST && spec && param_expands(spec))
		return fn(slot, NULL, ctx);
	return walk_expressions(slot, fn, ctx);
}

static int walk_section(const struct param_section *section,
			struct jnode *map, point_fn fn, void *ctx)
{
	for (size_t i = 0; map->kind == JNODE_MAP && i < map->n; i++)
		if (walk_value(param_find(section->params, map->keys[i]),
			       &map->values[i], fn, ctx))
			return 1;
	return 0;
}

static int walk_section_slot(const struct param_section *section,
			     struct jnode **slot, point_fn fn, void *ctx)
{
	if ((*slot)->kind == JNODE_LIST)
		return fn(slot, section, ctx);
	return walk_section(section, *slot, fn, ctx);
}

static int walk_monitors(const struct job_loader *ld, struct jnode *node,
			 point_fn fn, void *ctx)
{
	for (size_t i = 0; node->kind == JNODE_MAP && i < node->n; i++)
		if (walk_section_slot(schema_monitor(ld->schema, node->keys[i]),
				      &node->values[i], fn, ctx))
			return 1;
	return 0;
}

/*
 * Walks the lists that expand in a validated document, and its '{{ }}'
 * expressions, in file order.
 */
static int walk_points(const struct job_loader *ld, struct jnode *root,
		       point_fn fn, void *ctx)
{
	for (size_t i = 0; i < root->n; i++) {
		const char *key = root->keys[i];
		const struct param_spec *spec =
			param_find(ld->schema->common->params, key);
		const struct param_section *section =
			schema_workload(ld->schema, key);
		int stop = 0;

		if (!strcmp(key, "monitors"))
			stop = walk_monitors(ld, root->values[i], fn, ctx);
		else if (section)
			stop = walk_section_slot(section, &root->values[i], fn, ctx);
		else
			stop = walk_value(spec, &root->values[i], fn, ctx);
		if (stop)
			return 1;
	}
	return 0;
}

/* Counting: a product over the lists, saturating at UINT64_MAX. */
static uint64_t saturating_mul(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

static int count_point(struct jnode **slot, const struct param_section *section,
		       void *ctx)
{
	uint64_t *product = ctx, sum = 0;

	if ((*slot)->expr)	/* one value, or none */
		return 0;
	if (!section) {
		*product = saturating_mul(*product, (*slot)->n);
		return 0;
	}
	for (size_t i = 0; i < (*slot)->n; i++) {
		uint64_t items = 1;

		walk_section(section, (*slot)->values[i], count_point, &items);
		sum = sum + items < sum ? UINT64_MAX : sum + items;
	}
	*product = saturating_mul(*product, sum);
	return 0;
}

static uint64_t count_jobs(const struct job_loader *ld, struct jnode *root)
{
	uint64_t product = 1;

	walk_points(ld, root, count_point, &product);
	return product;
}

static int first_point(struct jnode **slot,
		       const struct param_section *section, void *ctx)
{
	(void)section;
	*(struct jnode ***)ctx = slot;
	return 1;
}

struct expansion {
	const struct job_loader *ld;
	struct job_set *set;
	int document;
	size_t *bytes;		/* of the jobs so far, all documents */
	bool evaluated;		/* an expression was: check the values again */
};

static int too_large(const struct job_loader *ld)
{
	return kd_error(ld->err, "%s: expands to more than %zu MiB of jobs, the limit (every job holds a copy of every value); use fewer or shorter lists, fewer documents or shorter values",
			ld->name, JOB_MAX_EXPANDED_BYTES >> 20);
}

/* Adds a copy of tree, as it is now, as a job. */
static int add_job(struct expansion *x, const struct jnode *tree)
{
	size_t bytes = jnode_footprint(tree);
	struct job *job;

	if (x->evaluated && job_validate(x->ld, tree))
		return -1;
	if (bytes > JOB_MAX_EXPANDED_BYTES - *x->bytes)
		return too_large(x->ld);
	*x->bytes += bytes;
	x->set->jobs = xreallocarray(x->set->jobs, x->set->n + 1,
				     sizeof(*x->set->jobs));
	job = &x->set->jobs[x->set->n++];
	*job = (struct job){
		.root = jnode_clone(tree),
		.source = xstrdup(x->ld->name),
		.document = x->document,
	};
	job->workload_section = job_complete(x->ld, job->root);
	if (job->workload_section)
		job->workload = xstrdup(job->workload_section->name);
	job->runs = jnode_get(job->root, "runs")
		? (unsigned)jnode_int(job->root, "runs") : JOB_DEFAULT_RUNS;
	return job_check_constraints(x->ld, job->root);
}

/*
 * An expression, as lkp-tests evaluates it: when the expansion reaches it,
 * with the values the lists before it have in this job.  Nil drops the
 * job.
 */
static int expand(struct expansion *x, struct jnode *tree);

static int evaluate(struct expansion *x, struct jnode *tree,
		    struct jnode **slot)
{
	struct jnode *expr = *slot, *value;
	int ret;

	if (job_expr_eval(x->ld, expr, tree, &value))
		return -1;
	if (!value)
		return 0;
	x->evaluated = true;
	*slot = value;
	ret = expand(x, tree);
	*slot = expr;
	jnode_free(value);
	return ret;
}

/*
 * The first list that expands varies slowest: each of its items is put in
 * its place in turn, the tree with it expands its other lists, and the
 * list is put back.  Only the jobs are copies.
 */
static int expand(struct expansion *x, struct jnode *tree)
{
	struct jnode **slot = NULL, *list;
	int ret = 0;

	walk_points(x->ld, tree, first_point, &slot);
	if (!slot)
		return add_job(x, tree);
	if ((*slot)->expr)
		return evaluate(x, tree, slot);
	list = *slot;
	for (size_t i = 0; !ret && i < list->n; i++) {
		*slot = list->values[i];
		ret = expand(x, tree);
	}
	*slot = list;
	return ret;
}

static bool jnode_equal(const struct jnode *a, const struct jnode *b)
{
	if (a->kind != b->kind || a->n != b->n)
		return false;
	if (a->kind == JNODE_SCALAR)
		return !strcmp(a->scalar, b->scalar);
	for (size_t i = 0; i < a->n; i++)
		if ((a->keys && strcmp(a->keys[i], b->keys[i])) ||
		    !jnode_equal(a->values[i], b->values[i]))
			return false;
	return true;
}

/* Whether value is its parameter's default (4k and 4096 are the same). */
static bool is_default(const struct param_spec *spec, const struct jnode *value)
{
	struct jnode *def;
	bool same;

	if (!spec->def)
		return false;
	if (value->kind == JNODE_SCALAR) {
		union { uint64_t size; double duration; int64_t i; bool yes; } a, b;

		switch (spec->type) {
		case PARAM_SIZE:
			return !parse_size(value->scalar, &a.size, NULL) &&
			       !parse_size(spec->def, &b.size, NULL) && a.size == b.size;
		case PARAM_DURATION:
			return !parse_duration(value->scalar, &a.duration, NULL) &&
			       !parse_duration(spec->def, &b.duration, NULL) &&
			       a.duration == b.duration;
		case PARAM_INT:
			return !parse_int(value->scalar, &a.i, NULL) &&
			       !parse_int(spec->def, &b.i, NULL) && a.i == b.i;
		case PARAM_BOOL:
			return !parse_bool(value->scalar, &a.yes, NULL) &&
			       !parse_bool(spec->def, &b.yes, NULL) && a.yes == b.yes;
		default:
			break;
		}
	}
	def = param_default(spec);
	same = jnode_equal(value, def);
	jnode_free(def);
	return same;
}

/* kdelta's text of a value of its own parameters. */
static void own_value_text(const struct param_spec *spec,
			   const struct jnode *value, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;

	if (spec->type == PARAM_BOOL) {
		bool yes = false;

		/* "true" alone says nothing: name the switch instead. */
		parse_bool(value->scalar, &yes, NULL);
		strbuf_addf(out, "%s%s", yes ? "" : "no_", spec->name);
		return;
	}
	if (value->kind == JNODE_SCALAR)
		strbuf_addstr(&text, value->scalar);
	for (size_t j = 0; value->kind == JNODE_LIST && j < value->n; j++)
		strbuf_addf(&text, "%s%s", j ? "," : "", value->values[j]->scalar);
	/*
	 * A script or a command line would make an unreadable name: it
	 * stands as "<key>-<hash of the value>".
	 */
	if (text.len <= JOB_NAME_VALUE_MAX && !strpbrk(text.buf, " \t\r\n"))
		strbuf_addstr(out, text.buf);
	else
		strbuf_addf(out, "%s-%08llx", spec->name,
			    (unsigned long long)(hash64(text.buf, text.len) &
						 0xffffffffULL));
	strbuf_release(&text);
}

/*
 * Earlier kdelta's names (kdelta 0.1 to 0.x), which stores written then
 * have: the values in file order, those at their defaults left out.
 */
static void legacy_name_add(struct strbuf *sb, const struct param_spec *spec,
			    const struct jnode *value)
{
	if (!spec || value->kind == JNODE_MAP || is_default(spec, value))
		return;
	if (sb->len)
		strbuf_addch(sb, '-');
	own_value_text(spec, value, sb);
}

/*
 * The parameters a job's name may take, each through fn: every workload
 * section's, and every top-level key that is no workload's (common: the
 * common parameter it is, or NULL for a key the schema does not know).
 */
typedef void name_param_fn(void *arg, const struct param_spec *spec,
			   const struct jnode *value, bool common);

static void each_name_param(const struct job_loader *ld,
			    const struct jnode *root, name_param_fn *fn,
			    void *arg)
{
	const struct param_spec *common = ld->schema->common->params;

	for (size_t i = 0; i < root->n; i++) {
		const struct param_section *section =
			schema_workload(ld->schema, root->keys[i]);
		const struct jnode *map = root->values[i];

		for (size_t j = 0; section && j < map->n; j++)
			fn(arg, param_find(section->params, map->keys[j]),
			   map->values[j], false);
		if (!section)
			fn(arg, param_find(common, root->keys[i]), map, true);
	}
}

/* The legacy name leaves out the common parameters that name no job. */
static void legacy_name_param(void *arg, const struct param_spec *spec,
			      const struct jnode *value, bool common)
{
	if (!(common && spec && spec->unnamed))
		legacy_name_add(arg, spec, value);
}

static char *legacy_job_name(const struct job_loader *ld,
			     const struct jnode *root)
{
	struct strbuf sb = STRBUF_INIT;
	char *name;

	each_name_param(ld, root, legacy_name_param, &sb);
	name = safe_name(sb.len ? sb.buf : "defaults", JOB_NAME_MAX);
	strbuf_release(&sb);
	return name;
}

/* One parameter of a job's name: its key, to sort by, and its text. */
struct name_part {
	const char *key;
	char *text;
};

/* lkp-tests' text of a value: its first 31 characters. */
static void lkp_value_text(const char *value, struct strbuf *out)
{
	const unsigned char *p = (const unsigned char *)value;
	size_t left = strlen(value);

	for (int chars = 0; left && chars < JOB_NAME_LKP_VALUE_CHARS; chars++) {
		size_t n = utf8_sequence_length(p, left);

		n = n ? n : 1;
		strbuf_add(out, (const char *)p, n);
		p += n;
		left -= n;
	}
}

static void name_part_add(struct name_part **parts, size_t *n,
			  const struct param_spec *spec,
			  const struct jnode *value)
{
	struct strbuf text = STRBUF_INIT;

	if (!spec || spec->unnamed || value->kind == JNODE_MAP ||
	    jnode_is_null(value) ||
	    (!spec->lkp_option && is_default(spec, value)))
		return;
	if (spec->lkp_option && value->kind == JNODE_SCALAR)
		lkp_value_text(value->scalar, &text);
	else
		own_value_text(spec, value, &text);
	*parts = xreallocarray(*parts, *n + 1, sizeof(**parts));
	(*parts)[(*n)++] = (struct name_part){ spec->name, strbuf_detach(&text) };
}

static int name_part_cmp(const void *a, const void *b)
{
	return strcmp(((const struct name_part *)a)->key,
		      ((const struct name_part *)b)->key);
}

/* lkp-tests' characters of a name: others, a character each, are '_'. */
static void lkp_name_chars(const char *text, struct strbuf *out)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t left = strlen(text);

	while (left) {
		size_t n = utf8_sequence_length(p, left);

		n = n ? n : 1;
		if (n == 1 && (isalnum(*p) || strchr("-+=:.%", *p)))
			strbuf_addch(out, (char)*p);
		else
			strbuf_addch(out, '_');
		p += n;
		left -= n;
	}
}

/*
 * lkp-tests' rule (its Job#path_params), so that the directory of a job in
 * the store is the one a robot's mail names: the values of the parameters
 * that belong in the name, sorted by the parameter's name, each cut to 31
 * characters, joined by '-', every character but [-a-zA-Z0-9+=:.%] made
 * '_'.  "disk: 1BRD_48G, fs: xfs, aim7: {test: disk_rr, load: 3000},
 * cpufreq_governor: performance" is performance-1BRD_48G-xfs-3000-disk_rr.
 * In the name: the common parameters that are (disk, fs, md, ...) and the
 * workload's, as LKP's programs declare their options; kdelta's own
 * parameters (aim7's file_size, ...) only when not at their defaults, a
 * boolean as its name ("drop_caches") or "no_<name>", a long value or one
 * with blanks as "<name>-<hash>" ("cmd-1f3a9c02").  So a completed job (as
 * split writes it and the runner records it) has the name of the job it
 * came from.
 */
struct name_parts {
	struct name_part *at;
	size_t n;
};

static void name_param(void *arg, const struct param_spec *spec,
		       const struct jnode *value, bool common)
{
	struct name_parts *p = arg;

	(void)common;
	name_part_add(&p->at, &p->n, spec, value);
}

static char *job_name(const struct job_loader *ld, const struct jnode *root)
{
	struct name_parts p = { 0 };
	struct name_part *parts;
	struct strbuf joined = STRBUF_INIT, sb = STRBUF_INIT;
	size_t n;
	char *name;

	each_name_param(ld, root, name_param, &p);
	parts = p.at;
	n = p.n;
	if (n)		/* qsort() takes no NULL, even for 0 parts */
		qsort(parts, n, sizeof(*parts), name_part_cmp);
	for (size_t i = 0; i < n; i++) {
		strbuf_addf(&joined, "%s%s", i ? "-" : "", parts[i].text);
		free(parts[i].text);
	}
	free(parts);
	lkp_name_chars(joined.len ? joined.buf : "defaults", &sb);
	name = safe_name(sb.buf, JOB_NAME_MAX);
	strbuf_release(&joined);
	strbuf_release(&sb);
	return name;
}

/* The names given so far, and the next suffix to try for each. */
struct name_entry {
	char *name;
	int next;
};

static struct name_entry *name_find(struct name_entry *table, size_t mask,
				    const char *name)
{
	size_t i = hash64(name, strlen(name)) & mask;

	while (table[i].name && strcmp(table[i].name, name))
		i = (i + 1) & mask;
	return &table[i];
}

/*
 * Names the jobs; a name seen before gains "-2", "-3", ... in job order.
 * Each name remembers its next suffix, so that many equal names stay cheap.
 */
typedef char *(*namer_fn)(const struct job_loader *ld,
			  const struct jnode *root);

static void name_jobs_by(const struct job_loader *ld, struct job_set *set,
			 namer_fn namer, bool legacy)
{
	size_t size = 16;
	struct name_entry *table;

	while (size < 4 * set->n)
		size *= 2;
	table = xcalloc(size, sizeof(*table));
	for (size_t i = 0; i < set->n; i++) {
		char *base = namer(ld, set->jobs[i].root);
		struct name_entry *seen = name_find(table, size - 1, base);
		struct name_entry *slot = seen;
		char *name = xstrdup(base);

		for (int k = seen->name ? seen->next : 0; slot->name; k++) {
			free(name);
			name = xasprintf("%s-%d", base, k);
			slot = name_find(table, size - 1, name);
			seen->next = k + 1;
		}
		*slot = (struct name_entry){ .name = name, .next = 2 };
		free(base);
		if (legacy)
			set->jobs[i].legacy_name = name;
		else
			set->jobs[i].name = name;
	}
	free(table);
}

/* The names, and earlier kdelta's names where they differ. */
static void name_jobs(const struct job_loader *ld, struct job_set *set)
{
	name_jobs_by(ld, set, job_name, false);
	name_jobs_by(ld, set, legacy_job_name, true);
	for (size_t i = 0; i < set->n; i++) {
		struct job *job = &set->jobs[i];

		if (!strcmp(job->name, job->legacy_name)) {
			free(job->legacy_name);
			job->legacy_name = NULL;
		}
	}
}

/* A later document over a copy of the first: its keys replace wholesale. */
static struct jnode *merge(const struct jnode *base, const struct jnode *doc)
{
	struct jnode *merged = jnode_clone(base);

	for (size_t i = 0; i < doc->n; i++) {
		ssize_t at = jnode_index(merged, doc->keys[i]);

		if (at < 0) {
			jnode_append_mark(merged, doc->keys[i],
					  &doc->key_marks[i],
					  jnode_clone(doc->values[i]));
			continue;
		}
		jnode_free(merged->values[at]);
		merged->values[at] = jnode_clone(doc->values[i]);
		merged->key_marks[at] = doc->key_marks[i];
	}
	return merged;
}

static int check_documents(const struct job_loader *ld, struct jnode **docs,
			   size_t ndocs)
{
	for (size_t i = 0; i < ndocs; i++) {
		if (ndocs == 1 && jnode_is_null(docs[i]))
			break;
		if (jnode_is_null(docs[i]))
			return kd_error(ld->err, "%s:%d:%d: empty YAML document; remove the '---' or add parameters",
					NODE_AT(ld, docs[i]));
		if (docs[i]->kind != JNODE_MAP)
			return kd_error(ld->err, "%s:%d:%d: a job document must be a mapping of parameters, like 'fs: xfs'",
					NODE_AT(ld, docs[i]));
	}
	if (!ndocs || jnode_is_null(docs[0]))
		return kd_error(ld->err, "%s: empty job file; see kdelta-job(5) for the format",
				ld->name);
	return 0;
}

/*
 * Merges and checks every document, and counts the jobs before expanding.
 * The merged documents count against the limit of the jobs' memory: each
 * gives a job at least.
 */
static int prepare(const struct job_loader *ld, struct jnode **docs,
		   size_t ndocs, struct jnode **merged)
{
	uint64_t total = 0;
	size_t bytes = 0;

	for (size_t i = 0; i < ndocs; i++) {
		size_t doc_bytes;

		merged[i] = i ? merge(docs[0], docs[i]) : jnode_clone(docs[0]);
		doc_bytes = jnode_footprint(merged[i]);
		if (doc_bytes > JOB_MAX_EXPANDED_BYTES - bytes)
			return too_large(ld);
		bytes += doc_bytes;
		if (job_lift_monitors(ld, merged[i]) ||
		    job_lift_options(ld, merged[i]) ||
		    job_lkp_not_built_in(ld, merged[i]) ||
		    job_validate(ld, merged[i]))
			return -1;
	}
	for (size_t i = 0; i < ndocs; i++) {
		uint64_t n = count_jobs(ld, merged[i]);

		total = total + n < total ? UINT64_MAX : total + n;
	}
	if (total <= JOB_MAX_EXPANDED)
		return 0;
	if (total == UINT64_MAX)
		return kd_error(ld->err, "%s: expands to more than 2^64 jobs, more than the limit of %d; use fewer or shorter lists",
				ld->name, JOB_MAX_EXPANDED);
	return kd_error(ld->err, "%s: expands to %llu jobs, more than the limit of %d; use fewer or shorter lists",
			ld->name, (unsigned long long)total, JOB_MAX_EXPANDED);
}

static void free_files(struct job_loader *ld)
{
	for (size_t i = 0; i < ld->nfiles; i++)
		free(ld->files[i]);
	free(ld->files);
	free(ld->lkp_tree);
}

static void free_trees(struct jnode **trees, size_t n)
{
	for (size_t i = 0; i < n; i++)
		jnode_free(trees[i]);
	free(trees);
}

int job_load_string(const char *text, size_t len, const char *name,
		    const struct job_schema *schema, struct job_set *out,
		    struct kd_err *err)
{
	struct job_loader ld = { .name = name, .schema = schema, .err = err };
	struct jnode **docs = NULL, **merged;
	size_t ndocs = 0, bytes = 0;
	int ret;

	*out = (struct job_set){ 0 };
	ld.files = xcalloc(1, sizeof(*ld.files));
	ld.files[ld.nfiles++] = xstrdup(name);
	ld.lkp_tree = lkp_tree_find(name);
	ret = job_read_documents(&ld, text, len, &docs, &ndocs);
	if (ret || check_documents(&ld, docs, ndocs)) {
		free_trees(docs, ndocs);
		free_files(&ld);
		return -1;
	}
	merged = xcalloc(ndocs, sizeof(*merged));
	ret = prepare(&ld, docs, ndocs, merged);
	for (size_t i = 0; !ret && i < ndocs; i++) {
		struct expansion x = { .ld = &ld, .set = out, .document = (int)i,
				       .bytes = &bytes };

		ret = expand(&x, merged[i]);
		jnode_free(merged[i]);
		merged[i] = NULL;
	}
	if (!ret && !out->n)
		ret = kd_error(err, "%s: every job of the file was dropped by a '{{ ... }}' expression that gave nil",
			       name);
	if (!ret)
		name_jobs(&ld, out);
	else
		job_set_release(out);
	free_trees(merged, ndocs);
	free_trees(docs, ndocs);
	free_files(&ld);
	return ret;
}

int job_load_file(const char *path, const struct job_schema *schema,
		  struct job_set *out, struct kd_err *err)
{
	struct strbuf text = STRBUF_INIT;
	int ret;

	*out = (struct job_set){ 0 };
	if (is_directory(path))
		return kd_error(err, "%s: is a directory, not a job file", path);
	ret = read_file_max(path, JOB_MAX_FILE_SIZE, &text, err);
	if (!ret)
		ret = job_load_string(text.buf, text.len, path, schema, out, err);
	strbuf_release(&text);
	return ret;
}

void job_set_release(struct job_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		jnode_free(set->jobs[i].root);
		free(set->jobs[i].name);
		free(set->jobs[i].legacy_name);
		free(set->jobs[i].source);
		free(set->jobs[i].workload);
	}
	free(set->jobs);
	*set = (struct job_set){ 0 };
}

const char *job_workload(const struct job *job)
{
	return job->workload;
}
