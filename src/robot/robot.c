// SPDX-License-Identifier: GPL-2.0
/*
 * One pass of kdelta robot (robot.h).  A test is a branch head against its
 * base for one job; its life is written in the state (robot-state.c):
 *
 *   measure: base and head get their runs, interleaved, from the executor,
 *            and are compared as kdelta compare compares them;
 *   bisect:  a workload result regressed: kdelta bisect's bisection, with
 *            the same executor, then the mail about the first bad commit,
 *            at most once per (first bad commit, job, metric);
 *   done:    its verdict says how it ended.
 *
 * Nothing here keeps state in memory across steps: a robot killed at any
 * point starts again from the state and the store.  Runs already in the
 * store count (executor.h), the executor's requests are recorded by
 * purpose (a batch that ended is not asked again), a bisection resumes
 * from its stored runs, and a mail is recorded, with its Message-ID and
 * text, before it is piped to sendmail and marked sent after.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/bisect.h"
#include "kdelta/bisect-classify.h"
#include "kdelta/catalogue.h"
#include "kdelta/compare-load.h"
#include "kdelta/executor.h"
#include "kdelta/git.h"
#include "kdelta/mail.h"
#include "kdelta/metric-rules.h"
#include "kdelta/proc.h"
#include "kdelta/report.h"
#include "kdelta/robot-lock.h"
#include "kdelta/robot-state.h"
#include "kdelta/robot.h"
#include "kdelta/runner.h"
#include "kdelta/sequential.h"
#include "kdelta/util.h"

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

/* measure_request.submitted: the ticket kept before the executor waits. */
struct ticket_arg {
	struct recording_executor *re;
	const char *purpose;
};

static int keep_ticket_of(void *arg, const char *ticket, struct kd_err *err)
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
	mine.submitted = keep_ticket_of;
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

/* One pass. */
struct robot;
static int collect_batches(struct robot *r, struct kd_err *err);

struct robot {
	const struct robot_opts *o;
	const struct robot_config *cfg;
	struct robot_state *st;
	struct recording_executor rex;
	struct robot_pass_result *res;
	long long bisecting;	/* the test being bisected */
	FILE *log;
};

static bool stopped(struct robot *r)
{
	int sig = proc_caught_signal(r->o->cancel_fd);

	if (sig)
		r->res->signal = sig;
	return sig != 0;
}

/* What tests and mails call a job: "<testcase>/<job name>", as stored. */
static char *job_id(const struct job *job)
{
	return xasprintf("%s/%s", runner_testcase(job), job->name);
}

/* The configured job of that id, or NULL. */
static const struct job *find_job(const struct robot_config *cfg,
				  const char *id)
{
	for (size_t f = 0; f < cfg->n_job_files; f++)
		for (size_t j = 0; j < cfg->job_files[f].n; j++) {
			const struct job *job = &cfg->job_files[f].jobs[j];
			char *this = job_id(job);
			bool same = !strcmp(this, id);

			free(this);
			if (same)
				return job;
		}
	return NULL;
}

/* git fetch, when the repository has a remote; a failure is only said. */
static void fetch(struct robot *r)
{
	static const char *const remotes[] = { "remote", NULL };
	static const char *const args[] = { "fetch", "--all", "--prune",
					     "--quiet", NULL };
	char *remote = git_line(r->cfg->repo, remotes);
	struct kd_err err;

	if (remote && git_ok(r->cfg->repo, "fetch", args, NULL, &err) < 0)
		fprintf(r->log, "robot: %s; testing what is there\n", err.msg);
	free(remote);
}

/* The commit a head is compared with: its parent, or the merge-base. */
static char *base_of(struct robot *r, const struct robot_branch *b,
		     const char *head)
{
	char *spec, *base;

	if (!b->base) {
		spec = xasprintf("%s^", head);
		base = git_commit_hash(r->cfg->repo, spec);
		free(spec);
		return base;
	} else {
		const char *args[] = { "merge-base", head, b->base, NULL };

		return git_line(r->cfg->repo, args);
	}
}

static int see_commit(struct robot *r, const char *hash, struct kd_err *err)
{
	char *subject = git_commit_subject(r->cfg->repo, hash);
	int ret = robot_state_commit_seen(r->st, hash, subject, err);

	free(subject);
	return ret;
}

static int add_test(struct robot *r, const char *branch,
		    const struct job *job, const char *base, const char *head,
		    struct kd_err *err)
{
	char *id = job_id(job);
	int ret = robot_state_add_test(r->st, branch, id, base, head, err);

	free(id);
	return ret;
}

