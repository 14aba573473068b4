// SPDX-License-Identifier: GPL-2.0
/*
 * lkp_decide() on one result pair of 5 runs each, stat by stat, with what
 * lkp-tests' own compare decides on the same two matrices: its changed
 * stats were aim9.creat-clo.ops_per_sec, dmesg.WARNING:at_foo,
 * fio.x.unknown_metric_count, latency_stats.max.foo,
 * perf-profile.self.cycles-pp.memcpy, will-it-scale.per_thread_ops,
 * xfstests.generic.001.fail and .pass (scripts/lkp-oracle/compare.rb
 * --keys, lkp-tests at commit bbbc29c495d9).  The reasons of the others
 * are kdelta's reading of lkp-tests' rules.
 */
#include <string.h>

#include "check.h"
#include "kdelta/lkp-rules.h"
#include "kdelta/util.h"

struct pair {
	const char *name;
	bool key;
	double base[5], other[5];
	enum lkp_decision want;
};

static const struct pair pairs[] = {
	/* every slabinfo.* stat is on the denylist */
	{ "slabinfo.dentry.active_objs", false, { 1000, 1010, 990, 1000, 1005 },
	  { 5000, 5010, 4990, 5000, 5005 }, LKP_NOT_COMPARED },
	/* 3% of a performance metric (a workload result) */
	{ "aim9.creat-clo.ops_per_sec", true, { 1000, 1001, 999, 1000, 1000 },
	  { 1030, 1031, 1029, 1030, 1030 }, LKP_CHANGED },
	{ "fio.x.unknown_metric_count", true, { 1000, 1001, 999, 1000, 1000 },
	  { 1030, 1031, 1029, 1030, 1030 }, LKP_CHANGED },
	/* ... but ltp is a functional test, turbostat no performance metric */
	{ "ltp.x.unknown_metric", true, { 1000, 1001, 999, 1000, 1000 },
	  { 1030, 1031, 1029, 1030, 1030 }, LKP_RATIO_5_PERCENT },
	{ "turbostat.Avg_MHz", false, { 1000, 1001, 999, 1000, 1000 },
	  { 1030, 1031, 1029, 1030, 1030 }, LKP_RATIO_5_PERCENT },
	/* thresholds: vmstat.system.cs 100, proc-vmstat above 1000 */
	{ "vmstat.system.cs", false, { 60, 61, 59, 60, 60 },
	  { 90, 91, 89, 90, 90 }, LKP_UNREASONABLE },
	{ "proc-vmstat.pgfree", false, { 500, 501, 499, 500, 500 },
	  { 900, 901, 899, 900, 900 }, LKP_UNREASONABLE },
	{ "aim9.time.user_time", true, { 5, 5.1, 4.9, 5, 5 },
	  { 7, 7.1, 6.9, 7, 7 }, LKP_UNREASONABLE },
	{ "iostat.sda.util", false, { 0.1, 0.11, 0.09, 0.1, 0.1 },
	  { 0.5, 0.51, 0.49, 0.5, 0.5 }, LKP_UNREASONABLE },
	/* apart, but the middles 0.8% apart */
	{ "meminfo.Dirty", false, { 5000, 5001, 4999, 5000, 5000 },
	  { 5040, 5041, 5039, 5040, 5040 }, LKP_RATIO_1_PERCENT },
	/* failures: 0 of 5 runs, then 4 of 5 */
	{ "dmesg.WARNING:at_foo", false, { 0, 0, 0, 0, 0 }, { 1, 1, 1, 1, 0 },
	  LKP_CHANGED },
	{ "dmesg.WARNING:at_bar", false, { 0, 0, 1, 1, 1 }, { 0, 0, 1, 1, 1 },
	  LKP_SAME_MAXIMA },
	{ "dmesg.boot_failures", false, { 0, 0, 0, 0, 0 }, { 1, 1, 1, 1, 1 },
	  LKP_NOT_COMPARED },
	{ "ltp.syscalls.fail", true, { 0, 0, 0, 0, 0 }, { 1, 1, 1, 1, 1 },
	  LKP_NO_PASS_FAIL_PAIR },
	{ "xfstests.generic.001.fail", true, { 0, 0, 0, 0, 0 },
	  { 1, 1, 1, 1, 1 }, LKP_CHANGED },
	{ "xfstests.generic.001.pass", true, { 1, 1, 1, 1, 1 },
	  { 0, 0, 0, 0, 0 }, LKP_CHANGED },
	/* perf-profile: the interval alone */
	{ "perf-profile.self.cycles-pp.memcpy", false, { 1, 1.1, 0.9, 1, 1 },
	  { 1.5, 1.6, 1.4, 1.5, 1.5 }, LKP_CHANGED },
	{ "latency_stats.max.foo", false, { 100, 110, 90, 100, 100 },
	  { 400, 410, 390, 400, 400 }, LKP_CHANGED },
	/* a -1, "no data", is dropped */
	{ "will-it-scale.per_thread_ops", true, { -1, 1000, 1001, 999, 1000 },
	  { 1100, 1101, 1099, 1100, 1100 }, LKP_CHANGED },
};

