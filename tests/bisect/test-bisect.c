// SPDX-License-Identifier: GPL-2.0
/*
 * The parts of kdelta bisect that need no repository: classifying a
 * commit's samples, and reading what git bisect says.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "check.h"
#include "kdelta/bisect.h"
#include "kdelta/sequential.h"
#include "kdelta/stats.h"

/* Samples of the fixture's bench (testdata/bisect/make-repo.sh). */
static const double good[] = { 360964.7, 361860.2, 363841.5, 367136.8 };
static const double bad[] = { 292003.1, 290611.0, 288740.2 };
static const double like_good[] = { 365999.9, 362000.4, 366827.8 };
static const double between[] = { 327000.0, 331000.0, 325500.0 };

/* One look at a commit, the samples as they are (max_runs 10). */
static int classify_once(const double *g, size_t ng, const double *b,
			 size_t nb, const double *x, size_t nx, bool last,
			 struct bisect_classification *c)
{
	struct bisect_samples sg = { ng, (double *)g, ng };
	struct bisect_samples sb = { nb, (double *)b, nb };
	struct bisect_samples sx = { nx, (double *)x, nx };
	struct bisect_look look = { ng, nb, nx };

	return bisect_classify(&look, 1, 10, last, &sg, &sb, &sx, c);
}

/*
 * Reference values: the same formulas in Python 3.11 (statistics'
 * NormalDist) and mpmath 1.3.0 (t's quantile from the regularized
 * incomplete beta function), independent of GSL.
 */
static void test_classify(void)
{
	struct bisect_classification c;

	/* A first look spends almost nothing: 3 runs cannot decide. */
	CHECK(classify_once(good, 4, bad, 3, like_good, 3, false, &c) == 0);
	CHECK(c.verdict == BISECT_UNDECIDED);
	CHECK_NEAR(c.midpoint, 326951.1166666667, 1e-12);
	CHECK_NEAR(c.position, -0.020437163610095177, 1e-9);
	/*
	 * t = 1 / (1/3 + 1/16 + 1/12) over 1 / (1/10 + 1/40 + 1/40), the
	 * spending 4 Q(Phi^-1(1 - alpha/4) / sqrt(t)), z its Q^-1 of half
	 */
	CHECK_NEAR(c.z, 4.8821008897466065, 1e-6);
	CHECK(c.df == 2);	/* Hsu's: the fewest samples, less one */
	CHECK(c.low < 0.5 && c.high > 0.5);
	/* The last look spends what is left: good, as the old test said. */
	CHECK(classify_once(good, 4, bad, 3, like_good, 3, true, &c) == 0);
	CHECK(c.verdict == BISECT_GOOD);
	CHECK_NEAR(c.z, 2.5758293035489, 1e-9);
	/* t's quantile of 2 df at 0.995 is 9.9248 */
	CHECK_NEAR(c.low, -0.252463689781182582, 1e-6);
	CHECK_NEAR(c.high, 0.211589362560992228, 1e-6);

	/* Halfway: neither side, even at the last look. */
	CHECK(classify_once(good, 4, bad, 3, between, 3, true, &c) == 0);
	CHECK(c.verdict == BISECT_UNDECIDED);
	CHECK(c.low < 0.5 && c.high > 0.5);

	/* Which side is bad comes from good and bad, not from the metric. */
	CHECK(classify_once(bad, 3, good, 4, like_good, 3, true, &c) == 0);
	CHECK(c.verdict == BISECT_BAD);
	CHECK(classify_once(good, 4, bad, 3, bad, 3, true, &c) == 0);
	CHECK(c.verdict == BISECT_BAD);

	/* One sample has no variance: no verdict. */
	CHECK(classify_once(good, 4, bad, 3, like_good, 1, true, &c) == 0);
	CHECK(c.verdict == BISECT_UNDECIDED);

	/* The look must be the samples'. */
	CHECK(classify_once(good, 4, bad, 3, like_good, 3, true, &c) == 0);
	{
		struct bisect_samples sg = { 4, (double *)good, 4 };
		struct bisect_samples sb = { 3, (double *)bad, 3 };
		struct bisect_samples sx = { 3, (double *)like_good, 3 };
		struct bisect_look look = { 4, 3, 2 };

		CHECK(bisect_classify(&look, 1, 10, true, &sg, &sb, &sx,
				      &c) < 0);
		CHECK(bisect_classify(&look, 0, 10, true, &sg, &sb, &sx,
				      &c) < 0);
	}
}

