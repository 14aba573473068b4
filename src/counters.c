// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/counters.h"
#include "kdelta/util.h"

/*
 * Which metrics are not gauges.  A pattern is a whole metric name, or a
 * prefix when it ends in '*'; the longest matching pattern decides, so that
 * an exception ("workingset_nodes" is a gauge) can follow its family
 * ("workingset_*" are event counters).
 *
 * /proc/vmstat mixes the kernel's vm_event_item (events: pg*, thp_*, ...),
 * node and zone counters (mostly gauges, nr_*), and a few cumulative node
 * counters that happen to be called nr_* (nr_dirtied, nr_written).
 */
static const struct metric_rule {
	const char *pattern;
	enum metric_kind kind;
} metric_rules[] = {
	{ "proc-vmstat.allocstall*", METRIC_COUNTER },
	{ "proc-vmstat.balloon_*", METRIC_COUNTER },
	{ "proc-vmstat.compact_*", METRIC_COUNTER },
	{ "proc-vmstat.cow_ksm", METRIC_COUNTER },
	{ "proc-vmstat.direct_map_*", METRIC_COUNTER },
	{ "proc-vmstat.drop_pagecache", METRIC_COUNTER },
	{ "proc-vmstat.drop_slab", METRIC_COUNTER },
	{ "proc-vmstat.htlb_buddy_alloc_*", METRIC_COUNTER },
	{ "proc-vmstat.kcompactd_*", METRIC_COUNTER },
	{ "proc-vmstat.ksm_*", METRIC_COUNTER },
	{ "proc-vmstat.kswapd_*", METRIC_COUNTER },
	{ "proc-vmstat.nr_dirtied", METRIC_COUNTER },
	{ "proc-vmstat.nr_foll_pin_acquired", METRIC_COUNTER },
	{ "proc-vmstat.nr_foll_pin_released", METRIC_COUNTER },
	{ "proc-vmstat.nr_throttled_written", METRIC_COUNTER },
	{ "proc-vmstat.nr_tlb_*", METRIC_COUNTER },
	{ "proc-vmstat.nr_vmscan_immediate_reclaim", METRIC_COUNTER },
	{ "proc-vmstat.nr_vmscan_write", METRIC_COUNTER },
	{ "proc-vmstat.nr_written", METRIC_COUNTER },
	{ "proc-vmstat.numa_*", METRIC_COUNTER },
	{ "proc-vmstat.oom_kill", METRIC_COUNTER },
	{ "proc-vmstat.pageoutrun", METRIC_COUNTER },
	{ "proc-vmstat.pg*", METRIC_COUNTER },
	{ "proc-vmstat.pswp*", METRIC_COUNTER },
	{ "proc-vmstat.slabs_scanned", METRIC_COUNTER },
	{ "proc-vmstat.swap_ra*", METRIC_COUNTER },
	{ "proc-vmstat.swpin_zero", METRIC_COUNTER },
	{ "proc-vmstat.swpout_zero", METRIC_COUNTER },
	{ "proc-vmstat.thp_*", METRIC_COUNTER },
	{ "proc-vmstat.unevictable_pgs_*", METRIC_COUNTER },
	{ "proc-vmstat.vma_lock_*", METRIC_COUNTER },
	{ "proc-vmstat.vmacache_*", METRIC_COUNTER },
	{ "proc-vmstat.workingset_*", METRIC_COUNTER },
	{ "proc-vmstat.workingset_nodes", METRIC_GAUGE },
	{ "proc-vmstat.zone_reclaim_*", METRIC_COUNTER },
	{ "proc-vmstat.zswp*", METRIC_COUNTER },
	{ "vmstat.system.*", METRIC_RATE },
};

/* Length of the match of pattern against metric, or 0. */
static size_t rule_match(const char *pattern, const char *metric)
{
	size_t len = strlen(pattern);

	if (len && pattern[len - 1] == '*')
		return strncmp(pattern, metric, len - 1) ? 0 : len - 1;
	/* A whole name beats any prefix of the same length. */
	return strcmp(pattern, metric) ? 0 : len + 1;
}

enum metric_kind metric_kind(const char *metric)
{
	enum metric_kind kind = METRIC_GAUGE;
	size_t best = 0;

	for (size_t i = 0; i < ARRAY_SIZE(metric_rules); i++) {
		size_t m = rule_match(metric_rules[i].pattern, metric);

		if (m > best) {
			best = m;
			kind = metric_rules[i].kind;
		}
	}
	return kind;
}

static size_t *series_slot(const struct series_set *set, const char *metric)
{
	size_t mask = set->nslots - 1;
	size_t i = (size_t)hash64(metric, strlen(metric)) & mask;

	while (set->slots[i] &&
	       strcmp(set->items[set->slots[i] - 1].metric, metric))
		i = (i + 1) & mask;
	return &set->slots[i];
}

/* Keeps the table at most half full; nslots is a power of two. */
static void series_rehash(struct series_set *set)
{
	set->nslots = set->nslots ? set->nslots * 2 : 64;
	free(set->slots);
	set->slots = xcalloc(set->nslots, sizeof(*set->slots));
	for (size_t i = 0; i < set->n; i++)
		*series_slot(set, set->items[i].metric) = i + 1;
}

void series_add(struct series_set *set, const char *metric, double time,
		double value)
{
	size_t *slot;
	struct series *s;

	if (2 * (set->n + 1) > set->nslots)
		series_rehash(set);
	slot = series_slot(set, metric);
	if (!*slot) {
		ALLOC_GROW(set->items, set->n + 1, set->alloc);
		s = &set->items[set->n++];
		memset(s, 0, sizeof(*s));
		s->metric = xstrdup(metric);
		s->first = value;
		s->first_time = time;
		*slot = set->n;
	}
	s = &set->items[*slot - 1];
	s->n++;
	s->sum += value;
	s->last = value;
	s->last_time = time;
}

void series_aggregate(const struct series_set *set, json_t *stats)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct series *s = &set->items[i];
		double seconds = s->last_time - s->first_time;

		switch (metric_kind(s->metric)) {
		case METRIC_GAUGE:
			metric_set(stats, s->metric, s->sum / (double)s->n);
			break;
		case METRIC_COUNTER:
			metric_set(stats, s->metric, s->last - s->first);
			break;
		case METRIC_RATE:
			if (s->n >= 2 && seconds > 0)
				metric_set(stats, s->metric,
					   (s->last - s->first) / seconds);
			break;
		}
	}
}

void series_release(struct series_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		free(set->items[i].metric);
	free(set->items);
	free(set->slots);
	memset(set, 0, sizeof(*set));
}

void metric_set(json_t *stats, const char *metric, double value)
{
	json_t *number;

	if (!isfinite(value))
		return;
	if (value == floor(value) && fabs(value) < 9007199254740992.0)
		number = json_integer((json_int_t)value);
	else
		number = json_real(value);
	json_object_set_new(stats, metric, number);
}
