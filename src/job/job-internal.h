/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_JOB_INTERNAL_H
#define KDELTA_JOB_INTERNAL_H

/* Shared by the job-file modules (src/job/); not an API. */
#include <sys/types.h>

#include "kdelta/job.h"

/* Nesting deeper than this is refused: no job file needs it. */
#define JOB_MAX_DEPTH 32
/*
 * Keys in one mapping: LKP's largest job files have a few dozen.  The
 * duplicate check is linear per key, so without a cap a 1 MiB file of
 * distinct keys would take minutes to refuse.
 */
#define JOB_MAX_KEYS 256

struct jnode *jnode_new_list(void);
/* Appends an entry (key and mark only for maps) without a duplicate check. */
void jnode_append(struct jnode *node, const char *key, int line, int col,
		  struct jnode *value);
/* The same, with the key's mark (its file too). */
void jnode_append_mark(struct jnode *node, const char *key,
		       const struct jnode_mark *mark, struct jnode *value);
/* Index of key in map, or -1. */
ssize_t jnode_index(const struct jnode *map, const char *key);
/* About the bytes of memory a tree takes, allocator overhead included. */
size_t jnode_footprint(const struct jnode *node);

/* Loading one file against one schema; err receives the first error. */
struct job_loader {
	const char *name;
	const struct job_schema *schema;
	struct kd_err *err;
	/* The files read: [0] is name, then those it included (jnode.file). */
	char **files;
	size_t nfiles;
	size_t included_bytes;	/* read by includes, repeats counted */
	/* lkp-tests' tree the file lies in, or $LKP_SRC's; NULL: none. */
	char *lkp_tree;
};

/* The name of jnode.file n, for messages. */
const char *job_file_of(const struct job_loader *ld, int file);
/* The "%s:%d:%d" arguments of a node and of a key. */
#define NODE_AT(ld, node) \
	job_file_of(ld, (node)->file), (node)->line, (node)->col
#define MARK_AT(ld, mark) \
	job_file_of(ld, (mark)->file), (mark)->line, (mark)->col

/*
 * job_parse_documents() for a job file, which may also have lkp-tests'
 * includes ("<<: FILE" keys, several in one mapping) and '{{ ... }}'
 * expressions (jnode.expr); every node's file is set to file.
 */
int job_parse_lkp_documents(const char *text, size_t len, const char *name,
			    int file, struct jnode ***docs, size_t *ndocs,
			    struct kd_err *err);

/*
 * Reads a job file's text into its documents with their includes resolved
 * (src/job-include.c): each "<<: FILE" (or "<<: {file: FILE, KEY: VALUE,
 * ignore: [KEY, ...]}") is replaced by that file's documents, as lkp-tests
 * puts the file's text in its place.  The file's name is ld->files[0].
 */
int job_read_documents(struct job_loader *ld, const char *text, size_t len,
		       struct jnode ***docs, size_t *ndocs);
/*
 * Evaluates a '{{ ... }}' expression (a node with jnode.expr) against the
 * job as it stands (src/job-expr.c): *out is the value as a scalar with
 * the expression's position, or NULL for nil (the job is dropped).  -1
 * with ld->err ("file:line:col: '{{ }}': ...") for what it cannot do.
 */
int job_expr_eval(const struct job_loader *ld, const struct jnode *expr,
		  const struct jnode *root, struct jnode **out);

/*
 * lkp-tests' tree (src/job/job-lkp.c).  lkp_tree_find(): the tree a job
 * file lies in (a directory named "jobs" whose parent has "programs/"),
 * else the one $LKP_SRC names (an absolute path), else NULL.
 */
char *lkp_tree_find(const char *job_file);
/* The nearest directory named "jobs" above file (a real path), or NULL. */
char *lkp_jobs_dir(const char *file);
/*
 * Where lkp-tests finds "<<: file" that is not beside the file that
 * includes it (from): in its tree's top directory ("jobs/cgroup2.yaml"),
 * else anywhere below the nearest "jobs" directory above from, the first
 * found depth first in name order.  NULL when not found; *jobs_dir is
 * that directory (NULL: none), for the message.
 */
char *lkp_include_search(const char *from, const char *file, char **jobs_dir);

/* What a name is in lkp-tests, in the order of what matters most. */
enum lkp_kind {
	LKP_NOT_A_PROGRAM,
	LKP_SECTION,	/* no program: job_key_unknown_section() */
	LKP_MONITOR,
	LKP_SETUP,
	LKP_DAEMON,
	LKP_BENCHMARK,
	LKP_CLUSTER,	/* no program: a job on several machines */
};
/* What programs/<name>/ of lkp-tests' tree at root holds. */
enum lkp_kind lkp_program_kind(const char *root, const char *name);
/*
 * -1 with one "... is not built into kdelta" message when a document asks
 * for what kdelta does not build in, by the tree's word: a cluster job, a
 * benchmark, a daemon, a setup script, a monitor, or a section that is
 * none of these (the first found of the first of these kinds); else 0, and
 * job_validate() says what is wrong.
 */
int job_lkp_not_built_in(const struct job_loader *ld, const struct jnode *doc);

/* The largest sum of the files one job file includes, repeats counted. */
#define JOB_MAX_INCLUDED_BYTES ((size_t)4 << 20)
/* The deepest chain of includes. */
#define JOB_MAX_INCLUDE_DEPTH 8

const struct param_section *schema_workload(const struct job_schema *schema,
					    const char *name);
const struct param_section *schema_monitor(const struct job_schema *schema,
					   const char *name);
/* An empty value, "~" or "null": a section with all its defaults. */
bool jnode_is_null(const struct jnode *node);
/* Whether a list at this parameter expands (every type but list and map). */
bool param_expands(const struct param_spec *spec);

/*
 * Moves the monitor sections a document has at its top level, as lkp-tests'
 * job files have them ("perf-profile: {delay: 15}"), into its "monitors"
 * mapping: one made of the schema's default monitors when it has none.
 */
int job_lift_monitors(const struct job_loader *ld, struct jnode *root);
/*
 * Moves the options of the document's workload that it has at its top
 * level, as lkp-tests' job files may ("nr_task: 50%" beside "aim7:"), into
 * the workload's section.
 */
int job_lift_options(const struct job_loader *ld, struct jnode *root);
/*
 * Whether the top-level key i of root, which kdelta does not know, is a
 * section of what kdelta does not build in: a mapping or empty, with no
 * known name close to it (a misspelt "aim8" is not).
 */
bool job_key_unknown_section(const struct job_loader *ld,
			     const struct jnode *root, size_t i);
/* Its message: after "file:line:col: ", with the key. */
#define JOB_UNKNOWN_SECTION \
	"section '%s' is not built into kdelta: no workload or monitor of kdelta has that name; an 'exec' job can run a benchmark, see kdelta-job(5)"
/* Checks a document (merged over the base) against the schema. */
int job_validate(const struct job_loader *ld, const struct jnode *root);
/*
 * Completes an expanded job: defaults filled in, empty sections made maps,
 * a list of monitors made a mapping.  Returns the workload's section, or
 * NULL when the job has none.
 */
const struct param_section *job_complete(const struct job_loader *ld,
					 struct jnode *root);
/*
 * Checks a completed job against the constraints of its sections (the
 * common parameters', its workload's, its monitors'; schema.h), with the
 * file, line and column of the value each message is about.
 */
int job_check_constraints(const struct job_loader *ld, const struct jnode *job);
/* The value of spec->def as a tree (lists and maps are YAML text). */
struct jnode *param_default(const struct param_spec *spec);

#endif
