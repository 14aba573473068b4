// SPDX-License-Identifier: GPL-2.0
/*
 * Loading result matrices and turning one matrix per variant into the rows
 * of a comparison.
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
#include "kdelta/monitor.h"
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

/*
 * lkp-tests' monitors, so that its result trees split into workload results
 * and monitors as kdelta's own do.  Those kdelta has too (proc-vmstat,
 * meminfo, iostat, interrupts, ...) are not listed here: they come from
 * monitor_registry.
 */
static const char *const lkp_monitors[] = {
	"boot-time", "buddyinfo", "cpufreq-stats", "cpuidle", "diskstats",
	"dmesg", "energy", "ftrace", "kernel-size",
	"kmsg", "last_state", "lock_stat", "mpstat", "nfsstat",
	"pagetypeinfo", "perf-c2c", "perf-sched",
	"pmeter", "proc-stat", "sched_debug", "stderr",
	"turbostat", "uptime", "zoneinfo",
};

/* Families of lkp-tests monitors, one per NUMA node or per device. */
static const char *const lkp_monitor_prefixes[] = {
	"numa-",
};

static bool source_is_monitor(const char *source)
{
	if (monitor_find(source))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(lkp_monitors); i++)
		if (!strcmp(source, lkp_monitors[i]))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(lkp_monitor_prefixes); i++)
		if (!strncmp(source, lkp_monitor_prefixes[i],
			     strlen(lkp_monitor_prefixes[i])))
			return true;
	return false;
}

bool metric_is_key(const char *name)
{
	const char *dot = strchr(name, '.');
	char source[128];
	size_t len = dot ? (size_t)(dot - name) : strlen(name);

	if (len >= sizeof(source))
		return true;
	memcpy(source, name, len);
	source[len] = '\0';
	return !source_is_monitor(source);
}

/*
 * lkp-tests' failure stats (its "function stats"): counts of what went
 * wrong in each run, kept for every run where performance stats lose the
 * incomplete ones.
 */
static const char *const failure_sources[] = {
	"dmesg", "kmsg", "last_state", "stderr",
};

bool metric_is_failure_stat(const char *name)
{
	const char *dot = strchr(name, '.');
	size_t len = dot ? (size_t)(dot - name) : strlen(name);

	for (size_t i = 0; i < ARRAY_SIZE(failure_sources); i++)
		if (len == strlen(failure_sources[i]) &&
		    !strncmp(name, failure_sources[i], len))
			return true;
	return false;
}

bool metric_absent_means_zero(const char *name)
{
	struct metric_info info;

	metric_describe(name, &info);
	return info.absent_zero;
}

/*
 * The samples of one metric in one variant: the values of the runs not
 * skipped, where a run lacking a value (null in an older kdelta matrix)
 * counts as zero for an event counter and not at all otherwise.  A row
 * whose every run counts, with a value, is its own samples: the cell
 * points into the matrix's values (shared) instead of copying them.
 */
static void cell_fill(struct metric_cell *cell, double *row, size_t nruns,
		      const bool *skip, bool zero_when_absent, bool integers)
{
	bool whole = row && !skip;
	size_t n = 0;

	cell->samples = NULL;
	cell->samples_shared = false;
	cell->sum.n = 0;
	cell->zero_filled = !row;
	cell->integers = row && integers;
	if (!nruns)
		return;
	for (size_t r = 0; whole && r < nruns; r++)
		whole = !isnan(row[r]);
	if (whole) {
		cell->samples = row;
		cell->samples_shared = true;
		cell->sum.n = nruns;
		return;
	}
	cell->samples = xreallocarray(NULL, nruns, sizeof(double));
	for (size_t r = 0; r < nruns; r++) {
		double v = row ? row[r] : NAN;

		if (skip && skip[r])
			continue;
		if (isnan(v) && zero_when_absent)
			v = 0;
		if (!isnan(v))
			cell->samples[n++] = v;
	}
	if (!n) {
		free(cell->samples);
		cell->samples = NULL;
	}
	cell->sum.n = n;
}

