// SPDX-License-Identifier: GPL-2.0
/*
 * compare_decide(): from the samples of every metric and variant to a
 * verdict per cell, in four steps for each non-base variant:
 *
 *  1. summary and change of the mean against the base;
 *  2. undecidable cells: absent in either, or fewer than 3 runs in either;
 *  3. the significance test, then Benjamini-Hochberg within two families,
 *     the workload's own results (row.key) and all monitor metrics;
 *  4. the minimum effect: --min-change for workload results, the floors of
 *     metric-rules.c for monitor counters.
 *
 * Failure stats (lkp_failure_stat(): dmesg.*, *.fail, ...) with any test,
 * and every metric with --test lkp, are decided instead by lkp-tests' own
 * rule (lkp-rules.c): final, not corrected, without kdelta's floors.
 *
 * Workload results get three verdicts, so that "not shown changed" is never
 * read as "shown unchanged": changed (significant, and at least
 * --min-change), same (the 95% interval of the change lies inside
 * +-min_change: equivalence by two one-sided tests, each at 2.5%), and
 * inconclusive (neither), with the runs that would decide.  The interval
 * is Fieller's for --test welch and lkp (lkp-tests' rule has none of its
 * own: with --test lkp, lkp-tests' rule says changed, and of a result it
 * does not call changed the interval says same or inconclusive),
 * Hodges-Lehmann's with Moses' for --test mwu (the interval the
 * rank test inverts), so "same" has one meaning whatever the test: a change
 * of --min-change or more is excluded at 95% confidence.  "Same" is not
 * corrected for the number of results, and need not be: a robot's "clean"
 * claims that every result is the same, an intersection of the claims,
 * which by the intersection-union principle (Berger, 1982) keeps each
 * test's level; Benjamini-Hochberg corrects what is claimed one result at a
 * time, a change.  Monitor metrics keep changed, small and same, where
 * same means "no significant change".
 *
 * Why two families: correcting the few key results together with thousands
 * of counters would make a real 5% regression undetectable at 5 runs, and
 * not correcting the counters would flag a few hundred of them in every
 * A/A comparison.
 *
 * What 5 runs can and cannot show (this is arithmetic, not a tuning knob):
 *
 *  - Mann-Whitney's exact two-sided p cannot go below 2 / C(na+nb, na):
 *    0.1 for 3 vs 3, 0.0286 for 4 vs 4, 0.0079 for 5 vs 5, 0.0022 for 6 vs
 *    6.  After BH over k tests, the smallest p becomes q = p * k / rank, so a
 *    lone change among k key results is caught at --fdr 0.05 only when
 *    k < 0.05 / 0.0079 = 6.3 with 5 runs; with 3 runs never.  Among m
 *    monitor counters, the rank of p = 0.0079 must reach 0.0079 * m / 0.05,
 *    about m / 6: with 5 runs Mann-Whitney flags a counter only when a sixth
 *    of them changed as clearly.  It is the test for the key results of
 *    noisy, bimodal machines, not for counters.
 *  - Welch's t-test on 5 vs 5 runs of a result with 1% noise: a 5% shift
 *    gives t of about 8 and p typically below 0.001, caught among a few key
 *    results at --fdr 0.05.
 * With --fdr 0 there is no correction (q = p) and a cell is significant when
 * p < 0.05, the conventional level for a single test: the user asked to
 * judge each metric on its own.
 *
 * Runs that share a boot are tested on their boots' means (boots.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/compare.h"
#include "kdelta/lkp-rules.h"
#include "kdelta/metric-rules.h"
#include "kdelta/parallel.h"
#include "kdelta/util.h"

#include "boots.h"

#define MIN_RUNS 3
#define MIN_BOOTS 2
#define UNCORRECTED_LEVEL 0.05

static const char rule_base[] = "base variant";

const struct key_estimate key_estimate_none = {
	.ci = { .low = -INFINITY, .high = INFINITY },
};
static const char rule_absent[] = "absent in the base or in this variant";
static const char rule_not_finite[] =
	"statistics not finite: the samples exceed double precision; not decided";
static const char rule_few_runs[] =
	"fewer than 3 runs in the base or in this variant: not decided";
static const char rule_few_boots[] =
	"runs that share a boot are decided by the boots' means, and the base or this variant has fewer than 2 boots: not decided";
static const char rule_not_significant_q[] =
	"not significant: Benjamini-Hochberg q-value not below --fdr";
static const char rule_not_significant_p[] =
	"not significant: p-value not below 0.05 (--fdr 0, uncorrected)";
static const char rule_key_changed[] =
	"workload result: a change of at least --min-change";
static const char rule_key_same[] =
	"workload result: the 95% interval of the change lies inside +-(--min-change): the same (two one-sided tests)";
static const char rule_key_unsure_q[] =
	"workload result: not significant (Benjamini-Hochberg q-value not below --fdr), and the 95% interval of the change reaches beyond +-(--min-change): inconclusive";
static const char rule_key_unsure_p[] =
	"workload result: not significant (p-value not below 0.05, --fdr 0), and the 95% interval of the change reaches beyond +-(--min-change): inconclusive";
static const char rule_key_unsure_lkp[] =
	"workload result: not changed by lkp-tests' rule, and the 95% interval of the change reaches beyond +-(--min-change): inconclusive";
static const char rule_key_unsure_small[] =
	"workload result: significant but smaller than --min-change, and the 95% interval of the change reaches beyond +-(--min-change): inconclusive";

/* Two-sided probability outside a workload result's interval. */
#define INTERVAL_MISS (1 - COMPARE_INTERVAL_LEVEL / 100.0)

