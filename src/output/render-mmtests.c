// SPDX-License-Identifier: GPL-2.0
/*
 * "kdelta compare --format mmtests": the table of mmtests' compare-kernels
 * (seed 003).  One row per metric: the statistic ("Hmean" for
 * higher-is-better results, as mmtests reports throughput, "Amean"
 * otherwise), the name, and per variant the value and its gain over the
 * base in percent -- positive is better, as in mmtests, so for lower-is-
 * better metrics the sign is that of the decrease.  A significant change
 * is marked as mmtests marks it: "*  17.13%*" instead of "(  17.13%)"; one
 * neither changed nor the same (inconclusive, too few runs) is
 * "[  17.13%]"; a gain that cannot be computed, or whose statistics are
 * not finite, is "(     n/a)".  The workload results' verdict lines
 * follow, as after compare's table.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/compare.h"
#include "kdelta/render.h"
#include "kdelta/util.h"

#define OP_WIDTH 10
#define VALUE_WIDTH 12
#define COLUMN_WIDTH 23		/* value, " (", gain, "%)" */

static bool use_hmean(const struct metric_row *row,
		      const struct metric_cell *cell)
{
	if (row->better <= 0 || !cell->samples || !cell->sum.n)
		return false;
	for (size_t i = 0; i < cell->sum.n; i++)
		if (!(cell->samples[i] > 0))
			return false;
	return true;
}

/* The harmonic mean where mmtests uses it, the arithmetic mean elsewhere. */
static double cell_value(const struct metric_cell *cell, bool hmean)
{
	double inverse = 0;

	if (!hmean)
		return cell->sum.mean;
	for (size_t i = 0; i < cell->sum.n; i++)
		inverse += 1 / cell->samples[i];
	return cell->sum.n / inverse;
}

/* A row uses Hmean only when every variant's samples allow it. */
static bool row_uses_hmean(const struct metric_row *row, size_t nvariants)
{
	for (size_t v = 0; v < nvariants; v++)
		if (row->cells[v].sum.n && !use_hmean(row, &row->cells[v]))
			return false;
	return row->better > 0;
}

static void add_cell(struct strbuf *out, const struct metric_row *row,
		     size_t v, bool hmean)
{
	const struct metric_cell *base = &row->cells[0], *cell = &row->cells[v];
	double value, base_value, gain;
	bool mark = v && cell->verdict == VERDICT_CHANGED;
	/* Not decided either way: not "(...)", which says not changed. */
	bool open = v && (cell->verdict == VERDICT_INCONCLUSIVE ||
			  cell->verdict == VERDICT_FEW_RUNS);

	if (!cell->sum.n) {
		add_right(out, "-", VALUE_WIDTH);
		strbuf_addstr(out, " (     n/a)");
		return;
	}
	value = cell_value(cell, hmean);
	if (isnan(value))
		add_right(out, "nan", VALUE_WIDTH);	/* never "-nan" */
	else
		strbuf_addf(out, "%*.2f", VALUE_WIDTH, value);
	if (!base->sum.n || cell->verdict == VERDICT_NOT_FINITE) {
		strbuf_addstr(out, " (     n/a)");
		return;
	}
	base_value = cell_value(base, hmean);
	if (base_value == 0) {
		strbuf_addstr(out, value == 0 ? " (   0.00%)" : " (     n/a)");
		return;
	}
	gain = 100 * (value - base_value) / fabs(base_value);
	if (!isfinite(gain)) {
		strbuf_addstr(out, " (     n/a)");
		return;
	}
	if (row->better < 0)
		gain = -gain;
	strbuf_addf(out, " %c%7.2f%%%c", mark ? '*' : open ? '[' : '(',
		    gain == 0 ? 0 : gain, mark ? '*' : open ? ']' : ')');
}

static bool row_shown(const struct comparison *cmp,
		      const struct metric_row *row,
		      const struct compare_options *opt)
{
	return opt->all || row->key ||
	       metric_row_has(row, cmp->nvariants, VERDICT_CHANGED);
}

/*
 * Length of the longest common prefix of the labels that ends in '-' and
 * leaves something of every label: mmtests prints such a prefix on a line
 * of its own ("4.14.0-rc4" above "vanilla").
 */
static size_t common_label_prefix(const struct comparison *cmp)
{
	const char *first = cmp->variants[0].label;
	size_t len = strlen(first), cut = 0;

	for (size_t v = 1; v < cmp->nvariants; v++) {
		const char *label = cmp->variants[v].label;
		size_t i = 0;

		while (i < len && label[i] == first[i])
			i++;
		len = i;
	}
	for (size_t i = 0; i < len; i++)
		if (first[i] == '-')
			cut = i + 1;
	for (size_t v = 0; v < cmp->nvariants; v++)
		if (!cmp->variants[v].label[cut])
			return 0;
	return cmp->nvariants > 1 ? cut : 0;
}

static void add_label_line(struct strbuf *out, const struct comparison *cmp,
			   size_t indent, size_t from, size_t len)
{
	strbuf_addchars(out, ' ', indent);
	for (size_t v = 0; v < cmp->nvariants; v++) {
		char *label = xstrndup(cmp->variants[v].label + from, len);

		if (strlen(label) > COLUMN_WIDTH - 1)
			label[COLUMN_WIDTH - 1] = '\0';
		add_right(out, label, COLUMN_WIDTH);
		free(label);
	}
	strbuf_addch(out, '\n');
}

static void add_header(struct strbuf *out, const struct comparison *cmp,
		       size_t indent)
{
	size_t prefix = common_label_prefix(cmp);

	if (prefix)
		add_label_line(out, cmp, indent, 0, prefix - 1);
	add_label_line(out, cmp, indent, prefix, SIZE_MAX);
}

void render_mmtests(const struct comparison *cmp,
		    const struct compare_options *opt, struct strbuf *out)
{
	char *group = comparison_group_name(cmp);
	size_t name_width = 0;

	for (size_t r = 0; r < cmp->nrows; r++)
		if (row_shown(cmp, &cmp->rows[r], opt) &&
		    strlen(cmp->rows[r].name) > name_width)
			name_width = strlen(cmp->rows[r].name);
	name_width++;
	add_printable(out, group);
	strbuf_addch(out, '\n');
	add_header(out, cmp, OP_WIDTH + name_width);
	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct metric_row *row = &cmp->rows[r];
		bool hmean;

		if (!row_shown(cmp, row, opt))
			continue;
		hmean = row_uses_hmean(row, cmp->nvariants);
		add_left(out, hmean ? "Hmean" : "Amean", OP_WIDTH);
		add_left(out, row->name, name_width);
		for (size_t v = 0; v < cmp->nvariants; v++)
			add_cell(out, row, v, hmean);
		strbuf_addch(out, '\n');
	}
	render_key_verdicts(out, cmp, opt);
	add_timing_notes(out, &cmp, 1);
	strbuf_addstr(out, "marks: *  1.00%* changed, (  1.00%) same or small (below the metric's floor), [  1.00%] inconclusive or too few runs; + is better\n\n");
	free(group);
}
