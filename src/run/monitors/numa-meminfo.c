// SPDX-License-Identifier: GPL-2.0
/*
 * numa-meminfo: each NUMA node's meminfo,
 * /sys/devices/system/node/node<N>/meminfo, "Node N Name:   value kB" per
 * line.  Every field is a gauge "numa-meminfo.node<N>.<Name>" in the file's
 * unit, as LKP names them (numa-meminfo.node1.SReclaimable).  Each sample
 * holds every node's file, each after a line "node: <N>" (LKP's raw form).
 * On by default on machines with more than one node only: with one, it
 * would repeat meminfo.
 */
#include "kdelta/counters.h"
#include "sampled.h"

/* "Node 1 SReclaimable:   12345 kB" -> node1.SReclaimable */
static int parse_line(const struct raw_sample *sample, const char *line,
		      size_t len, struct strbuf *name, struct series_set *set,
		      struct kd_err *err)
{
	const char *words[5];
	size_t lens[5], base = name->len, n;
	double value;

	if (len >= 6 && !memcmp(line, "node: ", 6))
		return 0;	/* the line says which node: so do the others */
	n = split_words(line, len, words, lens, 5);
	if (n < 4 || n > 5 || lens[0] != 4 || memcmp(words[0], "Node", 4) ||
	    lens[2] < 2 || words[2][lens[2] - 1] != ':' ||
	    !sampled_parse_number(words[3], lens[3], &value))
		return bad_line(err, sample, line, len,
				"expected 'Node N Name: value [kB]'");
	strbuf_addstr(name, "node");
	strbuf_add(name, words[1], lens[1]);
	strbuf_addch(name, '.');
	strbuf_add(name, words[2], lens[2] - 1);
	series_add(set, name->buf, sample->time, value);
	strbuf_setlen(name, base);
	return 0;
}

static int parse_sample(const struct raw_sample *sample, struct strbuf *name,
			struct series_set *set, struct kd_err *err)
{
	return sample_each_line(sample, NULL, parse_line, name, set, err);
}

static int numa_meminfo_sources(const struct monitor_context *ctx,
				struct monitor_sources *out, struct kd_err *err)
{
	(void)ctx;
	return numa_node_sources("meminfo", out, err);
}

/* As meminfo: lkp-tests' lib/stats.rb, a value above 1000. */
static const struct metric_spec numa_meminfo_metrics[] = {
	{ "*", .floor = METRIC_FLOOR(5, 1000, 0, 0,
				     "numa-meminfo.*: 5%, above 1000") },
	{ NULL },
};

const struct monitor monitor_numa_meminfo = {
	.section = {
		.name = "numa-meminfo",
		.summary = "memory usage per NUMA node; on by default with more than one node",
		.params = sampled_interval_params,
	},
	.metrics = numa_meminfo_metrics,
	.by_default = numa_machine,
	.sources = numa_meminfo_sources,
	.parse_sample = parse_sample,
};