/*
 * The change of the mean, in percent of the base's magnitude (so that a
 * rise is positive even for a negative base), or in points for metrics
 * that are percentages already.
 */
static void fill_change(const struct sample_summary *base,
			struct metric_cell *cell)
{
	double diff = cell->sum.mean - base->mean;

	if (cell->change_absolute) {
		cell->change = diff;
	} else if (base->mean == 0) {
		/* No ratio to 0: the flag says "from nothing", change is 0. */
		cell->change = 0;
		cell->change_infinite = cell->sum.mean != 0;
	} else {
		cell->change = 100 * diff / fabs(base->mean);
	}
}

/*
 * Finite samples can still overflow their mean, variance or change
 * (1e308 and -1e308): such a cell is not decided, and its p-value never
 * enters the correction.
 */
static bool summary_finite(const struct metric_cell *cell)
{
	return isfinite(cell->sum.mean) && isfinite(cell->sum.stddev);
}

static void set_not_finite(struct metric_cell *cell)
{
	cell->verdict = VERDICT_NOT_FINITE;
	cell->rule = rule_not_finite;
}

/*
 * The base's metric names, sorted, for lkp-tests' questions about the
 * base ("has it a .pass for this .fail?").
 */
struct base_names {
	const char **names;
	size_t n;
};

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Only lkp-tests' rule asks (lkp_decide_cell(): --test lkp, failure
 * stats): without them the list stays empty, unsorted.
 */
static void base_names_init(struct base_names *bn,
			    const struct comparison *cmp,
			    const struct compare_options *opt)
{
	bool asked = opt->test == SIG_LKP;

	for (size_t r = 0; r < cmp->nrows && !asked; r++)
		asked = cmp->rows[r].failure;
	bn->names = NULL;
	bn->n = 0;
	if (!asked)
		return;
	bn->names = xmalloc((cmp->nrows + 1) * sizeof(*bn->names));
	for (size_t r = 0; r < cmp->nrows; r++)
		if (cmp->rows[r].cells[0].samples &&
		    !cmp->rows[r].cells[0].zero_filled)
			bn->names[bn->n++] = cmp->rows[r].name;
	qsort(bn->names, bn->n, sizeof(*bn->names), compare_names);
}

