// SPDX-License-Identifier: GPL-2.0
/*
 * kdelta bisect: bisect_search() (bisect-search.c) on this repository's
 * git bisect (git-bisect.c), the executor that checks each commit out,
 * builds it and runs the job on it (executor.c) and the store; then the
 * first bad commit is compared with its parent as kdelta compare compares.
 *
 * Every run goes into the store under the commit's full hash, tagged with
 * the look it belongs to, so a second bisection over the same commits (an
 * interrupted one, resumed) finds the runs already there and measures only
 * what is still undecided.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/bisect.h"
#include "kdelta/catalogue.h"
#include "kdelta/commit-dir.h"
#include "kdelta/compare-load.h"
#include "kdelta/executor.h"
#include "kdelta/git.h"
#include "kdelta/matrix.h"
#include "kdelta/metric-rules.h"
#include "kdelta/proc.h"
#include "kdelta/report.h"
#include "kdelta/resultdb.h"
#include "kdelta/runner.h"
#include "kdelta/sequential.h"
#include "kdelta/stats.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

/* Hashes in progress lines and messages: 12 digits, as robot mails have. */
#define SHORT "%.12s"

/* One bisection: what its steps share. */
struct bisect {
	const struct bisect_opts *o;
	struct bisect_result *res;
	struct git_bisect gb;
	bool started;		/* git bisect is under way */
	const char *good, *bad;	/* full hashes (gb's) */
	char *metric;
};

/* The store's directory of a commit's runs of the job. */
static char *commit_dir(struct bisect *b, const char *hash)
{
	return runner_commit_dir(b->o->job, b->o->result_root,
				 b->o->executor->host, hash);
}

static ssize_t matrix_row(const struct matrix *m, const char *metric)
{
	for (size_t i = 0; metric && i < m->nmetrics; i++)
		if (!strcmp(m->names[i], metric))
			return (ssize_t)i;
	return -1;
}

/* A commit directory's matrix; an empty one when nothing ran yet. */
static int load_matrix(const char *dir, struct matrix *m, struct kd_err *err)
{
	struct result_dir rd;
	struct commit_runs runs;
	int ret;

	memset(m, 0, sizeof(*m));
	if (!is_directory(dir))
		return 0;
	if (result_dir_from_path(dir, &rd, err) < 0)
		return -1;
	ret = result_dir_load(&rd, m, &runs, err);
	/* Only the matrix counts here. */
	commit_runs_release(&runs);
	result_dir_release(&rd);
	return ret;
}

/* The job's key result, when the good commit's results have it. */
static char *key_result(const char *dir, const struct matrix *m)
{
	char *metric = result_dir_key_result(dir);

	if (metric && matrix_row(m, metric) < 0) {
		free(metric);
		metric = NULL;
	}
	return metric;
}

static const char *nearest_name(const struct matrix *m, const char *name)
{
	struct nearest n = NEAREST_INIT(name);

	for (size_t i = 0; i < m->nmetrics; i++)
		nearest_offer(&n, m->names[i]);
	return n.best;
}

/*
 * Once the good commit has a complete run: --metric must be one of its
 * metrics; without it, the key result is chosen.
 */
static int choose_metric(struct bisect *b, struct kd_err *err)
{
	char *dir = commit_dir(b, b->good);
	struct matrix m;
	int ret = 0;

	if (load_matrix(dir, &m, err) < 0) {
		free(dir);
		return -1;
	}
	if (!m.nruns) {
		/* Not yet. */
	} else if (b->o->metric && matrix_row(&m, b->o->metric) < 0) {
		const char *near = nearest_name(&m, b->o->metric);

		ret = kd_error(err, "--metric %s: the job has no such metric%s%s%s",
			       b->o->metric, near ? "; did you mean '" : "",
			       near ? near : "", near ? "'?" : "");
	} else if (b->o->metric) {
		b->metric = xstrdup(b->o->metric);
	} else if (!(b->metric = key_result(dir, &m))) {
		ret = kd_error(err, "the job's workload printed no result in %s; name the metric to bisect with --metric",
			       dir);
	}
	matrix_release(&m);
	free(dir);
	return ret;
}