static void test_classify_constant(void)
{
	static const double ones[] = { 1, 1 }, twos[] = { 2, 2 };
	static const double halves[] = { 1.5, 1.5 };
	struct bisect_classification c;

	classify_once(ones, 2, twos, 2, ones, 2, false, &c);
	CHECK(c.verdict == BISECT_GOOD);
	CHECK(c.position == 0);
	classify_once(ones, 2, twos, 2, twos, 2, false, &c);
	CHECK(c.verdict == BISECT_BAD);
	classify_once(ones, 2, twos, 2, halves, 2, true, &c);
	CHECK(c.verdict == BISECT_UNDECIDED);
	/* Good and bad alike: nothing is closer to either. */
	classify_once(ones, 2, ones, 2, ones, 2, true, &c);
	CHECK(c.verdict == BISECT_UNDECIDED);
	CHECK(isnan(c.position));
}

/* Where the next run goes. */
static void test_next_run(void)
{
	static const double g4[] = { 100, 102, 98, 101 }, b3[] = { 50, 52, 49 };
	static const double x4[] = { 99, 101, 100, 98 };
	static const double noisy[] = { 80, 120, 90, 110 };
	struct bisect_samples g = { 4, (double *)g4, 4 };
	struct bisect_samples b = { 3, (double *)b3, 3 };
	struct bisect_samples x = { 2, (double *)x4, 2 };

	/* the commit first, up to min_runs */
	CHECK(bisect_next_run(&g, &b, &x, 3, 10) == BISECT_NEXT_COMMIT);
	x.n = x.runs = 2;
	CHECK(bisect_next_run(&g, &b, &x, 3, 2) == BISECT_NEXT_NONE);
	/* then good and bad keep up with the commit: bad has 3, it 4 */
	x.n = x.runs = 4;
	CHECK(bisect_next_run(&g, &b, &x, 3, 10) == BISECT_NEXT_BAD);
	b.runs = 10;	/* bad can have no more */
	CHECK(bisect_next_run(&g, &b, &x, 3, 10) == BISECT_NEXT_COMMIT);
	/* then the largest share of the distance's variance */
	b.runs = b.n = 3;
	x.n = x.runs = 3;
	g.x = (double *)noisy;
	CHECK(bisect_next_run(&g, &b, &x, 3, 10) == BISECT_NEXT_GOOD);
	g.runs = 10;
	CHECK(bisect_next_run(&g, &b, &x, 3, 10) == BISECT_NEXT_COMMIT);
	x.runs = b.runs = 10;
	CHECK(bisect_next_run(&g, &b, &x, 3, 10) == BISECT_NEXT_NONE);
}

/*
 * kdelta 0.1's rule, for the simulation below to show what it did wrong:
 * Welch's test of the commit's mean against the midpoint, p < 0.01 at
 * every look.
 */
static enum bisect_class old_rule(const struct bisect_samples *g,
				  const struct bisect_samples *b,
				  const struct bisect_samples *x)
{
	struct sample_summary sg, sb, sx;
	double vx, vg, vb, mid, t, df, p;

	summarize(g->x, g->n, &sg);
	summarize(b->x, b->n, &sb);
	summarize(x->x, x->n, &sx);
	mid = (sg.mean + sb.mean) / 2;
	vx = sx.stddev * sx.stddev / x->n;
	vg = sg.stddev * sg.stddev / (4.0 * g->n);
	vb = sb.stddev * sb.stddev / (4.0 * b->n);
	t = (sx.mean - mid) / sqrt(vx + vg + vb);
	df = (vx + vg + vb) * (vx + vg + vb) /
	     (vx * vx / (x->n - 1) + vg * vg / (g->n - 1) +
	      vb * vb / (b->n - 1));
	p = 2 * gsl_cdf_tdist_Q(fabs(t), df);
	if (p >= 0.01)
		return BISECT_UNDECIDED;
	return (sx.mean - mid) * (sb.mean - sg.mean) > 0 ? BISECT_BAD
							 : BISECT_GOOD;
}

