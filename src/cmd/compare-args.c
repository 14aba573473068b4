// SPDX-License-Identifier: GPL-2.0
/*
 * The options that choose and decide a comparison (compare-load.h loads
 * what they name): shared by kdelta compare, report and plot.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/catalogue.h"
#include "kdelta/compare-args.h"
#include "kdelta/cmdline.h"
#include "kdelta/git.h"
#include "kdelta/matrix.h"
#include "kdelta/metric-rules.h"
#include "kdelta/parallel.h"
#include "kdelta/resultdb.h"
#include "kdelta/store.h"
#include "kdelta/util.h"


static int parse_number(const char *opt,
			const char *value, double min, double max, double *out,
			struct kd_err *err)
{
	char *end;

	errno = 0;
	*out = strtod(value, &end);
	if (!*value || *end || errno || !(*out >= min && *out <= max))
		return kd_error(err, "%s: expected a number from %g to %g, got '%s'",
				   opt, min, max, value);
	return 0;
}

static int parse_choice(const char *opt,
			const char *value, const char *const *choices,
			int *out, struct kd_err *err)
{
	struct strbuf list = STRBUF_INIT;
	int n = 0;

	for (; choices[n]; n++)
		if (!strcmp(value, choices[n])) {
			*out = n;
			return 0;
		}
	for (int i = 0; i < n; i++)
		strbuf_addf(&list, "%s%s", i ? (i == n - 1 ? " or " : ", ") : "",
			    choices[i]);
	kd_error(err, "%s: expected %s, got '%s'", opt, list.buf, value);
	strbuf_release(&list);
	return -1;
}

static const char *const format_names[] = { "lkp", "mmtests", "json", "csv",
					    NULL };

static void push_arg(const char ***list, size_t *n, size_t *alloc,
		     const char *arg)
{
	ALLOC_GROW(*list, *n + 1, *alloc);
	(*list)[(*n)++] = arg;
}

/* An option that takes a value; returns -1 on a bad value. */
static int take_value(struct compare_args *a, const char *name,
		      const char *value, struct kd_err *err)
{
	int choice;

	if (!strcmp(name, "--test")) {
		if (parse_choice(name, value, sig_test_names, &choice, err) < 0)
			return -1;
		a->q.opt.test = (enum sig_test)choice;
	} else if (!strcmp(name, "--format")) {
		if (parse_choice(name, value, format_names, &choice, err) < 0)
			return -1;
		a->format = (enum output_format)choice;
	} else if (!strcmp(name, "--fdr")) {
		return parse_number(name, value, 0, 0.5, &a->q.opt.fdr, err);
	} else if (!strcmp(name, "--min-change")) {
		if (param_number(&compare_min_change_param, value,
				 &a->q.opt.min_change, err) < 0)
			return kd_error_prefix(err, "%s", name);
	} else if (!strcmp(name, "--commit")) {
		push_arg(&a->q.commits, &a->q.ncommits, &a->commits_alloc, value);
	} else if (!strcmp(name, "--metric")) {
		if (!*value)
			return kd_error(err, "%s: expected a value, got ''",
					name);
		/* A metric may be given by the name an old store has. */
		push_arg(&a->q.metrics, &a->q.nmetrics, &a->metrics_alloc,
			 metric_current_name(value));
	} else {
		const char **slot = !strcmp(name, "--summary") ? &a->summary
			: !strcmp(name, "--explain") ? &a->explain
			: !strcmp(name, "--result-root") ? &a->q.result_root
			: !strcmp(name, "--repo") ? &a->q.repo : &a->q.axis;

		if (!*value)
			return kd_error(err, "%s: expected a value, got ''",
					   name);
		/* A metric may be given by the name an old store has. */
		*slot = slot == &a->summary || slot == &a->explain
			? metric_current_name(value) : value;
	}
	return 0;
}

static const char *const value_options[] = {
	"--test", "--fdr", "--min-change", "--commit", "--result-root",
	"--repo", "--axis", "--metric", NULL,
};

/* compare's own: how to show a comparison.  Not for report or plot. */
static const char *const render_value_options[] = {
	"--format", "--summary", "--explain", NULL,
};

static const char *const flag_options[] = { "--all", NULL };
static const char *const render_flag_options[] = { "--fail-on-regression",
						   NULL };

static bool in_list(const char *const *list, const char *name)
{
	for (size_t i = 0; list && list[i]; i++)
		if (!strcmp(name, list[i]))
			return true;
	return false;
}

