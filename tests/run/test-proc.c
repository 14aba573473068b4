// SPDX-License-Identifier: GPL-2.0
/*
 * Child processes: argv, shell and function children, exit statuses,
 * captured and fed streams, environment, directory, stderr tails, cancel,
 * timeout, leftovers of the process group, start failures, signals,
 * quoting.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "kdelta/proc.h"
#include "kdelta/util.h"

static void run_shell(struct proc *p, const char *command)
{
	struct kd_err err;

	p->shell = command;
	CHECK(proc_run(p, &err) == 0);
}

static void test_exit_and_tail(void)
{
	const char *env[] = { "KDELTA_COMMIT=it's", NULL };
	struct strbuf how = STRBUF_INIT, tail = STRBUF_INIT;
	struct proc p = PROC_INIT;

	p.env = env;
	run_shell(&p, "echo one >&2; echo; echo \"two $KDELTA_COMMIT\" >&2; exit 3");
	CHECK(p.end == PROC_EXITED);
	CHECK(p.status == 3);
	proc_describe_end(&p, &how);
	CHECK_STR(how.buf, "exited with status 3");
	text_tail_lines(p.err_buf.buf, p.err_buf.len, 2, 100, &tail);
	CHECK_STR(tail.buf, "one / two it's");
	proc_clear(&p);

	p = (struct proc)PROC_INIT;
	run_shell(&p, "kill -9 $$");
	CHECK(p.end == PROC_SIGNALED && p.status == SIGKILL);
	strbuf_reset(&how);
	proc_describe_end(&p, &how);
	CHECK_STR(how.buf, "killed by signal 9 (Killed)");
	proc_clear(&p);
	strbuf_release(&how);
	strbuf_release(&tail);
}

/* Only the last PROC_STDERR_TAIL bytes of stderr stay. */
static void test_tail_bounded(void)
{
	struct proc p = PROC_INIT;

	run_shell(&p, "head -c 100000 /dev/zero | tr '\\0' x >&2; echo end >&2");
	CHECK(p.err_buf.len == PROC_STDERR_TAIL);
	CHECK(!strcmp(p.err_buf.buf + p.err_buf.len - 5, "xend\n"));
	proc_clear(&p);
}

/* argv without a shell, both streams captured whole, 2>&1. */
static void test_argv_capture(void)
{
	const char *argv[] = { "sh", "-c", "printf 'a b'; printf err >&2; head -c 200000 /dev/zero", NULL };
	struct proc p = PROC_INIT;
	struct kd_err err;

	p.argv = argv;
	p.out = PROC_PIPE;
	p.err = PROC_PIPE;
	CHECK(proc_run(&p, &err) == 0);
	CHECK(p.end == PROC_EXITED && p.status == 0);
	CHECK(p.out_buf.len == 200003 && !memcmp(p.out_buf.buf, "a b", 3));
	CHECK_STR(p.err_buf.buf, "err");
	proc_clear(&p);

	p = (struct proc)PROC_INIT;
	p.argv = argv;
	p.out = PROC_PIPE;
	p.err = PROC_TO_OUT;
	CHECK(proc_run(&p, &err) == 0);
	CHECK(p.out_buf.len == 200006 && !memcmp(p.out_buf.buf, "a berr", 6));
	CHECK(p.err_buf.len == 0);
	proc_clear(&p);
}

/*
 * stdin fed from a buffer larger than a pipe holds, while stdout is read:
 * no deadlock.  A child that reads none of it: EPIPE, not SIGPIPE.
 */
static void test_stdin_buffer(void)
{
	size_t len = 1 << 20;
	char *data = xmalloc(len);
	struct proc p = PROC_INIT;
	struct kd_err err;

	memset(data, 'y', len);
	p.in = PROC_PIPE;
	p.in_buf = data;
	p.in_len = len;
	p.out = PROC_PIPE;
	run_shell(&p, "cat");
	CHECK(p.end == PROC_EXITED && p.status == 0 && p.in_errno == 0);
	CHECK(p.out_buf.len == len);
	proc_clear(&p);

	p = (struct proc)PROC_INIT;
	p.in = PROC_PIPE;
	p.in_buf = data;
	p.in_len = len;
	run_shell(&p, "exec 0<&-; exit 0");
	CHECK(p.end == PROC_EXITED && p.status == 0);
	CHECK(p.in_errno == EPIPE);
	proc_clear(&p);

	/* Default: /dev/null, so that a command reading stdin ends. */
	p = (struct proc)PROC_INIT;
	p.out = PROC_PIPE;
	run_shell(&p, "cat; echo done");
	CHECK_STR(p.out_buf.buf, "done\n");
	proc_clear(&p);
	free(data);
	(void)err;
}

/* Files, environment changes and removals, the directory. */
static void test_files_env_dir(void)
{
	char dir[] = "/tmp/kdelta-test-proc.XXXXXX";
	const char *env[] = { "KDELTA_A=1", "HOME", NULL };
	struct strbuf text = STRBUF_INIT;
	struct proc p = PROC_INIT;
	char *out, *errf;

	CHECK(mkdtemp(dir) != NULL);
	out = xasprintf("%s/out", dir);
	errf = xasprintf("%s/err", dir);
	p.env = env;
	p.out_path = out;
	p.err_path = errf;
	p.dir_fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	run_shell(&p, "echo \"$KDELTA_A ${HOME-unset}\"; pwd >&2");
	CHECK(p.end == PROC_EXITED && p.status == 0);
	CHECK(read_file(out, &text, NULL) == 0);
	CHECK_STR(text.buf, "1 unset\n");
	strbuf_reset(&text);
	CHECK(read_file(errf, &text, NULL) == 0);
	CHECK(!strncmp(text.buf, dir, strlen(dir)));
	CHECK(getenv("HOME") == NULL || getenv("KDELTA_A") == NULL);
	close(p.dir_fd);
	proc_clear(&p);
	unlink(out);
	unlink(errf);
	rmdir(dir);
	free(out);
	free(errf);
	strbuf_release(&text);
}

