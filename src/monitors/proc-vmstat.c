// SPDX-License-Identifier: GPL-2.0
/*
 * proc-vmstat: /proc/vmstat, "name value" per line.  Every field becomes
 * "proc-vmstat.<name>"; whether it is an event counter (last - first) or a
 * gauge (mean) is the table's business (src/counters.c).
 */
#include "kdelta/counters.h"
#include "sampled.h"

static int parse_sample(const struct raw_sample *sample, struct strbuf *name,
			struct series_set *set, struct kd_err *err)
{
	const char *pos = sample->text, *end = sample->text + sample->len;
	const char *line, *words[2];
	size_t base = name->len, len, lens[2];

	while (next_line(&pos, end, &line, &len)) {
		double value;

		if (split_words(line, len, words, lens, 2) != 2 ||
		    !parse_number(words[1], lens[1], &value))
			return bad_line(err, sample, line, len,
					"expected 'name value'");
		strbuf_setlen(name, base);
		strbuf_add(name, words[0], lens[0]);
		series_add(set, name->buf, sample->time, value);
	}
	return 0;
}

static int proc_vmstat_extract(const char *raw, size_t len, json_t *stats,
			       struct kd_err *err)
{
	return extract_series(raw, len, "proc-vmstat.", parse_sample, stats, err);
}

static const struct param_spec proc_vmstat_params[] = {
	MONITOR_INTERVAL_PARAM,
	{ NULL, 0, NULL, NULL, NULL, false },
};

const struct monitor monitor_proc_vmstat = {
	.section = {
		.name = "proc-vmstat",
		.summary = "virtual memory counters of /proc/vmstat",
		.params = proc_vmstat_params,
	},
	.path = "/proc/vmstat",
	.extract = proc_vmstat_extract,
};
