// SPDX-License-Identifier: GPL-2.0
/*
 * A regressed robot test's bisection (robot.c's "bisect" state): from the
 * nearest commit the robot found clean before (its memory is its bounds),
 * on this machine or as one job of the executor (Slurm) whose looks are
 * decided again here from the store; its steps and failed builds recorded
 * for --status; a found first bad commit mailed at most once per (commit,
 * job, metric), with reproduce lines a recipient can run.
 */
#include <stdlib.h>
#include <string.h>

#include "kdelta/bisect.h"
#include "kdelta/executor.h"
#include "kdelta/git.h"
#include "kdelta/mail.h"
#include "kdelta/proc.h"
#include "kdelta/report.h"
#include "kdelta/robot-state.h"
#include "kdelta/robot.h"
#include "kdelta/sequential.h"
#include "kdelta/util.h"

#include "robot-internal.h"

/* bisect's steps, recorded for --status. */
static void record_step(void *arg, const struct bisect_step_info *step)
{
	struct robot *r = arg;
	struct kd_err err;

	if (robot_state_bisect_step(r->st, r->bisecting, step, &err) < 0)
		fprintf(r->log, "robot: %s\n", err.msg);
}

/*
 * "To" of the mail: the commit's author (name and address apart, as git
 * gives them) and the configured addresses (robot_mail_to()).
 */
static void mail_to(struct robot *r, const char *commit,
		    struct mail_addresses *to)
{
	const char *name_args[] = { "log", "-1", "--format=%an", commit, "--",
				    NULL };
	const char *addr_args[] = { "log", "-1", "--format=%ae", commit, "--",
				    NULL };
	const struct robot_mail *m = &r->cfg->mail;
	char *name = m->author ? git_line(r->cfg->repo, name_args) : NULL;
	char *addr = m->author ? git_line(r->cfg->repo, addr_args) : NULL;
	struct strbuf note = STRBUF_INIT;

	robot_mail_to(m, name, addr, to, &note);
	if (note.len) {
		make_printable(note.buf);
		fprintf(r->log, "robot: " SHORT ": %s\n", commit, note.buf);
	}
	strbuf_release(&note);
	free(addr);
	free(name);
}

static char *message_id_of(const struct strbuf *text)
{
	const char *h = strstr(text->buf, "\nMessage-ID: ");

	if (!h && !strncmp(text->buf, "Message-ID: ", 12))
		h = text->buf - 1;
	if (!h)
		return NULL;
	h += 13;
	return xstrndup(h, strcspn(h, "\n"));
}

static int send_recorded(struct robot *r, const char *message_id,
			 const char *text, struct kd_err *err)
{
	if (mail_send(r->cfg->mail.sendmail, text, strlen(text), err) < 0) {
		kd_error_prefix(err, "mail %s", message_id);
		return -1;
	}
	r->res->mailed++;
	fprintf(r->log, "robot: mail %s sent\n", message_id);
	return robot_state_mail_sent(r->st, message_id, err);
}

/* Where the mail's reproduce lines take the repository from. */
#define REPRODUCE_DIR "kdelta-repro"
#define REPRODUCE_PLACEHOLDER "<your clone>"

/*
 * The mail's "To reproduce" on a recipient's machine: not the robot's own
 * clone (which recipients do not have, and whose checkout the commands
 * would move), but a clone of mail: repository made by the first line, or
 * a placeholder for the recipient's own clone, said in a comment.
 */
static void reproduce_from(struct robot *r, struct report_options *ro,
			   char **clone_cmd)
{
	struct strbuf sb = STRBUF_INIT;

	if (!r->cfg->mail.repository) {
		*clone_cmd = NULL;
		ro->prepare_note = "in a clone of the repository: put its path for " REPRODUCE_PLACEHOLDER;
		return;
	}
	strbuf_addstr(&sb, "git clone -q ");
	shell_quote(&sb, r->cfg->mail.repository);
	strbuf_addstr(&sb, " " REPRODUCE_DIR);
	*clone_cmd = strbuf_detach(&sb);
	ro->prepare = *clone_cmd;
}

/*
 * The mail about the first bad commit, unless one about (commit, job,
 * metric) was sent; -1 (and the test stays open, to send it on the next
 * pass) when it could not be sent.
 */
static int mail_found(struct robot *r, const struct robot_test *t,
		      struct bisect_result *res, const struct bisect_opts *bo,
		      struct kd_err *err)
{
	struct robot_mail_row row;
	struct report_options ro = { 0 };
	struct strbuf text = STRBUF_INIT;
	struct mail_addresses to = MAIL_ADDRESSES_INIT;
	char *id = NULL, *clone_cmd = NULL;
	bool found;
	int ret = robot_state_mail_find(r->st, res->first_bad, t->job,
					res->metric, &row, &found, err);

