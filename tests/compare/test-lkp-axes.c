// SPDX-License-Identifier: GPL-2.0
/*
 * lkp-tests' axes found from <path_params>.  The paths are the ones
 * lkp-tests' Job#path_params (lib/job.rb) makes of the scalars given:
 * values sorted by key, each cut to 31 bytes, joined by '-', any byte but
 * [-a-zA-Z0-9+=:.%] made '_'.
 */
#include <stdlib.h>

#include "check.h"
#include "kdelta/lkp-axes.h"
#include "kdelta/util.h"

static struct lkp_scalar scalars[] = {
	{ "runtime", "600s", true, false, false },
	{ "cluster", "cs-localhost", true, false, false },
	{ "queue", "ktest-cyclic", true, false, false },
	{ "msg_size", "1472b", false, false, false },
	{ "cpufreq_governor", "performance", true, false, false },
	{ "nr_node", "2", true, false, false },
	{ "tbox_group", "lkp-icl-2sp8", true, false, false },
	{ "testcase", "sockperf", true, false, false },
	{ "compiler", "gcc-12", true, false, false },
	{ "LKP_SERVER", "10.239.97.5", true, false, false },
	{ "kernel_cmdline", "a very long value/with slashes and more than 31 bytes", true, false, false },
};

static void reset(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(scalars); i++)
		scalars[i].keep = false;
}

static const char *kept(void)
{
	static char buf[256];

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(scalars); i++)
		if (scalars[i].keep)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
				 "%s%s", buf[0] ? " " : "", scalars[i].key);
	return buf;
}

int main(void)
{
	char *p;

	CHECK(lkp_mark_axes(scalars, ARRAY_SIZE(scalars),
			    "cs-localhost-performance-1472b-600s"));
	CHECK_STR(kept(), "runtime cluster msg_size cpufreq_governor tbox_group testcase compiler");
	reset();
	/* Values are cut to 31 bytes and made path-safe. */
	CHECK(lkp_mark_axes(scalars, ARRAY_SIZE(scalars),
			    "performance-a_very_long_value_with_slashes_"));
	CHECK_STR(kept(), "cpufreq_governor tbox_group testcase compiler kernel_cmdline");
	reset();
	/* Out of key order, or a value no key has: not lkp-tests' path. */
	CHECK(!lkp_mark_axes(scalars, ARRAY_SIZE(scalars), "600s-cs-localhost"));
	CHECK(!lkp_mark_axes(scalars, ARRAY_SIZE(scalars), "performance-x"));
	CHECK_STR(kept(), "");
	/* No parameters at all. */
	CHECK(lkp_mark_axes(scalars, ARRAY_SIZE(scalars), "defaults"));
	CHECK_STR(kept(), "tbox_group testcase compiler");
	reset();

	/*
	 * A value that a monitor's option and another key both have: the
	 * other, as lkp-tests' lib-micro job names it ("nr_task: 1" beside
	 * perf-sched: {lite_mode: 1}), and swapin's (swapin_setup: {nr_task:
	 * 1}); a value a fact of the test box also has: the option
	 * (schbench's "schbench: {message_threads: 2}" beside "nr_cpu: 2").
	 */
	{
		struct lkp_scalar micro[] = {
			{ "lite_mode", "1", false, true, false },
			{ "nr_task", "1", true, false, false },
			{ "samples", "10000", true, false, false },
			{ "test", "all", false, false, false },
		};
		struct lkp_scalar swapin[] = {
			{ "lite_mode", "1", false, true, false },
			{ "nr_task", "1", false, false, false },
			{ "size", "2G", true, false, false },
		};

		CHECK(lkp_mark_axes(micro, ARRAY_SIZE(micro), "1-10000-all"));
		CHECK(!micro[0].keep && micro[1].keep && micro[2].keep &&
		      micro[3].keep);
		struct lkp_scalar schbench[] = {
			{ "message_threads", "2", false, false, false },
			{ "nr_cpu", "2", true, false, false },
			{ "runtime", "300s", true, false, false },
		};
		struct lkp_scalar box[] = {
			{ "nr_cpu", "2", true, false, false },
			{ "threads", "2", false, false, false },
		};

		CHECK(lkp_mark_axes(swapin, ARRAY_SIZE(swapin), "1-2G"));
		CHECK(!swapin[0].keep && swapin[1].keep && swapin[2].keep);
		CHECK(lkp_mark_axes(schbench, ARRAY_SIZE(schbench), "2-300s"));
		CHECK(schbench[0].keep && !schbench[1].keep && schbench[2].keep);
		CHECK(lkp_mark_axes(box, ARRAY_SIZE(box), "2"));
		CHECK(!box[0].keep && box[1].keep);
	}

	p = lkp_path_params("/result/sockperf/cs-localhost-performance-1472b-600s/lkp-icl-2sp8/debian.cgz/x86_64-rhel/gcc-12/ffd294d3/1",
			    "sockperf");
	CHECK_STR(p, "cs-localhost-performance-1472b-600s");
	free(p);
	CHECK(lkp_path_params("/result/sockperf", "sockperf") == NULL);
	CHECK(lkp_path_params("aim9/300s", "sockperf") == NULL);
	CHECK_STR(lkp_axis_value("rootfs", "/osimage/debian/debian-12-x86_64-20240206.cgz"),
		  "debian-12-x86_64-20240206.cgz");
	CHECK_STR(lkp_axis_value("kconfig", "a/b"), "a/b");
	return check_done();
}
