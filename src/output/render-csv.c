// SPDX-License-Identifier: GPL-2.0
/*
 * --format csv: one line per metric and variant, under a header line; its
 * timing is a guest's (struct variant), empty for real hardware.
 * Control characters of names become blanks (printable_char(), as in
 * every text kdelta writes), so no field holds a line break; fields are
 * quoted as RFC 4180 says when they hold a comma or a quote (quotes
 * doubled); statistics that were not computed are empty.
 */
#include <math.h>
#include <string.h>

#include "kdelta/compare.h"
#include "kdelta/util.h"

static const char csv_header[] =
	"group,metric,key,variant,n,mean,stddev,rel_stddev,min,max,change,"
	"statistic,df,p,q,ci_low,ci_high,runs_needed,verdict,rule,samples,timing\n";

static void csv_field(struct strbuf *out, const char *s)
{
	bool quoted = strpbrk(s, ",\"") != NULL;

	if (quoted)
		strbuf_addch(out, '"');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addch(out, '"');
		strbuf_addch(out, printable_char(*s));
	}
	if (quoted)
		strbuf_addch(out, '"');
	strbuf_addch(out, ',');
}

/* A number, or an empty field when show is false or x is not finite. */
static void csv_number(struct strbuf *out, double x, bool show)
{
	if (show && isfinite(x))
		strbuf_addf(out, "%.10g", x);
	strbuf_addch(out, ',');
}

/*
 * A workload result's interval (empty ends when unbounded) and the runs
 * that would decide it.
 */
static void csv_interval(struct strbuf *out, const struct metric_cell *c,
			 bool key, bool tested)
{
	const struct key_estimate *est = cell_estimate(c);

	csv_number(out, est->ci.low, key && tested && est->ci.bounded);
	csv_number(out, est->ci.high, key && tested && est->ci.bounded);
	if (key && est->runs_needed &&
	    (tested || c->verdict == VERDICT_FEW_RUNS))
		strbuf_addf(out, "%zu", est->runs_needed);
	strbuf_addch(out, ',');
}

static void csv_cell(struct strbuf *out, const struct metric_cell *c, bool key,
		     const char *timing)
{
	bool present = c->samples != NULL;
	bool compared = present && c->verdict != VERDICT_BASE &&
			c->verdict != VERDICT_ABSENT;
	bool tested = compared && c->verdict != VERDICT_FEW_RUNS &&
		      c->verdict != VERDICT_NOT_FINITE;

	strbuf_addf(out, "%zu,", present ? c->sum.n : 0);
	csv_number(out, c->sum.mean, present);
	csv_number(out, c->sum.stddev, present);
	csv_number(out, c->sum.rel_stddev, present);
	csv_number(out, c->sum.min, present);
	csv_number(out, c->sum.max, present);
	csv_number(out, c->change, compared && !c->change_infinite);
	csv_number(out, c->test.statistic, tested);
	csv_number(out, c->test.df, tested);
	csv_number(out, c->test.p, tested);
	csv_number(out, c->q, tested);
	csv_interval(out, c, key, tested);
	csv_field(out, verdict_name(c->verdict));
	csv_field(out, c->rule ? c->rule : "");
	for (size_t i = 0; present && i < c->sum.n; i++)
		strbuf_addf(out, "%s%.10g", i ? " " : "", c->samples[i]);
	strbuf_addch(out, ',');
	if (timing)
		strbuf_addstr(out, timing);
	strbuf_addch(out, '\n');
}

void render_csv(const struct comparison *const *cmps, size_t n,
		const struct compare_options *opt, struct strbuf *out)
{
	(void)opt;	/* every metric, changed or not */
	strbuf_addstr(out, csv_header);
	for (size_t i = 0; i < n; i++) {
		const struct comparison *cmp = cmps[i];

		for (size_t r = 0; r < cmp->nrows; r++) {
			const struct metric_row *row = &cmp->rows[r];

			for (size_t v = 0; v < cmp->nvariants; v++) {
				csv_field(out, cmp->name ? cmp->name : "");
				csv_field(out, row->name);
				csv_field(out, row->key ? "1" : "0");
				csv_field(out, cmp->variants[v].label);
				csv_cell(out, &row->cells[v], row->key,
					 cmp->variants[v].timing);
			}
		}
	}
}
