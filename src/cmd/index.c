// SPDX-License-Identifier: GPL-2.0
/*
 * kdelta index [--result-root DIR]: builds the result root's index again
 * from a walk of the whole root (see kdelta/result-index.h).  Lookups keep
 * it up to date themselves; this is for a root whose index was lost, or
 * to check one: it prints the number of commit directories found.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "builtin.h"
#include "kdelta/cmdline.h"
#include "kdelta/result-index.h"
#include "kdelta/store.h"

static const char index_usage[] =
	"usage: kdelta index [--result-root DIR]\n"
	"\n"
	"Builds the index of the result root (RESULT_ROOT/.kdelta/index) again\n"
	"from a walk of the whole root, and prints how many commit directories it\n"
	"holds.\n"
	"compare, report, plot, ls and run keep the index up to date themselves.\n"
	"\n"
	"  --result-root DIR  the store (default: $KDELTA_RESULT_ROOT, else\n"
	"                     /var/lib/kdelta/results for root, else\n"
	"                     ~/.local/share/kdelta/results)\n";

int cmd_index(int argc, char **argv)
{
	struct kd_err err;
	size_t n;
	char *root;
	int ret = store_command_options(argc, argv, index_usage, &root);

	if (ret >= 0)
		return ret;
	if (optind < argc) {
		cmd_error("index", "takes no arguments, got '%s'; see 'kdelta index --help'",
			argv[optind]);
		free(root);
		return KD_EXIT_USAGE;
	}
	ret = result_index_rebuild(root, &n, &err);
	if (ret < 0)
		cmd_error("index", "%s", err.msg);
	else
		printf("%s: %zu commit directories indexed\n", root, n);
	free(root);
	return ret < 0 ? KD_EXIT_USAGE : KD_EXIT_OK;
}
