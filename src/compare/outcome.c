// SPDX-License-Identifier: GPL-2.0
/*
 * The outcome of decided comparisons, as a robot or an exit status reads
 * it: clean, inconclusive, no data or regressed, the worst of its cells.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "kdelta/compare.h"

/*
 * What a robot asks of a comparison, cell by cell; see compare.h.  A
 * failure stat that rose (lkp-tests' rule found new dmesg warnings, more
 * .fail, ...) is a regression like a workload result that got worse.
 */
static enum compare_outcome cell_outcome(const struct metric_row *row,
					 const struct metric_cell *base,
					 const struct metric_cell *cell)
{
	double sign = cell->change_infinite ? cell->sum.mean : cell->change;

	if (row->failure)
		return cell->verdict == VERDICT_CHANGED &&
		       cell->sum.mean > base->sum.mean ? OUTCOME_REGRESSED
						       : OUTCOME_CLEAN;
	if (!row->gate)
		return OUTCOME_CLEAN;
	switch (cell->verdict) {
	case VERDICT_CHANGED:
		if (!row->better)	/* nobody says which way is worse */
			return OUTCOME_INCONCLUSIVE;
		return row->better * sign > 0 ? OUTCOME_CLEAN
					      : OUTCOME_REGRESSED;
	case VERDICT_SAME:
	case VERDICT_SMALL:
	case VERDICT_BASE:
		return OUTCOME_CLEAN;
	case VERDICT_ABSENT:
		return OUTCOME_NO_DATA;
	default:	/* inconclusive, too few runs, not finite */
		return OUTCOME_INCONCLUSIVE;
	}
}

bool variant_fails_more(const struct comparison *cmp, size_t v)
{
	const struct variant *base = &cmp->variants[0], *var = &cmp->variants[v];

	return v && var->runs_failed + var->runs_incomplete &&
	       !(base->runs_failed + base->runs_incomplete);
}

const char *comparison_missing_key_result(const struct comparison *cmp)
{
	for (size_t k = 0; k < cmp->declared.n; k++) {
		const char *metric = cmp->declared.at[k].metric;
		bool printed = false;

		for (size_t r = 0; r < cmp->nrows && !printed; r++)
			printed = !strcmp(cmp->rows[r].name, metric);
		if (!printed)
			return metric;
	}
	return NULL;
}

static enum compare_outcome worse(enum compare_outcome a,
				  enum compare_outcome b)
{
	return a > b ? a : b;
}

enum compare_outcome compare_outcome(const struct comparison *const *cmps,
				     size_t n)
{
	enum compare_outcome out = n ? OUTCOME_CLEAN : OUTCOME_NO_DATA;

	for (size_t i = 0; i < n; i++) {
		const struct comparison *cmp = cmps[i];

		if (comparison_missing_key_result(cmp))
			out = worse(out, OUTCOME_NO_DATA);
		for (size_t v = 0; v < cmp->nvariants; v++) {
			if (variant_fails_more(cmp, v))
				out = worse(out, OUTCOME_REGRESSED);
			if (!cmp->variants[v].runs)
				out = worse(out, OUTCOME_NO_DATA);
		}
		for (size_t r = 0; r < cmp->nrows; r++) {
			const struct metric_row *row = &cmp->rows[r];

			for (size_t v = 1; v < cmp->nvariants; v++)
				out = worse(out, cell_outcome(row,
							      &row->cells[0],
							      &row->cells[v]));
		}
	}
	return out;
}

const char *compare_outcome_name(enum compare_outcome outcome)
{
	static const char *const names[] = {
		[OUTCOME_CLEAN] = "clean",
		[OUTCOME_INCONCLUSIVE] = "inconclusive",
		[OUTCOME_NO_DATA] = "no data",
		[OUTCOME_REGRESSED] = "regressed",
	};

	return names[outcome];
}
