// SPDX-License-Identifier: GPL-2.0
/*
 * Checking a job document against the schema, and completing an expanded
 * job with its defaults.  Checking happens once per document, before
 * expansion, so that every message points at the file; the typed getters
 * (jnode_int(), ...) can then not fail.
 */
#include <stdlib.h>
#include <string.h>

#include "job-internal.h"
#include "kdelta/util.h"

static const struct param_section *find_section(
	const struct param_section *const *sections, const char *name)
{
	for (size_t i = 0; sections && sections[i]; i++)
		if (!strcmp(sections[i]->name, name))
			return sections[i];
	return NULL;
}

const struct param_section *schema_workload(const struct job_schema *schema,
					    const char *name)
{
	return find_section(schema->workloads, name);
}

const struct param_section *schema_monitor(const struct job_schema *schema,
					   const char *name)
{
	return find_section(schema->monitors, name);
}

bool param_expands(const struct param_spec *spec)
{
	return spec->type != PARAM_LIST && spec->type != PARAM_MAP;
}

static int node_error(const struct job_loader *ld, const struct jnode *node,
		      const char *path, const char *what)
{
	return kd_error(ld->err, "%s:%d:%d: %s: %s", NODE_AT(ld, node), path,
			what);
}

/* Offers every parameter's name for a did-you-mean. */
static void nearest_param(struct nearest *n, const struct param_spec *params)
{
	for (size_t i = 0; params && params[i].name; i++)
		nearest_offer(n, params[i].name);
}

static int unknown_key(const struct job_loader *ld, const struct jnode *map,
		       size_t i, const char *where, const char *best)
{
	const struct jnode_mark *mark = &map->key_marks[i];

	if (best)
		return kd_error(ld->err, "%s:%d:%d: unknown parameter '%s'%s; did you mean '%s'?",
				MARK_AT(ld, mark), map->keys[i], where, best);
	return kd_error(ld->err, "%s:%d:%d: unknown parameter '%s'%s; see kdelta-job(5)",
			MARK_AT(ld, mark), map->keys[i], where);
}

static int check_scalar(const struct job_loader *ld,
			const struct param_spec *spec, const struct jnode *node,
			const char *path)
{
	if (node->expr)		/* checked once evaluated */
		return 0;
	if (node->kind == JNODE_LIST)
		return node_error(ld, node, path,
				  "a list inside a list does not expand; give one list of values");
	if (node->kind == JNODE_MAP)
		return kd_error(ld->err, "%s:%d:%d: %s: expected a %s, not a mapping",
				NODE_AT(ld, node), path,
				param_type_name(spec->type));
	if (param_check(spec, node->scalar, ld->err))
		return kd_error_prefix(ld->err, "%s:%d:%d: %s",
				       NODE_AT(ld, node), path);
	return 0;
}

static int check_param(const struct job_loader *ld,
		       const struct param_spec *spec, const struct jnode *node,
		       const char *path)
{
	switch (spec->type) {
	case PARAM_MAP:
		if (node->kind == JNODE_MAP || jnode_is_null(node))
			return 0;
		return node_error(ld, node, path, "expected a mapping");
	case PARAM_LIST:
		if (node->kind != JNODE_LIST)
			return node_error(ld, node, path,
					  "expected a list, like [a, b]");
		for (size_t i = 0; i < node->n; i++)
			if (node->values[i]->kind != JNODE_SCALAR)
				return node_error(ld, node->values[i], path,
						  "expected a list of plain values");
		return 0;
	default:
		break;
	}
	if (node->kind != JNODE_LIST)
		return check_scalar(ld, spec, node, path);
	if (!node->n)
		return node_error(ld, node, path,
				  "empty list: nothing to expand into");
	for (size_t i = 0; i < node->n; i++)
		if (check_scalar(ld, spec, node->values[i], path))
			return -1;
	return 0;
}

