// SPDX-License-Identifier: GPL-2.0
/*
 * Per-metric knowledge, by name, in two tables: the direction of
 * improvement, and the minimum effect a monitor counter must show.
 */
#include <string.h>

#include "kdelta/metric-rules.h"
#include "kdelta/util.h"

/*
 * Substrings of a name's last component; the first match wins, so that
 * "usecs_per_op" is lower-is-better before "per_sec" could match anything.
 */
static const struct {
	const char *word;
	int direction;
} direction_table[] = {
	{ "usecs", -1 },
	{ "latency", -1 },
	{ "elapsed", -1 },
	{ "ops_per_sec", +1 },
	{ "jobs_per_min", +1 },
	{ "throughput", +1 },
	{ "per_sec", +1 },
	{ "time", -1 },
};

int metric_direction(const char *name)
{
	const char *last = strrchr(name, '.');

	last = last ? last + 1 : name;
	for (size_t i = 0; i < ARRAY_SIZE(direction_table); i++)
		if (strstr(last, direction_table[i].word))
			return direction_table[i].direction;
	return 0;
}

/*
 * Metrics that are percentages already, whose change is shown as an
 * absolute difference (as lkp-tests does for names with '%' and for
 * perf-profile): those ending in '%', and these prefixes.
 */
static const char *const percent_prefixes[] = {
	"vmstat.cpu.",			/* us, sy, id, wa, st of /proc/stat */
	"time.percent_of_cpu_this_job_got",
	"perf-profile.",
};

bool metric_is_percent(const char *name)
{
	size_t len = strlen(name);

	if (len && name[len - 1] == '%')
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(percent_prefixes); i++)
		if (!strncmp(name, percent_prefixes[i],
			     strlen(percent_prefixes[i])))
			return true;
	return false;
}

/*
 * Monitor floors, first match wins.  The absolute floors are lkp-tests'
 * (intel/lkp-tests, 2024-2025):
 *  - etc/perf-metrics-threshold.yaml "NAME: v": the larger maximum must
 *    reach v and the means must differ by v / 2 (LKP writes <testcase>.time.*
 *    for what kdelta calls time.*);
 *  - lib/stats.rb reasonable_perf_change?: slabinfo needs a difference above
 *    100, proc-vmstat and meminfo a value above 1000;
 *  - latency_stats, which older lkp-tests (etc/latency) judged by their
 *    maxima alone: reported only when one maximum is 3 times the other.
 * Boundaries are kdelta's ("above"), not always LKP's ("at least").
 *
 * The relative change is kdelta's: 5% for every monitor counter.  lkp-tests
 * (skip_small_change?) asks 1% of its "performance metrics" (proc-vmstat,
 * vmstat.{cpu,io,swap,system}, the workload's time.*) and 5% of the rest,
 * but it has no significance test in front.  Behind one, 1% let bimodal
 * rates through: in tests/stats/test-synthetic.c's A/A comparisons (5 runs,
 * 100 vmstat.system rates jumping between two modes 3% apart) Welch's test
 * flagged one of them in 7 of 100 seeds with 1%, in none with 5%.  Counters
 * explain a change of a workload result; one that moved less than 5% rarely
 * does.
 */
