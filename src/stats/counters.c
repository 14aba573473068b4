// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/counters.h"
#include "kdelta/util.h"

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

void series_aggregate(const struct series_set *set,
		      const struct metric_spec *specs, json_t *stats)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct series *s = &set->items[i];
		double seconds = s->last_time - s->first_time;

		switch (metric_kind_declared(specs, s->metric)) {
		case METRIC_KIND_UNSAID:
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