static int check_section(const struct job_loader *ld,
			 const struct param_section *section,
			 const struct jnode *map, const char *path)
{
	const struct param_spec *params = section->params;
	int ret = 0;

	for (size_t i = 0; !ret && i < map->n; i++) {
		const struct param_spec *spec = param_find(params, map->keys[i]);
		struct nearest n = NEAREST_INIT(map->keys[i]);
		char *where, *sub;

		if (!spec) {
			nearest_param(&n, params);
			where = xasprintf(" in %s", path);
			ret = unknown_key(ld, map, i, where, n.best);
			free(where);
			break;
		}
		sub = xasprintf("%s.%s", path, map->keys[i]);
		ret = check_param(ld, spec, map->values[i], sub);
		free(sub);
	}
	for (size_t i = 0; !ret && params && params[i].name; i++)
		if (params[i].required && jnode_index(map, params[i].name) < 0)
			ret = kd_error(ld->err, "%s:%d:%d: %s: missing required parameter '%s'",
				       NODE_AT(ld, map), path, params[i].name);
	return ret;
}

/* A workload's or monitor's section: a mapping, empty, or a list of them. */
static int check_section_slot(const struct job_loader *ld,
			      const struct param_section *section,
			      const struct jnode *node, const char *path)
{
	static const struct jnode empty = { .kind = JNODE_MAP };

	if (node->kind == JNODE_MAP)
		return check_section(ld, section, node, path);
	if (jnode_is_null(node)) {
		struct jnode here = empty;

		here.line = node->line;
		here.file = node->file;
		here.col = node->col;
		return check_section(ld, section, &here, path);
	}
	if (node->kind == JNODE_SCALAR)
		return node_error(ld, node, path,
				  "expected a mapping of parameters");
	if (!node->n)
		return node_error(ld, node, path,
				  "empty list: nothing to expand into");
	for (size_t i = 0; i < node->n; i++) {
		if (node->values[i]->kind == JNODE_LIST)
			return node_error(ld, node->values[i], path,
					  "expected a mapping of parameters");
		if (check_section_slot(ld, section, node->values[i], path))
			return -1;
	}
	return 0;
}

static int unknown_monitor(const struct job_loader *ld, const char *name,
			   const struct jnode_mark *at)
{
	struct nearest n = NEAREST_INIT(name);

	for (size_t i = 0; ld->schema->monitors && ld->schema->monitors[i]; i++)
		nearest_offer(&n, ld->schema->monitors[i]->name);
	if (n.best)
		return kd_error(ld->err, "%s:%d:%d: unknown monitor '%s'; did you mean '%s'?",
				MARK_AT(ld, at), name, n.best);
	return kd_error(ld->err, "%s:%d:%d: unknown monitor '%s'; see kdelta-job(5) for the monitors",
			MARK_AT(ld, at), name);
}

static int check_monitor_list(const struct job_loader *ld,
			      const struct jnode *list)
{
	for (size_t i = 0; i < list->n; i++) {
		const struct jnode *item = list->values[i];

		if (item->kind != JNODE_SCALAR)
			return node_error(ld, item, "monitors",
					  "expected a list of monitor names");
		if (!schema_monitor(ld->schema, item->scalar))
			return unknown_monitor(ld, item->scalar,
					       &(struct jnode_mark){ item->line,
							item->col, item->file });
		for (size_t j = 0; j < i; j++)
			if (!strcmp(list->values[j]->scalar, item->scalar))
				return kd_error(ld->err, "%s:%d:%d: monitors: '%s' is listed twice",
						NODE_AT(ld, item), item->scalar);
	}
	return 0;
}

static int check_monitors(const struct job_loader *ld, const struct jnode *node)
{
	if (node->kind == JNODE_LIST)
		return check_monitor_list(ld, node);
	if (node->kind != JNODE_MAP)
		return jnode_is_null(node) ? 0 :
		       node_error(ld, node, "monitors",
				  "expected a list of monitor names or a mapping of monitor options");
	for (size_t i = 0; i < node->n; i++) {
		const struct param_section *section =
			schema_monitor(ld->schema, node->keys[i]);
		char *path;
		int ret;

		if (!section)
			return unknown_monitor(ld, node->keys[i],
					       &node->key_marks[i]);
		path = xasprintf("monitors.%s", node->keys[i]);
		ret = check_section_slot(ld, section, node->values[i], path);
		free(path);
		if (ret)
			return -1;
	}
	return 0;
}

/*
 * The workload sections that have key among the choices of a parameter:
 * "disk_rr" at the top level is most likely meant as "aim7: {test:
 * disk_rr}".  NULL when none has; several are joined for unknown_key().
 */
