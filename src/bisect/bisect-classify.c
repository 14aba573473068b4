// SPDX-License-Identifier: GPL-2.0
/*
 * Classifying a commit during a bisection: on good's side of the midpoint
 * between good and bad, on bad's, or not yet known.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "kdelta/bisect-classify.h"
#include "kdelta/sequential.h"
#include "kdelta/stats.h"
#include "kdelta/util.h"

static const char *const class_names[] = {
	[BISECT_UNDECIDED] = "skip",
	[BISECT_GOOD] = "good",
	[BISECT_BAD] = "bad",
};

const char *bisect_class_name(enum bisect_class verdict)
{
	return class_names[verdict];
}

/* 1 / (1/n_x + 1/(4 n_good) + 1/(4 n_bad)) */
static double information(size_t n_good, size_t n_bad, size_t n_x)
{
	if (!n_good || !n_bad || !n_x)
		return 0;
	return 1 / (1.0 / n_x + 1 / (4.0 * n_good) + 1 / (4.0 * n_bad));
}

double bisect_information(const struct bisect_look *look, size_t max_runs)
{
	return information(look->n_good, look->n_bad, look->n_x) /
	       information(max_runs, max_runs, max_runs);
}

void bisect_judge(double z, const struct bisect_samples *good,
		  const struct bisect_samples *bad,
		  const struct bisect_samples *x,
		  struct bisect_classification *out)
{
	struct sample_summary g, b, s;
	double vx, vg, vb, se, span, reach;

	memset(out, 0, sizeof(*out));
	out->verdict = BISECT_UNDECIDED;
	out->position = NAN;
	out->low = -INFINITY;
	out->high = INFINITY;
	out->z = z;
	out->level = isfinite(z) ? 2 * gsl_cdf_ugaussian_Q(z) : 0;
	if (good->n < 2 || bad->n < 2 || x->n < 2)
		return;
	summarize(good->x, good->n, &g);
	summarize(bad->x, bad->n, &b);
	summarize(x->x, x->n, &s);
	out->midpoint = (g.mean + b.mean) / 2;
	span = b.mean - g.mean;
	if (span == 0)
		return;		/* good and bad alike: no side to be on */
	out->position = 0.5 + (s.mean - out->midpoint) / span;
	vx = s.stddev * s.stddev / x->n;
	vg = g.stddev * g.stddev / (4.0 * good->n);
	vb = b.stddev * b.stddev / (4.0 * bad->n);
	se = sqrt(vx + vg + vb);
	if (se == 0) {
		/* Constant samples: the mean is where it is. */
		out->low = out->high = out->position;
	} else if (out->level > 0) {
		size_t fewest = x->n < good->n ? x->n : good->n;

		out->df = (double)((fewest < bad->n ? fewest : bad->n) - 1);
		reach = gsl_cdf_tdist_Qinv(out->level / 2, out->df) * se /
			fabs(span);
		out->low = out->position - reach;
		out->high = out->position + reach;
	}
	if (out->low > 0.5)
		out->verdict = BISECT_BAD;
	else if (out->high < 0.5)
		out->verdict = BISECT_GOOD;
}

int bisect_classify(const struct bisect_look *looks, size_t k,
		    size_t max_runs, bool last,
		    const struct bisect_samples *good,
		    const struct bisect_samples *bad,
		    const struct bisect_samples *x,
		    struct bisect_classification *out)
{
	double *t, z;

	if (!k || looks[k - 1].n_good != good->n ||
	    looks[k - 1].n_bad != bad->n || looks[k - 1].n_x != x->n)
		return -1;
	t = xmalloc(k * sizeof(*t));
	for (size_t j = 0; j < k; j++)
		t[j] = bisect_information(&looks[j], max_runs);
	z = seq_boundary(SEQ_OBRIEN_FLEMING, BISECT_CLASSIFY_ALPHA, t, k,
			 last);
	free(t);
	bisect_judge(z, good, bad, x, out);
	return 0;
}

/* The variance of a sample's mean, divided by scale. */
static double mean_variance(const struct bisect_samples *x, double scale)
{
	struct sample_summary sum;

	summarize(x->x, x->n, &sum);
	return sum.stddev * sum.stddev / (x->n * scale);
}

enum bisect_next bisect_next_run(const struct bisect_samples *good,
				 const struct bisect_samples *bad,
				 const struct bisect_samples *x,
				 size_t min_runs, size_t max_runs)
{
	const struct bisect_samples *which[] = { x, good, bad };
	static const enum bisect_next next[] = {
		BISECT_NEXT_COMMIT, BISECT_NEXT_GOOD, BISECT_NEXT_BAD,
	};
	static const double scale[] = { 1, 4, 4 };
	enum bisect_next best = BISECT_NEXT_NONE;
	double most = -1;

	if (x->n < min_runs)
		return x->runs < max_runs ? BISECT_NEXT_COMMIT : BISECT_NEXT_NONE;
	/* the degrees of freedom are the fewest samples' */
	for (size_t i = 1; i < ARRAY_SIZE(which); i++) {
		const struct bisect_samples *other = which[3 - i];

		if (which[i]->n < x->n && which[i]->runs < max_runs &&
		    (which[i]->n <= other->n || other->runs >= max_runs))
			return next[i];
	}
	for (size_t i = 0; i < ARRAY_SIZE(which); i++) {
		double v = mean_variance(which[i], scale[i]);

		if (which[i]->runs < max_runs && v > most) {
			most = v;
			best = next[i];
		}
	}
	return best;
}
