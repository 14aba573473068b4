// SPDX-License-Identifier: GPL-2.0
/* Adding rounds until every workload result is decided; see run-decide.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/catalogue.h"
#include "kdelta/metric-rules.h"
#include "kdelta/run-decide.h"
#include "kdelta/util.h"

/* The values of one workload result of one job and commit. */
struct series {
	double *values;
	size_t n, alloc;
};

/* One workload result of one job: its series per commit, its looks. */
struct result {
	char *metric;
	struct series *commits;		/* [n_commits] */
	struct seq_look **looks;	/* [n_commits]: against the base */
	size_t *n_looks, *looks_alloc;
	enum seq_verdict *verdict;	/* [n_commits]: at the latest look */
};

struct job_results {
	struct result *results;
	size_t n, alloc;
};

struct run_decider {
	struct seq_design design;
	size_t n_jobs, n_commits;
	struct job_results *jobs;
};

struct run_decider *run_decider_new(size_t n_jobs, size_t n_commits,
				    const struct seq_design *design)
{
	struct run_decider *d = xcalloc(1, sizeof(*d));

	d->design = *design;
	d->n_jobs = n_jobs;
	d->n_commits = n_commits;
	d->jobs = xcalloc(n_jobs ? n_jobs : 1, sizeof(*d->jobs));
	return d;
}

static void result_release(struct result *r, size_t n_commits)
{
	for (size_t c = 0; c < n_commits; c++) {
		free(r->commits[c].values);
		free(r->looks[c]);
	}
	free(r->commits);
	free(r->looks);
	free(r->n_looks);
	free(r->looks_alloc);
	free(r->verdict);
	free(r->metric);
}

void run_decider_free(struct run_decider *d)
{
	if (!d)
		return;
	for (size_t j = 0; j < d->n_jobs; j++) {
		for (size_t i = 0; i < d->jobs[j].n; i++)
			result_release(&d->jobs[j].results[i], d->n_commits);
		free(d->jobs[j].results);
	}
	free(d->jobs);
	free(d);
}

static struct result *find_result(struct run_decider *d, size_t job,
				  const char *metric)
{
	struct job_results *jr = &d->jobs[job];
	struct result *r;
	size_t n = d->n_commits;

	for (size_t i = 0; i < jr->n; i++)
		if (!strcmp(jr->results[i].metric, metric))
			return &jr->results[i];
	ALLOC_GROW(jr->results, jr->n + 1, jr->alloc);
	r = &jr->results[jr->n++];
	*r = (struct result){
		.metric = xstrdup(metric),
		.commits = xcalloc(n, sizeof(*r->commits)),
		.looks = xcalloc(n, sizeof(*r->looks)),
		.n_looks = xcalloc(n, sizeof(*r->n_looks)),
		.looks_alloc = xcalloc(n, sizeof(*r->looks_alloc)),
		.verdict = xcalloc(n, sizeof(*r->verdict)),
	};
	return r;
}

void run_decider_add(struct run_decider *d, size_t job, size_t commit,
		     const char *metric, double value)
{
	struct series *s;

	if (job >= d->n_jobs || commit >= d->n_commits || !isfinite(value))
		return;
	s = &find_result(d, job, metric)->commits[commit];
	ALLOC_GROW(s->values, s->n + 1, s->alloc);
	s->values[s->n++] = value;
}

/* A look at one result of a commit against the base; its verdict. */
static enum seq_verdict look(const struct run_decider *d, struct result *r,
			     size_t c, struct seq_result *out)
{
	const struct series *a = &r->commits[0], *b = &r->commits[c];
	struct seq_design design = d->design;

	design.points = metric_is_percent(metric_catalogue_default(), r->metric);
	ALLOC_GROW(r->looks[c], r->n_looks[c] + 1, r->looks_alloc[c]);
	r->looks[c][r->n_looks[c]++] = (struct seq_look){
		.base_runs = a->n, .runs = b->n,
	};
	if (seq_decide(&design, r->looks[c], r->n_looks[c], a->values, a->n,
		       b->values, b->n, out) < 0)
		out->verdict = SEQ_CONTINUE;
	r->verdict[c] = out->verdict;
	return out->verdict;
}

static void describe(struct strbuf *sb, const char *job, const char *commit,
		     const char *metric, const struct seq_result *res)
{
	const struct change_interval *ci = &res->ci;

	if (sb->len)
		strbuf_addstr(sb, "; ");
	strbuf_addf(sb, "%s/%s %s", job, commit, metric);
	if (isfinite(ci->estimate))
		strbuf_addf(sb, " %+.1f%%", ci->estimate);
	if (ci->bounded)	/* not compare's interval: SIGNIFICANCE */
		strbuf_addf(sb, " (repeated 95%% CI %+.1f%% … %+.1f%%)",
			    ci->low, ci->high);
	else	/* the first looks spend almost none of the 5% */
		strbuf_addstr(sb, " (repeated 95% CI unbounded: too few runs yet for this look's level)");
}

/* A commit of the job without any result: its runs fail. */
static const char *commit_without_results(const struct run_decider *d,
					  size_t job,
					  const char *const *commits)
{
	const struct job_results *jr = &d->jobs[job];

	for (size_t c = 0; c < d->n_commits; c++) {
		size_t n = 0;

		for (size_t i = 0; i < jr->n; i++)
			n += jr->results[i].commits[c].n;
		if (!n)
			return commits[c];
	}
	return NULL;
}

/*
 * Looks at one job; whether it needs another round: not when it had
 * max_runs, whatever the looks say (runs failed on one side).
 */
static bool look_at_job(struct run_decider *d, size_t j, const char *name,
			const char *const *commits, unsigned runs,
			struct run_decider_news *news)
{
	struct job_results *jr = &d->jobs[j];
	const char *failing = commit_without_results(d, j, commits);
	bool more = false, last = runs >= d->design.max_runs;

	if (failing) {
		if (news->failing.len)
			strbuf_addstr(&news->failing, "; ");
		strbuf_addf(&news->failing, "%s/%s: no run gave a result", name,
			    failing);
		return false;
	}
	for (size_t i = 0; i < jr->n; i++) {
		struct result *r = &jr->results[i];

		for (size_t c = 1; c < d->n_commits; c++) {
			struct seq_result res;

			switch (look(d, r, c, &res)) {
			case SEQ_CONTINUE:
				if (last) {
					r->verdict[c] = SEQ_UNDECIDED;
				} else {
					describe(&news->undecided, name,
						 commits[c], r->metric, &res);
					more = true;
					break;
				}
				/* fall through */
			case SEQ_UNDECIDED:
				describe(&news->final, name, commits[c],
					 r->metric, &res);
				break;
			default:
				break;
			}
		}
	}
	return more;
}

size_t run_decider_look(struct run_decider *d, const char *const *job_names,
			const char *const *commits, const unsigned *runs,
			const bool *looked, bool *more,
			struct run_decider_news *news)
{
	size_t n = 0;

	for (size_t j = 0; j < d->n_jobs; j++) {
		more[j] = looked[j] && look_at_job(d, j, job_names[j], commits,
						   runs[j], news);
		n += more[j];
	}
	return n;
}

void run_decider_count(const struct run_decider *d, size_t counts[4])
{
	memset(counts, 0, 4 * sizeof(*counts));
	for (size_t j = 0; j < d->n_jobs; j++)
		for (size_t i = 0; i < d->jobs[j].n; i++)
			for (size_t c = 1; c < d->n_commits; c++)
				counts[d->jobs[j].results[i].verdict[c]]++;
}
