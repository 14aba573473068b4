// SPDX-License-Identifier: GPL-2.0
/*
 * Per-metric knowledge, by name: the declarations of the metric's monitor
 * or workload first, then what lkp-tests says of metrics kdelta does not
 * make itself, then the generic rules (kdelta/metric-rules.h); and the
 * names kdelta wrote before it used lkp-tests' own.
 */
#include <string.h>

#include "kdelta/metric-rules.h"
#include "kdelta/util.h"

/*
 * lkp-tests' knowledge of metrics that appear in its result trees but that
 * no kdelta monitor or workload makes (intel/lkp-tests, 2024-2025), with
 * whole names as patterns.  Metrics kdelta makes are declared beside the
 * monitor that makes them (perf-profile.*, which lkp-tests' lib/compare.rb
 * shows in points, in src/monitors/perf-profile.c), and are not repeated
 * here.
 */
static const struct metric_spec lkp_metrics[] = {
	{ NULL },
};

/*
 * The relative change every monitor metric must show, unless its
 * declaration says otherwise: 5%.  lkp-tests (skip_small_change?) asks 1%
 * of its "performance metrics" (proc-vmstat, vmstat.{cpu,io,swap,system},
 * the workload's time.*) and 5% of the rest, but it has no significance
 * test in front.  Behind one, 1% let bimodal rates through: in
 * tests/stats/test-synthetic.c's A/A comparisons (5 runs, 100 vmstat.system
 * rates jumping between two modes 3% apart) Welch's test flagged one of them
 * in 7 of 100 seeds with 1%, in none with 5%.  Counters explain a change of
 * a workload result; one that moved less than 5% rarely does.
 */
static const struct metric_floor default_floor = {
	5, 0, 0, 0, "monitor counters: 5%",
};

/*
 * Undeclared directions of what is not a kdelta monitor's (exec's results,
 * lkp-tests' workloads): substrings of a name's last component; the first
 * match wins, so that "usecs_per_op" is lower-is-better before "per_sec"
 * could match anything.
 */
static const struct {
	const char *word;
	int direction;
} direction_words[] = {
	{ "usecs", -1 },
	{ "latency", -1 },
	{ "elapsed", -1 },
	{ "ops_per_sec", +1 },
	{ "jobs_per_min", +1 },
	{ "throughput", +1 },
	{ "per_sec", +1 },
	{ "time", -1 },
};

static int direction_by_words(const char *name)
{
	const char *last = strrchr(name, '.');

	last = last ? last + 1 : name;
	for (size_t i = 0; i < ARRAY_SIZE(direction_words); i++)
		if (strstr(last, direction_words[i].word))
			return direction_words[i].direction;
	return 0;
}

/* Whether name matches pattern, where each '*' matches any characters. */
static bool glob_match(const char *pattern, const char *name)
{
	const char *star = NULL, *resume = NULL;

	while (*name) {
		if (*pattern == '*') {
			star = pattern++;
			resume = name;
		} else if (*pattern == *name) {
			pattern++;
			name++;
		} else if (star) {
			pattern = star + 1;
			name = ++resume;
		} else {
			return false;
		}
	}
	while (*pattern == '*')
		pattern++;
	return !*pattern;
}

/*
 * How specific a matching pattern is, or 0 when it does not match: twice
 * its characters other than '*', plus 2 for a whole name and 1 for a
 * pattern, so that a whole name beats a pattern of the same characters.
 */
static size_t pattern_match(const char *pattern, const char *name)
{
	size_t literal = 0;
	bool whole = true;

	/* Most patterns differ at once: cheap before the rest. */
	if (pattern[0] != name[0] && pattern[0] != '*')
		return 0;
	for (const char *p = pattern; *p; p++) {
		if (*p == '*')
			whole = false;
		else
			literal++;
	}
	if (whole)
		return strcmp(pattern, name) ? 0 : 2 * literal + 2;
	return glob_match(pattern, name) ? 2 * literal + 1 : 0;
}

/* The best match so far of each property. */
struct resolution {
	struct metric_info info;
	size_t kind_len, better_len, points_len, floor_len, zero_len;
};

static void resolve(struct resolution *r, const struct metric_spec *specs,
		    const char *name)
{
	for (size_t i = 0; specs && specs[i].pattern; i++) {
		const struct metric_spec *s = &specs[i];
		size_t m = pattern_match(s->pattern, name);

		if (!m)
			continue;
		if (s->kind != METRIC_KIND_UNSAID && m > r->kind_len) {
			r->kind_len = m;
			r->info.kind = s->kind;
		}
		if (s->better && m > r->better_len) {
			r->better_len = m;
			r->info.better = s->better;
		}
		if (s->points && m > r->points_len) {
			r->points_len = m;
			r->info.points = true;
		}
		if (s->floor && m > r->floor_len) {
			r->floor_len = m;
			r->info.floor = s->floor;
		}
		if (s->absent_zero && m > r->zero_len) {
			r->zero_len = m;
			r->info.absent_zero = true;
		}
	}
}

/* Properties the first resolution left unsaid, from the second. */
static void fill_unsaid(struct resolution *r, const struct resolution *from)
{
	if (!r->kind_len && from->kind_len) {
		r->kind_len = from->kind_len;
		r->info.kind = from->info.kind;
	}
	if (!r->better_len && from->better_len) {
		r->better_len = from->better_len;
		r->info.better = from->info.better;
	}
	if (!r->points_len && from->points_len) {
		r->points_len = from->points_len;
		r->info.points = true;
	}
	if (!r->floor_len && from->floor_len) {
		r->floor_len = from->floor_len;
		r->info.floor = from->info.floor;
	}
	if (!r->zero_len && from->zero_len) {
		r->zero_len = from->zero_len;
		r->info.absent_zero = true;
	}
}

