// SPDX-License-Identifier: GPL-2.0
/*
 * A workload result's verdict in words, the same in every text output:
 * the tables' verdict lines, --explain and the report's mail.
 */
#include <math.h>
#include <string.h>

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
	/* Decided by the boots' means: it takes boots, not runs (decide.c). */
	if (runs > RUNS_NEEDED_MAX)
		strbuf_addf(out, "more than %d %s per side", RUNS_NEEDED_MAX,
			    cell->by_boots ? "boots" : "runs");
	else
		strbuf_addf(out, "about %zu %s%s per side", runs,
			    cell->by_boots ? "boot" : "run", runs == 1 ? "" : "s");
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
		strbuf_addstr(out, cell->by_boots && cell->sum.n >= 3 ?
			      ": not enough boots (fewer than 2)" :
			      ": not enough runs (fewer than 3)");
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

bool render_is_commit_id(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return n >= RENDER_SHORT_COMMIT && !s[n];
}

void render_add_label(struct strbuf *out, const struct variant *v)
{
	if (render_is_commit_id(v->label))
		strbuf_add(out, v->label, RENDER_SHORT_COMMIT);
	else
		add_printable(out, v->label);
}

/*
 * Why a variant has no usable run: "dead: no usable run: 3 of 3 runs
 * failed: mkfs.xfs: ...".
 */
static void add_no_runs(struct strbuf *out, const struct variant *var)
{
	render_add_label(out, var);
	strbuf_addstr(out, ": no usable run");
	if (var->runs_failed + var->runs_incomplete)
		strbuf_addf(out, ": %zu of %zu runs failed",
			    var->runs_failed + var->runs_incomplete,
			    variant_runs_attempted(var));
	if (var->failure) {
		strbuf_addstr(out, ": ");
		add_printable(out, var->failure);
	}
}

/*
 * One line per workload result and later variant, its verdict in words:
 * "aim9.creat-clo.ops_per_sec, fix: -3.1% (95% CI -9.0% … +2.8%):
 * inconclusive, about 14 runs per side would decide ±1%", broken into
 * lines that fit a mail.
 */
void render_key_verdicts(struct strbuf *out, const struct comparison *cmp,
			 const struct compare_options *opt)
{
	struct strbuf line = STRBUF_INIT;
	const char *missing = comparison_missing_key_result(cmp);

	if (missing) {
		add_printable(&line, missing);
		strbuf_addstr(&line, ": the job declares it a key result (key_result), but no run printed it: no data");
		add_wrapped(out, line.buf, RENDER_VERDICT_WIDTH, 4);
	}
	for (size_t v = 0; v < cmp->nvariants; v++) {
		if (cmp->variants[v].runs)
			continue;
		strbuf_reset(&line);
		add_no_runs(&line, &cmp->variants[v]);
		add_wrapped(out, line.buf, RENDER_VERDICT_WIDTH, 4);
	}
	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct metric_row *row = &cmp->rows[r];

		if (!row->key || row->failure)
			continue;
		render_row_verdicts(out, cmp, row, row->name, opt);
	}
	strbuf_release(&line);
}

void render_row_verdicts(struct strbuf *out, const struct comparison *cmp,
			 const struct metric_row *row, const char *name,
			 const struct compare_options *opt)
{
	struct strbuf line = STRBUF_INIT;

	for (size_t v = 1; row && v < cmp->nvariants; v++) {
		if (!cmp->variants[v].runs || !cmp->variants[0].runs)
			continue;
		strbuf_reset(&line);
		add_printable(&line, name);
		strbuf_addstr(&line, ", ");
		render_add_label(&line, &cmp->variants[v]);
		strbuf_addstr(&line, ": ");
		add_key_verdict(&line, row, &row->cells[v], opt);
		add_wrapped(out, line.buf, RENDER_VERDICT_WIDTH, 4);
	}
	strbuf_release(&line);
}