static char *choice_of_workload(const struct job_schema *schema,
				const char *key)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t w = 0; schema->workloads && schema->workloads[w]; w++) {
		const struct param_section *section = schema->workloads[w];

		for (const struct param_spec *p = section->params; p && p->name; p++)
			for (size_t c = 0; p->type == PARAM_CHOICE &&
					   p->choices[c]; c++)
				if (!strcmp(p->choices[c], key))
					strbuf_addf(&sb, "%s%s: {%s: %s}",
						    sb.len ? "' or '" : "",
						    section->name, p->name, key);
	}
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

/* A key an earlier kdelta took, and how to write it now; or NULL. */
static const struct param_renamed *renamed(const struct job_schema *schema,
					   const char *key)
{
	for (size_t w = 0; schema->workloads && schema->workloads[w]; w++)
		for (const struct param_renamed *r = schema->workloads[w]->renamed;
		     r && r->old; r++)
			if (!strcmp(r->old, key))
				return r;
	return NULL;
}

/* Whether an old section (a map, or a list of maps) sets key everywhere. */
static bool section_sets(const struct jnode *section, const char *key)
{
	if (section->kind == JNODE_MAP)
		return jnode_get(section, key) != NULL;
	if (section->kind != JNODE_LIST || !section->n)
		return false;
	for (size_t i = 0; i < section->n; i++)
		if (!section_sets(section->values[i], key))
			return false;
	return true;
}

/*
 * An old section's error: how to write it now, and the earlier defaults
 * (r->old_defaults, "load: 2, testtime: 1s") that it left unset.
 */
static int renamed_key(const struct job_loader *ld, const struct jnode *root,
		       size_t i, const struct param_renamed *r)
{
	struct strbuf left = STRBUF_INIT;
	const char *p = r->old_defaults;
	int ret;

	while (p && *p) {
		size_t len = strcspn(p, ",");
		size_t name_len = strcspn(p, ":");
		char *name = xstrndup(p, name_len < len ? name_len : len);

		if (!section_sets(root->values[i], name))
			strbuf_addf(&left, "%s%.*s", left.len ? ", " : "",
				    (int)len, p);
		free(name);
		p += len;
		p += strspn(p, ", ");
	}
	if (left.len)
		ret = kd_error(ld->err, "%s:%d:%d: '%s' is now '%s', with the same parameters; write out those left to kdelta 0.1's defaults (%s)",
			       MARK_AT(ld, &root->key_marks[i]), r->old,
			       r->now, left.buf);
	else
		ret = kd_error(ld->err, "%s:%d:%d: '%s' is now '%s', with the same parameters",
			       MARK_AT(ld, &root->key_marks[i]), r->old,
			       r->now);
	strbuf_release(&left);
	return ret;
}

/*
 * What an unknown top-level key is most likely meant as: a workload's
 * choice ("aim7: {test: disk_rr}"), or the closest known name; NULL when
 * nothing is close.  The caller frees it.
 */
static char *top_key_candidate(const struct job_schema *schema, const char *key)
{
	char *choice = choice_of_workload(schema, key);
	struct nearest n = NEAREST_INIT(key);

	if (choice)
		return choice;
	nearest_param(&n, schema->common->params);
	nearest_offer(&n, "monitors");
	for (size_t w = 0; schema->workloads && schema->workloads[w]; w++)
		nearest_offer(&n, schema->workloads[w]->name);
	for (size_t m = 0; schema->monitors && schema->monitors[m]; m++)
		nearest_offer(&n, schema->monitors[m]->name);
	return n.best ? xstrdup(n.best) : NULL;
}

bool job_key_unknown_section(const struct job_loader *ld,
			     const struct jnode *root, size_t i)
{
	const struct jnode *value = root->values[i];
	char *candidate;

	if (value->kind == JNODE_LIST) {	/* of sections: lkp-tests' "pts:" */
		for (size_t j = 0; j < value->n; j++)
			if (value->values[j]->kind != JNODE_MAP &&
			    !jnode_is_null(value->values[j]))
				return false;
	} else if (value->kind != JNODE_MAP && !jnode_is_null(value)) {
		return false;
	}
	if (renamed(ld->schema, root->keys[i]))
		return false;
	candidate = top_key_candidate(ld->schema, root->keys[i]);
	free(candidate);
	return !candidate;
}

