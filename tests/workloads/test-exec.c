// SPDX-License-Identifier: GPL-2.0
#include <signal.h>

#include "wl-test.h"

static struct jnode *exec_params(const char *cmd, ...)
{
	const struct workload *wl = workload_find("exec");
	struct jnode *map = wl_params(wl, NULL);
	const char *key;
	va_list ap;

	if (cmd)
		jnode_set(map, "cmd", jnode_new_scalar(cmd));
	va_start(ap, cmd);
	while ((key = va_arg(ap, const char *)))
		jnode_set(map, key, jnode_new_scalar(va_arg(ap, const char *)));
	va_end(ap);
	return map;
}

static struct jnode *argv_params(const char *const *argv, size_t n)
{
	struct jnode *map = exec_params(NULL, NULL);

	jnode_set(map, "argv", wl_list(argv, n));
	return map;
}

/* Its stdout is the log; stderr is not; it runs in the work directory. */
static void test_shell(void)
{
	struct wl_outcome o;

	wl_run("exec", exec_params("echo ops: 42; echo noise >&2; echo x > made-here; echo mean: 1.5", NULL),
	       NULL, &o);
	CHECK(o.status == 0);
	CHECK_STR(o.err, "");
	CHECK_STR(o.out.buf, "ops: 42\nmean: 1.5\n");
	CHECK_STR(o.stderr_text.buf, "noise\n");
	CHECK_STR(o.left.buf, "made-here\n");
	wl_outcome_release(&o);
}

static void test_argv(void)
{
	static const char *const argv[] = { "printf", "%s: %s\\n", "a b", "1", "c;d", "2" };
	struct wl_outcome o;

	/* No shell: spaces and ';' stay inside their arguments. */
	wl_run("exec", argv_params(argv, ARRAY_SIZE(argv)), NULL, &o);
	CHECK(o.status == 0);
	CHECK_STR(o.out.buf, "a b: 1\nc;d: 2\n");
	CHECK_STR(o.left.buf, "");
	wl_outcome_release(&o);
}

/* stdin is /dev/null: a command that reads it does not hang. */
static void test_stdin(void)
{
	struct wl_outcome o;

	wl_run("exec", exec_params("cat; echo done: 1", NULL), NULL, &o);
	CHECK(o.status == 0);
	CHECK_STR(o.out.buf, "done: 1\n");
	wl_outcome_release(&o);
}

static void test_failures(void)
{
	static const char *const missing[] = { "/nonexistent/kdelta-cmd", "x" };
	char long_cmd[301], want[300];
	struct wl_outcome o;

	wl_run("exec", exec_params("echo partial: 1; exit 3", NULL), NULL, &o);
	CHECK(o.status == 1);
	CHECK_STR(o.err, "exec: 'echo partial: 1; exit 3' exited with status 3");
	CHECK_STR(o.out.buf, "partial: 1\n");
	wl_outcome_release(&o);
	wl_run("exec", exec_params("kill -KILL $$", NULL), NULL, &o);
	CHECK_FAILS_WITH(&o, "exec: 'kill -KILL $$' was killed by signal 9 (Killed)");
	wl_outcome_release(&o);
	/* A long command is cut short in the message. */
	memset(long_cmd, 'x', sizeof(long_cmd) - 1);
	memcpy(long_cmd, "exit 5 #", 8);
	long_cmd[sizeof(long_cmd) - 1] = '\0';
	snprintf(want, sizeof(want), "exec: '%.200s...' exited with status 5",
		 long_cmd);
	wl_run("exec", exec_params(long_cmd, NULL), NULL, &o);
	CHECK_FAILS_WITH(&o, want);
	wl_outcome_release(&o);
	wl_run("exec", argv_params(missing, ARRAY_SIZE(missing)), NULL, &o);
	CHECK_FAILS_WITH(&o, "exec: cannot run '/nonexistent/kdelta-cmd': No such file or directory");
	wl_outcome_release(&o);
}

static void test_bad_params(void)
{
	static const char *const argv[] = { "true" };
	struct wl_outcome o;
	struct jnode *both = exec_params("true", NULL);

	wl_run("exec", exec_params(NULL, NULL), NULL, &o);
	CHECK_FAILS_WITH(&o, "exec: no command: give cmd (a shell command line) or argv (a list of arguments)");
	wl_outcome_release(&o);
	jnode_set(both, "argv", wl_list(argv, 1));
	wl_run("exec", both, NULL, &o);
	CHECK_FAILS_WITH(&o, "exec: give either cmd (a shell command line) or argv (a list), not both");
	wl_outcome_release(&o);
	wl_run("exec", argv_params(argv, 0), NULL, &o);
	CHECK_FAILS_WITH(&o, "exec: argv must be a non-empty list of arguments");
	wl_outcome_release(&o);
}