/* Rows of the workload's results and of the bisected metric. */
static bool result_or_metric(const struct metric_row *row, void *metric)
{
	return row->key || !strcmp(row->name, metric);
}

/*
 * "kdelta compare base hash" with kdelta compare's defaults and
 * --min-change; results_only keeps the workload's results and the metric.
 */
static int compare_commits(struct bisect *b, const char *base,
			   const char *hash, bool results_only,
			   struct comparison *cmp, struct compare_options *opt,
			   struct kd_err *err)
{
	char *dirs[2] = { commit_dir(b, base), commit_dir(b, hash) };
	int ret = compare_dirs((const char *const *)dirs, 2, b->o->repo,
			       metric_catalogue_default(), cmp, err);

	compare_options_init(opt);
	opt->min_change = b->o->min_change;
	opt->all = results_only;
	if (!ret && results_only)
		comparison_keep_rows(cmp, result_or_metric, b->metric);
	if (!ret)
		compare_decide(cmp, opt);
	free(dirs[0]);
	free(dirs[1]);
	return ret;
}

/*
 * The runs compare needs to decide (--runs, and at least 3): bisect may
 * have classified a commit with fewer, but the table of the first bad
 * commit and its base must show what the bisection found.
 */
static size_t table_runs(struct bisect *b)
{
	return b->o->runs > BISECT_MIN_REPRODUCE_RUNS
		? b->o->runs : BISECT_MIN_REPRODUCE_RUNS;
}

/* The executor's request for a bisect_env measure. */
static int env_measure(void *arg, const char *tag, const char *const *commits,
		       size_t n, unsigned runs, enum measure_outcome *outcome,
		       char **why, int *signal, struct kd_err *err)
{
	struct bisect *b = arg;
	struct measure_request req = {
		.job = b->o->job, .commits = commits, .n_commits = n,
		.runs = runs, .tag = tag,
	};
	struct measure_result mr;
	char *purpose = NULL;
	int ret;

	if (b->o->purpose)
		req.purpose = purpose = xasprintf("%s: %s to %u runs",
						  b->o->purpose,
						  tag ? tag : "untagged", runs);
	ret = executor_measure(b->o->executor, &req, &mr, err);
	if (mr.store_failed)
		b->res->store_failed = true;
	*signal = mr.signal;
	for (size_t i = 0; i < n; i++) {
		outcome[i] = mr.outcome[i];
		why[i] = mr.why[i];
		mr.why[i] = NULL;
	}
	measure_result_release(&mr);
	free(purpose);
	return ret;
}

static int env_records(void *arg, const char *commit, const char *tag,
		       struct tagged_runs *out, struct kd_err *err)
{
	struct bisect *b = arg;
	char *dir = commit_dir(b, commit);
	int ret = result_dir_tagged_runs(dir, tag, b->metric, out, err);

	free(dir);
	return ret;
}

/* git bisect's log of a stretch, kept before the search starts anew. */
static int keep_log(struct bisect *b, struct kd_err *err)
{
	if (!b->started)
		return 0;
	if (git_bisect_log(&b->gb, &b->res->log, err) < 0)
		return -1;
	strbuf_addch(&b->res->log, '\n');
	return 0;
}

static int env_start(void *arg, const char *good, const char *bad,
		     struct git_bisect_step *step, struct kd_err *err)
{
	struct bisect *b = arg;

	if (keep_log(b, err) < 0)
		return -1;
	b->started = true;
	return git_bisect_start(&b->gb, good, bad, step, err);
}

static int env_mark(void *arg, enum bisect_class verdict,
		    struct git_bisect_step *step, struct kd_err *err)
{
	struct bisect *b = arg;

