// SPDX-License-Identifier: GPL-2.0
/*
 * Descriptive statistics and the significance tests the comparer offers:
 * Welch's t-test, Mann-Whitney U, lkp-tests' interval heuristic, and the
 * Benjamini-Hochberg correction.  Distributions come from GSL; what GSL does
 * not have (the exact null distribution of U, ranks with ties, BH) is here.
 *
 * Reference values: scripts/gen-stats-ref.py computes them with scipy into
 * testdata/stats/reference.txt, which tests/stats/test-stats.c checks.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "kdelta/stats.h"
#include "kdelta/util.h"

/*
 * Samples are runs: a handful, rarely more than a few dozen.  Copies that
 * small live on the stack; larger ones are allocated.
 */
#define STACK_SAMPLES 64

const char *const sig_test_names[] = {
	[SIG_WELCH] = "welch",
	[SIG_MWU] = "mwu",
	[SIG_LKP] = "lkp",
	[SIG_LKP + 1] = NULL,
};

static double *sorted_copy(const double *x, size_t n, double *stack_buf)
{
	double *copy = n <= STACK_SAMPLES ? stack_buf : xmalloc(n * sizeof(*x));

	memcpy(copy, x, n * sizeof(*x));
	gsl_sort(copy, 1, n);
	return copy;
}

static void free_copy(double *copy, const double *stack_buf)
{
	if (copy != stack_buf)
		free(copy);
}

double compensated_sum(const double *x, size_t n)
{
	double sum = 0, lost = 0;

	for (size_t i = 0; i < n; i++) {
		double t = sum + x[i];

		if (!isfinite(t)) {
			/* no compensating an infinity or a NaN */
			sum = t;
			lost = 0;
			continue;
		}
		if (fabs(sum) >= fabs(x[i]))
			lost += (sum - t) + x[i];
		else
			lost += (x[i] - t) + sum;
		sum = t;
	}
	return sum + lost;
}

/*
 * The compensated sum over n; when the sum overflows (1e308 + 1e308), the
 * running mean, which does not.
 */
static double sample_mean(const double *x, size_t n)
{
	double mean = compensated_sum(x, n) / (double)n;

	return isfinite(mean) ? mean : gsl_stats_mean(x, 1, n);
}

/*
 * The population standard deviation the way lkp-tests computes it (sum of
 * squared deviations, in order, times 1/n), so that its truncated percent
 * is lkp-tests' to the last digit.
 */
static double population_stddev(const double *x, size_t n, double mean)
{
	double squares = 0;

	for (size_t i = 0; i < n; i++)
		squares += (x[i] - mean) * (x[i] - mean);
	return sqrt(1 / (double)n * squares);
}

void summarize(const double *x, size_t n, struct sample_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->n = n;
	if (!n)
		return;
	/*
	 * Not GSL's running mean: it prints 222.49 for runs whose exact mean
	 * is 222.48, and 1e-21 for values that sum to 0.
	 */
	out->mean = sample_mean(x, n);
	/* GSL divides by n - 1: one sample has no spread, not a NaN one. */
	out->stddev = n > 1 ? gsl_stats_sd_m(x, 1, n, out->mean) : 0;
	out->pop_stddev = population_stddev(x, n, out->mean);
	/* A spread beyond double precision stays visible in rel_stddev. */
	if (out->mean != 0 || !isfinite(out->stddev))
		out->rel_stddev = 100 * out->stddev / fabs(out->mean);
	out->min = out->max = x[0];
	for (size_t i = 1; i < n; i++) {
		out->min = fmin(out->min, x[i]);
		out->max = fmax(out->max, x[i]);
	}
}

/* Two-sided p of Student's t with df degrees of freedom. */
static double t_two_sided(double t, double df)
{
	double p = 2 * gsl_cdf_tdist_Q(fabs(t), df);

	return p > 1 ? 1 : p;
}

int welch_test(const double *a, size_t na, const double *b, size_t nb,
	       struct test_result *out)
{
	double mean_a, mean_b, va, vb, se2, fa, fb;

