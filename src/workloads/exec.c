// SPDX-License-Identifier: GPL-2.0
/*
 * exec: runs any command in the work directory, so that fio, bonnie++ or a
 * user's own program fit in.  Its stdout is the workload's log: every
 * "key: value" line it prints becomes the metric "<name>.<key>".  The command
 * runs in a process group of its own, which gets the runner's stop signals
 * passed on, is killed when timeout passes, and is killed once the command
 * has ended: nothing it started outlives the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "kdelta/strbuf.h"
#include "kdelta/util.h"
#include "kdelta/workload.h"

#define EXEC_SHOWN_MAX 200		/* bytes of the command shown in errors */
#define EXEC_TERM_GRACE_MS 1000		/* after SIGTERM, before SIGKILL */

struct exec_cmd {
	char **argv;		/* NULL-terminated, what execvp() runs */
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

/* The command, from cmd (a shell command line) or argv (a list). */
static int exec_cmd_init(struct exec_cmd *c, const struct jnode *params,
			 struct kd_err *err)
{
	const char *line = jnode_str(params, "cmd");
	const struct jnode *list = jnode_get(params, "argv");

	*c = (struct exec_cmd){ .timeout = jnode_duration(params, "timeout") };
	if (line && list)
		return kd_error(err, "exec: give either cmd (a shell command line) or argv (a list), not both");
	if (!line && !list)
		return kd_error(err, "exec: no command: give cmd (a shell command line) or argv (a list of arguments)");
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
	if (list->kind != JNODE_LIST || !list->n)
		return kd_error(err, "exec: argv must be a non-empty list of arguments");
	c->argv = xcalloc(list->n + 1, sizeof(*c->argv));
	for (size_t i = 0; i < list->n; i++) {
		if (list->values[i]->kind != JNODE_SCALAR)
			return kd_error(err, "exec: argv item %zu is not a string", i + 1);
		c->argv[i] = xstrdup(list->values[i]->scalar);
	}
	exec_show(c);
	return 0;
}

/* In the child: becomes the command; on failure, errno goes up errfd. */
static _Noreturn void exec_child(const struct exec_cmd *c, int out_fd,
				 int errfd, pid_t parent)
{
	static const int reset[] = { SIGINT, SIGTERM, SIGQUIT, SIGPIPE,
				     SIGCHLD, SIGHUP };
	sigset_t none;
	int null_fd, e;

	setpgid(0, 0);
	/* If the parent died before the prctl, the new parent is init. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(reset); i++)
		signal(reset[i], SIG_DFL);
	null_fd = open("/dev/null", O_RDONLY);
	if (null_fd < 0 || dup2(null_fd, STDIN_FILENO) < 0 ||
	    dup2(out_fd, STDOUT_FILENO) < 0)
		goto failed;
	if (c->shell)
		execv("/bin/sh", c->argv);
	else
		execvp(c->argv[0], c->argv);
failed:
	e = errno;
	/* The parent reads why from errfd; if even that fails, the status says. */
	if (write(errfd, &e, sizeof(e)) != sizeof(e))
		_exit(126);
	_exit(127);
}

/* How the wait for the command ended. */
struct exec_end {
	int status;		/* its wait status */
	bool timed_out;
	int signal;		/* the signal that stopped this run; 0: none */
};

/*
 * The signals with which the runner stops a run.  While the command runs
 * they are blocked here and read from a signalfd, so that they are passed
 * on to the command's process group, which the runner's own kill of its
 * group does not reach.
 */
static void exec_stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

/* Waits up to ms for the process behind pidfd to end; false on timeout. */
static bool exec_wait_ms(int pidfd, double ms)
{
	double end = now_monotonic() + ms / 1e3;
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };

	for (;;) {
		double left = (end - now_monotonic()) * 1e3;
		int n;

		if (left <= 0)
			return false;
		n = poll(&pfd, 1, left > INT32_MAX ? INT32_MAX : (int)left + 1);
		if (n > 0)
			return true;
		if (n < 0 && errno != EINTR)
			return false;
	}
}

/*
 * Watches the command until it ends.  Past its timeout, or on a stop
 * signal, its process group gets SIGTERM (or that signal), and SIGKILL if
 * it is still there EXEC_TERM_GRACE_MS later.
 */
static void exec_watch(pid_t pid, int pidfd, int sigfd, double timeout,
		       struct exec_end *end)
{
	struct pollfd pfd[2] = { { .fd = pidfd, .events = POLLIN },
				 { .fd = sigfd, .events = POLLIN } };
	double deadline = timeout > 0 ? now_monotonic() + timeout : 0;
	struct signalfd_siginfo si;
	int stop = SIGTERM;

	for (;;) {
		double left = deadline - now_monotonic();
		int n;

		if (deadline && left <= 0) {
			end->timed_out = true;
			break;
		}
		n = poll(pfd, 2, !deadline ? -1 :
			 left * 1e3 > INT32_MAX ? INT32_MAX : (int)(left * 1e3) + 1);
		if (n < 0 && errno != EINTR) {
			stop = SIGKILL;		/* cannot watch it: stop it */
			break;
		}
		if (n > 0 && pfd[0].revents)
			return;
		if (n > 0 && pfd[1].revents &&
		    read(sigfd, &si, sizeof(si)) == sizeof(si)) {
			end->signal = stop = (int)si.ssi_signo;
			break;
		}
	}
	kill(-pid, stop);
	if (!exec_wait_ms(pidfd, EXEC_TERM_GRACE_MS))
		kill(-pid, SIGKILL);
}

