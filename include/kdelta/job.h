/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_JOB_H
#define KDELTA_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kdelta/err.h"
#include "kdelta/schema.h"
#include "kdelta/strbuf.h"

/*
 * Job files (kdelta-job(5)): LKP's YAML job format.  A loaded file is a set
 * of fully expanded jobs: no list left where a parameter takes one value,
 * defaults filled in, every value checked against its declaration.  A
 * job's "monitors" key, when present, is always a mapping of monitor name to
 * its options (defaults filled in); absent means every monitor, and an
 * empty mapping none.
 */

enum jnode_kind { JNODE_SCALAR, JNODE_MAP, JNODE_LIST };

/* A YAML value of an expanded job.  Maps keep the file's key order. */
struct jnode {
	enum jnode_kind kind;
	char *scalar;		/* JNODE_SCALAR; "" for an empty value */
	size_t n;		/* entries of a map or list */
	size_t alloc;		/* room for entries (jnode_append()) */
	char **keys;		/* JNODE_MAP */
	struct jnode **values;	/* JNODE_MAP values, JNODE_LIST items */
	int line, col;		/* where it was in the file, 1-based; 0: made */
	/*
	 * Which file: 0 the job file, n the n-th file it included ("<<:"),
	 * for the loader's messages.
	 */
	int file;
	/*
	 * JNODE_SCALAR: the text between "{{" and "}}" of an lkp-tests
	 * expression (line and col are those of "{{"), evaluated as the job
	 * expands (kdelta-job(5), EXPRESSIONS).  No loaded job has one.
	 */
	bool expr;
	struct jnode_mark {
		int line, col, file;
	} *key_marks;		/* JNODE_MAP: where each key was; NULL: made */
};

/*
 * What a job file may contain: the common parameters, and one section per
 * workload and per monitor.  The binary builds it from the registries
 * (job_schema_default()); tests pass their own.
 */
struct job_schema {
	const struct param_section *common;
	const struct param_section *const *workloads;	/* NULL-terminated */
	const struct param_section *const *monitors;	/* NULL-terminated */
	/*
	 * The monitors a job without a "monitors" key runs, NULL-terminated;
	 * NULL: all of monitors.  A job that names a monitor at its top
	 * level, as lkp-tests' do ("perf-profile: {delay: 15}"), runs these
	 * and that one.
	 */
	const struct param_section *const *default_monitors;
};


/* Runs per commit of a job that does not say (its "runs"). */
#define JOB_DEFAULT_RUNS 3

struct job {
	struct jnode *root;	/* a map */
	char *name;		/* deterministic, readable, filesystem-safe:
				 * lkp-tests' name of the job (kdelta-job(5)) */
	/*
	 * The name earlier kdelta gave it (values in file order), where
	 * that differs, else NULL: the directory of its results in a store
	 * written then (runner_commit_dir()).
	 */
	char *legacy_name;
	char *source;		/* the file it came from */
	int document;		/* 0-based YAML document index in source */
	/* Resolved once, as the job loads: */
	char *workload;		/* its workload section's key, or NULL */
	const struct param_section *workload_section;	/* its schema's
							 * section of it */
	unsigned runs;		/* its "runs", JOB_DEFAULT_RUNS if absent */
};

struct job_set {
	struct job *jobs;
	size_t n;
};

/*
 * Expansion caps, documented in kdelta-job(5): jobs, and the memory of
 * them all (every job holds a copy of every value: a long value in a file
 * of many jobs, or many documents over a long first one, would take
 * gigabytes).
 */
#define JOB_MAX_EXPANDED 10000
#define JOB_MAX_EXPANDED_BYTES ((size_t)64 << 20)
/* The largest job file, documented in kdelta-job(5). */
#define JOB_MAX_FILE_SIZE ((size_t)1 << 20)

int job_load_file(const char *path, const struct job_schema *schema,
		  struct job_set *out, struct kd_err *err);
int job_load_string(const char *text, size_t len, const char *name,
		    const struct job_schema *schema, struct job_set *out,
		    struct kd_err *err);
void job_set_release(struct job_set *set);

/* The workload this job runs (the one workload section present), or NULL. */
const char *job_workload(const struct job *job);

/*
 * Parses YAML text into one tree per document, each node with its line
 * and column.  Refuses what job files do not use (anchors and aliases,
 * '{{ }}' templates, duplicate keys, complex keys) and what is not text,
 * with a "name:line:col: ..." message.  Also reads kdelta's other YAML
 * files (the robot's configuration).
 */
int job_parse_documents(const char *text, size_t len, const char *name,
			struct jnode ***docs, size_t *ndocs, struct kd_err *err);
/*
 * The first document of a job.yaml that a run wrote, kdelta's or lkp-tests'
 * (the store's run record, run-record.h): as job_parse_documents(), but
 * without the limits of a job file on its size and keys, which lkp-tests'
 * records exceed, without the duplicate key check, and '{{' is text.
 * *root is NULL for an empty text.
 */
int job_parse_record(const char *text, size_t len, const char *name,
		     struct jnode **root, struct kd_err *err);

/* Map lookups; NULL when absent. */
const struct jnode *jnode_get(const struct jnode *map, const char *key);
/*
 * Typed getters on a validated map (the job's root, or a workload's or a
 * monitor's section).  Values were checked at load time, so these cannot
 * fail; an absent key yields NULL, 0 or false.
 */
const char *jnode_str(const struct jnode *map, const char *key);
int64_t jnode_int(const struct jnode *map, const char *key);
uint64_t jnode_size(const struct jnode *map, const char *key);
double jnode_duration(const struct jnode *map, const char *key);
bool jnode_bool(const struct jnode *map, const char *key);

/* Deep copy, and a map setter (replaces or appends), for the runner's record. */
struct jnode *jnode_clone(const struct jnode *node);
struct jnode *jnode_new_scalar(const char *value);
struct jnode *jnode_new_map(void);
void jnode_set(struct jnode *map, const char *key, struct jnode *value);
void jnode_free(struct jnode *node);

/*
 * Emits a job as one YAML document that round-trips through
 * job_load_string(): strings of several lines as literal blocks ("|"), or
 * double-quoted when a block cannot hold them.
 */
void job_to_yaml(const struct jnode *root, struct strbuf *out);

#endif
