// SPDX-License-Identifier: GPL-2.0
/*
 * What robot.c (a pass: tests measured and compared), robot-bisect.c (a
 * regressed test's bisection, its mail and the bounds the robot's memory
 * gives it) and robot-record.c (what both record in the state) share.
 * Private to src/robot/.
 */
#ifndef KDELTA_ROBOT_INTERNAL_H
#define KDELTA_ROBOT_INTERNAL_H

#include <stdio.h>

#include "kdelta/err.h"
#include "kdelta/executor.h"
#include "kdelta/robot-state.h"
#include "kdelta/robot.h"

/* Hashes in progress lines: 12 digits, as robot mails have. */
#define SHORT "%.12s"

/*
 * The executor the robot hands to bisect and uses itself: the configured
 * one, with every request that has a purpose recorded as a batch.  A batch
 * that ended with a commit that did not build or whose run failed is not
 * asked again: its recorded outcome is the answer.  (One whose commits all
 * got their runs is asked again, harmlessly: the executor only completes
 * what the store lacks.)
 */
struct recording_executor {
	struct executor ex;
	struct executor *inner;
	struct robot_state *st;
};

/* measure_request.submitted: the ticket kept before the executor waits. */
struct ticket_arg {
	struct recording_executor *re;
	const char *purpose;
};

/* One pass. */
struct robot {
	const struct robot_opts *o;
	const struct robot_config *cfg;
	struct robot_state *st;
	struct recording_executor rex;
	struct robot_pass_result *res;
	long long bisecting;	/* the test being bisected */
	FILE *log;
};

/* The recording executor around inner, recording into st (robot-record.c). */
void robot_recording_init(struct recording_executor *re,
			  struct executor *inner, struct robot_state *st);

/* measure_request.submitted: records the batch's ticket (a ticket_arg). */
int robot_keep_ticket(void *arg, const char *ticket, struct kd_err *err);

/* A test ends with that outcome and verdict, said in the log too. */
int robot_test_done(struct robot *r, const struct robot_test *t,
		    const char *outcome, const char *verdict,
		    struct kd_err *err);

/* A regressed test bisected, recorded and (found) mailed (robot-bisect.c). */
int robot_bisect_test(struct robot *r, const struct robot_test *t,
		      const struct job *job, struct kd_err *err);

#endif
