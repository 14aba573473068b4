// SPDX-License-Identifier: GPL-2.0
/*
 * The matrix file, matrix.json.gz: one commit's runs, metric by metric, as
 * lkp-tests writes and reads it -- loading, building from the runs'
 * stats.json, writing.
 */
#include <malloc.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/counters.h"
#include "kdelta/json-reader.h"
#include "kdelta/matrix.h"
#include "kdelta/metric-rules.h"
#include "kdelta/name-index.h"
#include "kdelta/parallel.h"
#include "kdelta/strbuf.h"
#include "kdelta/util.h"

/*
 * A matrix as it is read: each metric's values in file order, then laid
 * out as nmetrics x nruns.  A metric named twice keeps its first place and
 * its last values (as jansson and Ruby's JSON read it).
 */
struct matrix_reader {
	struct matrix *m;
	struct name_index ix;
	size_t names_alloc;
	size_t *start, *count;	/* per metric, in values */
	bool *renamed;		/* per metric: read under an older name */
	size_t rows_alloc, fractions_alloc;
	double *values;
	size_t nvalues, values_alloc;
	bool has_sources;
	size_t nsources, sources_alloc;
};

static void matrix_add_metric(struct matrix *m, size_t *alloc, const char *name)
{
	ALLOC_GROW(m->names, m->nmetrics + 1, *alloc);
	m->names[m->nmetrics++] = xstrdup(name);
}

/*
 * The row of the metric named key, read under the name it has today
 * (metric_current_name()): a new one, or the one named before.  A file
 * with an older name and today's of one metric keeps today's, whatever
 * their order: (size_t)-1 says to skip the older one's values.
 */
static size_t reader_row(struct matrix_reader *mr, const char *key)
{
	struct matrix *m = mr->m;
	const char *name = metric_current_name(key);
	bool renamed = name != key;
	uint64_t hash;
	size_t i = name_index_find(&mr->ix, m->names, name, &hash);

	if (i != (size_t)-1) {
		if (renamed && !mr->renamed[i])
			return (size_t)-1;
		mr->renamed[i] = renamed;
		return i;
	}
	matrix_add_metric(m, &mr->names_alloc, name);
	i = m->nmetrics - 1;
	ALLOC_GROW(m->fractions, m->nmetrics, mr->fractions_alloc);
	m->fractions[i] = false;
	name_index_add(&mr->ix, m->names, i, hash);
	if (m->nmetrics > mr->rows_alloc) {
		mr->rows_alloc = 2 * m->nmetrics;
		mr->start = xreallocarray(mr->start, mr->rows_alloc,
					  sizeof(*mr->start));
		mr->count = xreallocarray(mr->count, mr->rows_alloc,
					  sizeof(*mr->count));
		mr->renamed = xreallocarray(mr->renamed, mr->rows_alloc,
					    sizeof(*mr->renamed));
	}
	mr->renamed[i] = renamed;
	return i;
}

/* A sample: a number, or null for "no value in this run". */
static int read_sample(struct json_reader *r, const char *metric, size_t run,
		       double *out, bool *fraction, struct kd_err *err)
{
	enum json_kind kind = json_peek(r);

	*fraction = false;
	if (kind == JSON_KIND_NUMBER)
		return json_read_number(r, out, fraction, err);
	if (kind == JSON_KIND_NULL) {
		*out = NAN;
		return json_read_null(r, err);
	}
	if (kind == JSON_KIND_OTHER)	/* says what is wrong */
		return json_read_number(r, out, fraction, err);
	return kd_error(err, "%s: metric '%s', run %zu: expected a number, got %s",
			r->path, metric, run, json_kind_name(kind));
}

static int read_metric(struct matrix_reader *mr, struct json_reader *r,
		       struct kd_err *err)
{
	enum json_kind kind = json_peek(r);
	size_t row, start;
	bool fraction;
	int more;

