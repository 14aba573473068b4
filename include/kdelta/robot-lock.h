/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_ROBOT_LOCK_H
#define KDELTA_ROBOT_LOCK_H

#include "kdelta/err.h"
#include "kdelta/robot.h"
#include "kdelta/runlock.h"
#include "kdelta/strbuf.h"

/*
 * One robot at a time on a state and on a repository (src/robot-lock.c):
 * two passes at once (a cron job that overlaps itself, two configurations
 * that share a clone or a state) would check out, build and git-bisect
 * in the same work tree and take each other's batches.  A robot that
 * works (a pass, a loop of passes, --cancel) holds two lock files for as
 * long as it lives: "<state>.lock" beside its SQLite state, and
 * "kdelta-robot.lock" in the repository's git directory.  fcntl() locks,
 * private as the machine's run lock is (runlock.h): the kernel releases
 * them however the robot ends.
 */
struct robot_lock {
	struct run_lock state, repo;
};

/*
 * Takes both locks, without waiting: 0; 1 when another robot holds one
 * (err: "kdelta robot (pid 4242, since ..., config /etc/robot.yaml)
 * holds the lock of the robot's state /r/.kdelta/robot.db.lock"), with
 * neither held; -1 on errors.
 */
int robot_lock_take(const struct robot_config *cfg, struct robot_lock *lock,
		    struct kd_err *err);
void robot_lock_release(struct robot_lock *lock);

/*
 * The work tree, before a pass (the robot holds its locks): *head is
 * where it goes back after the pass (robot_repo_end()): the HEAD a pass
 * that did not end saved in "kdelta-robot-head" in the git directory (a
 * robot killed with -9 left the work tree where its executor had checked
 * a commit out), else HEAD now, saved there.  An "index.lock" older than
 * ROBOT_STALE_INDEX_LOCK seconds, which a git killed with an earlier
 * robot left and which would make every git command fail, is removed.
 * What it did goes to said, one line each.  *head is NULL (caller frees)
 * when the repository has no HEAD.
 */
#define ROBOT_STALE_INDEX_LOCK 60.0
int robot_repo_begin(const struct robot_config *cfg, char **head,
		     struct strbuf *said, struct kd_err *err);
/* Checks head out again, and forgets it once it is. */
int robot_repo_end(const struct robot_config *cfg, const char *head,
		   struct kd_err *err);

#endif