/* A new row, named name (which it takes over). */
static size_t comparison_add_row(struct comparison *cmp, size_t *alloc,
				 char *name)
{
	struct metric_row *row;

	ALLOC_GROW(cmp->rows, cmp->nrows + 1, *alloc);
	row = &cmp->rows[cmp->nrows];
	memset(row, 0, sizeof(*row));
	row->name = name;
	return cmp->nrows++;
}

/*
 * Row index of each metric of each matrix: the union of their names.
 * The matrices' names go to the rows or are freed: memory is what limits
 * the largest comparisons.
 */
static size_t *comparison_index_rows(struct comparison *cmp,
				     struct matrix *const *matrices,
				     size_t *names_alloc)
{
	size_t total = 0, *where, k = 0, rows_alloc = 0;
	struct name_index ix;
	char **names = NULL;

	for (size_t v = 0; v < cmp->nvariants; v++)
		total += matrices[v]->nmetrics;
	where = xreallocarray(NULL, total + 1, sizeof(*where));
	name_index_init(&ix);
	for (size_t v = 0; v < cmp->nvariants; v++) {
		struct matrix *m = matrices[v];

		for (size_t i = 0; i < m->nmetrics; i++, k++) {
			uint64_t hash;

			where[k] = name_index_find(&ix, names, m->names[i],
						   &hash);
			if (where[k] != (size_t)-1) {
				free(m->names[i]);
				m->names[i] = NULL;
				continue;
			}
			where[k] = comparison_add_row(cmp, &rows_alloc,
						      m->names[i]);
			m->names[i] = NULL;
			ALLOC_GROW(names, cmp->nrows, *names_alloc);
			names[where[k]] = cmp->rows[where[k]].name;
			name_index_add(&ix, names, where[k], hash);
		}
	}
	name_index_release(&ix);
	free(names);
	/*
	 * The matrices' names, allocated by the threads that read them, are
	 * free now: give their memory back before the cells take theirs.
	 */
	malloc_trim(0);
	for (size_t r = 0; r < cmp->nrows; r++)
		cmp->rows[r].cells = xcalloc(cmp->nvariants,
					     sizeof(*cmp->rows[r].cells));
	return where;
}

/* Keeps m's values for the cells that point into them, or frees them. */
static void comparison_take_values(struct comparison *cmp, struct matrix *m,
				   bool shared)
{
	if (shared) {
		cmp->sample_blocks = xreallocarray(cmp->sample_blocks,
						   cmp->nsample_blocks + 1,
						   sizeof(*cmp->sample_blocks));
		cmp->sample_blocks[cmp->nsample_blocks++] = m->values;
	} else {
		free(m->values);
	}
	m->values = NULL;
}

/* Whether name's source (the part before its first '.') is source[0..len). */
static bool of_source(const char *name, const char *source, size_t len)
{
	return !strncmp(name, source, len) && (name[len] == '.' || !name[len]);
}

/* The index of name's source among first[0..n), or n. */
static size_t find_source(const char *const *first, size_t n,
			  const char *name, size_t hint)
{
	size_t len = strcspn(name, "."), s = hint;

	if (s < n && of_source(first[s], name, len))
		return s;
	for (s = 0; s < n && !of_source(first[s], name, len);)
		s++;
	return s;
}

/*
 * The source of each row as a number below *nsources, among the sources
 * of the rows whose absence can mean zero (NONE for the others): for "did
 * this variant's runs have the metric's source".  Rows of one source are
 * mostly adjacent.
 */
#define NONE ((size_t)-1)
static size_t *zero_sources(const struct comparison *cmp, const bool *zero,
			    size_t *nsources)
{
	size_t *id = xmalloc((cmp->nrows + 1) * sizeof(*id));
	const char **first = NULL;	/* a row name of each source */
	size_t n = 0, alloc = 0, s = 0;

	for (size_t r = 0; r < cmp->nrows; r++) {
		if (!zero[r])
			continue;
		s = find_source(first, n, cmp->rows[r].name, s);
		if (s == n) {
			ALLOC_GROW(first, n + 1, alloc);
			first[n++] = cmp->rows[r].name;
		}
	}
	for (size_t r = 0; r < cmp->nrows; r++) {
		s = find_source(first, n, cmp->rows[r].name,
				r && id[r - 1] != NONE ? id[r - 1] : 0);
		id[r] = s < n ? s : NONE;
	}
	free(first);
	*nsources = n;
	return id;
}

