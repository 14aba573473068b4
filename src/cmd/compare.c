// SPDX-License-Identifier: GPL-2.0
/*
 * kdelta compare: find the results of the variants, build one comparison
 * per testcase / parameter / host group (src/compare/compare-args.c), decide,
 * render.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "kdelta/cmdline.h"
#include "kdelta/compare-args.h"
#include "kdelta/compare.h"
#include "kdelta/render.h"
#include "kdelta/util.h"

/* printf's format: the defaults come from compare_options_init(). */
static const char compare_usage[] =
	"usage: kdelta compare [options] BASE VARIANT...\n"
	"       kdelta compare [options] --axis KEY VALUE VALUE...\n"
	"\n"
	"Compares the stored results of commits (the first is the base) and prints\n"
	"LKP's %%stddev %%change table for each testcase/parameters/host directory that\n"
	"holds all of them.  A label is a commit's name as stored (xfs/for-next too),\n"
	"or an abbreviated hash of one; with --repo, any git revision (main~19).  An\n"
	"argument beginning with '/', './' or '../', or one with a '/' that exists,\n"
	"is a path: a commit directory or a matrix.json[.gz].\n"
	"\n"
	"    --result-root DIR     where to find results (default: $KDELTA_RESULT_ROOT,\n"
	"                          /var/lib/kdelta/results for root, else\n"
	"                          ~/.local/share/kdelta/results)\n"
	"    --axis KEY            compare the values of job parameter KEY instead of\n"
	"                          commits (--axis fs xfs ext4 btrfs)\n"
	"    --commit LABEL        with --axis: only the results of commit LABEL\n"
	"                          (repeatable; default: every commit, separately)\n"
	"    --test TEST           significance test: welch, mwu or lkp (default %s)\n"
	"    --fdr Q               false discovery rate of the Benjamini-Hochberg\n"
	"                          correction (default %g; 0: no correction)\n"
	"    --min-change PCT      smallest change of a workload result worth\n"
	"                          reporting, in percent (default %g)\n"
	"    --all                 list every metric, not only the changed ones\n"
	"    --metric PATTERN      only the metrics whose names PATTERN matches, a\n"
	"                          glob such as 'aim9.*' (repeatable)\n"
	"    --format FORMAT       lkp (default), mmtests, json or csv\n"
	"    --summary METRIC      one table of METRIC over every group, GEO-MEAN first\n"
	"    --explain METRIC      how each verdict on METRIC was reached\n"
	"    --repo DIR            resolve labels as revisions of the git repository\n"
	"                          DIR and show the subject of those that are commits\n"
	"    --fail-on-regression  exit with the robot's statuses below\n"
	"    -h, --help            show this help\n"
	"\n"
	"Exit status: 0; 2 for bad usage or bad input.  With --fail-on-regression:\n"
	"0 clean (every workload result the same or better, no new failures), 1\n"
	"regressed (a result changed for the worse, or a variant's runs fail where\n"
	"the base's do not), 6 inconclusive (more runs would tell), 7 no data (a\n"
	"variant without a usable run, a result missing).  See kdelta(1).\n";

static void explain_samples(const struct variant *var,
			    const struct metric_cell *cell, bool base,
			    struct strbuf *out)
{
	strbuf_addstr(out, "  ");
	add_printable(out, var->label);
	strbuf_addstr(out, base ? " (base): " : ": ");
	if (!cell->samples) {
		strbuf_addstr(out, "absent\n");
		return;
	}
	strbuf_addf(out, "%zu run%s:", cell->sum.n, cell->sum.n == 1 ? "" : "s");
	for (size_t i = 0; i < cell->sum.n; i++)
		strbuf_addf(out, " %.6g", cell->samples[i]);
	strbuf_addf(out, "\n    mean %.6g, stddev %.6g (%.3g%%), min %.6g, max %.6g\n",
		    cell->sum.mean, cell->sum.stddev, cell->sum.rel_stddev,
		    cell->sum.min, cell->sum.max);
	if (cell->zero_filled)
		strbuf_addstr(out, "    none in its runs, which had others of its source: 0 in each\n");
}

/*
 * The boots' means a cell was tested on (decide.c): the runs of each boot,
 * in the order its first run came.
 */
