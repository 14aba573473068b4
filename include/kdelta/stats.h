/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_STATS_H
#define KDELTA_STATS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Descriptive statistics and significance tests (GSL).  Pure functions on
 * arrays of samples; no I/O.
 */
struct sample_summary {
	size_t n;
	double mean;
	double stddev;		/* sample standard deviation (n - 1) */
	double rel_stddev;	/* 100 * stddev / |mean|; 0 when mean is 0 */
	double min, max;
	double median;
};

void summarize(const double *x, size_t n, struct sample_summary *out);

enum sig_test { SIG_WELCH, SIG_MWU, SIG_LKP };

struct test_result {
	double statistic;	/* t for Welch, U for Mann-Whitney */
	double df;		/* Welch's degrees of freedom; 0 otherwise */
	double p;		/* two-sided p-value; for SIG_LKP 0 or 1 */
	bool exact;		/* MWU: exact distribution used */
};

/* Welch's two-sided t-test of mean(a) != mean(b).  Needs na, nb >= 2. */
int welch_test(const double *a, size_t na, const double *b, size_t nb,
	       struct test_result *out);
/*
 * Mann-Whitney U, two-sided: exact for small samples without ties, normal
 * approximation with tie correction otherwise.
 */
int mwu_test(const double *a, size_t na, const double *b, size_t nb,
	     struct test_result *out);
/* lkp-tests' changed_stat interval heuristic: true when it calls a change. */
bool lkp_changed(const double *a, size_t na, const double *b, size_t nb);

/* Benjamini-Hochberg adjusted p-values (q-values), q[i] for p[i]. */
void bh_adjust(const double *p, size_t n, double *q);

#endif
