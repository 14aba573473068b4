// SPDX-License-Identifier: GPL-2.0
/*
 * exec: runs any command in the work directory, so that fio, bonnie++ or a
 * user's own program fit in.  Its stdout is the workload's log: every
 * "key: value" line it prints becomes the metric "<name>.<key>".  For a
 * program that prints its results otherwise ("1566944 us"), "results"
 * maps a key to a regular expression: the first line it matches gives the
 * value, written to the log as a "key: value" line after the program's
 * output.  The command
 * runs in a process group of its own, which gets the runner's stop signals
 * passed on, is killed when timeout passes, and is killed once the command
 * has ended: nothing it started outlives the run.
 */
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "common.h"
#include "kdelta/proc.h"
#include "kdelta/store.h"
#include "kdelta/strbuf.h"
#include "kdelta/util.h"
#include "kdelta/workload.h"

#define EXEC_SHOWN_MAX 200		/* bytes of the command shown in errors */

struct exec_cmd {
	char **argv;		/* NULL-terminated: the command, or sh -c cmd */
	char *shown;		/* the command as errors show it */
	bool shell;		/* argv is sh -c <cmd> */
	double timeout;		/* seconds; 0: none */
};

static void exec_cmd_release(struct exec_cmd *c)
{
	if (c->argv)
		for (size_t i = 0; c->argv[i]; i++)
			free(c->argv[i]);
	free(c->argv);
	free(c->shown);
}

/* The command as errors show it: argv joined, cut at EXEC_SHOWN_MAX bytes. */
static void exec_show(struct exec_cmd *c)
{
	struct strbuf sb = STRBUF_INIT;

	if (c->shell)
		strbuf_addstr(&sb, c->argv[2]);
	for (size_t i = 0; !c->shell && c->argv[i]; i++) {
		if (i)
			strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, c->argv[i]);
	}
	if (sb.len > EXEC_SHOWN_MAX) {
		strbuf_setlen(&sb, EXEC_SHOWN_MAX);
		strbuf_addstr(&sb, "...");
	}
	c->shown = strbuf_detach(&sb);
}

/* A key of "results": what store_result_line() takes before ": ". */
static bool result_key_ok(const char *key)
{
	if (!*key)
		return false;
	for (const char *s = key; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == ':' || *s == 0x7f)
			return false;
	return true;
}

/* regcomp() of one pattern: POSIX extended, ^ and $ at each line. */
static int results_compile(const char *key, const char *pattern, regex_t *re,
			   struct kd_err *err)
{
	int rc = regcomp(re, pattern, REG_EXTENDED | REG_NEWLINE);
	char why[256];

	if (!rc)
		return 0;
	regerror(rc, re, why, sizeof(why));
	return kd_error(err, "exec: results: %s: '%s' is no regular expression: %s",
			key, pattern, why);
}

/* "results": a mapping of result keys to regular expressions. */
static int results_check(const struct jnode *results, const char **at,
			 struct kd_err *err)
{
	*at = "results";
	if (!results)
		return 0;
	if (results->kind != JNODE_MAP || !results->n)
		return kd_error(err, "exec: results must map result keys to regular expressions, e.g. 'usecs: \"^([0-9]+) us$\"'");
	for (size_t i = 0; i < results->n; i++) {
		const struct jnode *v = results->values[i];
		regex_t re;

		if (!result_key_ok(results->keys[i]))
			return kd_error(err, "exec: results: '%s' is no result key (no blanks, no ':')",
					results->keys[i]);
		if (v->kind != JNODE_SCALAR || !*v->scalar)
			return kd_error(err, "exec: results: %s: expected a regular expression",
					results->keys[i]);
		if (results_compile(results->keys[i], v->scalar, &re, err) < 0)
			return -1;
		regfree(&re);
	}
	return 0;
}

/* One command, cmd or argv: checked as the job file loads. */
static int exec_constraints(const struct jnode *params, const char **at,
			    struct kd_err *err)
{
	const char *line = jnode_str(params, "cmd");
	const struct jnode *list = jnode_get(params, "argv");

