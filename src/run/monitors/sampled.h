/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_MONITORS_SAMPLED_H
#define KDELTA_MONITORS_SAMPLED_H

/* What the sampled monitors of src/run/monitors/ share. */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "kdelta/monitor.h"

/* Every sampled monitor's one parameter. */
/*
 * The parameters of a sampled monitor: its interval (default 1s; one more
 * sample is taken at stop), or, for one whose file only counts at start
 * and stop (its difference), no interval unless the job gives one.
 */
extern const struct param_spec sampled_interval_params[];
extern const struct param_spec sampled_at_ends_params[];

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
 * The lines of a sample, one at a time:
 *
 *	struct sample_lines l = SAMPLE_LINES(sample);
 *
 *	while (sample_next_line(&l))
 *		... l.line, l.len ...
 */
struct sample_lines {
	const char *pos, *end;
	const char *line;	/* the current line, without its newline */
	size_t len;
};

#define SAMPLE_LINES(sample) \
	{ .pos = (sample)->text, .end = (sample)->text + (sample)->len }

static inline bool sample_next_line(struct sample_lines *l)
{
	return next_line(&l->pos, l->end, &l->line, &l->len);
}

/*
 * Iterates over the blank-separated words of [*pos, end): returns false at
 * the end, else sets word and len and moves *pos past it.
 */
static inline bool next_word(const char **pos, const char *end,
			     const char **word, size_t *len)
{
	const char *p = *pos;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end) {
		*pos = p;
		return false;
	}
	*word = p;
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	*len = (size_t)(p - *word);
	*pos = p;
	return true;
}

/*
 * Splits a line into at most max blank-separated words: words[i] points
 * into line, lens[i] is its length.  Returns the number of words, or
 * max + 1 when there are more.
 */
size_t split_words(const char *line, size_t len, const char **words,
		   size_t *lens, size_t max);

/* Parses one sample into points of set (struct monitor.parse_sample). */
typedef int sample_parser(const struct raw_sample *sample,
			  struct strbuf *name, struct series_set *set,
			  struct kd_err *err);

/*
 * The usual extraction, of a monitor that has parse_sample: every sample
 * through it, then the per-run value of each series by the kind the
 * monitor's metrics declare (kdelta/counters.h).
 */
int extract_series(const struct monitor *m, const char *raw, size_t len,
		   json_t *stats, struct kd_err *err);
/* Its first half: every sample through parse into set. */
int collect_series(const char *raw, size_t len, const char *prefix,
		   sample_parser *parse, struct series_set *set,
		   struct kd_err *err);

#define NUMA_NODE_DIR "/sys/devices/system/node"

/*
 * The file of every NUMA node, NUMA_NODE_DIR/node<N>/<file>, each after the
 * label "node: <N>" (LKP's raw form), in the order of N.
 */
int numa_node_sources(const char *file, struct monitor_sources *out,
		      struct kd_err *err);
/* Whether the machine has more than one NUMA node (node1 exists). */
bool numa_machine(void);

/* Parses a whole word as a number; false if it is not one. */
bool sampled_parse_number(const char *word, size_t len, double *out);

/*
 * The first line of a sample (a header) into l: -1 with "sample at <time>:
 * empty" when there is none.
 */
int sample_first_line(const struct raw_sample *sample, struct sample_lines *l,
		      struct kd_err *err);

/*
 * A parser of one line of a sample: adds its points to set, named from
 * name (the monitor's prefix: what it appends, it takes back off).
 */
typedef int sample_line_parser(const struct raw_sample *sample,
			       const char *line, size_t len,
			       struct strbuf *name, struct series_set *set,
			       struct kd_err *err);

/*
 * The usual sample: a header line, which header checks (header NULL: no
 * header line; sample_any_header: any), then an item a line, each through
 * parse.  A monitor's parse_sample in one line.
 */
int sample_each_line(const struct raw_sample *sample,
		     sample_line_parser *header, sample_line_parser *parse,
		     struct strbuf *name, struct series_set *set,
		     struct kd_err *err);
sample_line_parser sample_any_header;

/* "name value": the point <name><name's word>. */
sample_line_parser sample_name_value;

/* "sample at <time>: bad line '<line>': <what>" into err; returns -1. */
int bad_line(struct kd_err *err, const struct raw_sample *sample,
	     const char *line, size_t len, const char *what);

#endif
