/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_EXECUTOR_INTERNAL_H
#define KDELTA_EXECUTOR_INTERNAL_H

/* What the executors of src/executor/ share (executor.c has them). */

#include <stdio.h>

#include "kdelta/err.h"
#include "kdelta/executor.h"
#include "kdelta/strbuf.h"

struct run_lock;
struct vm_kernel;
struct work_dir;

/* BUILD_ERROR: not the commit's fault (a work tree, git): err says. */
enum build_end { BUILD_OK, BUILD_FAILED, BUILD_STOPPED, BUILD_ERROR };

/*
 * Builds the checked-out commit hash in the work tree dir with o->build
 * (build_command_expand(): {commit}, and {out} when out is not NULL, also
 * $KDELTA_COMMIT and $KDELTA_OUT), in a workspace's cgroup of
 * o->work_dir, so that nothing the build starts outlives it, nor a kill
 * -9 of kdelta beyond the next start (workdir.h).  Its stdout goes to
 * log, with its stderr (NULL: <work dir>/build-<commit>.log, stdout
 * only).  Why it failed goes to why: its first line that says "error",
 * else its last.
 */
enum build_end executor_build(const struct local_executor_opts *o,
			      const char *dir, const char *hash,
			      const char *out, const char *log,
			      struct strbuf *why, struct kd_err *err);

/*
 * Commit hash's kernel, kept in <cache>/<hash> ({out}) and resolved into
 * *k (released first): one built there whole before is taken as it is (a
 * rebuilt commit costs nothing); else what is there is removed, the
 * commit checked out in o->repo and built into it (executor_build(), its
 * log <cache>/<hash>.log, kept and named when it fails), and it must then
 * hold a kernel as kdelta run --kernel's PATH takes it.
 */
enum build_end executor_build_kernel(const struct local_executor_opts *o,
				     const char *cache, const char *hash,
				     struct vm_kernel *k, struct strbuf *why,
				     struct kd_err *err);

/* "<command>: <what fmt says>" and a newline on progress (NULL: nothing). */
void executor_say(FILE *progress, const char *command, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The machine's run lock for a batch, as kdelta run takes it, waiting
 * ("<command>: waiting for the machine's run lock, held by ..." on
 * progress): 0 when held, 1 when a signal came first (*signal), -1 on
 * errors.
 */
int executor_take_run_lock(struct run_lock *lock, const char *command,
			   const struct work_dir *wd, int cancel_fd,
			   FILE *progress, int *signal, struct kd_err *err);

#endif
