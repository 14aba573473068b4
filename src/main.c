// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "cmd/builtin.h"
#include "kdelta/err.h"
#include "kdelta/util.h"
#include "kdelta/vm.h"
#include "version.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "run", cmd_run, "run jobs for one or more commits into the store" },
	{ "compare", cmd_compare, "compare stored results of commits or parameter values" },
	{ "report", cmd_report, "write the robot's mail about a comparison, or send it" },
	{ "plot", cmd_plot, "plot the samples of a comparison: ASCII, SVG or HTML" },
	{ "bisect", cmd_bisect, "find the first commit that changed a job's key result" },
	{ "robot", cmd_robot, "watch branches, bisect regressions, mail the first bad commit once" },
	{ "split", cmd_split, "expand a job file into its jobs, or list them" },
	{ "stats", cmd_stats, "extract stats.json of run directories again from their raw files" },
	{ "ls", cmd_ls, "list the labels, jobs and runs of a result root" },
	{ "index", cmd_index, "build the index of a result root again" },
	{ NULL, NULL, NULL },
};

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; commands[i].name; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: kdelta <command> [options] [args]\n"
		"       kdelta help <command>\n"
		"       kdelta --version\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; commands[i].name; i++)
		fprintf(out, "   %-10s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(out, "\nSee kdelta(1) and kdelta-job(5).\n");
}

static int unknown_command(const char *name)
{
	struct nearest n = NEAREST_INIT(name);

	for (size_t i = 0; commands[i].name; i++)
		nearest_offer(&n, commands[i].name);
	if (n.best)
		fprintf(stderr,
			"kdelta: '%s' is not a kdelta command; did you mean '%s'?\n",
			name, n.best);
	else
		fprintf(stderr,
			"kdelta: '%s' is not a kdelta command; see 'kdelta --help'\n",
			name);
	return KD_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	const struct command *cmd;

	/*
	 * GSL's default error handler aborts the process.  Off, its
	 * functions return NaN or an error code instead, which the
	 * statistics check (decide.c's "not-finite" verdict).
	 */
	gsl_set_error_handler_off();
	/* The init of a guest that kdelta run --kernel built (kdelta/vm.h). */
	if (getpid() == 1 && !access(VM_GUEST_CONFIG, F_OK))
		vm_guest_init();
	if (argc < 2) {
		usage(stderr);
		return KD_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return KD_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("kdelta %s\n", KDELTA_VERSION);
		return KD_EXIT_OK;
	}
	if (!strcmp(argv[1], "help")) {
		char *help_argv[] = { NULL, "--help", NULL };

		if (argc < 3) {
			usage(stdout);
			return KD_EXIT_OK;
		}
		cmd = find_command(argv[2]);
		if (!cmd)
			return unknown_command(argv[2]);
		help_argv[0] = argv[2];
		return cmd->fn(2, help_argv);
	}
	if (argv[1][0] == '-') {
		fprintf(stderr, "kdelta: unknown option '%s'; see 'kdelta --help'\n",
			argv[1]);
		return KD_EXIT_USAGE;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	return cmd->fn(argc - 1, argv + 1);
}
