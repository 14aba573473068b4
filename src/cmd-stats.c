// SPDX-License-Identifier: GPL-2.0
/*
 * kdelta stats RUN_DIR...: extracts each run directory's stats.json again
 * from its raw monitor files and workload logs, after a parser fix or to
 * check a run by hand.  The old stats.json stays until the new one is
 * complete.
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "kdelta/err.h"
#include "kdelta/monitor.h"

static const char stats_usage[] =
	"usage: kdelta stats RUN_DIR...\n"
	"\n"
	"Extracts stats.json of each run directory again from its raw monitor\n"
	"files (<monitor>.gz) and workload logs (<prefix>.log), and prints\n"
	"'<dir>/stats.json: N metrics'.  See MONITORS in kdelta(1).\n";

static int stats_one(const char *run_dir)
{
	struct kd_err err;
	json_t *stats;

	if (run_dir_extract(run_dir, &stats, &err) < 0 ||
	    run_dir_write_stats(run_dir, stats, &err) < 0) {
		fprintf(stderr, "kdelta stats: %s\n", err.msg);
		json_decref(stats);
		return -1;
	}
	printf("%s/stats.json: %zu metrics\n", run_dir, json_object_size(stats));
	json_decref(stats);
	return 0;
}

int cmd_stats(int argc, char **argv)
{
	int first = 1, status = KD_EXIT_OK;

	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(stats_usage, stdout);
		return KD_EXIT_OK;
	}
	if (argc >= 2 && !strcmp(argv[1], "--"))
		first = 2;
	else if (argc >= 2 && argv[1][0] == '-' && argv[1][1]) {
		fprintf(stderr, "kdelta stats: unknown option '%s'. See 'kdelta stats --help'.\n",
			argv[1]);
		return KD_EXIT_USAGE;
	}
	if (first >= argc) {
		fputs(stats_usage, stderr);
		return KD_EXIT_USAGE;
	}
	for (int i = first; i < argc; i++)
		if (stats_one(argv[i]) < 0)
			status = KD_EXIT_USAGE;
	return status;
}