	if (kind != JSON_KIND_ARRAY)
		return kd_error(err, "%s: metric '%s': expected an array of numbers, got %s",
				r->path, r->str.buf, json_kind_name(kind));
	row = reader_row(mr, r->str.buf);
	start = mr->nvalues;
	json_open(r, '[', err);
	more = json_read_numbers(r, &mr->values, &mr->nvalues,
				 &mr->values_alloc, &fraction, err);
	if (more > 0)
		return kd_error(err, "%s: metric '%s', run %zu: expected a number, got %s",
				r->path, r->str.buf, mr->nvalues - start,
				json_kind_name(json_peek(r)));
	if (row == (size_t)-1) {
		mr->nvalues = start;
	} else {
		mr->start[row] = start;
		mr->count[row] = mr->nvalues - start;
		mr->m->fractions[row] = fraction;
	}
	return more;
}

static void free_sources(char **sources, size_t n)
{
	for (size_t i = 0; sources && i < n; i++)
		free(sources[i]);
	free(sources);
}

static int read_sources(struct matrix_reader *mr, struct json_reader *r,
			struct kd_err *err)
{
	enum json_kind kind = json_peek(r);
	bool first = true;
	int more;

	if (kind != JSON_KIND_ARRAY)
		return kd_error(err, "%s: stats_source: expected an array, got %s",
				r->path, json_kind_name(kind));
	json_open(r, '[', err);
	mr->has_sources = true;
	free_sources(mr->m->sources, mr->nsources);
	mr->m->sources = NULL;
	mr->nsources = mr->sources_alloc = 0;
	while ((more = json_item(r, &first, err)) > 0) {
		kind = json_peek(r);
		if (kind != JSON_KIND_STRING)
			return kd_error(err, "%s: stats_source: expected an array of strings, got %s in it",
					r->path, json_kind_name(kind));
		if (json_read_string(r, err) < 0)
			return -1;
		ALLOC_GROW(mr->m->sources, mr->nsources + 1, mr->sources_alloc);
		mr->m->sources[mr->nsources++] = xstrdup(r->str.buf);
	}
	return more;
}

/*
 * The run count: stats_source's length when present (it names the runs),
 * else the longest array's.  lkp-tests saves a matrix before padding the
 * stats the last runs lacked, so an array may be shorter: as lkp-tests
 * reads it, the runs it lacks have 0 there (no value, without
 * stats_source).  Longer than stats_source is a damaged matrix.
 */
static int reader_width(const struct matrix_reader *mr, const char *path,
			size_t *width, struct kd_err *err)
{
	const struct matrix *m = mr->m;

	*width = mr->nsources;
	for (size_t i = 0; i < m->nmetrics; i++) {
		if (mr->has_sources && mr->count[i] > *width)
			return kd_error(err, "%s: ragged matrix: '%s' has %zu values, 'stats_source' has %zu",
					path, m->names[i], mr->count[i], *width);
		if (mr->count[i] > *width)
			*width = mr->count[i];
	}
	return 0;
}

/* Lays the values out, one row of width per metric. */
static void reader_layout(struct matrix_reader *mr, size_t width)
{
	struct matrix *m = mr->m;
	bool in_place = true;
	double pad = mr->has_sources ? 0 : NAN;

	m->nruns = width;
	for (size_t i = 0; i < m->nmetrics && in_place; i++)
		in_place = mr->count[i] == width && mr->start[i] == i * width;
	if (in_place) {
		/* What the guess of its size left over goes back. */
		m->values = xreallocarray(mr->values, m->nmetrics * width + 1,
					  sizeof(double));
		mr->values = NULL;
		return;
	}
	m->values = xreallocarray(NULL, m->nmetrics * width + 1,
				  sizeof(double));
	for (size_t i = 0; i < m->nmetrics; i++) {
		double *row = m->values + i * width;

		memcpy(row, mr->values + mr->start[i],
		       mr->count[i] * sizeof(double));
		for (size_t r = mr->count[i]; r < width; r++)
			row[r] = pad;
	}
}

