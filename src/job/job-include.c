// SPDX-License-Identifier: GPL-2.0
/*
 * lkp-tests' includes in job files: "<<: fsmark.yaml" (or "<<: {file:
 * fsmark.yaml, disk: 1SSD}") puts another job file where the key is.
 * lkp-tests does it to the text, before YAML reads it: the included file's
 * lines replace the "<<:" line, indented like it, with each KEY: VALUE of
 * the mapping form set in each of its documents and each key of "ignore"
 * taken out.  kdelta does the same to the trees, which keeps every value's
 * own file, line and column:
 *
 *   - in the included file's first document go the keys before the "<<:";
 *     the keys after it go into its last document; the documents between
 *     stand as they are (a document of one document's file is laid over
 *     the first, as any);
 *   - a key given twice keeps its first place and takes the later value,
 *     as YAML's reader in lkp-tests does with the duplicate keys this
 *     makes;
 *   - the file is found beside the file that includes it (or by its
 *     absolute path), else where lkp-tests looks for it in its tree: its
 *     top directory, then anywhere below the nearest "jobs" directory
 *     ("<<: cgroup2.yaml" in jobs/hackbench/ is jobs/cgroup2.yaml); a
 *     file that includes itself, through others too, is refused, and so
 *     is a chain deeper than JOB_MAX_INCLUDE_DEPTH;
 *   - inside a mapping that is not a document's, the included file must
 *     have one document.
 */
#include <stdlib.h>
#include <string.h>

#include "job-internal.h"
#include "kdelta/util.h"

/* The files being included, outermost first: a cycle's witnesses. */
struct include_chain {
	char *real[JOB_MAX_INCLUDE_DEPTH + 1];
	size_t depth;
};

/* Sets key in map: in its first place when it is there, else at the end. */
static void put(struct jnode *map, const char *key,
		const struct jnode_mark *mark, struct jnode *value)
{
	ssize_t at = jnode_index(map, key);

	if (at < 0) {
		jnode_append_mark(map, key, mark, value);
		return;
	}
	jnode_free(map->values[at]);
	map->values[at] = value;
	map->key_marks[at] = *mark;
}

static struct jnode *empty_map_like(const struct jnode *node)
{
	struct jnode *map = jnode_new_map();

	map->line = node->line;
	map->col = node->col;
	map->file = node->file;
	return map;
}

/* What "<<:" says: the file, the keys to set and those to take out. */
struct include {
	const char *file;
	const struct jnode *set;	/* a map (file and ignore skipped) */
	const struct jnode *ignore;	/* a scalar or a list, or NULL */
	const struct jnode_mark *mark;	/* of the "<<" key */
	const struct jnode *value;
};

static int include_error(const struct job_loader *ld, const struct jnode *at,
			 const char *what)
{
	return kd_error(ld->err, "%s:%d:%d: %s", NODE_AT(ld, at), what);
}

static int read_include(const struct job_loader *ld, const struct jnode *value,
			struct include *inc)
{
	const struct jnode *file;

	inc->value = value;
	if (value->kind == JNODE_SCALAR && !value->expr && *value->scalar) {
		inc->file = value->scalar;
		return 0;
	}
	if (value->kind != JNODE_MAP)
		return include_error(ld, value, "'<<' takes a job file to include, like '<<: base.yaml' or '<<: {file: base.yaml, disk: 1BRD_4G}'");
	file = jnode_get(value, "file");
	if (!file || file->kind != JNODE_SCALAR || file->expr || !*file->scalar)
		return include_error(ld, value, "'<<': the mapping form names its file, like '<<: {file: base.yaml, disk: 1BRD_4G}'");
	inc->file = file->scalar;
	inc->set = value;
	inc->ignore = jnode_get(value, "ignore");
	for (size_t i = 0; inc->ignore && inc->ignore->kind == JNODE_LIST &&
			   i < inc->ignore->n; i++)
		if (inc->ignore->values[i]->kind != JNODE_SCALAR)
			return include_error(ld, inc->ignore->values[i],
					     "'<<': ignore takes key names");
	if (inc->ignore && inc->ignore->kind == JNODE_MAP)
		return include_error(ld, inc->ignore,
				     "'<<': ignore takes key names");
	return 0;
}