/* What cannot start is an error of proc_start(), with the reason. */
static void test_start_failures(void)
{
	const char *missing[] = { "/nonexistent/kdelta-cmd", NULL };
	const char *not_in_path[] = { "kdelta-no-such-program", NULL };
	struct proc p = PROC_INIT;
	struct kd_err err;

	p.argv = missing;
	CHECK(proc_run(&p, &err) == -1);
	CHECK_STR(err.msg, "cannot run '/nonexistent/kdelta-cmd': No such file or directory");
	CHECK(p.exec_errno == ENOENT);
	p = (struct proc)PROC_INIT;
	p.argv = not_in_path;
	CHECK(proc_run(&p, &err) == -1);
	CHECK_STR(err.msg, "cannot run 'kdelta-no-such-program': No such file or directory");
	p = (struct proc)PROC_INIT;
	p.shell = "true";
	p.out_path = "/nonexistent/dir/log";
	CHECK(proc_run(&p, &err) == -1);
	CHECK_STR(err.msg, "/nonexistent/dir/log: No such file or directory");
	p = (struct proc)PROC_INIT;
	p.shell = "true";
	p.dir_fd = 1000;	/* not open */
	CHECK(proc_run(&p, &err) == -1);
	CHECK_STR(err.msg, "/bin/sh: cannot enter its directory: Bad file descriptor");
}

/* Whether pid is gone (or a zombie about to be reaped by init). */
static bool process_gone(long pid)
{
	for (int i = 0; i < 500; i++) {
		char path[64];
		struct strbuf sb = STRBUF_INIT;
		const char *s;
		bool gone;

		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		gone = read_file(path, &sb, NULL) < 0 ||
		       ((s = strrchr(sb.buf, ')')) && (s[2] == 'Z' || s[2] == 'X'));
		strbuf_release(&sb);
		if (gone)
			return true;
		usleep(10 * 1000);
	}
	return false;
}

/* Once the child has ended, what is left of its process group is killed. */
static void test_leftovers(void)
{
	struct proc p = PROC_INIT;

	p.out = PROC_PIPE;
	run_shell(&p, "sleep 30 >/dev/null & echo $!");
	CHECK(p.end == PROC_EXITED && p.status == 0);
	CHECK(atol(p.out_buf.buf) > 1 && process_gone(atol(p.out_buf.buf)));
	proc_clear(&p);
}

/* A child that ignores SIGTERM is killed after the grace time. */
static void test_cancel(void)
{
	struct proc p = PROC_INIT;
	int fds[2];

	CHECK(pipe(fds) == 0);
	CHECK(write(fds[1], "x", 1) == 1);
	p.cancel_fd = fds[0];
	run_shell(&p, "sleep 30 & wait");
	CHECK(p.end == PROC_CANCELLED);
	proc_clear(&p);
	close(fds[0]);
	close(fds[1]);

	p = (struct proc)PROC_INIT;
	p.timeout = 0.2;
	run_shell(&p, "trap '' TERM; sleep 30");
	CHECK(p.end == PROC_TIMED_OUT);
	proc_clear(&p);
}

static int child_fn(void *arg)
{
	return *(int *)arg;
}

static void test_fn(void)
{
	int value = 5;
	struct kd_err err;
	struct proc p = PROC_INIT;

	p.fn = child_fn;
	p.arg = &value;
	CHECK(proc_run(&p, &err) == 0);
	CHECK(p.end == PROC_EXITED && p.status == 5);
	proc_clear(&p);
}

/* Children of one group reaped as they end, in the order they end. */
static void test_reap_any(void)
{
	static int values[3] = { 0, 7, 0 };
	static const char *const sleep_argv[] = { "sleep", "30", NULL };
	struct proc procs[3];
	struct kd_err err;
	ssize_t first;

	for (int i = 0; i < 3; i++) {
		procs[i] = (struct proc)PROC_INIT;
		procs[i].same_group = true;
		procs[i].in = procs[i].out = procs[i].err = PROC_INHERIT;
	}
	/* Not sh -c: killing the shell would leave its sleep behind. */
	procs[0].argv = sleep_argv;
	procs[1].fn = child_fn;
	procs[1].arg = &values[1];
	procs[2].argv = sleep_argv;
	for (int i = 0; i < 3; i++)
		CHECK(proc_start(&procs[i], &err) == 0);
	first = proc_reap_any(procs, 3);
	CHECK(first == 1 && procs[1].end == PROC_EXITED && procs[1].status == 7);
	proc_kill(&procs[0]);
	proc_kill(&procs[2]);
	for (int left = 2; left > 0; left--) {
		ssize_t i = proc_reap_any(procs, 3);

		CHECK((i == 0 || i == 2) && procs[i].end == PROC_SIGNALED &&
		      procs[i].status == SIGKILL);
	}
	CHECK(proc_reap_any(procs, 3) == -1);
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
	test_tail_bounded();
	test_tail_lines();
	test_argv_capture();
	test_stdin_buffer();
	test_files_env_dir();
	test_start_failures();
	test_leftovers();
	test_cancel();
	test_fn();
	test_reap_any();
	test_signals();
	test_quote();
	return check_done();
}
