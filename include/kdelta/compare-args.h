/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_COMPARE_ARGS_H
#define KDELTA_COMPARE_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/compare.h"
#include "kdelta/err.h"
#include "kdelta/resultdb.h"

/*
 * The command line of kdelta compare (which results, which test) and the
 * step that turns it into decided comparisons, shared by the commands that
 * take compare's options: compare, report and plot (src/compare/compare-args.c).
 */

enum output_format { FORMAT_LKP, FORMAT_MMTESTS, FORMAT_JSON, FORMAT_CSV };

/* The defaults of --fdr and --min-change (percent). */
#define COMPARE_DEFAULT_FDR 0.05
#define COMPARE_DEFAULT_MIN_CHANGE 1.0

/*
 * compare's defaults, for every command that decides comparisons: --test
 * welch, --fdr and --min-change as above, --all off.
 */
void compare_options_init(struct compare_options *opt);

/*
 * The options of a command that takes compare's besides its own: the names
 * of its options that take a value and of its flags, and the function that
 * handles each (value is NULL for a flag).  Such a command does not take
 * compare's rendering options (--format, --summary, --explain,
 * --fail-on-regression).
 */
struct compare_args_ext {
	const char *command;			/* "report", for messages */
	const char *const *value_options;	/* NULL-terminated */
	const char *const *flag_options;	/* NULL-terminated, or NULL */
	int (*option)(void *ctx, const char *name, const char *value,
		      struct kd_err *err);
	void *ctx;
};

struct compare_args {
	const char *command;	/* "compare", or the ext's command */
	struct compare_options opt;
	enum output_format format;
	const char *summary, *explain, *result_root, *repo, *axis;
	const char **commits;
	size_t ncommits, commits_alloc;
	const char **metrics;	/* --metric: globs of the rows to keep */
	size_t nmetrics, metrics_alloc;
	bool fail_on_regression, help;
	const char **labels;
	size_t nlabels, labels_alloc;
};

/*
 * Parses argv (argv[0] is the command) with cmd_next_option(); ext is NULL
 * for compare itself.  Errors say the problem only: the command prints
 * them as "kdelta <command>: <problem>" (cmd_error()).  With --help, sets
 * a->help and checks nothing else.
 */
int compare_args_parse(struct compare_args *a, int argc, char **argv,
		       const struct compare_args_ext *ext, struct kd_err *err);
void compare_args_release(struct compare_args *a);

/* What a whole run of such a command holds. */
struct compare_state {
	struct comparison **cmps;
	size_t n, alloc;
	struct resultdb db;
	struct result_groups groups;
	struct result_dir *path_dirs;	/* for path arguments */
	size_t npath_dirs;
	/*
	 * What the command should tell the user on stderr, whether it
	 * succeeds or not: lines "kdelta <command>: ...\n" (a stale matrix
	 * rebuilt); compare_load() fills it.
	 */
	struct strbuf notices;
};

/*
 * Finds the groups the arguments name, loads every variant's results, adds
 * the commit subjects (--repo) and decides: one comparison per group.
 */
int compare_load(struct compare_state *st, const struct compare_args *a,
		 struct kd_err *err);
void compare_state_release(struct compare_state *st);

/* The row of metric in cmp, or NULL. */
const struct metric_row *comparison_find_row(const struct comparison *cmp,
					     const char *metric);
/* Whether any group has metric. */
bool compare_state_has_metric(const struct compare_state *st,
			      const char *metric);
/*
 * "<option>: no metric '<metric>' in these results", with the nearest
 * name as a did-you-mean.  Returns -1.
 */
int compare_no_such_metric(const struct compare_state *st, const char *option,
			   const char *metric, struct kd_err *err);

/*
 * One comparison of the commit directories (or matrices) paths[0..n), the
 * base first, loaded as compare loads the paths it is given: their labels
 * are their directories' names, and with repo, the commit subjects are
 * git's.  Not decided yet: the caller may drop rows (comparison_keep_rows())
 * before compare_decide().
 */
int compare_dirs(const char *const *paths, size_t n, const char *repo,
		 struct comparison *cmp, struct kd_err *err);

#endif
