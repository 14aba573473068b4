// SPDX-License-Identifier: GPL-2.0
/*
 * The default output of "kdelta compare": the table of the LKP robot's
 * mails (seed 002), one per group, laid out as lkp-tests' lib/compare.rb
 * lays it out (show_group_header, show_failure_change, show_perf_change).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/compare.h"
#include "kdelta/render.h"
#include "kdelta/rubyfmt.h"
#include "kdelta/stats.h"
#include "kdelta/util.h"

#define LKP_RULE_WIDTH 89

static int compare_params(const void *a, const void *b)
{
	const struct param *x = a, *y = b;

	return strcmp(x->key, y->key);
}

static bool has_param(const struct comparison *cmp, const char *key)
{
	for (size_t i = 0; i < cmp->nparams; i++)
		if (!strcmp(cmp->params[i].key, key))
			return true;
	return false;
}

/*
 * "key/key/...:" and "  value/value/...", sorted by key as LKP sorts its
 * axes, with the testcase and host among them.
 */
static void add_params(struct strbuf *out, const struct comparison *cmp)
{
	struct param *all = xcalloc(cmp->nparams + 2, sizeof(*all));
	size_t n = 0;

	for (size_t i = 0; i < cmp->nparams; i++)
		all[n++] = cmp->params[i];
	if (cmp->testcase && !has_param(cmp, "testcase"))
		all[n++] = (struct param){ "testcase", cmp->testcase };
	/* lkp-tests' jobs show their host's group (tbox_group), no host. */
	if (cmp->host && !has_param(cmp, "host") &&
	    !has_param(cmp, "tbox_group"))
		all[n++] = (struct param){ "host", cmp->host };
	qsort(all, n, sizeof(*all), compare_params);
	if (n) {
		for (size_t i = 0; i < n; i++) {
			strbuf_addstr(out, i ? "/" : "");
			add_printable(out, all[i].key);
		}
		strbuf_addstr(out, ":\n  ");
		for (size_t i = 0; i < n; i++) {
			strbuf_addstr(out, i ? "/" : "");
			add_printable(out, all[i].value);
		}
		strbuf_addstr(out, "\n\n");
	}
	free(all);
}


/*
 * "commit: " (or the --axis key) and one line per variant: the label, and
 * the subject in quotes after a commit id cut to 12 digits.
 */
static void add_variants(struct strbuf *out, const struct comparison *cmp)
{
	add_printable(out, cmp->axis ? cmp->axis : "commit");
	strbuf_addstr(out, ": \n");
	for (size_t i = 0; i < cmp->nvariants; i++) {
		const struct variant *v = &cmp->variants[i];

		strbuf_addstr(out, "  ");
		if (v->subject && render_is_commit_id(v->label))
			strbuf_add(out, v->label, RENDER_SHORT_COMMIT);
		else
			add_printable(out, v->label);
		if (v->subject) {
			strbuf_addstr(out, " (\"");
			add_printable(out, v->subject);
			strbuf_addstr(out, "\")");
		}
		strbuf_addch(out, '\n');
	}
	strbuf_addch(out, '\n');
}

/* The column labels, cut to 16 and 27 characters, and their rule. */
static void add_column_labels(struct strbuf *out,
			      const struct comparison *cmp)
{
	for (size_t i = 0; i < cmp->nvariants; i++) {
		size_t width = i ? LKP_LABEL_WIDTH : LKP_BASE_LABEL_WIDTH;
		char *label = xstrndup(cmp->variants[i].label, width);

		add_right(out, label, width);
		strbuf_addch(out, ' ');
		free(label);
	}
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < cmp->nvariants; i++) {
		strbuf_addchars(out, '-',
				i ? LKP_LABEL_WIDTH : LKP_BASE_LABEL_WIDTH);
		strbuf_addch(out, ' ');
	}
	strbuf_addch(out, '\n');
}

static void add_group_header(struct strbuf *out, const struct comparison *cmp)
{
	strbuf_addchars(out, '=', LKP_RULE_WIDTH);
	strbuf_addch(out, '\n');
	add_params(out, cmp);
	add_variants(out, cmp);
	add_column_labels(out, cmp);
}