/* lkp-tests' mark of a run that did not finish: its stats are partial. */
#define INCOMPLETE_RUN_METRIC "last_state.is_incomplete_run"

static void matrix_find_incomplete(struct matrix *m)
{
	const double *row = NULL;

	for (size_t i = 0; i < m->nmetrics && !row; i++)
		if (!strcmp(m->names[i], INCOMPLETE_RUN_METRIC))
			row = m->values + i * m->nruns;
	for (size_t r = 0; row && r < m->nruns; r++) {
		if (row[r] != 1)
			continue;
		if (!m->incomplete)
			m->incomplete = xcalloc(m->nruns, sizeof(*m->incomplete));
		m->incomplete[r] = true;
		m->nincomplete++;
	}
}

static int read_matrix(struct matrix_reader *mr, struct json_reader *r,
		       struct kd_err *err)
{
	bool first = true;
	size_t width;
	int more;

	if (json_peek(r) != JSON_KIND_OBJECT)
		return kd_error(err, "%s: expected a JSON object of metric arrays, got %s",
				r->path, json_kind_name(json_peek(r)));
	json_open(r, '{', err);
	while ((more = json_member(r, &first, err)) > 0) {
		more = strcmp(r->str.buf, "stats_source")
			? read_metric(mr, r, err) : read_sources(mr, r, err);
		if (more < 0)
			return -1;
	}
	if (more < 0 || json_finish(r, err) < 0 ||
	    reader_width(mr, r->path, &width, err) < 0)
		return -1;
	if (mr->has_sources && !mr->m->sources)	/* "stats_source": [] */
		mr->m->sources = xcalloc(1, sizeof(*mr->m->sources));
	reader_layout(mr, width);
	matrix_find_incomplete(mr->m);
	return 0;
}

int matrix_parse(const char *text, size_t len, const char *path,
		 struct matrix *out, struct kd_err *err)
{
	struct matrix_reader mr = { .m = out };
	struct json_reader r;
	int ret;

	memset(out, 0, sizeof(*out));
	name_index_init(&mr.ix);
	/* About one number in eight bytes: few reallocations. */
	mr.values_alloc = len / 8 + 16;
	mr.values = xreallocarray(NULL, mr.values_alloc, sizeof(double));
	json_reader_init(&r, text, len, path);
	ret = read_matrix(&mr, &r, err);
	json_reader_release(&r);
	name_index_release(&mr.ix);
	free(mr.start);
	free(mr.count);
	free(mr.renamed);
	free(mr.values);
	if (ret < 0) {
		free_sources(out->sources, mr.nsources);
		out->sources = NULL;
		matrix_release(out);
	}
	return ret;
}

