/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_MATRIX_H
#define KDELTA_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/compare.h"
#include "kdelta/err.h"
#include "kdelta/strbuf.h"

/*
 * One commit directory's results: matrix.json[.gz] ({"metric": [run0, run1,
 * ...], "stats_source": [...]}, the lkp-tests shape), or the same built from
 * the stats.json of its runs.  As lkp-tests reads them, a run that lacks a
 * metric has 0 there: a shorter array (lkp-tests saves its matrix before
 * padding what the last runs lacked) is padded with zeros up to
 * stats_source's length, and a stats.json lacking a metric is 0 in it.
 * Names are read as they are called today (metric_current_name()).
 */
struct matrix {
	size_t nruns;
	size_t nmetrics;
	char **names;		/* in file order */
	double *values;		/* nmetrics x nruns, row-major; NAN: no value
				 * in that run (null in a matrix kdelta wrote
				 * before it wrote lkp's form, or a short
				 * array without stats_source) */
	/*
	 * The runs lkp-tests marks incomplete (last_state.is_incomplete_run
	 * is 1): NULL when there are none.  Their performance stats are
	 * partial, and left out of comparisons.
	 */
	bool *incomplete;
	size_t nincomplete;
	/*
	 * Per metric: whether a run's value was written with a fraction or
	 * an exponent (2.0, 1e3), which Ruby reads as a Float; lkp-tests'
	 * compare treats a stat of Integers (2) otherwise (lkp-rules.h).
	 * NULL when not known: taken as fractions.
	 */
	bool *fractions;
	/*
	 * stats_source: what each run was read from (lkp-tests and kdelta
	 * name the run's stats.json), nruns of them; NULL when the file has
	 * none.
	 */
	char **sources;
};

/*
 * Parses matrix text (src/base/json-reader.c reads it straight into the
 * arrays); path is only for messages.
 */
int matrix_parse(const char *text, size_t len, const char *path,
		 struct matrix *out, struct kd_err *err);
/* Reads matrix.json or matrix.json.gz. */
int matrix_load(const char *path, struct matrix *out, struct kd_err *err);
/*
 * Builds a matrix from the stats.json files of runs, in the order given;
 * its sources are their paths.
 */
int matrix_from_stats(const char *const *stats_paths, size_t n,
		      struct matrix *out, struct kd_err *err);
/*
 * Appends the matrix as lkp-tests writes one, so that its compare reads
 * it: {"metric": [run0, ...], ..., "stats_source": [m->sources...]} with
 * the metrics sorted by name, every run a number (a run without a value,
 * NAN, is written as 0: lkp-tests cannot read null) in the shortest form
 * that reads back exactly.  Without sources, no stats_source.
 */
void matrix_to_json(const struct matrix *m, struct strbuf *out);
void matrix_release(struct matrix *m);

/*
 * Metric families: a key metric is a workload result, anything whose
 * source (the part before the first '.') is not a monitor -- one of kdelta's
 * (monitor_find()) or one of lkp-tests' well-known monitors.
 */
bool metric_is_key(const char *name);
/*
 * lkp-tests' failure stats (dmesg.*, kmsg.*, last_state.*, stderr.*): they
 * count every run, incomplete ones too.
 */
bool metric_is_failure_stat(const char *name);
/*
 * An event counter that its monitor reports as zero when nothing happened,
 * so that a run lacking it counts as zero, not as absent.
 */
bool metric_absent_means_zero(const char *name);

/*
 * Fills cmp->rows from one matrix per variant (cmp->nvariants of them):
 * the union of their metrics, each cell's samples (the values present) and
 * sum.n, NULL samples where a variant lacks the metric.  A failure stat's
 * cell holds every run; any other leaves out the incomplete runs.
 * It takes the matrices' names and values over (cells point into the
 * values where they can): the caller still releases the matrices, but
 * reads nothing more of them.
 */
void comparison_add_matrices(struct comparison *cmp,
			     struct matrix *const *matrices);
/* Frees a row: its cells' own samples, its name. */
void metric_row_release(struct metric_row *row, size_t nvariants);
/* Frees everything a comparison owns and zeroes it. */
void comparison_release(struct comparison *cmp);
/* Frees v's run names and notes (comparison_release() calls it). */
void variant_release_runs(struct variant *v);
/*
 * Keeps the rows for which keep(row, ctx) is true, in their order, and
 * frees the others.
 */
void comparison_keep_rows(struct comparison *cmp,
			  bool (*keep)(const struct metric_row *, void *),
			  void *ctx);

#endif
