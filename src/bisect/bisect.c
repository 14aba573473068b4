// SPDX-License-Identifier: GPL-2.0
/*
 * kdelta bisect: "git bisect" decides which commit to test next
 * (git-bisect.c); an executor checks it out, builds it and runs the job on
 * it (executor.c), run after run until its samples are shown to lie
 * closer to the good or to the bad commit's (bisect-classify.c, a
 * sequential test); git is told, and at the end the first bad commit is compared with its parent as
 * kdelta compare compares.
 *
 * Every run goes into the store under the commit's full hash, so a second
 * bisection over the same commits (an interrupted one, resumed) counts the
 * runs already there and measures only what is still undecided.  Builds are
 * never trusted across runs: each measurement checks its commit out and
 * builds it first, so that the job always runs the program of that commit.
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
	const char *good, *bad;	/* full hashes (gb's) */
	char *last_good;	/* the last commit found good */
	char *metric;
	struct seq_look *looks;	/* at good against bad, so far */
	size_t nlooks, alloc_looks;
};

/* The store's directory of a commit's runs of the job. */
static char *commit_dir(struct bisect *b, const char *hash)
{
	return runner_commit_dir(b->o->job, b->o->result_root,
				 b->o->executor->host, hash);
}

static void samples_release(struct bisect_samples *s)
{
	free(s->x);
	memset(s, 0, sizeof(*s));
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

/* A commit's complete "ok" runs, and their values of the metric. */
static int load_samples(struct bisect *b, const char *hash,
			struct bisect_samples *s, struct kd_err *err)
{
	char *dir = commit_dir(b, hash);
	struct matrix m;
	ssize_t row;

	memset(s, 0, sizeof(*s));
	if (load_matrix(dir, &m, err) < 0) {
		free(dir);
		return -1;
	}
	s->runs = m.nruns;
	row = matrix_row(&m, b->metric);
	s->x = xcalloc(m.nruns ? m.nruns : 1, sizeof(*s->x));
	for (size_t r = 0; row >= 0 && r < m.nruns; r++) {
		double value = m.values[(size_t)row * m.nruns + r];

		if (!isnan(value))
			s->x[s->n++] = value;
	}
	matrix_release(&m);
	free(dir);
	return 0;
}

/* The mean, for progress lines. */
static double samples_mean(const struct bisect_samples *s)
{
	struct sample_summary sum;

	summarize(s->x, s->n, &sum);
	return sum.mean;
}

/*
 * One more run of a commit that has runs complete runs: the executor
 * checks it out, builds it and runs the job.  -1 only for errors that end
 * the bisection; a failed build or run is an outcome, with why.
 */
static int run_once(struct bisect *b, const char *hash, size_t runs,
		    enum measure_outcome *outcome, struct strbuf *why,
		    struct kd_err *err)
{
	const char *commits[] = { hash };
	struct measure_request req = {
		.job = b->o->job, .commits = commits, .n_commits = 1,
		.runs = (unsigned)runs + 1,
	};
	struct measure_result mr;
	char *purpose = NULL;
	int ret;

	if (b->o->purpose)
		req.purpose = purpose = xasprintf("%s: %s to %u runs",
						  b->o->purpose, hash, req.runs);
	strbuf_reset(why);
	ret = executor_measure(b->o->executor, &req, &mr, err);
	if (mr.store_failed)
		b->res->store_failed = true;
	*outcome = mr.signal ? MEASURE_NOT_RUN : mr.outcome[0];
	if (mr.why[0])
		strbuf_addstr(why, mr.why[0]);
	measure_result_release(&mr);
	free(purpose);
	return ret;
}

/* The job's key result, when the good commit's results have it. */
static char *key_result(const char *dir, const struct matrix *m)
{
	char *metric = store_key_result(dir);

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

/* " (-50.1%, interval -51.0% to -49.2%)": the change and its interval. */
static void add_interval(struct strbuf *line, const struct change_interval *ci,
			 bool points)
{
	const char *unit = points ? " points" : "%";

	if (!isfinite(ci->estimate))
		return;
	strbuf_addf(line, " (%+.1f%s", ci->estimate, unit);
	if (ci->bounded)
		strbuf_addf(line, ", interval %+.1f%s to %+.1f%s", ci->low,
			    unit, ci->high, unit);
	strbuf_addch(line, ')');
}

/*
 * Whether good and bad differ in the metric: one look of a sequential
 * design (sequential.h) at their samples so far, so that looking again
 * after every run calls a difference no more often than
 * BISECT_REPRODUCE_ALPHA.  *decided once they differ, are shown the same
 * (within --min-change), or are at their last look (last: both have
 * --max-runs); when they do not differ, kdelta compare's table of the two
 * goes into the result.
 */
static int reproduced(struct bisect *b, const struct bisect_samples *g,
		      const struct bisect_samples *s, bool last,
		      bool *decided, bool *yes, struct kd_err *err)
{
	struct seq_design d = {
		.spending = SEQ_OBRIEN_FLEMING, .alpha = BISECT_REPRODUCE_ALPHA,
		.max_runs = b->o->max_runs, .min_change = b->o->min_change,
		.points = metric_is_percent(metric_catalogue_default(),
					    b->metric),
	};
	struct strbuf line = STRBUF_INIT;
	struct seq_result sr;

	ALLOC_GROW(b->looks, b->nlooks + 1, b->alloc_looks);
	b->looks[b->nlooks++] = (struct seq_look){ g->n, s->n };
	if (seq_decide(&d, b->looks, b->nlooks, g->x, g->n, s->x, s->n,
		       &sr) < 0)
		sr.verdict = SEQ_CONTINUE;
	*yes = sr.verdict == SEQ_CHANGED;
	*decided = sr.verdict != SEQ_CONTINUE || last;
	if (!*decided)
		return 0;
	strbuf_addf(&line, "bisect: good " SHORT ", bad " SHORT ": %zu and %zu runs, %s %.6g and %.6g",
		    b->good, b->bad, g->n, s->n, b->metric, samples_mean(g),
		    samples_mean(s));
	add_interval(&line, &sr.ci, d.points);
	fprintf(b->o->log, "%s → %s\n", line.buf,
		*yes ? "they differ" : "not reproducible");
	strbuf_release(&line);
	if (*yes)
		return 0;
	return compare_commits(b, b->good, b->bad, true, &b->res->cmp,
			       &b->res->opt, err);
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

static bool stopped(struct bisect *b)
{
	int sig = proc_caught_signal(b->o->cancel_fd);

	if (sig) {
		b->res->end = BISECT_STOPPED;
		b->res->signal = sig;
	}
	return sig != 0;
}

/* good or bad could not be measured: there is nothing to bisect against. */
static int end_failed(const char *which, const char *hash,
		      enum measure_outcome outcome, const struct strbuf *why,
		      struct kd_err *err)
{
	return kd_error(err, "%s commit " SHORT ": %s%s", which, hash,
			outcome == MEASURE_BUILD_FAILED ? "the build failed: " : "",
			why->buf);
}

/* One more run of good or bad; failing to measure them ends it all. */
static int run_end(struct bisect *b, const char *hash, size_t runs,
		   enum measure_outcome *outcome, struct kd_err *err)
{
	struct strbuf why = STRBUF_INIT;
	int ret = run_once(b, hash, runs, outcome, &why, err);

	if (!ret && *outcome != MEASURE_OK && *outcome != MEASURE_NOT_RUN)
		ret = end_failed(hash == b->good ? "good" : "bad", hash,
				 *outcome, &why, err);
	strbuf_release(&why);
	return ret;
}

/*
 * Step 1: runs good and bad in turn (the one with fewer runs first), from
 * --runs runs (and 3) each on looking after every run, until the metric
 * differs, is shown the same, or both have --max-runs.  *differ says which.
 */
static int show_difference(struct bisect *b, bool *differ, struct kd_err *err)
{
	unsigned need = (unsigned)table_runs(b);
	int ret = 0;

	*differ = false;
	while (!ret && !stopped(b)) {
		struct bisect_samples g, s;
		enum measure_outcome outcome;
		const char *next;
		size_t runs;
		bool last, decided = false;

		if ((!b->metric && choose_metric(b, err) < 0) ||
		    load_samples(b, b->good, &g, err) < 0) {
			ret = -1;
			break;
		}
		if (load_samples(b, b->bad, &s, err) < 0) {
			samples_release(&g);
			ret = -1;
			break;
		}
		last = g.runs >= b->o->max_runs && s.runs >= b->o->max_runs;
		if (b->metric && ((g.n >= need && s.n >= need) || last))
			ret = reproduced(b, &g, &s, last, &decided, differ,
					 err);
		next = g.runs <= s.runs ? b->good : b->bad;
		if ((next == b->good ? g.runs : s.runs) >= b->o->max_runs)
			next = next == b->good ? b->bad : b->good;
		runs = next == b->good ? g.runs : s.runs;
		samples_release(&g);
		samples_release(&s);
		if (ret < 0 || decided || last)
			break;
		ret = run_end(b, next, runs, &outcome, err);
	}
	if (!ret && !*differ && !stopped(b))
		b->res->end = BISECT_NOT_REPRODUCIBLE;
	return ret;
}

/* One more run of good or bad for a classification, reloaded. */
static int add_end_run(struct bisect *b, const char *hash,
		       struct bisect_samples *end, size_t *added,
		       struct kd_err *err)
{
	enum measure_outcome outcome;

	if (run_end(b, hash, end->runs, &outcome, err) < 0)
		return -1;
	if (outcome != MEASURE_OK)
		return 0;
	++*added;
	samples_release(end);
	return load_samples(b, hash, end, err);
}

/* ", 4% of the way from good to bad (interval -9% to 17%)" */
static void describe_position(const struct bisect_classification *c,
			      struct strbuf *line)
{
	if (!isfinite(c->position))
		return;
	strbuf_addf(line, ", %.0f%% of the way from good to bad",
		    100 * c->position);
	if (isfinite(c->low) && isfinite(c->high))
		strbuf_addf(line, " (interval %.0f%% to %.0f%%)",
			    100 * c->low, 100 * c->high);
}

/*
 * "3 runs (3 new), exec.ops_per_sec 292261, 98% of the way from good to
 * bad (interval 71% to 125%), 1 more of good".
 */
static void describe_runs(struct bisect *b, const struct bisect_samples *x,
			  size_t stored, const struct bisect_classification *c,
			  const size_t *more, const struct strbuf *why,
			  struct strbuf *line)
{
	strbuf_addf(line, "%zu runs (%zu new), %s %.6g", x->runs,
		    x->runs - stored, b->metric, samples_mean(x));
	describe_position(c, line);
	if (more[0])
		strbuf_addf(line, ", %zu more of good", more[0]);
	if (more[1])
		strbuf_addf(line, ", %zu more of bad", more[1]);
	if (why->len)
		strbuf_addf(line, ", %s", why->buf);
}

/*
 * Step 2, one commit: adds runs (see bisect_next_run()) and looks again
 * after each, from --runs runs on, until it is classified
 * (bisect_classify()); undecided when nothing can be added any more, or
 * when it cannot be built or run: skip.
 */
static int test_commit(struct bisect *b, struct bisect_samples *g,
		       struct bisect_samples *s, const char *hash,
		       enum bisect_class *verdict, struct strbuf *line,
		       struct kd_err *err)
{
	struct bisect_classification c = { .verdict = BISECT_UNDECIDED,
					   .position = NAN };
	struct strbuf why = STRBUF_INIT;
	enum measure_outcome outcome = MEASURE_OK;
	size_t stored, more[2] = { 0, 0 }, nlooks = 0, alloc_looks = 0;
	struct bisect_look *looks = NULL;
	struct bisect_samples x;
	int ret = load_samples(b, hash, &x, err);

	stored = x.runs;
	while (!ret && outcome == MEASURE_OK && !stopped(b)) {
		enum bisect_next next = bisect_next_run(g, s, &x, b->o->runs,
							b->o->max_runs);

		if (x.n >= b->o->runs || next == BISECT_NEXT_NONE) {
			ALLOC_GROW(looks, nlooks + 1, alloc_looks);
			looks[nlooks++] = (struct bisect_look){ g->n, s->n,
								x.n };
			bisect_classify(looks, nlooks, b->o->max_runs,
					next == BISECT_NEXT_NONE, g, s, &x, &c);
			if (c.verdict != BISECT_UNDECIDED)
				break;
		}
		if (next == BISECT_NEXT_NONE) {
			strbuf_addstr(&why, "undecided at --max-runs");
			break;
		}
		if (next == BISECT_NEXT_GOOD) {
			ret = add_end_run(b, b->good, g, &more[0], err);
			continue;
		}
		if (next == BISECT_NEXT_BAD) {
			ret = add_end_run(b, b->bad, s, &more[1], err);
			continue;
		}
		ret = run_once(b, hash, x.runs, &outcome, &why, err);
		samples_release(&x);
		if (!ret)
			ret = load_samples(b, hash, &x, err);
	}
	*verdict = c.verdict;
	if (!ret && outcome == MEASURE_BUILD_FAILED)
		strbuf_addf(line, "build failed (%s)", why.buf);
	else if (!ret && outcome == MEASURE_RUN_FAILED)
		strbuf_addf(line, "%s", why.buf);
	else if (!ret)
		describe_runs(b, &x, stored, &c, more, &why, line);
	free(looks);
	samples_release(&x);
	strbuf_release(&why);
	return ret;
}

static void print_testing(struct bisect *b, const struct git_bisect_step *step,
			  const struct strbuf *line, enum bisect_class verdict)
{
	fprintf(b->o->log, "bisect: testing " SHORT, step->commit);
	if (step->steps_left >= 0)
		fprintf(b->o->log, " (%d step%s left)", step->steps_left,
			step->steps_left == 1 ? "" : "s");
	fprintf(b->o->log, ": %s → %s\n", line->buf,
		bisect_class_name(verdict));
	fflush(b->o->log);
	if (b->o->on_step) {
		struct bisect_step_info info = {
			.commit = step->commit, .verdict = verdict,
			.said = line->buf,
		};

		b->o->on_step(b->o->on_step_arg, &info);
	}
}

/* Step 2: git bisect start, then good/bad/skip until git is done. */
static int bisect_steps(struct bisect *b, struct bisect_samples *g,
			struct bisect_samples *s, struct git_bisect_step *step,
			struct kd_err *err)
{
	struct strbuf line = STRBUF_INIT;
	int ret = git_bisect_start(&b->gb, step, err);

	while (!ret && step->state == GIT_BISECT_NEXT && !stopped(b)) {
		enum bisect_class verdict;

		strbuf_reset(&line);
		ret = test_commit(b, g, s, step->commit, &verdict, &line, err);
		if (ret < 0 || b->res->end == BISECT_STOPPED || stopped(b))
			break;
		print_testing(b, step, &line, verdict);
		if (verdict == BISECT_GOOD) {
			free(b->last_good);
			b->last_good = xstrdup(step->commit);
		}
		ret = git_bisect_mark(&b->gb, bisect_class_name(verdict), step,
				      err);
	}
	strbuf_release(&line);
	return ret;
}

/*
 * Adds runs of hash until it has table_runs() results of the metric (or
 * --max-runs runs, or a run fails), saying so on the log when it ran any.
 */
static int measure_for_table(struct bisect *b, const char *hash,
			     const char *what, struct bisect_samples *x,
			     enum measure_outcome *outcome, struct strbuf *why,
			     struct kd_err *err)
{
	size_t stored;
	int ret = load_samples(b, hash, x, err);

	*outcome = MEASURE_OK;
	if (ret < 0)
		return -1;
	stored = x->runs;
	while (!ret && x->n < table_runs(b) && x->runs < b->o->max_runs &&
	       *outcome == MEASURE_OK) {
		ret = run_once(b, hash, x->runs, outcome, why, err);
		samples_release(x);
		if (!ret)
			ret = load_samples(b, hash, x, err);
	}
	if (!ret && *outcome == MEASURE_NOT_RUN)
		stopped(b);
	else if (!ret && x->runs > stored)
		fprintf(b->o->log, "bisect: measured " SHORT ", %s: %zu runs, %s %.6g\n",
			hash, what, x->runs, b->metric, samples_mean(x));
	return ret;
}

/*
 * The commit to compare the first bad one with: its parent, measured to
 * table_runs() runs; the last good commit when the parent cannot be built
 * or run.  The first bad commit gets table_runs() runs too.
 */
static int choose_base(struct bisect *b, struct kd_err *err)
{
	char *spec = xasprintf("%s^", b->res->first_bad);
	char *parent = git_commit_hash(b->o->repo, spec);
	struct strbuf why = STRBUF_INIT;
	enum measure_outcome outcome = MEASURE_OK;
	struct bisect_samples x = { 0 };
	int ret = 0;

	free(spec);
	if (parent)
		ret = measure_for_table(b, parent,
					"the parent of the first bad commit",
					&x, &outcome, &why, err);
	if (!ret && parent && outcome != MEASURE_NOT_RUN &&
	    (outcome != MEASURE_OK || x.n < b->o->runs)) {
		fprintf(b->o->log, "bisect: cannot measure the parent " SHORT " (%s); comparing the last good commit instead\n",
			parent, why.len ? why.buf : "too few results");
		free(parent);
		parent = NULL;
	}
	b->res->base_is_parent = parent != NULL;
	b->res->base = parent ? parent
		: xstrdup(b->last_good ? b->last_good : b->good);
	samples_release(&x);
	if (!ret && !parent && b->res->end != BISECT_STOPPED)
		ret = measure_for_table(b, b->res->base, "the last good commit",
					&x, &outcome, &why, err);
	samples_release(&x);
	if (!ret && b->res->end != BISECT_STOPPED)
		ret = measure_for_table(b, b->res->first_bad,
					"the first bad commit", &x, &outcome,
					&why, err);
	samples_release(&x);
	strbuf_release(&why);
	return ret;
}

/*
 * A commit's subject as the log, the terminal and the robot's state show
 * it: a commit's author chose it, escape sequences and all.
 */
static char *subject_of(struct bisect *b, const char *hash)
{
	char *subject = git_commit_subject(b->o->repo, hash);

	if (!subject)
		return xstrdup("");
	make_printable(subject);
	return subject;
}

/* Step 3: the first bad commit's subject, its table, git's log. */
static int finish(struct bisect *b, const struct git_bisect_step *step,
		  struct kd_err *err)
{
	if (step->state == GIT_BISECT_ONLY_SKIPPED) {
		size_t n = step->n_candidates;

		b->res->end = BISECT_RANGE;
		b->res->candidates = xcalloc(n, sizeof(char *));
		b->res->candidate_subjects = xcalloc(n, sizeof(char *));
		for (size_t i = 0; i < n; i++) {
			b->res->candidates[i] = xstrdup(step->candidates[i]);
			b->res->candidate_subjects[i] =
				subject_of(b, step->candidates[i]);
		}
		b->res->n_candidates = n;
	} else {
		b->res->end = BISECT_FOUND;
		b->res->first_bad = xstrdup(step->commit);
		b->res->subject = subject_of(b, step->commit);
	}
	if (git_bisect_log(&b->gb, &b->res->log, err) < 0)
		return -1;
	strbuf_addch(&b->res->log, '\n');
	if (b->res->end != BISECT_FOUND)
		return 0;
	if (choose_base(b, err) < 0)
		return -1;
	if (b->res->end == BISECT_STOPPED)
		return 0;
	return compare_commits(b, b->res->base, b->res->first_bad, false,
			       &b->res->cmp, &b->res->opt, err);
}

/* Steps 1 to 3, once the repository is ready. */
static int bisect_all(struct bisect *b, struct kd_err *err)
{
	struct git_bisect_step step = { 0 };
	struct bisect_samples g = { 0 }, s = { 0 };
	bool differ;
	int ret = show_difference(b, &differ, err);

	if (!ret && differ && (ret = load_samples(b, b->good, &g, err)) == 0 &&
	    (ret = load_samples(b, b->bad, &s, err)) == 0)
		ret = bisect_steps(b, &g, &s, &step, err);
	if (!ret && differ && b->res->end != BISECT_STOPPED && !stopped(b))
		ret = finish(b, &step, err);
	git_bisect_step_release(&step);
	samples_release(&g);
	samples_release(&s);
	return ret;
}

int bisect_run(const struct bisect_opts *opts, struct bisect_result *res,
	       bool *usage, struct kd_err *err)
{
	struct bisect b = { .o = opts, .res = res };
	int ret;

	memset(res, 0, sizeof(*res));
	strbuf_init(&res->log);
	*usage = false;
	if (!opts->executor->host)
		return kd_error(err, "bisect: the %s executor does not know where the runs are stored yet",
				opts->executor->name);
	ret = git_bisect_open(&b.gb, opts->repo, opts->good, opts->bad,
			      opts->log, usage, err);
	if (!ret) {
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
	free(b.last_good);
	free(b.looks);
	return ret;
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
			struct report_options *ro, struct strbuf *out,
			struct kd_err *err)
{
	static const char *const labels[] = { "bisect-good", "bisect-bad" };
	const struct comparison *cmps[] = { &res->cmp };
	char *setup = measure_setup_command(opts->repo, build);
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
