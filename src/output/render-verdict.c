// SPDX-License-Identifier: GPL-2.0
/*
 * A workload result's verdict in words, the same in every text output:
 * the tables' verdict lines, --explain and the report's mail.
 */
#include <math.h>

#include "kdelta/render.h"

/* One decimal, two below 1 so that a small interval keeps its shape. */
static void add_amount(struct strbuf *out, double x, bool points, int decimals)
{
	strbuf_addf(out, "%+.*f%s", decimals, x == 0 ? 0.0 : x,
		    points ? " points" : "%");
}

static int decimals_for(double a, double b)
{
	return fmax(fabs(a), fabs(b)) < 1 ? 2 : 1;
}

void add_interval(struct strbuf *out, const struct metric_cell *cell)
{
	const struct change_interval *ci = &cell_estimate(cell)->ci;
	int decimals = decimals_for(ci->low, ci->high);

	strbuf_addf(out, "%d%% CI ", COMPARE_INTERVAL_LEVEL);
	if (!ci->bounded) {
		strbuf_addstr(out, "unbounded");
		return;
	}
	add_amount(out, ci->low, cell->change_absolute, decimals);
	strbuf_addstr(out, " … ");
	add_amount(out, ci->high, cell->change_absolute, decimals);
}

void add_runs_needed(struct strbuf *out, const struct metric_cell *cell,
		     const struct compare_options *opt)
{
	size_t runs = cell_estimate(cell)->runs_needed;

	if (!runs)
		return;
	if (runs > RUNS_NEEDED_MAX)
		strbuf_addf(out, "more than %d runs per side", RUNS_NEEDED_MAX);
	else
		strbuf_addf(out, "about %zu run%s per side", runs,
			    runs == 1 ? "" : "s");
	strbuf_addf(out, " would decide ±%g%s", opt->min_change,
		    cell->change_absolute ? " points" : "%");
}

/* "better", "worse" or NULL when the metric's direction is unknown. */
static const char *direction(const struct metric_row *row,
			     const struct metric_cell *cell)
{
	double sign = cell->change_infinite ? cell->sum.mean : cell->change;

	if (!row->better || sign == 0)
		return NULL;
	return row->better * sign > 0 ? "better" : "worse";
}

static void add_change(struct strbuf *out, const struct metric_cell *cell)
{
	if (cell->change_infinite)
		strbuf_addf(out, "from 0 to %.6g", cell->sum.mean);
	else
		add_amount(out, cell->change, cell->change_absolute,
			   decimals_for(cell->change, 0));
}

void add_key_verdict(struct strbuf *out, const struct metric_row *row,
		     const struct metric_cell *cell,
		     const struct compare_options *opt)
{
	const char *dir;

	switch (cell->verdict) {
	case VERDICT_ABSENT:
		strbuf_addstr(out, "absent in the base or in this variant");
		return;
	case VERDICT_NOT_FINITE:
		strbuf_addstr(out, "not finite: not decided");
		return;
	case VERDICT_BASE:
		strbuf_addstr(out, "base");
		return;
	case VERDICT_FEW_RUNS:
		add_change(out, cell);
		strbuf_addstr(out, ": not enough runs (fewer than 3)");
		if (cell_estimate(cell)->runs_needed) {
			strbuf_addstr(out, ", ");
			add_runs_needed(out, cell, opt);
		}
		return;
	default:
		break;
	}
	add_change(out, cell);
	strbuf_addstr(out, " (");
	add_interval(out, cell);
	strbuf_addf(out, "): %s", verdict_name(cell->verdict));
	dir = direction(row, cell);
	/*
	 * --fail-on-regression cannot tell whether a change of unknown
	 * direction is a regression: it says so, and how to declare it.
	 */
	if (cell->verdict == VERDICT_CHANGED && dir)
		strbuf_addf(out, ", %s", dir);
	else if (cell->verdict == VERDICT_CHANGED && row->gate)
		strbuf_addf(out, ", direction unknown: not counted as a regression (--fail-on-regression: inconclusive); declare which is better in the job: key_result: {%s: higher} (or lower)",
			    row->name);
	else if (cell->verdict == VERDICT_CHANGED)
		strbuf_addstr(out, ", direction unknown (not a key result)");
	if (cell->verdict == VERDICT_INCONCLUSIVE && cell_estimate(cell)->runs_needed) {
		strbuf_addstr(out, ", ");
		add_runs_needed(out, cell, opt);
	}
}