static const struct metric_floor floor_table[] = {
	{ "time.elapsed_time*", 5, 10, 5, 0,
	  "time.elapsed_time*: 5%, above 10 s, 5 s apart" },
	{ "time.user_time", 5, 10, 5, 0,
	  "time.user_time: 5%, above 10 s, 5 s apart" },
	{ "time.system_time", 5, 10, 5, 0,
	  "time.system_time: 5%, above 10 s, 5 s apart" },
	{ "time.major_page_faults", 5, 1000, 500, 0,
	  "time.major_page_faults: 5%, above 1000, 500 apart" },
	{ "time.minor_page_faults", 5, 1000, 500, 0,
	  "time.minor_page_faults: 5%, above 1000, 500 apart" },
	{ "time.voluntary_context_switches", 5, 1000, 500, 0,
	  "time.voluntary_context_switches: 5%, above 1000, 500 apart" },
	{ "time.involuntary_context_switches", 5, 1000, 500, 0,
	  "time.involuntary_context_switches: 5%, above 1000, 500 apart" },
	{ "time.swaps", 5, 1000, 500, 0,
	  "time.swaps: 5%, above 1000, 500 apart" },
	{ "time.file_system_inputs", 5, 10000, 5000, 0,
	  "time.file_system_inputs: 5%, above 10000, 5000 apart" },
	{ "time.file_system_outputs", 5, 10000, 5000, 0,
	  "time.file_system_outputs: 5%, above 10000, 5000 apart" },
	{ "time.socket_messages_*", 5, 10000, 5000, 0,
	  "time.socket_messages_*: 5%, above 10000, 5000 apart" },
	{ "proc-vmstat.allocstall*", 5, 100, 50, 0,
	  "proc-vmstat.allocstall*: 5%, above 100, 50 apart" },
	{ "proc-vmstat.compact_fail", 5, 100, 50, 0,
	  "proc-vmstat.compact_fail: 5%, above 100, 50 apart" },
	{ "proc-vmstat.compact_stall", 5, 100, 50, 0,
	  "proc-vmstat.compact_stall: 5%, above 100, 50 apart" },
	{ "proc-vmstat.pgmigrate_fail", 5, 100, 50, 0,
	  "proc-vmstat.pgmigrate_fail: 5%, above 100, 50 apart" },
	{ "proc-vmstat.htlb_buddy_alloc_fail", 5, 100, 50, 0,
	  "proc-vmstat.htlb_buddy_alloc_fail: 5%, above 100, 50 apart" },
	{ "proc-vmstat.kswapd_low_wmark_hit_quickly", 5, 100, 50, 0,
	  "proc-vmstat.kswapd_low_wmark_hit_quickly: 5%, above 100, 50 apart" },
	{ "proc-vmstat.kswapd_high_wmark_hit_quickly", 5, 100, 50, 0,
	  "proc-vmstat.kswapd_high_wmark_hit_quickly: 5%, above 100, 50 apart" },
	{ "proc-vmstat.nr_*", 5, 100, 50, 0,
	  "proc-vmstat.nr_*: 5%, above 100, 50 apart" },
	{ "proc-vmstat.*", 5, 1000, 0, 0,
	  "proc-vmstat.*: 5%, above 1000" },
	{ "vmstat.io.bi", 5, 100, 50, 0,
	  "vmstat.io.bi: 5%, above 100, 50 apart" },
	{ "vmstat.io.bo", 5, 100, 50, 0,
	  "vmstat.io.bo: 5%, above 100, 50 apart" },
	{ "vmstat.system.in", 5, 100, 50, 0,
	  "vmstat.system.in: 5%, above 100, 50 apart" },
	{ "vmstat.system.cs", 5, 100, 50, 0,
	  "vmstat.system.cs: 5%, above 100, 50 apart" },
	{ "vmstat.cpu.sy", 5, 50, 25, 0,
	  "vmstat.cpu.sy: 5%, above 50, 25 apart" },
	{ "vmstat.cpu.*", 5, 10, 5, 0,
	  "vmstat.cpu.*: 5%, above 10, 5 apart" },
	{ "slabinfo.*", 5, 0, 100, 0,
	  "slabinfo.*: 5%, 100 apart" },
	{ "meminfo.*", 5, 1000, 0, 0,
	  "meminfo.*: 5%, above 1000" },
	{ "latency_stats.*", 5, 0, 0, 3,
	  "latency_stats.*: 5%, one maximum 3 times the other" },
	{ "*", 5, 0, 0, 0,
	  "monitor counters: 5%" },
};

static bool pattern_matches(const char *pattern, const char *name)
{
	size_t len = strlen(pattern);

	if (len && pattern[len - 1] == '*')
		return !strncmp(pattern, name, len - 1);
	return !strcmp(pattern, name);
}

const struct metric_floor *metric_floor(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(floor_table) - 1; i++)
		if (pattern_matches(floor_table[i].pattern, name))
			break;
	return &floor_table[i];
}