static void explain_boots(const struct variant *var,
			  const struct metric_cell *cell, struct strbuf *out)
{
	size_t nboots = 0;

	if (!cell->samples)
		return;
	if (!var->boots || cell->sum.n != var->runs) {
		strbuf_addstr(out, "    each run its own boot\n");
		return;
	}
	strbuf_addstr(out, "    per boot:");
	for (size_t i = 0; i < var->runs; i++) {
		double sum = 0;
		size_t n = 0, first = 0;

		while (first < i && strcmp(var->boots[first], var->boots[i]))
			first++;
		if (first < i)
			continue;	/* counted with its boot's first run */
		for (size_t j = i; j < var->runs; j++)
			if (!strcmp(var->boots[j], var->boots[i])) {
				sum += cell->samples[j];
				n++;
			}
		strbuf_addf(out, " %.6g (%zu run%s)", sum / (double)n, n,
			    n == 1 ? "" : "s");
		nboots++;
	}
	strbuf_addf(out, ": %zu boot%s\n", nboots, nboots == 1 ? "" : "s");
}

static void explain_test(const struct metric_row *row,
			 const struct metric_cell *cell,
			 const struct compare_options *opt, struct strbuf *out)
{
	const struct test_result *t = &cell->test;

	if (cell->verdict == VERDICT_ABSENT || cell->verdict == VERDICT_FEW_RUNS ||
	    cell->verdict == VERDICT_NOT_FINITE)
		return;
	/* lkp-tests' decision: its verdict's rule says which step decided */
	if (row->failure || opt->test == SIG_LKP)
		return;
	if (opt->test == SIG_WELCH)
		strbuf_addf(out, "    Welch's t-test: t = %.6g, df = %.6g, p = %.6g\n",
			    t->statistic, t->df, t->p);
	else
		strbuf_addf(out, "    Mann-Whitney U test (%s): U = %.6g, p = %.6g\n",
			    t->exact ? "exact" : "normal approximation",
			    t->statistic, t->p);
	if (opt->fdr <= 0)
		strbuf_addf(out, "    no correction (--fdr 0): q = p = %.6g\n",
			    cell->q);
	else
		strbuf_addf(out, "    Benjamini-Hochberg over the %s: q = %.6g (--fdr %g)\n",
			    row->key ? "workload results" : "monitor metrics",
			    cell->q, opt->fdr);
}

/*
 * A workload result's interval, how it was computed, and the rule of the
 * three verdicts it decides.
 */
static void explain_interval(const struct metric_row *row,
			     const struct metric_cell *cell,
			     const struct compare_options *opt,
			     struct strbuf *out)
{
	const struct change_interval *ci = &cell_estimate(cell)->ci;
	bool tested = cell->verdict == VERDICT_SAME ||
		      cell->verdict == VERDICT_CHANGED ||
		      cell->verdict == VERDICT_INCONCLUSIVE;

	if (!row->key || (!tested && cell->verdict != VERDICT_FEW_RUNS))
		return;
	if (tested && opt->test == SIG_MWU)
		strbuf_addf(out, "    Hodges-Lehmann shift %+.6g, Moses' interval from the differences ranked %.0f and n*m + 1 - %.0f:\n",
			    ci->estimate, ci->critical, ci->critical);
	else if (tested && isinf(ci->df))
		strbuf_addf(out, "    Fieller's interval of the ratio of means, constant samples:\n");
	else if (tested)
		strbuf_addf(out, "    Fieller's interval of the ratio of means, t = %.6g, df = %.6g:\n",
			    ci->critical, ci->df);
	if (tested) {
		strbuf_addstr(out, "      ");
		add_interval(out, cell);
		strbuf_addf(out, "%s\n", !ci->bounded ?
			    " (the base's runs do not bound it away from 0)" :
			    cell->verdict == VERDICT_SAME ?
			    ", inside ±(--min-change)" : "");
	}
	if (cell_estimate(cell)->runs_needed) {
		strbuf_addstr(out, "    ");
		add_runs_needed(out, cell, opt);
		strbuf_addstr(out, " at the noise observed\n");
	}
}

static void explain_change(const struct metric_cell *cell, struct strbuf *out)
{
	if (!cell->samples || cell->verdict == VERDICT_ABSENT)
		return;
	if (cell->change_infinite)
		strbuf_addstr(out, "    change: from a mean of 0\n");
	else if (cell->change_absolute)
		strbuf_addf(out, "    change: %+.6g points\n", cell->change);
	else
		strbuf_addf(out, "    change: %+.6g%%\n", cell->change);
}

