// SPDX-License-Identifier: GPL-2.0
/*
 * kdelta plot: the samples of chosen metrics, variant by variant, as ASCII
 * on standard output, one SVG file, or an HTML page.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "kdelta/cmdline.h"
#include "kdelta/compare-args.h"
#include "kdelta/metric-rules.h"
#include "kdelta/plot.h"
#include "kdelta/report.h"
#include "kdelta/util.h"

static const char plot_usage[] =
	"usage: kdelta plot [options] [--metric METRIC]... BASE VARIANT...\n"
	"       kdelta plot [options] --axis KEY VALUE VALUE...\n"
	"\n"
	"Plots the samples of each variant of the stored results, run by run: ASCII\n"
	"on standard output, or an SVG or HTML file with each variant's samples,\n"
	"mean, 95% confidence interval and change against the base.  Default: the\n"
	"workload results that changed significantly, or every workload result\n"
	"when none did.\n"
	"\n"
	"    --metric METRIC       plot METRIC, one exact name, not a glob\n"
	"                          (repeatable)\n"
	"    --svg FILE            write one SVG file, a panel per metric and group\n"
	"    --html FILE           write an HTML page with the panels inline\n"
	"                          (--svg and --html exclude each other)\n"
	"\n"
	"Options of kdelta compare that choose and decide:\n"
	"    --result-root DIR, --axis KEY, --commit LABEL, --test TEST, --fdr Q,\n"
	"    --min-change PCT, --repo DIR; see 'kdelta compare --help'.\n"
	"    -h, --help            show this help\n"
	"\n"
	"Exit status: 0; 2 for bad usage or bad input.  See kdelta(1).\n";

struct plot_args {
	const char **metrics;
	size_t nmetrics, metrics_alloc;
	const char *svg, *html;
};

static const char *const plot_value_options[] = {
	"--metric", "--svg", "--html", NULL,
};

static int plot_option(void *ctx, const char *name, const char *value,
		       struct kd_err *err)
{
	struct plot_args *p = ctx;

	if (!*value)
		return kd_error(err, "%s: expected a value, got ''", name);
	if (!strcmp(name, "--metric")) {
		ALLOC_GROW(p->metrics, p->nmetrics + 1, p->metrics_alloc);
		/* A metric may be given by the name an old store has. */
		p->metrics[p->nmetrics++] = metric_current_name(value);
	} else if (!strcmp(name, "--svg")) {
		p->svg = value;
	} else {
		p->html = value;
	}
	return 0;
}

static bool any_key_change(const struct compare_state *st)
{
	for (size_t i = 0; i < st->n; i++)
		for (size_t r = 0; r < st->cmps[i]->nrows; r++)
			if (st->cmps[i]->rows[r].key &&
			    metric_row_has(&st->cmps[i]->rows[r],
					   st->cmps[i]->nvariants,
					   VERDICT_CHANGED))
				return true;
	return false;
}

/* One plot: a metric of a group. */
struct panel {
	const struct comparison *cmp;
	const struct metric_row *row;
};

static void add_panel(struct panel **panels, size_t *n, size_t *alloc,
		      const struct comparison *cmp,
		      const struct metric_row *row)
{
	ALLOC_GROW(*panels, *n + 1, *alloc);
	(*panels)[(*n)++] = (struct panel){ cmp, row };
}

/*
 * A --metric that names no metric: a glob gets told that plot takes exact
 * names (compare's --metric takes globs), with the first it matches.
 */
static int no_such_metric(const struct compare_state *st, const char *metric,
			  struct kd_err *err)
{
	if (!strpbrk(metric, "*?["))
		return compare_no_such_metric(st, "--metric", metric, err);
	for (size_t i = 0; i < st->n; i++)
		for (size_t r = 0; r < st->cmps[i]->nrows; r++)
			if (!fnmatch(metric, st->cmps[i]->rows[r].name, 0))
				return kd_error(err, "--metric %s: plot takes one exact metric name per --metric, not a pattern, such as '%s'",
						metric, st->cmps[i]->rows[r].name);
	return kd_error(err, "--metric %s: plot takes one exact metric name per --metric, not a pattern",
			metric);
}

/* The panels to draw, in group order, then metric order. */
static int choose_panels(const struct compare_state *st,
			 const struct plot_args *p, struct panel **panels,
			 size_t *n, struct kd_err *err)
{
	bool changed_only = any_key_change(st);
	size_t alloc = 0;

	*panels = NULL;
	*n = 0;
	for (size_t m = 0; m < p->nmetrics; m++)
		if (!compare_state_has_metric(st, p->metrics[m]))
			return no_such_metric(st, p->metrics[m], err);
	for (size_t i = 0; i < st->n; i++) {
		const struct comparison *cmp = st->cmps[i];

		for (size_t m = 0; m < p->nmetrics; m++) {
			const struct metric_row *row =
				comparison_find_row(cmp, p->metrics[m]);

			if (row)
				add_panel(panels, n, &alloc, cmp, row);
		}
		for (size_t r = 0; !p->nmetrics && r < cmp->nrows; r++)
			if (cmp->rows[r].key &&
			    (!changed_only ||
			     metric_row_has(&cmp->rows[r], cmp->nvariants,
					    VERDICT_CHANGED)))
				add_panel(panels, n, &alloc, cmp, &cmp->rows[r]);
	}
	if (!*n)
		return kd_error(err, "these results hold no workload result; name the metrics to plot with --metric");
	return 0;
}