/* A test of every job for each branch's head, unless it has one. */
static int add_tests(struct robot *r, struct kd_err *err)
{
	const struct robot_config *cfg = r->cfg;
	int ret = 0;

	for (size_t i = 0; i < cfg->n_branches && !ret; i++) {
		const struct robot_branch *b = &cfg->branches[i];
		char *head = git_commit_hash(cfg->repo, b->name);
		char *base = head ? base_of(r, b, head) : NULL;

		if (!head)
			fprintf(r->log, "robot: branch %s: no such revision any more\n",
				b->name);
		else if (!base)
			fprintf(r->log, "robot: branch %s: " SHORT " has no base to compare with\n",
				b->name, head);
		else if (strcmp(base, head) &&
			 (ret = robot_state_begin(r->st, err)) == 0) {
			ret = see_commit(r, head, err);
			if (!ret)
				ret = see_commit(r, base, err);
			for (size_t f = 0; f < cfg->n_job_files && !ret; f++)
				for (size_t j = 0; j < cfg->job_files[f].n && !ret; j++)
					ret = add_test(r, b->name,
						       &cfg->job_files[f].jobs[j],
						       base, head, err);
			if (!ret)
				ret = robot_state_commit(r->st, err);
			else
				robot_state_rollback(r->st);
		}
		free(base);
		free(head);
	}
	return ret;
}

static int test_done(struct robot *r, const struct robot_test *t,
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
	free(shown);
	return ret;
}

/* The tag of base's and head's runs: rounds of the two, for any test. */
static char *test_tag(const struct robot_test *t)
{
	return xasprintf("robot " SHORT ".." SHORT, t->base, t->head);
}

/* What the rounds of base and head say of one workload result. */
struct judged {
	struct seq_result sr;
	size_t rounds, compared;	/* paired, and compared */
	size_t most;			/* runs of the commit with most */
	size_t needed;			/* runs a side that would decide it */
};

/*
 * A workload result of base and head, on their tagged rounds
 * (bisect_compare_ends(): the same rounds, rule for disturbed runs and
 * replayed looks as bisect's, two-sided at ROBOT_ALPHA).
 */
static int judge(struct robot *r, const struct job *job,
		 const struct robot_test *t, const char *metric,
		 struct judged *j, struct kd_err *err)
{
	const char *commits[] = { t->base, t->head };
	struct seq_design d = {
		.spending = SEQ_OBRIEN_FLEMING, .alpha = ROBOT_ALPHA,
		.max_runs = r->cfg->max_runs, .min_change = r->cfg->min_change,
		.points = metric_is_percent(metric_catalogue_default(),
					    metric),
	};
	struct tagged_runs rec[2];
	const struct tagged_runs *ptr[] = { &rec[0], &rec[1] };
	char *tag = test_tag(t);
	struct bisect_round *rounds = NULL;
	int ret = 0;

	memset(j, 0, sizeof(*j));
	memset(rec, 0, sizeof(rec));
	for (size_t i = 0; i < 2 && !ret; i++) {
		char *dir = runner_commit_dir(job, r->cfg->result_root,
					      r->rex.ex.host, commits[i]);

		ret = result_dir_tagged_runs(dir, tag, metric, &rec[i], err);
		if (rec[i].n > j->most)
			j->most = rec[i].n;
		free(dir);
	}
	if (!ret) {
		double *a, *b;
		size_t k = 0;

		j->rounds = bisect_pair_rounds(ptr, 2, &rounds);
		bisect_compare_ends(&d, rounds, j->rounds, r->cfg->runs,
				    j->most >= r->cfg->max_runs, 0, &j->sr,
				    &j->compared);
		a = xcalloc(j->rounds + 1, sizeof(*a));
		b = xcalloc(j->rounds + 1, sizeof(*b));
		for (size_t i = 0; i < j->rounds; i++)
			if (bisect_round_compared(&rounds[i], 2)) {
				a[k] = rounds[i].value[0];
				b[k++] = rounds[i].value[1];
			}
		if (isfinite(j->sr.ci.estimate))
			j->needed = runs_to_decide(a, k, b, k,
						   j->sr.ci.estimate,
						   r->cfg->min_change, d.points,
						   SIG_WELCH);
		free(a);
		free(b);
	}
	free(rounds);
	tagged_runs_release(&rec[0]);
	tagged_runs_release(&rec[1]);
	free(tag);
	return ret;
}

