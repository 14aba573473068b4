// SPDX-License-Identifier: GPL-2.0
/*
 * The search of a bisection (bisect_search(), bisect.h), on whatever
 * measures and whatever chooses the commits (struct bisect_env): kdelta
 * bisect's git and executor, or a simulation's model.
 *
 *   1. good and bad, in rounds, until they are shown to differ (the
 *      direction of the change is bad's) or not;
 *   2. git bisect proposes commits; each is measured in rounds with good
 *      and bad, and classified (bisect_classify()) or skipped;
 *   3. git names a first bad commit F: when F's parent P is not good,
 *      good and P are compared in rounds as in step 1, one-sided: did P
 *      move from good towards bad by --min-change or more?  When it did,
 *      a commit before F changed the metric too: the search starts again
 *      between good and P, F being a later change.  When it is shown not
 *      to have, F is the first bad commit; when that cannot be told, the
 *      end is undecided (BISECT_EARLIER_UNDECIDED).
 *
 * Every request is tagged ("bisect <good>..<bad>[ <commit>]"), so the
 * runs of a look are found again, and the looks are made again from them:
 * a search resumed after an interruption, or repeated from another
 * machine's runs, reaches the same verdicts without measuring again.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/bisect.h"
#include "kdelta/catalogue.h"
#include "kdelta/metric-rules.h"
#include "kdelta/stats.h"
#include "kdelta/util.h"

#define SHORT "%.12s"

struct search {
	const struct bisect_opts *o;
	const struct bisect_env *env;
	struct bisect_result *res;
	const char *good;
	char *bad;		/* of the current stretch */
	const char *metric;
	bool points;
	int direction;
};

static void say(const struct search *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(const struct search *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->o->log)
		return;
	va_start(ap, fmt);
	vfprintf(s->o->log, fmt, ap);
	va_end(ap);
	fflush(s->o->log);
}

static bool stopped(struct search *s)
{
	int sig = s->env->stopped(s->env->arg);

	if (sig) {
		s->res->end = BISECT_STOPPED;
		s->res->signal = sig;
	}
	return sig != 0;
}

/* "bisect <good>..<bad>" or "bisect <good>..<bad> <commit>" */
static char *look_tag(const char *good, const char *bad, const char *commit)
{
	if (!commit)
		return xasprintf("bisect " SHORT ".." SHORT, good, bad);
	return xasprintf("bisect " SHORT ".." SHORT " " SHORT, good, bad,
			 commit);
}

/*
 * The rounds of a look so far; *most: the most runs a commit has; *last:
 * every commit has --max-runs (one stopped between the runs of a round,
 * killed or on a test box rebooted into the next kernel, completes that
 * round first).
 */
static int load_rounds(struct search *s, const char *tag,
		       const char *const *commits, size_t n,
		       struct bisect_round **rounds, size_t *nrounds,
		       size_t *most, bool *last, struct kd_err *err)
{
	struct tagged_runs rec[BISECT_ROUND_MAX];
	const struct tagged_runs *ptr[BISECT_ROUND_MAX];
	size_t loaded = 0;
	int ret = 0;

	*most = 0;
	*last = true;
	for (; loaded < n && !ret; loaded++) {
		ret = s->env->records(s->env->arg, commits[loaded], tag,
				      &rec[loaded], err);
		if (ret < 0)
			break;
		ptr[loaded] = &rec[loaded];
		if (rec[loaded].n > *most)
			*most = rec[loaded].n;
		if (rec[loaded].n < s->o->max_runs)
			*last = false;
	}
	if (!ret)
		*nrounds = bisect_pair_rounds(ptr, n, rounds);
	for (size_t i = 0; i < loaded; i++)
		tagged_runs_release(&rec[i]);
	return ret;
}

/* Why a commit could not be measured; which one, or n: none. */
struct failure {
	size_t which;
	enum measure_outcome outcome;
	char *why;
};

/*
 * One more round of the look (or up to --runs rounds at first): each
 * commit to target runs.  A commit that does not build or whose run fails
 * is said in *f.
 */
static int measure(struct search *s, const char *tag,
		   const char *const *commits, size_t n, size_t target,
		   struct failure *f, struct kd_err *err)
{
	enum measure_outcome outcome[BISECT_ROUND_MAX];
	char *why[BISECT_ROUND_MAX] = { NULL };
	int signal = 0;
	int ret = s->env->measure(s->env->arg, tag, commits, n,
				  (unsigned)target, outcome, why, &signal,
				  err);

