// SPDX-License-Identifier: GPL-2.0
/*
 * "kdelta compare --summary METRIC": one metric across every group, one
 * column per variant, the geometric mean of the groups first -- the table
 * of the robot's mail in seed 004.  Changes are shown only where they are
 * significant, in whole percent.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/compare.h"
#include "kdelta/render.h"
#include "kdelta/util.h"

/*
 * The older compare's labels: 26 wide over each later variant, two blanks
 * apart (seed 004).
 */
#define SUMMARY_LABEL_WIDTH (LKP_VARIANT_WIDTH - 2)

/* The metric's row in a group that has the same number of variants. */
static const struct metric_row *find_row(const struct comparison *cmp,
					 const char *metric, size_t nvariants)
{
	if (cmp->nvariants != nvariants)
		return NULL;
	for (size_t i = 0; i < cmp->nrows; i++)
		if (!strcmp(cmp->rows[i].name, metric))
			return &cmp->rows[i];
	return NULL;
}

/*
 * A group counts towards the geometric mean when every mean is positive
 * and finite.
 */
static bool geo_usable(const struct metric_row *row, size_t nvariants)
{
	if (!row)
		return false;
	for (size_t v = 0; v < nvariants; v++)
		if (!row->cells[v].sum.n || !(row->cells[v].sum.mean > 0) ||
		    !isfinite(row->cells[v].sum.mean))
			return false;
	return true;
}

/*
 * The GEO-MEAN row: per variant, exp(mean(log(mean))) over the usable
 * groups.  No change is shown: no test decided it.
 */
static void add_geo_mean_row(struct strbuf *out,
			     const struct comparison *const *cmps, size_t n,
			     const char *metric, size_t nvariants)
{
	struct metric_cell *cells = xcalloc(nvariants, sizeof(*cells));
	size_t used = 0;
	char *name;

	for (size_t g = 0; g < n; g++) {
		const struct metric_row *row;

		row = find_row(cmps[g], metric, nvariants);

		if (!geo_usable(row, nvariants))
			continue;
		used++;
		for (size_t v = 0; v < nvariants; v++)
			cells[v].sum.mean += log(row->cells[v].sum.mean);
	}
	for (size_t v = 0; v < nvariants; v++) {
		cells[v].sum.n = used;
		cells[v].sum.mean = used ? exp(cells[v].sum.mean / used) : 0;
		cells[v].verdict = v ? VERDICT_SAME : VERDICT_BASE;
	}
	name = xasprintf("GEO-MEAN %s", metric);
	lkp_add_row(out, cells, nvariants, name, LKP_STYLE_COMPACT,
		    LKP_CHANGE_SIGNIFICANT);
	free(name);
	free(cells);
}

/* "99091700659f4df9  74a242ad94d13436a1644c0b45  testcase/testparams/testbox" */
static void add_column_labels(struct strbuf *out, const struct comparison *cmp)
{
	static const char title[] = "testcase/testparams/testbox";

	for (size_t i = 0; i < cmp->nvariants; i++) {
		size_t width = i ? SUMMARY_LABEL_WIDTH : LKP_BASE_LABEL_WIDTH;
		char *label = xstrndup(cmp->variants[i].label, width);

		if (i)
			strbuf_addstr(out, "  ");
		add_right(out, label, width);
		free(label);
	}
	strbuf_addf(out, "  %s\n", title);
	for (size_t i = 0; i < cmp->nvariants; i++) {
		if (i)
			strbuf_addstr(out, "  ");
		strbuf_addchars(out, '-',
				i ? SUMMARY_LABEL_WIDTH : LKP_BASE_LABEL_WIDTH);
	}
	strbuf_addstr(out, "  ");
	strbuf_addchars(out, '-', strlen(title));
	strbuf_addch(out, '\n');
}

static void add_group_row(struct strbuf *out, const struct comparison *cmp,
			  const char *metric, size_t nvariants)
{
	const struct metric_row *row = find_row(cmp, metric, nvariants);
	char *name = comparison_group_name(cmp);

	if (row) {
		lkp_add_row(out, row->cells, nvariants, name,
			    LKP_STYLE_COMPACT, LKP_CHANGE_SIGNIFICANT);
	} else {
		/* The metric is absent from this group: a row of "-". */
		struct metric_cell *none = xcalloc(nvariants, sizeof(*none));

		lkp_add_row(out, none, nvariants, name, LKP_STYLE_COMPACT,
			    LKP_CHANGE_SIGNIFICANT);
		free(none);
	}
	free(name);
}

void render_summary(const struct comparison *const *cmps, size_t n,
		    const char *metric, const struct compare_options *opt,
		    struct strbuf *out)
{
	size_t nvariants;

	/* every group is listed, changed or not */
	if (!n)
		return;
	nvariants = cmps[0]->nvariants;
	add_column_labels(out, cmps[0]);
	lkp_add_perf_header(out, nvariants);
	add_geo_mean_row(out, cmps, n, metric, nvariants);
	for (size_t g = 0; g < n; g++)
		add_group_row(out, cmps[g], metric, nvariants);
	/* Each group's verdict in words: blank is same or undecided. */
	for (size_t g = 0; g < n; g++) {
		const struct metric_row *row = find_row(cmps[g], metric,
							 nvariants);
		char *name = comparison_group_name(cmps[g]);

		if (row && row->key)
			render_row_verdicts(out, cmps[g], row, name, opt);
		free(name);
	}
	add_timing_notes(out, cmps, n);
	strbuf_addstr(out, "marks: -19% changed, blank: same or undecided (the lines above say which), GEO-MEAN: not tested\n");
}
