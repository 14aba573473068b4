// SPDX-License-Identifier: GPL-2.0
/*
 * Child processes: see kdelta/proc.h.  Everything that can fail is
 * prepared in kdelta before the fork (files opened, pipes made, the
 * environment built), so that the child only moves descriptors, changes
 * directory and executes; what fails there comes back through a
 * close-on-exec pipe as one error of proc_start(), not as a child's exit
 * status.
 */
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

#include "kdelta/cgroup.h"
#include "kdelta/proc.h"
#include "kdelta/util.h"

extern char **environ;

/* The signals kdelta may catch; a child gets their defaults back. */
static const int child_default_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD,
};

/* What the child reports through the error pipe when it cannot go on. */
enum child_stage { STAGE_CGROUP = 1, STAGE_STDIO, STAGE_DIR, STAGE_EXEC };

struct child_report {
	int stage;
	int errnum;
};

/* What proc_start() prepares for the child: its descriptors 0, 1 and 2. */
struct child_fds {
	int fd[3];		/* to become 0, 1, 2 */
	bool opened[3];		/* by proc_start(), closed after the fork */
	int report;		/* the error pipe's write end */
};

static void child_reset_signals(void)
{
	sigset_t none;

	for (size_t i = 0; i < ARRAY_SIZE(child_default_signals); i++)
		signal(child_default_signals[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static _Noreturn void child_fail(int report, enum child_stage stage)
{
	struct child_report r = { stage, errno };

	/* If even that fails, the exit status says something went wrong. */
	if (write(report, &r, sizeof(r)) != sizeof(r))
		_exit(126);
	_exit(127);
}

/*
 * Moves fds onto 0, 1, 2.  First above 2, so that one that is 0, 1 or 2
 * already is not overwritten before it is used.
 */
static int child_stdio(const struct child_fds *c)
{
	int moved[3];

	for (int i = 0; i < 3; i++) {
		if (c->fd[i] == i) {
			moved[i] = i;
			if (fcntl(i, F_SETFD, 0) < 0)
				return -1;
			continue;
		}
		moved[i] = fcntl(c->fd[i], F_DUPFD_CLOEXEC, 3);
		if (moved[i] < 0)
			return -1;
	}
	for (int i = 0; i < 3; i++)
		if (moved[i] != i && dup2(moved[i], i) < 0)
			return -1;
	return 0;
}

/* In the child: set up, then execute (or call fn).  Never returns. */
static _Noreturn void child_main(const struct proc *p,
				 const struct child_fds *c, char **envp,
				 pid_t parent)
{
	if (!p->same_group)
		setpgid(0, 0);
	/* If kdelta died before the prctl, the new parent is init already. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127);
	/* "0": the writer itself; before it can start anything. */
	if (p->cgroup && write(cgroup_procs_fd(p->cgroup), "0", 1) != 1)
		child_fail(c->report, STAGE_CGROUP);
	child_reset_signals();
	if (child_stdio(c) < 0)
		child_fail(c->report, STAGE_STDIO);
	if (p->dir_fd >= 0 && fchdir(p->dir_fd) < 0)
		child_fail(c->report, STAGE_DIR);
	if (envp)
		environ = envp;
	if (p->fn) {
		int status;

		close(c->report);	/* EOF: started */
		status = p->fn(p->arg);
		fflush(NULL);
		_exit(status);
	}
	if (p->shell)
		execl("/bin/sh", "sh", "-c", p->shell, (char *)NULL);
	else
		execvp(p->argv[0], (char *const *)p->argv);
	child_fail(c->report, STAGE_EXEC);
}

/* Whether the "NAME=value" or "NAME" entry sets or removes name's. */
static bool same_name(const char *entry, const char *name)
{
	size_t len = strcspn(name, "=");

	return !strncmp(entry, name, len) &&
	       (entry[len] == '=' || entry[len] == '\0');
}

/* environ with the changes applied; NULL when there are none. */
static char **build_env(const char *const *changes)
{
	size_t n = 0, m = 0, k = 0;
	char **envp;

	if (!changes || !changes[0])
		return NULL;
	while (environ[n])
		n++;
	while (changes[m])
		m++;
	envp = xcalloc(n + m + 1, sizeof(*envp));
	for (size_t i = 0; i < n; i++) {
		bool changed = false;

		for (size_t j = 0; j < m && !changed; j++)
			changed = same_name(environ[i], changes[j]);
		if (!changed)
			envp[k++] = environ[i];
	}
	for (size_t j = 0; j < m; j++)
		if (strchr(changes[j], '='))
			envp[k++] = (char *)changes[j];
	return envp;
}

static int open_file(const char *path, int flags, int *out, bool *opened,
		     struct kd_err *err)
{
	*out = open(path, flags | O_CLOEXEC, 0644);
	if (*out < 0)
		return kd_error(err, "%s: %s", path, strerror(errno));
	*opened = true;
	return 0;
}

/*
 * The child's end of stream i (0, 1, 2) as mode says; a pipe's other end
 * goes to p->pipes[i].
 */
static int prepare_stream(struct proc *p, int i, int mode, const char *path,
			  struct child_fds *c, struct kd_err *err)
{
	int fds[2];

	if (path)
		return open_file(path, O_WRONLY | O_CREAT | O_TRUNC, &c->fd[i],
				 &c->opened[i], err);
	switch (mode) {
	case PROC_NULL:
		return open_file("/dev/null", i ? O_WRONLY : O_RDONLY,
				 &c->fd[i], &c->opened[i], err);
	case PROC_INHERIT:
		c->fd[i] = i;
		return 0;
	case PROC_PIPE:
	case PROC_TAIL:
		if (pipe2(fds, O_CLOEXEC) < 0)
			return kd_error(err, "cannot create a pipe: %s",
					strerror(errno));
		c->fd[i] = fds[i ? 1 : 0];
		c->opened[i] = true;
		p->pipes[i] = fds[i ? 0 : 1];
		fcntl(p->pipes[i], F_SETFL, O_NONBLOCK);
		return 0;
	case PROC_TO_OUT:
		c->fd[i] = c->fd[1];
		return 0;
	default:
		c->fd[i] = mode;
		return 0;
	}
}

static void close_child_fds(struct child_fds *c)
{
	for (int i = 0; i < 3; i++)
		if (c->opened[i])
			close(c->fd[i]);
	if (c->report >= 0)
		close(c->report);
	c->report = -1;
}

static void close_pipes(struct proc *p)
{
	for (int i = 0; i < 3; i++) {
		if (p->pipes[i] >= 0)
			close(p->pipes[i]);
		p->pipes[i] = -1;
	}
}

static int prepare_fds(struct proc *p, struct child_fds *c,
		       struct kd_err *err)
{
	int report[2];

	*c = (struct child_fds){ .report = -1 };
	if (prepare_stream(p, 0, p->in, NULL, c, err) < 0 ||
	    prepare_stream(p, 1, p->out, p->out_path, c, err) < 0 ||
	    prepare_stream(p, 2, p->err, p->err_path, c, err) < 0)
		goto fail;
	if (pipe2(report, O_CLOEXEC) < 0) {
		kd_error(err, "cannot create a pipe: %s", strerror(errno));
		goto fail;
	}
	c->report = report[1];
	return report[0];
fail:
	close_child_fds(c);
	close_pipes(p);
	return -1;
}

static const char *proc_name(const struct proc *p)
{
	return p->fn ? "a child process" : p->shell ? "/bin/sh" : p->argv[0];
}

/* Reads the child's report; 0 when it started (the pipe closed empty). */
static int read_report(struct proc *p, int fd, struct kd_err *err)
{
	struct child_report r;
	ssize_t n;

	while ((n = read(fd, &r, sizeof(r))) < 0 && errno == EINTR)
		;
	if (n != sizeof(r))
		return 0;
	switch (r.stage) {
	case STAGE_CGROUP:
		return kd_error(err, "%s: cannot join the run's cgroup: %s",
				proc_name(p), strerror(r.errnum));
	case STAGE_STDIO:
		return kd_error(err, "%s: cannot set up its standard streams: %s",
				proc_name(p), strerror(r.errnum));
	case STAGE_DIR:
		return kd_error(err, "%s: cannot enter its directory: %s",
				proc_name(p), strerror(r.errnum));
	default:
		p->exec_errno = r.errnum;
		return kd_error(err, "cannot run '%s': %s", proc_name(p),
				strerror(r.errnum));
	}
}

static void reap(struct proc *p, int *status)
{
	while (wait4(p->pid, status, 0, &p->rusage) < 0 && errno == EINTR)
		;
	p->reaped = true;	/* its pid may name another process now */
}

int proc_start(struct proc *p, struct kd_err *err)
{
	pid_t parent = getpid();
	struct child_fds c;
	char **envp;
	int report, status;

	p->pidfd = -1;
	p->in_done = 0;
	p->in_errno = 0;
	p->exec_errno = 0;
	p->reaped = false;
	report = prepare_fds(p, &c, err);
	if (report < 0)
		return -1;
	envp = build_env(p->env);
	fflush(NULL);
	p->start = now_monotonic();
	p->pid = fork();
	if (p->pid == 0) {
		close(report);
		child_main(p, &c, envp, parent);
	}
	free(envp);
	/* Both sides set the group, so that neither depends on who runs first. */
	if (p->pid > 0 && !p->same_group)
		setpgid(p->pid, p->pid);
	close_child_fds(&c);
	if (p->pid < 0) {
		close(report);
		close_pipes(p);
		return kd_error(err, "cannot fork: %s", strerror(errno));
	}
	if (read_report(p, report, err) < 0) {
		close(report);
		close_pipes(p);
		reap(p, &status);
		return -1;
	}
	close(report);
	return 0;
}

/* Appends what fd has now to out (the tail only with PROC_TAIL). */
static void drain(struct proc *p, int i)
{
	struct strbuf *out = i == 1 ? &p->out_buf : &p->err_buf;
	bool tail = i == 2 && p->err == PROC_TAIL && !p->err_path;
	char buf[4096];
	ssize_t n;

	while (p->pipes[i] >= 0) {
		n = read(p->pipes[i], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			close(p->pipes[i]);
			p->pipes[i] = -1;
			return;
		}
		strbuf_add(out, buf, (size_t)n);
		if (tail && out->len > PROC_STDERR_TAIL) {
			size_t cut = out->len - PROC_STDERR_TAIL;

			memmove(out->buf, out->buf + cut, PROC_STDERR_TAIL);
			strbuf_setlen(out, PROC_STDERR_TAIL);
		}
	}
}

/* Writes what the pipe takes of in_buf; closes it at the end or on EPIPE. */
static void feed(struct proc *p)
{
	while (p->pipes[0] >= 0 && p->in_done < p->in_len) {
		ssize_t n = write(p->pipes[0], p->in_buf + p->in_done,
				  p->in_len - p->in_done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n < 0) {
			p->in_errno = errno;
			break;
		}
		p->in_done += (size_t)n;
	}
	if (p->pipes[0] >= 0) {
		close(p->pipes[0]);	/* EOF: all of it, or the child left */
		p->pipes[0] = -1;
	}
}

static int poll_timeout_ms(double until)
{
	double now = now_monotonic();

	if (until < 0)
		return -1;
	return until <= now ? 0 : (int)((until - now) * 1000) + 1;
}

enum wait_event { CHILD_ENDED, CANCELLED, DEADLINE, TICK };

/*
 * Polls the child, its pipes and cancel_fd until the child ends, cancel_fd
 * is readable or until (a monotonic time; < 0: none) has come.
 */
static int wait_once(struct proc *p, bool watch_cancel, double until,
		     enum wait_event *event, struct kd_err *err)
{
	for (;;) {
		struct pollfd fds[5] = {
			{ .fd = p->pidfd, .events = POLLIN },
			{ .fd = p->pipes[0], .events = POLLOUT },
			{ .fd = p->pipes[1], .events = POLLIN },
			{ .fd = p->pipes[2], .events = POLLIN },
			{ .fd = watch_cancel ? p->cancel_fd : -1,
			  .events = POLLIN },
		};
		int r = poll(fds, ARRAY_SIZE(fds), poll_timeout_ms(until));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return kd_error(err, "poll: %s", strerror(errno));
		if (fds[1].revents)
			feed(p);
		for (int i = 1; i <= 2; i++)
			if (fds[i + 1].revents)
				drain(p, i);
		if (fds[0].revents & POLLIN) {
			*event = CHILD_ENDED;
			return 0;
		}
		if (fds[4].revents & (POLLIN | POLLHUP)) {
			*event = CANCELLED;
			return 0;
		}
		if (until >= 0 && now_monotonic() >= until) {
			*event = DEADLINE;
			return 0;
		}
	}
}

/* Waits until the child ends, is cancelled or times out; sets p->end. */
static int wait_events(struct proc *p, struct kd_err *err)
{
	double tick = p->tick_interval > 0 ? p->tick_interval : 1.0;
	double next_tick = p->start + tick;
	double deadline = p->timeout > 0 ? p->start + p->timeout : -1;

	for (;;) {
		double until = deadline;
		enum wait_event event;

		if (p->tick && (until < 0 || next_tick < until))
			until = next_tick;
		if (wait_once(p, true, until, &event, err) < 0)
			return -1;
		if (event == CHILD_ENDED)
			return 0;
		if (event == CANCELLED) {
			p->end = PROC_CANCELLED;
			return 0;
		}
		if (deadline >= 0 && now_monotonic() >= deadline) {
			p->end = PROC_TIMED_OUT;
			return 0;
		}
		if (p->tick && now_monotonic() >= next_tick) {
			p->tick(p->tick_arg);
			next_tick += tick;
		}
	}
}

static pid_t target(const struct proc *p)
{
	return p->same_group ? p->pid : -p->pid;
}

/*
 * SIGTERM, so that the child may clean up; SIGKILL once it is over or
 * after the grace time, for whatever is left.  The child is not reaped
 * yet, so its process group still exists.
 */
static void stop_child(struct proc *p)
{
	enum wait_event event;

	kill(target(p), SIGTERM);
	wait_once(p, false, now_monotonic() + PROC_KILL_GRACE, &event, NULL);
	kill(target(p), SIGKILL);
}

static void set_end(struct proc *p, int status)
{
	if (p->end != PROC_EXITED)
		return;
	if (WIFSIGNALED(status)) {
		p->end = PROC_SIGNALED;
		p->status = WTERMSIG(status);
	} else {
		p->status = WEXITSTATUS(status);
	}
}

int proc_wait(struct proc *p, struct kd_err *err)
{
	struct sigaction ignore = { .sa_handler = SIG_IGN }, old;
	bool feeding = p->pipes[0] >= 0;
	int status, rc;

	p->end = PROC_EXITED;
	p->elapsed = 0;
	/* A child that stops reading its stdin must not kill kdelta. */
	if (feeding) {
		sigaction(SIGPIPE, &ignore, &old);
		feed(p);
	}
	p->pidfd = pidfd_open(p->pid, 0);
	if (p->pidfd < 0)
		rc = kd_error(err, "pidfd_open: %s (kdelta needs Linux 5.3 or later)",
			      strerror(errno));
	else
		rc = wait_events(p, err);
	if (rc < 0)
		kill(target(p), SIGKILL);
	else if (p->end != PROC_EXITED)
		stop_child(p);
	p->elapsed = now_monotonic() - p->start;
	/* Before reaping: the child's pid holds the group id. */
	if (!p->same_group)
		kill(-p->pid, SIGKILL);
	reap(p, &status);
	drain(p, 1);
	drain(p, 2);
	close_pipes(p);
	if (p->pidfd >= 0)
		close(p->pidfd);
	p->pidfd = -1;
	if (feeding)
		sigaction(SIGPIPE, &old, NULL);
	set_end(p, status);
	return rc;
}

int proc_run(struct proc *p, struct kd_err *err)
{
	if (proc_start(p, err) < 0)
		return -1;
	return proc_wait(p, err);
}

ssize_t proc_reap_any(struct proc *procs, size_t n)
{
	for (;;) {
		struct rusage ru;
		int status;
		pid_t pid = wait4(-1, &status, 0, &ru);

		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			return -1;
		for (size_t i = 0; i < n; i++) {
			if (procs[i].pid != pid || procs[i].reaped)
				continue;
			procs[i].reaped = true;
			procs[i].rusage = ru;
			procs[i].end = PROC_EXITED;
			procs[i].elapsed = now_monotonic() - procs[i].start;
			set_end(&procs[i], status);
			return (ssize_t)i;
		}
	}
}

void proc_kill(struct proc *p)
{
	if (p->pid > 0 && !p->reaped)
		kill(target(p), SIGKILL);
}

void proc_signal(struct proc *p, int signal)
{
	if (p->pid > 0 && !p->reaped)
		kill(p->pid, signal);
}

bool proc_ended(const struct proc *p)
{
	siginfo_t info = { .si_pid = 0 };

	if (p->pid <= 0 || p->reaped)
		return true;
	return waitid(P_PID, (id_t)p->pid, &info,
		      WEXITED | WNOHANG | WNOWAIT) < 0 || info.si_pid;
}

void proc_clear(struct proc *p)
{
	strbuf_release(&p->out_buf);
	strbuf_release(&p->err_buf);
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

void proc_describe_failure(const struct proc *p, const char *output,
			   size_t len, struct strbuf *out)
{
	struct strbuf tail = STRBUF_INIT;

	proc_describe_end(p, out);
	text_tail_lines(output ? output : "", output ? len : 0, 2, 300, &tail);
	if (tail.len)
		strbuf_addf(out, ": %s", tail.buf);
	strbuf_release(&tail);
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