/* Waits for the command, then kills whatever is left of its group. */
static int exec_wait(pid_t pid, const struct exec_cmd *c, struct exec_end *end,
		     struct kd_err *err)
{
	int pidfd = pidfd_open(pid, 0), sigfd = -1, ret = 0;
	sigset_t stop;

	exec_stop_signals(&stop);
	if (pidfd >= 0)
		sigfd = signalfd(-1, &stop, SFD_CLOEXEC);
	if (pidfd < 0 || sigfd < 0) {
		ret = kd_error(err, "exec: cannot watch '%s': %s%s", c->shown,
			       strerror(errno),
			       pidfd < 0 ? " (pidfd_open needs Linux 5.3 or later)" : "");
		kill(-pid, SIGKILL);
	} else {
		exec_watch(pid, pidfd, sigfd, c->timeout, end);
	}
	if (pidfd >= 0)
		close(pidfd);
	if (sigfd >= 0)
		close(sigfd);
	while (waitpid(pid, &end->status, 0) < 0) {
		if (errno == EINTR)
			continue;
		if (!ret)
			ret = kd_error(err, "exec: waiting for '%s': %s",
				       c->shown, strerror(errno));
		break;
	}
	kill(-pid, SIGKILL);
	return ret;
}

static int exec_status(const struct exec_cmd *c, const struct exec_end *end,
		       struct kd_err *err)
{
	int status = end->status;

	if (end->signal)
		return kd_error(err, "exec: '%s' was stopped: kdelta received signal %d (%s)",
				c->shown, end->signal, strsignal(end->signal));
	if (end->timed_out)
		return kd_error(err, "exec: '%s' ran longer than its timeout of %gs and was killed",
				c->shown, c->timeout);
	if (WIFSIGNALED(status))
		return kd_error(err, "exec: '%s' was killed by signal %d (%s)",
				c->shown, WTERMSIG(status),
				strsignal(WTERMSIG(status)));
	if (WEXITSTATUS(status))
		return kd_error(err, "exec: '%s' exited with status %d",
				c->shown, WEXITSTATUS(status));
	return 0;
}

/* Starts the command; 0 once it runs, -1 if it could not be started. */
static int exec_start(const struct exec_cmd *c, int out_fd, pid_t *pid,
		      struct kd_err *err)
{
	int errpipe[2], child_errno;
	pid_t parent = getpid();
	ssize_t n;

	if (pipe2(errpipe, O_CLOEXEC) < 0)
		return kd_error(err, "exec: pipe: %s", strerror(errno));
	*pid = fork();
	if (*pid == 0) {
		close(errpipe[0]);
		exec_child(c, out_fd, errpipe[1], parent);
	}
	close(errpipe[1]);
	if (*pid < 0) {
		close(errpipe[0]);
		return kd_error(err, "exec: fork: %s", strerror(errno));
	}
	setpgid(*pid, *pid);	/* as the child does: whoever comes first */
	while ((n = read(errpipe[0], &child_errno, sizeof(child_errno))) < 0 &&
	       errno == EINTR)
		;
	close(errpipe[0]);
	if (n != sizeof(child_errno))
		return 0;	/* EOF: exec succeeded and closed the pipe */
	while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
		;
	return kd_error(err, "exec: cannot run '%s': %s", c->argv[0],
			strerror(child_errno));
}

static int exec_run(const struct jnode *params, FILE *out, struct kd_err *err)
{
	struct exec_end end = { 0 };
	struct exec_cmd c;
	sigset_t stop, old;
	pid_t pid = -1;
	int ret;

	ret = exec_cmd_init(&c, params, err);
	if (!ret && (fflush(out) == EOF || fileno(out) < 0))
		ret = kd_error(err, "exec: the log is not a file");
	/* Blocked before the fork: a stop signal now waits for exec_watch(). */
	exec_stop_signals(&stop);
	sigprocmask(SIG_BLOCK, &stop, &old);
	if (!ret)
		ret = exec_start(&c, fileno(out), &pid, err);
	if (!ret)
		ret = exec_wait(pid, &c, &end, err);
	if (!ret)
		ret = exec_status(&c, &end, err);
	sigprocmask(SIG_SETMASK, &old, NULL);
	exec_cmd_release(&c);
	return ret;
}

static const struct param_spec exec_params[] = {
	{ .name = "cmd", .type = PARAM_STRING,
	  .help = "the command, a shell command line run with /bin/sh -c in the work directory, stdin /dev/null, stdout the log; a non-zero exit status fails the run; give cmd or argv" },
	{ .name = "argv", .type = PARAM_LIST,
	  .help = "the command as a list of arguments, run directly (execvp, PATH searched); give cmd or argv" },
	{ .name = "name", .type = PARAM_STRING, .def = "exec",
	  .help = "the prefix of its metrics: a line \"key: value\" becomes <name>.<key>; also names its log, <name>.log in the run directory, so letters, digits and ._+=,@%- only, no leading '.', and not setup" },
	{ .name = "timeout", .type = PARAM_DURATION,
	  .help = "kill the command (SIGTERM, 1s later SIGKILL, to its whole process group) if it runs longer, e.g. 10m; none if unset" },
	{ .name = NULL },
};

const struct workload workload_exec = {
	.section = {
		.name = "exec",
		.summary = "run a command; each \"key: value\" line on its stdout is a result",
		.params = exec_params,
	},
	.run = exec_run,
};
