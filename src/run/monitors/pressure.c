// SPDX-License-Identifier: GPL-2.0
/*
 * pressure: the kernel's pressure stall information (PSI, the kernel's
 * Documentation/accounting/psi.rst), /proc/pressure/cpu, io and memory, each
 *
 *   some avg10=1.90 avg60=3.07 avg300=3.85 total=66307952
 *   full avg10=0.00 avg60=0.00 avg300=0.00 total=12106284
 *
 * "some": the share of wall time in which at least one task was stalled on
 * the resource, "full": all non-idle tasks at once; avgN are running
 * averages over N seconds (percent), total the microseconds stalled since
 * boot.  Per resource and line, over the run:
 *
 *   pressure.<resource>.<some|full>.stall%   percent of the wall time
 *       between the first and the last sample spent stalled
 *   pressure.<resource>.<some|full>.total    microseconds stalled then
 *   pressure.<resource>.<some|full>.avg10, .avg60, .avg300   the kernel's
 *       averages, mean over the samples
 *
 * Each sample holds the three files, each after a line "resource: <name>".
 */
#include <stdlib.h>

#include "kdelta/counters.h"
#include "kdelta/util.h"
#include "sampled.h"

static const char *const resources[] = { "cpu", "io", "memory" };

static int pressure_sources(const struct monitor_context *ctx,
			    struct monitor_sources *out, struct kd_err *err)
{
	(void)ctx;
	(void)err;
	for (size_t i = 0; i < ARRAY_SIZE(resources); i++) {
		char *path = xasprintf("/proc/pressure/%s", resources[i]);
		char *label = xasprintf("resource: %s", resources[i]);

		monitor_sources_add(out, path, label);
		free(label);
		free(path);
	}
	return 0;
}

/* "some avg10=1.90 avg60=3.07 avg300=3.85 total=66307952" */
static int parse_line(const struct raw_sample *sample, const char *line,
		      size_t len, struct strbuf *name, struct series_set *set,
		      struct kd_err *err)
{
	const char *words[6];
	size_t lens[6], base = name->len;
	size_t n = split_words(line, len, words, lens, 5);

	if (n < 2 || n > 5 || ((lens[0] != 4 || memcmp(words[0], "some", 4)) &&
			       (lens[0] != 4 || memcmp(words[0], "full", 4))))
		return bad_line(err, sample, line, len,
				"expected 'some|full avg10=... total=...'");
	for (size_t i = 1; i < n; i++) {
		const char *eq = memchr(words[i], '=', lens[i]);
		double value;

		if (!eq || eq == words[i] ||
		    !sampled_parse_number(eq + 1, lens[i] - (size_t)(eq + 1 - words[i]),
				  &value))
			return bad_line(err, sample, line, len,
					"expected key=number");
		strbuf_setlen(name, base);
		strbuf_add(name, words[0], lens[0]);
		strbuf_addch(name, '.');
		strbuf_add(name, words[i], (size_t)(eq - words[i]));
		series_add(set, name->buf, sample->time, value);
	}
	strbuf_setlen(name, base);
	return 0;
}

static int parse_sample(const struct raw_sample *sample, struct strbuf *name,
			struct series_set *set, struct kd_err *err)
{
	static const char label[] = "resource: ";
	struct sample_lines l = SAMPLE_LINES(sample);
	size_t base = name->len;
	bool in_resource = false;

	while (sample_next_line(&l)) {
		if (l.len > sizeof(label) - 1 &&
		    !memcmp(l.line, label, sizeof(label) - 1)) {
			strbuf_setlen(name, base);
			strbuf_add(name, l.line + sizeof(label) - 1,
				   l.len - (sizeof(label) - 1));
			strbuf_addch(name, '.');
			in_resource = true;
			continue;
		}
		if (!in_resource)
			return bad_line(err, sample, l.line, l.len,
					"expected 'resource: <name>' first");
		if (parse_line(sample, l.line, l.len, name, set, err) < 0)
			return -1;
	}
	return 0;
}

/* stall%: the increase of each total over the seconds it took. */
static void add_stall_percent(const struct series_set *set, json_t *stats)
{
	static const char total[] = ".total";

	for (size_t i = 0; i < set->n; i++) {
		const struct series *s = &set->items[i];
		size_t len = strlen(s->metric);
		double seconds = s->last_time - s->first_time;
		char *metric;

		if (len < sizeof(total) ||
		    strcmp(s->metric + len - (sizeof(total) - 1), total) ||
		    s->n < 2 || !(seconds > 0))
			continue;
		metric = xasprintf("%.*s.stall%%",
				   (int)(len - (sizeof(total) - 1)), s->metric);
		metric_set(stats, metric,
			   100 * (s->last - s->first) / (seconds * 1e6));
		free(metric);
	}
}

static const struct metric_spec pressure_metrics[] = {
	{ "*.total", .kind = METRIC_COUNTER },
	{ "*.avg*", .points = true },
	{ NULL },
};

static int pressure_extract(const char *raw, size_t len, json_t *stats,
			    struct kd_err *err)
{
	struct series_set set = SERIES_SET_INIT;
	int rc = collect_series(raw, len, "pressure.", parse_sample, &set, err);

	if (!rc) {
		series_aggregate(&set, pressure_metrics, stats);
		add_stall_percent(&set, stats);
	}
	series_release(&set);
	return rc;
}

const struct monitor monitor_pressure = {
	.section = {
		.name = "pressure",
		.summary = "the share of the run's time tasks were stalled on CPU, I/O and memory (pressure stall information)",
		.params = sampled_interval_params,
	},
	.metrics = pressure_metrics,
	.sources = pressure_sources,
	.missing_hint = "kernel without CONFIG_PSI, or booted with psi=0",
	.extract = pressure_extract,
};
