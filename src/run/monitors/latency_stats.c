// SPDX-License-Identifier: GPL-2.0
/*
 * latency_stats: the kernel's LatencyTOP records (CONFIG_LATENCYTOP), which
 * accumulate from begin() -- enable, clear -- to the one sample taken at
 * stop.  /proc/latency_stats reads (kernel/latencytop.c, lstats_show):
 *
 *   Latency Top version : v0.1
 *   <hits> <sum usecs> <max usecs> <frame> <frame> ...
 *
 * The metrics are LKP's (stats/latency_stats in lkp-tests): per stack, its
 * frames joined by '.' with the compiler's .isra.N, .constprop.N and .part.N
 * suffixes removed, latency_stats.hits.<stack>, .sum.<stack>, .avg.<stack>
 * (sum / hits, in whole microseconds) and .max.<stack>; records that become
 * the same stack add up.  Then the largest value of each kind over all
 * stacks: latency_stats.hits.max, .sum.max, .avg.max, .max.max.  Unlike LKP,
 * a stack whose first frame starts with '_' is kept, and " [module]" words
 * are dropped so that a stack is named alike whether its code is built in or
 * a module.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "kdelta/counters.h"
#include "kdelta/name-index.h"
#include "kdelta/util.h"
#include "sampled.h"

#define LATENCYTOP_SYSCTL "/proc/sys/kernel/latencytop"
#define LATENCY_STATS "/proc/latency_stats"

struct stack {
	char *name;
	double hits, sum, max;
};

/* Thousands of stacks: found by name through an index, not a search. */
struct stacks {
	struct stack *items;
	char **names;		/* names[i] is items[i].name */
	size_t n, alloc, names_alloc;
	struct name_index ix;
};

