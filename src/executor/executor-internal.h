/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_EXECUTOR_INTERNAL_H
#define KDELTA_EXECUTOR_INTERNAL_H

/* What the executors of src/executor/ share (executor.c has them). */

#include <stdio.h>

#include "kdelta/err.h"

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