static int unknown_top_key(const struct job_loader *ld,
			   const struct jnode *root, size_t i)
{
	const struct param_renamed *r = renamed(ld->schema, root->keys[i]);
	char *best;
	int ret;

	if (r)
		return renamed_key(ld, root, i, r);
	if (job_key_unknown_section(ld, root, i))
		return kd_error(ld->err, "%s:%d:%d: " JOB_UNKNOWN_SECTION,
				MARK_AT(ld, &root->key_marks[i]), root->keys[i]);
	best = top_key_candidate(ld->schema, root->keys[i]);
	ret = unknown_key(ld, root, i, "", best);
	free(best);
	return ret;
}

static int check_top_key(const struct job_loader *ld, const struct jnode *root,
			 size_t i, const char **workload)
{
	const char *key = root->keys[i];
	const struct param_spec *spec;
	const struct param_section *section;

	if (!strcmp(key, "monitors"))
		return check_monitors(ld, root->values[i]);
	spec = param_find(ld->schema->common->params, key);
	if (spec)
		return check_param(ld, spec, root->values[i], key);
	section = schema_workload(ld->schema, key);
	if (!section)
		return unknown_top_key(ld, root, i);
	if (*workload)
		return kd_error(ld->err, "%s:%d:%d: second workload section '%s' after '%s'; a job runs one workload",
				MARK_AT(ld, &root->key_marks[i]), key,
				*workload);
	*workload = key;
	return check_section_slot(ld, section, root->values[i], key);
}

/* A top-level key that names a monitor (and nothing else). */
static bool is_top_monitor(const struct job_loader *ld, const char *key)
{
	return strcmp(key, "monitors") &&
	       !param_find(ld->schema->common->params, key) &&
	       !schema_workload(ld->schema, key) &&
	       schema_monitor(ld->schema, key);
}

/* Removes entry i of a map; its value now belongs to the caller. */
static void map_take(struct jnode *map, size_t i)
{
	free(map->keys[i]);
	map->n--;
	memmove(&map->keys[i], &map->keys[i + 1], (map->n - i) * sizeof(*map->keys));
	memmove(&map->values[i], &map->values[i + 1],
		(map->n - i) * sizeof(*map->values));
	memmove(&map->key_marks[i], &map->key_marks[i + 1],
		(map->n - i) * sizeof(*map->key_marks));
}

/* The schema's default monitors, each with its defaults (an empty map). */
static struct jnode *default_monitors(const struct job_schema *schema)
{
	const struct param_section *const *list = schema->default_monitors ?
		schema->default_monitors : schema->monitors;
	struct jnode *map = jnode_new_map();

	for (size_t i = 0; list && list[i]; i++)
		jnode_append(map, list[i]->name, 0, 0, jnode_new_map());
	return map;
}

/*
 * The "monitors" value as a mapping, which lifted sections can join: a
 * list of names becomes a mapping of names to their defaults, and an empty
 * value (no monitors) an empty mapping.
 */
static int monitors_as_map(const struct job_loader *ld, struct jnode **slot)
{
	struct jnode *node = *slot, *map;

	if (check_monitors(ld, node))
		return -1;
	if (node->kind == JNODE_MAP)
		return 0;
	map = jnode_new_map();
	map->line = node->line;
	map->col = node->col;
	map->file = node->file;
	for (size_t i = 0; node->kind == JNODE_LIST && i < node->n; i++)
		jnode_append_mark(map, node->values[i]->scalar,
				  &(struct jnode_mark){ node->values[i]->line,
					node->values[i]->col,
					node->values[i]->file },
				  jnode_new_map());
	jnode_free(node);
	*slot = map;
	return 0;
}

int job_lift_monitors(const struct job_loader *ld, struct jnode *root)
{
	ssize_t at = jnode_index(root, "monitors");
	bool defaults = at < 0;
	struct jnode *monitors;
	size_t i = 0;

	while (i < root->n && !is_top_monitor(ld, root->keys[i]))
		i++;
	if (i == root->n)
		return 0;
	if (defaults) {
		/* A copy: appending may move root's marks. */
		const struct jnode_mark mark = root->key_marks[i];

		jnode_append_mark(root, "monitors", &mark,
				  default_monitors(ld->schema));
		at = (ssize_t)root->n - 1;
	} else if (monitors_as_map(ld, &root->values[at])) {
		return -1;
	}
	monitors = root->values[at];
	for (i = 0; i < root->n;) {
		const struct jnode_mark mark = root->key_marks[i];
		ssize_t there;

		if (!is_top_monitor(ld, root->keys[i])) {
			i++;
			continue;
		}
		there = jnode_index(monitors, root->keys[i]);
		if (there >= 0 && !defaults)
			return kd_error(ld->err, "%s:%d:%d: monitor '%s' is given twice: at the top level and under monitors",
					MARK_AT(ld, &mark), root->keys[i]);
		if (there >= 0) {	/* a default monitor, with options */
			jnode_free(monitors->values[there]);
			monitors->values[there] = root->values[i];
			monitors->key_marks[there] = mark;
		} else {
			jnode_append_mark(monitors, root->keys[i], &mark,
					  root->values[i]);
		}
		map_take(root, i);
	}
	return 0;
}