	memset(out, 0, sizeof(*out));
	if (na < 2 || nb < 2)
		return -1;
	mean_a = sample_mean(a, na);
	mean_b = sample_mean(b, nb);
	va = gsl_stats_variance_m(a, 1, na, mean_a) / na;
	vb = gsl_stats_variance_m(b, 1, nb, mean_b) / nb;
	se2 = va + vb;
	if (!isfinite(mean_a) || !isfinite(mean_b) || !isfinite(se2)) {
		/* Beyond double precision (1e308 and -1e308): no test. */
		out->statistic = out->df = out->p = NAN;
		return 0;
	}
	if (se2 == 0) {
		/*
		 * Both samples constant: the t statistic is 0/0 or x/0.  Equal
		 * constants are the same (p = 1); different constants differ
		 * beyond any doubt (p = 0, t infinite).  df is what it would
		 * be with equal variances.
		 */
		out->df = (double)(na + nb - 2);
		if (mean_a == mean_b) {
			out->p = 1;
		} else {
			out->statistic = mean_a > mean_b ? INFINITY : -INFINITY;
			out->p = 0;
		}
		return 0;
	}
	out->statistic = (mean_a - mean_b) / sqrt(se2);
	/*
	 * Welch-Satterthwaite, with the variances as fractions of se2: their
	 * squares would underflow to 0/0 for samples of magnitude 1e-120.
	 */
	fa = va / se2;
	fb = vb / se2;
	out->df = 1 / (fa * fa / (double)(na - 1) + fb * fb / (double)(nb - 1));
	out->p = t_two_sided(out->statistic, out->df);
	return 0;
}

/*
 * Mann-Whitney U.
 *
 * Ranks: the samples of both groups sorted together, tied values sharing
 * the average of their ranks (scipy.stats.rankdata's "average").  Returns
 * the rank sum of sample a and stores sum(t^3 - t) over the groups of t
 * tied values in *tie_term (0 without ties).
 */
static double rank_sum_a(const double *a, size_t na, const double *b,
			 size_t nb, double *tie_term)
{
	double stack_a[STACK_SAMPLES], stack_b[STACK_SAMPLES];
	double *sa = sorted_copy(a, na, stack_a);
	double *sb = sorted_copy(b, nb, stack_b);
	double rank_sum = 0, ranked = 0;
	size_t i = 0, j = 0;

	*tie_term = 0;
	while (i < na || j < nb) {
		double v = j == nb || (i < na && sa[i] < sb[j]) ? sa[i] : sb[j];
		double in_a = 0, in_b = 0, t;

		for (; i < na && sa[i] == v; i++)
			in_a++;
		for (; j < nb && sb[j] == v; j++)
			in_b++;
		t = in_a + in_b;
		/* these t values hold ranks ranked + 1 .. ranked + t */
		rank_sum += in_a * (ranked + (t + 1) / 2);
		*tie_term += t * t * t - t;
		ranked += t;
	}
	free_copy(sa, stack_a);
	free_copy(sb, stack_b);
	return rank_sum;
}

/*
 * The exact null distribution of U for samples of m and n without ties:
 * count[u] is the number of the C(m+n, m) rank arrangements with U = u.
 * These counts are the coefficients of the Gaussian binomial coefficient
 *	[m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i),
 * computed as power series truncated after q^(mn), which is exact because
 * the product is a polynomial of degree mn.  Every intermediate coefficient
 * is an integer below 2 * C(m+n, m), exactly representable in a double as
 * long as m + n <= MWU_EXACT_MAX.
 */
#define MWU_EXACT_MAX 40

static double *mwu_exact_counts(size_t m, size_t n)
{
	size_t len = m * n + 1;
	double *count = xcalloc(len, sizeof(*count));

	count[0] = 1;
	for (size_t i = 1; i <= m; i++) {
		size_t up = n + i, down = i;

		for (size_t k = len; k-- > up;)
			count[k] -= count[k - up];
		for (size_t k = down; k < len; k++)
			count[k] += count[k - down];
	}
	return count;
}

