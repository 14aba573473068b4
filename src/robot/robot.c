// SPDX-License-Identifier: GPL-2.0
/*
 * One pass of kdelta robot (robot.h).  A test is a branch head against its
 * base for one job; its life is written in the state (robot-state.c):
 *
 *   measure: base and head get their runs, interleaved, from the executor,
 *            and are compared as kdelta compare compares them;
 *   bisect:  a workload result regressed: kdelta bisect's bisection, with
 *            the same executor, then the mail about the first bad commit,
 *            at most once per (first bad commit, job, metric)
 *            (robot-bisect.c);
 *   done:    its verdict says how it ended.
 *
 * Nothing here keeps state in memory across steps: a robot killed at any
 * point starts again from the state and the store.  Runs already in the
 * store count (executor.h), the executor's requests are recorded by
 * purpose (robot-record.c: a batch that ended is not asked again), a
 * bisection resumes from its stored runs, and a mail is recorded, with
 * its Message-ID and text, before it is piped to sendmail and marked sent
 * after.
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
#include "kdelta/metric-rules.h"
#include "kdelta/proc.h"
#include "kdelta/robot-lock.h"
#include "kdelta/robot-state.h"
#include "kdelta/robot.h"
#include "kdelta/runner.h"
#include "kdelta/sequential.h"
#include "kdelta/util.h"

#include "robot-internal.h"

static int collect_batches(struct robot *r, struct kd_err *err);

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
 * replayed looks as bisect's, two-sided: seq_design_init()).
 */
static int judge(struct robot *r, const struct job *job,
		 const struct robot_test *t, const char *metric,
		 struct judged *j, struct kd_err *err)
{
	const char *commits[] = { t->base, t->head };
	struct seq_design d;
	struct tagged_runs rec[2];
	const struct tagged_runs *ptr[] = { &rec[0], &rec[1] };
	char *tag = test_tag(t);
	struct bisect_round *rounds = NULL;
	int ret = 0;

	seq_design_init(&d, r->cfg->max_runs, r->cfg->min_change,
			metric_is_percent(metric_catalogue_default(), metric));
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
	const char *worst = NULL, *missing;
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
	missing = ret ? NULL : comparison_missing_key_result(&cmp);
	if (missing) {
		char *verdict = xasprintf("key result %s: declared, but no run of base or head printed it",
					  missing);

		make_printable(verdict);
		r->res->failed++;
		ret = robot_test_done(r, t, ROBOT_OUTCOME_FAILED, verdict, err)
		      < 0 ? -1 : 1;
		free(verdict);
	}
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
	} else if (!ret && !open.len && !unknown.len) {
		ret = robot_test_done(r, t, ROBOT_OUTCOME_CLEAN,
				"clean: no regression of a workload result", err);
	} else if (!ret && (!open.len || last)) {
		struct strbuf verdict = STRBUF_INIT;

		strbuf_addf(&verdict, "undecided%s: %s; not bisected, not mailed",
			    open.len ? " at max-runs" : "",
			    open.len ? open.buf : unknown.buf);
		ret = robot_test_done(r, t, ROBOT_OUTCOME_UNDECIDED, verdict.buf,
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
		ret = robot_test_done(r, t, ROBOT_OUTCOME_FAILED, verdict, err) < 0
		      ? -1 : 1;
	free(verdict);
	measure_result_release(&mr);
	return ret;
}

/*
 * The most runs base or head has with the test's tag: a robot stopped
 * between the runs of a round (killed, or a test box rebooted into the
 * next commit's kernel) completes that round before it looks.
 */
static int most_runs(struct robot *r, const struct robot_test *t,
		     const struct job *job, unsigned *most, struct kd_err *err)
{
	const char *commits[] = { t->base, t->head };
	char *tag = test_tag(t);
	int ret = 0;

	*most = 0;
	for (size_t i = 0; i < 2 && r->rex.ex.host && !ret; i++) {
		char *dir = runner_commit_dir(job, r->cfg->result_root,
					      r->rex.ex.host, commits[i]);
		size_t ok, failed;

		ret = measure_count_runs(dir, tag, &ok, &failed, NULL, err);
		if (!ret && ok > *most)
			*most = ok > r->cfg->max_runs ? r->cfg->max_runs
						      : (unsigned)ok;
		free(dir);
	}
	free(tag);
	return ret;
}

/*
 * Measures base and head in rounds, --runs at first, then a round more
 * until every workload result is decided (sequential.h) or --max-runs.
 */
static int measure_test(struct robot *r, struct robot_test *t,
			const struct job *job, struct kd_err *err)
{
	unsigned runs = r->cfg->runs, most;
	bool decided = false;
	int ret = most_runs(r, t, job, &most, err);

	if (most > runs)
		runs = most;

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

/* Takes a test as far as it goes: measured, compared, bisected. */
static int take_test(struct robot *r, struct robot_test *t,
		     struct kd_err *err)
{
	const struct job *job = find_job(r->cfg, t->job);
	int ret = 0;

	if (!job)
		return robot_test_done(r, t, ROBOT_OUTCOME_FAILED,
				 "the job is not in the configuration any more",
				 err);
	if (!strcmp(t->state, ROBOT_TEST_MEASURE))
		ret = measure_test(r, t, job, err);
	if (!ret && !r->res->signal && !strcmp(t->state, ROBOT_TEST_BISECT) &&
	    !stopped(r))
		ret = robot_bisect_test(r, t, job, err);
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
	robot_recording_init(&r.rex, o->executor, o->state);
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
	/* The state lies in the result root: a write refused is the store's. */
	if (ret < 0 && robot_state_not_written(o->state))
		res->store_failed = true;
	return ret;
}
