/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_BUILTIN_H
#define KDELTA_BUILTIN_H

struct compare_state;

/*
 * One function per subcommand, cmd_<name>(argc, argv), each in its own
 * src/cmd/<name>.c, listed once in the table in main.c.  argv[0] is the
 * subcommand's name.  Each returns the exit status (see kdelta/err.h) and
 * answers --help by printing its usage to stdout with status 0.
 */

int cmd_compare(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_split(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_robot(int argc, char **argv);
int cmd_ls(int argc, char **argv);
int cmd_index(int argc, char **argv);

/*
 * The options of the commands that only take a store (ls, index):
 * --result-root and --help.  Returns the exit status when the command is
 * done (--help, or a bad option, said on stderr), else -1 with *root set
 * (caller frees) and optind at the first argument.
 */
/*
 * The exit status of compare and report --fail-on-regression for what the
 * comparisons tell (compare_outcome()): 0 clean, 1 regressed, 6
 * inconclusive, 7 no data (cmd-compare.c).
 */
int compare_status(const struct compare_state *st);

int store_command_options(int argc, char **argv, const char *usage,
			  char **root);

#endif