	f->which = n;
	f->why = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!ret && f->which == n && !signal &&
		    (outcome[i] == MEASURE_BUILD_FAILED ||
		     outcome[i] == MEASURE_RUN_FAILED)) {
			f->which = i;
			f->outcome = outcome[i];
			f->why = why[i];
			why[i] = NULL;
		}
		free(why[i]);
	}
	if (!ret && signal) {
		s->res->end = BISECT_STOPPED;
		s->res->signal = signal;
	}
	return ret;
}

/* The runs the next request asks each commit to have. */
static size_t next_target(const struct search *s, size_t nrounds, size_t most)
{
	size_t want = nrounds < s->o->runs ? s->o->runs - nrounds : 1;

	return most + want < s->o->max_runs ? most + want : s->o->max_runs;
}

/* The mean of commit c's values in the rounds compared. */
static double compared_mean(const struct bisect_round *r, size_t n,
			    size_t width, size_t c)
{
	double sum = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (bisect_round_compared(&r[i], width)) {
			sum += r[i].value[c];
			k++;
		}
	return k ? sum / (double)k : NAN;
}

/* ", 1 left out (runs disturbed unevenly)" */
static void add_left_out(struct strbuf *line, size_t rounds, size_t compared)
{
	if (rounds > compared)
		strbuf_addf(line, ", %zu left out (runs disturbed unevenly)",
			    rounds - compared);
}