/*
 * One "fail:runs" row: per variant in how many of its runs the failure
 * happened (blank for none) and of how many runs, and the change of that
 * rate against the base in percentage points.  With lkp_rate, as lkp-tests
 * computes it for its stats: a later variant's count divided by the run
 * count of the column before it (the base's, with two columns).
 */
static void add_failure_row(struct strbuf *out, size_t n, const double *fails,
			    const size_t *runs, bool lkp_rate, const char *name)
{
	for (size_t i = 0; i < n; i++) {
		if (i) {
			double rate0 = fails[0] / (double)runs[0];
			size_t of = lkp_rate ? runs[i - 1] : runs[i];

			strbuf_add_ruby_number(out, "%10.0f",
				100 * (fails[i] / (double)of - rate0));
			strbuf_addstr(out, "% ");
		}
		if (fails[i] == 0)
			strbuf_addchars(out, ' ', LKP_MEAN_WIDTH + 1);
		else
			strbuf_add_ruby_number(out, "%11d", fails[i]);
		strbuf_addf(out, ":%-4zu", runs[i]);
	}
	strbuf_addstr(out, "  ");
	add_printable(out, name);
	strbuf_addch(out, '\n');
}

static const char *const failure_header_base[2] = {
	"       fail:runs",
	"           |    ",
};
static const char *const failure_header_later[2] = {
	"  %reproduction    fail:runs",
	"         |             |    ",
};

/*
 * A failure stat's row: the occurrences summed over each variant's runs
 * (a run without the stat counts none), of all the runs of its matrix,
 * those lkp-tests marks incomplete too, as lkp-tests counts them.
 */
static void add_failure_stat(struct strbuf *out, const struct comparison *cmp,
			     const struct metric_row *row, double *fails,
			     size_t *runs)
{
	for (size_t v = 0; v < cmp->nvariants; v++) {
		const struct metric_cell *c = &row->cells[v];
		const struct variant *var = &cmp->variants[v];

		fails[v] = c->samples ? compensated_sum(c->samples, c->sum.n) : 0;
		runs[v] = var->runs > var->matrix_runs ? var->runs :
							 var->matrix_runs;
		if (runs[v] < c->sum.n)
			runs[v] = c->sum.n;
	}
	add_failure_row(out, cmp->nvariants, fails, runs, true, row->name);
}

/* kdelta's own failure rows: runs that failed, or never completed. */
static void add_run_failures(struct strbuf *out, const struct comparison *cmp,
			     bool incomplete, double *fails, size_t *runs)
{
	for (size_t v = 0; v < cmp->nvariants; v++) {
		const struct variant *var = &cmp->variants[v];

		fails[v] = (double)(incomplete ? var->runs_incomplete :
						 var->runs_failed);
		runs[v] = variant_runs_attempted(var);
	}
	add_failure_row(out, cmp->nvariants, fails, runs, false,
			incomplete ? "runs.incomplete" : "runs.failed");
}

static bool failure_shown(const struct comparison *cmp,
			  const struct metric_row *row,
			  const struct compare_options *opt)
{
	return row->failure &&
	       (opt->all ||
		metric_row_has(row, cmp->nvariants, VERDICT_CHANGED));
}

/* Returns the number of rows shown. */
static size_t add_failure_table(struct strbuf *out,
				const struct comparison *cmp,
				const struct compare_options *opt)
{
	size_t n = cmp->nvariants, shown = 0;
	double *fails = xcalloc(n, sizeof(*fails));
	size_t *runs = xcalloc(n, sizeof(*runs));
	bool any_failed = false, any_incomplete = false;

	for (size_t i = 0; i < n; i++) {
		any_failed |= cmp->variants[i].runs_failed != 0;
		any_incomplete |= cmp->variants[i].runs_incomplete != 0;
	}
	shown = any_failed + any_incomplete;
	for (size_t r = 0; r < cmp->nrows; r++)
		shown += failure_shown(cmp, &cmp->rows[r], opt);
	if (shown)
		lkp_add_column_header(out, n, failure_header_base,
				      failure_header_later);
	if (any_failed)
		add_run_failures(out, cmp, false, fails, runs);
	if (any_incomplete)
		add_run_failures(out, cmp, true, fails, runs);
	for (size_t r = 0; r < cmp->nrows; r++)
		if (failure_shown(cmp, &cmp->rows[r], opt))
			add_failure_stat(out, cmp, &cmp->rows[r], fails, runs);
	free(fails);
	free(runs);
	return shown;
}

