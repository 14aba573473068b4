// SPDX-License-Identifier: GPL-2.0
/* The key results a job declares, and their directions (key-result.h). */
#include <stdlib.h>
#include <string.h>

#include "kdelta/job.h"
#include "kdelta/key-result.h"
#include "kdelta/util.h"

const char *key_result_direction_name(int better)
{
	return better > 0 ? "higher" : better < 0 ? "lower" : "";
}

static bool metric_name_ok(const char *name)
{
	const char *dot = strchr(name, '.');

	if (!dot || dot == name || !dot[1])
		return false;
	for (const char *s = name; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f || *s == ':')
			return false;
	return true;
}

int key_results_add(struct key_results *k, const char *metric,
		    const char *direction, struct kd_err *err)
{
	int better;

	if (!metric_name_ok(metric))
		return kd_error(err, "'%s' is no result's name (<prefix>.<key>, like exec.ops_per_sec)",
				metric);
	if (!direction || !*direction)
		better = 0;
	else if (!strcmp(direction, "higher"))
		better = 1;
	else if (!strcmp(direction, "lower"))
		better = -1;
	else
		return kd_error(err, "%s: '%s': expected higher or lower (which is better), or nothing",
				metric, direction);
	if (key_results_find(k, metric))
		return kd_error(err, "%s: declared twice", metric);
	k->at = xrealloc(k->at, (k->n + 1) * sizeof(*k->at));
	k->at[k->n].metric = xstrdup(metric);
	k->at[k->n++].better = better;
	return 0;
}

int key_results_parse(const struct jnode *map, struct key_results *out,
		      struct kd_err *err)
{
	memset(out, 0, sizeof(*out));
	if (!map)
		return 0;
	if (map->kind != JNODE_MAP || !map->n)
		return kd_error(err, "expected a mapping of results to the direction that is better, like {exec.ops_per_sec: higher}");
	for (size_t i = 0; i < map->n; i++) {
		const struct jnode *v = map->values[i];

		if (v->kind != JNODE_SCALAR) {
			key_results_release(out);
			return kd_error(err, "%s: expected higher or lower (which is better), or nothing",
					map->keys[i]);
		}
		if (key_results_add(out, map->keys[i], v->scalar, err) < 0) {
			key_results_release(out);
			return -1;
		}
	}
	return 0;
}

const struct key_result *key_results_find(const struct key_results *k,
					  const char *metric)
{
	for (size_t i = 0; k && i < k->n; i++)
		if (!strcmp(k->at[i].metric, metric))
			return &k->at[i];
	return NULL;
}

void key_results_copy(struct key_results *to, const struct key_results *from)
{
	memset(to, 0, sizeof(*to));
	to->at = xcalloc(from->n ? from->n : 1, sizeof(*to->at));
	for (size_t i = 0; i < from->n; i++) {
		to->at[i].metric = xstrdup(from->at[i].metric);
		to->at[i].better = from->at[i].better;
	}
	to->n = from->n;
}

void key_results_release(struct key_results *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->at[i].metric);
	free(k->at);
	memset(k, 0, sizeof(*k));
}