	if (ret < 0)
		return -1;
	if (found && !strcmp(row.state, "sent")) {
		fprintf(r->log, "robot: " SHORT ": %s: %s: mailed before (%s)\n",
			res->first_bad, t->job, res->metric, row.message_id);
	} else if (found) {
		ret = send_recorded(r, row.message_id, row.text, err);
	} else if (!r->cfg->mail.enabled) {
		fprintf(r->log, "robot: " SHORT ": %s: %s: no mail section; not mailed\n",
			res->first_bad, t->job, res->metric);
	} else {
		ro.from = &r->cfg->mail.from;
		mail_to(r, res->first_bad, &to);
		ro.to = &to;
		ro.cc = &r->cfg->mail.cc;
		reproduce_from(r, &ro, &clone_cmd);
		ret = bisect_report_write(res, bo, r->cfg->build,
					  r->cfg->install,
					  r->cfg->mail.repository ? REPRODUCE_DIR
					  : REPRODUCE_PLACEHOLDER,
					  &ro, &text, err);
		free(clone_cmd);
		if (!ret && !(id = message_id_of(&text)))
			ret = kd_error(err, "the report has no Message-ID");
		if (!ret)
			ret = robot_state_mail_add(r->st, res->first_bad,
						   t->job, res->metric, t->id,
						   id, text.buf, err);
		if (!ret)
			ret = send_recorded(r, id, text.buf, err);
	}
	robot_mail_row_release(&row);
	strbuf_release(&text);
	mail_addresses_release(&to);
	free(id);
	return ret < 0 ? -1 : 0;
}

/* The bisection's end, recorded with the test's. */
static int end_bisect(struct robot *r, const struct robot_test *t,
		      const char *end, const char *first_bad,
		      const char *clean, const char *verdict,
		      struct kd_err *err)
{
	int ret = robot_state_begin(r->st, err);
	const char *outcome = !strcmp(end, "found") ? ROBOT_OUTCOME_FOUND
		: !strcmp(end, "undecided") || !strcmp(end, "range")
		? ROBOT_OUTCOME_UNDECIDED
		: !strcmp(end, "not reproducible")
		? ROBOT_OUTCOME_NOT_REPRODUCIBLE : ROBOT_OUTCOME_FAILED;

	if (!ret)
		ret = robot_state_bisect_end(r->st, t->id, end, first_bad,
					     clean, err);
	if (!ret)
		ret = robot_test_done(r, t, outcome, verdict, err);
	if (!ret)
		return robot_state_commit(r->st, err);
	robot_state_rollback(r->st);
	return -1;
}

static int bisect_ended(struct robot *r, const struct robot_test *t,
			struct bisect_result *res,
			const struct bisect_opts *bo, struct kd_err *err)
{
	struct strbuf verdict = STRBUF_INIT;
	int ret = 0;

	r->res->bisected++;
	switch (res->end) {
	case BISECT_FOUND:
		strbuf_addf(&verdict, "first bad commit " SHORT " (%s): %s",
			    res->first_bad, res->subject, res->metric);
		if (mail_found(r, t, res, bo, err) < 0) {
			fprintf(r->log, "robot: %s; trying again on the next pass\n",
				err->msg);
			r->res->unsent++;
			break;
		}
		ret = end_bisect(r, t, "found", res->first_bad,
				 res->earlier.verdict == SEQ_SAME
				 ? res->earlier_commit : NULL, verdict.buf,
				 err);
		break;
	case BISECT_EARLIER_UNDECIDED:
		strbuf_addf(&verdict, "undecided: " SHORT " (%s) changed %s, but whether an earlier commit did too is undecided; not mailed",
			    res->first_bad, res->subject, res->metric);
		ret = end_bisect(r, t, "undecided", res->first_bad, NULL,
				 verdict.buf, err);
		break;
	case BISECT_RANGE:
		strbuf_addf(&verdict, "undecided: first bad commit one of %zu that could not all be tested or decided:",
			    res->n_candidates);
		for (size_t i = 0; i < res->n_candidates; i++)
			strbuf_addf(&verdict, "%s " SHORT " (%s)",
				    i ? "," : "", res->candidates[i],
				    res->candidate_subjects[i]);
		ret = end_bisect(r, t, "range", NULL, NULL, verdict.buf, err);
		break;
	case BISECT_NOT_REPRODUCIBLE:
		if (res->ends.verdict == SEQ_UNDECIDED) {
			strbuf_addf(&verdict, "undecided: %s regressed, but the bisection could not tell base from head within max-runs; not mailed",
				    res->metric ? res->metric : t->metric);
			ret = end_bisect(r, t, "undecided", NULL, NULL,
					 verdict.buf, err);
			break;
		}
		strbuf_addf(&verdict, "%s regressed, but not reproducibly in the bisection",
			    res->metric ? res->metric : t->metric);
		ret = end_bisect(r, t, "not reproducible", NULL, NULL,
				 verdict.buf, err);
		break;
	case BISECT_STOPPED:
		r->res->bisected--;
		r->res->signal = res->signal;
		break;
	}
	strbuf_release(&verdict);
	return ret;
}