/*
 * Workload results always, changed or not; monitor metrics that changed;
 * with --all every metric.  Every metric whose statistics are not finite
 * is listed too.
 */
static bool row_shown(const struct comparison *cmp,
		      const struct metric_row *row,
		      const struct compare_options *opt)
{
	if (row->failure)	/* in the fail:runs table */
		return false;
	return opt->all || row->key ||
	       metric_row_has(row, cmp->nvariants, VERDICT_CHANGED) ||
	       metric_row_has(row, cmp->nvariants, VERDICT_NOT_FINITE);
}

/* A label in a line of text: a commit id cut as the header cuts it. */
static void add_note(struct strbuf *out, struct strbuf *line, bool *any)
{
	if (!*any)
		strbuf_addstr(out, "runs to look at (kept in the statistics):\n");
	*any = true;
	add_wrapped(out, line->buf, RENDER_VERDICT_WIDTH, 6);
}

/*
 * Run i's value of the time monitor's user time in variant v, and the
 * variant's median of it: whether the CPU did more work, or the same work
 * more slowly (a host's or the clock's hiccup), when the run took longer.
 * False when the variant has no such value for each of its runs.
 */
static bool run_user_time(const struct comparison *cmp, size_t v, size_t i,
			  double *value, double *median)
{
	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct metric_cell *c = &cmp->rows[r].cells[v];
		bool *scratch;

		if (strcmp(cmp->rows[r].name, "time.user_time"))
			continue;
		if (!c->samples || c->zero_filled ||
		    c->sum.n != cmp->variants[v].runs || i >= c->sum.n)
			return false;
		*value = c->samples[i];
		scratch = xcalloc(c->sum.n, sizeof(*scratch));
		find_outliers(c->samples, c->sum.n, scratch, NULL, median);
		free(scratch);
		return c->sum.n >= 3;
	}
	return false;
}

/*
 * "  fix run 3: aim9.creat-clo.ops_per_sec 412, far from the others
 * (median 1001.2); time.user_time 1.9 (median 1.6)": runs whose workload
 * result is an outlier (find_outliers()) and lies at least --min-change
 * from the median, a distance that could sway a verdict.
 */
static void add_outliers(struct strbuf *out, const struct comparison *cmp,
			 const struct compare_options *opt,
			 const struct metric_row *row, size_t v,
			 struct strbuf *line, bool *any)
{
	const struct variant *var = &cmp->variants[v];
	const struct metric_cell *cell = &row->cells[v];
	size_t n = cell->samples ? cell->sum.n : 0;
	double median = 0, user, user_median;
	bool *is_outlier;

	if (!n)
		return;
	is_outlier = xcalloc(n, sizeof(*is_outlier));
	find_outliers(cell->samples, n, is_outlier, NULL, &median);
	for (size_t i = 0; i < n; i++) {
		double far = fabs(cell->samples[i] - median);

		if (!cell->change_absolute)
			far = median ? 100 * far / fabs(median) : INFINITY;
		if (!is_outlier[i] || far < opt->min_change)
			continue;
		strbuf_reset(line);
		strbuf_addstr(line, "  ");
		render_add_label(line, var);
		if (var->run_names && n == var->runs)
			strbuf_addf(line, " run %s: ", var->run_names[i]);
		else
			strbuf_addf(line, " run #%zu: ", i + 1);
		add_printable(line, row->name);
		strbuf_addf(line, " %.6g, far from the others (median %.6g)",
			    cell->samples[i], median);
		if (n == var->runs &&
		    run_user_time(cmp, v, i, &user, &user_median))
			strbuf_addf(line, "; time.user_time %.6g (median %.6g)",
				    user, user_median);
		add_note(out, line, any);
	}
	free(is_outlier);
}

