// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kdelta/git.h"
#include "kdelta/proc.h"
#include "kdelta/util.h"

/* Reads what fd has into out; false at its end (or on an error). */
static bool read_fd(int fd, struct strbuf *out)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n > 0)
		strbuf_add(out, buf, (size_t)n);
	return n > 0 || (n < 0 && (errno == EINTR || errno == EAGAIN));
}

/* Collects a child's stdout and stderr until both are closed. */
static void collect(int out_fd, int err_fd, struct strbuf *out,
		    struct strbuf *errout)
{
	struct pollfd pfd[2] = { { .fd = out_fd, .events = POLLIN },
				 { .fd = err_fd, .events = POLLIN } };
	struct strbuf *sink[2] = { out, errout };

	while (pfd[0].fd >= 0 || pfd[1].fd >= 0) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (pfd[i].fd >= 0 && pfd[i].revents &&
			    !read_fd(pfd[i].fd, sink[i]))
				pfd[i].fd = -1;	/* the caller closes it */
		}
	}
}

/* "git -C repo args...", NULL-terminated; caller frees the array. */
static const char **git_argv(const char *repo, const char *const *args)
{
	size_t n = 0;
	const char **argv;

	while (args[n])
		n++;
	argv = xcalloc(n + 4, sizeof(*argv));
	argv[0] = "git";
	argv[1] = "-C";
	argv[2] = repo;
	memcpy(argv + 3, args, n * sizeof(*argv));
	return argv;
}

static _Noreturn void git_child(const char **argv, int out_fd, int err_fd)
{
	sigset_t none;

	setpgid(0, 0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	dup2(out_fd, STDOUT_FILENO);
	dup2(err_fd, STDERR_FILENO);
	setenv("LC_ALL", "C", 1);
	unsetenv("LANGUAGE");
	execvp("git", (char *const *)argv);
	fprintf(stderr, "cannot run git: %s\n", strerror(errno));
	_exit(127);
}

static int pipes(int outp[2], int errp[2], struct kd_err *err)
{
	if (pipe2(outp, O_CLOEXEC) < 0)
		return kd_error(err, "cannot create a pipe: %s", strerror(errno));
	if (pipe2(errp, O_CLOEXEC) < 0) {
		close(outp[0]);
		close(outp[1]);
		return kd_error(err, "cannot create a pipe: %s", strerror(errno));
	}
	return 0;
}

int git_run(const char *repo, const char *const *args, struct strbuf *out,
	    struct strbuf *errout, struct kd_err *err)
{
	struct strbuf o = STRBUF_INIT, e = STRBUF_INIT;
	const char **argv;
	int outp[2], errp[2], status = 0;
	pid_t pid;

	if (pipes(outp, errp, err) < 0)
		return -1;
	argv = git_argv(repo, args);
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		git_child(argv, outp[1], errp[1]);
	free(argv);
	close(outp[1]);
	close(errp[1]);
	if (pid > 0)
		collect(outp[0], errp[0], &o, &e);
	close(outp[0]);
	close(errp[0]);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (out)
		strbuf_add(out, o.buf, o.len);
	if (errout)
		strbuf_add(errout, e.buf, e.len);
	strbuf_release(&o);
	strbuf_release(&e);
	if (pid < 0)
		return kd_error(err, "cannot fork: %s", strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int git_error(struct kd_err *err, const char *repo, const char *what,
	      const struct strbuf *out, const struct strbuf *errout)
{
	struct strbuf tail = STRBUF_INIT;
	const struct strbuf *said = errout->len ? errout : out;

	text_tail_lines(said->buf, said->len, 2, 300, &tail);
	kd_error(err, "%s: git %s failed%s%s", repo, what, tail.len ? ": " : "",
		 tail.buf);
	strbuf_release(&tail);
	return -1;
}

int git_ok(const char *repo, const char *what, const char *const *args,
	   struct strbuf *out, struct kd_err *err)
{
	struct strbuf o = STRBUF_INIT, e = STRBUF_INIT;
	int status = git_run(repo, args, &o, &e, err);

	if (status > 0) {
		git_error(err, repo, what, &o, &e);
	} else if (status == 0 && out) {
		strbuf_rtrim(&o);
		strbuf_add(out, o.buf, o.len);
	}
	strbuf_release(&o);
	strbuf_release(&e);
	return status ? -1 : 0;
}

char *git_line(const char *repo, const char *const *args)
{
	struct strbuf out = STRBUF_INIT;
	struct kd_err err;

	if (git_run(repo, args, &out, NULL, &err) != 0 || !out.len) {
		strbuf_release(&out);
		return NULL;
	}
	strbuf_rtrim(&out);
	return strbuf_detach(&out);
}