	*at = "argv";
	if (line && list)
		return kd_error(err, "exec: give either cmd (a shell command line) or argv (a list), not both");
	if (!line && !list)
		return kd_error(err, "exec: no command: give cmd (a shell command line) or argv (a list of arguments)");
	if (list && (list->kind != JNODE_LIST || !list->n))
		return kd_error(err, "exec: argv must be a non-empty list of arguments");
	return results_check(jnode_get(params, "results"), at, err);
}

/* The command, from cmd (a shell command line) or argv (a list). */
static int exec_cmd_init(struct exec_cmd *c, const struct jnode *params,
			 struct kd_err *err)
{
	const char *line = jnode_str(params, "cmd");
	const struct jnode *list = jnode_get(params, "argv");
	const char *at;

	*c = (struct exec_cmd){ .timeout = jnode_duration(params, "timeout") };
	if (exec_constraints(params, &at, err) < 0)
		return -1;
	if (c->timeout < 0)
		return kd_error(err, "exec: timeout must not be negative");
	if (line) {
		c->shell = true;
		c->argv = xcalloc(4, sizeof(*c->argv));
		c->argv[0] = xstrdup("sh");
		c->argv[1] = xstrdup("-c");
		c->argv[2] = xstrdup(line);
		exec_show(c);
		return 0;
	}
	c->argv = xcalloc(list->n + 1, sizeof(*c->argv));
	for (size_t i = 0; i < list->n; i++) {
		if (list->values[i]->kind != JNODE_SCALAR)
			return kd_error(err, "exec: argv item %zu is not a string", i + 1);
		c->argv[i] = xstrdup(list->values[i]->scalar);
	}
	exec_show(c);
	return 0;
}

/*
 * The signals with which the runner stops a run.  While the command runs
 * they are blocked here and read from a signalfd, so that the command's
 * process group is stopped too, which the runner's own kill of its group
 * does not reach.
 */
static void exec_stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

/* The stop signal the signalfd holds, or 0. */
static int exec_stop_signal(int sigfd)
{
	struct signalfd_siginfo si;

	if (read(sigfd, &si, sizeof(si)) != sizeof(si))
		return 0;
	return (int)si.ssi_signo;
}

static int exec_status(const struct exec_cmd *c, const struct proc *p,
		       int sigfd, struct kd_err *err)
{
	int signo;

	switch (p->end) {
	case PROC_CANCELLED:
		signo = exec_stop_signal(sigfd);
		return kd_error(err, "exec: '%s' was stopped: kdelta received signal %d (%s)",
				c->shown, signo, strsignal(signo));
	case PROC_TIMED_OUT:
		return kd_error(err, "exec: '%s' ran longer than its timeout of %gs and was killed",
				c->shown, c->timeout);
	case PROC_SIGNALED:
		return kd_error(err, "exec: '%s' was killed by signal %d (%s)",
				c->shown, p->status, strsignal(p->status));
	case PROC_EXITED:
		break;
	}
	if (p->status)
		return kd_error(err, "exec: '%s' exited with status %d",
				c->shown, p->status);
	return 0;
}

/* Runs the command in a process group of its own, watching the stop signals. */
static int exec_command(const struct exec_cmd *c, int out_fd,
			struct kd_err *err)
{
	struct proc p = PROC_INIT;
	sigset_t stop, old;
	int ret;

	/* Blocked before the start: a stop signal now waits for proc_wait(). */
	exec_stop_signals(&stop);
	sigprocmask(SIG_BLOCK, &stop, &old);
	p.cancel_fd = signalfd(-1, &stop, SFD_CLOEXEC | SFD_NONBLOCK);
	if (p.cancel_fd < 0) {
		ret = kd_error(err, "exec: signalfd: %s", strerror(errno));
		goto out;
	}
	if (c->shell)
		p.shell = c->argv[2];
	else
		p.argv = (const char *const *)c->argv;
	p.out = out_fd;
	p.err = PROC_INHERIT;
	p.timeout = c->timeout;
	ret = proc_run(&p, err);
	if (ret < 0)
		kd_error_prefix(err, "exec");
	else
		ret = exec_status(c, &p, p.cancel_fd, err);
	close(p.cancel_fd);
out:
	sigprocmask(SIG_SETMASK, &old, NULL);
	proc_clear(&p);
	return ret;
}

/*
 * The value a pattern finds in text: its first parenthesized group, else
 * what it matched, on the first line where it matches and that reads as a
 * number (strtod(), whole).
 */
