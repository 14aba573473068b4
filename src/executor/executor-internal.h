/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_EXECUTOR_INTERNAL_H
#define KDELTA_EXECUTOR_INTERNAL_H

/* What the executors of src/executor/ share (executor-common.c has most). */

#include <stdio.h>

#include "kdelta/err.h"
#include "kdelta/executor.h"
#include "kdelta/strbuf.h"
#include "kdelta/vm.h"

/* Hashes in file names and messages: 12 digits, as robot mails have. */
#define SHORT "%.12s"

/* BUILD_ERROR: not the commit's fault (a work tree, git): err says. */
enum build_end { BUILD_OK, BUILD_FAILED, BUILD_STOPPED, BUILD_ERROR };

/*
 * Runs o->build for the checked-out commit hash in the work tree dir
 * ({commit} and {out} replaced, $KDELTA_COMMIT and $KDELTA_OUT set; out
 * NULL: none), in a workspace's cgroup, its output into log (NULL:
 * <work dir>/build-<commit>.log, its stderr kept only for why).
 */
enum build_end executor_build(const struct local_executor_opts *o,
			      const char *dir, const char *hash,
			      const char *out, const char *log,
			      struct strbuf *why, struct kd_err *err);

/*
 * Commit hash's kernel (executor_builds_kernels()), kept in <cache>/<hash>
 * ({out}, marked KERNEL_MARK once whole) and resolved into *k (released
 * first): one built there whole before is taken as it is (a rebuilt
 * commit costs nothing); else what is there is removed, the commit checked
 * out in o->repo and built into it (executor_build(), its log
 * <cache>/<hash>.log, kept and named in why when it fails), and it must
 * then hold a kernel as kdelta run --kernel's PATH takes it.  The local
 * executor's kernels and the reboot executor build with it.
 */
enum build_end executor_build_kernel(const struct local_executor_opts *o,
				     const char *cache, const char *hash,
				     struct vm_kernel *k, struct strbuf *why,
				     struct kd_err *err);

/* A commit's complete runs so far (with the request's tag). */
struct run_count {
	size_t ok, failed;
};

/* Commit i's runs under host. */
int executor_count(const struct local_executor_opts *o, const char *host,
		   const struct measure_request *req, size_t i,
		   struct run_count *c, char **last_failure,
		   struct kd_err *err);

/*
 * After a batch: the runs each commit that needs them gained (res->added),
 * and a commit whose run failed is done with (MEASURE_RUN_FAILED, need[i]
 * false); have[] is brought up to date.
 */
int executor_tally(const struct local_executor_opts *o, const char *host,
		   const struct measure_request *req,
		   struct measure_result *res, bool *need,
		   struct run_count *have, struct kd_err *err);

/*
 * The local executor's kernels (executor-kernel.c): each commit's built
 * once into its {out} (the kernel cache's directory, else one of a
 * workspace that lives as long as the executor), then booted in rounds of
 * vm_batch_run().
 */
struct kernel_shelf;

struct kernel_shelf *kernel_shelf_new(const struct local_executor_opts *o);
void kernel_shelf_free(struct kernel_shelf *s);

/*
 * The request measured with kernels: host is the executor's (NULL until
 * a probe boot tells it: then *host is set, as vm_batch_host() says).
 */
int kernel_measure(struct kernel_shelf *s, char **host,
		   const struct measure_request *req,
		   struct measure_result *res, struct kd_err *err);

/* "<command>: <what fmt says>" and a newline on progress (NULL: nothing). */
void executor_say(FILE *progress, const char *command, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

struct run_lock;
struct work_dir;

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
