/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_PROC_H
#define KDELTA_PROC_H

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "kdelta/err.h"
#include "kdelta/strbuf.h"

/*
 * Child processes, after git's run-command: start a command (or a function)
 * in a process group of its own, wait for it while watching a cancel file
 * descriptor and a timeout, and keep the tail of its stderr.  Used by the
 * runner (setup hooks, workloads) and by bisect (build and install
 * commands).
 *
 * Every child runs in a new process group, so that a terminal's Ctrl-C
 * reaches kdelta only, and kdelta can stop the child with everything it
 * started: on cancel or timeout the whole group gets SIGTERM, then SIGKILL
 * after PROC_KILL_GRACE seconds.
 */
#define PROC_KILL_GRACE 2.0
/* Bytes of stderr kept by proc_run(). */
#define PROC_STDERR_TAIL 4096

enum proc_end {
	PROC_EXITED,		/* status holds the exit status */
	PROC_SIGNALED,		/* the child died of signal 'signal' */
	PROC_TIMED_OUT,		/* killed after the timeout */
	PROC_CANCELLED,		/* killed because cancel_fd became readable */
};

struct proc {
	pid_t pid;
	int pidfd;
	int stderr_fd;		/* read end of the stderr pipe, or -1 */
	/* Filled by proc_wait(). */
	enum proc_end end;
	int status;		/* exit status, or the signal number */
	struct rusage rusage;	/* of the child and its reaped descendants */
	double elapsed;		/* seconds from start to exit */
	double start;		/* now_monotonic() at start; a caller that
				 * holds the child back resets it on release */
	struct strbuf stderr_tail;
};

struct proc_wait_opts {
	int cancel_fd;		/* -1: none; readable: stop the child */
	double timeout;		/* seconds; 0: none */
	/* Called about every tick seconds while waiting (progress). */
	void (*tick)(void *arg);
	void *tick_arg;
	double tick_interval;
};

/*
 * Forks a child that calls fn(arg) and exits with its return value.  In the
 * child, the signals kdelta catches are back to their defaults.
 */
int proc_start_fn(struct proc *p, int (*fn)(void *arg), void *arg,
		  struct kd_err *err);

/*
 * Runs "sh -c command" with the variables of env ("NAME=value", NULL
 * terminated; may be NULL) added to the environment, stdin from /dev/null,
 * stdout to stdout_path (NULL: /dev/null), and stderr into a pipe whose tail
 * proc_wait() keeps.
 */
int proc_start_shell(struct proc *p, const char *command,
		     const char *const *env, const char *stdout_path,
		     struct kd_err *err);

/*
 * Waits for the child to end (see enum proc_end), reaps it and releases
 * what proc_start_*() allocated except stderr_tail.  Returns -1 only when
 * waiting itself failed.
 */
int proc_wait(struct proc *p, const struct proc_wait_opts *opts,
	      struct kd_err *err);

void proc_release(struct proc *p);

/* "exited with status 3", "killed by signal 9 (Killed)", "timed out ...". */
void proc_describe_end(const struct proc *p, struct strbuf *out);

/*
 * The last max_lines non-empty lines of text, joined by " / ", at most
 * max_bytes bytes (a longer tail keeps its end): for one-line messages.
 */
void text_tail_lines(const char *text, size_t len, int max_lines,
		     size_t max_bytes, struct strbuf *out);

/*
 * Catches signals (SIGINT, SIGTERM, ...) with sigaction: the handler only
 * writes the signal number into a socket pair, whose reading end is
 * returned, to be polled (proc_wait_opts.cancel_fd) or read with proc_caught_signal().
 * The handler keeps catching: a second Ctrl-C cannot cut a cleanup short.
 * Returns -1 on failure.
 */
int proc_catch_signals(const int *signals, size_t n, struct kd_err *err);
/* The first signal caught so far (0: none); the fd stays readable. */
int proc_caught_signal(int fd);
/* Restores the default actions and closes the socket pair. */
void proc_release_signals(int fd, const int *signals, size_t n);

/* Appends s single-quoted for sh: abc -> 'abc', it's -> 'it'\''s'. */
void shell_quote(struct strbuf *out, const char *s);

#endif