/* Whether pid is gone (or a zombie about to be reaped by init). */
static bool process_gone_now(long pid)
{
	char path[64], state = 0;
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (read_file(path, &sb, NULL) < 0) {
		strbuf_release(&sb);
		return true;
	}
	p = strrchr(sb.buf, ')');
	if (p && p[1] == ' ')
		state = p[2];
	strbuf_release(&sb);
	return state == 'Z' || state == 'X';
}

/*
 * Whether pid goes: a signal sent to it takes effect when the kernel next
 * schedules it, so allow it a few seconds.
 */
static bool process_gone(long pid)
{
	for (int i = 0; i < 500; i++) {
		if (process_gone_now(pid))
			return true;
		usleep(10 * 1000);
	}
	return false;
}

/* The timeout kills the whole process group, and so does the end. */
static void test_process_group(void)
{
	struct wl_outcome o;
	double pid;

	wl_run("exec", exec_params("sleep 30 & echo bg: $!; sleep 20", "timeout", "0.2s", NULL),
	       NULL, &o);
	CHECK(o.status == 1);
	CHECK_STR(o.err, "exec: 'sleep 30 & echo bg: $!; sleep 20' ran longer than its timeout of 0.2s and was killed");
	pid = wl_value(&o, "bg");
	CHECK(pid > 1 && process_gone((long)pid));
	wl_outcome_release(&o);
	wl_run("exec", exec_params("sleep 30 & echo bg: $!", NULL), NULL, &o);
	CHECK(o.status == 0);
	pid = wl_value(&o, "bg");
	CHECK(pid > 1 && process_gone((long)pid));
	wl_outcome_release(&o);
}

/*
 * A setup: a detached process that sends this one SIGTERM, as the runner
 * does on Ctrl-C, once the command has printed "bg:" to the log (next to
 * the work directory).
 */
static void stop_when_started(void)
{
	pid_t target = getpid(), pid = fork();

	if (pid < 0)
		exit(WL_CHILD_SETUP_FAILED);
	if (pid > 0) {
		waitpid(pid, NULL, 0);
		return;
	}
	if (fork() != 0)
		_exit(0);
	for (int i = 0; i < 1000; i++) {
		struct strbuf log = STRBUF_INIT;
		bool started = read_file("../exec.log", &log, NULL) == 0 &&
			       strstr(log.buf, "bg: ");

		strbuf_release(&log);
		if (started) {
			kill(target, SIGTERM);
			break;
		}
		usleep(10 * 1000);
	}
	_exit(0);
}

static void test_stop_signal(void)
{
	struct wl_outcome o;
	double pid;

	wl_run("exec", exec_params("sleep 30 & echo bg: $!; sleep 20", NULL),
	       stop_when_started, &o);
	CHECK(o.status == 1);
	CHECK_STR(o.err, "exec: 'sleep 30 & echo bg: $!; sleep 20' was stopped: kdelta received signal 15 (Terminated)");
	pid = wl_value(&o, "bg");
	CHECK(pid > 1 && process_gone((long)pid));
	wl_outcome_release(&o);
}

/*
 * "results": a program that prints "1566944 us" (seed 000's trunc-bench)
 * gets its value as a result line after its output; a pattern without a
 * group takes its whole match; one that matches nothing adds nothing.
 */
static void test_results(void)
{
	struct jnode *params = exec_params("echo 'Removing files...' >&2; echo '1566944 us'; echo 'rate 12.5/s'; echo 7",
					   NULL);
	struct jnode *results = jnode_new_map();
	struct wl_outcome o;

	jnode_set(results, "usecs", jnode_new_scalar("^([0-9]+) us$"));
	jnode_set(results, "rate", jnode_new_scalar("rate ([0-9.]+)/s"));
	jnode_set(results, "bare", jnode_new_scalar("^[0-9]+$"));
	jnode_set(results, "none", jnode_new_scalar("^nothing ([0-9]+)"));
	jnode_set(params, "results", results);
	wl_run("exec", params, NULL, &o);
	CHECK(o.status == 0);
	CHECK_STR(o.out.buf, "1566944 us\nrate 12.5/s\n7\nusecs: 1566944\nrate: 12.5\nbare: 7\n");
	wl_outcome_release(&o);
}

int main(void)
{
	test_shell();
	test_results();
	test_argv();
	test_stdin();
	test_failures();
	test_bad_params();
	test_process_group();
	test_stop_signal();
	return check_done();
}