static void explain_row(const struct comparison *cmp,
			const struct metric_row *row,
			const struct compare_options *opt, struct strbuf *out)
{
	add_printable(out, cmp->name);
	strbuf_addstr(out, ": ");
	add_printable(out, row->name);
	strbuf_addf(out, ": %s, %s\n",
		    row->key ? "workload result" : "monitor metric",
		    row->better > 0 ? "higher is better"
		    : row->better < 0 ? "lower is better" : "direction unknown");
	bool by_boots = false;

	for (size_t v = 1; v < cmp->nvariants; v++)
		by_boots |= row->cells[v].by_boots;
	explain_samples(&cmp->variants[0], &row->cells[0], true, out);
	if (by_boots)
		explain_boots(&cmp->variants[0], &row->cells[0], out);
	for (size_t v = 1; v < cmp->nvariants; v++) {
		const struct metric_cell *cell = &row->cells[v];

		explain_samples(&cmp->variants[v], cell, false, out);
		if (by_boots)
			explain_boots(&cmp->variants[v], cell, out);
		if (cell->by_boots)
			strbuf_addstr(out, "    runs that share a boot are not independent samples of its kernel: tested on the boots' means\n");
		explain_change(cell, out);
		explain_test(row, cell, opt, out);
		explain_interval(row, cell, opt, out);
		strbuf_addf(out, "    verdict: %s: %s\n",
			    verdict_name(cell->verdict),
			    cell->rule ? cell->rule : "");
	}
}


static int explain(const struct compare_state *st, const struct compare_args *a,
		   struct strbuf *out, struct kd_err *err)
{
	size_t shown = 0;

	if (!compare_state_has_metric(st, a->explain))
		return compare_no_such_metric(st, "--explain",
					      a->explain, err);
	for (size_t i = 0; i < st->n; i++) {
		const struct metric_row *row = comparison_find_row(st->cmps[i],
								  a->explain);

		if (!row)
			continue;
		if (shown++)
			strbuf_addch(out, '\n');
		explain_row(st->cmps[i], row, &a->q.opt, out);
	}
	return 0;
}

static int render(const struct compare_state *st, const struct compare_args *a,
		  struct strbuf *out, struct kd_err *err)
{
	const struct comparison *const *cmps =
		(const struct comparison *const *)st->cmps;

	if (a->explain)
		return explain(st, a, out, err);
	if (a->summary) {
		if (!compare_state_has_metric(st, a->summary))
			return compare_no_such_metric(st, "--summary",
						      a->summary, err);
		render_summary(cmps, st->n, a->summary, &a->q.opt, out);
		return 0;
	}
	switch (a->format) {
	case FORMAT_JSON:
		render_json(cmps, st->n, &a->q.opt, out);
		break;
	case FORMAT_CSV:
		render_csv(cmps, st->n, &a->q.opt, out);
		break;
	case FORMAT_LKP:
	case FORMAT_MMTESTS:
		for (size_t i = 0; i < st->n; i++) {
			if (i)
				strbuf_addch(out, '\n');
			if (a->format == FORMAT_LKP)
				render_lkp(cmps[i], &a->q.opt, out);
			else
				render_mmtests(cmps[i], &a->q.opt, out);
		}
		break;
	}
	return 0;
}

int compare_status(const struct compare_state *st)
{
	static const int status[] = {
		[OUTCOME_CLEAN] = KD_EXIT_OK,
		[OUTCOME_INCONCLUSIVE] = KD_EXIT_INCONCLUSIVE,
		[OUTCOME_NO_DATA] = KD_EXIT_NO_DATA,
		[OUTCOME_REGRESSED] = KD_EXIT_FAIL,
	};

	return status[compare_outcome((const struct comparison *const *)
				      st->cmps, st->n)];
}


static int write_stdout(const struct strbuf *out, struct kd_err *err)
{
	if (fwrite(out->buf, 1, out->len, stdout) != out->len ||
	    fflush(stdout))
		return kd_error(err, "standard output: %s", strerror(errno));
	return 0;
}

static void print_usage(void)
{
	struct compare_options defaults;

	compare_options_init(&defaults);
	printf(compare_usage, sig_test_names[defaults.test], defaults.fdr,
	       defaults.min_change);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_state st = { 0 };
	struct compare_args a;
	struct strbuf out = STRBUF_INIT;
	struct kd_err err;
	int status = KD_EXIT_OK;

	if (compare_args_parse(&a, argc, argv, NULL, &err) < 0)
		status = KD_EXIT_USAGE;
	else if (a.help)
		print_usage();
	else if (compare_load(&st, &a.q, &err) < 0 ||
		 render(&st, &a, &out, &err) < 0 || write_stdout(&out, &err) < 0)
		status = KD_EXIT_USAGE;
	else if (a.fail_on_regression)
		status = compare_status(&st);
	if (st.notices.len)
		fputs(st.notices.buf, stderr);
	if (status == KD_EXIT_USAGE)
		cmd_error("compare", "%s", err.msg);
	strbuf_release(&out);
	compare_state_release(&st);
	compare_args_release(&a);
	return status;
}
