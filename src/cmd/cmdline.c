// SPDX-License-Identifier: GPL-2.0
/*
 * The commands' options and messages: see kdelta/cmdline.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kdelta/cmdline.h"
#include "kdelta/util.h"

static const struct option *find_long(const struct option *longopts,
				      const char *arg)
{
	size_t len = strcspn(arg, "=");

	for (; longopts && longopts->name; longopts++)
		if (strlen(longopts->name) == len &&
		    !strncmp(longopts->name, arg, len))
			return longopts;
	return NULL;
}

/* What getopt refused at argv[optind - 1]: a message. */
static int bad_option(const struct cmd_parser *p, char **argv, int c,
		      struct kd_err *err)
{
	const char *arg = argv[optind - 1];
	const struct option *o = NULL;
	char name[128];

	if (!strncmp(arg, "--", 2))
		o = find_long(p->longopts, arg + 2);
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "="), arg);
	if (c == ':')
		kd_error(err, "option '%s' needs a value; see 'kdelta %s --help'",
			 o || arg[1] == '-' ? name : arg, p->command);
	else if (o && o->has_arg == no_argument && strchr(arg, '='))
		kd_error(err, "option '%s' takes no value; see 'kdelta %s --help'",
			 name, p->command);
	else if (arg[0] == '-' && arg[1] != '-' && optopt)
		kd_error(err, "unknown option '-%c'; see 'kdelta %s --help'",
			 optopt, p->command);
	else
		kd_error(err, "unknown option '%s'; see 'kdelta %s --help'",
			 name, p->command);
	return CMD_BAD_OPTION;
}

int cmd_parse_options(const char *command, const struct option *options,
		      int argc, char **argv, void (*usage)(FILE *out),
		      cmd_option_taker *take, void *arg)
{
	struct cmd_parser p = { command, "", options, 0, "" };
	struct kd_err err;
	int c;

	while ((c = cmd_next_option(&p, argc, argv, &err)) != -1) {
		if (c == CMD_HELP) {
			usage(stdout);
			return 1;
		}
		if (c == CMD_BAD_OPTION) {
			cmd_error(command, "%s", err.msg);
			return -1;
		}
		if (take(arg, c, optarg) < 0)
			return -1;
	}
	return 0;
}

int cmd_next_option(struct cmd_parser *p, int argc, char **argv,
		    struct kd_err *err)
{
	static const struct option help = { "help", no_argument, NULL, 'h' };
	struct option longopts[64];
	size_t n = 0;
	int c;

	if (!p->started) {
		/* ':' first: a missing value is ':', not '?'; 0: reset getopt */
		snprintf(p->optstring, sizeof(p->optstring), ":h%s",
			 p->shortopts ? p->shortopts : "");
		optind = 0;
		p->started = 1;
	}
	for (; p->longopts && p->longopts[n].name; n++) {
		if (n + 2 >= ARRAY_SIZE(longopts))
			xdie("cmd_next_option: too many options");
		longopts[n] = p->longopts[n];
	}
	longopts[n++] = help;
	memset(&longopts[n], 0, sizeof(longopts[n]));
	opterr = 0;
	c = getopt_long(argc, argv, p->optstring, longopts, NULL);
	if (c == 'h')
		return CMD_HELP;
	if (c == ':' || c == '?')
		return bad_option(p, argv, c, err);
	return c;
}

void cmd_error(const char *command, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "kdelta %s: ", command);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
