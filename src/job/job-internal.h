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
/* Index of key in map, or -1. */
ssize_t jnode_index(const struct jnode *map, const char *key);
/* About the bytes of memory a tree takes, allocator overhead included. */
size_t jnode_footprint(const struct jnode *node);

/* Loading one file against one schema; err receives the first error. */
struct job_loader {
	const char *name;
	const struct job_schema *schema;
	struct kd_err *err;
};

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