/* Adds a line to v's notice. */
static void add_notice(struct variant *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_notice(struct variant *v, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (v->notice)
		strbuf_addf(&sb, "%s\n", v->notice);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(v->notice);
	v->notice = strbuf_detach(&sb);
}

/*
 * The complete runs of m with a value of a metric of source (a monitor's
 * name): the runs that monitor ran in, when, as perf-profile's, its
 * metrics are never all 0 where it ran.
 */
static size_t runs_with_source(const struct matrix *m, const char *source)
{
	bool *has = xcalloc(m->nruns + 1, sizeof(*has));
	size_t len = strlen(source), n = 0;

	for (size_t i = 0; i < m->nmetrics; i++) {
		const double *row = m->values + i * m->nruns;

		if (!of_source(m->names[i], source, len))
			continue;
		for (size_t r = 0; r < m->nruns; r++)
			has[r] |= !isnan(row[r]) && row[r] != 0;
	}
	for (size_t r = 0; r < m->nruns; r++)
		n += has[r] && !(m->incomplete && m->incomplete[r]);
	free(has);
	return n;
}

/*
 * Runs that differ in a monitor that slows the workload (struct
 * monitor.perturbs) are compared, but not silently: a variant whose runs
 * mix runs with and without it, and a variant that ran it where the base
 * did not (or the other way round), get a notice.
 */
static void note_perturbing(struct comparison *cmp,
			    struct matrix *const *matrices)
{
	size_t *with = xcalloc(cmp->nvariants, sizeof(*with));

	for (size_t i = 0; monitor_registry[i]; i++) {
		const char *name = monitor_registry[i]->section.name;
		const struct variant *base = &cmp->variants[0];

		if (!monitor_registry[i]->perturbs)
			continue;
		for (size_t v = 0; v < cmp->nvariants; v++) {
			struct variant *var = &cmp->variants[v];

			with[v] = runs_with_source(matrices[v], name);
			if (with[v] && with[v] < var->runs)
				add_notice(var, "%s: %s ran in %zu of its %zu runs, and it slows the workload: its results mix runs with and without it",
					   var->label, name, with[v], var->runs);
		}
		for (size_t v = 1; v < cmp->nvariants; v++) {
			struct variant *var = &cmp->variants[v];
			bool mixed = (with[0] && with[0] < base->runs) ||
				     (with[v] && with[v] < var->runs);

			if (mixed || !base->runs || !var->runs ||
			    !with[0] == !with[v])
				continue;
			add_notice(var, "%s ran %s, %s did not, and it slows the workload: the change of the workload's results includes its cost",
				   with[v] ? var->label : base->label, name,
				   with[v] ? base->label : var->label);
		}
	}
	free(with);
}

/* What the rows' names say of them, row by row on every processor. */
#define CLASSIFY_GRAIN 512

struct row_classes {
	struct metric_row *rows;
	bool *zero, *failure;
};

static void classify_rows(void *ctx, size_t begin, size_t end)
{
	struct row_classes *c = ctx;

	for (size_t r = begin; r < end; r++) {
		const char *name = c->rows[r].name;

		c->rows[r].key = metric_is_key(name);
		c->zero[r] = metric_absent_means_zero(name);
		c->failure[r] = metric_is_failure_stat(name);
	}
}

void comparison_add_matrices(struct comparison *cmp,
			     struct matrix *const *matrices)
{
	size_t names_alloc = 0, k = 0, nsources, *where, *source;
	double **rows_of;
	bool *integers, *zero, *failure, *ran;
	struct row_classes classes;

	note_perturbing(cmp, matrices);
	where = comparison_index_rows(cmp, matrices, &names_alloc);
	rows_of = xcalloc(cmp->nrows + 1, sizeof(*rows_of));
	integers = xcalloc(cmp->nrows + 1, sizeof(*integers));
	zero = xcalloc(cmp->nrows + 1, sizeof(*zero));
	failure = xcalloc(cmp->nrows + 1, sizeof(*failure));
	classes = (struct row_classes){ cmp->rows, zero, failure };
	parallel_for(cmp->nrows, CLASSIFY_GRAIN, classify_rows, &classes);
	source = zero_sources(cmp, zero, &nsources);
	ran = xcalloc(nsources + 1, sizeof(*ran));
	for (size_t v = 0; v < cmp->nvariants; v++) {
		struct matrix *m = matrices[v];
		bool shared = false;

		memset(rows_of, 0, cmp->nrows * sizeof(*rows_of));
		memset(ran, 0, nsources * sizeof(*ran));
		for (size_t i = 0; i < m->nmetrics; i++) {
			integers[where[k]] = m->fractions && !m->fractions[i];
			if (source[where[k]] != NONE)
				ran[source[where[k]]] = true;
			rows_of[where[k++]] = m->values + i * m->nruns;
		}
		for (size_t r = 0; r < cmp->nrows; r++) {
			struct metric_cell *cell = &cmp->rows[r].cells[v];

			/*
			 * Absent from every run: none of it when absence
			 * means zero and the metric's source ran, else
			 * absent.
			 */
			if (!rows_of[r] &&
			    !(zero[r] && source[r] != NONE && ran[source[r]]))
				continue;
			cell_fill(cell, rows_of[r], m->nruns,
				  failure[r] ? NULL : m->incomplete, zero[r],
				  integers[r]);
			shared |= cell->samples_shared;
		}
		comparison_take_values(cmp, m, shared);
	}
	free(ran);
	free(source);
	free(failure);
	free(zero);
	free(integers);
	free(rows_of);
	free(where);
}

void metric_row_release(struct metric_row *row, size_t nvariants)
{
	for (size_t v = 0; v < nvariants; v++)
		if (!row->cells[v].samples_shared)
			free(row->cells[v].samples);
	free(row->cells);
	free(row->estimates);
	free(row->name);
	memset(row, 0, sizeof(*row));
}

static void free_params(struct param *params, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(params[i].key);
		free(params[i].value);
	}
	free(params);
}

