/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_PROC_H
#define KDELTA_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "kdelta/err.h"
#include "kdelta/strbuf.h"

/*
 * Child processes, after git's run-command: the one way kdelta starts a
 * process (setup hooks, workloads and their workers, exec's command, mkfs,
 * git, sendmail, bisect's build).  Fill a struct proc that PROC_INIT
 * initialised, then proc_start() and proc_wait(), or proc_run() for both;
 * proc_clear() releases what the results hold.
 *
 *	struct proc p = PROC_INIT;
 *	const char *argv[] = { "git", "-C", repo, "log", "-1", NULL };
 *
 *	p.argv = argv;
 *	p.out = PROC_PIPE;
 *	if (proc_run(&p, err) < 0 || p.end != PROC_EXITED || p.status)
 *		...;			(p.out_buf has what it printed)
 *	proc_clear(&p);
 *
 * A child runs argv (argv[0] searched in PATH unless it holds a '/'), a
 * shell command line (/bin/sh -c) or a function of kdelta's own in a forked
 * copy of kdelta.  It runs in a process group of its own unless same_group,
 * so that a terminal's Ctrl-C reaches kdelta only and kdelta can stop the
 * child with what it started; in the run's cgroup when given, so that
 * nothing it starts escapes, whatever process group or session that makes
 * for itself; with the signals kdelta catches back at their defaults and
 * nothing blocked; and with PR_SET_PDEATHSIG, so that killing kdelta
 * (SIGKILL) kills the child too (what the child started is found in the
 * cgroup: see workdir.h).
 *
 * Stopping it: on cancel or timeout its process group gets SIGTERM, and
 * SIGKILL PROC_KILL_GRACE seconds later if the child has not ended.  Once
 * the child has ended, whatever is left of its process group is killed.
 */
#define PROC_KILL_GRACE 2.0
/* Bytes of stderr kept with PROC_TAIL. */
#define PROC_STDERR_TAIL 4096

/*
 * The child's standard streams (in, out, err): a file descriptor of the
 * caller's (>= 0; duplicated, the caller keeps it), or one of these.
 */
enum {
	PROC_NULL = -1,		/* /dev/null */
	PROC_INHERIT = -2,	/* kdelta's own */
	PROC_PIPE = -3,		/* in: in_buf is written to it; out, err:
				 * captured whole into out_buf, err_buf */
	PROC_TAIL = -4,		/* err only: its last PROC_STDERR_TAIL bytes
				 * are kept in err_buf */
	PROC_TO_OUT = -5,	/* err only: where stdout goes (2>&1) */
};

struct cgroup;

enum proc_end {
	PROC_EXITED,		/* status holds the exit status */
	PROC_SIGNALED,		/* the child died of signal 'status' */
	PROC_TIMED_OUT,		/* killed after the timeout */
	PROC_CANCELLED,		/* killed because cancel_fd became readable */
};

struct proc {
	/* What runs: exactly one of argv (NULL-terminated), shell, fn. */
	const char *const *argv;
	const char *shell;
	int (*fn)(void *arg);		/* its return value: the exit status */
	void *arg;

	/* Where and how; PROC_INIT gives none of these. */
	const char *const *env;		/* "NAME=value" set, "NAME" removed */
	int dir_fd;			/* fchdir() there first; -1: stay */
	int in, out, err;		/* PROC_INIT: /dev/null, /dev/null, tail */
	const char *out_path;		/* if set: stdout to this file, created */
	const char *err_path;		/* or truncated (mode 0644), not out/err */
	const char *in_buf;		/* with in = PROC_PIPE */
	size_t in_len;
	bool same_group;		/* stay in kdelta's process group */
	const struct cgroup *cgroup;	/* join it first; NULL: kdelta's */

	/* While proc_wait() waits. */
	int cancel_fd;			/* -1: none; readable: stop the child */
	double timeout;			/* seconds from start; 0: none */
	void (*tick)(void *arg);	/* called about every tick_interval s */
	void *tick_arg;
	double tick_interval;		/* 0: 1 s */

	/* Results. */
	pid_t pid;			/* once started */
	double start;			/* now_monotonic() at start; a caller
					 * that holds the child back resets it
					 * on release */
	enum proc_end end;
	int status;			/* exit status, or the signal number */
	struct rusage rusage;		/* of the child and its reaped children */
	double elapsed;			/* seconds from start to its end */
	int in_errno;			/* writing in_buf failed (EPIPE: the
					 * child did not read all of it) */
	int exec_errno;			/* proc_start() failed because the
					 * program could not be executed
					 * (ENOENT: not found) */
	struct strbuf out_buf, err_buf;

	/* Private. */
	bool reaped;			/* its pid may name another process */
	int pidfd;
	int pipes[3];			/* kdelta's ends of in, out, err */
	size_t in_done;
};

#define PROC_INIT {							\
	.dir_fd = -1, .in = PROC_NULL, .out = PROC_NULL, .err = PROC_TAIL, \
	.cancel_fd = -1, .out_buf = STRBUF_INIT, .err_buf = STRBUF_INIT, \
	.pidfd = -1, .pipes = { -1, -1, -1 },				\
}

/*
 * Starts the child.  Fails (and reaps it) when it could not be set up or
 * its program could not be run: "cannot run 'x': No such file or
 * directory".
 */
int proc_start(struct proc *p, struct kd_err *err);

/*
 * Waits for the child to end (see enum proc_end), feeding in_buf and
 * collecting out and err on the way, then kills what is left of its
 * process group and reaps it.  Returns -1 only when waiting itself failed
 * (the child is killed then).
 */
int proc_wait(struct proc *p, struct kd_err *err);

/* proc_start(), then proc_wait(). */
int proc_run(struct proc *p, struct kd_err *err);

/*
 * For children started with same_group, of a process that has no other
 * children: reaps the next of procs[0..n) to end (its results filled in)
 * and returns its index; -1 when none is left or waiting failed.
 */
ssize_t proc_reap_any(struct proc *procs, size_t n);

/* Kills a started child (and its group unless same_group) with SIGKILL. */
void proc_kill(struct proc *p);

/*
 * Sends signal to a started child that is not reaped yet (to it alone:
 * a child that handles it, such as perf record's SIGINT).
 */
void proc_signal(struct proc *p, int signal);

/* Whether a started child has ended, without reaping it. */
bool proc_ended(const struct proc *p);

/* Frees out_buf and err_buf. */
void proc_clear(struct proc *p);

/* "exited with status 3", "killed by signal 9 (Killed)", "timed out ...". */
void proc_describe_end(const struct proc *p, struct strbuf *out);

/*
 * proc_describe_end(), then ": " and the last 2 lines of what the child
 * printed (output, len bytes), at most 300 bytes, when it printed any:
 * "exited with status 1: mdadm: cannot open /dev/ram0: No such file".
 */
void proc_describe_failure(const struct proc *p, const char *output,
			   size_t len, struct strbuf *out);

/*
 * The last max_lines non-empty lines of text, joined by " / ", at most
 * max_bytes bytes (a longer tail keeps its end): for one-line messages.
 */
void text_tail_lines(const char *text, size_t len, int max_lines,
		     size_t max_bytes, struct strbuf *out);

/*
 * Catches signals (SIGINT, SIGTERM, ...) with sigaction: the handler only
 * writes the signal number into a socket pair, whose reading end is
 * returned, to be polled (proc.cancel_fd) or read with proc_caught_signal().
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
