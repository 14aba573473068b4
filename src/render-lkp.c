// SPDX-License-Identifier: GPL-2.0
/*
 * The default output of "kdelta compare": the table of the LKP robot's
 * mails (seed 002), one per group, laid out as lkp-tests' lib/compare.rb
 * lays it out (show_group_header, show_failure_change, show_perf_change).
 */
#include <stdlib.h>
#include <string.h>

#include "kdelta/compare.h"
#include "kdelta/render.h"
#include "kdelta/util.h"

#define LKP_RULE_WIDTH 89
/* Robot mails name a commit with a subject by its first 12 digits. */
#define SHORT_COMMIT 12

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
	if (cmp->host && !has_param(cmp, "host"))
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

static bool is_commit_id(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return n >= SHORT_COMMIT && !s[n];
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
		if (v->subject && is_commit_id(v->label))
			strbuf_add(out, v->label, SHORT_COMMIT);
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

static size_t runs_attempted(const struct variant *v)
{
	return v->runs + v->runs_failed + v->runs_incomplete;
}

/*
 * One "fail:runs" row: how many of each variant's runs failed, and the
 * change of that rate against the base in percentage points.
 */
static void add_failure_row(struct strbuf *out, const struct comparison *cmp,
			    const size_t *fails, const char *name)
{
	double rate0 = 0;

	for (size_t i = 0; i < cmp->nvariants; i++) {
		size_t runs = runs_attempted(&cmp->variants[i]);
		double rate = runs ? (double)fails[i] / runs : 0;

		if (i)
			strbuf_addf(out, "%10.0f%% ", 100 * (rate - rate0));
		else
			rate0 = rate;
		if (fails[i])
			strbuf_addf(out, "%11zu", fails[i]);
		else
			strbuf_addchars(out, ' ', 11);
		strbuf_addf(out, ":%-4zu", runs);
	}
	strbuf_addf(out, "  %s\n", name);
}

static const char *const failure_header_base[2] = {
	"       fail:runs",
	"           |    ",
};
static const char *const failure_header_later[2] = {
	"  %reproduction    fail:runs",
	"         |             |    ",
};

static void add_failure_table(struct strbuf *out, const struct comparison *cmp)
{
	size_t n = cmp->nvariants;
	size_t *failed = xcalloc(n, sizeof(*failed));
	size_t *incomplete = xcalloc(n, sizeof(*incomplete));
	bool any_failed = false, any_incomplete = false;

	for (size_t i = 0; i < n; i++) {
		failed[i] = cmp->variants[i].runs_failed;
		incomplete[i] = cmp->variants[i].runs_incomplete;
		any_failed |= failed[i] != 0;
		any_incomplete |= incomplete[i] != 0;
	}
	if (any_failed || any_incomplete)
		lkp_add_column_header(out, n, failure_header_base,
				      failure_header_later);
	if (any_failed)
		add_failure_row(out, cmp, failed, "runs.failed");
	if (any_incomplete)
		add_failure_row(out, cmp, incomplete, "runs.incomplete");
	free(failed);
	free(incomplete);
}

static bool row_has_verdict(const struct comparison *cmp,
			    const struct metric_row *row, enum verdict verdict)
{
	for (size_t i = 1; i < cmp->nvariants; i++)
		if (row->cells[i].verdict == verdict)
			return true;
	return false;
}

/*
 * Changed metrics; with --all every metric.  Key results that could not
 * be decided are always listed: a robot must not read silence as "same";
 * so is every metric whose statistics are not finite.
 */
static bool row_shown(const struct comparison *cmp,
		      const struct metric_row *row,
		      const struct compare_options *opt)
{
	return opt->all || row_has_verdict(cmp, row, VERDICT_CHANGED) ||
	       row_has_verdict(cmp, row, VERDICT_NOT_FINITE) ||
	       (row->key && row_has_verdict(cmp, row, VERDICT_FEW_RUNS));
}

/*
 * A row shows its changes plainly when one of them is significant, else
 * in parentheses, as lkp-tests would print them: also a change that too
 * few runs could not decide, which the line after the table counts.
 */
static void add_perf_table(struct strbuf *out, const struct comparison *cmp,
			   const struct compare_options *opt)
{
	size_t shown = 0, undecided = 0;

	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct metric_row *row = &cmp->rows[r];
		enum lkp_change_mode mode = LKP_CHANGE_PLAIN;

		if (!row_shown(cmp, row, opt))
			continue;
		if (!shown++)
			lkp_add_perf_header(out, cmp->nvariants);
		if (!row_has_verdict(cmp, row, VERDICT_CHANGED))
			mode = LKP_CHANGE_QUIET;
		undecided += row_has_verdict(cmp, row, VERDICT_FEW_RUNS);
		lkp_add_row(out, row->cells, cmp->nvariants, row->name,
			    LKP_STYLE_DETAIL, mode);
	}
	if (!shown)
		strbuf_addf(out,
			    "no significant change in %zu metric%s (--all lists them)\n",
			    cmp->nrows, cmp->nrows == 1 ? "" : "s");
	if (undecided)
		strbuf_addf(out,
			    "not enough runs (fewer than 3) to decide %zu row%s\n",
			    undecided, undecided == 1 ? "" : "s");
}

void render_lkp(const struct comparison *cmp, const struct compare_options *opt,
		struct strbuf *out)
{
	add_group_header(out, cmp);
	add_failure_table(out, cmp);
	add_perf_table(out, cmp, opt);
	strbuf_addch(out, '\n');
}
