// SPDX-License-Identifier: GPL-2.0
/*
 * The parameters of a result directory's job (result_dir_params()): any
 * text as the job.yaml of run 0 of a commit directory, as kdelta compare
 * reads kdelta's and lkp-tests' result trees for the group names and
 * --axis.
 *
 * Properties: the parameters come sorted by key, and job_params_get()
 * finds each.
 *
 * Seeds: testdata/fuzz/params/corpus/ (lkp-tests' and kdelta's job.yaml
 * as they are stored with the results); dictionary: testdata/fuzz/params.dict.
 */
#include <string.h>

#include "fuzz.h"
#include "kdelta/resultdb.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *file = fuzz_write("commit/0/" STORE_JOB_FILE, data, size);
	char *dir = xasprintf("%s/commit", fuzz_tmpdir());
	struct result_dir rd;
	struct job_params params;
	struct kd_err err = { .msg = "" };

	FUZZ_CHECK(!result_dir_from_path(dir, &rd, &err), "%s", err.msg);
	if (result_dir_params(&rd, &params, &err) < 0) {
		FUZZ_CHECK(err.msg[0], "job.yaml refused without a message");
	} else {
		for (size_t i = 0; i < params.n; i++) {
			const char *key = params.items[i].key;

			FUZZ_CHECK(!i || strcmp(params.items[i - 1].key, key) <= 0,
				   "parameters not sorted: '%s' before '%s'",
				   params.items[i - 1].key, key);
			FUZZ_CHECK(job_params_get(&params, key),
				   "parameter '%s' not found", key);
		}
	}
	job_params_release(&params);
	result_dir_release(&rd);
	free(dir);
	free(file);
	return 0;
}
