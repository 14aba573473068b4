// SPDX-License-Identifier: GPL-2.0
/*
 * Loading result matrices and turning one matrix per variant into the rows
 * of a comparison.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kdelta/counters.h"
#include "kdelta/matrix.h"
#include "kdelta/metric-rules.h"
#include "kdelta/monitor.h"
#include "kdelta/util.h"

static const char *json_type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: case JSON_REAL: return "a number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "something else";
}

/* A sample: a finite number, or null for "no value in this run". */
static int json_sample(const json_t *v, const char *path, const char *metric,
		       size_t run, double *out, struct kd_err *err)
{
	if (json_is_null(v)) {
		*out = NAN;
		return 0;
	}
	if (!json_is_number(v))
		return kd_error(err, "%s: metric '%s', run %zu: expected a number, got %s",
				path, metric, run, json_type_name(v));
	*out = json_number_value(v);
	if (!isfinite(*out))
		return kd_error(err, "%s: metric '%s', run %zu: not a finite number",
				path, metric, run);
	return 0;
}

/*
 * The name a metric of a JSON object is read under: today's name
 * (metric_current_name()), or NULL to skip it when the object holds that
 * name too.
 */
static const char *name_read_as(json_t *object, const char *key)
{
	const char *now = metric_current_name(key);

	return now != key && json_object_get(object, now) ? NULL : now;
}

static void matrix_add_metric(struct matrix *m, size_t *alloc, const char *name)
{
	ALLOC_GROW(m->names, m->nmetrics + 1, *alloc);
	m->names[m->nmetrics++] = xstrdup(name);
}

/*
 * The run count every array must have: stats_source's length when present
 * (it names the runs), else the first metric's.
 */
static int matrix_width(json_t *root, const char *path, size_t *width,
			const char **by, struct kd_err *err)
{
	json_t *sources = json_object_get(root, "stats_source");
	const char *key;
	json_t *value;

	if (sources) {
		if (!json_is_array(sources))
			return kd_error(err, "%s: stats_source: expected an array, got %s",
					path, json_type_name(sources));
		*width = json_array_size(sources);
		*by = "stats_source";
		return 0;
	}
	*width = 0;
	*by = NULL;
	json_object_foreach(root, key, value) {
		if (json_is_array(value)) {
			*width = json_array_size(value);
			*by = key;
			break;
		}
	}
	return 0;
}

static int matrix_from_json(json_t *root, const char *path, struct matrix *m,
			    struct kd_err *err)
{
	size_t alloc = 0, width, i;
	const char *key, *by;
	json_t *value, *item;

	if (!json_is_object(root))
		return kd_error(err, "%s: expected a JSON object of metric arrays, got %s",
				path, json_type_name(root));
	if (matrix_width(root, path, &width, &by, err) < 0)
		return -1;
	m->nruns = width;
	m->values = xreallocarray(NULL, json_object_size(root) * width + 1,
				  sizeof(double));
	json_object_foreach(root, key, value) {
		double *row = m->values + m->nmetrics * width;
		const char *name = name_read_as(root, key);

		if (!strcmp(key, "stats_source") || !name)
			continue;
		if (!json_is_array(value))
			return kd_error(err, "%s: metric '%s': expected an array of numbers, got %s",
					path, key, json_type_name(value));
		if (json_array_size(value) != width)
			return kd_error(err, "%s: ragged matrix: '%s' has %zu values, '%s' has %zu",
					path, key, json_array_size(value), by,
					width);
		json_array_foreach(value, i, item)
			if (json_sample(item, path, key, i, &row[i], err) < 0)
				return -1;
		matrix_add_metric(m, &alloc, name);
	}
	return 0;
}

int matrix_parse(const char *text, size_t len, const char *path,
		 struct matrix *out, struct kd_err *err)
{
	json_error_t jerr;
	json_t *root = json_loadb(text, len, 0, &jerr);
	int ret;