static bool ignored(const struct include *inc, const char *key)
{
	const struct jnode *ig = inc->ignore;

	if (!ig)
		return false;
	if (ig->kind == JNODE_SCALAR)
		return !strcmp(ig->scalar, key);
	for (size_t i = 0; i < ig->n; i++)
		if (!strcmp(ig->values[i]->scalar, key))
			return true;
	return false;
}

/* The keys "ignore" takes out and those the mapping form sets. */
static void adjust(const struct include *inc, struct jnode *doc)
{
	for (size_t i = 0; i < doc->n;) {
		if (!ignored(inc, doc->keys[i])) {
			i++;
			continue;
		}
		jnode_free(doc->values[i]);
		free(doc->keys[i]);
		doc->n--;
		memmove(&doc->keys[i], &doc->keys[i + 1],
			(doc->n - i) * sizeof(*doc->keys));
		memmove(&doc->values[i], &doc->values[i + 1],
			(doc->n - i) * sizeof(*doc->values));
		memmove(&doc->key_marks[i], &doc->key_marks[i + 1],
			(doc->n - i) * sizeof(*doc->key_marks));
	}
	for (size_t i = 0; inc->set && i < inc->set->n; i++)
		if (strcmp(inc->set->keys[i], "file") &&
		    strcmp(inc->set->keys[i], "ignore"))
			put(doc, inc->set->keys[i], &inc->set->key_marks[i],
			    jnode_clone(inc->set->values[i]));
}

static int resolve_documents(struct job_loader *ld, struct include_chain *chain,
			     struct jnode **in, size_t nin,
			     struct jnode ***out, size_t *nout);

/* Beside the file that includes it. */
static char *include_beside(const struct job_loader *ld,
			    const struct include *inc)
{
	const char *from = job_file_of(ld, inc->mark->file);
	const char *slash = strrchr(from, '/');

	if (inc->file[0] == '/' || !slash)
		return xstrdup(inc->file);
	return xasprintf("%.*s/%s", (int)(slash - from), from, inc->file);
}

static bool is_file(const char *path)
{
	return path_exists(path) && !is_directory(path);
}

/*
 * The path of an included file, as lkp-tests finds it: beside the file
 * that includes it, else (but for "./x" and "../x") in lkp-tests' tree
 * (lkp_include_search()).  NULL with the message when it is nowhere.
 */
static char *include_path(const struct job_loader *ld,
			  const struct include *inc)
{
	char *beside = include_beside(ld, inc), *found, *jobs;

	if (is_file(beside) || inc->file[0] == '/' ||
	    !strncmp(inc->file, "./", 2) || !strncmp(inc->file, "../", 3)) {
		if (is_file(beside))
			return beside;
		kd_error(ld->err, "%s:%d:%d: '<<: %s': %s is not a job file beside the file that includes it",
			 MARK_AT(ld, inc->mark), inc->file, beside);
		free(beside);
		return NULL;
	}
	found = lkp_include_search(job_file_of(ld, inc->mark->file), inc->file,
				   &jobs);
	if (!found && jobs)
		kd_error(ld->err, "%s:%d:%d: '<<: %s': no job file %s beside the file that includes it, nor below %s",
			 MARK_AT(ld, inc->mark), inc->file, beside, jobs);
	else if (!found)
		kd_error(ld->err, "%s:%d:%d: '<<: %s': %s is not a job file beside the file that includes it",
			 MARK_AT(ld, inc->mark), inc->file, beside);
	free(jobs);
	free(beside);
	return found;
}

static int cycle_check(const struct job_loader *ld,
		       const struct include_chain *chain,
		       const struct include *inc, const char *real)
{
	for (size_t i = 0; i < chain->depth; i++)
		if (!strcmp(chain->real[i], real))
			return kd_error(ld->err, "%s:%d:%d: '<<: %s' includes %s, which is being included already: a cycle of includes",
					MARK_AT(ld, inc->mark), inc->file,
					chain->real[i]);
	if (chain->depth == JOB_MAX_INCLUDE_DEPTH)
		return kd_error(ld->err, "%s:%d:%d: '<<: %s': includes nested deeper than %d files",
				MARK_AT(ld, inc->mark), inc->file,
				JOB_MAX_INCLUDE_DEPTH);
	return 0;
}

