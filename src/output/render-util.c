// SPDX-License-Identifier: GPL-2.0
/*
 * Cells of the LKP tables.  The widths and number formats are those of
 * lkp-tests' lib/compare.rb (show_perf_change) and of the robot's mails
 * quoted in seeds 002 and 004 and in testdata/render/; tests/render/ checks
 * them against those mails line by line, scripts/lkp-oracle.sh against
 * lkp-tests itself.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/render.h"
#include "kdelta/rubyfmt.h"
#include "kdelta/util.h"

/* lkp-tests divides by this instead of a zero base (calc_perf_change). */
#define LKP_ZERO_BASE 1e-100
/* COMPACT: from this increase on, the absolute difference is shown. */
#define COMPACT_ABSOLUTE_FROM 500.0

void add_printable(struct strbuf *out, const char *s)
{
	for (; *s; s++)
		strbuf_addch(out, printable_char(*s));
}

/* Columns of the n bytes at s: UTF-8 continuation bytes take none. */
static size_t columns(const char *s, size_t n)
{
	size_t cols = 0;

	for (size_t i = 0; i < n; i++)
		cols += ((unsigned char)s[i] & 0xc0) != 0x80;
	return cols;
}

void add_wrapped(struct strbuf *out, const char *text, size_t width,
		 size_t indent)
{
	size_t col = 0;

	while (*text) {
		size_t blanks = strspn(text, " ");
		size_t len = strcspn(text + blanks, " ");
		size_t cols = columns(text + blanks, len);

		if (!len)
			break;
		if (col && col + blanks + cols > width) {
			strbuf_addch(out, '\n');
			strbuf_addchars(out, ' ', indent);
			col = indent;
		} else {
			strbuf_addchars(out, ' ', blanks);
			col += blanks;
		}
		strbuf_add(out, text + blanks, len);
		col += cols;
		text += blanks + len;
	}
	strbuf_addch(out, '\n');
}

void add_right(struct strbuf *out, const char *text, size_t width)
{
	size_t len = strlen(text);

	if (len < width)
		strbuf_addchars(out, ' ', width - len);
	add_printable(out, text);
}

void add_left(struct strbuf *out, const char *text, size_t width)
{
	size_t len = strlen(text);

	add_printable(out, text);
	if (len < width)
		strbuf_addchars(out, ' ', width - len);
}

void lkp_add_mean(struct strbuf *out, double mean, size_t n,
		  enum lkp_style style)
{
	double decimals_below = style == LKP_STYLE_DETAIL ? 1000 : 10;

	if (!n)
		strbuf_addch(out, '-');
	else if (isnan(mean))
		strbuf_addstr(out, "nan");	/* never "-nan" */
	else if (fabs(mean) < decimals_below)
		strbuf_add_ruby_number(out, "%.2f", mean);
	else if (fabs(mean) > 1e8)
		strbuf_add_ruby_number(out, "%.4g", mean);
	else	/* truncated: 1001.5 is 1001 */
		strbuf_add_ruby_number(out, "%d", mean);
}

/*
 * " ±NN%": the population stddev in percent of the mean, truncated, as
 * lkp-tests prints it, or blanks when it is not above the style's
 * threshold (so never for a negative mean, but for one run of a mean
 * between -50 and 0, whose "stddev" of -1 lkp-tests divides by it too).
 * Of a zero mean lkp-tests shows the stddev itself.
 */
static void add_stddev(struct strbuf *out, const struct metric_cell *cell,
		       enum lkp_style style)
{
	const struct sample_summary *s = &cell->sum;
	double shown_above = style == LKP_STYLE_DETAIL ? 2 : 3;
	/* of one run lkp-tests takes -1 for the stddev ("none") */
	double stddev = s->n == 1 ? -1 : s->pop_stddev;
	double pct = s->mean != 0 ? 100 * stddev / s->mean : stddev;

	if (s->n && isfinite(pct) && pct > shown_above) {
		strbuf_addstr(out, " ±");
		strbuf_add_ruby_number(out, "%3d", pct);
		strbuf_addch(out, '%');
	} else {
		strbuf_addchars(out, ' ', LKP_STDDEV_WIDTH);
	}
}

