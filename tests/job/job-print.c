// SPDX-License-Identifier: GPL-2.0
/*
 * job-print FILE: loads a job file against the test schema (test-schema.h)
 * and prints each job's name and YAML, or the error as kdelta does.  The
 * shell tests use it for what needs workloads the binary may not have.
 */
#include <stdio.h>

#include "kdelta/err.h"
#include "test-schema.h"

int main(int argc, char **argv)
{
	struct job_set set;
	struct kd_err err;

	if (argc != 2) {
		fputs("usage: job-print FILE\n", stderr);
		return KD_EXIT_USAGE;
	}
	if (job_load_file(argv[1], &test_schema, &set, &err)) {
		fprintf(stderr, "kdelta: %s\n", err.msg);
		return KD_EXIT_USAGE;
	}
	for (size_t i = 0; i < set.n; i++) {
		struct strbuf yaml = STRBUF_INIT;

		job_to_yaml(set.jobs[i].root, &yaml);
		printf("# %s (document %d)\n%s", set.jobs[i].name,
		       set.jobs[i].document, yaml.buf);
		strbuf_release(&yaml);
	}
	job_set_release(&set);
	return KD_EXIT_OK;
}
