/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_COMPARE_ARGS_H
#define KDELTA_COMPARE_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/compare-load.h"
#include "kdelta/compare.h"
#include "kdelta/err.h"

/*
 * The command line of kdelta compare (which results, which test), shared by
 * the commands that take compare's options: compare, report and plot
 * (src/cmd/compare-args.c).  compare_load() turns its query into decided
 * comparisons.
 */

enum output_format { FORMAT_LKP, FORMAT_MMTESTS, FORMAT_JSON, FORMAT_CSV };

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
	/* What to compare, and how to decide: for compare_load(). */
	struct compare_query q;
	size_t commits_alloc, metrics_alloc, labels_alloc;
	enum output_format format;
	const char *summary, *explain;
	bool fail_on_regression, help;
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

#endif
