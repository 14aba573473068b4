// SPDX-License-Identifier: GPL-2.0
/*
 * proc-vmstat: /proc/vmstat, "name value" per line.  Every field becomes
 * "proc-vmstat.<name>", an event counter (last - first) or a gauge (mean)
 * as declared below.
 */
#include "kdelta/counters.h"
#include "sampled.h"

static int parse_sample(const struct raw_sample *sample, struct strbuf *name,
			struct series_set *set, struct kd_err *err)
{
	return sample_each_line(sample, NULL, sample_name_value, name, set, err);
}

/* A floor of the rare events: lkp-tests' etc/perf-metrics-threshold.yaml. */
#define RARE(name) METRIC_FLOOR(5, 100, 50, 0,                                \
	"proc-vmstat." name ": 5%, above 100, 50 apart")

/*
 * /proc/vmstat mixes the kernel's vm_event_item (events: pg*, thp_*, ...),
 * node and zone counters (mostly gauges, nr_*), and a few cumulative node
 * counters that happen to be called nr_* (nr_dirtied, nr_written).
 *
 * Floors after lkp-tests: etc/perf-metrics-threshold.yaml "NAME: v" (the
 * larger maximum must reach v and the means must differ by v / 2) for the
 * rare events and nr_*; lib/stats.rb reasonable_perf_change? (a value above
 * 1000) for the rest.
 */
static const struct metric_spec proc_vmstat_metrics[] = {
	{ "allocstall*", .kind = METRIC_COUNTER, .floor = RARE("allocstall*") },
	{ "balloon_*", .kind = METRIC_COUNTER },
	{ "compact_*", .kind = METRIC_COUNTER },
	{ "compact_fail", .floor = RARE("compact_fail") },
	{ "compact_stall", .floor = RARE("compact_stall") },
	{ "cow_ksm", .kind = METRIC_COUNTER },
	{ "direct_map_*", .kind = METRIC_COUNTER },
	{ "drop_pagecache", .kind = METRIC_COUNTER },
	{ "drop_slab", .kind = METRIC_COUNTER },
	{ "htlb_buddy_alloc_*", .kind = METRIC_COUNTER },
	{ "htlb_buddy_alloc_fail", .floor = RARE("htlb_buddy_alloc_fail") },
	{ "kcompactd_*", .kind = METRIC_COUNTER },
	{ "ksm_*", .kind = METRIC_COUNTER },
	{ "kswapd_*", .kind = METRIC_COUNTER },
	{ "kswapd_high_wmark_hit_quickly",
	  .floor = RARE("kswapd_high_wmark_hit_quickly") },
	{ "kswapd_low_wmark_hit_quickly",
	  .floor = RARE("kswapd_low_wmark_hit_quickly") },
	{ "nr_*", .floor = RARE("nr_*") },
	{ "nr_dirtied", .kind = METRIC_COUNTER },
	{ "nr_foll_pin_acquired", .kind = METRIC_COUNTER },
	{ "nr_foll_pin_released", .kind = METRIC_COUNTER },
	{ "nr_throttled_written", .kind = METRIC_COUNTER },
	{ "nr_tlb_*", .kind = METRIC_COUNTER },
	{ "nr_vmscan_immediate_reclaim", .kind = METRIC_COUNTER },
	{ "nr_vmscan_write", .kind = METRIC_COUNTER },
	{ "nr_written", .kind = METRIC_COUNTER },
	{ "numa_*", .kind = METRIC_COUNTER },
	{ "oom_kill", .kind = METRIC_COUNTER },
	{ "pageoutrun", .kind = METRIC_COUNTER },
	{ "pg*", .kind = METRIC_COUNTER },
	{ "pgmigrate_fail", .floor = RARE("pgmigrate_fail") },
	{ "pswp*", .kind = METRIC_COUNTER },
	{ "slabs_scanned", .kind = METRIC_COUNTER },
	{ "swap_ra*", .kind = METRIC_COUNTER },
	{ "swpin_zero", .kind = METRIC_COUNTER },
	{ "swpout_zero", .kind = METRIC_COUNTER },
	{ "thp_*", .kind = METRIC_COUNTER },
	{ "unevictable_pgs_*", .kind = METRIC_COUNTER },
	{ "vma_lock_*", .kind = METRIC_COUNTER },
	{ "vmacache_*", .kind = METRIC_COUNTER },
	{ "workingset_*", .kind = METRIC_COUNTER },
	{ "workingset_nodes", .kind = METRIC_GAUGE },
	{ "zone_reclaim_*", .kind = METRIC_COUNTER },
	{ "zswp*", .kind = METRIC_COUNTER },
	{ "*", .floor = METRIC_FLOOR(5, 1000, 0, 0,
				     "proc-vmstat.*: 5%, above 1000") },
	{ NULL },
};

const struct monitor monitor_proc_vmstat = {
	.section = {
		.name = "proc-vmstat",
		.summary = "virtual memory counters of /proc/vmstat",
		.params = sampled_interval_params,
	},
	.metrics = proc_vmstat_metrics,
	.path = "/proc/vmstat",
	.parse_sample = parse_sample,
};
