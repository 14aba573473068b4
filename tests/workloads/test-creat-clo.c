// SPDX-License-Identifier: GPL-2.0
#include "wl-test.h"

static void test_runs(void)
{
	const struct workload *wl = workload_find("creat-clo");
	struct wl_outcome o;

	wl_run("creat-clo", wl_params(wl, "testtime", "0.3s", NULL), NULL, &o);
	CHECK(o.status == 0);
	CHECK_STR(o.err, "");
	CHECK_POSITIVE(&o, "ops_per_sec");
	CHECK(wl_nr_lines(&o) == 1);
	/* Even a slow machine does more than a few hundred per second. */
	CHECK(wl_value(&o, "ops_per_sec") > 256);
	CHECK_STR(o.left.buf, "");
	wl_outcome_release(&o);
}

static void test_bad_testtime(void)
{
	const struct workload *wl = workload_find("creat-clo");
	struct wl_outcome o;

	wl_run("creat-clo", wl_params(wl, "testtime", "0", NULL), NULL, &o);
	CHECK_FAILS_WITH(&o, "creat-clo: testtime must be more than 0s");
	wl_outcome_release(&o);
}

static void test_unwritable(void)
{
	const struct workload *wl = workload_find("creat-clo");
	struct wl_outcome o;

	wl_run("creat-clo", wl_params(wl, "testtime", "0.1s", NULL),
	       wl_as_user_readonly_dir, &o);
	CHECK_FAILS_WITH(&o, "creat-clo: creat creat-clo.tmp: Permission denied");
	wl_outcome_release(&o);
}

int main(void)
{
	test_runs();
	test_bad_testtime();
	test_unwritable();
	return check_done();
}
