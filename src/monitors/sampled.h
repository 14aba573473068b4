/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_MONITORS_SAMPLED_H
#define KDELTA_MONITORS_SAMPLED_H

/* What the sampled monitors of src/monitors/ share. */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "kdelta/monitor.h"

/* Every sampled monitor's one parameter. */
#define MONITOR_INTERVAL_PARAM                                                 \
	{ .name = "interval", .type = PARAM_DURATION, .def = "1s",            \
	  .help = "time between two samples, at least 0.01s; one more is taken at stop" }

/*
 * Iterates over the lines of [*pos, end): returns false at the end, else
 * sets line and len (without the newline) and moves *pos past it.
 */
static inline bool next_line(const char **pos, const char *end,
			     const char **line, size_t *len)
{
	const char *nl;

	if (*pos >= end)
		return false;
	nl = memchr(*pos, '\n', (size_t)(end - *pos));
	*line = *pos;
	*len = (size_t)((nl ? nl : end) - *pos);
	*pos = nl ? nl + 1 : end;
	return true;
}

/*
 * Splits a line into at most max blank-separated words: words[i] points
 * into line, lens[i] is its length.  Returns the number of words, or
 * max + 1 when there are more.
 */
size_t split_words(const char *line, size_t len, const char **words,
		   size_t *lens, size_t max);

struct series_set;

/*
 * Parses one sample into points of set.  name holds the metric prefix
 * ("proc-vmstat."); the parser appends each field's name to it.
 */
typedef int sample_parser(const struct raw_sample *sample,
			  struct strbuf *name, struct series_set *set,
			  struct kd_err *err);

/*
 * The usual extract(): every sample through parse, then the per-run value
 * of each series by its kind (kdelta/counters.h).
 */
int extract_series(const char *raw, size_t len, const char *prefix,
		   sample_parser *parse, json_t *stats, struct kd_err *err);

/* Parses a whole word as a number; false if it is not one. */
bool parse_number(const char *word, size_t len, double *out);

/* "sample at <time>: bad line '<line>': <what>" into err; returns -1. */
int bad_line(struct kd_err *err, const struct raw_sample *sample,
	     const char *line, size_t len, const char *what);

#endif
