// SPDX-License-Identifier: GPL-2.0
/*
 * Group-sequential boundaries by alpha spending, and the decision at one
 * look (kdelta/sequential.h).
 *
 * The boundaries: under no change, the score S(t) = Z(t) sqrt(t) of the
 * looks is Brownian motion in the information fraction t.  The density of
 * S at look j among the paths that have not crossed a boundary before,
 * f_j, is f_{j-1} convolved with the normal density of the increment,
 * N(0, t_j - t_{j-1}), and cut to the continuation region
 * |s| < z_j sqrt(t_j).  The boundary z_j is the value at which the mass of
 * the paths that cross at look j, the integral of f_{j-1} times the normal
 * tails beyond +-z_j sqrt(t_j), equals the alpha spent since look j - 1.
 * Every integral is Simpson's rule on a grid whose spacing is an eighth of
 * the smallest increment's standard deviation it meets; the normal kernel
 * is cut at 8 standard deviations.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_roots.h>

#include "kdelta/sequential.h"
#include "kdelta/util.h"

/* Grid points per standard deviation of an increment. */
#define GRID_PER_SD 8
/* The normal kernel and an unbounded region are cut at this many sds. */
#define KERNEL_SDS 8.0
#define REGION_SDS 8.5
/* Boundaries are searched between 0 and this. */
#define Z_MAX 40.0

const char *const seq_spending_names[] = {
	[SEQ_OBRIEN_FLEMING] = "obrien-fleming",
	[SEQ_POCOCK] = "pocock",
	[SEQ_POCOCK + 1] = NULL,
};

double seq_alpha_spent(enum seq_spending spending, double alpha, double t)
{
	if (!(t > 0))
		return 0;
	if (t >= 1)
		return alpha;
	if (spending == SEQ_POCOCK)
		return alpha * log(1 + (M_E - 1) * t);
	/* each side spends half, as ldbounds and gsDesign do */
	return 4 * gsl_cdf_ugaussian_Q(gsl_cdf_ugaussian_Qinv(alpha / 4) /
				       sqrt(t));
}

/* A density of S on an odd number of equally spaced points from lo. */
struct grid {
	double lo, step;
	size_t n;
	double *f;
};

static double simpson_weight(size_t i, size_t n, double step)
{
	if (i == 0 || i == n - 1)
		return step / 3;
	return (i % 2 ? 4 : 2) * step / 3;
}

/* An odd number of points covering [-half, half] at most step apart. */
static void grid_init(struct grid *g, double half, double step)
{
	size_t intervals = (size_t)ceil(2 * half / step);

	if (intervals < 2)
		intervals = 2;
	intervals += intervals % 2;
	g->n = intervals + 1;
	g->step = 2 * half / (double)intervals;
	g->lo = -half;
	g->f = xcalloc(g->n, sizeof(*g->f));
}

static double grid_x(const struct grid *g, size_t i)
{
	return g->lo + (double)i * g->step;
}

/* The continuation region's half-width at boundary z and fraction t. */
static double region_half(double z, double t)
{
	return fmin(z, REGION_SDS) * sqrt(t);
}

/* What crossing at look j needs: the previous density and the increment. */
struct crossing {
	const struct grid *prev;
	double sqrt_t, sd;	/* sqrt(t_j), sd of the increment */
	double target;		/* the alpha to spend at look j */
};

/* The mass of the paths that cross +-z at look j, minus the target. */
static double crossing_excess(double z, void *arg)
{
	const struct crossing *c = arg;
	const struct grid *g = c->prev;
	double edge = z * c->sqrt_t, mass = 0;

	for (size_t i = 0; i < g->n; i++) {
		double u = grid_x(g, i);

		mass += simpson_weight(i, g->n, g->step) * g->f[i] *
			(gsl_cdf_ugaussian_Q((edge - u) / c->sd) +
			 gsl_cdf_ugaussian_Q((edge + u) / c->sd));
	}
	return mass - c->target;
}

