// SPDX-License-Identifier: GPL-2.0
/* Child processes: exit statuses, stderr tails, cancel, signals, quoting. */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "kdelta/proc.h"
#include "kdelta/util.h"

static void run_shell(const char *command, const char *const *env,
		      const struct proc_wait_opts *opts, struct proc *p)
{
	struct kd_err err;

	CHECK(proc_start_shell(p, command, env, NULL, &err) == 0);
	CHECK(proc_wait(p, opts, &err) == 0);
}

static void test_exit_and_tail(void)
{
	const char *env[] = { "KDELTA_COMMIT=it's", NULL };
	struct strbuf how = STRBUF_INIT, tail = STRBUF_INIT;
	struct proc p;

	run_shell("echo one >&2; echo; echo \"two $KDELTA_COMMIT\" >&2; exit 3",
		  env, NULL, &p);
	CHECK(p.end == PROC_EXITED);
	CHECK(p.status == 3);
	proc_describe_end(&p, &how);
	CHECK_STR(how.buf, "exited with status 3");
	text_tail_lines(p.stderr_tail.buf, p.stderr_tail.len, 2, 100, &tail);
	CHECK_STR(tail.buf, "one / two it's");
	strbuf_release(&p.stderr_tail);

	run_shell("kill -9 $$", NULL, NULL, &p);
	CHECK(p.end == PROC_SIGNALED && p.status == SIGKILL);
	strbuf_reset(&how);
	proc_describe_end(&p, &how);
	CHECK_STR(how.buf, "killed by signal 9 (Killed)");
	strbuf_release(&p.stderr_tail);
	strbuf_release(&how);
	strbuf_release(&tail);
}

static void test_tail_lines(void)
{
	static const char text[] = "a\n  b  \n\n c\n\n";
	struct strbuf sb = STRBUF_INIT;

	text_tail_lines(text, strlen(text), 2, 100, &sb);
	CHECK_STR(sb.buf, "b / c");
	strbuf_reset(&sb);
	text_tail_lines(text, strlen(text), 5, 5, &sb);
	CHECK_STR(sb.buf, "... c");	/* "a / b / c" cut to 5 bytes */
	strbuf_reset(&sb);
	text_tail_lines("", 0, 2, 100, &sb);
	CHECK_STR(sb.buf, "");
	strbuf_release(&sb);
}

/* A child that ignores SIGTERM is killed after the grace time: 2 s. */
static void test_cancel(void)
{
	int fds[2];
	struct proc_wait_opts opts = { .cancel_fd = -1 };
	struct proc p;

	CHECK(pipe(fds) == 0);
	CHECK(write(fds[1], "x", 1) == 1);
	opts.cancel_fd = fds[0];
	run_shell("sleep 30 & wait", NULL, &opts, &p);
	CHECK(p.end == PROC_CANCELLED);
	strbuf_release(&p.stderr_tail);
	close(fds[0]);
	close(fds[1]);

	opts.cancel_fd = -1;
	opts.timeout = 0.2;
	run_shell("trap '' TERM; sleep 30", NULL, &opts, &p);
	CHECK(p.end == PROC_TIMED_OUT);
	strbuf_release(&p.stderr_tail);
}

static int child_fn(void *arg)
{
	return *(int *)arg;
}

static void test_fn(void)
{
	int value = 5;
	struct kd_err err;
	struct proc p;

	CHECK(proc_start_fn(&p, child_fn, &value, &err) == 0);
	CHECK(proc_wait(&p, NULL, &err) == 0);
	CHECK(p.end == PROC_EXITED && p.status == 5);
	strbuf_release(&p.stderr_tail);
}

static void test_signals(void)
{
	static const int sigs[] = { SIGUSR1 };
	struct kd_err err;
	int fd = proc_catch_signals(sigs, 1, &err);

	CHECK(fd >= 0);
	CHECK(proc_caught_signal(fd) == 0);
	raise(SIGUSR1);
	raise(SIGUSR1);
	CHECK(proc_caught_signal(fd) == SIGUSR1);
	CHECK(proc_caught_signal(fd) == SIGUSR1);	/* stays readable */
	proc_release_signals(fd, sigs, 1);
}

static void test_quote(void)
{
	struct strbuf sb = STRBUF_INIT;

	shell_quote(&sb, "a b'; rm -rf /");
	CHECK_STR(sb.buf, "'a b'\\''; rm -rf /'");
	strbuf_release(&sb);
}

int main(void)
{
	test_exit_and_tail();
	test_tail_lines();
	test_cancel();
	test_fn();
	test_signals();
	test_quote();
	return check_done();
}