/* Puts a lifted option into a section: a mapping, empty, or a list. */
static int lift_into(const struct job_loader *ld, struct jnode **slot,
		     const char *section, const char *key,
		     const struct jnode_mark *mark, const struct jnode *value)
{
	struct jnode *node = *slot;

	if (jnode_is_null(node)) {
		struct jnode *map = jnode_new_map();

		map->line = node->line;
		map->col = node->col;
		map->file = node->file;
		jnode_free(node);
		*slot = node = map;
	}
	if (node->kind == JNODE_LIST) {
		for (size_t i = 0; i < node->n; i++)
			if (lift_into(ld, &node->values[i], section, key, mark,
				      value))
				return -1;
		return 0;
	}
	if (node->kind != JNODE_MAP)
		return 0;	/* job_validate() says what is wrong */
	if (jnode_index(node, key) >= 0)
		return kd_error(ld->err, "%s:%d:%d: '%s' is given twice: at the top level and in %s",
				MARK_AT(ld, mark), key, section);
	jnode_append_mark(node, key, mark, jnode_clone(value));
	return 0;
}

int job_lift_options(const struct job_loader *ld, struct jnode *root)
{
	const struct param_section *section = NULL;
	size_t w = 0;

	while (w < root->n && !(section = schema_workload(ld->schema,
							  root->keys[w])))
		w++;
	if (!section)
		return 0;
	for (size_t i = 0; i < root->n;) {
		const struct jnode_mark mark = root->key_marks[i];

		if (i == w || !param_find(section->params, root->keys[i]) ||
		    schema_workload(ld->schema, root->keys[i]) ||
		    !strcmp(root->keys[i], "monitors")) {
			i++;
			continue;
		}
		if (lift_into(ld, &root->values[w], section->name, root->keys[i],
			      &mark, root->values[i]))
			return -1;
		jnode_free(root->values[i]);
		map_take(root, i);
		if (i < w)
			w--;
	}
	return 0;
}

int job_validate(const struct job_loader *ld, const struct jnode *root)
{
	const char *workload = NULL;

	if (root->kind != JNODE_MAP)
		return kd_error(ld->err, "%s:%d:%d: a job document must be a mapping of parameters, like 'fs: xfs'",
				NODE_AT(ld, root));
	for (size_t i = 0; i < root->n; i++)
		if (check_top_key(ld, root, i, &workload))
			return -1;
	return 0;
}

/*
 * A section's constraints on a completed job.  The message goes behind the
 * position of the value it is about; a default, which is in no file,
 * points at the section instead (at the job for the common parameters).
 */
static int check_constraints(const struct job_loader *ld,
			     const struct param_section *section,
			     const struct jnode *map, const struct jnode *job)
{
	const struct jnode *where = map, *value;
	const char *at = NULL;

	if (!section || !section->constraints ||
	    !section->constraints(map, &at, ld->err))
		return 0;
	value = at ? jnode_get(map, at) : NULL;
	if (value && value->line)
		where = value;
	if (!where->line)
		where = job;
	return kd_error_prefix(ld->err, "%s:%d:%d", NODE_AT(ld, where));
}

int job_check_constraints(const struct job_loader *ld, const struct jnode *job)
{
	const struct jnode *monitors = jnode_get(job, "monitors");

	if (check_constraints(ld, ld->schema->common, job, job))
		return -1;
	for (size_t i = 0; i < job->n; i++) {
		const struct param_section *section =
			schema_workload(ld->schema, job->keys[i]);

		if (section && check_constraints(ld, section, job->values[i], job))
			return -1;
	}
	for (size_t i = 0; monitors && monitors->kind == JNODE_MAP &&
			   i < monitors->n; i++)
		if (check_constraints(ld, schema_monitor(ld->schema,
							 monitors->keys[i]),
				      monitors->values[i], job))
			return -1;
	return 0;
}