static double mwu_exact_sf(size_t m, size_t n, size_t u)
{
	size_t len = m * n + 1;
	double *count = mwu_exact_counts(m, n);
	double tail = 0, total = 0;

	for (size_t k = 0; k < len; k++) {
		total += count[k];
		if (k >= u)
			tail += count[k];
	}
	free(count);
	return tail / total;
}

int mwu_test(const double *a, size_t na, const double *b, size_t nb,
	     struct test_result *out)
{
	double n = (double)(na + nb), mn = (double)na * (double)nb;
	double tie_term, u1, u_max, sigma, z;

	memset(out, 0, sizeof(*out));
	if (!na || !nb)
		return -1;
	u1 = rank_sum_a(a, na, b, nb, &tie_term) - (double)na * (na + 1) / 2;
	out->statistic = u1;
	u_max = u1 > mn - u1 ? u1 : mn - u1;
	if (tie_term == 0 && na + nb <= MWU_EXACT_MAX) {
		out->exact = true;
		out->p = 2 * mwu_exact_sf(na, nb, (size_t)u_max);
	} else {
		/*
		 * Normal approximation with the tie correction of the variance
		 * and a continuity correction of 1/2, as
		 * scipy.stats.mannwhitneyu(method="asymptotic").
		 */
		sigma = sqrt(mn / 12 * ((n + 1) - tie_term / (n * (n - 1))));
		if (sigma == 0) {	/* every value the same */
			out->p = 1;
			return 0;
		}
		z = (u_max - mn / 2 - 0.5) / sigma;
		out->p = 2 * gsl_cdf_ugaussian_Q(z);
	}
	if (out->p > 1)
		out->p = 1;
	return 0;
}

/*
 * lkp-tests' interval heuristic, as in intel/lkp-tests lib/stats.rb
 * (StatCompare#calculate_matrix_values, sort_remove_margin, min_mean_max;
 * commit 08810328) and lib/changed_stat.rb (ChangedStat#change?; commit
 * 2409d6a4), 2024-2025, with the options its compare uses by default (no
 * "gap", "distance" or "variance").  LKP calls the base b and the new
 * commit a; here a is the base.
 *
 * Each sample is sorted and trimmed by size/32 values at each end (at most
 * 3; at most 1 for the compared sample when the base has 3 runs or fewer),
 * then summarized as min, "mean" and max, where LKP's "mean" is the element
 * in the middle, sorted[size / 2] (a leading -1, LKP's "no data", is
 * dropped first).  A change is called when the compared sample lies above
 * the base in this sense:
 *	other.min > base.middle && other.middle > base.max
 * or below it in the mirrored sense.  LKP's further filters (which stats
 * it compares, a ratio of the middles, its thresholds) are in lkp-rules.c.
 */
void lkp_summarize(const double *x, size_t n, size_t max_margin,
		   struct lkp_summary *out)
{
	double stack_buf[STACK_SAMPLES];
	double *sorted = n ? sorted_copy(x, n, stack_buf) : stack_buf;
	size_t first = 0, margin = n >> 5;

	/* lkp-tests drops a leading -1: "no data" */
	while (first < n && sorted[first] == -1)
		first++;
	if (margin > max_margin)
		margin = max_margin;
	memset(out, 0, sizeof(*out));
	out->runs = n;
	if (n - first > 2 * margin) {
		const double *kept = sorted + first + margin;

		out->n = n - first - 2 * margin;
		out->min = kept[0];
		out->middle = kept[out->n / 2];
		out->max = kept[out->n - 1];
	}
	if (n)
		free_copy(sorted, stack_buf);
}

bool lkp_intervals_apart(const struct lkp_summary *base,
			 const struct lkp_summary *other)
{
	if (other->min > base->middle && other->middle > base->max)
		return true;
	if (base->min > other->middle && base->middle > other->max)
		return true;
	return false;
}

bool lkp_changed(const double *a, size_t na, const double *b, size_t nb)
{
	struct lkp_summary base, other;

	lkp_summarize(a, na, 3, &base);
	lkp_summarize(b, nb, na <= 3 ? 1 : 3, &other);
	return base.n && other.n && lkp_intervals_apart(&base, &other);
}

/*
 * Benjamini-Hochberg step-up: with p sorted ascending, q(i) = min over
 * j >= i of p(j) * n / j, capped at 1, so that q is monotone in p.
 */
