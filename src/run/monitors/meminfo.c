// SPDX-License-Identifier: GPL-2.0
/*
 * meminfo: /proc/meminfo, "Name:   value kB" per line.  Every field is a
 * gauge "meminfo.<Name>" in the file's unit (kB, or a count for the
 * HugePages_* fields), as LKP reports them.
 */
#include "kdelta/counters.h"
#include "sampled.h"

static int parse_sample(const struct raw_sample *sample, struct strbuf *name,
			struct series_set *set, struct kd_err *err)
{
	struct sample_lines l = SAMPLE_LINES(sample);
	const char *words[3];
	size_t base = name->len, lens[3], n;

	while (sample_next_line(&l)) {
		double value;

		n = split_words(l.line, l.len, words, lens, 3);
		if (n < 2 || n > 3 || lens[0] < 2 || words[0][lens[0] - 1] != ':' ||
		    !sampled_parse_number(words[1], lens[1], &value))
			return bad_line(err, sample, l.line, l.len,
					"expected 'Name: value [kB]'");
		strbuf_setlen(name, base);
		strbuf_add(name, words[0], lens[0] - 1);
		series_add(set, name->buf, sample->time, value);
	}
	return 0;
}

/* lkp-tests' lib/stats.rb reasonable_perf_change?: a value above 1000. */
static const struct metric_spec meminfo_metrics[] = {
	{ "*", .floor = METRIC_FLOOR(5, 1000, 0, 0, "meminfo.*: 5%, above 1000") },
	{ NULL },
};

const struct monitor monitor_meminfo = {
	.section = {
		.name = "meminfo",
		.summary = "memory usage of /proc/meminfo",
		.params = sampled_interval_params,
	},
	.metrics = meminfo_metrics,
	.path = "/proc/meminfo",
	.parse_sample = parse_sample,
};