	return git_bisect_mark(&b->gb, bisect_class_name(verdict), step, err);
}

static char *env_parent(void *arg, const char *commit)
{
	struct bisect *b = arg;
	char *spec = xasprintf("%s^", commit);
	char *parent = git_commit_hash(b->o->repo, spec);

	free(spec);
	return parent;
}

/*
 * A commit's subject as the log, the terminal and the robot's state show
 * it: a commit's author chose it, escape sequences and all.
 */
static char *env_subject(void *arg, const char *commit)
{
	struct bisect *b = arg;
	char *subject = git_commit_subject(b->o->repo, commit);

	if (!subject)
		return xstrdup("");
	make_printable(subject);
	return subject;
}

static int env_stopped(void *arg)
{
	struct bisect *b = arg;

	return proc_caught_signal(b->o->cancel_fd);
}

/*
 * The metric: --metric once the good commit has a complete run, else the
 * job's key result; good and bad get their first rounds for it (those of
 * the search's first look, which counts them).
 */
static int first_rounds(struct bisect *b, struct kd_err *err)
{
	const char *commits[] = { b->good, b->bad };
	char *tag = xasprintf("bisect " SHORT ".." SHORT, b->good, b->bad);
	enum measure_outcome outcome[2];
	char *why[2] = { NULL, NULL };
	int signal = 0;
	int ret = env_measure(b, tag, commits, 2, b->o->runs, outcome, why,
			      &signal, err);

	for (size_t i = 0; i < 2 && !ret && !signal; i++)
		if (outcome[i] == MEASURE_BUILD_FAILED ||
		    outcome[i] == MEASURE_RUN_FAILED)
			ret = kd_error(err, "%s commit " SHORT ": %s%s",
				       i ? "bad" : "good", commits[i],
				       outcome[i] == MEASURE_BUILD_FAILED
				       ? "the build failed: " : "",
				       why[i] ? why[i] : "");
	if (!ret && signal) {
		b->res->end = BISECT_STOPPED;
		b->res->signal = signal;
	}
	if (!ret && !signal)
		ret = choose_metric(b, err);
	free(why[0]);
	free(why[1]);
	free(tag);
	return ret;
}

/* A commit's complete runs, all tags, with the metric's values. */
static size_t stored_runs(struct bisect *b, const char *hash,
			  size_t *with_value, struct kd_err *err, int *ret)
{
	struct tagged_runs rr;
	size_t n;

	*ret = env_records(b, hash, NULL, &rr, err);
	n = rr.n;
	*with_value = 0;
	for (size_t i = 0; i < rr.n; i++)
		*with_value += isfinite(rr.at[i].value);
	tagged_runs_release(&rr);
	return n;
}

/*
 * The commit to compare the first bad one with, and the runs the table
 * needs: the parent and the first bad commit get table_runs() runs each,
 * interleaved, when they have fewer; the last good commit is the base
 * when the parent cannot be built or run.
 */
static int choose_base(struct bisect *b, struct kd_err *err)
{
	char *parent = env_parent(b, b->res->first_bad);
	const char *commits[2] = { parent, b->res->first_bad };
	enum measure_outcome outcome[2] = { MEASURE_OK, MEASURE_OK };
	char *why[2] = { NULL, NULL };
	size_t values[2];
	int ret = 0, signal = 0;

	if (!parent)
		commits[0] = b->res->last_good ? b->res->last_good : b->good;
	for (size_t i = 0; i < 2 && !ret; i++)
		stored_runs(b, commits[i], &values[i], err, &ret);
	if (!ret && (values[0] < table_runs(b) || values[1] < table_runs(b))) {
		fprintf(b->o->log, "bisect: measuring " SHORT " and " SHORT " for the table, to %zu runs each\n",
			commits[0], commits[1], table_runs(b));
		ret = env_measure(b, NULL, commits, 2, (unsigned)table_runs(b),
				  outcome, why, &signal, err);
	}
	if (!ret && signal) {
		b->res->end = BISECT_STOPPED;
		b->res->signal = signal;
	} else if (!ret && parent && outcome[0] != MEASURE_OK) {
		fprintf(b->o->log, "bisect: cannot measure the parent " SHORT " (%s); comparing the last good commit instead\n",
			parent, why[0] ? why[0] : "too few results");
		free(parent);
		parent = NULL;
		commits[0] = b->res->last_good ? b->res->last_good : b->good;
	}
	b->res->base_is_parent = parent != NULL;
	b->res->base = xstrdup(commits[0]);
	free(parent);
	free(why[0]);
	free(why[1]);
	return ret;
}

