// SPDX-License-Identifier: GPL-2.0
/*
 * A commit's names in a batch: its label checked, its job's directory in
 * the store, its --setup command with {commit} filled in.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/job.h"
#include "kdelta/proc.h"
#include "kdelta/runner.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

char *setup_command_expand(const char *template, const char *commit)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = template, *hit;

	while ((hit = strstr(p, "{commit}"))) {
		strbuf_add(&sb, p, hit - p);
		shell_quote(&sb, commit);
		p = hit + strlen("{commit}");
	}
	strbuf_addstr(&sb, p);
	return strbuf_detach(&sb);
}

const char *runner_testcase(const struct job *job)
{
	const char *testcase = jnode_str(job->root, "testcase");

	return testcase && *testcase ? testcase : job_workload(job);
}

/* Whether <root>/<testcase>/<name> holds results. */
static bool job_dir_exists(const char *result_root, const char *testcase,
			   const char *name)
{
	char *dir = store_commit_dir(result_root, testcase, name, "h", "c");
	char *slash = strrchr(dir, '/');
	bool there;

	*slash = '\0';
	slash = strrchr(dir, '/');
	*slash = '\0';
	there = is_directory(dir);
	free(dir);
	return there;
}

/*
 * The job's directory is lkp-tests' name of it; a store that earlier
 * kdelta wrote has it under the name it gave (job->legacy_name), and its
 * runs go on there, so that they stay together.
 */
char *runner_commit_dir(const struct job *job, const char *result_root,
			const char *host, const char *commit)
{
	const char *testcase = runner_testcase(job);
	const char *name = job->name;

	if (job->legacy_name &&
	    !job_dir_exists(result_root, testcase, job->name) &&
	    job_dir_exists(result_root, testcase, job->legacy_name))
		name = job->legacy_name;
	return store_commit_dir(result_root, testcase, name, host, commit);
}

int commit_label_check(const char *label, struct kd_err *err)
{
	if (!*label)
		return kd_error(err, "empty commit label; give names like --commits base,test");
	if (!strcmp(label, ".") || !strcmp(label, ".."))
		return kd_error(err, "'%s' is not a valid commit label; use a name or a hash",
				label);
	return 0;
}
