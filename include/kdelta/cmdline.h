/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_CMDLINE_H
#define KDELTA_CMDLINE_H

#include <getopt.h>
#include <stdio.h>

#include "kdelta/err.h"

/*
 * The command line of a command (src/cmd/cmdline.c): every command parses its
 * options with cmd_next_option() (or cmd_parse_options(), its loop, for a
 * command with many) and says what went wrong with cmd_error(), so that
 * all of them take options the same way and speak the same way:
 *
 *	kdelta <command>: <problem>
 *
 * Options are getopt_long(3)'s: "--name value", "--name=value", "-x
 * value", anywhere among the arguments; "--" ends them.  -h and --help are
 * every command's.
 *
 *	static const struct option options[] = {
 *		{ "runs", required_argument, NULL, 'r' },
 *		{ NULL, 0, NULL, 0 },
 *	};
 *	struct cmd_parser p = { "run", "", options };
 *
 *	while ((c = cmd_next_option(&p, argc, argv, &err)) != -1) {
 *		switch (c) {
 *		case CMD_HELP: ...usage to stdout, status 0
 *		case CMD_BAD_OPTION: ...cmd_error("run", "%s", err.msg), status 2
 *		case 'r': ...optarg
 *		}
 *	}
 *	...the arguments are argv[optind] to argv[argc - 1]
 */
struct cmd_parser {
	const char *command;		/* "run": for messages */
	const char *shortopts;		/* getopt's, without ':' and 'h' */
	const struct option *longopts;	/* without "help" */
	/* Private: */
	int started;
	char optstring[64];
};

enum {
	CMD_HELP = -10,		/* -h or --help */
	CMD_BAD_OPTION = -11,	/* err says: "unknown option '--x'; see
				 * 'kdelta run --help'", "option '--runs' needs
				 * a value; ...", "option '--print' takes no
				 * value; ..." */
};

/*
 * The next option of argv: its getopt value (optarg holds its value),
 * CMD_HELP, CMD_BAD_OPTION with err set, or -1 when there are no more
 * (optind is then the first argument).
 */
int cmd_next_option(struct cmd_parser *p, int argc, char **argv,
		    struct kd_err *err);

/*
 * The loop above, for a command whose options each go to take(arg, c,
 * value), which returns 0, or -1 when it said what is wrong: -h and
 * --help print usage to stdout.  Returns 0 when every option was taken
 * (the arguments are argv[optind] on), 1 after the help, -1 on a bad
 * option (said as "kdelta <command>: ...") or when take failed.
 */
typedef int cmd_option_taker(void *arg, int c, const char *value);
int cmd_parse_options(const char *command, const struct option *options,
		      int argc, char **argv, void (*usage)(FILE *out),
		      cmd_option_taker *take, void *arg);

/* Prints "kdelta <command>: <message>" and a newline on stderr. */
void cmd_error(const char *command, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