/* "exec.ops_per_sec -49.3% (interval -55.0% to -43.1%), 4 rounds" */
static void describe(struct strbuf *sb, const char *metric,
		     const struct judged *j)
{
	const struct change_interval *ci = &j->sr.ci;
	const char *unit = metric_is_percent(metric_catalogue_default(),
					     metric) ? " points" : "%";

	strbuf_addf(sb, "%s", metric);
	if (isfinite(ci->estimate))
		strbuf_addf(sb, " %+.1f%s", ci->estimate, unit);
	if (ci->bounded)
		strbuf_addf(sb, " (interval %+.1f%s to %+.1f%s)", ci->low,
			    unit, ci->high, unit);
	strbuf_addf(sb, ", %zu round%s", j->compared,
		    j->compared == 1 ? "" : "s");
	if (j->rounds > j->compared)
		strbuf_addf(sb, " (%zu more left out: runs disturbed unevenly)",
			    j->rounds - j->compared);
}

static int regressed(struct robot *r, struct robot_test *t,
		     const char *metric, const struct judged *j,
		     struct kd_err *err)
{
	struct strbuf verdict = STRBUF_INIT;
	int ret;

	strbuf_addstr(&verdict, "regression: ");
	describe(&verdict, metric, j);
	fprintf(r->log, "robot: %s " SHORT ": %s: %s; bisecting\n",
		t->branch, t->head, t->job, verdict.buf);
	ret = robot_state_set_test(r->st, t->id, ROBOT_TEST_BISECT, metric,
				   verdict.buf, j->sr.ci.estimate, err);
	free(t->state);
	free(t->metric);
	t->state = xstrdup(ROBOT_TEST_BISECT);
	t->metric = xstrdup(metric);
	strbuf_release(&verdict);
	return ret;
}

/*
 * The looks at base against head: every workload result judged on the
 * rounds so far.  A regression (the largest change for the worse) goes to
 * bisect; when every result is decided, the test is done, clean; at the
 * last look with one still undecided, done, undecided (a verdict of its
 * own: no mail, the runs that would decide it said); else *decided is
 * false: another round.  *most: the most runs base or head has.
 */
static int compare_test(struct robot *r, struct robot_test *t,
			const struct job *job, bool *decided, size_t *most,
			struct kd_err *err)
{
	char *dirs[2] = {
		runner_commit_dir(job, r->cfg->result_root, r->rex.ex.host, t->base),
		runner_commit_dir(job, r->cfg->result_root, r->rex.ex.host, t->head),
	};
	struct strbuf open = STRBUF_INIT, unknown = STRBUF_INIT;
	struct compare_options opt;
	struct comparison cmp;
	const char *worst = NULL;
	struct judged worst_j, j;
	bool last = false;
	int ret = compare_dirs((const char *const *)dirs, 2, r->cfg->repo,
			       metric_catalogue_default(), &cmp, err);

	*decided = true;
	*most = 0;
	compare_options_init(&opt);
	opt.min_change = r->cfg->min_change;
	if (!ret && r->cfg->key_results.n) {	/* the robot's own, first */
		key_results_release(&cmp.declared);
		key_results_copy(&cmp.declared, &r->cfg->key_results);
	}
	if (!ret)
		compare_decide(&cmp, &opt);	/* rows' directions, gates */
	for (size_t i = 0; !ret && i < cmp.nrows; i++) {
		const struct metric_row *row = &cmp.rows[i];

		if (!row->gate)
			continue;
		ret = judge(r, job, t, row->name, &j, err);
		if (ret < 0)
			break;
		if (j.most > *most)
			*most = j.most;
		last |= j.most >= r->cfg->max_runs;
		if (j.sr.verdict == SEQ_CONTINUE ||
		    j.sr.verdict == SEQ_UNDECIDED) {
			if (open.len)
				strbuf_addstr(&open, "; ");
			describe(&open, row->name, &j);
			if (j.needed > RUNS_NEEDED_MAX)
				strbuf_addf(&open, "; more than %d runs a side would decide it",
					    RUNS_NEEDED_MAX);
			else if (j.needed)
				strbuf_addf(&open, "; about %zu runs a side would decide it",
					    j.needed);
		}
		if (j.sr.verdict == SEQ_CHANGED && !row->better) {
			if (unknown.len)
				strbuf_addstr(&unknown, "; ");
			describe(&unknown, row->name, &j);
			strbuf_addf(&unknown, ", in a direction nobody declared better (key-result: {%s: higher}, or lower)",
				    row->name);
			continue;
		}
		if (j.sr.verdict != SEQ_CHANGED ||
		    row->better * j.sr.ci.estimate >= 0)
			continue;
		if (!worst || fabs(j.sr.ci.estimate) > fabs(worst_j.sr.ci.estimate)) {
			worst = row->name;
			worst_j = j;
		}
	}
	if (!ret && worst) {
		ret = regressed(r, t, worst, &worst_j, err);
	} else if (!ret && unknown.len && !open.len) {
		struct strbuf verdict = STRBUF_INIT;

		strbuf_addf(&verdict, "undecided: %s; not bisected, not mailed",
			    unknown.buf);
		ret = test_done(r, t, ROBOT_OUTCOME_UNDECIDED, verdict.buf,
				err);
		strbuf_release(&verdict);
	} else if (!ret && !open.len) {
		ret = test_done(r, t, ROBOT_OUTCOME_CLEAN,
				"no regression of a workload result", err);
	} else if (!ret && last) {
		struct strbuf verdict = STRBUF_INIT;

		strbuf_addf(&verdict, "undecided at max-runs: %s; not bisected, not mailed",
			    open.buf);
		ret = test_done(r, t, ROBOT_OUTCOME_UNDECIDED, verdict.buf,
				err);
		strbuf_release(&verdict);
	} else {
		*decided = false;
	}
	if (!ret)
		r->res->tested += *decided;
	strbuf_release(&unknown);
	strbuf_release(&open);
	comparison_release(&cmp);
	free(dirs[0]);
	free(dirs[1]);
	return ret;
}