static bool results_find(const regex_t *re, const char *text, double *value)
{
	regmatch_t m[2];

	for (const char *s = text; *s;) {
		size_t len = strcspn(s, "\n");
		char *line = xstrndup(s, len);
		bool found = false;

		if (!regexec(re, line, 2, m, 0)) {
			regmatch_t *g = m[1].rm_so >= 0 ? &m[1] : &m[0];
			char *number = xstrndup(line + g->rm_so,
						(size_t)(g->rm_eo - g->rm_so));
			char *end;

			*value = strtod(number, &end);
			found = end != number && !*end && isfinite(*value);
			free(number);
		}
		free(line);
		if (found)
			return true;
		s += len + (s[len] == '\n');
	}
	return false;
}

/*
 * "results": the program's output read back from the log (stdout, a file
 * of the run directory), each pattern's value written after it.
 */
static int results_add(const struct jnode *results, FILE *out,
		       struct kd_err *err)
{
	struct strbuf text = STRBUF_INIT;
	char *path = xasprintf("/proc/self/fd/%d", fileno(out));
	int ret = 0;

	if (read_file(path, &text, err) < 0)
		ret = kd_error_prefix(err, "exec: results: cannot read the output back");
	for (size_t i = 0; !ret && i < results->n; i++) {
		regex_t re;
		double value;

		ret = results_compile(results->keys[i],
				      results->values[i]->scalar, &re, err);
		if (ret < 0)
			break;
		if (results_find(&re, text.buf, &value))
			store_result_write(out, results->keys[i], value);
		regfree(&re);
	}
	if (!ret && fflush(out) == EOF)
		ret = kd_error(err, "exec: results: cannot write the log: %s",
			       strerror(errno));
	strbuf_release(&text);
	free(path);
	return ret;
}

static int exec_run(const struct jnode *params, FILE *out, struct kd_err *err)
{
	const struct jnode *results = jnode_get(params, "results");
	struct exec_cmd c;
	int ret;

	ret = exec_cmd_init(&c, params, err);
	if (!ret && (fflush(out) == EOF || fileno(out) < 0))
		ret = kd_error(err, "exec: the log is not a file");
	if (!ret)
		ret = exec_command(&c, fileno(out), err);
	if (!ret && results)
		ret = results_add(results, out, err);
	exec_cmd_release(&c);
	return ret;
}

static const struct param_spec exec_params[] = {
	{ .name = "cmd", .type = PARAM_STRING,
	  .help = "the command, a shell command line run with /bin/sh -c in the work directory, stdin /dev/null, stdout the log; a non-zero exit status fails the run; give cmd or argv" },
	{ .name = "argv", .type = PARAM_LIST,
	  .help = "the command as a list of arguments, run directly (execvp, PATH searched); give cmd or argv" },
	{ .name = "name", .type = PARAM_STRING, .def = "exec",
	  .help = "the prefix of its metrics: a line \"key: value\" becomes <name>.<key>; also names its log, <name>.log in the run directory, so letters, digits and ._+=,@%- only, no leading '.', not setup, and not a monitor's name (time, proc-vmstat, perf-stat, ...)",
	  .check = workload_name_check },
	{ .name = "results", .type = PARAM_MAP,
	  .help = "for a program that prints no \"key: value\" lines: a mapping of result keys to POSIX extended regular expressions, each matched against every line of its stdout; the first line a pattern matches gives the key's value, from the pattern's first parenthesized group (else the whole match), which must read as a number; e.g. for a program printing \"1566944 us\": {usecs: \"^([0-9]+) us$\"}.  The values are added to the log as \"key: value\" lines after the program's output, and become <name>.<key> like the lines it prints itself" },
	{ .name = "timeout", .type = PARAM_DURATION,
	  .help = "kill the command (SIGTERM, 2s later SIGKILL, to its whole process group) if it runs longer, e.g. 10m; none if unset" },
	{ .name = NULL },
};

const struct workload workload_exec = {
	.section = {
		.name = "exec",
		.summary = "run a command; each \"key: value\" line it prints is a result; a run that prints none fails",
		.params = exec_params,
		.constraints = exec_constraints,
	},
	.run = exec_run,
};
