// SPDX-License-Identifier: GPL-2.0
#include "wl-test.h"

static void test_runs(void)
{
	const struct workload *wl = workload_find("truncate");
	struct wl_outcome o;
	double pages = 3.0 * 4 * 1024 * 1024 / (double)sysconf(_SC_PAGESIZE);

	wl_run("truncate", wl_params(wl, "nr_files", "3", "file_size", "4M",
				     NULL),
	       NULL, &o);
	/* 3 files of 4M truncated: usecs_per_file and pages_per_sec agree. */
	CHECK_TIMED_RESULTS(&o, "usecs_per_file", 3, "pages_per_sec", pages);
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
