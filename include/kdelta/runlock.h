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
 *
 * Since anybody who may open a file may lock it, a lock file is private:
 * a regular file of the user kdelta runs as, mode 0600; one that is not
 * (made by an older kdelta, or by somebody else) is replaced by a new
 * one, so that a descriptor of the old one locks nothing that counts.
 * The machine's run lock must moreover lie in directories that no other
 * user can write (the sticky bit aside): else another user could put a
 * file of theirs in its place, and root's runs would wait for them.
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
	RUN_LOCK_REFUSED,	/* another user could replace the lock file */
};

/*
 * Takes the lock at path (its directory made if missing) and writes who
 * into it.  RUN_LOCK_REFUSED when a directory above it may be written by
 * another user: "refusing the lock file PATH: another user could replace
 * it (DIR belongs to uid 1000, mode 0755); ...".  When another holds it: without wait, RUN_LOCK_BUSY with err
 * saying who; with wait, waiting(holder, arg) once, then it waits until
 * the lock is free or cancel_fd (when >= 0) is readable.
 */
enum run_lock_result run_lock_take(struct run_lock *lock, const char *path,
				   const char *who, bool wait, int cancel_fd,
				   void (*waiting)(const char *holder, void *arg),
				   void *arg, struct kd_err *err);
/*
 * Another lock file of kdelta's (the robot's), taken without waiting and
 * without the check of its directories: RUN_LOCK_BUSY with err
 * "<holder> holds <what> <path>" when another process holds it.
 */
enum run_lock_result lock_file_try(struct run_lock *lock, const char *path,
				   const char *what, const char *who,
				   struct kd_err *err);
void run_lock_release(struct run_lock *lock);

#endif