/* The z at which the crossing mass is the target, by Brent's method. */
static double solve_boundary(struct crossing *c)
{
	gsl_function fn = { crossing_excess, c };
	gsl_root_fsolver *s;
	double lo = 0, hi = Z_MAX, z = Z_MAX;

	if (!(c->target > 0) || crossing_excess(Z_MAX, c) >= 0)
		return INFINITY;
	if (crossing_excess(0, c) <= 0)
		return 0;
	s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
	gsl_root_fsolver_set(s, &fn, lo, hi);
	for (int iter = 0; iter < 200; iter++) {
		if (gsl_root_fsolver_iterate(s))
			break;
		z = gsl_root_fsolver_root(s);
		lo = gsl_root_fsolver_x_lower(s);
		hi = gsl_root_fsolver_x_upper(s);
		if (gsl_root_test_interval(lo, hi, 1e-10, 0) == GSL_SUCCESS)
			break;
	}
	gsl_root_fsolver_free(s);
	return z;
}

/* next = prev convolved with N(0, sd^2), on next's points. */
static void convolve(const struct grid *prev, double sd, struct grid *next)
{
	double reach = KERNEL_SDS * sd;

	for (size_t i = 0; i < next->n; i++) {
		double s = grid_x(next, i), sum = 0;
		double from = (s - reach - prev->lo) / prev->step;
		double to = (s + reach - prev->lo) / prev->step;
		size_t first = from > 0 ? (size_t)from : 0;
		size_t last = to < (double)(prev->n - 1) ? (size_t)ceil(to)
							 : prev->n - 1;

		double h = prev->step, u, pdf, ratio, shrink;

		if (to < 0)
			continue;
		/*
		 * The kernel along the row by recurrence, two products a
		 * point instead of an exp(): with u = s - x_k,
		 * pdf(u - h) = pdf(u) ratio_k, ratio_k = exp(u h / sd^2 -
		 * h^2 / 2 sd^2), ratio_{k+1} = ratio_k exp(-h^2 / sd^2).
		 */
		u = s - grid_x(prev, first);
		pdf = gsl_ran_gaussian_pdf(u, sd);
		ratio = exp((u * h - h * h / 2) / (sd * sd));
		shrink = exp(-h * h / (sd * sd));
		for (size_t k = first; k <= last && k < prev->n; k++) {
			sum += simpson_weight(k, prev->n, h) * prev->f[k] * pdf;
			pdf *= ratio;
			ratio *= shrink;
		}
		next->f[i] = sum;
	}
}

void seq_boundaries(enum seq_spending spending, double alpha, const double *t,
		    size_t k, double *z)
{
	struct grid cur = { 0 }, next;
	double spent = 0, t_prev = 0;

	for (size_t j = 0; j < k; j++) {
		double tj = fmin(t[j], 1), sd = sqrt(tj - t_prev);
		double target = seq_alpha_spent(spending, alpha, tj) - spent;
		double next_sd, step;

		if (!(tj > t_prev)) {
			z[j] = INFINITY;	/* no information added */
			continue;
		}
		if (!j) {
			z[j] = gsl_cdf_ugaussian_Qinv(target / 2);
		} else {
			struct crossing c = { &cur, sqrt(tj), sd, target };

			z[j] = solve_boundary(&c);
		}
		spent += target;
		if (j + 1 == k)
			break;
		/* the density of the paths still going, for the next look */
		next_sd = sqrt(fmax(fmin(t[j + 1], 1) - tj, 0));
		step = (next_sd > 0 ? fmin(sd, next_sd) : sd) / GRID_PER_SD;
		grid_init(&next, region_half(z[j], tj), step);
		if (!j)
			for (size_t i = 0; i < next.n; i++)
				next.f[i] = gsl_ran_gaussian_pdf(
					grid_x(&next, i), sd);
		else
			convolve(&cur, sd, &next);
		free(cur.f);
		cur = next;
		t_prev = tj;
	}
	free(cur.f);
}

