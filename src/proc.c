// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kdelta/proc.h"
#include "kdelta/util.h"

/* The signals kdelta may catch; a child gets their defaults back. */
static const int child_default_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD,
};

static void child_reset_signals(void)
{
	sigset_t none;

	for (size_t i = 0; i < ARRAY_SIZE(child_default_signals); i++)
		signal(child_default_signals[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Forks into a new process group; returns the pid in the parent, 0 in the child. */
static int fork_group(struct proc *p, int *stderr_pipe, struct kd_err *err)
{
	pid_t parent = getpid();

	memset(p, 0, sizeof(*p));
	p->pidfd = -1;
	p->stderr_fd = -1;
	strbuf_init(&p->stderr_tail);
	fflush(NULL);
	p->start = now_monotonic();
	p->pid = fork();
	if (p->pid < 0)
		return kd_error(err, "cannot fork: %s", strerror(errno));
	if (p->pid == 0) {
		setpgid(0, 0);
		/*
		 * Killing kdelta (kill -9) must not leave its children running;
		 * if it died before the prctl, the new parent is init already.
		 */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			_exit(127);
		child_reset_signals();
		if (stderr_pipe) {
			dup2(stderr_pipe[1], STDERR_FILENO);
			close(stderr_pipe[0]);
			close(stderr_pipe[1]);
		}
		return 0;
	}
	/* Both sides set the group, so that neither depends on who runs first. */
	setpgid(p->pid, p->pid);
	if (stderr_pipe) {
		close(stderr_pipe[1]);
		p->stderr_fd = stderr_pipe[0];
		fcntl(p->stderr_fd, F_SETFL, O_NONBLOCK);
	}
	p->pidfd = pidfd_open(p->pid, 0);
	if (p->pidfd < 0) {
		int e = errno;

		kill(-p->pid, SIGKILL);
		waitpid(p->pid, NULL, 0);
		proc_release(p);
		return kd_error(err, "pidfd_open: %s (kdelta needs Linux 5.3 or later)",
				strerror(e));
	}
	return 0;
}

int proc_start_fn(struct proc *p, int (*fn)(void *arg), void *arg,
		  struct kd_err *err)
{
	if (fork_group(p, NULL, err) < 0)
		return -1;
	if (p->pid == 0) {
		int status = fn(arg);

		fflush(NULL);
		_exit(status);
	}
	return 0;
}

static void child_exec_shell(const char *command, const char *const *env,
			     const char *stdout_path)
{
	int in = open("/dev/null", O_RDONLY);
	int out = open(stdout_path ? stdout_path : "/dev/null",
		       O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (in < 0 || out < 0) {
		fprintf(stderr, "kdelta: %s: %s\n",
			stdout_path ? stdout_path : "/dev/null", strerror(errno));
		_exit(127);
	}
	dup2(in, STDIN_FILENO);
	dup2(out, STDOUT_FILENO);
	close(in);
	close(out);
	for (size_t i = 0; env && env[i]; i++)
		putenv((char *)env[i]);
	execl("/bin/sh", "sh", "-c", command, (char *)NULL);
	fprintf(stderr, "kdelta: cannot run /bin/sh: %s\n", strerror(errno));
	_exit(127);
}

int proc_start_shell(struct proc *p, const char *command,
		     const char *const *env, const char *stdout_path,
		     struct kd_err *err)
{
	int fds[2];

	if (pipe2(fds, O_CLOEXEC) < 0)
		return kd_error(err, "cannot create a pipe: %s", strerror(errno));
	if (fork_group(p, fds, err) < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (p->pid == 0)
		child_exec_shell(command, env, stdout_path);
	return 0;
}

/* Keeps the last PROC_STDERR_TAIL bytes of what the child wrote to stderr. */
static void drain_stderr(struct proc *p)
{
	char buf[4096];
	ssize_t n;

	while (p->stderr_fd >= 0) {
		n = read(p->stderr_fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			close(p->stderr_fd);
			p->stderr_fd = -1;
			return;
		}
		strbuf_add(&p->stderr_tail, buf, n);
		if (p->stderr_tail.len > PROC_STDERR_TAIL) {
			size_t cut = p->stderr_tail.len - PROC_STDERR_TAIL;

			memmove(p->stderr_tail.buf, p->stderr_tail.buf + cut,
				PROC_STDERR_TAIL);
			strbuf_setlen(&p->stderr_tail, PROC_STDERR_TAIL);
		}
	}
}

static bool fd_readable(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, timeout_ms) > 0;
}

/*
 * SIGTERM to the whole group, so that the child may clean up; SIGKILL once
 * it exited or after the grace time, for whatever of the group is left.
 * The child is not reaped yet, so its group still exists.
 */
static void kill_group(struct proc *p)
{
	kill(-p->pid, SIGTERM);
	fd_readable(p->pidfd, (int)(PROC_KILL_GRACE * 1000));
	kill(-p->pid, SIGKILL);
}

static int poll_timeout_ms(const struct proc *p,
			   const struct proc_wait_opts *opts, double next_tick)
{
	double now = now_monotonic(), until = -1;

	if (opts->timeout > 0)
		until = p->start + opts->timeout;
	if (opts->tick && (until < 0 || next_tick < until))
		until = next_tick;
	if (until < 0)
		return -1;
	return until <= now ? 0 : (int)((until - now) * 1000) + 1;
}

/* Polls until the child exits, the cancel fd fires or the timeout passes. */
static int wait_events(struct proc *p, const struct proc_wait_opts *opts,
		       struct kd_err *err)
{
	double tick = opts->tick_interval > 0 ? opts->tick_interval : 1.0;
	double next_tick = p->start + tick;

	for (;;) {
		struct pollfd fds[3] = {
			{ .fd = p->pidfd, .events = POLLIN },
			{ .fd = p->stderr_fd, .events = POLLIN },
			{ .fd = opts->cancel_fd, .events = POLLIN },
		};
		int r = poll(fds, 3, poll_timeout_ms(p, opts, next_tick));

		if (r < 0 && errno != EINTR)
			return kd_error(err, "poll: %s", strerror(errno));
		if (r > 0 && (fds[1].revents & (POLLIN | POLLHUP)))
			drain_stderr(p);
		if (r > 0 && (fds[0].revents & POLLIN)) {
			p->elapsed = now_monotonic() - p->start;
			return 0;
		}
		if (r > 0 && (fds[2].revents & (POLLIN | POLLHUP))) {
			p->end = PROC_CANCELLED;
			return 0;
		}
		if (opts->timeout > 0 && now_monotonic() >= p->start + opts->timeout) {
			p->end = PROC_TIMED_OUT;
			return 0;
		}
		if (opts->tick && now_monotonic() >= next_tick) {
			opts->tick(opts->tick_arg);
			next_tick += tick;
		}
	}
}

int proc_wait(struct proc *p, const struct proc_wait_opts *opts,
	      struct kd_err *err)
{
	static const struct proc_wait_opts none = { .cancel_fd = -1 };
	int status, rc;

	if (!opts)
		opts = &none;
	p->end = PROC_EXITED;
	rc = wait_events(p, opts, err);
	if (rc < 0)
		kill(-p->pid, SIGKILL);
	else if (p->end != PROC_EXITED)
		kill_group(p);
	while (wait4(p->pid, &status, 0, &p->rusage) < 0) {
		if (errno != EINTR) {
			proc_release(p);
			return kd_error(err, "wait4: %s", strerror(errno));
		}
	}
	if (!p->elapsed)
		p->elapsed = now_monotonic() - p->start;
	drain_stderr(p);
	if (p->end == PROC_EXITED && WIFSIGNALED(status)) {
		p->end = PROC_SIGNALED;
		p->status = WTERMSIG(status);
	} else if (p->end == PROC_EXITED) {
		p->status = WEXITSTATUS(status);
	}
	proc_release(p);
	return rc;
}

void proc_release(struct proc *p)
{
	if (p->pidfd >= 0)
		close(p->pidfd);
	if (p->stderr_fd >= 0)
		close(p->stderr_fd);
	p->pidfd = -1;
	p->stderr_fd = -1;
}

void proc_describe_end(const struct proc *p, struct strbuf *out)
{
	switch (p->end) {
	case PROC_EXITED:
		strbuf_addf(out, "exited with status %d", p->status);
		break;
	case PROC_SIGNALED:
		strbuf_addf(out, "killed by signal %d (%s)", p->status,
			    strsignal(p->status));
		break;
	case PROC_TIMED_OUT:
		strbuf_addf(out, "timed out after %.0fs and was killed",
			    p->elapsed);
		break;
	case PROC_CANCELLED:
		strbuf_addstr(out, "was interrupted");
		break;
	}
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The line of text ending at end (exclusive), without surrounding blanks. */
static size_t line_before(const char *text, size_t end, size_t *start_out)
{
	size_t start = end;

	while (start > 0 && text[start - 1] != '\n')
		start--;
	*start_out = start;
	while (start < end && is_blank(text[start]))
		start++;
	while (end > start && is_blank(text[end - 1]))
		end--;
	return end - start;
}

void text_tail_lines(const char *text, size_t len, int max_lines,
		     size_t max_bytes, struct strbuf *out)
{
	struct strbuf tail = STRBUF_INIT, line = STRBUF_INIT;
	size_t end = len, start;
	int lines = 0;

	/* Walk backwards over the lines, prepending the non-blank ones. */
	while (end > 0 && lines < max_lines) {
		size_t n = line_before(text, end, &start), skip = start;

		while (skip < end && is_blank(text[skip]))
			skip++;
		if (n) {
			strbuf_reset(&line);
			strbuf_add(&line, text + skip, n);
			if (tail.len)
				strbuf_addstr(&line, " / ");
			strbuf_add(&line, tail.buf, tail.len);
			strbuf_reset(&tail);
			strbuf_add(&tail, line.buf, line.len);
			lines++;
		}
		end = start ? start - 1 : 0;
	}
	if (tail.len > max_bytes && max_bytes > 3)
		strbuf_addf(out, "...%s", tail.buf + tail.len - (max_bytes - 3));
	else
		strbuf_add(out, tail.buf, tail.len);
	strbuf_release(&tail);
	strbuf_release(&line);
}

void shell_quote(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(out, "'\\''");
		else
			strbuf_addch(out, *s);
	}
	strbuf_addch(out, '\'');
}

/*
 * The write end of the signal pipe.  A signal handler can reach nothing
 * else, so this one global is unavoidable; it is set once per command.
 */
static volatile sig_atomic_t signal_pipe_fd = -1;

static void on_signal(int signo)
{
	int saved = errno;
	unsigned char c = signo;

	/* A full socket means a signal is already recorded: nothing to do. */
	if (signal_pipe_fd >= 0 && write(signal_pipe_fd, &c, 1) < 0)
		errno = saved;
	errno = saved;
}

int proc_catch_signals(const int *signals, size_t n, struct kd_err *err)
{
	struct sigaction sa;
	int fds[2];

	/* A socket pair rather than a pipe: MSG_PEEK works on it. */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0,
		       fds) < 0)
		return kd_error(err, "cannot create a socket pair: %s",
				strerror(errno));
	signal_pipe_fd = fds[1];
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < n; i++)
		sigaction(signals[i], &sa, NULL);
	return fds[0];
}

int proc_caught_signal(int fd)
{
	unsigned char c;

	/* Peek: the byte stays, so that every later poll sees it too. */
	if (fd < 0 || recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) != 1)
		return 0;
	return c;
}

void proc_release_signals(int fd, const int *signals, size_t n)
{
	for (size_t i = 0; i < n; i++)
		signal(signals[i], SIG_DFL);
	if (signal_pipe_fd >= 0)
		close(signal_pipe_fd);
	signal_pipe_fd = -1;
	if (fd >= 0)
		close(fd);
}