/* The subjects, git's log and the table of the first bad commit. */
static int finish(struct bisect *b, struct kd_err *err)
{
	struct bisect_result *res = b->res;

	if (keep_log(b, err) < 0)
		return -1;
	res->later_subjects = xcalloc(res->n_later ? res->n_later : 1,
				      sizeof(char *));
	for (size_t i = 0; i < res->n_later; i++)
		res->later_subjects[i] = env_subject(b, res->later[i]);
	if (res->end != BISECT_FOUND && res->end != BISECT_EARLIER_UNDECIDED)
		return 0;
	res->subject = env_subject(b, res->first_bad);
	if (choose_base(b, err) < 0)
		return -1;
	if (res->end == BISECT_STOPPED)
		return 0;
	return compare_commits(b, res->base, res->first_bad, false, &res->cmp,
			       &res->opt, err);
}

/* Once the repository is ready: the metric, the search, the table. */
static int bisect_all(struct bisect *b, struct kd_err *err)
{
	struct bisect_env env = {
		.arg = b, .measure = env_measure, .records = env_records,
		.start = env_start, .mark = env_mark, .parent = env_parent,
		.subject = env_subject, .stopped = env_stopped,
	};
	int ret = 0;

	if (!b->metric)
		ret = first_rounds(b, err);
	if (!ret && b->res->end != BISECT_STOPPED)
		ret = bisect_search(b->o, b->good, b->bad, b->metric, &env,
				    b->res, err);
	if (!ret && b->res->end == BISECT_NOT_REPRODUCIBLE)
		return compare_commits(b, b->good, b->bad, true, &b->res->cmp,
				       &b->res->opt, err);
	if (!ret && b->res->end != BISECT_STOPPED)
		ret = finish(b, err);
	return ret;
}

/*
 * An executor that learns the host its runs go under by measuring (the
 * local one booting kernels, before it knows whether KVM works here) is
 * asked for none of good's and bad's runs first: that builds and probes.
 */
static int learn_host(const struct bisect_opts *opts,
		      struct bisect_result *res, struct kd_err *err)
{
	/* As full hashes, as every build and run of a bisection names them. */
	char *good = git_commit_hash(opts->repo, opts->good);
	char *bad = git_commit_hash(opts->repo, opts->bad);
	const char *commits[] = { good, bad };
	struct measure_request req = {
		.job = opts->job, .commits = commits, .n_commits = 2, .runs = 0,
	};
	struct measure_result mres;
	int ret;

	if (!good || !bad) {
		ret = kd_error(err, "%s %s: no such commit in %s",
			       good ? "--bad" : "--good",
			       good ? opts->bad : opts->good, opts->repo);
		free(good);
		free(bad);
		return kd_err_kind(err, KD_EXIT_USAGE);
	}
	ret = executor_measure(opts->executor, &req, &mres, err);

	if (ret == 0 && mres.signal) {
		res->signal = mres.signal;
		res->end = BISECT_STOPPED;
	}
	for (size_t i = 0; i < 2 && ret == 0 && !opts->executor->host; i++)
		if (mres.outcome[i] == MEASURE_BUILD_FAILED)
			ret = kd_error(err, "%s %s does not build: %s",
				       i ? "--bad" : "--good", commits[i],
				       mres.why[i]);
	measure_result_release(&mres);
	free(good);
	free(bad);
	return ret;
}

