// SPDX-License-Identifier: GPL-2.0
/*
 * Classifying a commit during a bisection: on good's side of the midpoint
 * between good and bad, on bad's, or not yet known.
 */
#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "kdelta/bisect-classify.h"
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

void bisect_classify(const double *good, size_t n_good, const double *bad,
		     size_t n_bad, const double *x, size_t n_x,
		     struct bisect_classification *out)
{
	struct sample_summary g, b, s;
	double vx, vm, se, toward_bad;

	memset(out, 0, sizeof(*out));
	out->verdict = BISECT_UNDECIDED;
	out->p = 1;
	if (n_good < 2 || n_bad < 2 || n_x < 2)
		return;
	summarize(good, n_good, &g);
	summarize(bad, n_bad, &b);
	summarize(x, n_x, &s);
	out->midpoint = (g.mean + b.mean) / 2;
	vx = s.stddev * s.stddev / n_x;
	vm = (g.stddev * g.stddev / n_good + b.stddev * b.stddev / n_bad) / 4;
	se = sqrt(vx + vm);
	toward_bad = (s.mean - out->midpoint) * (b.mean - g.mean);
	if (se == 0) {
		/* Constant samples: any distance from the midpoint is certain. */
		out->t = s.mean == out->midpoint ? 0 : INFINITY;
		out->p = s.mean == out->midpoint ? 1 : 0;
	} else {
		/* Welch-Satterthwaite, the midpoint's variance in two parts. */
		double vg = g.stddev * g.stddev / (4.0 * n_good);
		double vb = b.stddev * b.stddev / (4.0 * n_bad);

		out->t = (s.mean - out->midpoint) / se;
		out->df = (vx + vm) * (vx + vm) /
			  (vx * vx / (n_x - 1) + vg * vg / (n_good - 1) +
			   vb * vb / (n_bad - 1));
		out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
	}
	if (out->p < BISECT_CLASSIFY_ALPHA && toward_bad != 0)
		out->verdict = toward_bad > 0 ? BISECT_BAD : BISECT_GOOD;
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
	for (size_t i = 0; i < ARRAY_SIZE(which); i++) {
		double v = mean_variance(which[i], scale[i]);

		if (which[i]->runs < max_runs && v > most) {
			most = v;
			best = next[i];
		}
	}
	return best;
}