/* Reads and parses one included file, its own includes resolved. */
static int load_include(struct job_loader *ld, struct include_chain *chain,
			const struct include *inc, struct jnode ***docs,
			size_t *ndocs)
{
	char *path = include_path(ld, inc), *real;
	struct strbuf text = STRBUF_INIT;
	struct jnode **parsed = NULL;
	size_t nparsed = 0;
	struct kd_err e;
	int file, ret;

	if (!path)
		return -1;
	real = realpath(path, NULL);
	if (!real || is_directory(real)) {
		ret = kd_error(ld->err, "%s:%d:%d: '<<: %s': %s is not a job file beside the file that includes it",
			       MARK_AT(ld, inc->mark), inc->file, path);
		goto out;
	}
	ret = cycle_check(ld, chain, inc, real);
	if (!ret && read_file_max(path, JOB_MAX_FILE_SIZE, &text, &e))
		ret = kd_error(ld->err, "%s:%d:%d: '<<: %s': %s",
			       MARK_AT(ld, inc->mark), inc->file, e.msg);
	if (!ret && text.len > JOB_MAX_INCLUDED_BYTES - ld->included_bytes)
		ret = kd_error(ld->err, "%s:%d:%d: '<<: %s': the files included come to more than %zu MiB",
			       MARK_AT(ld, inc->mark), inc->file,
			       JOB_MAX_INCLUDED_BYTES >> 20);
	if (ret)
		goto out;
	ld->included_bytes += text.len;
	file = (int)ld->nfiles;
	ld->files = xreallocarray(ld->files, ld->nfiles + 1, sizeof(*ld->files));
	ld->files[ld->nfiles++] = xstrdup(path);
	ret = job_parse_lkp_documents(text.buf, text.len, path, file, &parsed,
				      &nparsed, ld->err);
	if (!ret) {
		chain->real[chain->depth++] = real;
		ret = resolve_documents(ld, chain, parsed, nparsed, docs, ndocs);
		chain->depth--;
	}
	for (size_t i = 0; i < nparsed; i++)
		jnode_free(parsed[i]);
	free(parsed);
out:
	strbuf_release(&text);
	free(real);
	free(path);
	return ret;
}

/*
 * The documents an include stands for: the file's mappings (empty
 * documents dropped), adjusted as its mapping form says.
 */
