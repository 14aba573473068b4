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
	double mean;		/* compensated sum / n: exact inputs give
				 * exact means (222.48, not 222.49; 0, not
				 * 1e-21) */
	double stddev;		/* sample standard deviation (n - 1) */
	double rel_stddev;	/* 100 * stddev / |mean|; 0 when mean is 0
				 * (unless stddev is not finite) */
	double pop_stddev;	/* population standard deviation (n), as
				 * lkp-tests prints it */
	double min, max;
	double median;
};

void summarize(const double *x, size_t n, struct sample_summary *out);

/*
 * The sum of x[0..n), compensated (Kahan-Babuska, Neumaier): exactly
 * rounded for a few runs' values, and bit for bit Ruby's Array#sum, which
 * lkp-tests' means divide by n.
 */
double compensated_sum(const double *x, size_t n);

enum sig_test { SIG_WELCH, SIG_MWU, SIG_LKP };

/*
 * "welch", "mwu", "lkp": the names "compare --test" takes and JSON prints,
 * indexed by enum sig_test, then NULL.
 */
extern const char *const sig_test_names[];

struct test_result {
	double statistic;	/* t for Welch (+-inf when both samples are
				 * constant and differ), U of sample a for
				 * Mann-Whitney, 0 for SIG_LKP */
	double df;		/* Welch's degrees of freedom; 0 otherwise */
	double p;		/* two-sided p-value; for SIG_LKP 0 or 1 */
	bool exact;		/* MWU: exact distribution used */
};

/*
 * Welch's two-sided t-test of mean(a) != mean(b).  Needs na, nb >= 2
 * (returns -1 otherwise).  Two constant samples: p = 1 when equal, 0 when
 * not.  Statistic, df and p are NaN when a mean or variance overflows
 * (samples like 1e308 and -1e308), and only then.
 */
int welch_test(const double *a, size_t na, const double *b, size_t nb,
	       struct test_result *out);
/*
 * Mann-Whitney U, two-sided: exact when there are no ties and na + nb <= 40,
 * otherwise the normal approximation with tie and continuity corrections
 * (scipy.stats.mannwhitneyu's "asymptotic").  Needs na, nb >= 1.
 */
int mwu_test(const double *a, size_t na, const double *b, size_t nb,
	     struct test_result *out);
/*
 * lkp-tests' changed_stat interval heuristic: true when it calls a change
 * between the base a and the compared sample b.
 */
bool lkp_changed(const double *a, size_t na, const double *b, size_t nb);

/*
 * A sample as lkp-tests summarizes it: sorted, a leading -1 ("no data")
 * dropped, n / 32 values trimmed at each end (at most max_margin), then
 * min, middle element (sorted[n / 2], LKP's "mean") and max of the n left.
 */
struct lkp_summary {
	size_t runs;		/* values given */
	size_t n;		/* values left; 0: empty, the rest is 0 */
	double min, middle, max;
};

void lkp_summarize(const double *x, size_t n, size_t max_margin,
		   struct lkp_summary *out);
/* The interval rule on two summaries. */
bool lkp_intervals_apart(const struct lkp_summary *base,
			 const struct lkp_summary *other);

/*
 * Benjamini-Hochberg adjusted p-values (q-values), q[i] for p[i]: step-up,
 * monotone in p, capped at 1.
 */
void bh_adjust(const double *p, size_t n, double *q);

#endif