/*
 * Base and head get runs runs each, interleaved: 0; 1 when the test ended
 * (one of them does not build, or its job failed) or a signal came.
 */
static int measure_runs(struct robot *r, struct robot_test *t,
			const struct job *job, unsigned runs,
			struct kd_err *err)
{
	const char *commits[] = { t->base, t->head };
	const char *which[] = { "base", "head" };
	char *tag = test_tag(t);
	char *purpose = xasprintf("test %lld: base and head to %u runs",
				  t->id, runs);
	struct measure_request req = {
		.job = job, .commits = commits, .n_commits = 2,
		.runs = runs, .purpose = purpose, .tag = tag,
	};
	struct measure_result mr;
	char *verdict = NULL;
	int ret = executor_measure(&r->rex.ex, &req, &mr, err);

	free(purpose);
	free(tag);
	r->res->store_failed |= mr.store_failed;
	if (!ret && mr.signal) {
		r->res->signal = mr.signal;
		ret = 1;
	}
	/* A commit that does not build first: the other then has no runs. */
	for (size_t i = 0; i < 2 && !verdict && !ret; i++)
		if (mr.outcome[i] == MEASURE_BUILD_FAILED) {
			verdict = xasprintf("%s " SHORT " does not build: %s",
					    which[i], commits[i], mr.why[i]);
			ret = robot_state_build_failed(r->st, commits[i],
						       mr.why[i], err);
		}
	for (size_t i = 0; i < 2 && !verdict && !ret; i++) {
		if (mr.outcome[i] != MEASURE_OK) {
			verdict = xasprintf("%s " SHORT ": %s", which[i],
					    commits[i], mr.why[i] ? mr.why[i]
					    : "not measured");
			r->res->failed++;
		}
	}
	if (!ret && verdict)
		ret = test_done(r, t, ROBOT_OUTCOME_FAILED, verdict, err) < 0
		      ? -1 : 1;
	free(verdict);
	measure_result_release(&mr);
	return ret;
}

/*
 * Measures base and head in rounds, --runs at first, then a round more
 * until every workload result is decided (sequential.h) or --max-runs.
 */
static int measure_test(struct robot *r, struct robot_test *t,
			const struct job *job, struct kd_err *err)
{
	unsigned runs = r->cfg->runs;
	bool decided = false;
	int ret = 0;

	while (!ret && !decided && !stopped(r)) {
		size_t most = runs;

		ret = measure_runs(r, t, job, runs, err);
		if (!ret)
			ret = compare_test(r, t, job, &decided, &most, err);
		runs = most + 1 > r->cfg->max_runs ? r->cfg->max_runs
						    : (unsigned)most + 1;
	}
	return ret < 0 ? -1 : 0;
}

