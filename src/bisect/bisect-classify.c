// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics of a bisection: rounds of runs taken alongside each
 * other, compared round by round (bisect-classify.h).
 */
#include <math.h>
#include <stdlib.h>
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

/* Runs are alongside when one batch ran them in one round. */
static bool same_round(const struct tagged_run *a, const struct tagged_run *b)
{
	return a->batch && b->batch && a->round >= 0 &&
	       a->round == b->round && !strcmp(a->batch, b->batch);
}

static int by_start(const void *a, const void *b)
{
	const struct bisect_round *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

size_t bisect_pair_rounds(const struct tagged_runs *const *records, size_t n,
			  struct bisect_round **out)
{
	size_t count = 0, alloc = 0;

	*out = NULL;
	if (!n || n > BISECT_ROUND_MAX)
		return 0;
	for (size_t i = 0; i < records[0]->n; i++) {
		const struct tagged_run *first = &records[0]->at[i];
		struct bisect_round r = { .start = first->start };
		bool complete = isfinite(first->value);

		r.value[0] = first->value;
		r.disturbed[0] = first->disturbed != NULL;
		for (size_t c = 1; c < n && complete; c++) {
			const struct tagged_run *match = NULL;

			for (size_t j = 0; j < records[c]->n && !match; j++)
				if (same_round(first, &records[c]->at[j]))
					match = &records[c]->at[j];
			complete = match && isfinite(match->value);
			if (!complete)
				break;
			r.value[c] = match->value;
			r.disturbed[c] = match->disturbed != NULL;
			if (match->start < r.start)
				r.start = match->start;
		}
		if (!complete || !first->batch)
			continue;
		ALLOC_GROW(*out, count + 1, alloc);
		(*out)[count++] = r;
	}
	if (count)
		qsort(*out, count, sizeof(**out), by_start);
	return count;
}

bool bisect_round_compared(const struct bisect_round *r, size_t n)
{
	size_t disturbed = 0;

	for (size_t c = 0; c < n; c++)
		disturbed += r->disturbed[c];
	return disturbed == 0 || disturbed == n;
}

/*
 * The looks of a sequence of rounds: one after every round from min_runs
 * on, at the rounds compared so far (compared[p]: in the first p + 1),
 * when there are at least 2.  Their boundaries, all at once
 * (seq_boundaries(): a look that adds no information spends nothing);
 * the last look, when final, spends what is left.  Returns the number of
 * looks; look j is after rounds[at[j]].
 */
static size_t plan_looks(const size_t *compared, size_t n, size_t min_runs,
			 size_t max_runs, double alpha, bool final,
			 size_t *at, double *z)
{
	double *t = xcalloc(n ? n : 1, sizeof(*t));
	size_t looks = 0;

	for (size_t p = min_runs < 1 ? 0 : min_runs - 1; p < n; p++) {
		if (compared[p] < 2)
			continue;
		at[looks] = p;
		t[looks++] = (double)compared[p] / (double)max_runs;
	}
	if (looks) {
		seq_boundaries(SEQ_OBRIEN_FLEMING, alpha, t, looks, z);
		if (final && at[looks - 1] == n - 1)
			z[looks - 1] = seq_boundary(SEQ_OBRIEN_FLEMING, alpha,
						    t, looks, true);
	}
	free(t);
	return looks;
}

/* One look at k differences with boundary z. */
static void judge(const double *d, const double *span, size_t k, double z,
		  int direction, struct bisect_classification *out)
{
	struct sample_summary sd, ss;
	double half;

	out->verdict = BISECT_UNDECIDED;
	out->position = NAN;
	out->low = -INFINITY;
	out->high = INFINITY;
	out->z = z;
	out->level = isfinite(z) ? 2 * gsl_cdf_ugaussian_Q(z) : 0;
	if (k < 2)
		return;
	summarize(d, k, &sd);
	summarize(span, k, &ss);
	if (!isfinite(z))
		half = INFINITY;
	else if (sd.stddev == 0)
		half = 0;	/* the same difference every round */
	else
		half = gsl_cdf_tdist_Qinv(out->level / 2, (double)(k - 1)) *
		       sd.stddev / sqrt((double)k);
	if (sd.mean - half > 0)
		out->verdict = direction > 0 ? BISECT_BAD : BISECT_GOOD;
	else if (sd.mean + half < 0)
		out->verdict = direction > 0 ? BISECT_GOOD : BISECT_BAD;
	if (direction * ss.mean <= 0)
		return;		/* these rounds do not tell good from bad */
	out->position = 0.5 + sd.mean / ss.mean;
	out->low = 0.5 + (sd.mean - direction * half) / ss.mean;
	out->high = 0.5 + (sd.mean + direction * half) / ss.mean;
}

/*
 * A sequence of looks over n rounds: two columns x and y of what each
 * compared round gives (k of them), how many were kept after each round,
 * and the rounds looked at with their boundaries (plan_looks()).
 */
struct look_plan {
	double *x, *y;
	size_t k, *kept, *at;
	double *z;
};

/* A compared round's values into its x and y. */
typedef void round_columns(const double *value, double *x, double *y);

/* lp from the rounds of width values each that were compared. */
static void look_plan_init(struct look_plan *lp,
			   const struct bisect_round *rounds, size_t n,
			   size_t width, round_columns *columns)
{
	size_t size = n ? n : 1;

	lp->x = xcalloc(size, sizeof(*lp->x));
	lp->y = xcalloc(size, sizeof(*lp->y));
	lp->kept = xcalloc(size, sizeof(*lp->kept));
	lp->at = xcalloc(size, sizeof(*lp->at));
	lp->z = xcalloc(size, sizeof(*lp->z));
	lp->k = 0;
	for (size_t i = 0; i < n; i++) {
		if (bisect_round_compared(&rounds[i], width)) {
			columns(rounds[i].value, &lp->x[lp->k], &lp->y[lp->k]);
			lp->k++;
		}
		lp->kept[i] = lp->k;
	}
}

static void look_plan_free(struct look_plan *lp)
{
	free(lp->z);
	free(lp->at);
	free(lp->kept);
	free(lp->y);
	free(lp->x);
}

/* A commit's round: its distance from the middle, and bad's from good. */
static void commit_columns(const double *v, double *d, double *span)
{
	*d = v[2] - (v[0] + v[1]) / 2;
	*span = v[1] - v[0];
}

void bisect_classify(const struct bisect_round *rounds, size_t n,
		     size_t min_runs, size_t max_runs, bool last,
		     int direction, struct bisect_classification *out)
{
	struct look_plan lp;
	size_t looks;

	look_plan_init(&lp, rounds, n, 3, commit_columns);
	memset(out, 0, sizeof(*out));
	out->verdict = BISECT_UNDECIDED;
	out->position = NAN;
	out->low = -INFINITY;
	out->high = INFINITY;
	out->rounds = n;
	out->compared = lp.k;
	looks = plan_looks(lp.kept, n, min_runs, max_runs,
			   BISECT_CLASSIFY_ALPHA, last, lp.at, lp.z);
	for (size_t j = 0; j < looks; j++) {
		judge(lp.x, lp.y, lp.kept[lp.at[j]], lp.z[j], direction, out);
		out->rounds = lp.at[j] + 1;
		out->compared = lp.kept[lp.at[j]];
		out->looks = j + 1;
		if (out->verdict != BISECT_UNDECIDED)
			break;
	}
	look_plan_free(&lp);
}

/*
 * The change of b against a, round by round: the mean of the rounds' log
 * ratios ln(b / a) with t's interval at the look's level, as a change in
 * percent (or, for a percentage or values not all positive, the mean
 * difference, in points or in percent of a's mean).
 */
static void paired_interval(const struct seq_design *d, const double *a,
			    const double *b, size_t k, double level,
			    struct change_interval *ci)
{
	double *l = xcalloc(k, sizeof(*l));
	bool ratio = !d->points;
	struct sample_summary sl, sa;
	double half;

	for (size_t i = 0; i < k && ratio; i++)
		ratio = a[i] > 0 && b[i] > 0;
	for (size_t i = 0; i < k; i++)
		l[i] = ratio ? log(b[i] / a[i]) : b[i] - a[i];
	summarize(l, k, &sl);
	summarize(a, k, &sa);
	ci->df = (double)(k - 1);
	ci->critical = gsl_cdf_tdist_Qinv(level / 2, ci->df);
	half = sl.stddev == 0 ? 0 : ci->critical * sl.stddev / sqrt((double)k);
	if (ratio) {
		ci->estimate = 100 * expm1(sl.mean);
		ci->low = 100 * expm1(sl.mean - half);
		ci->high = 100 * expm1(sl.mean + half);
	} else {
		double scale = d->points ? 1 : 100 / fabs(sa.mean);

		ci->estimate = sl.mean * scale;
		ci->low = (sl.mean - half) * scale;
		ci->high = (sl.mean + half) * scale;
	}
	ci->bounded = isfinite(ci->low) && isfinite(ci->high);
	free(l);
}

/*
 * seq_judge() on rounds: the paired interval instead of Fieller's; with a
 * direction, the one-sided claims: changed that way, or not by min_change.
 */
static void paired_judge(const struct seq_design *d, double z, bool last,
			 int direction, const double *a, const double *b,
			 size_t k, struct seq_result *out)
{
	seq_result_begin(out, z, last);
	out->ci.estimate = NAN;
	if (k < 2 || !(out->level > 0))
		return;
	paired_interval(d, a, b, k, out->level, &out->ci);
	seq_result_decide(d, direction, out);
}

/* A round of the two ends: good's run and bad's (base's and head's). */
static void ends_columns(const double *v, double *a, double *b)
{
	*a = v[0];
	*b = v[1];
}

void bisect_compare_ends(const struct seq_design *d,
			 const struct bisect_round *rounds, size_t n,
			 size_t min_runs, bool last, int direction,
			 struct seq_result *out, size_t *compared)
{
	struct look_plan lp;
	size_t looks;

	look_plan_init(&lp, rounds, n, 2, ends_columns);
	memset(out, 0, sizeof(*out));
	out->verdict = SEQ_CONTINUE;
	out->ci.estimate = NAN;
	out->ci.low = -INFINITY;
	out->ci.high = INFINITY;
	*compared = 0;
	/* information k / max_runs: seq_information() of k runs a side */
	looks = plan_looks(lp.kept, n, min_runs, d->max_runs, d->alpha, last,
			   lp.at, lp.z);
	for (size_t j = 0; j < looks; j++) {
		bool final = last && lp.at[j] == n - 1;

		paired_judge(d, lp.z[j], final, direction, lp.x, lp.y,
			     lp.kept[lp.at[j]], out);
		*compared = lp.kept[lp.at[j]];
		if (out->verdict == SEQ_CHANGED || out->verdict == SEQ_SAME)
			break;
	}
	if (last && out->verdict == SEQ_CONTINUE)
		out->verdict = SEQ_UNDECIDED;
	look_plan_free(&lp);
}
