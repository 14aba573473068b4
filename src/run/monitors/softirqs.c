// SPDX-License-Identifier: GPL-2.0
/*
 * softirqs: /proc/softirqs, per kind ("TIMER:", "NET_RX:", ...) the count
 * on each CPU, summed over the CPUs and counted over the run (last - first):
 * softirqs.TIMER, softirqs.NET_RX, as LKP names them.  Sampled at start and
 * stop only, unless the job gives an interval.
 */
#include "kdelta/counters.h"
#include "sampled.h"

static int parse_line(const struct raw_sample *sample, const char *line,
		      size_t len, struct strbuf *name, struct series_set *set,
		      struct kd_err *err)
{
	const char *p = line, *end = line + len, *key, *word;
	size_t base = name->len, klen, wlen;
	double sum = 0, v;

	if (!next_word(&p, end, &key, &klen) || klen < 2 ||
	    key[klen - 1] != ':')
		return bad_line(err, sample, line, len,
				"expected 'NAME: count...'");
	while (next_word(&p, end, &word, &wlen)) {
		if (!sampled_parse_number(word, wlen, &v))
			return bad_line(err, sample, line, len,
					"expected a count per CPU");
		sum += v;
	}
	strbuf_add(name, key, klen - 1);
	series_add(set, name->buf, sample->time, sum);
	strbuf_setlen(name, base);
	return 0;
}

static int parse_sample(const struct raw_sample *sample, struct strbuf *name,
			struct series_set *set, struct kd_err *err)
{
	/* The header: "CPU0 CPU1 ..." */
	return sample_each_line(sample, sample_any_header, parse_line, name,
				set, err);
}

/* lkp-tests' lib/stats.rb reasonable_perf_change?: a value above 10000. */
static const struct metric_spec softirqs_metrics[] = {
	{ "*", .kind = METRIC_COUNTER,
	  .floor = METRIC_FLOOR(5, 10000, 0, 0, "softirqs.*: 5%, above 10000") },
	{ NULL },
};

const struct monitor monitor_softirqs = {
	.section = {
		.name = "softirqs",
		.summary = "software interrupts of /proc/softirqs, per kind, summed over the CPUs",
		.params = sampled_at_ends_params,
	},
	.metrics = softirqs_metrics,
	.path = "/proc/softirqs",
	.parse_sample = parse_sample,
};