/*
 * The runs the machine disturbed (what the runner recorded) and those
 * whose workload result lies far from the others': named, never left out.
 */
static void add_run_notes(struct strbuf *out, const struct comparison *cmp,
			  const struct compare_options *opt)
{
	struct strbuf line = STRBUF_INIT;
	bool any = false;

	for (size_t v = 0; v < cmp->nvariants; v++) {
		const struct variant *var = &cmp->variants[v];

		for (size_t i = 0; i < var->nnotes; i++) {
			strbuf_reset(&line);
			strbuf_addstr(&line, "  ");
			render_add_label(&line, var);
			strbuf_addf(&line, " run %s: %s", var->notes[i].run,
				    var->notes[i].why);
			add_note(out, &line, &any);
		}
	}
	for (size_t r = 0; r < cmp->nrows; r++)
		for (size_t v = 0; cmp->rows[r].key && !cmp->rows[r].failure &&
				   v < cmp->nvariants; v++)
			add_outliers(out, cmp, opt, &cmp->rows[r], v, &line,
				     &any);
	strbuf_release(&line);
}

/*
 * "fix: 1 run interrupted (kdelta was stopped or killed in it), not
 * counted": not the commit's doing, so neither a run nor a failure.
 */
static void add_interrupted(struct strbuf *out, const struct comparison *cmp)
{
	struct strbuf line = STRBUF_INIT;

	for (size_t v = 0; v < cmp->nvariants; v++) {
		const struct variant *var = &cmp->variants[v];
		size_t n = var->runs_interrupted;

		if (!n)
			continue;
		strbuf_reset(&line);
		render_add_label(&line, var);
		strbuf_addf(&line, ": %zu run%s interrupted (kdelta was stopped or killed in %s), not counted",
			    n, n == 1 ? "" : "s", n == 1 ? "it" : "them");
		add_wrapped(out, line.buf, RENDER_VERDICT_WIDTH, 4);
	}
	strbuf_release(&line);
}

static const char lkp_legend[] =
	"marks: +1.0% changed, (+1.0%) same, small or undecided, ±N% stddev, - no value\n";

/*
 * The rows, each change marked by itself: plainly when it changed, in
 * parentheses when it did not (or fewer than 3 runs could not decide it,
 * which a line after the table counts).  Then the workload results'
 * verdicts, what was left out, and the legend.
 */
static void add_perf_table(struct strbuf *out, const struct comparison *cmp,
			   const struct compare_options *opt,
			   size_t failures_shown)
{
	size_t shown = 0, undecided = 0, monitors = 0, monitors_shown = 0;

	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct metric_row *row = &cmp->rows[r];

		monitors += !row->key && !row->failure;
		if (!row_shown(cmp, row, opt))
			continue;
		if (!shown++)
			lkp_add_perf_header(out, cmp->nvariants);
		monitors_shown += !row->key;
		undecided += metric_row_has(row, cmp->nvariants,
					    VERDICT_FEW_RUNS);
		lkp_add_row(out, row->cells, cmp->nvariants, row->name,
			    LKP_STYLE_DETAIL, LKP_CHANGE_MARKED);
	}
	if (undecided)
		strbuf_addf(out,
			    "not enough runs (fewer than 3) to decide %zu row%s\n",
			    undecided, undecided == 1 ? "" : "s");
	if (shown)
		strbuf_addch(out, '\n');
	render_key_verdicts(out, cmp, opt);
	add_run_notes(out, cmp, opt);
	add_interrupted(out, cmp);
	if (monitors && !monitors_shown)
		strbuf_addf(out,
			    "no significant change in %zu monitor metric%s (--all lists them)\n",
			    monitors, monitors == 1 ? "" : "s");
	add_timing_notes(out, &cmp, 1);
	if (shown || failures_shown)
		strbuf_addstr(out, lkp_legend);
}

void render_lkp(const struct comparison *cmp, const struct compare_options *opt,
		struct strbuf *out)
{
	add_group_header(out, cmp);
	add_perf_table(out, cmp, opt, add_failure_table(out, cmp, opt));
	strbuf_addch(out, '\n');
}