static bool base_has(const void *ctx, const char *name)
{
	const struct base_names *bn = ctx;

	return bsearch(&name, bn->names, bn->n, sizeof(*bn->names),
		       compare_names) != NULL;
}

/* Whether the base has a metric of name's source ("perf-profile."). */
static bool base_has_source(const struct base_names *bn, const char *name)
{
	size_t len = strcspn(name, ".") + 1, lo = 0, hi = bn->n;

	while (lo < hi) {	/* the first name not below name's source */
		size_t mid = lo + (hi - lo) / 2;

		if (strncmp(bn->names[mid], name, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < bn->n && !strncmp(bn->names[lo], name, len);
}

/*
 * One side of lkp_decide() from a cell, as lkp-tests sees it: a regular
 * stat's complete runs; a failure stat's runs, every one of the matrix's
 * (every_run), or the complete ones alone (into *complete, which the caller
 * frees).
 */
static void lkp_side_fill(struct lkp_side *side, const struct metric_cell *c,
			  const struct variant *v, bool failure, bool every_run,
			  double **complete)
{
	memset(side, 0, sizeof(*side));
	side->samples = c->zero_filled ? NULL : c->samples;
	side->n = c->samples ? c->sum.n : 0;
	side->runs = v->runs;
	side->integers = c->integers;
	*complete = NULL;
	if (failure && every_run && v->matrix_runs > v->runs)
		side->runs = v->matrix_runs;
	else if (failure && v->lkp_incomplete && side->samples &&
		 side->n == v->matrix_runs) {
		size_t n = 0;

		*complete = xmalloc((side->n + 1) * sizeof(**complete));
		for (size_t r = 0; r < side->n; r++)
			if (!v->lkp_incomplete[r])
				(*complete)[n++] = side->samples[r];
		side->samples = n ? *complete : NULL;
		side->n = n;
	}
	if (side->runs < side->n)
		side->runs = side->n;
}

/*
 * lkp-tests' decision on a cell: over its complete runs (a failure stat
 * of runs it marks incomplete, where lkp_decide_over_all_runs(), also over
 * every run, changed when either says so; not at all when a side has no
 * complete run).  lkp-tests compares a later column against the base its
 * first column's comparison has stripped of its incomplete runs; kdelta
 * compares each against the base as it is (kdelta(1), LKP COMPATIBILITY).
 */
static enum lkp_decision lkp_decide_runs(const struct comparison *cmp,
					 const struct metric_row *row, size_t v,
					 const struct base_names *bn)
{
	const struct variant *bv = &cmp->variants[0], *vv = &cmp->variants[v];
	bool incomplete = row->failure &&
			  (bv->lkp_incomplete || vv->lkp_incomplete);
	enum lkp_decision all = LKP_NO_COMPLETE_RUN, d = LKP_SAME;
	struct lkp_side base, other;
	double *b_complete, *o_complete;

	for (int pass = incomplete ? 0 : 1; pass < 2; pass++) {
		bool every_run = pass == 0 || !incomplete;

		if (pass == 0 && !lkp_decide_over_all_runs(row->name))
			continue;
		if (pass == 1 && incomplete && (!bv->runs || !vv->runs))
			return all;
		lkp_side_fill(&base, &row->cells[0], bv, row->failure,
			      every_run, &b_complete);
		lkp_side_fill(&other, &row->cells[v], vv, row->failure,
			      every_run, &o_complete);
		base.source_present = base_has_source(bn, row->name);
		base.has = base_has;
		base.ctx = bn;
		d = lkp_decide(row->name, row->key, &base, &other);
		free(b_complete);
		free(o_complete);
		if (pass == 0)
			all = d;
		if (d == LKP_CHANGED)
			return d;
	}
	return d;
}

/*
 * lkp-tests' whole decision, for every cell with --test lkp and for
 * failure stats with any test: final, not corrected.
 */
static void lkp_decide_cell(const struct comparison *cmp,
			    const struct metric_row *row, size_t v,
			    const struct base_names *bn)
{
	struct metric_cell *cell = &row->cells[v];
	const struct metric_cell *base_cell = &row->cells[0];
	enum lkp_decision d;

	if (base_cell->samples && cell->samples &&
	    (!summary_finite(base_cell) || !summary_finite(cell) ||
	     (!cell->change_infinite && !isfinite(cell->change)))) {
		set_not_finite(cell);
		return;
	}
	d = lkp_decide_runs(cmp, row, v, bn);
	cell->rule = lkp_decision_rule(d);
	switch (d) {
	case LKP_CHANGED:
		cell->verdict = VERDICT_CHANGED;
		cell->test.p = cell->q = 0;
		break;
	case LKP_FEW_RUNS:
	case LKP_NO_COMPLETE_RUN:
		cell->verdict = VERDICT_FEW_RUNS;
		break;
	case LKP_NO_BASE:
		cell->verdict = VERDICT_ABSENT;
		break;
	case LKP_RATIO_1_PERCENT:
	case LKP_RATIO_5_PERCENT:
	case LKP_UNREASONABLE:
		cell->verdict = VERDICT_SMALL;
		cell->test.p = cell->q = 0;
		break;
	default:
		cell->verdict = VERDICT_SAME;
		break;
	}
}

/* Step 2, and step 3's test alone. */
static void test_cell(const struct metric_cell *base, struct metric_cell *cell,
		      const struct test_samples *t,
		      const struct compare_options *opt)
{
	size_t nb = t->nb, nv = t->nv;

	cell->by_boots = t->by_boots;
	if (!base->samples || !cell->samples) {
		cell->verdict = VERDICT_ABSENT;
		cell->rule = rule_absent;
		return;
	}
	if (!summary_finite(base) || !summary_finite(cell) ||
	    (!cell->change_infinite && !isfinite(cell->change))) {
		set_not_finite(cell);
		return;
	}
	if (base->sum.n < MIN_RUNS || cell->sum.n < MIN_RUNS ||
	    (!t->by_boots && (nb < MIN_RUNS || nv < MIN_RUNS))) {
		cell->verdict = VERDICT_FEW_RUNS;
		cell->rule = rule_few_runs;
		return;
	}
	if (t->by_boots && (nb < MIN_BOOTS || nv < MIN_BOOTS)) {
		cell->verdict = VERDICT_FEW_RUNS;
		cell->rule = rule_few_boots;
		return;
	}
	switch (opt->test) {
	case SIG_WELCH:
		welch_test(t->base, nb, t->cell, nv, &cell->test);
		break;
	case SIG_MWU:
		mwu_test(t->base, nb, t->cell, nv, &cell->test);
		break;
	case SIG_LKP:	/* decided by lkp_decide_cell() */
		break;
	}
	if (isnan(cell->test.p)) {
		set_not_finite(cell);
		return;
	}
	/* Provisional: tested, not yet judged (see is_tested()). */
	cell->verdict = VERDICT_SAME;
	cell->rule = NULL;
}

static bool is_tested(const struct metric_cell *cell)
{
	return cell->verdict == VERDICT_SAME && !cell->rule;
}

/*
 * Step 3, the correction: q-values for the tested cells of variant v in
 * the rows of one family.  p and index are scratch arrays of nrows.
 */
static void correct_family(struct comparison *cmp, size_t v, bool key,
			   const struct compare_options *opt, double *p,
			   size_t *index)
{
	size_t n = 0;

	for (size_t r = 0; r < cmp->nrows; r++) {
		struct metric_cell *cell = &cmp->rows[r].cells[v];

		if (cmp->rows[r].key != key || !is_tested(cell))
			continue;
		if (opt->fdr <= 0) {
			cell->q = cell->test.p;
			continue;
		}
		p[n] = cell->test.p;
		index[n++] = r;
	}
	if (!n)
		return;
	bh_adjust(p, n, p);
	for (size_t i = 0; i < n; i++)
		cmp->rows[index[i]].cells[v].q = p[i];
}

static const char *not_significant(const struct metric_cell *cell,
				   const struct compare_options *opt)
{
	if (opt->fdr <= 0)
		return cell->test.p < UNCORRECTED_LEVEL ? NULL :
							  rule_not_significant_p;
	return cell->q < opt->fdr ? NULL : rule_not_significant_q;
}

/* The effect in the unit the floors use: percent, or points for "%". */
static double effect(const struct metric_cell *cell)
{
	if (cell->change_infinite)
		return INFINITY;
	return fabs(cell->change);
}

static bool above_floor(const struct metric_floor *floor,
			const struct metric_cell *base,
			const struct metric_cell *cell)
{
	double larger = fmax(base->sum.max, cell->sum.max);
	double smaller = fmin(base->sum.max, cell->sum.max);

	if (effect(cell) < floor->min_change)
		return false;
	if (floor->min_max && !(larger > floor->min_max))
		return false;
	if (floor->min_delta &&
	    !(fabs(cell->sum.mean - base->sum.mean) > floor->min_delta))
		return false;
	if (floor->max_ratio && !(larger > floor->max_ratio * smaller))
		return false;
	return true;
}

/* The comparer decides nothing with fewer runs than MIN_RUNS. */
static void at_least_min_runs(size_t *runs)
{
	if (*runs && *runs < MIN_RUNS)
		*runs = MIN_RUNS;
}

/*
 * A workload result's interval, for the test chosen, and the runs that
 * would decide it (from the change the interval is centred on).
 */
static void interval_cell(const struct metric_cell *cell,
			  const struct test_samples *t,
			  struct key_estimate *est,
			  const struct compare_options *opt)
{
	size_t nb = t->nb, nv = t->nv;
	double centre = cell->change;

	if (opt->test == SIG_MWU) {
		hodges_lehmann_interval(t->base, nb, t->cell, nv,
					INTERVAL_MISS, cell->change_absolute,
					&est->ci);
		if (isfinite(est->ci.estimate))
			centre = est->ci.estimate;
	} else {
		fieller_interval(t->base, nb, t->cell, nv,
				 INTERVAL_MISS, cell->change_absolute, false,
				 &est->ci);
	}
	est->runs_needed = cell->change_infinite ? 0 :
		runs_to_decide(t->base, nb, t->cell, nv, centre,
			       opt->min_change, cell->change_absolute,
			       opt->test);
	if (!t->by_boots)
		at_least_min_runs(&est->runs_needed);
	else if (est->runs_needed && est->runs_needed < MIN_BOOTS)
		est->runs_needed = MIN_BOOTS;
}

static bool interval_inside(const struct change_interval *ci, double margin)
{
	return ci->bounded && ci->low > -margin && ci->high < margin;
}

/* Why a workload result is inconclusive, from why it is not significant. */
static const char *unsure_rule(const char *not_significant_rule)
{
	if (!not_significant_rule)
		return rule_key_unsure_small;
	if (not_significant_rule == rule_not_significant_p)
		return rule_key_unsure_p;
	return rule_key_unsure_q;
}

/*
 * Step 4 for a workload result: changed, same or inconclusive.
 * not_significant_rule is NULL when the change is significant.
 */
static void judge_key(struct metric_cell *cell,
		      const struct compare_options *opt,
		      const char *not_significant_rule)
{
	if (!not_significant_rule && effect(cell) >= opt->min_change) {
		cell->verdict = VERDICT_CHANGED;
		cell->rule = rule_key_changed;
	} else if (interval_inside(&cell->est->ci, opt->min_change)) {
		cell->verdict = VERDICT_SAME;
		cell->rule = rule_key_same;
	} else {
		cell->verdict = VERDICT_INCONCLUSIVE;
		cell->rule = unsure_rule(not_significant_rule);
	}
}

/*
 * --test lkp on a workload result: lkp-tests' rule says whether it changed
 * (lkp_decide_cell()); of one it does not call changed, the interval says
 * whether it is the same or inconclusive, as with the other tests.
 */
static void lkp_judge_key(const struct metric_row *row, size_t v,
			  const struct compare_options *opt)
{
	const struct metric_cell *base = &row->cells[0];
	struct metric_cell *cell = &row->cells[v];
	bool changed = cell->verdict == VERDICT_CHANGED;

	if (!changed && cell->verdict != VERDICT_SAME &&
	    cell->verdict != VERDICT_SMALL)
		return;
	if (!base->samples || !cell->samples || base->zero_filled ||
	    cell->zero_filled || base->sum.n < 2 || cell->sum.n < 2)
		return;
	{
		struct test_samples runs = {
			base->samples, cell->samples, base->sum.n, cell->sum.n,
			false,
		};

		interval_cell(cell, &runs, &row->estimates[v], opt);
	}
	if (changed)
		return;
	if (interval_inside(&cell->est->ci, opt->min_change)) {
		cell->verdict = VERDICT_SAME;
		cell->rule = rule_key_same;
	} else {
		cell->verdict = VERDICT_INCONCLUSIVE;
		cell->rule = rule_key_unsure_lkp;
	}
}

/* Steps 3 and 4: the verdict of a tested cell. */
static void judge_cell(const struct metric_catalogue *cat,
		       const struct metric_row *row, size_t v,
		       const struct compare_options *opt,
		       const struct test_samples *t)
{
	const struct metric_cell *base = &row->cells[0];
	struct metric_cell *cell = &row->cells[v];
	const char *rule = not_significant(cell, opt);
	const struct metric_floor *floor;

	if (row->key) {
		interval_cell(cell, t, &row->estimates[v], opt);
		judge_key(cell, opt, rule);
		return;
	}
	if (rule) {
		cell->verdict = VERDICT_SAME;
		cell->rule = rule;
		return;
	}
	floor = metric_floor(cat, row->name);
	cell->rule = floor->rule;
	cell->verdict = above_floor(floor, base, cell) ? VERDICT_CHANGED
						       : VERDICT_SMALL;
}

/*
 * Step 1, and what an undecided cell keeps: p = q = 1, no statistic, a
 * change of 0 when either side is absent, no estimate.
 */
static void summarize_cell(const struct metric_row *row, size_t v)
{
	const struct metric_cell *base = &row->cells[0];
	struct metric_cell *cell = &row->cells[v];

	summarize(cell->samples, cell->samples ? cell->sum.n : 0, &cell->sum);
	cell->change = 0;
	/* decide_base() looked the name up, once per row */
	cell->change_absolute = base->change_absolute;
	cell->change_infinite = false;
	if (cell->samples && base->samples)
		fill_change(&base->sum, cell);
	memset(&cell->test, 0, sizeof(cell->test));
	cell->test.p = 1;
	cell->q = 1;
	if (row->estimates) {
		row->estimates[v] = key_estimate_none;
		cell->est = &row->estimates[v];
	} else {
		cell->est = &key_estimate_none;
	}
}

/*
 * A workload result with too few runs to decide still says how many would,
 * when both sides have a value.
 */
static void few_runs_estimate(const struct metric_row *row, size_t v,
			      const struct compare_options *opt,
			      const struct test_samples *t)
{
	const struct metric_cell *cell = &row->cells[v];
	struct key_estimate *est = &row->estimates[v];

	if (cell->verdict != VERDICT_FEW_RUNS || cell->change_infinite)
		return;
	est->runs_needed = runs_to_decide(t->base, t->nb, t->cell, t->nv,
					  cell->change, opt->min_change,
					  cell->change_absolute, opt->test);
	if (!t->by_boots)
		at_least_min_runs(&est->runs_needed);
	else if (est->runs_needed && est->runs_needed < MIN_BOOTS)
		est->runs_needed = MIN_BOOTS;
}

static void decide_variant(struct comparison *cmp, size_t v,
			   const struct compare_options *opt,
			   const struct base_names *bn,
			   const struct boot_groups *groups,
			   struct boot_scratch *scratch, double *p,
			   size_t *index)
{
	struct test_samples t;

	for (size_t r = 0; r < cmp->nrows; r++) {
		struct metric_row *row = &cmp->rows[r];

		summarize_cell(row, v);
		test_samples_of(groups, v, &row->cells[0], &row->cells[v],
				scratch, &t);
		if (row->failure || opt->test == SIG_LKP) {
			lkp_decide_cell(cmp, row, v, bn);
			if (row->key && !row->failure)
				lkp_judge_key(row, v, opt);
		} else {
			test_cell(&row->cells[0], &row->cells[v], &t, opt);
		}
		if (row->key)
			few_runs_estimate(row, v, opt, &t);
	}
	correct_family(cmp, v, true, opt, p, index);
	correct_family(cmp, v, false, opt, p, index);
	for (size_t r = 0; r < cmp->nrows; r++) {
		if (!is_tested(&cmp->rows[r].cells[v]))
			continue;
		test_samples_of(groups, v, &cmp->rows[r].cells[0],
				&cmp->rows[r].cells[v], scratch, &t);
		judge_cell(cmp->catalogue, &cmp->rows[r], v, opt, &t);
	}
}

/* A workload result's estimates, one per variant; others share none. */
static void make_estimates(struct metric_row *row, size_t nvariants)
{
	free(row->estimates);
	row->estimates = NULL;
	if (row->key)
		row->estimates = xcalloc(nvariants, sizeof(*row->estimates));
}

static void decide_base(const struct metric_catalogue *cat,
			struct metric_row *row, size_t nvariants)
{
	struct metric_cell *base = &row->cells[0];
	struct metric_info info;

	metric_describe(cat, row->name, &info);
	summarize(base->samples, base->samples ? base->sum.n : 0, &base->sum);
	memset(&base->test, 0, sizeof(base->test));
	base->test.p = 1;
	base->q = 1;
	base->change = 0;
	base->change_absolute = info.points;
	base->change_infinite = false;
	make_estimates(row, nvariants);
	base->est = row->estimates ? &row->estimates[0] : &key_estimate_none;
	base->verdict = VERDICT_BASE;
	base->rule = rule_base;
	row->better = info.better;
	row->failure = lkp_failure_stat(row->name);
}

/*
 * Row order, as lkp-tests' compare: the workload's own results first, then
 * monitors; within each, changed rows first, then the largest |change| in
 * any variant, then the name.  The keys are computed once per row.
 */
struct row_key {
	struct metric_row row;
	bool changed;
	double magnitude;
};

static void row_key_fill(struct row_key *k, const struct metric_row *row,
			 size_t nvariants)
{
	k->row = *row;
	k->changed = false;
	k->magnitude = 0;
	for (size_t v = 1; v < nvariants; v++) {
		const struct metric_cell *cell = &row->cells[v];

		k->changed |= cell->verdict == VERDICT_CHANGED;
		if (cell->verdict != VERDICT_ABSENT)
			k->magnitude = fmax(k->magnitude, effect(cell));
	}
}

static int compare_row_keys(const void *x, const void *y)
{
	const struct row_key *a = x, *b = y;

	if (a->row.key != b->row.key)
		return a->row.key ? -1 : 1;
	if (a->changed != b->changed)
		return a->changed ? -1 : 1;
	if (a->magnitude != b->magnitude)
		return a->magnitude > b->magnitude ? -1 : 1;
	return strcmp(a->row.name, b->row.name);
}

static void sort_rows(struct comparison *cmp)
{
	struct row_key *keys = xmalloc(cmp->nrows * sizeof(*keys));

	for (size_t r = 0; r < cmp->nrows; r++)
		row_key_fill(&keys[r], &cmp->rows[r], cmp->nvariants);
	qsort(keys, cmp->nrows, sizeof(*keys), compare_row_keys);
	for (size_t r = 0; r < cmp->nrows; r++)
		cmp->rows[r] = keys[r].row;
	free(keys);
}

const char *verdict_name(enum verdict verdict)
{
	static const char *const names[] = {
		[VERDICT_SAME] = "same",
		[VERDICT_CHANGED] = "changed",
		[VERDICT_SMALL] = "small",
		[VERDICT_FEW_RUNS] = "few-runs",
		[VERDICT_ABSENT] = "absent",
		[VERDICT_BASE] = "base",
		[VERDICT_NOT_FINITE] = "not-finite",
		[VERDICT_INCONCLUSIVE] = "inconclusive",
	};

	return names[verdict];
}

/*
 * The bases' rows, and then the variants, are independent of each other:
 * parallel_for() shares them among the processors (each variant with its
 * own scratch arrays), as the loader shares the matrices.
 */
#define BASE_ROWS_GRAIN 256

struct decide_work {
	struct comparison *cmp;
	const struct compare_options *opt;
	const struct base_names *bn;
	const struct boot_groups *groups;	/* one per variant */
};

static void decide_bases(void *ctx, size_t begin, size_t end)
{
	struct decide_work *w = ctx;

	for (size_t r = begin; r < end; r++)
		decide_base(w->cmp->catalogue, &w->cmp->rows[r],
			    w->cmp->nvariants);
}

/* Variants begin + 1 to end: variant 0 is the base. */
static void decide_variants(void *ctx, size_t begin, size_t end)
{
	struct decide_work *w = ctx;
	double *p = xmalloc(w->cmp->nrows * sizeof(*p));
	size_t *index = xmalloc(w->cmp->nrows * sizeof(*index));
	struct boot_scratch scratch;

	boot_scratch_init(&scratch, w->groups, begin + 1, end);
	for (size_t v = begin + 1; v <= end; v++)
		decide_variant(w->cmp, v, w->opt, w->bn, w->groups, &scratch,
			       p, index);
	boot_scratch_release(&scratch);
	free(p);
	free(index);
}

/*
 * The key results the job declared: their directions, when declared,
 * are the rows' (over the metric rules'), and only they gate.
 */
static void apply_declared(struct comparison *cmp)
{
	for (size_t r = 0; r < cmp->nrows; r++) {
		struct metric_row *row = &cmp->rows[r];
		const struct key_result *k =
			key_results_find(&cmp->declared, row->name);

		row->gate = row->key && (!cmp->declared.n || k);
		if (k && k->better)
			row->better = k->better;
	}
}

void compare_decide(struct comparison *cmp, const struct compare_options *opt)
{
	struct decide_work w = { cmp, opt, NULL, NULL };
	struct boot_groups *groups;
	struct base_names bn;

	if (!cmp->nrows || !cmp->nvariants)
		return;
	groups = boot_groups_new(cmp);
	w.groups = groups;
	parallel_for(cmp->nrows, BASE_ROWS_GRAIN, decide_bases, &w);
	apply_declared(cmp);
	base_names_init(&bn, cmp, opt);
	w.bn = &bn;
	parallel_for(cmp->nvariants - 1, 1, decide_variants, &w);
	free(bn.names);
	boot_groups_free(groups, cmp->nvariants);
	sort_rows(cmp);
}

const struct param_spec compare_min_change_param = {
	.name = "min-change", .type = PARAM_PERCENT, .min = "0",
	.max = "1000000",
	.help = "the smallest change of a workload result worth reporting",
};

void compare_options_init(struct compare_options *opt)
{
	*opt = (struct compare_options){
		.test = SIG_WELCH,
		.fdr = COMPARE_DEFAULT_FDR,
		.min_change = COMPARE_DEFAULT_MIN_CHANGE,
	};
}
