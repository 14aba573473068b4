// SPDX-License-Identifier: GPL-2.0
/*
 * Job files (kdelta-job(5)): any text through job_load_string() -- YAML
 * parsing, merging documents, checking against the schema of every
 * registered workload and monitor, expansion, completion, naming.  For what
 * loads:
 *
 *   - the names are unique and safe as one path component of the store;
 *   - what kdelta split writes of a job (job_to_yaml) loads again to one
 *     job with the same tree, key order included, and the same name (but
 *     for the "-2", "-3" that tells equal names in one file apart).
 *
 * Seeds: testdata/fuzz/job/corpus/ (the job files of jobs/ and testdata/job/
 * and small hand-made ones); dictionary: testdata/fuzz/job.dict.
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "kdelta/job.h"
#include "kdelta/params.h"
#include "kdelta/util.h"

/* Jobs round-tripped per input: the first and the last ones. */
#define ROUND_TRIPS 32

static bool tree_equal(const struct jnode *a, const struct jnode *b)
{
	if (a->kind != b->kind || a->n != b->n)
		return false;
	if (a->kind == JNODE_SCALAR)
		return !strcmp(a->scalar, b->scalar);
	for (size_t i = 0; i < a->n; i++)
		if ((a->kind == JNODE_MAP && strcmp(a->keys[i], b->keys[i])) ||
		    !tree_equal(a->values[i], b->values[i]))
			return false;
	return true;
}

/* What safe_name() makes: [A-Za-z0-9._+=,@%-], no leading '.', not empty. */
static bool safe_component(const char *name)
{
	if (!*name || *name == '.')
		return false;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._+=,@%-", *p))
			return false;
	return true;
}

/* name is base, or base-<number>. */
static bool same_name(const char *name, const char *base)
{
	size_t len = strlen(base);

	if (strncmp(name, base, len))
		return false;
	if (!name[len])
		return true;
	if (name[len] != '-' || !name[len + 1])
		return false;
	for (const char *p = name + len + 1; *p; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return true;
}

static void check_names(const struct job_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		const char *name = set->jobs[i].name;

		FUZZ_CHECK(safe_component(name) && strlen(name) <= 140,
			   "job %zu: unsafe name '%s'", i, name);
		/* Sampled: a set of 10000 equal names would take long. */
		for (size_t j = i + 1; j < set->n && j < i + 64; j++)
			FUZZ_CHECK(strcmp(name, set->jobs[j].name),
				   "jobs %zu and %zu are both named '%s'", i, j, name);
	}
}

static void check_round_trip(const struct job *job)
{
	struct strbuf yaml = STRBUF_INIT;
	struct job_set again;
	struct kd_err err;
	char *copy;

	job_to_yaml(job->root, &yaml);
	copy = fuzz_memdup(yaml.buf, yaml.len);
	if (job_load_string(copy, yaml.len, "split.yaml", job_schema_default(),
			    &again, &err) < 0)
		FUZZ_CHECK(0, "job '%s' as split writes it does not load: %s\n%s",
			   job->name, err.msg, yaml.buf);
	FUZZ_CHECK(again.n == 1, "job '%s' as split writes it loads as %zu jobs\n%s",
		   job->name, again.n, yaml.buf);
	FUZZ_CHECK(tree_equal(job->root, again.jobs[0].root),
		   "job '%s' as split writes it loads as another job\n%s",
		   job->name, yaml.buf);
	FUZZ_CHECK(same_name(job->name, again.jobs[0].name),
		   "job '%s' as split writes it loads named '%s'\n%s",
		   job->name, again.jobs[0].name, yaml.buf);
	job_set_release(&again);
	free(copy);
	strbuf_release(&yaml);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_memdup(data, size);
	struct job_set set;
	struct kd_err err = { .msg = "" };

	if (job_load_string(text, size, "fuzz.yaml", job_schema_default(),
			    &set, &err) < 0) {
		FUZZ_CHECK(err.msg[0], "a job file refused without a message");
	} else {
		check_names(&set);
		for (size_t i = 0; i < set.n; i++) {
			if (i == ROUND_TRIPS / 2 && set.n > ROUND_TRIPS)
				i = set.n - ROUND_TRIPS / 2;
			check_round_trip(&set.jobs[i]);
		}
	}
	job_set_release(&set);
	free(text);
	return 0;
}
