// SPDX-License-Identifier: GPL-2.0
#include <limits.h>
#include <sched.h>
#include <sys/mount.h>

#include "wl-test.h"

/* n holes punched: usecs_per_punch and punches_per_sec agree. */
#define CHECK_PUNCHES(o, n)                                                    \
	CHECK_TIMED_RESULTS((o), "usecs_per_punch", (n), "punches_per_sec", (n))

static void test_fallocate(void)
{
	const struct workload *wl = workload_find("punch");
	struct wl_outcome o;

	/* nr_punches 0: as many as fit, 8M / 64k = 128. */
	wl_run("punch", wl_params(wl, "file_size", "8M", "stride", "64k",
				  "punch_size", "4k", NULL),
	       NULL, &o);
	CHECK_PUNCHES(&o, 128);
	wl_outcome_release(&o);
	wl_run("punch", wl_params(wl, "file_size", "8M", "stride", "64k",
				  "nr_punches", "100", NULL),
	       NULL, &o);
	CHECK_PUNCHES(&o, 100);
	wl_outcome_release(&o);
}

/* Seed 001's second experiment: written data, then the caches dropped. */
static void test_write_drop_caches(void)
{
	const struct workload *wl = workload_find("punch");
	struct wl_outcome o;

	wl_run("punch", wl_params(wl, "file_size", "4M", "prefill", "write",
				  "drop_caches", "true", NULL),
	       NULL, &o);
	if (geteuid() == 0)
		CHECK_PUNCHES(&o, 64);
	else
		CHECK_FAILS_WITH(&o, "punch: drop_caches: writing /proc/sys/vm/drop_caches needs root; run kdelta as root or set drop_caches: false");
	wl_outcome_release(&o);
}

static void test_bad_params(void)
{
	const struct workload *wl = workload_find("punch");
	struct wl_outcome o;

	wl_run("punch", wl_params(wl, "file_size", "8M", "stride", "64k",
				  "nr_punches", "200", NULL),
	       NULL, &o);
	CHECK_FAILS_WITH(&o, "punch: 200 holes every 64k do not fit in file_size 8M (at most 128); lower nr_punches or stride, or raise file_size");
	wl_outcome_release(&o);
	wl_run("punch", wl_params(wl, "punch_size", "128k", "stride", "64k",
				  NULL),
	       NULL, &o);
	CHECK_FAILS_WITH(&o, "punch: punch_size 128k is larger than stride 64k: the holes would overlap");
	wl_outcome_release(&o);
	wl_run("punch", wl_params(wl, "file_size", "1000", "stride", "4k",
				  "punch_size", "512", NULL),
	       NULL, &o);
	CHECK_FAILS_WITH(&o, "punch: stride 4k is larger than file_size 1000: no hole fits");
	wl_outcome_release(&o);
}

/*
 * The work directory on ramfs, which has no fallocate, in a mount namespace
 * of the child's own: the mount goes away with it.
 */
static void on_ramfs(void)
{
	char dir[PATH_MAX];

	if (!getcwd(dir, sizeof(dir)) || unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("ramfs", dir, "ramfs", 0, NULL) < 0 || chdir(dir) < 0)
		exit(WL_CHILD_SETUP_FAILED);
}

static void test_unsupported(void)
{
	const struct workload *wl = workload_find("punch");
	struct wl_outcome o;

	if (geteuid() != 0) {
		printf("not root: skipping the test on ramfs\n");
		return;
	}
	wl_run("punch", wl_params(wl, "file_size", "1M", NULL), on_ramfs, &o);
	CHECK_FAILS_WITH(&o, "punch: fallocate punch.tmp: not supported by the ramfs file system of the work directory; choose another fs");
	wl_outcome_release(&o);
}

int main(void)
{
	test_fallocate();
	test_write_drop_caches();
	test_bad_params();
	test_unsupported();
	return check_done();
}
