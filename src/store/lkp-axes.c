// SPDX-License-Identifier: GPL-2.0
/*
 * lkp-tests' axes of a result (see kdelta/lkp-axes.h).  Which keys are
 * options of lkp-tests' programs is known to lkp-tests only (each
 * program's script declares them); but it wrote their values into the
 * result's path, in the order of their keys: finding the scalars whose
 * values spell <path_params> in that order finds them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/lkp-axes.h"
#include "kdelta/util.h"

/* lkp-tests' fixed axes, shown when the job has them. */
static const char *const fixed_axes[] = {
	"tbox_group", "testcase", "rootfs", "kconfig", "compiler",
};

/* lkp-tests keeps the first 31 bytes of a value in its path... */
#define TOKEN_MAX 31

/* ...and makes any byte but these '_'. */
static char path_char(char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || strchr("-+=:.%", c))
		return c;
	return '_';
}

char *lkp_path_params(const char *result_path, const char *testcase)
{
	size_t tlen = strlen(testcase);

	for (const char *s = result_path; s && *s; ) {
		const char *end = strchrnul(s, '/');

		if ((size_t)(end - s) == tlen && !strncmp(s, testcase, tlen) &&
		    *end == '/' && end[1] && end[1] != '/') {
			const char *next = end + 1;

			return xstrndup(next, (size_t)(strchrnul(next, '/') - next));
		}
		s = *end ? end + 1 : NULL;
	}
	return NULL;
}

/* Whether value's path form is path[at..], ending at *end. */
static bool token_at(const char *path, size_t len, size_t at,
		     const char *value, size_t *end)
{
	size_t n = strnlen(value, TOKEN_MAX);

	if (!n || at + n > len)
		return false;
	for (size_t i = 0; i < n; i++)
		if (path[at + i] != path_char(value[i]))
			return false;
	*end = at + n;
	return true;
}

/* Where a key that takes path[at..end) leaves the path: the next start. */
static size_t after(size_t end, size_t len)
{
	return end == len ? len : end + 1;
}

static int compare_scalar_keys(const void *a, const void *b, void *scalars)
{
	const struct lkp_scalar *s = scalars;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(s[x].key, s[y].key);

	return c ? c : (x > y) - (x < y);
}

/* A spelling that none is: more than any other costs. */
#define NO_SPELLING UINT32_MAX

/*
 * Keys that lkp-tests' host files and scheduler put in a job, which no
 * program takes as an option: the test box's facts.
 */
static const char *const box_facts[] = {
	"arch", "memory", "model", "nr_cpu", "nr_node", "nr_socket",
	"ssh_base_port",
};

/*
 * What taking a scalar costs a spelling: lkp-tests names a result by its
 * programs' options, at the top level or in a section, never by a
 * monitor's (perf-sched: {lite_mode: 1}) or by a fact of the test box
 * (nr_cpu: 2).  Which keys are options the job does not say, and kdelta
 * knows lkp-tests' monitors and those facts by name only: a spelling
 * takes those last, and otherwise keys in their order.
 */
static uint32_t take_cost(const struct lkp_scalar *s)
{
	if (s->in_monitor)
		return 1;
	for (size_t i = 0; s->top && i < ARRAY_SIZE(box_facts); i++)
		if (!strcmp(s->key, box_facts[i]))
			return 1;
	return 0;
}

/*
 * cost[i * (len + 1) + at]: the least cost (take_cost()) of a spelling of
 * path[at..] by the scalars from the i-th in key order on, NO_SPELLING
 * when there is none.  A key's token must end the path or meet a '-'.
 */
static uint32_t *spell_table(const struct lkp_scalar *s, const size_t *order,
			     size_t n, const char *path, size_t len)
{
	size_t w = len + 1;
	uint32_t *cost = xmalloc((n + 1) * w * sizeof(*cost));

	for (size_t at = 0; at <= len; at++)
		cost[n * w + at] = at == len ? 0 : NO_SPELLING;
	for (size_t i = n; i-- > 0; ) {
		for (size_t at = 0; at <= len; at++) {
			size_t end;
			uint32_t rest;

			cost[i * w + at] = cost[(i + 1) * w + at];
			if (!token_at(path, len, at, s[order[i]].value, &end) ||
			    (end != len && path[end] != '-'))
				continue;
			rest = cost[(i + 1) * w + after(end, len)];
			if (rest != NO_SPELLING &&
			    rest + take_cost(&s[order[i]]) < cost[i * w + at])
				cost[i * w + at] = rest + take_cost(&s[order[i]]);
		}
	}
	return cost;
}

bool lkp_mark_axes(struct lkp_scalar *s, size_t n, const char *path_params)
{
	size_t len = strlen(path_params), w = len + 1, at = 0;
	size_t *order = xcalloc(n + 1, sizeof(*order));
	uint32_t *cost;

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), compare_scalar_keys, s);
	/* lkp-tests names a path without parameters "defaults". */
	if (!strcmp(path_params, "defaults"))
		len = 0, w = 1;
	cost = spell_table(s, order, n, path_params, len);
	if (cost[0] == NO_SPELLING) {
		free(cost);
		free(order);
		return false;
	}
	/*
	 * A spelling of the least cost, in key order taking a key whenever
	 * it still can at that cost.
	 */
	for (size_t i = 0; i < n; i++) {
		size_t end;
		uint32_t rest;

		if (at == len || !token_at(path_params, len, at,
					   s[order[i]].value, &end) ||
		    (end != len && path_params[end] != '-'))
			continue;
		rest = cost[(i + 1) * w + after(end, len)];
		if (rest != NO_SPELLING &&
		    rest + take_cost(&s[order[i]]) == cost[i * w + at]) {
			s[order[i]].keep = true;
			at = after(end, len);
		}
	}
	for (size_t i = 0; i < n; i++)
		for (size_t a = 0; a < ARRAY_SIZE(fixed_axes); a++)
			if (s[i].top && !strcmp(s[i].key, fixed_axes[a]))
				s[i].keep = true;
	free(cost);
	free(order);
	return true;
}

const char *lkp_axis_value(const char *key, const char *value)
{
	const char *name = value;

	if (strcmp(key, "rootfs"))
		return value;
	/* Its file name: what follows the last byte not in [a-zA-Z0-9._-]. */
	for (const char *p = value; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("._-", *p)) && p[1])
			name = p + 1;
	return name;
}
