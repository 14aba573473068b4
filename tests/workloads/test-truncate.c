// SPDX-License-Identifier: GPL-2.0
#include "wl-test.h"

static void test_runs(void)
{
	const struct workload *wl = workload_find("truncate");
	struct wl_outcome o;
	double usecs;

	wl_run("truncate", wl_params(wl, "nr_files", "3", "file_size", "4M",
				     NULL),
	       NULL, &o);
	CHECK(o.status == 0);
	CHECK_STR(o.err, "");
	CHECK_POSITIVE(&o, "usecs");
	CHECK_POSITIVE(&o, "usecs_per_file");
	CHECK_POSITIVE(&o, "pages_per_sec");
	CHECK(wl_nr_lines(&o) == 3);
	usecs = wl_value(&o, "usecs");
	CHECK_NEAR(wl_value(&o, "usecs_per_file") * 3, usecs, 1e-6);
	CHECK_NEAR(wl_value(&o, "pages_per_sec"),
		   3.0 * 4 * 1024 * 1024 / (double)sysconf(_SC_PAGESIZE) /
			   (usecs / 1e6),
		   1e-6);
	CHECK_STR(o.left.buf, "");
	wl_outcome_release(&o);
}

static void test_bad_params(void)
{
	const struct workload *wl = workload_find("truncate");
	struct wl_outcome o;

	wl_run("truncate", wl_params(wl, "nr_files", "0", NULL), NULL, &o);
	CHECK_FAILS_WITH(&o, "truncate: nr_files must be between 1 and 1000000, not 0");
	wl_outcome_release(&o);
}

/* Dropping caches needs root; an ordinary user is told so. */
static void test_drop_caches_as_user(void)
{
	const struct workload *wl = workload_find("truncate");
	struct wl_outcome o;

	wl_run("truncate", wl_params(wl, "nr_files", "2", "file_size", "64k",
				     "drop_caches", "true", NULL),
	       wl_as_user, &o);
	CHECK_FAILS_WITH(&o, "truncate: drop_caches: writing /proc/sys/vm/drop_caches needs root; run kdelta as root or set drop_caches: false");
	wl_outcome_release(&o);
}

int main(void)
{
	test_runs();
	test_bad_params();
	test_drop_caches_as_user();
	return check_done();
}
