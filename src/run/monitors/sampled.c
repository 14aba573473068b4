// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>

#include "kdelta/counters.h"
#include "kdelta/util.h"
#include "sampled.h"

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

bool sampled_parse_number(const char *word, size_t len, double *out)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, word, len);
	buf[len] = '\0';
	*out = strtod(buf, &end);
	return end == buf + len;
}

const struct param_spec sampled_interval_params[] = {
	{ .name = "interval", .type = PARAM_DURATION, .def = "1s",
	  .help = "time between two samples, at least 0.01s; one more is taken at stop" },
	{ .name = NULL },
};

const struct param_spec sampled_at_ends_params[] = {
	{ .name = "interval", .type = PARAM_DURATION,
	  .help = "time between two samples, at least 0.01s; default: at start and stop only" },
	{ .name = NULL },
};

int sample_first_line(const struct raw_sample *sample, struct sample_lines *l,
		      struct kd_err *err)
{
	if (!sample_next_line(l))
		return kd_error(err, "sample at %.6f: empty", sample->time);
	return 0;
}

int sample_each_line(const struct raw_sample *sample,
		     sample_line_parser *header, sample_line_parser *parse,
		     struct strbuf *name, struct series_set *set,
		     struct kd_err *err)
{
	struct sample_lines l = SAMPLE_LINES(sample);

	if (header && (sample_first_line(sample, &l, err) < 0 ||
		       header(sample, l.line, l.len, name, set, err) < 0))
		return -1;
	while (sample_next_line(&l))
		if (parse(sample, l.line, l.len, name, set, err) < 0)
			return -1;
	return 0;
}

int sample_any_header(const struct raw_sample *sample, const char *line,
		      size_t len, struct strbuf *name, struct series_set *set,
		      struct kd_err *err)
{
	(void)sample, (void)line, (void)len, (void)name, (void)set, (void)err;
	return 0;
}

int sample_name_value(const struct raw_sample *sample, const char *line,
		      size_t len, struct strbuf *name, struct series_set *set,
		      struct kd_err *err)
{
	const char *words[2];
	size_t lens[2], base = name->len;
	double value;

	if (split_words(line, len, words, lens, 2) != 2 ||
	    !sampled_parse_number(words[1], lens[1], &value))
		return bad_line(err, sample, line, len, "expected 'name value'");
	strbuf_add(name, words[0], lens[0]);
	series_add(set, name->buf, sample->time, value);
	strbuf_setlen(name, base);
	return 0;
}

int bad_line(struct kd_err *err, const struct raw_sample *sample,
	     const char *line, size_t len, const char *what)
{
	return kd_error(err, "sample at %.6f: bad line '%.*s': %s",
			sample->time, (int)(len > 80 ? 80 : len), line, what);
}

int collect_series(const char *raw, size_t len, const char *prefix,
		   sample_parser *parse, struct series_set *set,
		   struct kd_err *err)
{
	struct strbuf name = STRBUF_INIT;
	struct raw_sample sample;
	size_t pos = 0;
	int rc;

	while ((rc = raw_next_sample(raw, len, &pos, &sample, err)) > 0) {
		strbuf_reset(&name);
		strbuf_addstr(&name, prefix);
		if (parse(&sample, &name, set, err) < 0) {
			rc = -1;
			break;
		}
	}
	strbuf_release(&name);
	return rc;
}

int extract_series(const struct monitor *m, const char *raw, size_t len,
		   json_t *stats, struct kd_err *err)
{
	struct series_set set = SERIES_SET_INIT;
	char *prefix = xasprintf("%s.", m->section.name);
	int rc = collect_series(raw, len, prefix, m->parse_sample, &set, err);

	if (!rc)
		series_aggregate(&set, m->metrics, stats);
	series_release(&set);
	free(prefix);
	return rc;
}

int monitor_extract(const struct monitor *m, const char *raw, size_t len,
		    json_t *stats, struct kd_err *err)
{
	if (m->extract)
		return m->extract(raw, len, stats, err);
	return extract_series(m, raw, len, stats, err);
}

static int node_number(const struct dirent *d)
{
	const char *p = d->d_name + 4;

	if (strncmp(d->d_name, "node", 4) || !*p)
		return -1;
	for (const char *q = p; *q; q++)
		if (*q < '0' || *q > '9')
			return -1;
	return atoi(p);
}

static int by_node_number(const struct dirent **a, const struct dirent **b)
{
	return node_number(*a) - node_number(*b);
}

static int is_node(const struct dirent *d)
{
	return node_number(d) >= 0;
}

int numa_node_sources(const char *file, struct monitor_sources *out,
		      struct kd_err *err)
{
	char *dir = monitor_proc_path(NUMA_NODE_DIR);
	struct dirent **names;
	int n = scandir(dir, &names, is_node, by_node_number);

	if (n < 0) {
		kd_error(err, "%s: %s", dir, errno == ENOENT
			 ? "does not exist (kernel without CONFIG_NUMA)"
			 : strerror(errno));
		free(dir);
		return MONITOR_UNAVAILABLE;
	}
	for (int i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s/%s", NUMA_NODE_DIR,
				       names[i]->d_name, file);
		char *label = xasprintf("node: %d", node_number(names[i]));

		monitor_sources_add(out, path, label);
		free(label);
		free(path);
		free(names[i]);
	}
	free(names);
	free(dir);
	if (!n) {
		kd_error(err, "no NUMA node in %s", NUMA_NODE_DIR);
		return MONITOR_UNAVAILABLE;
	}
	return 0;
}

bool numa_machine(void)
{
	char *node1 = monitor_proc_path(NUMA_NODE_DIR "/node1");
	bool numa = path_exists(node1);

	free(node1);
	return numa;
}
