// SPDX-License-Identifier: GPL-2.0
/*
 * --format json: everything the comparer knows, for robots and scripts.
 * Numbers that are not finite, and statistics that were not computed (the
 * base, an absent metric, too few runs), are null.  Every string goes
 * through text(): JSON is UTF-8, and jansson refuses anything else, which
 * would drop the whole group from the output.
 */
#include <math.h>
#include <stdlib.h>

#include <jansson.h>

#include "kdelta/compare.h"
#include "kdelta/util.h"

static json_t *number(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/*
 * A string from a file, a directory name or git: as it is when it is
 * UTF-8, else with U+FFFD for each byte that is not.
 */
static json_t *text(const char *s)
{
	json_t *j = json_string(s);
	char *repaired;

	if (j)
		return j;
	repaired = utf8_repair(s);
	j = json_string(repaired);
	free(repaired);
	return j;
}

static json_t *string_or_null(const char *s)
{
	return s ? text(s) : json_null();
}

static json_t *json_params(const struct comparison *cmp)
{
	json_t *params = json_object();

	for (size_t i = 0; i < cmp->nparams; i++) {
		char *key = utf8_repair(cmp->params[i].key);

		json_object_set_new(params, key, text(cmp->params[i].value));
		free(key);
	}
	return params;
}

/* The runs the machine disturbed: [{"run": "3", "why": "..."}]. */
static json_t *json_disturbed(const struct variant *v)
{
	json_t *list = json_array();

	for (size_t i = 0; i < v->nnotes; i++)
		json_array_append_new(list,
				      json_pack("{s:o, s:o}",
						"run", text(v->notes[i].run),
						"why", text(v->notes[i].why)));
	return list;
}

static json_t *json_variant(const struct variant *v)
{
	return json_pack("{s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:o, s:o, s:o}",
			 "label", text(v->label),
			 "subject", string_or_null(v->subject),
			 "path", text(v->path ? v->path : ""),
			 "runs", (json_int_t)v->runs,
			 "failed", (json_int_t)v->runs_failed,
			 "incomplete", (json_int_t)v->runs_incomplete,
			 "interrupted", (json_int_t)v->runs_interrupted,
			 "failure", string_or_null(v->failure),
			 "disturbed", json_disturbed(v),
			 "timing", string_or_null(v->timing));
}

static json_t *json_samples(const struct metric_cell *cell)
{
	json_t *samples;

	if (!cell->samples)
		return json_null();
	samples = json_array();
	for (size_t i = 0; i < cell->sum.n; i++)
		json_array_append_new(samples, number(cell->samples[i]));
	return samples;
}

/* The statistics against the base: only for cells that were tested. */
static void json_cell_test(json_t *c, const struct metric_cell *cell)
{
	bool tested = cell->verdict != VERDICT_BASE &&
		      cell->verdict != VERDICT_ABSENT &&
		      cell->verdict != VERDICT_FEW_RUNS &&
		      cell->verdict != VERDICT_NOT_FINITE;
	bool changed = cell->verdict != VERDICT_BASE && cell->samples &&
		       cell->verdict != VERDICT_ABSENT;

	json_object_set_new(c, "change", changed && !cell->change_infinite
				 ? number(cell->change) : json_null());
	json_object_set_new(c, "change_absolute",
			    json_boolean(cell->change_absolute));
	json_object_set_new(c, "change_infinite",
			    json_boolean(cell->change_infinite));
	json_object_set_new(c, "statistic",
			    tested ? number(cell->test.statistic) : json_null());
	json_object_set_new(c, "df", tested ? number(cell->test.df) : json_null());
	json_object_set_new(c, "p", tested ? number(cell->test.p) : json_null());
	json_object_set_new(c, "q", tested ? number(cell->q) : json_null());
}

/*
 * A workload result's interval and the runs that would decide it: null for
 * monitor metrics and cells never tested; an unbounded interval has null
 * ends.
 */
static void json_cell_interval(json_t *c, const struct metric_cell *cell,
			       const struct compare_options *opt, bool key)
{
	const struct key_estimate *est = cell_estimate(cell);
	const struct change_interval *ci = &est->ci;
	bool tested = key && cell->verdict != VERDICT_BASE &&
		      cell->verdict != VERDICT_ABSENT &&
		      cell->verdict != VERDICT_FEW_RUNS &&
		      cell->verdict != VERDICT_NOT_FINITE;
	bool estimated = key && (tested || cell->verdict == VERDICT_FEW_RUNS) &&
			 est->runs_needed;

	json_object_set_new(c, "interval", !tested ? json_null() : json_pack(
		"{s:i, s:s, s:o, s:o, s:o}",
		"level", COMPARE_INTERVAL_LEVEL,
		"method", opt->test == SIG_MWU ? "hodges-lehmann" : "fieller",
		"estimate", number(ci->estimate),
		"low", ci->bounded ? number(ci->low) : json_null(),
		"high", ci->bounded ? number(ci->high) : json_null()));
	json_object_set_new(c, "runs_needed", estimated ?
			    json_integer((json_int_t)est->runs_needed) :
			    json_null());
}

static json_t *json_cell(const struct metric_cell *cell, const char *label,
			 const struct compare_options *opt, bool key)
{
	const struct sample_summary *s = &cell->sum;
	bool present = cell->samples != NULL;
	json_t *c = json_object();

	json_object_set_new(c, "variant", text(label));
	json_object_set_new(c, "samples", json_samples(cell));
	json_object_set_new(c, "n", json_integer(present ? (json_int_t)s->n : 0));
	json_object_set_new(c, "mean", present ? number(s->mean) : json_null());
	json_object_set_new(c, "stddev", present ? number(s->stddev) : json_null());
	json_object_set_new(c, "rel_stddev",
			    present ? number(s->rel_stddev) : json_null());
	json_object_set_new(c, "min", present ? number(s->min) : json_null());
	json_object_set_new(c, "max", present ? number(s->max) : json_null());
	json_cell_test(c, cell);
	json_cell_interval(c, cell, opt, key);
	json_object_set_new(c, "verdict", json_string(verdict_name(cell->verdict)));
	json_object_set_new(c, "rule", string_or_null(cell->rule));
	return c;
}

static json_t *json_row(const struct comparison *cmp,
			const struct metric_row *row,
			const struct compare_options *opt)
{
	json_t *cells = json_array();

	for (size_t v = 0; v < cmp->nvariants; v++)
		json_array_append_new(cells, json_cell(&row->cells[v],
						       cmp->variants[v].label,
						       opt, row->key));
	return json_pack("{s:o, s:b, s:i, s:o}", "name", text(row->name),
			 "key", row->key, "better", row->better,
			 "variants", cells);
}

static json_t *json_group(const struct comparison *cmp,
			  const struct compare_options *opt)
{
	json_t *variants = json_array(), *metrics = json_array();

	for (size_t v = 0; v < cmp->nvariants; v++)
		json_array_append_new(variants, json_variant(&cmp->variants[v]));
	for (size_t r = 0; r < cmp->nrows; r++)
		json_array_append_new(metrics, json_row(cmp, &cmp->rows[r], opt));
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "name", text(cmp->name ? cmp->name : ""),
			 "testcase", string_or_null(cmp->testcase),
			 "host", string_or_null(cmp->host),
			 "axis", string_or_null(cmp->axis),
			 "params", json_params(cmp),
			 "variants", variants, "metrics", metrics);
}

void render_json(const struct comparison *const *cmps, size_t n,
		 const struct compare_options *opt, struct strbuf *out)
{
	json_t *groups = json_array(), *root;
	char *text;

	for (size_t i = 0; i < n; i++)
		json_array_append_new(groups, json_group(cmps[i], opt));
	root = json_pack("{s:s, s:f, s:f, s:o}", "test", sig_test_names[opt->test],
			 "fdr", opt->fdr, "min_change", opt->min_change,
			 "groups", groups);
	/* Ten digits: the same text whatever the optimisation level. */
	text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
					JSON_REAL_PRECISION(10));
	strbuf_addstr(out, text);
	strbuf_addch(out, '\n');
	free(text);
	json_decref(root);
}