static int include_documents(struct job_loader *ld, struct include_chain *chain,
			     const struct jnode_mark *mark,
			     const struct jnode *value, struct jnode ***docs,
			     size_t *ndocs)
{
	struct include inc = { .mark = mark };
	struct jnode **all;
	size_t n, kept = 0;

	if (read_include(ld, value, &inc) ||
	    load_include(ld, chain, &inc, &all, &n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (jnode_is_null(all[i])) {
			jnode_free(all[i]);
			continue;
		}
		if (all[i]->kind != JNODE_MAP) {
			int ret = include_error(ld, all[i], "an included job file's documents must be mappings of parameters");

			while (i < n)
				jnode_free(all[i++]);
			while (kept)
				jnode_free(all[--kept]);
			free(all);
			return ret;
		}
		adjust(&inc, all[i]);
		all[kept++] = all[i];
	}
	*docs = all;
	*ndocs = kept;
	return 0;
}

static int resolve_nested(struct job_loader *ld, struct include_chain *chain,
			  struct jnode **slot);

/*
 * A mapping that is not a document's: its includes must be of one
 * document each.
 */
static int resolve_map(struct job_loader *ld, struct include_chain *chain,
		       struct jnode **slot)
{
	struct jnode *map = *slot, *out;
	int ret = 0;

	if (jnode_index(map, "<<") < 0) {
		for (size_t i = 0; !ret && i < map->n; i++)
			ret = resolve_nested(ld, chain, &map->values[i]);
		return ret;
	}
	out = empty_map_like(map);
	for (size_t i = 0; !ret && i < map->n; i++) {
		struct jnode **docs = NULL;
		size_t ndocs = 0;

		if (strcmp(map->keys[i], "<<")) {
			ret = resolve_nested(ld, chain, &map->values[i]);
			if (!ret) {
				put(out, map->keys[i], &map->key_marks[i],
				    map->values[i]);
				map->values[i] = NULL;
			}
			continue;
		}
		ret = include_documents(ld, chain, &map->key_marks[i],
					map->values[i], &docs, &ndocs);
		if (!ret && ndocs != 1)
			ret = kd_error(ld->err, "%s:%d:%d: '<<' inside a mapping includes one document, and this file has %zu",
				       MARK_AT(ld, &map->key_marks[i]), ndocs);
		for (size_t d = 0; d < ndocs; d++) {
			for (size_t k = 0; !ret && k < docs[d]->n; k++) {
				put(out, docs[d]->keys[k], &docs[d]->key_marks[k],
				    docs[d]->values[k]);
				docs[d]->values[k] = NULL;
			}
			jnode_free(docs[d]);
		}
		free(docs);
	}
	jnode_free(map);
	*slot = out;
	return ret;
}

static int resolve_nested(struct job_loader *ld, struct include_chain *chain,
			  struct jnode **slot)
{
	struct jnode *node = *slot;
	int ret = 0;

	if (node->kind == JNODE_MAP)
		return resolve_map(ld, chain, slot);
	for (size_t i = 0; !ret && node->kind == JNODE_LIST && i < node->n; i++)
		ret = resolve_nested(ld, chain, &node->values[i]);
	return ret;
}

static void push(struct jnode ***docs, size_t *n, struct jnode *doc)
{
	*docs = xreallocarray(*docs, *n + 1, sizeof(**docs));
	(*docs)[(*n)++] = doc;
}

/*
 * One document: its keys go into the current document, which an include
 * of several documents ends; the documents it adds follow.
 */
static int resolve_top(struct job_loader *ld, struct include_chain *chain,
		       struct jnode *doc, struct jnode ***out, size_t *nout)
{
	struct jnode *cur = empty_map_like(doc);
	int ret = 0;

	push(out, nout, cur);
	for (size_t i = 0; !ret && i < doc->n; i++) {
		struct jnode **docs = NULL;
		size_t ndocs = 0;

		if (strcmp(doc->keys[i], "<<")) {
			ret = resolve_nested(ld, chain, &doc->values[i]);
			if (!ret) {
				put(cur, doc->keys[i], &doc->key_marks[i],
				    doc->values[i]);
				doc->values[i] = NULL;
			}
			continue;
		}
		ret = include_documents(ld, chain, &doc->key_marks[i],
					doc->values[i], &docs, &ndocs);
		for (size_t d = 0; d < ndocs; d++) {
			if (d) {
				cur = docs[d];
				push(out, nout, cur);
				continue;
			}
			for (size_t k = 0; k < docs[d]->n; k++) {
				put(cur, docs[d]->keys[k], &docs[d]->key_marks[k],
				    docs[d]->values[k]);
				docs[d]->values[k] = NULL;
			}
			jnode_free(docs[d]);
		}
		free(docs);
	}
	return ret;
}

static int resolve_documents(struct job_loader *ld, struct include_chain *chain,
			     struct jnode **in, size_t nin,
			     struct jnode ***out, size_t *nout)
{
	int ret = 0;

	*out = NULL;
	*nout = 0;
	for (size_t i = 0; !ret && i < nin; i++) {
		if (in[i]->kind != JNODE_MAP) {
			push(out, nout, in[i]);
			in[i] = NULL;
			continue;
		}
		ret = resolve_top(ld, chain, in[i], out, nout);
	}
	if (ret) {
		for (size_t i = 0; i < *nout; i++)
			jnode_free((*out)[i]);
		free(*out);
		*out = NULL;
		*nout = 0;
	}
	return ret;
}

int job_read_documents(struct job_loader *ld, const char *text, size_t len,
		       struct jnode ***docs, size_t *ndocs)
{
	struct include_chain chain = { .depth = 0 };
	struct jnode **parsed = NULL;
	size_t nparsed = 0;
	char *real;
	int ret;

	*docs = NULL;
	*ndocs = 0;
	if (job_parse_lkp_documents(text, len, ld->name, 0, &parsed, &nparsed,
				    ld->err))
		return -1;
	real = realpath(ld->name, NULL);
	if (real)
		chain.real[chain.depth++] = real;
	ret = resolve_documents(ld, &chain, parsed, nparsed, docs, ndocs);
	free(real);
	for (size_t i = 0; i < nparsed; i++)
		jnode_free(parsed[i]);
	free(parsed);
	return ret;
}
