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
#include "kdelta/cmdline.h"
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
		cmd_error("stats", "%s", err.msg);
		json_decref(stats);
		return -1;
	}
	printf("%s/stats.json: %zu metrics\n", run_dir, json_object_size(stats));
	json_decref(stats);
	return 0;
}

int cmd_stats(int argc, char **argv)
{
	struct cmd_parser p = { "stats", "", NULL, 0, "" };
	struct kd_err err;
	int c, status = KD_EXIT_OK;

	while ((c = cmd_next_option(&p, argc, argv, &err)) != -1) {
		if (c == CMD_HELP) {
			fputs(stats_usage, stdout);
			return KD_EXIT_OK;
		}
		cmd_error("stats", "%s", err.msg);
		return KD_EXIT_USAGE;
	}
	if (optind >= argc) {
		cmd_error("stats", "no run directory given; see 'kdelta stats --help'");
		return KD_EXIT_USAGE;
	}
	for (int i = optind; i < argc; i++)
		if (stats_one(argv[i]) < 0)
			status = KD_EXIT_USAGE;
	return status;
}