/* bisect's steps, recorded for --status. */
static void record_step(void *arg, const struct bisect_step_info *step)
{
	struct robot *r = arg;
	struct kd_err err;

	char *said = xstrdup(step->said);

	/* The commit's build errors are its author's text. */
	make_printable(said);
	if (robot_state_bisect_step(r->st, r->bisecting, step->commit,
				    bisect_class_name(step->verdict),
				    said, &err) < 0 ||
	    (step->build_failed &&
	     robot_state_build_failed(r->st, step->commit, step->why,
				      &err) < 0))
		fprintf(r->log, "robot: %s\n", err.msg);
	free(said);
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

/*
 * The mail about the first bad commit, unless one about (commit, job,
 * metric) was sent; -1 (and the test stays open, to send it on the next
 * pass) when it could not be sent.
 */
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
		ret = test_done(r, t, outcome, verdict, err);
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
			r->res->failed++;
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
		.submitted = keep_ticket_of, .submitted_arg = &ta,
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

static int bisect_test(struct robot *r, const struct robot_test *t,
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
	bool usage;
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
		ret = bisect_run(&bo, &res, &usage, &why);
	} else {
		ret = bisect_run(&bo, &res, &usage, &why);
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

/* Takes a test as far as it goes: measured, compared, bisected. */
static int take_test(struct robot *r, struct robot_test *t,
		     struct kd_err *err)
{
	const struct job *job = find_job(r->cfg, t->job);
	int ret = 0;

	if (!job)
		return test_done(r, t, ROBOT_OUTCOME_FAILED,
				 "the job is not in the configuration any more",
				 err);
	if (!strcmp(t->state, ROBOT_TEST_MEASURE))
		ret = measure_test(r, t, job, err);
	if (!ret && !r->res->signal && !strcmp(t->state, ROBOT_TEST_BISECT) &&
	    !stopped(r))
		ret = bisect_test(r, t, job, err);
	return ret;
}

/* Every open test, oldest first: those a killed robot left, then new ones. */
static int take_tests(struct robot *r, struct kd_err *err)
{
	struct robot_test *tests;
	size_t n;
	int ret = robot_state_open_tests(r->st, &tests, &n, err);

	for (size_t i = 0; i < n && !ret && !stopped(r); i++)
		ret = take_test(r, &tests[i], err);
	for (size_t i = 0; i < n; i++)
		robot_test_release(&tests[i]);
	free(tests);
	return ret;
}

/*
 * What a killed robot left under way: a job handed to the executor is
 * waited for, whatever state it reached, and its batch ends "collected"
 * (a request with its purpose, asked again, finds its runs in the store);
 * one with nothing out there ends "interrupted".  So every batch ends,
 * and no job is left for --cancel to look for later.
 */
static int collect_batches(struct robot *r, struct kd_err *err)
{
	struct strbuf state = STRBUF_INIT, why = STRBUF_INIT;
	char **purposes, **tickets;
	size_t n;
	int ret = robot_state_batch_running(r->st, false, &purposes, &tickets,
					    &n, err);

	for (size_t i = 0; i < n && !ret && !stopped(r); i++) {
		int got = 0;

		strbuf_reset(&why);
		if (tickets[i]) {
			got = executor_collect(r->o->executor, tickets[i],
					       &state, err);
			strbuf_addf(&why, "its job ended %s after a restart",
				    state.len ? state.buf : "(forgotten)");
		} else {
			strbuf_addstr(&why, "cut short: the robot was stopped or killed");
		}
		if (got < 0)
			ret = -1;
		else if (got == 0)
			ret = robot_state_batch_close(r->st, purposes[i],
				tickets[i] ? "collected" : "interrupted",
				why.buf, err);
	}
	for (size_t i = 0; i < n; i++) {
		free(purposes[i]);
		free(tickets[i]);
	}
	free(purposes);
	free(tickets);
	strbuf_release(&state);
	strbuf_release(&why);
	return ret;
}

int robot_pass(const struct robot_opts *o, struct robot_pass_result *res,
	       struct kd_err *err)
{
	struct robot r = {
		.o = o, .cfg = o->cfg, .st = o->state, .res = res,
		.log = o->log,
	};
	struct strbuf said = STRBUF_INIT;
	char *head = NULL;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = robot_repo_begin(o->cfg, &head, &said, err);
	for (const char *s = said.buf; *s; s += strcspn(s, "\n") + 1)
		fprintf(o->log, "robot: %.*s\n", (int)strcspn(s, "\n"), s);
	strbuf_release(&said);
	if (ret < 0)
		return -1;
	/* A cluster's runs are where its latest batch ran, until the next. */
	if (!o->executor->host)
		o->executor->host = robot_state_last_host(o->state);
	r.rex.ex.ops = &recording_ops;
	r.rex.ex.name = o->executor->name;
	r.rex.ex.host = o->executor->host;
	r.rex.inner = o->executor;
	r.rex.st = o->state;
	fetch(&r);
	ret = collect_batches(&r, err);
	if (!ret && !r.res->signal)
		ret = add_tests(&r, err);
	if (!ret)
		ret = take_tests(&r, err);
	/* The executor checks commits out: the work tree goes back. */
	if (head) {
		struct kd_err e;

		if (robot_repo_end(o->cfg, head, &e) < 0 && !ret)
			ret = kd_error(err, "%s", e.msg);
	}
	free(head);
	stopped(&r);
	return ret;
}