#define SIM_MAX_RUNS 10
#define SIM_FIRST_LOOK 3
#define SIM_LOOKS (SIM_MAX_RUNS - SIM_FIRST_LOOK + 1)
#define SIM_SEQUENCES 2000

struct sim {
	const char *what;
	double position;	/* of the commit's mean: 0 good's, 1 bad's */
	double noise;		/* standard deviation, of a mean of 100 */
	bool old;		/* kdelta 0.1's rule */
};

struct sim_outcome {
	int good, bad, undecided;
	double runs;		/* of the commit, on average */
};

/*
 * The boundaries of a commit's looks after 3 to 10 runs, good and bad
 * having 10 each: bisect_classify()'s, computed once for all sequences.
 */
static void sim_boundaries(double *z)
{
	struct bisect_look looks[SIM_LOOKS];
	double t[SIM_LOOKS];

	for (size_t j = 0; j < SIM_LOOKS; j++) {
		looks[j] = (struct bisect_look){ SIM_MAX_RUNS, SIM_MAX_RUNS,
						 SIM_FIRST_LOOK + j };
		t[j] = bisect_information(&looks[j], SIM_MAX_RUNS);
		z[j] = seq_boundary(SEQ_OBRIEN_FLEMING, BISECT_CLASSIFY_ALPHA,
				    t, j + 1, j + 1 == SIM_LOOKS);
	}
}

/*
 * One commit: good's mean is 100, bad's 50 (the fixture's -50%), each
 * with 10 runs; the commit gets 3 runs before its first look, then a look
 * after each added run, up to 10.
 */
static enum bisect_class sim_commit(gsl_rng *rng, const struct sim *s,
				    const double *z, size_t *runs)
{
	double gx[SIM_MAX_RUNS], bx[SIM_MAX_RUNS], xx[SIM_MAX_RUNS];
	struct bisect_samples g = { SIM_MAX_RUNS, gx, SIM_MAX_RUNS };
	struct bisect_samples b = { SIM_MAX_RUNS, bx, SIM_MAX_RUNS };
	struct bisect_samples x = { 0, xx, 0 };
	struct bisect_classification c;
	enum bisect_class v = BISECT_UNDECIDED;

	for (size_t i = 0; i < SIM_MAX_RUNS; i++) {
		gx[i] = 100 + gsl_ran_gaussian(rng, s->noise);
		bx[i] = 50 + gsl_ran_gaussian(rng, s->noise);
		xx[i] = 100 - 50 * s->position +
			gsl_ran_gaussian(rng, s->noise);
	}
	for (x.n = SIM_FIRST_LOOK; x.n <= SIM_MAX_RUNS; x.n++) {
		x.runs = x.n;
		if (s->old) {
			v = old_rule(&g, &b, &x);
		} else {
			bisect_judge(z[x.n - SIM_FIRST_LOOK], &g, &b, &x, &c);
			v = c.verdict;
		}
		*runs = x.n;
		if (v != BISECT_UNDECIDED)
			break;
	}
	return v;
}

static struct sim_outcome simulate(const struct sim *s)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct sim_outcome o = { 0 };
	double z[SIM_LOOKS];

	sim_boundaries(z);
	gsl_rng_set(rng, 20261130);
	for (int i = 0; i < SIM_SEQUENCES; i++) {
		size_t runs = 0;

		switch (sim_commit(rng, s, z, &runs)) {
		case BISECT_GOOD:
			o.good++;
			break;
		case BISECT_BAD:
			o.bad++;
			break;
		default:
			o.undecided++;
		}
		o.runs += (double)runs / SIM_SEQUENCES;
	}
	gsl_rng_free(rng);
	printf("%-44s good %4d, bad %4d, undecided %4d, %.1f runs\n",
	       s->what, o.good, o.bad, o.undecided, o.runs);
	return o;
}

/*
 * Seeded simulation of whole classifications, looks and added runs as
 * bisect makes them.  The rule's error rate holds over all the looks: a
 * commit exactly halfway between good and bad (where either verdict is
 * wrong) is classified in no more than BISECT_CLASSIFY_ALPHA of the
 * sequences; kdelta 0.1's p < 0.01 at every look classified several
 * times as many.  Commits at good's or bad's mean are classified rightly.
 */
