// SPDX-License-Identifier: GPL-2.0
#include <sys/resource.h>

#include "wl-test.h"

static void test_runs(const char *name)
{
	const struct workload *wl = workload_find(name);
	double jobs_per_min, mbps;
	struct wl_outcome o;

	wl_run(name, wl_params(wl, "testtime", "0.2s", "load", "2",
			       "file_size", "256k", "block_size", "4k", NULL),
	       NULL, &o);
	CHECK(o.status == 0);
	CHECK_STR(o.err, "");
	CHECK_POSITIVE(&o, "jobs_per_min");
	CHECK_POSITIVE(&o, "throughput_MBps");
	CHECK(wl_nr_lines(&o) == 2);
	/* Every job moves file_size bytes: the two results must agree. */
	jobs_per_min = wl_value(&o, "jobs_per_min");
	mbps = wl_value(&o, "throughput_MBps");
	CHECK_NEAR(mbps * 1e6, jobs_per_min / 60 * 256 * 1024, 1e-6);
	CHECK_STR(o.left.buf, "");
	wl_outcome_release(&o);
}

static void test_bad_params(void)
{
	const struct workload *wl = workload_find("disk_wrt");
	struct wl_outcome o;

	wl_run("disk_wrt", wl_params(wl, "load", "0", NULL), NULL, &o);
	CHECK_FAILS_WITH(&o, "disk_wrt: load must be between 1 and 100000 processes, not 0");
	wl_outcome_release(&o);
	wl_run("disk_rr", wl_params(wl, "block_size", "128M", NULL), NULL, &o);
	CHECK_FAILS_WITH(&o, "disk_rr: block_size must be between 1 byte and 64M, not 128M");
	wl_outcome_release(&o);
}

/* Files are limited to 64k: every worker's first write beyond fails. */
static void limit_file_size(void)
{
	struct rlimit lim = { 64 * 1024, 64 * 1024 };

	signal(SIGXFSZ, SIG_IGN);
	if (setrlimit(RLIMIT_FSIZE, &lim) < 0)
		exit(WL_CHILD_SETUP_FAILED);
}

/* A failing worker fails the run, and nothing is left behind. */
static void test_worker_fails(const char *name)
{
	const struct workload *wl = workload_find(name);
	struct wl_outcome o;
	char want[128];

	wl_run(name, wl_params(wl, "load", "3", "file_size", "1M",
			       "testtime", "5s", NULL),
	       limit_file_size, &o);
	CHECK(o.status == 1);
	snprintf(want, sizeof(want), "%s: worker ", name);
	CHECK(!strncmp(o.err, want, strlen(want)));
	snprintf(want, sizeof(want), ": write %s.", name);
	CHECK(strstr(o.err, want) != NULL);
	CHECK(strstr(o.err, ": File too large") != NULL);
	if (!strstr(o.err, ": File too large"))
		fprintf(stderr, "  got: %s\n", o.err);
	CHECK_STR(o.out.buf, "");
	CHECK_STR(o.left.buf, "");
	wl_outcome_release(&o);
}

int main(void)
{
	static const char *const names[] = {
		"disk_wrt", "disk_rd", "disk_rr", "disk_rw",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		test_runs(names[i]);
	test_bad_params();
	test_worker_fails("disk_wrt");
	test_worker_fails("disk_rd");
	return check_done();
}
