// SPDX-License-Identifier: GPL-2.0
#include <sys/resource.h>

#include "wl-test.h"

/* Each test the aim7 section offers runs, reports jobs-per-min, cleans up. */
static void test_runs(const char *test)
{
	const struct workload *wl = workload_find("aim7");
	struct wl_outcome o;

	wl_run("aim7", wl_params(wl, "test", test, "testtime", "0.2s",
				 "load", "2", "file_size", "256k",
				 "block_size", "4k", NULL),
	       NULL, &o);
	CHECK(o.status == 0);
	CHECK_STR(o.err, "");
	CHECK_POSITIVE(&o, "jobs-per-min");
	CHECK(wl_nr_lines(&o) == 1);
	CHECK_STR(o.left.buf, "");
	if (o.status || *o.left.buf)
		fprintf(stderr, "  aim7 %s: %s\n", test, o.err);
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
static void test_worker_fails(const char *test)
{
	const struct workload *wl = workload_find("aim7");
	struct wl_outcome o;
	char want[128];

	wl_run("aim7", wl_params(wl, "test", test, "load", "3",
				 "file_size", "1M", "testtime", "5s", NULL),
	       limit_file_size, &o);
	CHECK(o.status == 1);
	snprintf(want, sizeof(want), "aim7 %s: worker ", test);
	CHECK(!strncmp(o.err, want, strlen(want)));
	snprintf(want, sizeof(want), ": write %s.", test);
	CHECK(strstr(o.err, want) != NULL);
	CHECK(strstr(o.err, ": File too large") != NULL);
	if (!strstr(o.err, ": File too large"))
		fprintf(stderr, "  got: %s\n", o.err);
	CHECK_STR(o.out.buf, "");
	CHECK_STR(o.left.buf, "");
	wl_outcome_release(&o);
}

static void test_unwritable(void)
{
	const struct workload *wl = workload_find("aim7");
	struct wl_outcome o;

	wl_run("aim7", wl_params(wl, "test", "creat-clo", "load", "1",
				 "testtime", "0.1s", NULL),
	       wl_as_user_readonly_dir, &o);
	CHECK_FAILS_WITH(&o, "aim7 creat-clo: worker 0: creat creat-clo.0: Permission denied");
	wl_outcome_release(&o);
}

int main(void)
{
	const struct workload *wl = workload_find("aim7");
	const struct param_spec *test = wl ? param_find(wl->section.params,
							"test") : NULL;

	CHECK(test && test->type == PARAM_CHOICE);
	for (size_t i = 0; test && test->choices[i]; i++)
		test_runs(test->choices[i]);
	test_worker_fails("disk_wrt");
	test_worker_fails("disk_rd");
	test_worker_fails("sync_disk_cp");
	test_unwritable();
	return check_done();
}