/*
 * A command's options for cmd_next_option(): names[i] ("--all", "-o") is
 * options[i] (getopt value OPTION_VALUE_BASE + i) or, for a one-letter
 * name, in shortopts (getopt value the letter).
 */
struct option_table {
	const char *names[48];
	struct option options[48];
	size_t n, nlong;
	char shortopts[16];
};

#define OPTION_VALUE_BASE 1000

static void table_add(struct option_table *t, const char *const *names,
		      int has_arg)
{
	for (size_t i = 0; names && names[i]; i++) {
		size_t len = strlen(t->shortopts);

		if (t->n + 1 >= ARRAY_SIZE(t->options) ||
		    len + 3 >= sizeof(t->shortopts))
			xdie("compare_args: too many options");
		t->names[t->n] = names[i];
		if (names[i][1] != '-') {
			t->shortopts[len] = names[i][1];
			t->shortopts[len + 1] = has_arg ? ':' : '\0';
			t->shortopts[len + 2] = '\0';
		} else {
			t->options[t->nlong++] = (struct option){
				names[i] + 2, has_arg, NULL,
				OPTION_VALUE_BASE + (int)t->n
			};
		}
		t->n++;
	}
	memset(&t->options[t->nlong], 0, sizeof(t->options[t->nlong]));
}

/* The name of what cmd_next_option() returned. */
static const char *table_name(const struct option_table *t, int c)
{
	if (c >= OPTION_VALUE_BASE)
		return t->names[c - OPTION_VALUE_BASE];
	for (size_t i = 0; i < t->n; i++)
		if (t->names[i][1] == c && !t->names[i][2])
			return t->names[i];
	return NULL;
}

static void option_table_init(struct option_table *t,
			      const struct compare_args_ext *ext)
{
	memset(t, 0, sizeof(*t));
	table_add(t, value_options, required_argument);
	table_add(t, flag_options, no_argument);
	if (ext) {
		table_add(t, ext->value_options, required_argument);
		table_add(t, ext->flag_options, no_argument);
	} else {
		table_add(t, render_value_options, required_argument);
		table_add(t, render_flag_options, no_argument);
	}
}

/* The option name (with "--") and its value, NULL for a flag. */
static int take_option(struct compare_args *a, const char *name,
		       const char *value, const struct compare_args_ext *ext,
		       struct kd_err *err)
{
	if (ext && (in_list(ext->value_options, name) ||
		    in_list(ext->flag_options, name)))
		return ext->option(ext->ctx, name, value, err);
	if (!strcmp(name, "--all"))
		a->q.opt.all = true;
	else if (!strcmp(name, "--fail-on-regression"))
		a->fail_on_regression = true;
	else
		return take_value(a, name, value, err);
	return 0;
}

int compare_args_parse(struct compare_args *a, int argc, char **argv,
		       const struct compare_args_ext *ext, struct kd_err *err)
{
	struct option_table table;
	struct cmd_parser p = { NULL, table.shortopts, table.options, 0, "" };
	int c;

	memset(a, 0, sizeof(*a));
	a->q.command = p.command = ext ? ext->command : "compare";
	compare_options_init(&a->q.opt);
	a->q.catalogue = metric_catalogue_default();
	option_table_init(&table, ext);
	while ((c = cmd_next_option(&p, argc, argv, err)) != -1) {
		if (c == CMD_HELP) {
			a->help = true;
			return 0;
		}
		if (c == CMD_BAD_OPTION)
			return -1;
		if (take_option(a, table_name(&table, c), optarg, ext, err) < 0)
			return -1;
	}
	for (int i = optind; i < argc; i++)
		push_arg(&a->q.labels, &a->q.nlabels, &a->labels_alloc, argv[i]);
	if (a->q.nlabels < 2)
		return kd_error(err, "needs a base and at least one variant to compare with it; see 'kdelta %s --help'",
				   a->q.command);
	if (a->q.ncommits && !a->q.axis)
		return kd_error(err, "--commit goes with --axis; without it, name the commits as arguments");
	return 0;
}

void compare_args_release(struct compare_args *a)
{
	free(a->q.labels);
	free(a->q.commits);
	free(a->q.metrics);
	a->q.labels = a->q.commits = a->q.metrics = NULL;
	a->q.nlabels = a->q.ncommits = a->q.nmetrics = 0;
}
