// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>

#include "kdelta/counters.h"
#include "sampled.h"

int extract_series(const char *raw, size_t len, const char *prefix,
		   sample_parser *parse, json_t *stats, struct kd_err *err)
{
	struct series_set set = SERIES_SET_INIT;
	struct strbuf name = STRBUF_INIT;
	struct raw_sample sample;
	size_t pos = 0;
	int rc;

	while ((rc = raw_next_sample(raw, len, &pos, &sample, err)) > 0) {
		strbuf_reset(&name);
		strbuf_addstr(&name, prefix);
		if (parse(&sample, &name, &set, err) < 0) {
			rc = -1;
			break;
		}
	}
	if (!rc)
		series_aggregate(&set, stats);
	series_release(&set);
	strbuf_release(&name);
	return rc;
}

size_t split_words(const char *line, size_t len, const char **words,
		   size_t *lens, size_t max)
{
	const char *p = line, *end = line + len;
	size_t n = 0;

	for (;;) {
		const char *start;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end)
			return n;
		if (n == max)
			return max + 1;
		start = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		words[n] = start;
		lens[n++] = (size_t)(p - start);
	}
}

bool parse_number(const char *word, size_t len, double *out)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, word, len);
	buf[len] = '\0';
	*out = strtod(buf, &end);
	return end == buf + len;
}

int bad_line(struct kd_err *err, const struct raw_sample *sample,
	     const char *line, size_t len, const char *what)
{
	return kd_error(err, "sample at %.6f: bad line '%.*s': %s",
			sample->time, (int)(len > 80 ? 80 : len), line, what);
}