	memset(out, 0, sizeof(*out));
	if (!root)
		return kd_error(err, "%s: invalid JSON at line %d, column %d: %s",
				path, jerr.line, jerr.column, jerr.text);
	ret = matrix_from_json(root, path, out, err);
	json_decref(root);
	if (ret < 0)
		matrix_release(out);
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
 * A string -> index hash table (open addressing, linear probing), for the
 * union of metric names over runs and variants: tens of thousands of names,
 * so a linear search per name would make the comparer quadratic.
 */
struct name_index {
	size_t *slots;		/* index + 1; 0: empty */
	size_t mask;
	size_t count;
	char *const *names;	/* *names[i] is entry i's name */
};

static void name_index_init(struct name_index *ix, char *const *names)
{
	ix->mask = 1023;
	ix->count = 0;
	ix->slots = xcalloc(ix->mask + 1, sizeof(*ix->slots));
	ix->names = names;
}

static size_t *name_index_slot(const struct name_index *ix, const char *name)
{
	size_t i = hash64(name, strlen(name)) & ix->mask;

	while (ix->slots[i] && strcmp(ix->names[ix->slots[i] - 1], name))
		i = (i + 1) & ix->mask;
	return &ix->slots[i];
}

static void name_index_grow(struct name_index *ix)
{
	size_t *old = ix->slots, old_size = ix->mask + 1;

	ix->mask = ix->mask * 2 + 1;
	ix->slots = xcalloc(ix->mask + 1, sizeof(*ix->slots));
	for (size_t i = 0; i < old_size; i++)
		if (old[i])
			*name_index_slot(ix, ix->names[old[i] - 1]) = old[i];
	free(old);
}

/*
 * The index of name, or (size_t)-1 when absent.  names may have moved
 * (realloc) since the last call: pass the current array.
 */
static size_t name_index_find(struct name_index *ix, char *const *names,
			      const char *name)
{
	size_t *slot;

	ix->names = names;
	slot = name_index_slot(ix, name);
	return *slot ? *slot - 1 : (size_t)-1;
}

/* Records that names[index] (already stored by the caller) is name. */
static void name_index_add(struct name_index *ix, char *const *names,
			   size_t index)
{
	ix->names = names;
	if (2 * (ix->count + 1) > ix->mask + 1)
		name_index_grow(ix);
	*name_index_slot(ix, names[index]) = index + 1;
	ix->count++;
}

static void name_index_release(struct name_index *ix)
{
	free(ix->slots);
	ix->slots = NULL;
}

/* Appends run number 'run' of a stats.json object to m. */
static int matrix_add_stats(struct matrix *m, size_t *names_alloc,
			    struct name_index *ix, size_t runs, size_t run,
			    json_t *stats, const char *path, struct kd_err *err)
{
	const char *key;
	json_t *value;

	json_object_foreach(stats, key, value) {
		const char *name = name_read_as(stats, key);
		size_t i;
		double sample = NAN;

		if (json_sample(value, path, key, run, &sample, err) < 0)
			return -1;
		if (!name)
			continue;
		i = name_index_find(ix, m->names, name);
		if (i == (size_t)-1) {
			matrix_add_metric(m, names_alloc, name);
			i = m->nmetrics - 1;
			name_index_add(ix, m->names, i);
			m->values = xreallocarray(m->values, m->nmetrics * runs,
						  sizeof(double));
			for (size_t r = 0; r < runs; r++)
				m->values[i * runs + r] = NAN;
		}
		m->values[i * runs + run] = sample;
	}
	return 0;
}

static int stats_file_load(const char *path, json_t **out, struct kd_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	json_error_t jerr;

	*out = NULL;
	if (read_file(path, &sb, err) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	*out = json_loadb(sb.buf, sb.len, 0, &jerr);
	strbuf_release(&sb);
	if (!*out)
		return kd_error(err, "%s: invalid JSON at line %d, column %d: %s",
				path, jerr.line, jerr.column, jerr.text);
	if (!json_is_object(*out)) {
		kd_error(err, "%s: expected a JSON object of metrics, got %s",
			 path, json_type_name(*out));
		json_decref(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

int matrix_from_stats(const char *const *stats_paths, size_t n,
		      struct matrix *out, struct kd_err *err)
{
	struct name_index ix;
	size_t names_alloc = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->nruns = n;
	name_index_init(&ix, out->names);
	for (size_t run = 0; run < n && !ret; run++) {
		json_t *stats;

		ret = stats_file_load(stats_paths[run], &stats, err);
		if (!ret)
			ret = matrix_add_stats(out, &names_alloc, &ix, n, run,
					       stats, stats_paths[run], err);
		json_decref(stats);
	}
	name_index_release(&ix);
	if (ret < 0)
		matrix_release(out);
	return ret;
}

void matrix_release(struct matrix *m)
{
	for (size_t i = 0; i < m->nmetrics; i++)
		free(m->names[i]);
	free(m->names);
	free(m->values);
	memset(m, 0, sizeof(*m));
}

/*
 * lkp-tests' monitors, so that its result trees split into workload results
 * and monitors as kdelta's own do.  Those kdelta has too (proc-vmstat,
 * meminfo, slabinfo, vmstat, time, latency_stats) are not listed here: they
 * come from monitor_registry.
 */
static const char *const lkp_monitors[] = {
	"boot-time", "buddyinfo", "cpufreq-stats", "cpuidle", "diskstats",
	"dmesg", "energy", "ftrace", "interrupts", "iostat", "kernel-size",
	"kmsg", "last_state", "lock_stat", "mpstat", "nfsstat",
	"pagetypeinfo", "perf-c2c", "perf-profile", "perf-sched", "perf-stat",
	"pmeter", "proc-stat", "sched_debug", "softirqs", "stderr",
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

bool metric_absent_means_zero(const char *name)
{
	return metric_kind(name) == METRIC_COUNTER;
}

/*
 * The samples of one metric in one variant: the values present, or, for an
 * event counter, every run with zero where a run lacks it.
 */
static void cell_fill(struct metric_cell *cell, const double *row,
		      size_t nruns, bool zero_when_absent)
{
	size_t n = 0;

	cell->samples = NULL;
	cell->sum.n = 0;
	cell->zero_filled = !row;
	if (!nruns)
		return;
	cell->samples = xreallocarray(NULL, nruns, sizeof(double));
	for (size_t r = 0; r < nruns; r++) {
		double v = row ? row[r] : NAN;

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

static size_t comparison_add_row(struct comparison *cmp, size_t *alloc,
				 const char *name)
{
	struct metric_row *row;

	ALLOC_GROW(cmp->rows, cmp->nrows + 1, *alloc);
	row = &cmp->rows[cmp->nrows];
	memset(row, 0, sizeof(*row));
	row->name = xstrdup(name);
	row->key = metric_is_key(name);
	row->cells = xcalloc(cmp->nvariants, sizeof(*row->cells));
	return cmp->nrows++;
}

/* Row index of each metric of each matrix: the union of their names. */
static size_t *comparison_index_rows(struct comparison *cmp,
				     const struct matrix *const *matrices,
				     size_t *names_alloc)
{
	size_t total = 0, *where, k = 0, rows_alloc = 0;
	struct name_index ix;
	char **names = NULL;

	for (size_t v = 0; v < cmp->nvariants; v++)
		total += matrices[v]->nmetrics;
	where = xreallocarray(NULL, total + 1, sizeof(*where));
	name_index_init(&ix, names);
	for (size_t v = 0; v < cmp->nvariants; v++) {
		const struct matrix *m = matrices[v];

		for (size_t i = 0; i < m->nmetrics; i++, k++) {
			where[k] = name_index_find(&ix, names, m->names[i]);
			if (where[k] != (size_t)-1)
				continue;
			where[k] = comparison_add_row(cmp, &rows_alloc,
						      m->names[i]);
			ALLOC_GROW(names, cmp->nrows, *names_alloc);
			names[where[k]] = cmp->rows[where[k]].name;
			name_index_add(&ix, names, where[k]);
		}
	}
	name_index_release(&ix);
	free(names);
	return where;
}

void comparison_add_matrices(struct comparison *cmp,
			     const struct matrix *const *matrices)
{
	size_t names_alloc = 0, k = 0;
	size_t *where = comparison_index_rows(cmp, matrices, &names_alloc);
	const double **rows_of = xcalloc(cmp->nrows + 1, sizeof(*rows_of));
	bool *zero = xcalloc(cmp->nrows + 1, sizeof(*zero));

	for (size_t r = 0; r < cmp->nrows; r++)
		zero[r] = metric_absent_means_zero(cmp->rows[r].name);
	for (size_t v = 0; v < cmp->nvariants; v++) {
		const struct matrix *m = matrices[v];

		memset(rows_of, 0, cmp->nrows * sizeof(*rows_of));
		for (size_t i = 0; i < m->nmetrics; i++)
			rows_of[where[k++]] = m->values + i * m->nruns;
		for (size_t r = 0; r < cmp->nrows; r++)
			if (rows_of[r] || zero[r])
				cell_fill(&cmp->rows[r].cells[v], rows_of[r],
					  m->nruns, zero[r]);
	}
	free(zero);
	free(rows_of);
	free(where);
}

static void free_params(struct param *params, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(params[i].key);
		free(params[i].value);
	}
	free(params);
}

void comparison_release(struct comparison *cmp)
{
	for (size_t r = 0; r < cmp->nrows; r++) {
		for (size_t v = 0; v < cmp->nvariants; v++)
			free(cmp->rows[r].cells[v].samples);
		free(cmp->rows[r].cells);
		free(cmp->rows[r].name);
	}
	free(cmp->rows);
	for (size_t v = 0; v < cmp->nvariants; v++) {
		free(cmp->variants[v].label);
		free(cmp->variants[v].subject);
		free(cmp->variants[v].path);
	}
	free(cmp->variants);
	free_params(cmp->params, cmp->nparams);
	free(cmp->name);
	free(cmp->testcase);
	free(cmp->host);
	free(cmp->axis);
	memset(cmp, 0, sizeof(*cmp));
}
