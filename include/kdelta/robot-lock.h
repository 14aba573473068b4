/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_ROBOT_LOCK_H
#define KDELTA_ROBOT_LOCK_H

#include "kdelta/err.h"
#include "kdelta/robot.h"
#include "kdelta/runlock.h"

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

#endif