/* The base of these pairs has every stat of the table. */
static bool base_has(const void *ctx, const char *name)
{
	(void)ctx;
	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++)
		if (!strcmp(pairs[i].name, name))
			return true;
	return false;
}

static enum lkp_decision decide(const char *name, bool key,
				const double *base, size_t nb,
				const double *other, size_t no)
{
	struct lkp_side b = { base, nb, nb, true, base_has, NULL, false };
	struct lkp_side o = { other, no, no, true, NULL, NULL, false };

	return lkp_decide(name, key, &b, &o);
}

static void test_pairs(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++) {
		const struct pair *p = &pairs[i];
		enum lkp_decision d = decide(p->name, p->key, p->base, 5,
					     p->other, 5);

		if (d != p->want)
			fprintf(stderr, "%s: %s\n", p->name,
				lkp_decision_rule(d));
		CHECK(d == p->want);
	}
}

static void test_runs_and_absence(void)
{
	static const double a[] = { 100, 101 }, b[] = { 200, 201, 202, 203 };
	static const double zeros[] = { 0, 0, 0, 0 }, once[] = { 0, 0, 0, 1 };
	struct lkp_side base = { NULL, 0, 4, true, base_has, NULL, false };
	struct lkp_side other = { b, 4, 4, true, NULL, NULL, false };

	/* a regular stat needs 3 runs on one side; a failure stat none */
	CHECK(decide("aim9.x.ops", true, a, 2, b, 2) == LKP_FEW_RUNS);
	CHECK(decide("aim9.x.ops", true, a, 2, b, 4) == LKP_CHANGED);
	CHECK(decide("dmesg.BUG:x", false, zeros, 1, once + 3, 1) ==
	      LKP_CHANGED);
	/* absent from the base */
	CHECK(lkp_decide("aim9.x.ops", true, &base, &other) == LKP_NO_BASE);
	/* ... but perf-profile compares with zeros when its monitor ran */
	CHECK(lkp_decide("perf-profile.x", false, &base, &other) ==
	      LKP_CHANGED);
	/* a failure stat absent from the base: zeros */
	CHECK(lkp_decide("dmesg.WARNING:y", false, &base, &other) ==
	      LKP_CHANGED);
	/* a failure stat absent from the variant: its runs count 0 */
	other.samples = NULL;
	base.samples = once;
	base.n = 4;
	CHECK(lkp_decide("dmesg.WARNING:y", false, &base, &other) ==
	      LKP_CHANGED);
}

/*
 * perf-profile.* against a side written as JSON integers: lkp-tests calls
 * it changed only when a middle value is above 5 (Ruby's Integer 5 is_a?
 * the class of the side's middle); oracle set synthetic/51 of seed 7.
 */
static void test_integer_perf_profile(void)
{
	static const double fractions[] = { 0.8, 0.79, 0.8, 0.79, 0.8, 0.8 };
	static const double zeros[] = { 0, 0, 0 }, six[] = { 6, 6, 7 };
	struct lkp_side base = { fractions, 6, 6, true, base_has, NULL, false };
	struct lkp_side other = { zeros, 3, 3, true, NULL, NULL, false };
	const char *name = "perf-profile.self.cycles-pp.memcpy";

	CHECK(lkp_decide(name, false, &base, &other) == LKP_CHANGED);
	other.integers = true;
	CHECK(lkp_decide(name, false, &base, &other) == LKP_SAME);
	other.samples = six;
	CHECK(lkp_decide(name, false, &base, &other) == LKP_CHANGED);
	/* the base's being integers does not matter */
	other.samples = zeros;
	other.integers = false;
	base.integers = true;
	CHECK(lkp_decide(name, false, &base, &other) == LKP_CHANGED);
}

static void test_failure_names(void)
{
	CHECK(lkp_failure_stat("dmesg.BUG:KASAN:x"));
	CHECK(lkp_failure_stat("kmsg.sanitizer.leak"));
	CHECK(lkp_failure_stat("last_state.booting"));
	CHECK(lkp_failure_stat("stderr.has_stderr"));
	CHECK(lkp_failure_stat("ltp.syscalls.fail"));
	CHECK(lkp_failure_stat("kernel-selftests.x.pass"));
	CHECK(lkp_failure_stat("xfstests.generic.001.fail"));
	CHECK(lkp_failure_stat("trinity.x.killed_by_signal"));
	/* a timestamp or a time is no failure */
	CHECK(!lkp_failure_stat("dmesg.timestamp:last"));
	CHECK(!lkp_failure_stat("ltp.x.time.fail"));
	CHECK(!lkp_failure_stat("aim9.creat-clo.ops_per_sec"));
	CHECK(!lkp_failure_stat("proc-vmstat.pgfree"));
	CHECK(!lkp_failure_stat("fio.errors_total"));
	CHECK(lkp_failure_stat("fio.x.errors"));
}

int main(void)
{
	test_pairs();
	test_runs_and_absence();
	test_integer_perf_profile();
	test_failure_names();
	return check_done();
}