static int cmp_index_by_p(const void *x, const void *y, void *p_array)
{
	const double *p = p_array;
	double px = p[*(const size_t *)x], py = p[*(const size_t *)y];

	return (px > py) - (px < py);
}

void bh_adjust(const double *p, size_t n, double *q)
{
	size_t *order;
	double running = 1;

	if (!n)
		return;
	order = xmalloc(n * sizeof(*order));
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), cmp_index_by_p, (void *)p);
	for (size_t k = n; k > 0; k--) {
		size_t i = order[k - 1];
		double adjusted = p[i] * (double)n / (double)k;

		if (adjusted < running)
			running = adjusted;
		q[i] = running;
	}
	free(order);
}

/*
 * Intervals of the change.
 *
 * Why Fieller's interval of the ratio of means: the change a table shows is
 * mean(b) / mean(a) - 1, and Fieller's is the interval of exactly that
 * ratio for normal samples -- the set of ratios rho that Welch's t-test
 * would not reject for the difference mean(b) - rho * mean(a).  So at
 * rho = 1 it is Welch's test itself (the interval excludes 0% when the
 * test is significant at the same level, up to the degrees of freedom), it
 * needs no positive means (a log-ratio interval does), and when the base's
 * mean is itself indistinguishable from 0 it says so by being unbounded,
 * where the delta method would print a finite interval that means nothing.
 * The degrees of freedom are Welch-Satterthwaite's at the estimated ratio
 * (the "Fieller-Welch" interval of Tamhane and Logan, 2004).
 */
static void interval_unbounded(struct change_interval *out)
{
	out->low = -INFINITY;
	out->high = INFINITY;
	out->bounded = false;
}

/* Percent of the base's magnitude from the ratio rho = b / a. */
static double ratio_to_change(double rho, double base)
{
	return base > 0 ? 100 * (rho - 1) : 100 * (1 - rho);
}

static void sample_moments(const double *x, size_t n, double *mean,
			   double *var_of_mean)
{
	*mean = gsl_stats_mean(x, 1, n);
	*var_of_mean = gsl_stats_variance_m(x, 1, n, *mean) / (double)n;
}

/* Welch-Satterthwaite from the two variances, as fractions of their sum. */
static double satterthwaite(double va, size_t na, double vb, size_t nb)
{
	double sum = va + vb, fa = va / sum, fb = vb / sum;

	return 1 / (fa * fa / (double)(na - 1) + fb * fb / (double)(nb - 1));
}

static double t_critical(double miss, double df)
{
	return isinf(df) ? gsl_cdf_ugaussian_Qinv(miss / 2)
			 : gsl_cdf_tdist_Qinv(miss / 2, df);
}

/*
 * Welch-Satterthwaite's degrees of freedom for the variances va and vb of
 * the means, or Hsu's conservative min(na, nb) - 1.
 */
static double interval_df(double va, size_t na, double vb, size_t nb,
			  bool hsu_df)
{
	if (!(va + vb > 0))
		return INFINITY;
	if (hsu_df)
		return (double)(na < nb ? na : nb) - 1;
	return satterthwaite(va, na, vb, nb);
}

static void difference_interval(double ma, double va, size_t na, double mb,
				double vb, size_t nb, double miss, bool hsu_df,
				struct change_interval *out)
{
	double half;

	out->estimate = mb - ma;
	out->df = interval_df(va, na, vb, nb, hsu_df);
	out->critical = t_critical(miss, out->df);
	half = out->critical * sqrt(va + vb);
	out->low = out->estimate - half;
	out->high = out->estimate + half;
	out->bounded = true;
}

/*
 * With r = mb / ma and the variances of the means relative to ma^2,
 * ga = va / ma^2 and gb = vb / ma^2, the ratios rho with
 * (mb - rho ma)^2 <= t^2 (vb + rho^2 va) are those between
 *	(r -+ t sqrt(gb (1 - t^2 ga) + ga r^2)) / (1 - t^2 ga),
 * an interval when 1 - t^2 ga > 0, that is when the base's mean differs
 * from 0 at this level; otherwise the set is unbounded.
 */