void variant_release_runs(struct variant *v)
{
	for (size_t i = 0; v->run_names && i < v->runs; i++)
		free(v->run_names[i]);
	free(v->run_names);
	for (size_t i = 0; i < v->nnotes; i++) {
		free(v->notes[i].run);
		free(v->notes[i].why);
	}
	free(v->notes);
	v->run_names = NULL;
	v->notes = NULL;
	v->nnotes = 0;
}

void comparison_keep_rows(struct comparison *cmp,
			  bool (*keep)(const struct metric_row *, void *),
			  void *ctx)
{
	size_t n = 0;

	for (size_t r = 0; r < cmp->nrows; r++) {
		if (keep(&cmp->rows[r], ctx))
			cmp->rows[n++] = cmp->rows[r];
		else
			metric_row_release(&cmp->rows[r], cmp->nvariants);
	}
	cmp->nrows = n;
}

void comparison_release(struct comparison *cmp)
{
	for (size_t r = 0; r < cmp->nrows; r++)
		metric_row_release(&cmp->rows[r], cmp->nvariants);
	free(cmp->rows);
	for (size_t i = 0; i < cmp->nsample_blocks; i++)
		free(cmp->sample_blocks[i]);
	free(cmp->sample_blocks);
	for (size_t v = 0; v < cmp->nvariants; v++) {
		free(cmp->variants[v].label);
		free(cmp->variants[v].subject);
		free(cmp->variants[v].path);
		free(cmp->variants[v].notice);
		variant_release_runs(&cmp->variants[v]);
		free(cmp->variants[v].failure);
	}
	free(cmp->variants);
	free_params(cmp->params, cmp->nparams);
	free(cmp->name);
	free(cmp->testcase);
	free(cmp->host);
	free(cmp->axis);
	memset(cmp, 0, sizeof(*cmp));
}