struct jnode *param_default(const struct param_spec *spec)
{
	bool list = spec->type == PARAM_LIST;
	struct jnode **docs = NULL, *value = NULL;
	size_t ndocs = 0;

	if (!list && spec->type != PARAM_MAP)
		return jnode_new_scalar(spec->def ? spec->def : "");
	/* Declarations are checked by the unit tests; be lenient here. */
	if (spec->def && !job_parse_documents(spec->def, strlen(spec->def),
					      spec->name, &docs, &ndocs, NULL) &&
	    ndocs && docs[0]->kind == (list ? JNODE_LIST : JNODE_MAP)) {
		value = docs[0];
		docs[0] = NULL;
	}
	for (size_t i = 0; i < ndocs; i++)
		jnode_free(docs[i]);
	free(docs);
	if (!value)
		value = list ? jnode_new_list() : jnode_new_map();
	return value;
}

/* A null section becomes an empty map; absent parameters get defaults. */
static void complete_section(const struct param_section *section,
			     struct jnode **slot)
{
	struct jnode *map = *slot;

	if (map->kind != JNODE_MAP) {
		struct jnode *empty = jnode_new_map();

		empty->line = map->line;
		empty->col = map->col;
		empty->file = map->file;
		jnode_free(map);
		*slot = map = empty;
	}
	for (const struct param_spec *p = section->params; p && p->name; p++)
		if (p->def && jnode_index(map, p->name) < 0)
			jnode_append(map, p->name, 0, 0, param_default(p));
}

/* Makes "monitors" a mapping of name -> options, the form readers see. */
static void complete_monitors(const struct job_loader *ld, struct jnode **slot)
{
	struct jnode *node = *slot;

	if (node->kind != JNODE_MAP) {
		struct jnode *map = jnode_new_map();

		map->line = node->line;
		map->col = node->col;
		map->file = node->file;
		for (size_t i = 0; node->kind == JNODE_LIST && i < node->n; i++)
			jnode_append_mark(map, node->values[i]->scalar,
					  &(struct jnode_mark){
						node->values[i]->line,
						node->values[i]->col,
						node->values[i]->file },
					  jnode_new_map());
		jnode_free(node);
		*slot = node = map;
	}
	for (size_t i = 0; i < node->n; i++)
		complete_section(schema_monitor(ld->schema, node->keys[i]),
				 &node->values[i]);
}

/* Adds a key in front: the testcase reads best first. */
static void prepend(struct jnode *map, const char *key, struct jnode *value)
{
	size_t n = map->n;
	char *last_key;

	jnode_append(map, key, 0, 0, value);
	last_key = map->keys[n];
	memmove(&map->keys[1], &map->keys[0], n * sizeof(*map->keys));
	memmove(&map->values[1], &map->values[0], n * sizeof(*map->values));
	memmove(&map->key_marks[1], &map->key_marks[0],
		n * sizeof(*map->key_marks));
	map->keys[0] = last_key;
	map->values[0] = value;
	map->key_marks[0] = (struct jnode_mark){ 0 };
}

const struct param_section *job_complete(const struct job_loader *ld,
					 struct jnode *root)
{
	const struct param_spec *common = ld->schema->common->params;
	const struct param_section *workload = NULL;

	for (size_t i = 0; i < root->n; i++) {
		const struct param_section *section =
			schema_workload(ld->schema, root->keys[i]);
		const struct param_spec *spec = param_find(common, root->keys[i]);

		if (!strcmp(root->keys[i], "monitors")) {
			complete_monitors(ld, &root->values[i]);
		} else if (section) {
			workload = section;
			complete_section(section, &root->values[i]);
		} else if (spec && spec->type == PARAM_MAP &&
			   root->values[i]->kind != JNODE_MAP) {
			jnode_free(root->values[i]);
			root->values[i] = jnode_new_map();
		}
	}
	if (workload && param_find(common, "testcase") &&
	    jnode_index(root, "testcase") < 0)
		prepend(root, "testcase", jnode_new_scalar(workload->name));
	for (const struct param_spec *p = common; p && p->name; p++)
		if (p->def && jnode_index(root, p->name) < 0)
			jnode_append(root, p->name, 0, 0, param_default(p));
	return workload;
}
