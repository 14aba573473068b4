// SPDX-License-Identifier: GPL-2.0
/*
 * kdelta index [--result-root DIR]: builds the result root's index again
 * from a walk of the whole root (see kdelta/result-index.h).  Lookups keep
 * it up to date themselves; this is for a root whose index was lost, or
 * to check one: it prints the number of commit directories found.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "builtin.h"
#include "kdelta/result-index.h"
#include "kdelta/store.h"

static const char index_usage[] =
	"usage: kdelta index [--result-root DIR]\n"
	"\n"
	"Builds the index of the result root (DIR/.kdelta-index) again from a\n"
	"walk of the whole root, and prints how many commit directories it holds.\n"
	"compare, report, plot, ls and run keep the index up to date themselves.\n"
	"\n"
	"  --result-root DIR  the store (default: $KDELTA_RESULT_ROOT, else\n"
	"                     /var/lib/kdelta/results for root)\n";

int cmd_index(int argc, char **argv)
{
	static const struct option options[] = {
		{ "result-root", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *root_option = NULL;
	struct kd_err err;
	size_t n;
	char *root;
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		if (c == 'R') {
			root_option = optarg;
		} else if (c == 'h') {
			fputs(index_usage, stdout);
			return KD_EXIT_OK;
		} else {
			fprintf(stderr, c == ':'
				? "kdelta index: option '%s' needs a value; see 'kdelta index --help'\n"
				: "kdelta index: unknown option '%s'; see 'kdelta index --help'\n",
				argv[optind - 1]);
			return KD_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "kdelta index: takes no arguments, got '%s'; see 'kdelta index --help'\n",
			argv[optind]);
		return KD_EXIT_USAGE;
	}
	root = result_root(root_option);
	ret = result_index_rebuild(root, &n, &err);
	if (ret < 0)
		fprintf(stderr, "kdelta index: %s\n", err.msg);
	else
		printf("%s: %zu commit directories indexed\n", root, n);
	free(root);
	return ret < 0 ? KD_EXIT_USAGE : KD_EXIT_OK;
}
