// SPDX-License-Identifier: GPL-2.0
/*
 * interrupts: /proc/interrupts, per interrupt the count on each CPU,
 * summed over the CPUs and counted over the run (last - first), named as
 * LKP names them: a numbered interrupt by its number and its description's
 * words joined by '.', a named one by its name and its description's words
 * joined by '_', lines of one value by their name alone:
 *
 *    36:   0   703555   PCI-MSIX-0000:00:02.0   1-edge   virtio1-req.0
 *   LOC:   477886   480684   Local timer interrupts
 *   ERR:   0
 *
 * give interrupts.36:PCI-MSIX-0000:00:02.0.1-edge.virtio1-req.0,
 * interrupts.LOC:Local_timer_interrupts and interrupts.ERR.  Sampled at
 * start and stop only, unless the job gives an interval: the file is long
 * on machines with many CPUs, and only its difference counts.
 */
#include "kdelta/counters.h"
#include "sampled.h"

/* The header line "CPU0 CPU1 ...": the number of CPU columns, or 0. */
static size_t count_cpus(const char *line, size_t len)
{
	const char *p = line, *end = line + len, *word;
	size_t n = 0, wlen;

	while (next_word(&p, end, &word, &wlen)) {
		if (wlen < 4 || memcmp(word, "CPU", 3))
			return 0;
		n++;
	}
	return n;
}

static bool is_number_key(const char *word, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++)
		if (word[i] < '0' || word[i] > '9')
			return false;
	return len > 1;
}

/* LKP's names: see above; "a," "b" join as "a,b". */
static void add_description(struct strbuf *name, const char *p,
			    const char *end, char sep)
{
	const char *word;
	size_t wlen;
	bool first = true;

	while (next_word(&p, end, &word, &wlen)) {
		if (!first && name->buf[name->len - 1] != ',')
			strbuf_addch(name, sep);
		strbuf_add(name, word, wlen);
		first = false;
	}
}

static size_t count_words(const char *p, const char *end)
{
	const char *word;
	size_t n = 0, wlen;

	while (next_word(&p, end, &word, &wlen))
		n++;
	return n;
}

static int parse_line(const struct raw_sample *sample, const char *line,
		      size_t len, size_t ncpus, struct strbuf *name,
		      struct series_set *set, struct kd_err *err)
{
	const char *p = line, *end = line + len, *key, *word;
	size_t base = name->len, klen, wlen, nwords;
	/* "ERR: 0": one count whatever the CPUs */
	size_t counts;
	double sum = 0, v;

	/* A name before the colon: ": 5" would be the metric "interrupts.". */
	if (!next_word(&p, end, &key, &klen) || klen < 2 ||
	    key[klen - 1] != ':' || !(nwords = count_words(p, end)))
		return bad_line(err, sample, line, len,
				"expected 'NAME: count...'");
	counts = nwords == 1 ? 1 : ncpus;
	for (size_t i = 0; i < counts; i++) {
		if (!next_word(&p, end, &word, &wlen) ||
		    !sampled_parse_number(word, wlen, &v))
			return bad_line(err, sample, line, len,
					"expected a count per CPU");
		sum += v;
	}
	if (nwords == 1) {
		strbuf_add(name, key, klen - 1);
	} else {
		strbuf_add(name, key, klen);
		add_description(name, p, end,
				is_number_key(key, klen) ? '.' : '_');
	}
	series_add(set, name->buf, sample->time, sum);
	strbuf_setlen(name, base);
	return 0;
}

static int parse_sample(const struct raw_sample *sample, struct strbuf *name,
			struct series_set *set, struct kd_err *err)
{
	struct sample_lines l = SAMPLE_LINES(sample);
	size_t ncpus;

	if (sample_first_line(sample, &l, err) < 0)
		return -1;
	if (!(ncpus = count_cpus(l.line, l.len)))
		return bad_line(err, sample, l.line, l.len,
				"expected the header 'CPU0 CPU1 ...'");
	while (sample_next_line(&l))
		if (parse_line(sample, l.line, l.len, ncpus, name, set, err) < 0)
			return -1;
	return 0;
}

/* lkp-tests' etc/perf-metrics-threshold.yaml: "interrupts.*: 100". */
static const struct metric_spec interrupts_metrics[] = {
	{ "*", .kind = METRIC_COUNTER,
	  .floor = METRIC_FLOOR(5, 100, 50, 0,
				"interrupts.*: 5%, above 100, 50 apart") },
	{ NULL },
};

const struct monitor monitor_interrupts = {
	.section = {
		.name = "interrupts",
		.summary = "interrupts of /proc/interrupts, per kind, summed over the CPUs",
		.params = sampled_at_ends_params,
	},
	.metrics = interrupts_metrics,
	.path = "/proc/interrupts",
	.parse_sample = parse_sample,
};
