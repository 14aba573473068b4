/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_MATRIX_H
#define KDELTA_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
