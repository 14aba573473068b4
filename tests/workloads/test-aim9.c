// SPDX-License-Identifier: GPL-2.0
#include "wl-test.h"

static void test_runs(const char *test)
{
	const struct workload *wl = workload_find("aim9");
	char *key = xasprintf("%s.ops_per_sec", test);
	struct wl_outcome o;

	wl_run("aim9", wl_params(wl, "test", test, "testtime", "0.1s", NULL),
	       NULL, &o);
	CHECK(o.status == 0);
	CHECK_STR(o.err, "");
	CHECK_POSITIVE(&o, key);
	CHECK(wl_nr_lines(&o) == 1);
	CHECK_STR(o.left.buf, "");
	wl_outcome_release(&o);
	free(key);
}

static void test_unwritable(void)
{
	const struct workload *wl = workload_find("aim9");
	struct wl_outcome o;

	wl_run("aim9", wl_params(wl, "test", "creat-clo", "testtime", "0.1s",
				 NULL),
	       wl_as_user_readonly_dir, &o);
	CHECK_FAILS_WITH(&o, "aim9 creat-clo: creat creat-clo.tmp: Permission denied");
	wl_outcome_release(&o);
}

int main(void)
{
	const struct workload *wl = workload_find("aim9");
	const struct param_spec *test = wl ? param_find(wl->section.params,
							"test") : NULL;

	size_t n = 0;

	CHECK(test && test->type == PARAM_CHOICE);
	/* All of lkp-tests' jobs/aim9.yaml, each runs and leaves nothing. */
	for (size_t i = 0; test && test->choices[i]; i++, n++)
		test_runs(test->choices[i]);
	CHECK(n == 60);
	test_unwritable();
	return check_done();
}
