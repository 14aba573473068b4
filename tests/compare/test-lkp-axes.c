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
	{ "runtime", "600s", true, false },
	{ "cluster", "cs-localhost", true, false },
	{ "queue", "ktest-cyclic", true, false },
	{ "msg_size", "1472b", false, false },
	{ "cpufreq_governor", "performance", true, false },
	{ "nr_node", "2", true, false },
	{ "tbox_group", "lkp-icl-2sp8", true, false },
	{ "testcase", "sockperf", true, false },
	{ "compiler", "gcc-12", true, false },
	{ "LKP_SERVER", "10.239.97.5", true, false },
	{ "kernel_cmdline", "a very long value/with slashes and more than 31 bytes", true, false },
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