static void ratio_interval(double ma, double va, size_t na, double mb,
			   double vb, size_t nb, double miss, bool hsu_df,
			   struct change_interval *out)
{
	double r = mb / ma, ga = va / (ma * ma), gb = vb / (ma * ma);
	double t, a, root, lo, hi;

	out->estimate = ratio_to_change(r, ma);
	out->df = interval_df(r * r * ga, na, gb, nb, hsu_df);
	out->critical = t = t_critical(miss, out->df);
	a = 1 - t * t * ga;
	if (!(a > 0) || !isfinite(r)) {
		interval_unbounded(out);
		return;
	}
	root = t * sqrt(gb * a + ga * r * r);
	lo = ratio_to_change((r - root) / a, ma);
	hi = ratio_to_change((r + root) / a, ma);
	out->low = fmin(lo, hi);
	out->high = fmax(lo, hi);
	out->bounded = isfinite(out->low) && isfinite(out->high);
	if (!out->bounded)
		interval_unbounded(out);
}

int fieller_interval(const double *a, size_t na, const double *b, size_t nb,
		     double miss, bool points, bool hsu_df,
		     struct change_interval *out)
{
	double ma, va, mb, vb;

	memset(out, 0, sizeof(*out));
	if (na < 2 || nb < 2) {
		interval_unbounded(out);
		return -1;
	}
	sample_moments(a, na, &ma, &va);
	sample_moments(b, nb, &mb, &vb);
	if (points)
		difference_interval(ma, va, na, mb, vb, nb, miss, hsu_df, out);
	else if (ma == 0 && mb == 0 && va == 0 && vb == 0) {
		out->bounded = true;	/* 0 in every run of both: no change */
		out->df = INFINITY;
	} else if (ma == 0) {
		out->estimate = mb == 0 ? 0 : NAN;
		interval_unbounded(out);
	} else
		ratio_interval(ma, va, na, mb, vb, nb, miss, hsu_df, out);
	return 0;
}

/*
 * Moses' rank C: the largest c with P(U <= c - 1) <= miss / 2 under the
 * null hypothesis, so that the differences ranked c and na*nb + 1 - c
 * bound an interval of confidence at least 1 - miss.  0 when even the
 * extreme differences do not (3 runs against 3 at 95%).
 */
static size_t moses_rank(size_t na, size_t nb, bool ties, double miss)
{
	size_t len = na * nb + 1, c = 0;
	double mn = (double)na * (double)nb, z, approx;

	if (!ties && na + nb <= MWU_EXACT_MAX) {
		double *count = mwu_exact_counts(na, nb), total = 0, below = 0;

		for (size_t k = 0; k < len; k++)
			total += count[k];
		/* P(U <= c) = below / total, adding count[c] as c grows */
		while (c < len && (below + count[c]) / total <= miss / 2)
			below += count[c++];
		free(count);
		return c;
	}
	z = gsl_cdf_ugaussian_Qinv(miss / 2);
	approx = floor(mn / 2 - z * sqrt(mn * (double)(na + nb + 1) / 12));
	return approx > 0 ? (size_t)approx : 0;
}

static bool has_ties(const double *a, size_t na, const double *b, size_t nb)
{
	double tie_term;

	rank_sum_a(a, na, b, nb, &tie_term);
	return tie_term != 0;
}

static double median_of(const double *x, size_t n)
{
	double stack_buf[STACK_SAMPLES];
	double *sorted = sorted_copy(x, n, stack_buf);
	double median = gsl_stats_median_from_sorted_data(sorted, 1, n);

	free_copy(sorted, stack_buf);
	return median;
}

int hodges_lehmann_interval(const double *a, size_t na, const double *b,
			    size_t nb, double miss, bool points,
			    struct change_interval *out)
{
	size_t n = na * nb, c;
	double *diff, scale = 1;