const struct metric_source *
metric_catalogue_find(const struct metric_catalogue *cat, const char *name,
		      size_t len)
{
	for (size_t i = 0; cat && i < cat->n; i++) {
		const char *n = cat->sources[i].name;

		if (!strncmp(n, name, len) && !n[len])
			return &cat->sources[i];
	}
	return NULL;
}

void metric_describe(const struct metric_catalogue *cat, const char *name,
		     struct metric_info *info)
{
	const char *dot = strchr(name, '.');
	struct resolution r = {
		{ METRIC_GAUGE, 0, false, &default_floor, false }, 0, 0, 0, 0, 0
	};
	struct resolution lkp = r;
	const struct metric_source *source = NULL;
	bool monitor;

	if (dot)
		source = metric_catalogue_find(cat, name, (size_t)(dot - name));
	monitor = source && source->monitor;
	if (source)
		resolve(&r, source->metrics, dot + 1);
	/* kdelta's monitors declare all there is to know of their metrics. */
	if (!monitor) {
		resolve(&lkp, lkp_metrics, name);
		fill_unsaid(&r, &lkp);
	}
	if (!r.better_len && !monitor)
		r.info.better = direction_by_words(name);
	if (!r.points_len) {
		size_t len = strlen(name);

		r.info.points = len && name[len - 1] == '%';
	}
	r.info.absent_zero |= r.info.kind == METRIC_COUNTER;
	*info = r.info;
}

enum metric_kind metric_kind(const struct metric_catalogue *cat,
			     const char *name)
{
	struct metric_info info;

	metric_describe(cat, name, &info);
	return info.kind;
}

enum metric_kind metric_kind_declared(const struct metric_spec *specs,
				      const char *name)
{
	const char *dot = strchr(name, '.');
	struct resolution r = {
		{ METRIC_GAUGE, 0, false, &default_floor, false }, 0, 0, 0, 0, 0
	};

	resolve(&r, specs, dot ? dot + 1 : name);
	return r.info.kind;
}

int metric_direction(const struct metric_catalogue *cat, const char *name)
{
	struct metric_info info;

	metric_describe(cat, name, &info);
	return info.better;
}

bool metric_is_percent(const struct metric_catalogue *cat, const char *name)
{
	struct metric_info info;

	metric_describe(cat, name, &info);
	return info.points;
}

const struct metric_floor *metric_floor(const struct metric_catalogue *cat,
					const char *name)
{
	struct metric_info info;

	metric_describe(cat, name, &info);
	return info.floor;
}

/*
 * lkp-tests' monitors, so that its result trees split into workload results
 * and monitors as kdelta's own do.  Those kdelta has too (proc-vmstat,
 * meminfo, iostat, interrupts, ...) are not listed here: they come from
 * the catalogue.
 */
static const char *const lkp_monitors[] = {
	"boot-time", "buddyinfo", "cpufreq-stats", "cpuidle", "diskstats",
	"dmesg", "energy", "ftrace", "kernel-size",
	"kmsg", "last_state", "lock_stat", "mpstat", "nfsstat",
	"pagetypeinfo", "perf-c2c", "perf-sched",
	"pmeter", "proc-stat", "sched_debug", "stderr",
	"turbostat", "uptime", "zoneinfo",
};

/* Families of lkp-tests monitors, one per NUMA node or per device. */
static const char *const lkp_monitor_prefixes[] = {
	"numa-",
};

bool metric_source_is_monitor(const struct metric_catalogue *cat,
			      const char *source)
{
	const struct metric_source *s =
		metric_catalogue_find(cat, source, strlen(source));

	if (s && s->monitor)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(lkp_monitors); i++)
		if (!strcmp(source, lkp_monitors[i]))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(lkp_monitor_prefixes); i++)
		if (!strncmp(source, lkp_monitor_prefixes[i],
			     strlen(lkp_monitor_prefixes[i])))
			return true;
	return false;
}

bool metric_is_key(const struct metric_catalogue *cat, const char *name)
{
	const char *dot = strchr(name, '.');
	char source[128];
	size_t len = dot ? (size_t)(dot - name) : strlen(name);

	if (len >= sizeof(source))
		return true;
	memcpy(source, name, len);
	source[len] = '\0';
	return !metric_source_is_monitor(cat, source);
}

bool metric_absent_means_zero(const struct metric_catalogue *cat,
			      const char *name)
{
	struct metric_info info;

	metric_describe(cat, name, &info);
	return info.absent_zero;
}

/*
 * Results kdelta 0.1 stored under names of its own, before its aim7 and
 * aim9 workloads reported lkp-tests' names: read under today's name, so
 * that old stores compare with new ones and read like LKP's.  Their
 * disk_*.throughput_MBps, a fixed multiple of jobs_per_min, keeps its name.
 */
static const struct {
	const char *old, *now;
} renamed_metrics[] = {
	{ "creat-clo.ops_per_sec", "aim9.creat-clo.ops_per_sec" },
	{ "disk_rd.jobs_per_min", "aim7.jobs-per-min" },
	{ "disk_rr.jobs_per_min", "aim7.jobs-per-min" },
	{ "disk_rw.jobs_per_min", "aim7.jobs-per-min" },
	{ "disk_wrt.jobs_per_min", "aim7.jobs-per-min" },
};

const char *metric_current_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(renamed_metrics); i++)
		if (!strcmp(name, renamed_metrics[i].old))
			return renamed_metrics[i].now;
	return name;
}