int matrix_load(const char *path, struct matrix *out, struct kd_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	memset(out, 0, sizeof(*out));
	if (read_file(path, &sb, err) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	ret = matrix_parse(sb.buf, sb.len, path, out, err);
	strbuf_release(&sb);
	return ret;
}

/*
 * Adds run 'run' of n from one stats.json ({"metric": number, ...}) to m,
 * whose rows are n wide; a metric new to m has 0 in the runs before.
 */
static int matrix_add_stats(struct matrix_reader *mr, size_t n, size_t run,
			    struct json_reader *r, struct kd_err *err)
{
	struct matrix *m = mr->m;
	bool first = true;
	int more;

	if (json_peek(r) != JSON_KIND_OBJECT)
		return kd_error(err, "%s: expected a JSON object of metrics, got %s",
				r->path, json_kind_name(json_peek(r)));
	json_open(r, '{', err);
	while ((more = json_member(r, &first, err)) > 0) {
		size_t before = m->nmetrics, row;
		double sample;
		bool fraction;

		/* It names the run, in some of lkp-tests' files. */
		if (!strcmp(r->str.buf, "stats_source")) {
			if (json_read_string(r, err) < 0)
				return -1;
			continue;
		}
		row = reader_row(mr, r->str.buf);
		if (row == before) {
			ALLOC_GROW(m->values, (row + 1) * n, mr->values_alloc);
			memset(m->values + row * n, 0, n * sizeof(double));
		}
		if (read_sample(r, r->str.buf, run, &sample, &fraction,
				err) < 0)
			return -1;
		if (row == (size_t)-1)
			continue;
		m->values[row * n + run] = isnan(sample) ? 0 : sample;
		m->fractions[row] |= fraction;
	}
	return more < 0 ? -1 : json_finish(r, err);
}

static int stats_file_add(struct matrix_reader *mr, size_t n, size_t run,
			  const char *path, struct kd_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_reader r;
	int ret;

	if (read_file(path, &sb, err) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	json_reader_init(&r, sb.buf, sb.len, path);
	ret = matrix_add_stats(mr, n, run, &r, err);
	json_reader_release(&r);
	strbuf_release(&sb);
	return ret;
}

int matrix_from_stats(const char *const *stats_paths, size_t n,
		      struct matrix *out, struct kd_err *err)
{
	struct matrix_reader mr = { .m = out };
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->nruns = n;
	out->sources = xcalloc(n + 1, sizeof(*out->sources));
	for (size_t run = 0; run < n; run++)
		out->sources[run] = xstrdup(stats_paths[run]);
	name_index_init(&mr.ix);
	for (size_t run = 0; run < n && !ret; run++)
		ret = stats_file_add(&mr, n, run, stats_paths[run], err);
	name_index_release(&mr.ix);
	free(mr.start);
	free(mr.count);
	free(mr.renamed);
	if (!ret)
		matrix_find_incomplete(out);
	else
		matrix_release(out);
	return ret;
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void json_add_string(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			strbuf_addf(out, "\\%c", c);
		else if (c < 0x20)
			strbuf_addf(out, "\\u%04x", c);
		else
			strbuf_addch(out, (char)c);
	}
	strbuf_addch(out, '"');
}

/* The shortest of %.15g, %.16g and %.17g that reads back exactly. */
static void json_add_number(struct strbuf *out, double v)
{
	char buf[32];

	if (v == trunc(v) && fabs(v) < 1e15) {
		strbuf_addf(out, "%.0f", v == 0 ? 0 : v);
		return;
	}
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	strbuf_addstr(out, buf);
}

static int compare_names(const void *a, const void *b, void *names)
{
	const char *const *n = names;

	return strcmp(n[*(const size_t *)a], n[*(const size_t *)b]);
}

void matrix_to_json(const struct matrix *m, struct strbuf *out)
{
	size_t *order = xcalloc(m->nmetrics + 1, sizeof(*order));

	for (size_t i = 0; i < m->nmetrics; i++)
		order[i] = i;
	qsort_r(order, m->nmetrics, sizeof(*order), compare_names, m->names);
	strbuf_addch(out, '{');
	for (size_t i = 0; i < m->nmetrics; i++) {
		const double *row = m->values + order[i] * m->nruns;

		json_add_string(out, m->names[order[i]]);
		strbuf_addstr(out, ":[");
		for (size_t r = 0; r < m->nruns; r++) {
			if (r)
				strbuf_addch(out, ',');
			json_add_number(out, isnan(row[r]) ? 0 : row[r]);
		}
		strbuf_addstr(out, "],");
	}
	if (m->sources) {
		strbuf_addstr(out, "\"stats_source\":[");
		for (size_t r = 0; r < m->nruns; r++) {
			if (r)
				strbuf_addch(out, ',');
			json_add_string(out, m->sources[r]);
		}
		strbuf_addstr(out, "],");
	}
	strbuf_setlen(out, out->len - (out->buf[out->len - 1] == ','));
	strbuf_addstr(out, "}\n");
	free(order);
}

void matrix_release(struct matrix *m)
{
	for (size_t i = 0; i < m->nmetrics; i++)
		free(m->names[i]);
	free(m->names);
	free(m->values);
	free(m->incomplete);
	free(m->fractions);
	free_sources(m->sources, m->nruns);
	memset(m, 0, sizeof(*m));
}
