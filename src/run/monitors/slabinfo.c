// SPDX-License-Identifier: GPL-2.0
/*
 * slabinfo: /proc/slabinfo, version 2.1 (readable by root only).  Per cache,
 * the gauges slabinfo.<cache>.active_objs, .num_objs, .active_slabs and
 * .num_slabs, as LKP names them.  A cache line reads
 *
 *   name <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab>
 *     : tunables <limit> <batchcount> <sharedfactor>
 *     : slabdata <active_slabs> <num_slabs> <sharedavail>
 */
#include "kdelta/counters.h"
#include "sampled.h"

#define SLABINFO_WORDS 16

static const struct {
	const char *name;
	int word;
} slab_fields[] = {
	{ "active_objs", 1 },
	{ "num_objs", 2 },
	{ "active_slabs", 13 },
	{ "num_slabs", 14 },
};

static int check_version(const struct raw_sample *sample, const char *line,
			 size_t len, struct strbuf *name,
			 struct series_set *set, struct kd_err *err)
{
	static const char head[] = "slabinfo - version: ";

	(void)name, (void)set;
	if (len < sizeof(head) - 1 || memcmp(line, head, sizeof(head) - 1))
		return bad_line(err, sample, line, len,
				"expected 'slabinfo - version: 2.1'");
	line += sizeof(head) - 1;
	len -= sizeof(head) - 1;
	if (len != 3 || memcmp(line, "2.1", 3))
		return kd_error(err, "slabinfo version %.*s is not supported: kdelta reads version 2.1",
				(int)(len > 20 ? 20 : len), line);
	return 0;
}

static int parse_cache(const struct raw_sample *sample, const char *line,
		       size_t len, struct strbuf *name, struct series_set *set,
		       struct kd_err *err)
{
	const char *words[SLABINFO_WORDS];
	size_t lens[SLABINFO_WORDS], base = name->len;

	if (len && line[0] == '#')
		return 0;	/* the column names */
	if (split_words(line, len, words, lens, SLABINFO_WORDS) != SLABINFO_WORDS ||
	    lens[6] != 1 || words[6][0] != ':' || lens[11] != 1 ||
	    words[11][0] != ':')
		return bad_line(err, sample, line, len,
				"expected a version 2.1 cache line");
	for (size_t i = 0; i < sizeof(slab_fields) / sizeof(slab_fields[0]); i++) {
		int w = slab_fields[i].word;
		double value;

		if (!sampled_parse_number(words[w], lens[w], &value))
			return bad_line(err, sample, line, len,
					"expected a number");
		strbuf_setlen(name, base);
		strbuf_add(name, words[0], lens[0]);
		strbuf_addf(name, ".%s", slab_fields[i].name);
		series_add(set, name->buf, sample->time, value);
	}
	strbuf_setlen(name, base);
	return 0;
}

static int parse_sample(const struct raw_sample *sample, struct strbuf *name,
			struct series_set *set, struct kd_err *err)
{
	return sample_each_line(sample, check_version, parse_cache, name, set,
				err);
}

/* lkp-tests' lib/stats.rb reasonable_perf_change?: a difference above 100. */
static const struct metric_spec slabinfo_metrics[] = {
	{ "*", .floor = METRIC_FLOOR(5, 0, 100, 0, "slabinfo.*: 5%, 100 apart") },
	{ NULL },
};

const struct monitor monitor_slabinfo = {
	.section = {
		.name = "slabinfo",
		.summary = "slab caches of /proc/slabinfo (root only)",
		.params = sampled_interval_params,
	},
	.metrics = slabinfo_metrics,
	.path = "/proc/slabinfo",
	.parse_sample = parse_sample,
};