	memset(out, 0, sizeof(*out));
	interval_unbounded(out);
	if (!na || !nb)
		return -1;
	if (!points) {
		double median = median_of(a, na);

		scale = median != 0 ? 100 / fabs(median) : NAN;
	}
	diff = xmalloc(n * sizeof(*diff));
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			diff[i * nb + j] = b[j] - a[i];
	gsl_sort(diff, 1, n);
	out->estimate = gsl_stats_median_from_sorted_data(diff, 1, n) * scale;
	if (isnan(scale) && out->estimate == 0)
		out->estimate = NAN;
	c = moses_rank(na, nb, has_ties(a, na, b, nb), miss);
	out->critical = (double)c;
	if (c && isfinite(scale)) {
		out->low = diff[c - 1] * scale;
		out->high = diff[n - c] * scale;
		out->bounded = isfinite(out->low) && isfinite(out->high);
		if (!out->bounded)
			interval_unbounded(out);
	}
	free(diff);
	return 0;
}

/*
 * Runs per sample: the smallest n at which t(0.975, 2n - 2) * se(n) falls
 * below the half-width wanted, se(n) = sigma / sqrt(n), sigma the standard
 * error of the change with one run per sample.
 */
static size_t runs_for_half_width(double sigma, double half)
{
	double z = gsl_cdf_ugaussian_Qinv(0.025);
	double start = floor((z * sigma / half) * (z * sigma / half));
	size_t n;

	if (!(start <= RUNS_NEEDED_MAX))
		return RUNS_NEEDED_MAX + 1;
	n = start > 2 ? (size_t)start : 2;
	while (n <= RUNS_NEEDED_MAX &&
	       !(gsl_cdf_tdist_Qinv(0.025, 2.0 * (double)n - 2) * sigma /
			 sqrt((double)n) <
		 half))
		n++;
	return n;
}

size_t runs_to_decide(const double *a, size_t na, const double *b, size_t nb,
		      double change, double min_change, bool points,
		      enum sig_test test)
{
	double ma = na ? gsl_stats_mean(a, 1, na) : 0;
	double mb = nb ? gsl_stats_mean(b, 1, nb) : 0;
	double va = na >= 2 ? gsl_stats_variance_m(a, 1, na, ma) : NAN;
	double vb = nb >= 2 ? gsl_stats_variance_m(b, 1, nb, mb) : NAN;
	double half, sigma;
	size_t n;

	if (isnan(va))
		va = vb;
	if (isnan(vb))
		vb = va;
	if (isnan(va) || !isfinite(change))
		return 0;
	/* the ratio's delta-method variance, relative to the base's mean */
	if (points)
		sigma = sqrt(va + vb);
	else if (ma != 0)
		sigma = 100 * sqrt(vb + (mb / ma) * (mb / ma) * va) / fabs(ma);
	else
		return 0;
	half = fabs(change) >= min_change ? fabs(change)
					  : min_change - fabs(change);
	if (!(half > 0) || !isfinite(sigma))
		return 0;
	n = sigma > 0 ? runs_for_half_width(sigma, half) : 2;
	if (test == SIG_MWU && n <= RUNS_NEEDED_MAX) {
		n = (size_t)ceil((double)n * M_PI / 3);
		if (n < 4)
			n = 4;
	}
	return n > RUNS_NEEDED_MAX ? RUNS_NEEDED_MAX + 1 : n;
}

size_t find_outliers(const double *x, size_t n, bool *is_outlier, double *z,
		     double *median_out)
{
	double *d, median, scale, mean_dev = 0;
	size_t found = 0;

	memset(is_outlier, 0, n * sizeof(*is_outlier));
	if (n < 3)
		return 0;
	d = xmalloc(n * sizeof(*d));
	median = median_of(x, n);
	if (median_out)
		*median_out = median;
	for (size_t i = 0; i < n; i++) {
		d[i] = fabs(x[i] - median);
		mean_dev += d[i] / (double)n;
	}
	scale = 1.4826 * median_of(d, n);
	if (scale == 0)
		scale = 1.2533 * mean_dev;
	for (size_t i = 0; scale > 0 && isfinite(scale) && i < n; i++) {
		double score = fabs(x[i] - median) / scale;

		if (z)
			z[i] = score;
		is_outlier[i] = score > OUTLIER_Z;
		found += is_outlier[i];
	}
	free(d);
	return found;
}