/* A whole number without the "-0" that rounding a small negative gives. */
static void add_whole(struct strbuf *out, double x)
{
	double r = round(x);

	strbuf_addf(out, "%.0f", r == 0 ? 0.0 : r);
}

static void add_change_compact(struct strbuf *out,
			       const struct metric_cell *base,
			       const struct metric_cell *cell)
{
	if (cell->change_absolute)
		strbuf_addf(out, "%.1f ", cell->change);
	else if (cell->change_infinite || cell->change >= COMPACT_ABSOLUTE_FROM)
		strbuf_addf(out, "%.0e", cell->sum.mean - base->sum.mean);
	else {
		add_whole(out, cell->change);
		strbuf_addch(out, '%');
	}
}

/*
 * lkp-tests' change ("+1.3%", "+5.5e+102%"), or with narrow one digit
 * fewer for the large ones ("+6e+102%"), which then fit in parentheses.
 */
static void add_change_detail(struct strbuf *out,
			      const struct metric_cell *cell, bool narrow)
{
	/*
	 * lkp-tests prints the change against a zero base as if the base
	 * were 1e-100: "+2e+102%" reads as "from nothing to 2".
	 */
	double p = cell->change_infinite ?
		100.0 * cell->sum.mean / LKP_ZERO_BASE : cell->change;

	strbuf_add_ruby_number(out, fabs(p) < 100000 ? "%+.1f" :
				    narrow ? "%+.1g" : "%+.2g", p);
	/* points of a percentage: a blank where the '%' would be */
	strbuf_addch(out, cell->change_absolute && !cell->change_infinite ?
				  ' ' : '%');
}

void lkp_add_change(struct strbuf *out, const struct metric_cell *base,
		    const struct metric_cell *cell, enum lkp_style style)
{
	if (cell->verdict == VERDICT_NOT_FINITE) {
		strbuf_addstr(out, " not finite");
		return;
	}
	if (!base->sum.n || !cell->sum.n ||
	    (!cell->change_infinite && !isfinite(cell->change)))
		return;
	if (style == LKP_STYLE_COMPACT)
		add_change_compact(out, base, cell);
	else
		add_change_detail(out, cell, false);
}

static void add_change_column(struct strbuf *out,
			      const struct metric_cell *base,
			      const struct metric_cell *cell,
			      enum lkp_style style, enum lkp_change_mode mode)
{
	struct strbuf text = STRBUF_INIT;
	bool quiet = mode == LKP_CHANGE_QUIET ||
		     (mode == LKP_CHANGE_MARKED &&
		      cell->verdict != VERDICT_CHANGED);

	if (mode != LKP_CHANGE_SIGNIFICANT ||
	    cell->verdict == VERDICT_CHANGED ||
	    cell->verdict == VERDICT_NOT_FINITE)
		lkp_add_change(&text, base, cell, style);
	if (quiet && text.len && cell->verdict != VERDICT_NOT_FINITE) {
		struct strbuf paren = STRBUF_INIT;

		/*
		 * The ')' takes the blank after the column; a change that
		 * leaves no blank before the '(' ("(+5.5e+102%)") is given
		 * with one digit fewer, so that it does not touch the
		 * column before it.
		 */
		if (text.len + 2 > LKP_CHANGE_WIDTH && style == LKP_STYLE_DETAIL) {
			strbuf_reset(&text);
			add_change_detail(&text, cell, true);
		}
		strbuf_addf(&paren, "(%s)", text.buf);
		add_right(out, paren.buf, LKP_CHANGE_WIDTH + 1);
		strbuf_release(&paren);
	} else {
		add_right(out, text.buf, LKP_CHANGE_WIDTH);
		strbuf_addch(out, ' ');
	}
	strbuf_release(&text);
}

static void add_value_columns(struct strbuf *out,
			      const struct metric_cell *cell,
			      enum lkp_style style)
{
	struct strbuf mean = STRBUF_INIT;

