/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_ROBOT_STATE_H
#define KDELTA_ROBOT_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/err.h"
#include "kdelta/robot.h"

struct bisect_step_info;

/*
 * The robot's durable state (src/robot/robot-state.c), one SQLite file in WAL
 * mode: commits seen, tests (a branch head against its base, for one
 * job), the batches of runs asked of the executor, bisections and their
 * steps, mails.  Every change is one transaction, so that a robot killed
 * at any point finds a consistent state when it starts again.
 */

/* A test's life: measured and compared, bisected, done. */
#define ROBOT_TEST_MEASURE "measure"
#define ROBOT_TEST_BISECT "bisect"
#define ROBOT_TEST_DONE "done"

/*
 * How a done test ended (tests.outcome): its verdict's kind.  Clean heads
 * bound later bisections; undecided ones are neither clean nor mailed.
 */
#define ROBOT_OUTCOME_CLEAN "clean"		/* no workload result worse */
#define ROBOT_OUTCOME_FOUND "found"		/* a first bad commit */
#define ROBOT_OUTCOME_UNDECIDED "undecided"	/* more runs would tell */
#define ROBOT_OUTCOME_NOT_REPRODUCIBLE "not reproducible"
#define ROBOT_OUTCOME_FAILED "failed"		/* a build, a run, bisect */

struct robot_test {
	long long id;
	char *branch, *job, *base, *head;
	char *state;
	char *metric;	/* ROBOT_TEST_BISECT: the regressed result */
};

void robot_test_release(struct robot_test *t);

int robot_state_begin(struct robot_state *st, struct kd_err *err);
int robot_state_commit(struct robot_state *st, struct kd_err *err);
void robot_state_rollback(struct robot_state *st);

/* A commit seen at a branch head or as a base. */
int robot_state_commit_seen(struct robot_state *st, const char *hash,
			    const char *subject, struct kd_err *err);
/* A commit that does not build, and why. */
int robot_state_build_failed(struct robot_state *st, const char *hash,
			     const char *why, struct kd_err *err);

/* A new test, unless (branch, job, head) has one already. */
int robot_state_add_test(struct robot_state *st, const char *branch,
			 const char *job, const char *base, const char *head,
			 struct kd_err *err);
/* The tests that are not done, oldest first. */
int robot_state_open_tests(struct robot_state *st, struct robot_test **out,
			   size_t *n, struct kd_err *err);
/*
 * A test's next state; verdict (may be NULL: unchanged) is what an
 * operator reads ("regression exec.ops_per_sec -50.0%", "head does not
 * build: ..."), change the change in percent (NAN: none).
 */
int robot_state_set_test(struct robot_state *st, long long id,
			 const char *state, const char *metric,
			 const char *verdict, double change,
			 struct kd_err *err);
/* A test done: its outcome (ROBOT_OUTCOME_*) and verdict. */
int robot_state_test_done(struct robot_state *st, long long id,
			  const char *outcome, const char *verdict,
			  struct kd_err *err);

/*
 * Batches of runs, by purpose: *done and *outcome (caller frees; one
 * "ok"/"build failed: ..."/"run failed: ..." line per commit) when one
 * with this purpose ended before; else *ticket (caller frees), the
 * executor's ticket of one still out there (a Slurm job), or NULL.
 */
int robot_state_batch_find(struct robot_state *st, const char *purpose,
			   bool *done, char **outcome, char **ticket,
			   struct kd_err *err);
/* The executor's ticket of a running batch (NULL: none any more). */
int robot_state_batch_ticket(struct robot_state *st, const char *purpose,
			     const char *ticket, struct kd_err *err);
/*
 * A batch that did not end through its request, to a final state:
 * "collected" (its job ended after a restart: its ticket is kept, so
 * that asked again it reads what the job left instead of submitting
 * another), "cancelled" (--cancel), "interrupted" (a killed robot left
 * it, with nothing out there); why in its outcome.  A request with its
 * purpose starts it anew (a collected one: from its ticket).
 */
int robot_state_batch_close(struct robot_state *st, const char *purpose,
			    const char *state, const char *why,
			    struct kd_err *err);
/* The running batches: with a ticket, or all (caller frees both lists). */
int robot_state_batch_running(struct robot_state *st, bool with_ticket,
			      char ***purposes, char ***tickets, size_t *n,
			      struct kd_err *err);
/* The running batches that have a ticket (caller frees both lists). */
int robot_state_batch_tickets(struct robot_state *st, char ***purposes,
			      char ***tickets, size_t *n, struct kd_err *err);
/* The host a batch ran on, or NULL (caller frees). */
char *robot_state_batch_host(struct robot_state *st, const char *purpose);
/* The host the latest batch ran on, or NULL (caller frees). */
char *robot_state_last_host(struct robot_state *st);
int robot_state_batch_start(struct robot_state *st, const char *purpose,
			    const char *commits, unsigned runs,
			    struct kd_err *err);
int robot_state_batch_end(struct robot_state *st, const char *purpose,
			  const char *host, const char *outcome,
			  struct kd_err *err);

/* A bisection of a test's base and head (kept when it exists). */
int robot_state_bisect_start(struct robot_state *st, long long test,
			     const char *metric, const char *good,
			     const char *bad, struct kd_err *err);
/*
 * A step of it: the commit, its verdict and what bisect said (made
 * printable: a build's errors are its author's text); a commit that did
 * not build is marked so (robot_state_build_failed()).
 */
int robot_state_bisect_step(struct robot_state *st, long long test,
			    const struct bisect_step_info *step,
			    struct kd_err *err);
/*
 * end: "found", "range", "undecided", "not reproducible", "failed: ...";
 * clean: a commit the bisection showed clean (the first bad commit's
 * parent, not worse than good), or NULL.
 */
int robot_state_bisect_end(struct robot_state *st, long long test,
			   const char *end, const char *first_bad,
			   const char *clean, struct kd_err *err);
/*
 * The commits found clean on a branch for a job: heads whose test ended
 * clean, and commits its bisections showed clean (caller frees).
 */
int robot_state_clean_commits(struct robot_state *st, const char *branch,
			      const char *job, char ***out, size_t *n,
			      struct kd_err *err);

/* The mail about (first_bad, job, metric): one at most, ever. */
struct robot_mail_row {
	char *message_id;
	char *state;	/* "sending", "sent" */
	char *text;	/* the whole message, as piped to sendmail */
};

void robot_mail_row_release(struct robot_mail_row *m);
int robot_state_mail_find(struct robot_state *st, const char *first_bad,
			  const char *job, const char *metric,
			  struct robot_mail_row *out, bool *found,
			  struct kd_err *err);
int robot_state_mail_add(struct robot_state *st, const char *first_bad,
			 const char *job, const char *metric, long long test,
			 const char *message_id, const char *text,
			 struct kd_err *err);
int robot_state_mail_sent(struct robot_state *st, const char *message_id,
			  struct kd_err *err);

#endif