int bisect_run(const struct bisect_opts *opts, struct bisect_result *res,
	       struct kd_err *err)
{
	struct bisect b = { .o = opts, .res = res };
	int ret;

	memset(res, 0, sizeof(*res));
	strbuf_init(&res->log);
	/*
	 * The repository is opened first: where it was is recorded before
	 * any build moves it, and it goes back there whatever follows.
	 */
	ret = git_bisect_open(&b.gb, opts->repo, opts->good, opts->bad,
			      opts->log, err);
	if (!ret && !opts->executor->host)
		ret = learn_host(opts, res, err);
	if (!ret && res->end != BISECT_STOPPED && !opts->executor->host)
		ret = kd_error(err, "bisect: the %s executor does not know where the runs are stored yet",
			       opts->executor->name);
	if (!ret && res->end != BISECT_STOPPED) {
		b.good = b.gb.good;
		b.bad = b.gb.bad;
		res->good = xstrdup(b.good);
		res->bad = xstrdup(b.bad);
		ret = bisect_all(&b, err);
	}
	if (b.gb.marked) {
		struct kd_err first = *err, restore_err;

		if (git_bisect_close(&b.gb, &restore_err) < 0) {
			if (ret < 0)
				kd_error(err, "%s (and putting the repository back failed too: %s)",
					 first.msg, restore_err.msg);
			else
				*err = restore_err;
			ret = -1;
		}
	} else {
		git_bisect_close(&b.gb, err);
	}
	res->metric = b.metric;
	return ret;
}

const char *bisect_end_name(enum bisect_end end)
{
	static const char *const names[] = {
		[BISECT_FOUND] = "found", [BISECT_RANGE] = "range",
		[BISECT_NOT_REPRODUCIBLE] = "not reproducible",
		[BISECT_EARLIER_UNDECIDED] = "undecided", [BISECT_STOPPED] = "stopped",
	};

	return names[end];
}

void bisect_result_release(struct bisect_result *res)
{
	free(res->metric);
	free(res->good);
	free(res->bad);
	free(res->first_bad);
	free(res->subject);
	free(res->base);
	for (size_t i = 0; i < res->n_candidates; i++) {
		free(res->candidates[i]);
		free(res->candidate_subjects[i]);
	}
	free(res->candidates);
	free(res->candidate_subjects);
	for (size_t i = 0; i < res->n_later; i++) {
		free(res->later[i]);
		if (res->later_subjects)
			free(res->later_subjects[i]);
	}
	free(res->later);
	free(res->later_subjects);
	free(res->last_good);
	free(res->earlier_commit);
	comparison_release(&res->cmp);
	strbuf_release(&res->log);
	memset(res, 0, sizeof(*res));
}

/* Rows other than the workload's results, and the bisected one. */
static bool not_other_result(const struct metric_row *row, void *metric)
{
	return !row->key || !strcmp(row->name, metric);
}

int bisect_report_write(struct bisect_result *res,
			const struct bisect_opts *opts, const char *build,
			const char *install, const char *repo_shown,
			struct report_options *ro, struct strbuf *out,
			struct kd_err *err)
{
	static const char *const labels[] = { "bisect-good", "bisect-bad" };
	const struct comparison *cmps[] = { &res->cmp };
	/* A build of kernels is no --setup: the runs were in guests. */
	char *setup = executor_builds_kernels(build) ? NULL :
		      measure_setup_command(repo_shown ? repo_shown : opts->repo,
					    build, install);
	int ret;

	ro->compare = &res->opt;
	ro->sample_labels = labels;
	ro->job_file = opts->job->source;
	ro->setup = setup;
	ro->always = true;
	comparison_keep_rows(&res->cmp, not_other_result, res->metric);
	ret = report_write(ro, cmps, 1, out, err);
	ro->setup = NULL;
	free(setup);
	return ret;
}