/* " (-50.1%, interval -51.0% to -49.2%)": the change and its interval. */
static void add_change(struct strbuf *line, const struct change_interval *ci,
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
 * Two commits a (the base) and b compared in rounds until decided, or at
 * --max-runs undecided (seq_design_init(): SEQ_ALPHA for each
 * wrong verdict, twice that with a direction, which asks one side).  *f names
 * one that cannot be measured (then out is what the rounds so far say).
 * The line says it all, what follows the arrow being the caller's.
 */
static int compare_ends(struct search *s, const char *a, const char *b,
			int direction, struct seq_result *out,
			struct failure *f, struct strbuf *line,
			struct kd_err *err)
{
	const char *commits[] = { a, b };
	struct seq_design d;
	char *tag = look_tag(a, b, NULL);
	struct bisect_round *rounds = NULL;
	size_t nrounds = 0, most = 0, compared = 0;
	int ret = 0;

	seq_design_init(&d, s->o->max_runs, s->o->min_change, s->points);
	if (direction)
		d.alpha *= 2;
	f->which = 2;
	f->why = NULL;
	out->verdict = SEQ_CONTINUE;
	while (!ret && !stopped(s)) {
		bool last;

		free(rounds);
		rounds = NULL;
		ret = load_rounds(s, tag, commits, 2, &rounds, &nrounds, &most,
				  &last, err);
		if (ret < 0)
			break;
		bisect_compare_ends(&d, rounds, nrounds, s->o->runs, last,
				    direction, out, &compared);
		if (out->verdict != SEQ_CONTINUE || f->which < 2)
			break;
		ret = measure(s, tag, commits, 2,
			      next_target(s, nrounds, most), f, err);
	}
	strbuf_addf(line, "%zu rounds", compared);
	add_left_out(line, nrounds, compared);
	strbuf_addf(line, ", %s %.6g and %.6g", s->metric,
		    compared_mean(rounds, nrounds, 2, 0),
		    compared_mean(rounds, nrounds, 2, 1));
	if (out->verdict != SEQ_CONTINUE)
		add_change(line, &out->ci, s->points);
	free(rounds);
	free(tag);
	return ret;
}

static int end_failed(const char *which, const char *hash,
		      const struct failure *f, struct kd_err *err)
{
	return kd_error(err, "%s commit " SHORT ": %s%s", which, hash,
			f->outcome == MEASURE_BUILD_FAILED ? "the build failed: " : "",
			f->why ? f->why : "not measured");
}

/* Step 1: good and bad differ, or the search ends here. */
static int reproduce(struct search *s, bool *differ, struct kd_err *err)
{
	struct strbuf line = STRBUF_INIT;
	struct failure f;
	int ret = compare_ends(s, s->good, s->bad, 0, &s->res->ends, &f, &line,
			       err);

	*differ = false;
	if (!ret && f.which < 2)
		ret = end_failed(f.which ? "bad" : "good",
				 f.which ? s->bad : s->good, &f, err);
	if (!ret && s->res->end != BISECT_STOPPED) {
		*differ = s->res->ends.verdict == SEQ_CHANGED;
		s->direction = s->res->ends.ci.estimate > 0 ? 1 : -1;
		s->res->direction = s->direction;
		say(s, "bisect: good " SHORT ", bad " SHORT ": %s → %s\n",
		    s->good, s->bad, line.buf,
		    *differ ? "they differ" :
		    s->res->ends.verdict == SEQ_SAME ? "the same: not reproducible"
		    : "undecided at --max-runs");
		if (!*differ)
			s->res->end = BISECT_NOT_REPRODUCIBLE;
	}
	free(f.why);
	strbuf_release(&line);
	return ret;
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

/* What a commit's look ended with, for the robot. */
struct tested {
	enum bisect_class verdict;
	bool build_failed;
	char *why;
};

/*
 * Step 2, one commit: rounds of good, bad and the commit until it is
 * classified, or --max-runs: undecided; skipped too when it cannot be
 * built or run.  good or bad failing ends the search with an error.
 */
static int test_commit(struct search *s, const char *hash, struct tested *t,
		       struct strbuf *line, struct kd_err *err)
{
	const char *commits[] = { s->good, s->bad, hash };
	struct bisect_classification c = { .position = NAN };
	char *tag = look_tag(s->good, s->bad, hash);
	struct bisect_round *rounds = NULL;
	size_t nrounds = 0, most = 0, first = SIZE_MAX;
	struct failure f = { .which = 3, .why = NULL };
	bool last = false;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	while (!ret && !stopped(s)) {
		free(rounds);
		rounds = NULL;
		ret = load_rounds(s, tag, commits, 3, &rounds, &nrounds, &most,
				  &last, err);
		if (ret < 0)
			break;
		if (first == SIZE_MAX)
			first = nrounds;
		bisect_classify(rounds, nrounds, s->o->runs, s->o->max_runs,
				last, s->direction, &c);
		if (c.verdict != BISECT_UNDECIDED || last || f.which < 3)
			break;
		ret = measure(s, tag, commits, 3,
			      next_target(s, nrounds, most), &f, err);
	}
	if (!ret && f.which < 2)
		ret = end_failed(f.which ? "bad" : "good", commits[f.which],
				 &f, err);
	t->verdict = c.verdict;
	if (ret < 0 || s->res->end == BISECT_STOPPED) {
		/* nothing to say */
	} else if (f.which == 2) {
		t->verdict = BISECT_UNDECIDED;
		t->build_failed = f.outcome == MEASURE_BUILD_FAILED;
		t->why = f.why;
		f.why = NULL;
		if (t->build_failed)
			strbuf_addf(line, "build failed (%s)", t->why);
		else
			strbuf_addstr(line, t->why ? t->why : "not measured");
	} else {
		strbuf_addf(line, "%zu rounds with good and bad (%zu new)",
			    nrounds, nrounds - (first == SIZE_MAX ? 0 : first));
		add_left_out(line, nrounds, c.compared);
		strbuf_addf(line, ", %s %.6g", s->metric,
			    compared_mean(rounds, nrounds, 3, 2));
		describe_position(&c, line);
		if (c.verdict == BISECT_UNDECIDED)
			strbuf_addstr(line, ", undecided at --max-runs");
	}
	free(f.why);
	free(rounds);
	free(tag);
	return ret;
}

static void print_testing(struct search *s, const struct git_bisect_step *step,
			  const struct strbuf *line, const struct tested *t)
{
	if (s->o->log) {
		fprintf(s->o->log, "bisect: testing " SHORT, step->commit);
		if (step->steps_left >= 0)
			fprintf(s->o->log, " (%d step%s left)", step->steps_left,
				step->steps_left == 1 ? "" : "s");
		fprintf(s->o->log, ": %s → %s\n", line->buf,
			bisect_class_name(t->verdict));
		fflush(s->o->log);
	}
	if (s->o->on_step) {
		struct bisect_step_info info = {
			.commit = step->commit, .verdict = t->verdict,
			.build_failed = t->build_failed, .why = t->why,
			.said = line->buf,
		};

		s->o->on_step(s->o->on_step_arg, &info);
	}
}

/* Step 2: git bisect between good and the current bad, until it is done. */
static int bisect_steps(struct search *s, struct git_bisect_step *step,
			struct kd_err *err)
{
	struct strbuf line = STRBUF_INIT;
	int ret = s->env->start(s->env->arg, s->good, s->bad, step, err);

	while (!ret && step->state == GIT_BISECT_NEXT && !stopped(s)) {
		struct tested t;

		strbuf_reset(&line);
		ret = test_commit(s, step->commit, &t, &line, err);
		if (!ret && s->res->end != BISECT_STOPPED) {
			print_testing(s, step, &line, &t);
			if (t.verdict == BISECT_GOOD) {
				free(s->res->last_good);
				s->res->last_good = xstrdup(step->commit);
			}
			ret = s->env->mark(s->env->arg, t.verdict, step, err);
		}
		free(t.why);
		if (s->res->end == BISECT_STOPPED)
			break;
	}
	strbuf_release(&line);
	return ret;
}

static void add_later(struct bisect_result *res, const char *commit)
{
	res->later = xrealloc(res->later, (res->n_later + 1) *
			      sizeof(*res->later));
	res->later[res->n_later++] = xstrdup(commit);
}

/*
 * Step 3: the first bad commit of a stretch; whether good and its parent
 * differ.  *again when they differ in bad's direction: the search goes on
 * between good and the parent.
 */
static int check_earlier(struct search *s, const char *first_bad,
			 bool *again, struct kd_err *err)
{
	char *parent = s->env->parent(s->env->arg, first_bad);
	struct strbuf line = STRBUF_INIT;
	struct seq_result *e = &s->res->earlier;
	struct failure f = { .which = 2 };
	const char *said;
	int ret = 0;

	*again = false;
	free(s->res->first_bad);
	s->res->first_bad = xstrdup(first_bad);
	s->res->end = BISECT_FOUND;
	memset(e, 0, sizeof(*e));
	e->verdict = SEQ_CONTINUE;
	free(s->res->earlier_commit);
	s->res->earlier_commit = parent;
	if (!parent || !strcmp(parent, s->good))
		return 0;
	ret = compare_ends(s, s->good, parent, s->direction, e, &f, &line,
			   err);
	if (ret < 0 || s->res->end == BISECT_STOPPED) {
		strbuf_release(&line);
		free(f.why);
		return ret;
	}
	if (f.which < 2) {
		strbuf_addf(&line, ", %s", f.why ? f.why : "not measured");
		e->verdict = SEQ_UNDECIDED;
	}
	if (e->verdict == SEQ_CHANGED) {
		*again = true;
		said = "changed too: bisecting between them for an earlier change";
	} else if (e->verdict == SEQ_SAME) {
		said = "no earlier change";
	} else {
		said = "undecided at --max-runs";
		s->res->end = BISECT_EARLIER_UNDECIDED;
	}
	say(s, "bisect: " SHORT " is bad, its parent " SHORT " against good " SHORT ": %s → %s\n",
	    first_bad, parent, s->good, line.buf, said);
	strbuf_release(&line);
	free(f.why);
	return 0;
}

static void range_of(struct search *s, const struct git_bisect_step *step)
{
	size_t n = step->n_candidates;

	s->res->end = BISECT_RANGE;
	s->res->candidates = xcalloc(n ? n : 1, sizeof(char *));
	s->res->candidate_subjects = xcalloc(n ? n : 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		s->res->candidates[i] = xstrdup(step->candidates[i]);
		s->res->candidate_subjects[i] =
			s->env->subject(s->env->arg, step->candidates[i]);
	}
	s->res->n_candidates = n;
}

int bisect_search(const struct bisect_opts *o, const char *good,
		  const char *bad, const char *metric,
		  const struct bisect_env *env, struct bisect_result *res,
		  struct kd_err *err)
{
	struct search s = {
		.o = o, .env = env, .res = res, .good = good,
		.bad = xstrdup(bad), .metric = metric,
		.points = metric_is_percent(metric_catalogue_default(), metric),
		.direction = 1,
	};
	bool differ, again = true;
	int ret = reproduce(&s, &differ, err);

	while (!ret && differ && again && res->end != BISECT_STOPPED) {
		struct git_bisect_step step = { 0 };

		free(res->last_good);
		res->last_good = NULL;
		ret = bisect_steps(&s, &step, err);
		again = false;
		if (!ret && res->end != BISECT_STOPPED && !stopped(&s)) {
			if (step.state == GIT_BISECT_ONLY_SKIPPED)
				range_of(&s, &step);
			else
				ret = check_earlier(&s, step.commit, &again,
						    err);
		}
		if (!ret && again) {
			add_later(res, step.commit);
			free(s.bad);
			s.bad = xstrdup(res->earlier_commit);
		}
		git_bisect_step_release(&step);
	}
	free(s.bad);
	return ret;
}
