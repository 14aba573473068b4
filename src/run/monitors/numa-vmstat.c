// SPDX-License-Identifier: GPL-2.0
/*
 * numa-vmstat: each NUMA node's virtual memory counters,
 * /sys/devices/system/node/node<N>/vmstat, "name value" per line:
 * "numa-vmstat.node<N>.<name>" as LKP names them
 * (numa-vmstat.node1.nr_slab_reclaimable).  Event counters (last - first)
 * and gauges (mean) as in /proc/vmstat.  Each sample holds every node's
 * file, each after a line "node: <N>" (LKP's raw form).  On by default on
 * machines with more than one node only: with one, it would repeat
 * proc-vmstat.
 */
#include "kdelta/counters.h"
#include "sampled.h"

static int parse_sample(const struct raw_sample *sample, struct strbuf *name,
			struct series_set *set, struct kd_err *err)
{
	struct sample_lines l = SAMPLE_LINES(sample);
	const char *words[2];
	size_t base = name->len, lens[2];
	bool node = false;

	while (sample_next_line(&l)) {
		if (split_words(l.line, l.len, words, lens, 2) == 2 &&
		    lens[0] == 5 && !memcmp(words[0], "node:", 5)) {
			/* "nodeN." until the next node's line */
			strbuf_setlen(name, base);
			strbuf_addstr(name, "node");
			strbuf_add(name, words[1], lens[1]);
			strbuf_addch(name, '.');
			node = true;
		} else if (!node) {
			return bad_line(err, sample, l.line, l.len,
					"expected 'node: <N>' first");
		} else if (sample_name_value(sample, l.line, l.len, name, set,
					     err) < 0) {
			return -1;
		}
	}
	strbuf_setlen(name, base);
	return 0;
}

static int numa_vmstat_sources(const struct monitor_context *ctx,
			       struct monitor_sources *out, struct kd_err *err)
{
	(void)ctx;
	return numa_node_sources("vmstat", out, err);
}

/*
 * A node's vmstat holds node and zone counters (mostly gauges, nr_*), the
 * NUMA events (numa_*), the workingset events and a few cumulative nr_*.
 * The nr_* floor is lkp-tests' etc/perf-metrics-threshold.yaml
 * ".*vmstat.*nr_.*: 100".
 */
static const struct metric_spec numa_vmstat_metrics[] = {
	{ "node*.nr_*", .floor = METRIC_FLOOR(5, 100, 50, 0,
			"numa-vmstat.node*.nr_*: 5%, above 100, 50 apart") },
	{ "node*.nr_dirtied", .kind = METRIC_COUNTER },
	{ "node*.nr_foll_pin_acquired", .kind = METRIC_COUNTER },
	{ "node*.nr_foll_pin_released", .kind = METRIC_COUNTER },
	{ "node*.nr_throttled_written", .kind = METRIC_COUNTER },
	{ "node*.nr_vmscan_immediate_reclaim", .kind = METRIC_COUNTER },
	{ "node*.nr_vmscan_write", .kind = METRIC_COUNTER },
	{ "node*.nr_written", .kind = METRIC_COUNTER },
	{ "node*.numa_*", .kind = METRIC_COUNTER },
	{ "node*.pg*", .kind = METRIC_COUNTER },
	{ "node*.workingset_*", .kind = METRIC_COUNTER },
	{ "node*.workingset_nodes", .kind = METRIC_GAUGE },
	{ NULL },
};

const struct monitor monitor_numa_vmstat = {
	.section = {
		.name = "numa-vmstat",
		.summary = "virtual memory counters per NUMA node; on by default with more than one node",
		.params = sampled_interval_params,
	},
	.metrics = numa_vmstat_metrics,
	.by_default = numa_machine,
	.sources = numa_vmstat_sources,
	.parse_sample = parse_sample,
};
