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

/*
 * The change of sample b against the base a, with a confidence interval:
 * in percent of the base's magnitude (a rise positive even for a negative
 * base), or in points for metrics that are percentages already.
 */
struct change_interval {
	double estimate;	/* the change the interval is centred on */
	double low, high;	/* -INFINITY and INFINITY when unbounded */
	double df;		/* Fieller's degrees of freedom; 0 for
				 * Hodges-Lehmann, INFINITY when both samples
				 * are constant */
	double critical;	/* the quantile used: t, or U's rank */
	bool bounded;		/* false: the data bound no interval (a base
				 * mean indistinguishable from 0, too few runs
				 * for this level) */
};

/*
 * Fieller's interval of the ratio of the means, mean(b) / mean(a), with
 * Welch-Satterthwaite's degrees of freedom at the estimated ratio, as a
 * change in percent; or, with points, Welch's interval of the difference.
 * miss is the two-sided probability of missing the true change (0.05 for
 * a 95% interval).  hsu_df takes Hsu's conservative degrees of freedom,
 * min(na, nb) - 1, instead (sequential.c says why).  Needs na, nb >= 2
 * (returns -1 otherwise).
 */
int fieller_interval(const double *a, size_t na, const double *b, size_t nb,
		     double miss, bool points, bool hsu_df,
		     struct change_interval *out);
/*
 * The interval that goes with Mann-Whitney's test: Hodges-Lehmann's shift
 * (the median of the differences b[j] - a[i]) and Moses' distribution-free
 * interval (the differences ranked C and na*nb + 1 - C, C from U's exact
 * null distribution without ties and na + nb <= 40, else from its normal
 * approximation), in percent of the base's median, or in points.  Needs
 * na, nb >= 1.
 */
int hodges_lehmann_interval(const double *a, size_t na, const double *b,
			    size_t nb, double miss, bool points,
			    struct change_interval *out);

/*
 * The runs per sample at which a change like the one observed would be
 * decided with a 95% interval at the noise observed: an interval clear of 0
 * for a change of at least min_change, inside +-min_change for a smaller
 * one (so the interval's half-width must fall below |change|, or below
 * min_change - |change|).  From the samples' standard deviations (one
 * sample's when the other has fewer than 2 values), by the normal theory
 * of Welch's interval; for SIG_MWU times pi/3, the rank test's efficiency
 * on normal data, and at least 4, the fewest runs whose exact U gives a 95%
 * interval.  change and min_change in percent (or points).  0 when there
 * is no estimate (no spread known, or a change of exactly 0 to be shown
 * nonzero); RUNS_NEEDED_MAX + 1 when more would be needed.
 */
#define RUNS_NEEDED_MAX 10000
size_t runs_to_decide(const double *a, size_t na, const double *b, size_t nb,
		      double change, double min_change, bool points,
		      enum sig_test test);

/*
 * Runs far from the others of their sample: a modified z-score
 * |x - median| / (1.4826 MAD) above OUTLIER_Z (Iglewicz and Hoaglin, "How
 * to Detect and Handle Outliers", 1993), with the mean absolute deviation
 * times 1.2533 in place of a MAD of 0.  Sets is_outlier[i] (n entries),
 * z[i] when z is not NULL and *median when median is not NULL; returns how
 * many.  Fewer than 3 runs, or all alike: none.
 */
#define OUTLIER_Z 3.5
size_t find_outliers(const double *x, size_t n, bool *is_outlier, double *z,
		     double *median);

#endif