/* Whether git calls a an ancestor of b (or b itself). */
static bool is_ancestor(const char *repo, const char *a, const char *b)
{
	const char *args[] = { "merge-base", "--is-ancestor", a, b, NULL };
	struct kd_err err;

	return git_run(repo, args, NULL, NULL, &err) == 0;
}

/* How many commits b has that a does not. */
static long distance(const char *repo, const char *a, const char *b)
{
	char *range = xasprintf("%s..%s", a, b);
	const char *args[] = { "rev-list", "--count", range, NULL };
	char *count = git_line(repo, args);
	long n = count ? strtol(count, NULL, 10) : -1;

	free(count);
	free(range);
	return n;
}

/*
 * Where the bisection starts: the robot's memory is its bounds.  A head
 * of this branch found clean for this job (its test ended clean), or a
 * commit an earlier bisection showed clean, that lies between the base
 * and the head is a better good end than the base: the regression came
 * after it.  After a fix (a clean head) and a new regression, that is
 * what keeps the bisection from going back to the first culprit.  The
 * nearest such commit to the head, else the base (caller frees).
 */
static char *bisect_good(struct robot *r, const struct robot_test *t,
			 struct kd_err *err)
{
	char **clean = NULL, *best = NULL;
	long best_distance = -1;
	size_t n = 0;

	if (robot_state_clean_commits(r->st, t->branch, t->job, &clean, &n,
				      err) < 0)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		long d;

		if (!clean[i] || !strcmp(clean[i], t->base) ||
		    !strcmp(clean[i], t->head) ||
		    !is_ancestor(r->cfg->repo, t->base, clean[i]) ||
		    !is_ancestor(r->cfg->repo, clean[i], t->head))
			continue;
		d = distance(r->cfg->repo, clean[i], t->head);
		if (d > 0 && (best_distance < 0 || d < best_distance)) {
			best = clean[i];
			best_distance = d;
		}
	}
	if (best)
		fprintf(r->log, "robot: %s " SHORT ": %s: bisecting from " SHORT ", found clean before, not from the base " SHORT "\n",
			t->branch, t->head, t->job, best, t->base);
	best = xstrdup(best ? best : t->base);
	for (size_t i = 0; i < n; i++)
		free(clean[i]);
	free(clean);
	return best;
}

/* A remote bisection's outcome, as its batch records it. */
static char *bisect_outcome_text(const struct bisect_outcome *o)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "status %d\nwhere %s\nsaid %s\n", o->status,
		    o->where ? o->where : "", o->said ? o->said : "");
	for (const char *s = o->build_failed; s && *s;) {
		size_t len = strcspn(s, "\n");

		strbuf_addstr(&sb, "build-failed ");
		strbuf_add(&sb, s, len);
		strbuf_addch(&sb, '\n');
		s += len + (s[len] == '\n');
	}
	return strbuf_detach(&sb);
}

/* bisect_outcome_text() read back (host: the batch's). */
static void bisect_outcome_parse(const char *text, const char *host,
				 struct bisect_outcome *o)
{
	struct strbuf failed = STRBUF_INIT;

	memset(o, 0, sizeof(*o));
	o->host = host ? xstrdup(host) : NULL;
	o->status = -1;
	for (const char *s = text; s && *s;) {
		size_t len = strcspn(s, "\n");

		if (!strncmp(s, "status ", 7))
			o->status = atoi(s + 7);
		else if (!strncmp(s, "where ", 6))
			o->where = xstrndup(s + 6, len - 6);
		else if (!strncmp(s, "said ", 5))
			o->said = xstrndup(s + 5, len - 5);
		else if (!strncmp(s, "build-failed ", 13)) {
			strbuf_add(&failed, s + 13, len - 13);
			strbuf_addch(&failed, '\n');
		}
		s += len + (s[len] == '\n');
	}
	o->build_failed = failed.len ? strbuf_detach(&failed) : NULL;
	strbuf_release(&failed);
}

