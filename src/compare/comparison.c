// SPDX-License-Identifier: GPL-2.0
/*
 * The rows of a comparison, from one matrix per variant: the union of their
 * metrics, each cell's samples, the notices about runs that differ in a
 * monitor that slows the workload; keeping rows, releasing.
 */
#include <malloc.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/compare.h"
#include "kdelta/lkp-rules.h"
#include "kdelta/matrix.h"
#include "kdelta/metric-rules.h"
#include "kdelta/name-index.h"
#include "kdelta/parallel.h"
#include "kdelta/strbuf.h"
#include "kdelta/util.h"

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

	for (size_t i = 0; cmp->catalogue && i < cmp->catalogue->n; i++) {
		const char *name = cmp->catalogue->sources[i].name;
		const struct variant *base = &cmp->variants[0];

		if (!cmp->catalogue->sources[i].perturbs)
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
	const struct metric_catalogue *catalogue;
	struct metric_row *rows;
	bool *zero, *failure;
};

static void classify_rows(void *ctx, size_t begin, size_t end)
{
	struct row_classes *c = ctx;

	for (size_t r = begin; r < end; r++) {
		const char *name = c->rows[r].name;

		c->rows[r].key = metric_is_key(c->catalogue, name);
		c->zero[r] = metric_absent_means_zero(c->catalogue, name);
		c->failure[r] = lkp_failure_stat(name);
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
	classes = (struct row_classes){ cmp->catalogue, cmp->rows, zero,
					 failure };
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

bool metric_row_has(const struct metric_row *row, size_t nvariants,
		    enum verdict verdict)
{
	for (size_t v = 1; v < nvariants; v++)
		if (row->cells[v].verdict == verdict)
			return true;
	return false;
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
	for (size_t i = 0; v->boots && i < v->runs; i++)
		free(v->boots[i]);
	free(v->boots);
	v->boots = NULL;
	v->timing = NULL;
	for (size_t i = 0; i < v->nnotes; i++) {
		free(v->notes[i].run);
		free(v->notes[i].why);
	}
	free(v->notes);
	free(v->lkp_incomplete);
	v->run_names = NULL;
	v->notes = NULL;
	v->nnotes = 0;
	v->lkp_incomplete = NULL;
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
	key_results_release(&cmp->declared);
	free_params(cmp->params, cmp->nparams);
	free(cmp->name);
	free(cmp->testcase);
	free(cmp->host);
	free(cmp->axis);
	memset(cmp, 0, sizeof(*cmp));
}