	lkp_add_mean(&mean, cell->sum.mean, cell->sum.n, style);
	add_right(out, mean.buf, LKP_MEAN_WIDTH);
	add_stddev(out, cell, style);
	strbuf_release(&mean);
}

void lkp_add_row(struct strbuf *out, const struct metric_cell *cells,
		 size_t nvariants, const char *name, enum lkp_style style,
		 enum lkp_change_mode mode)
{
	for (size_t i = 0; i < nvariants; i++) {
		if (i)
			add_change_column(out, &cells[0], &cells[i], style,
					  mode);
		add_value_columns(out, &cells[i], style);
	}
	strbuf_addstr(out, "  ");
	add_printable(out, name);
	strbuf_addch(out, '\n');
}

void lkp_add_column_header(struct strbuf *out, size_t nvariants,
			   const char *const base[2],
			   const char *const later[2])
{
	for (size_t line = 0; line < 2; line++) {
		strbuf_addstr(out, base[line]);
		for (size_t i = 1; i < nvariants; i++)
			strbuf_addstr(out, later[line]);
		strbuf_addch(out, '\n');
	}
}

void lkp_add_perf_header(struct strbuf *out, size_t nvariants)
{
	static const char *const base[2] = {
		"         %stddev",
		"             \\  ",
	};
	static const char *const later[2] = {
		"     %change         %stddev",
		"        |                \\  ",
	};

	lkp_add_column_header(out, nvariants, base, later);
}

char *comparison_group_name(const struct comparison *cmp)
{
	struct strbuf sb = STRBUF_INIT;

	if (cmp->name)
		return xstrdup(cmp->name);
	strbuf_addstr(&sb, cmp->testcase ? cmp->testcase : "-");
	strbuf_addch(&sb, '/');
	for (size_t i = 0; i < cmp->nparams; i++) {
		if (i)
			strbuf_addch(&sb, '-');
		strbuf_addstr(&sb, cmp->params[i].value);
	}
	if (!cmp->nparams)
		strbuf_addch(&sb, '-');
	if (cmp->host)
		strbuf_addf(&sb, "/%s", cmp->host);
	return strbuf_detach(&sb);
}

/* The labels of the variants whose timing is kind, across the groups. */
static void timing_labels(const struct comparison *const *cmps, size_t n,
			  const char *kind, struct strbuf *out)
{
	struct strbuf seen = STRBUF_INIT;

	strbuf_addch(&seen, '\n');
	for (size_t g = 0; g < n; g++)
		for (size_t v = 0; v < cmps[g]->nvariants; v++) {
			const struct variant *var = &cmps[g]->variants[v];
			char *key;

			if (!var->timing || strcmp(var->timing, kind))
				continue;
			key = xasprintf("\n%s\n", var->label);
			if (!strstr(seen.buf, key)) {
				strbuf_addf(&seen, "%s\n", var->label);
				if (out->len)
					strbuf_addstr(out, ", ");
				add_printable(out, var->label);
			}
			free(key);
		}
	strbuf_release(&seen);
}

void add_timing_notes(struct strbuf *out, const struct comparison *const *cmps,
		      size_t n)
{
	static const struct {
		const char *kind, *text;
	} kinds[] = {
		{ VARIANT_TIMING_INSTRUCTIONS,
		  "timings: instruction time of QEMU's TCG (-icount: 1 ns an instruction; no caches, no I/O latency, no contention): " },
		{ VARIANT_TIMING_EMULATED,
		  "timings: emulated by QEMU's TCG, several times slower than the machine and not its CPU's: " },
	};
	struct strbuf labels = STRBUF_INIT, line = STRBUF_INIT;

	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		strbuf_reset(&labels);
		timing_labels(cmps, n, kinds[k].kind, &labels);
		if (!labels.len)
			continue;
		strbuf_reset(&line);
		strbuf_addf(&line, "%s%s", kinds[k].text, labels.buf);
		add_wrapped(out, line.buf, 80, 4);
	}
	strbuf_release(&labels);
	strbuf_release(&line);
}