static void test_classify_sequences(void)
{
	const int nominal = (int)(BISECT_CLASSIFY_ALPHA * SIM_SEQUENCES);
	struct sim half = { "halfway, 20% noise", 0.5, 20, false };
	struct sim half_old = { "halfway, 20% noise, old rule", 0.5, 20, true };
	struct sim at_good = { "at good's mean, 10% noise", 0, 10, false };
	struct sim at_bad = { "at bad's mean, 10% noise", 1, 10, false };
	struct sim at_bad_old = { "at bad's mean, 10% noise, old rule", 1, 10,
				  true };
	struct sim quiet = { "at bad's mean, 2% noise", 1, 2, false };
	struct sim_outcome o;

	o = simulate(&half);
	CHECK(o.good + o.bad <= nominal);
	o = simulate(&half_old);
	CHECK(o.good + o.bad > 2 * nominal);
	o = simulate(&at_good);
	CHECK(o.bad == 0);
	CHECK(o.good >= SIM_SEQUENCES * 99 / 100);
	o = simulate(&at_bad);
	CHECK(o.good == 0);
	CHECK(o.bad >= SIM_SEQUENCES * 99 / 100);
	o = simulate(&at_bad_old);	/* for the runs it took */
	CHECK(o.good == 0);
	o = simulate(&quiet);
	CHECK(o.bad == SIM_SEQUENCES);
}

/* Output of git 2.39.5 (Debian 12) with LC_ALL=C, on the fixture. */
static const char next_text[] =
	"Bisecting: 9 revisions left to test after this (roughly 3 steps)\n"
	"[de49e54c483c07162b86b40adee304d29933a27e] commit 9: bench: a change that does not compile\n";

static const char found_text[] =
	"3237a20a41df4f7980d249ece51c3477176b26cb is the first bad commit\n"
	"commit 3237a20a41df4f7980d249ece51c3477176b26cb\n"
	"Author: Bisect Fixture <fixture@kdelta.invalid>\n"
	"Date:   Sun Nov 1 12:00:00 2026 +0000\n"
	"\n"
	"    commit 13: bench: do 25% more work per operation\n"
	"\n"
	" bench.c | 2 +-\n"
	" 1 file changed, 1 insertion(+), 1 deletion(-)\n";

static const char skipped_text[] =
	"There are only 'skip'ped commits left to test.\n"
	"The first bad commit could be any of:\n"
	"0e6eced14e5b6eafb7307c7fdde162dd21bb5b86\n"
	"a529d36ac6e6d1a2c1ec18ee87d0c5c88fad5ace\n"
	"We cannot bisect more!\n";

static void test_parse(void)
{
	struct git_bisect_step step;
	struct kd_err err;

	CHECK(git_bisect_parse(next_text, &step, &err) == 0);
	CHECK(step.state == GIT_BISECT_NEXT);
	CHECK_STR(step.commit, "de49e54c483c07162b86b40adee304d29933a27e");
	CHECK(step.steps_left == 3);
	git_bisect_step_release(&step);

	CHECK(git_bisect_parse(found_text, &step, &err) == 0);
	CHECK(step.state == GIT_BISECT_FOUND);
	CHECK_STR(step.commit, "3237a20a41df4f7980d249ece51c3477176b26cb");
	git_bisect_step_release(&step);

	CHECK(git_bisect_parse(skipped_text, &step, &err) == 0);
	CHECK(step.state == GIT_BISECT_ONLY_SKIPPED);
	CHECK(step.n_candidates == 2);
	if (step.n_candidates == 2) {
		CHECK_STR(step.candidates[0], "0e6eced14e5b6eafb7307c7fdde162dd21bb5b86");
		CHECK_STR(step.candidates[1], "a529d36ac6e6d1a2c1ec18ee87d0c5c88fad5ace");
	}
	git_bisect_step_release(&step);

	CHECK(git_bisect_parse("fatal: bad revision 'x'\n", &step, &err) < 0);
	CHECK_STR(err.msg, "cannot make sense of git bisect's output: fatal: bad revision 'x'");
	CHECK(git_bisect_parse("", &step, &err) < 0);
}

int main(void)
{
	test_classify();
	test_classify_constant();
	test_next_run();
	test_classify_sequences();
	test_parse();
	return check_done();
}