/*
 * A bisection handed to the executor as one job (Slurm): recorded as a
 * batch like a request, so that a restarted robot waits for its job, or
 * finds its outcome, instead of submitting it again.  *ok when it ended
 * with an outcome (the runs are in the store).
 */
static int remote_bisect(struct robot *r, const struct robot_test *t,
			 const struct job *job, const char *good,
			 struct bisect_outcome *out, bool *ok,
			 struct kd_err *err)
{
	char *purpose = xasprintf("test %lld: bisect " SHORT ".." SHORT, t->id,
				  good, t->head);
	char *commits = xasprintf("%s %s", good, t->head);
	struct ticket_arg ta = { &r->rex, purpose };
	struct bisect_request req = {
		.job = job, .good = good, .bad = t->head, .metric = t->metric,
		.runs = r->cfg->runs, .max_runs = r->cfg->max_runs,
		.min_change = r->cfg->min_change, .purpose = purpose,
		.submitted = robot_keep_ticket, .submitted_arg = &ta,
	};
	char *recorded = NULL, *ticket = NULL, *host = NULL, *text;
	bool done;
	int ret = robot_state_batch_find(r->st, purpose, &done, &recorded,
					 &ticket, err);

	*ok = false;
	memset(out, 0, sizeof(*out));
	if (!ret && done && recorded) {
		host = robot_state_batch_host(r->st, purpose);
		bisect_outcome_parse(recorded, host, out);
		*ok = out->host != NULL;
		goto done;
	}
	if (!ret && !ticket)
		ret = robot_state_batch_start(r->st, purpose, commits,
					      r->cfg->max_runs, err);
	req.ticket = ticket;
	if (!ret)
		ret = r->o->executor->ops->bisect(r->o->executor, &req, out,
						  err);
	r->rex.ex.host = r->o->executor->host;
	if (!ret && out->signal) {
		r->res->signal = out->signal;
	} else if (!ret) {
		text = bisect_outcome_text(out);
		ret = robot_state_batch_end(r->st, purpose, out->host, text,
					    err);
		free(text);
		*ok = ret == 0;
	}
done:
	free(host);
	free(recorded);
	free(ticket);
	free(commits);
	free(purpose);
	return ret;
}

int robot_bisect_test(struct robot *r, const struct robot_test *t,
		      const struct job *job, struct kd_err *err)
{
	char *good = bisect_good(r, t, err);
	char *purpose = xasprintf("test %lld: bisect", t->id);
	struct executor *store = NULL;
	struct bisect_opts bo = {
		.repo = r->cfg->repo, .good = good, .bad = t->head,
		.metric = t->metric, .runs = r->cfg->runs,
		.max_runs = r->cfg->max_runs, .min_change = r->cfg->min_change,
		.result_root = r->cfg->result_root, .job = job,
		.executor = &r->rex.ex, .purpose = purpose,
		.cancel_fd = r->o->cancel_fd, .log = r->log,
		.on_step = record_step, .on_step_arg = r,
	};
	struct bisect_result res;
	struct kd_err why;
	int ret = good ? robot_state_bisect_start(r->st, t->id, t->metric,
						  good, t->head, err) : -1;

	if (ret < 0) {
		free(purpose);
		free(good);
		return -1;
	}
	r->bisecting = t->id;
	if (r->o->executor->ops->bisect) {
		struct bisect_outcome out;
		bool ok;
		char *where;

		/* one job makes every look; the decisions are made here again */
		ret = remote_bisect(r, t, job, good, &out, &ok, err);
		if (!ret && ok) {
			where = xasprintf("the bisection of %s, which ended with status %d%s%s",
					  out.where ? out.where : "?", out.status,
					  out.said ? ": " : "",
					  out.said ? out.said : "");
			ret = store_executor_new(r->cfg->result_root, out.host,
						 out.build_failed, where,
						 &store, err);
			free(where);
		}
		bisect_outcome_release(&out);
		if (ret < 0 || !ok) {
			free(purpose);
			free(good);
			return ret;
		}
		bo.executor = store;
		ret = bisect_run(&bo, &res, &why);
	} else {
		ret = bisect_run(&bo, &res, &why);
	}
	if (ret < 0 && res.store_failed) {
		*err = why;
		r->res->store_failed = true;
	} else if (ret < 0) {
		char *verdict = xasprintf("bisect failed: %s", why.msg);

		r->res->failed++;
		ret = end_bisect(r, t, verdict, NULL, NULL, verdict, err);
		free(verdict);
	} else {
		ret = bisect_ended(r, t, &res, &bo, err);
	}
	bisect_result_release(&res);
	executor_release(store);
	free(purpose);
	free(good);
	return ret;
}