double seq_boundary(enum seq_spending spending, double alpha, const double *t,
		    size_t k, bool last)
{
	double *tt, *z, ret;

	if (!k)
		return INFINITY;
	tt = xmalloc(k * sizeof(*tt));
	z = xmalloc(k * sizeof(*z));
	memcpy(tt, t, k * sizeof(*tt));
	if (last && (k == 1 || tt[k - 2] < 1))
		tt[k - 1] = 1;
	seq_boundaries(spending, alpha, tt, k, z);
	ret = z[k - 1];
	free(tt);
	free(z);
	return ret;
}

double seq_information(const struct seq_look *look, size_t max_runs)
{
	double na = (double)look->base_runs, nb = (double)look->runs;

	if (!look->base_runs || !look->runs || !max_runs)
		return 0;
	return (na * nb / (na + nb)) / ((double)max_runs / 2);
}

const char *seq_verdict_name(enum seq_verdict verdict)
{
	static const char *const names[] = {
		[SEQ_CONTINUE] = "continue",
		[SEQ_CHANGED] = "changed",
		[SEQ_SAME] = "same",
		[SEQ_UNDECIDED] = "undecided",
	};

	return names[verdict];
}

void seq_result_begin(struct seq_result *out, double z, bool last)
{
	memset(out, 0, sizeof(*out));
	out->z = z;
	out->level = isfinite(z) ? 2 * gsl_cdf_ugaussian_Q(z) : 0;
	out->verdict = last ? SEQ_UNDECIDED : SEQ_CONTINUE;
	out->ci.low = -INFINITY;
	out->ci.high = INFINITY;
}

void seq_result_decide(const struct seq_design *d, int direction,
		       struct seq_result *out)
{
	const struct change_interval *ci = &out->ci;

	if (!ci->bounded)
		return;
	if (direction) {
		double toward = direction > 0 ? ci->low : -ci->high;
		double beyond = direction > 0 ? ci->high : -ci->low;

		if (toward > 0 && direction * ci->estimate >= d->min_change)
			out->verdict = SEQ_CHANGED;
		else if (beyond < d->min_change)
			out->verdict = SEQ_SAME;
		return;
	}
	if ((ci->low > 0 || ci->high < 0) &&
	    fabs(ci->estimate) >= d->min_change)
		out->verdict = SEQ_CHANGED;
	else if (ci->low > -d->min_change && ci->high < d->min_change)
		out->verdict = SEQ_SAME;
}

void seq_judge(const struct seq_design *d, double z, bool last,
	       const double *a, size_t na, const double *b, size_t nb,
	       struct seq_result *out)
{
	seq_result_begin(out, z, last);
	if (na < 2 || nb < 2 || !(out->level > 0))
		return;
	fieller_interval(a, na, b, nb, out->level, d->points, true, &out->ci);
	seq_result_decide(d, 0, out);
}

int seq_decide(const struct seq_design *d, const struct seq_look *looks,
	       size_t k, const double *a, size_t na, const double *b,
	       size_t nb, struct seq_result *out)
{
	double *t, z;
	bool last;

	if (!k || looks[k - 1].base_runs != na || looks[k - 1].runs != nb)
		return -1;
	t = xmalloc(k * sizeof(*t));
	for (size_t j = 0; j < k; j++)
		t[j] = seq_information(&looks[j], d->max_runs);
	last = na >= d->max_runs && nb >= d->max_runs;
	z = seq_boundary(d->spending, d->alpha, t, k, last);
	seq_judge(d, z, last, a, na, b, nb, out);
	free(t);
	return 0;
}

void seq_design_init(struct seq_design *d, size_t max_runs,
		     double min_change, bool points)
{
	*d = (struct seq_design){
		.spending = SEQ_OBRIEN_FLEMING, .alpha = SEQ_ALPHA,
		.max_runs = max_runs, .min_change = min_change,
		.points = points,
	};
}
