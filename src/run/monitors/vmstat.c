// SPDX-License-Identifier: GPL-2.0
/*
 * vmstat: what vmstat(8) reports, from /proc/stat as vmstat itself reads it.
 *
 *   vmstat.procs.r, .procs.b    procs_running, procs_blocked: gauges
 *   vmstat.system.in, .cs       intr (the total) and ctxt: mean rates per
 *                               second
 *   vmstat.cpu.us, .sy, .id,    percentages of the cpu line's jiffies over
 *   .wa, .st                    the whole run: us = user + nice, sy = system
 *                               + irq + softirq, id = idle, wa = iowait,
 *                               st = steal (guest time is within user)
 */
#include "kdelta/counters.h"
#include "sampled.h"

/* user nice system idle iowait irq softirq steal */
#define CPU_FIELDS 8

struct cpu_times {
	double v[CPU_FIELDS];
	bool seen;
};

static const struct {
	const char *metric;
	unsigned fields;	/* bit i: cpu field i */
} cpu_metrics[] = {
	{ "vmstat.cpu.us", 1u << 0 | 1u << 1 },
	{ "vmstat.cpu.sy", 1u << 2 | 1u << 5 | 1u << 6 },
	{ "vmstat.cpu.id", 1u << 3 },
	{ "vmstat.cpu.wa", 1u << 4 },
	{ "vmstat.cpu.st", 1u << 7 },
};

static const struct {
	const char *key;
	const char *metric;
} stat_keys[] = {
	{ "procs_running", "vmstat.procs.r" },
	{ "procs_blocked", "vmstat.procs.b" },
	{ "intr", "vmstat.system.in" },
	{ "ctxt", "vmstat.system.cs" },
};

static int parse_cpu(const struct raw_sample *sample, const char *line,
		     size_t len, struct cpu_times *cpu, struct kd_err *err)
{
	const char *words[CPU_FIELDS + 4];
	size_t lens[CPU_FIELDS + 4];
	size_t n = split_words(line, len, words, lens, CPU_FIELDS + 3);

	/* Old kernels have no steal (or even iowait): zero. */
	memset(cpu->v, 0, sizeof(cpu->v));
	if (n < 5 || n > CPU_FIELDS + 3)
		return bad_line(err, sample, line, len,
				"expected 'cpu user nice system idle ...'");
	for (size_t i = 1; i < n && i <= CPU_FIELDS; i++)
		if (!sampled_parse_number(words[i], lens[i], &cpu->v[i - 1]))
			return bad_line(err, sample, line, len,
					"expected a number");
	cpu->seen = true;
	return 0;
}

static int parse_sample(const struct raw_sample *sample,
			struct series_set *set, struct cpu_times *cpu,
			struct kd_err *err)
{
	struct sample_lines l = SAMPLE_LINES(sample);
	const char *words[2];
	size_t lens[2];

	while (sample_next_line(&l)) {
		double value;

		if (l.len > 4 && !memcmp(l.line, "cpu ", 4)) {
			if (parse_cpu(sample, l.line, l.len, cpu, err) < 0)
				return -1;
			continue;
		}
		if (split_words(l.line, l.len, words, lens, 1) < 1)
			continue;
		for (size_t i = 0; i < sizeof(stat_keys) / sizeof(stat_keys[0]); i++) {
			if (lens[0] != strlen(stat_keys[i].key) ||
			    memcmp(words[0], stat_keys[i].key, lens[0]))
				continue;
			/* intr's first number is the total; the rest per irq */
			if (split_words(l.line, l.len, words, lens, 2) < 2 ||
			    !sampled_parse_number(words[1], lens[1], &value))
				return bad_line(err, sample, l.line, l.len,
						"expected a number");
			series_add(set, stat_keys[i].metric, sample->time, value);
		}
	}
	return 0;
}

static void cpu_percentages(const struct cpu_times *first,
			    const struct cpu_times *last, json_t *stats)
{
	double delta[CPU_FIELDS], total = 0;

	for (int i = 0; i < CPU_FIELDS; i++) {
		delta[i] = last->v[i] - first->v[i];
		total += delta[i];
	}
	if (total <= 0)
		return;
	for (size_t m = 0; m < sizeof(cpu_metrics) / sizeof(cpu_metrics[0]); m++) {
		double sum = 0;

		for (int i = 0; i < CPU_FIELDS; i++)
			if (cpu_metrics[m].fields & (1u << i))
				sum += delta[i];
		metric_set(stats, cpu_metrics[m].metric, 100 * sum / total);
	}
}

/*
 * Floors after lkp-tests' etc/perf-metrics-threshold.yaml "NAME: v": the
 * larger maximum must reach v and the means must differ by v / 2.  vmstat.io
 * is vmstat(8)'s, found in lkp-tests trees.
 */
static const struct metric_spec vmstat_metrics[] = {
	/* percentages, but their change is relative, as in lkp-tests */
	{ "cpu.*",
	  .floor = METRIC_FLOOR(5, 10, 5, 0, "vmstat.cpu.*: 5%, above 10, 5 apart") },
	{ "cpu.sy", .floor = METRIC_FLOOR(5, 50, 25, 0,
					  "vmstat.cpu.sy: 5%, above 50, 25 apart") },
	{ "io.bi", .floor = METRIC_FLOOR(5, 100, 50, 0,
					 "vmstat.io.bi: 5%, above 100, 50 apart") },
	{ "io.bo", .floor = METRIC_FLOOR(5, 100, 50, 0,
					 "vmstat.io.bo: 5%, above 100, 50 apart") },
	{ "system.*", .kind = METRIC_RATE },
	{ "system.cs", .floor = METRIC_FLOOR(5, 100, 50, 0,
				"vmstat.system.cs: 5%, above 100, 50 apart") },
	{ "system.in", .floor = METRIC_FLOOR(5, 100, 50, 0,
				"vmstat.system.in: 5%, above 100, 50 apart") },
	{ NULL },
};

static int vmstat_extract(const char *raw, size_t len, json_t *stats,
			  struct kd_err *err)
{
	struct series_set set = SERIES_SET_INIT;
	struct cpu_times first = { { 0 }, false }, cpu = first;
	struct raw_sample sample;
	size_t pos = 0;
	int rc;

	while ((rc = raw_next_sample(raw, len, &pos, &sample, err)) > 0) {
		cpu.seen = false;
		if (parse_sample(&sample, &set, &cpu, err) < 0) {
			rc = -1;
			break;
		}
		if (cpu.seen && !first.seen)
			first = cpu;
	}
	if (!rc) {
		series_aggregate(&set, vmstat_metrics, stats);
		if (first.seen)
			cpu_percentages(&first, &cpu, stats);
	}
	series_release(&set);
	return rc;
}

const struct monitor monitor_vmstat = {
	.section = {
		.name = "vmstat",
		.summary = "processes, interrupts, context switches and CPU time of /proc/stat",
		.params = sampled_interval_params,
	},
	.metrics = vmstat_metrics,
	.path = "/proc/stat",
	.extract = vmstat_extract,
};