static int write_proc(const char *path, const char *text, struct kd_err *err)
{
	char *full = monitor_proc_path(path);
	int fd = open(full, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t len = strlen(text);
	int rc = 0;

	if (fd < 0 || write(fd, text, len) != (ssize_t)len)
		rc = kd_error(err, "cannot write %s: %s", full, strerror(errno));
	if (fd >= 0 && close(fd) < 0 && !rc)
		rc = kd_error(err, "cannot write %s: %s", full, strerror(errno));
	free(full);
	return rc;
}

/* LatencyTOP on, its records cleared; failing that, not available. */
static int latency_stats_start(struct monitor_context *ctx, struct kd_err *err)
{
	(void)ctx;
	/* Any write to latency_stats clears the records. */
	if (write_proc(LATENCYTOP_SYSCTL, "1\n", err) < 0 ||
	    write_proc(LATENCY_STATS, "0\n", err) < 0)
		return MONITOR_UNAVAILABLE;
	return 0;
}

static int latency_stats_stop(struct monitor_context *ctx,
			      const struct workload_usage *usage,
			      struct kd_err *err)
{
	(void)ctx;
	(void)usage;
	return write_proc(LATENCYTOP_SYSCTL, "0\n", err);
}

/* Not stopped (the run failed early): LatencyTOP off all the same. */
static void latency_stats_release(struct monitor_context *ctx)
{
	if (!ctx->stopped)
		write_proc(LATENCYTOP_SYSCTL, "0\n", NULL);
}

/* Appends a frame to the stack's name, without the compiler's suffixes. */
static void add_frame(struct strbuf *name, const char *frame, size_t len)
{
	static const char *const suffixes[] = { ".isra.", ".constprop.", ".part." };
	const char *end = frame + len;

	if (len && frame[0] == '[')
		return;		/* " [xfs]": the module */
	if (name->len)
		strbuf_addch(name, '.');
	while (frame < end) {
		size_t skip = 0;

		for (size_t i = 0; i < ARRAY_SIZE(suffixes) && !skip; i++) {
			size_t n = strlen(suffixes[i]);

			if ((size_t)(end - frame) > n && !memcmp(frame, suffixes[i], n) &&
			    frame[n] >= '0' && frame[n] <= '9') {
				skip = n;
				while (frame + skip < end && frame[skip] >= '0' &&
				       frame[skip] <= '9')
					skip++;
			}
		}
		if (skip) {
			frame += skip;
			continue;
		}
		strbuf_addch(name, *frame++);
	}
}

static void stacks_add(struct stacks *stacks, struct strbuf *name,
		       const double v[3])
{
	uint64_t hash;
	size_t i = name_index_find(&stacks->ix, stacks->names, name->buf, &hash);
	struct stack *s;

	if (i == (size_t)-1) {
		i = stacks->n++;
		ALLOC_GROW(stacks->items, stacks->n, stacks->alloc);
		ALLOC_GROW(stacks->names, stacks->n, stacks->names_alloc);
		stacks->items[i] = (struct stack){ .name = xstrdup(name->buf) };
		stacks->names[i] = stacks->items[i].name;
		name_index_add(&stacks->ix, stacks->names, i, hash);
	}
	s = &stacks->items[i];
	s->hits += v[0];
	s->sum += v[1];
	if (v[2] > s->max)
		s->max = v[2];
}

/* "<hits> <sum> <max> <frame>..."; other lines (the header) are skipped. */
static void parse_record(const char *line, size_t len, struct stacks *stacks,
			 struct strbuf *name)
{
	const char *words[64];
	size_t lens[64], n = split_words(line, len, words, lens, 63);
	double v[3];

	if (n < 4 || n > 63)
		return;
	for (int i = 0; i < 3; i++)
		if (!sampled_parse_number(words[i], lens[i], &v[i]))
			return;
	strbuf_reset(name);
	for (size_t i = 3; i < n; i++)
		add_frame(name, words[i], lens[i]);
	if (name->len)
		stacks_add(stacks, name, v);
}

static void emit(json_t *stats, const char *kind, const char *stack,
		 double value, double *top)
{
	char *metric = xasprintf("latency_stats.%s.%s", kind, stack);

	metric_set(stats, metric, value);
	free(metric);
	if (value > *top)
		*top = value;
}

static void emit_stacks(const struct stacks *stacks, json_t *stats)
{
	static const char *const kinds[] = { "hits", "sum", "avg", "max" };
	double top[4] = { 0, 0, 0, 0 };

	if (!stacks->n)
		return;
	for (size_t i = 0; i < stacks->n; i++) {
		const struct stack *s = &stacks->items[i];

		emit(stats, "hits", s->name, s->hits, &top[0]);
		emit(stats, "sum", s->name, s->sum, &top[1]);
		emit(stats, "avg", s->name, s->hits ? floor(s->sum / s->hits) : 0,
		     &top[2]);
		emit(stats, "max", s->name, s->max, &top[3]);
	}
	for (int k = 0; k < 4; k++) {
		char *metric = xasprintf("latency_stats.%s.max", kinds[k]);

		metric_set(stats, metric, top[k]);
		free(metric);
	}
}

static int latency_stats_extract(const char *raw, size_t len, json_t *stats,
				 struct kd_err *err)
{
	struct raw_sample sample, last = { 0, NULL, 0 };
	struct stacks stacks = { 0 };
	struct strbuf name = STRBUF_INIT;
	const char *pos, *end, *line;
	size_t at = 0, line_len;
	int rc;

	/* The records accumulate: the last sample holds the run's. */
	while ((rc = raw_next_sample(raw, len, &at, &sample, err)) > 0)
		last = sample;
	if (rc < 0)
		return -1;
	if (!last.text)		/* no sample at all */
		return 0;
	name_index_init(&stacks.ix);
	pos = last.text;
	end = last.text + last.len;
	while (next_line(&pos, end, &line, &line_len))
		parse_record(line, line_len, &stacks, &name);
	emit_stacks(&stacks, stats);
	for (size_t i = 0; i < stacks.n; i++)
		free(stacks.items[i].name);
	free(stacks.items);
	free(stacks.names);
	name_index_release(&stacks.ix);
	strbuf_release(&name);
	return 0;
}

static const struct param_spec latency_stats_params[] = {
	{ .name = NULL },
};

/*
 * Older lkp-tests (etc/latency) judged latency_stats by their maxima
 * alone: reported only when one maximum is 3 times the other.
 */
static const struct metric_spec latency_stats_metrics[] = {
	{ "*", .floor = METRIC_FLOOR(5, 0, 0, 3,
		"latency_stats.*: 5%, one maximum 3 times the other") },
	{ NULL },
};

const struct monitor monitor_latency_stats = {
	.section = {
		.name = "latency_stats",
		.summary = "where tasks slept in the kernel, per stack (LatencyTOP); sampled once, at stop",
		.params = latency_stats_params,
	},
	.metrics = latency_stats_metrics,
	.path = LATENCY_STATS,
	.start = latency_stats_start,
	.stop = latency_stats_stop,
	.release = latency_stats_release,
	.extract = latency_stats_extract,
	.missing_hint = "kernel without CONFIG_LATENCYTOP",
	.final_sample_only = true,
};
