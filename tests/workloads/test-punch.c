// SPDX-License-Identifier: GPL-2.0
#include <limits.h>
#include <sched.h>
#include <sys/mount.h>

#include "wl-test.h"

static void check_results(struct wl_outcome *o, double nr_punches)
{
	double usecs = wl_value(o, "usecs");

	CHECK(o->status == 0);
	CHECK_STR(o->err, "");
	CHECK_POSITIVE(o, "usecs");
	CHECK_POSITIVE(o, "usecs_per_punch");
	CHECK_POSITIVE(o, "punches_per_sec");
	CHECK(wl_nr_lines(o) == 3);
	CHECK_NEAR(wl_value(o, "usecs_per_punch") * nr_punches, usecs, 1e-6);
	CHECK_NEAR(wl_value(o, "punches_per_sec"), nr_punches / (usecs / 1e6),
		   1e-6);
	CHECK_STR(o->left.buf, "");
}

static void test_fallocate(void)
{
	const struct workload *wl = workload_find("punch");
	struct wl_outcome o;

	/* nr_punches 0: as many as fit, 8M / 64k = 128. */
	wl_run("punch", wl_params(wl, "file_size", "8M", "stride", "64k",
				  "punch_size", "4k", NULL),
	       NULL, &o);
	check_results(&o, 128);
	wl_outcome_release(&o);
	wl_run("punch", wl_params(wl, "file_size", "8M", "stride", "64k",
				  "nr_punches", "100", NULL),
	       NULL, &o);
	check_results(&o, 100);
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
		check_results(&o, 64);
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
