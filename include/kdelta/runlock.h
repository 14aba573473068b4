/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_RUNLOCK_H
#define KDELTA_RUNLOCK_H

#include <stdbool.h>

#include "kdelta/err.h"

/*
 * The machine's run lock: two kdelta runs side by side measure each other,
 * so a kdelta run takes it for its whole batch and a second one waits for
 * it, or refuses (kdelta run --no-wait), unless told to run beside it
 * (--concurrent).  An fcntl() lock on a file: the kernel releases it when
 * the process ends, however it ends, so no stale lock is ever left.  The
 * holder writes a line about itself into the file for those who wait.
 */
struct run_lock {
	int fd;			/* -1: not held */
};

/*
 * The lock file: $KDELTA_RUN_LOCK if set; else /run/kdelta/run.lock for
 * root, $XDG_RUNTIME_DIR/kdelta/run.lock or, without it,
 * ${XDG_CACHE_HOME:-~/.cache}/kdelta/run.lock for others.  Caller frees.
 */
char *run_lock_path(void);

enum run_lock_result {
	RUN_LOCK_ERROR = -1,
	RUN_LOCK_TAKEN,
	RUN_LOCK_BUSY,		/* held by another, and not waiting */
	RUN_LOCK_CANCELLED,	/* cancel_fd became readable while waiting */
};

/*
 * Takes the lock at path (its directory made if missing) and writes who
 * into it.  When another holds it: without wait, RUN_LOCK_BUSY with err
 * saying who; with wait, waiting(holder, arg) once, then it waits until
 * the lock is free or cancel_fd (when >= 0) is readable.
 */
enum run_lock_result run_lock_take(struct run_lock *lock, const char *path,
				   const char *who, bool wait, int cancel_fd,
				   void (*waiting)(const char *holder, void *arg),
				   void *arg, struct kd_err *err);
void run_lock_release(struct run_lock *lock);

#endif