/* "-6.2%, changed": what the comparer decided, under each column. */
static char *verdict_note(const struct metric_row *row, size_t v)
{
	const struct metric_cell *cell = &row->cells[v];
	struct strbuf sb = STRBUF_INIT;

	if (v == 0)
		return xstrdup("base");
	switch (cell->verdict) {
	case VERDICT_FEW_RUNS:
		return xstrdup("too few runs to decide");
	case VERDICT_ABSENT:
		return xstrdup("absent");
	case VERDICT_NOT_FINITE:
		return xstrdup("statistics not finite");
	default:
		break;
	}
	/* compare's words: changed, same, small, inconclusive */
	report_add_change(&sb, cell);
	strbuf_addf(&sb, ", %s", verdict_name(cell->verdict));
	return strbuf_detach(&sb);
}

static void draw_panel(const struct panel *pn, bool svg, bool several,
		       struct strbuf *out)
{
	const struct comparison *cmp = pn->cmp;
	struct plot_series *series = xcalloc(cmp->nvariants, sizeof(*series));
	char **notes = xcalloc(cmp->nvariants, sizeof(*notes));
	char *title = several && !svg ?
		xasprintf("%s (%s)", pn->row->name, cmp->name) :
		xstrdup(pn->row->name);

	for (size_t v = 0; v < cmp->nvariants; v++) {
		const struct metric_cell *cell = &pn->row->cells[v];

		notes[v] = verdict_note(pn->row, v);
		series[v] = (struct plot_series){
			.label = cmp->variants[v].label,
			.samples = cell->samples,
			.n = cell->samples ? cell->sum.n : 0,
			.note = notes[v],
		};
	}
	if (svg)
		plot_svg(title, cmp->name, series, cmp->nvariants, out);
	else
		plot_ascii(title, series, cmp->nvariants, out);
	for (size_t v = 0; v < cmp->nvariants; v++)
		free(notes[v]);
	free(notes);
	free(series);
	free(title);
}

/* The page is titled after the variants: "kdelta plot: v6.1, v6.2". */
static void add_html_page(const struct comparison *cmp, char **svgs, size_t n,
			  struct strbuf *out)
{
	struct strbuf title = STRBUF_INIT;

	strbuf_addstr(&title, "kdelta plot: ");
	for (size_t v = 0; v < cmp->nvariants; v++)
		strbuf_addf(&title, "%s%s", v ? ", " : "",
			    cmp->variants[v].label);
	plot_html_page(title.buf, (const char *const *)svgs, n, out);
	strbuf_release(&title);
}

static void draw(const struct panel *panels, size_t n,
		 const struct plot_args *p, struct strbuf *out)
{
	bool svg = p->svg || p->html;
	bool several = n > 1 && panels[0].cmp != panels[n - 1].cmp;
	char **svgs = xcalloc(n, sizeof(*svgs));

	for (size_t i = 0; i < n; i++) {
		struct strbuf one = STRBUF_INIT;

		if (!svg && i)
			strbuf_addch(out, '\n');
		draw_panel(&panels[i], svg, several, svg ? &one : out);
		svgs[i] = strbuf_detach(&one);
	}
	if (p->svg)
		plot_svg_stack((const char *const *)svgs, n, out);
	else if (p->html)
		add_html_page(panels[0].cmp, svgs, n, out);
	for (size_t i = 0; i < n; i++)
		free(svgs[i]);
	free(svgs);
}

static int plot(const struct plot_args *p, const struct compare_args *a,
		struct kd_err *err)
{
	struct compare_state st = { 0 };
	struct strbuf out = STRBUF_INIT;
	struct panel *panels = NULL;
	size_t n = 0;
	int ret = compare_load(&st, &a->q, err);

	if (!ret)
		ret = choose_panels(&st, p, &panels, &n, err);
	if (!ret) {
		draw(panels, n, p, &out);
		if (p->svg || p->html)
			ret = write_file_atomic(p->svg ? p->svg : p->html,
						out.buf, out.len, err);
		else if (fwrite(out.buf, 1, out.len, stdout) != out.len ||
			 fflush(stdout))
			ret = kd_error(err, "standard output: %s",
				       strerror(errno));
	}
	if (st.notices.len)
		fputs(st.notices.buf, stderr);
	free(panels);
	strbuf_release(&out);
	compare_state_release(&st);
	return ret;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_args p = { 0 };
	struct compare_args_ext ext = {
		.command = "plot",
		.value_options = plot_value_options,
		.option = plot_option,
		.ctx = &p,
	};
	struct compare_args a;
	struct kd_err err;
	int status = KD_EXIT_OK;

	if (compare_args_parse(&a, argc, argv, &ext, &err) < 0) {
		status = KD_EXIT_USAGE;
	} else if (a.help) {
		fputs(plot_usage, stdout);
	} else if (p.svg && p.html) {
		kd_error(&err, "--svg and --html exclude each other; write one file at a time");
		status = KD_EXIT_USAGE;
	} else if (plot(&p, &a, &err) < 0) {
		status = KD_EXIT_USAGE;
	}
	if (status != KD_EXIT_OK)
		cmd_error("plot", "%s", err.msg);
	compare_args_release(&a);
	free(p.metrics);
	return status;
}
