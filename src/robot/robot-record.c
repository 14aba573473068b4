// SPDX-License-Identifier: GPL-2.0
/*
 * What a robot pass writes into its state beside its tests' progress: the
 * executor's requests, each a batch with its outcome (the recording
 * executor), and a test's end, said in the log too.  robot.c and
 * robot-bisect.c both record through these.
 */
#include <stdlib.h>
#include <string.h>

#include "kdelta/executor.h"
#include "kdelta/robot-state.h"
#include "kdelta/strbuf.h"
#include "kdelta/util.h"

#include "robot-internal.h"

static const char *const outcome_names[] = {
	[MEASURE_OK] = "ok",
	[MEASURE_BUILD_FAILED] = "build failed",
	[MEASURE_RUN_FAILED] = "run failed",
	[MEASURE_NOT_RUN] = "not run",
};

/* "ok\nbuild failed: why\n": one line per commit. */
static char *outcome_text(const struct measure_result *res)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < res->n; i++) {
		strbuf_addstr(&sb, outcome_names[res->outcome[i]]);
		if (res->why[i]) {
			strbuf_addstr(&sb, ": ");
			for (const char *s = res->why[i]; *s; s++)
				strbuf_addch(&sb, *s == '\n' ? ' ' : *s);
		}
		strbuf_addch(&sb, '\n');
	}
	return strbuf_detach(&sb);
}

/* Fills res from a recorded outcome; false when it holds no failure. */
static bool replay_failures(const char *text, struct measure_result *res)
{
	bool failure = false;

	for (size_t i = 0; i < res->n && *text; i++) {
		size_t len = strcspn(text, "\n");

		for (size_t o = 0; o < ARRAY_SIZE(outcome_names); o++) {
			size_t n = strlen(outcome_names[o]);

			if (len < n || strncmp(text, outcome_names[o], n) ||
			    (len > n && text[n] != ':'))
				continue;
			res->outcome[i] = (enum measure_outcome)o;
			if (len > n + 2)
				res->why[i] = xstrndup(text + n + 2,
						       len - n - 2);
			failure |= o == MEASURE_BUILD_FAILED ||
				   o == MEASURE_RUN_FAILED;
			break;
		}
		text += len + (text[len] == '\n');
	}
	return failure;
}


int robot_keep_ticket(void *arg, const char *ticket, struct kd_err *err)
{
	const struct ticket_arg *ta = arg;

	return robot_state_batch_ticket(ta->re->st, ta->purpose, ticket, err);
}

static int recording_measure(struct executor *ex,
			     const struct measure_request *req,
			     struct measure_result *res, struct kd_err *err)
{
	struct recording_executor *re = (struct recording_executor *)ex;
	struct strbuf commits = STRBUF_INIT;
	char *recorded = NULL, *ticket = NULL, *text;
	struct measure_request mine = *req;
	struct ticket_arg ta = { re, req->purpose };
	bool done;
	int ret;

	if (!req->purpose) {
		ret = re->inner->ops->measure(re->inner, req, res, err);
		re->ex.host = re->inner->host;
		return ret;
	}
	if (robot_state_batch_find(re->st, req->purpose, &done, &recorded,
				   &ticket, err) < 0)
		return -1;
	if (done && recorded && replay_failures(recorded, res)) {
		free(recorded);
		return 0;
	}
	free(recorded);
	if (!ticket) {
		for (size_t i = 0; i < req->n_commits; i++)
			strbuf_addf(&commits, "%s%s", i ? " " : "",
				    req->commits[i]);
		ret = robot_state_batch_start(re->st, req->purpose, commits.buf,
					      req->runs, err);
		strbuf_release(&commits);
		if (ret < 0)
			return -1;
	}
	/* A batch handed over before a restart is waited for, not asked again. */
	mine.ticket = ticket;
	mine.submitted = robot_keep_ticket;
	mine.submitted_arg = &ta;
	ret = re->inner->ops->measure(re->inner, &mine, res, err);
	re->ex.host = re->inner->host;
	free(ticket);
	if (ret < 0) {
		/*
		 * The executor failed: a ticket it had is spent (its job
		 * ended without doing its work) or none was kept; the next
		 * pass asks anew, and only what the store lacks is run.
		 */
		struct kd_err ignored;

		robot_state_batch_ticket(re->st, req->purpose, NULL, &ignored);
		return -1;
	}
	if (res->signal)
		return ret;	/* still "running": asked again when resumed */
	text = outcome_text(res);
	ret = robot_state_batch_end(re->st, req->purpose, res->host, text, err);
	free(text);
	return ret;
}

/* Part of struct robot: nothing to free. */
static void recording_release(struct executor *ex)
{
	(void)ex;
}

static const struct executor_ops recording_ops = {
	.measure = recording_measure,
	.release = recording_release,
};

void robot_recording_init(struct recording_executor *re,
			  struct executor *inner, struct robot_state *st)
{
	re->ex.ops = &recording_ops;
	re->ex.name = inner->name;
	re->ex.host = inner->host;
	re->inner = inner;
	re->st = st;
}

int robot_test_done(struct robot *r, const struct robot_test *t,
		    const char *outcome, const char *verdict,
		    struct kd_err *err)
{
	/* A build's error line or a subject: the commit's author's text. */
	char *shown = xstrdup(verdict);
	int ret;

	make_printable(shown);
	fprintf(r->log, "robot: %s " SHORT ": %s: %s\n", t->branch, t->head,
		t->job, shown);
	ret = robot_state_test_done(r->st, t->id, outcome, shown, err);
	if (!strcmp(outcome, ROBOT_OUTCOME_UNDECIDED))
		r->res->undecided++;
	free(shown);
	return ret;
}
