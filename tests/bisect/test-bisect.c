// SPDX-License-Identifier: GPL-2.0
/*
 * The parts of kdelta bisect that need no repository: pairing runs into
 * rounds, classifying a commit from them, and reading what git bisect
 * says.  (tests/bisect/test-drift.c runs whole searches.)
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "check.h"
#include "kdelta/bisect.h"
#include "kdelta/sequential.h"
#include "kdelta/stats.h"

/* A run of kdelta's store as resultdb.h reads it. */
static struct tagged_run record(const char *batch, long round, double start,
				double value, bool disturbed)
{
	return (struct tagged_run){
		.batch = (char *)batch, .round = round, .start = start,
		.value = value, .disturbed = disturbed ? (char *)"load" : NULL,
	};
}

/* Runs pair when one batch ran them in one round, in the order they ran. */
static void test_pair_rounds(void)
{
	struct tagged_run g[] = {
		record("b1", 0, 10, 100, false), record("b1", 1, 20, 101, false),
		record("b2", 0, 5, 99, true), record("b2", 1, 40, 98, false),
		record(NULL, -1, 50, 97, false),
	};
	struct tagged_run b[] = {
		record("b1", 1, 21, 51, false), record("b1", 0, 9, 50, false),
		record("b2", 0, 6, 49, true), record(NULL, -1, 51, 48, false),
	};
	struct tagged_run x[] = {
		record("b1", 0, 11, 70, false), record("b1", 1, 22, NAN, false),
		record("b2", 0, 4, 71, true), record("b2", 1, 41, 72, false),
	};
	struct tagged_runs rg = { g, 5, 0, NULL }, rb = { b, 4, 0, NULL };
	struct tagged_runs rx = { x, 4, 0, NULL };
	const struct tagged_runs *three[] = { &rg, &rb, &rx };
	struct bisect_round *r;
	size_t n;

	/* b2/1 has no run of bad, b1/1 no value of x, b1/0's is in order */
	n = bisect_pair_rounds(three, 3, &r);
	CHECK(n == 2);
	if (n == 2) {
		CHECK(r[0].start == 4 && r[0].value[0] == 99 &&
		      r[0].value[1] == 49 && r[0].value[2] == 71);
		CHECK(r[0].disturbed[0] && r[0].disturbed[2]);
		CHECK(r[1].start == 9 && r[1].value[0] == 100 &&
		      r[1].value[1] == 50 && r[1].value[2] == 70);
		CHECK(bisect_round_compared(&r[0], 3));
		CHECK(bisect_round_compared(&r[1], 3));
	}
	free(r);
	n = bisect_pair_rounds(three, 2, &r);
	CHECK(n == 3);
	free(r);
	/* Runs of older kdeltas record no batch: they pair with nothing. */
	{
		struct tagged_runs og = { &g[4], 1, 0, NULL };
		struct tagged_runs ob = { &b[3], 1, 0, NULL };
		const struct tagged_runs *old[] = { &og, &ob };

		CHECK(bisect_pair_rounds(old, 2, &r) == 0);
		free(r);
	}
}

/* The rule for disturbed runs: a round compares runs alike, or is left out. */
static void test_round_rule(void)
{
	struct bisect_round quiet = { .value = { 1, 2, 3 } };
	struct bisect_round busy = { .disturbed = { true, true, true } };
	struct bisect_round mixed = { .disturbed = { false, true, false } };

	CHECK(bisect_round_compared(&quiet, 3));
	CHECK(bisect_round_compared(&busy, 3));
	CHECK(!bisect_round_compared(&mixed, 3));
	CHECK(!bisect_round_compared(&mixed, 2));
	/* only the runs of the look count */
	mixed.disturbed[1] = false;
	mixed.disturbed[2] = true;
	CHECK(bisect_round_compared(&mixed, 2));
}

static void fill(struct bisect_round *r, size_t n, const double *g,
		 const double *b, const double *x)
{
	for (size_t i = 0; i < n; i++)
		r[i] = (struct bisect_round){ .value = { g[i], b[i], x[i] },
					      .start = (double)i };
}

/*
 * Reference values: t's quantile of 3 degrees of freedom at 0.995 is
 * 5.840909309733 (scipy.stats.t.ppf(0.995, 3), SciPy 1.10), the normal
 * one at 0.995 2.5758293035489 (statistics.NormalDist().inv_cdf, Python
 * 3.11); the rest is arithmetic.
 */
static void test_classify(void)
{
	static const double g[] = { 100, 102, 98, 100 };
	static const double b[] = { 80, 82, 78, 80 };
	/* differences from the midpoint: -9, -10, -11, -10 */
	static const double x[] = { 81, 82, 77, 80 };
	static const double near_good[] = { 99, 103, 97, 101 };
	static const double half[] = { 95, 85, 93, 87 };
	struct bisect_round r[4];
	struct bisect_classification c;
	double half_width = 5.840909309733 * sqrt(2.0 / 3) / 2;

	fill(r, 4, g, b, x);
	/* One look, the last, at 4 of 10 rounds: it spends all of alpha. */
	bisect_classify(r, 4, 4, 10, true, -1, &c);
	CHECK(c.verdict == BISECT_BAD);
	CHECK_NEAR(c.z, 2.5758293035489, 1e-9);
	CHECK_NEAR(c.position, 1.0, 1e-12);
	CHECK_NEAR(c.low, 0.5 + (-10 + half_width) / -20, 1e-6);
	CHECK_NEAR(c.high, 0.5 + (-10 - half_width) / -20, 1e-6);
	CHECK(c.rounds == 4 && c.compared == 4 && c.looks == 1);
	/* Not the last: O'Brien-Fleming spends little at 4 of 10. */
	bisect_classify(r, 4, 4, 10, false, -1, &c);
	CHECK(c.z > 3.5);
	/* Which side is bad comes from the direction of good to bad. */
	fill(r, 4, g, b, near_good);
	bisect_classify(r, 4, 4, 10, true, -1, &c);
	CHECK(c.verdict == BISECT_GOOD);
	CHECK(c.low < 0.5 && c.high < 0.5);
	/* Halfway: neither side, even at the last look. */
	fill(r, 4, g, b, half);
	bisect_classify(r, 4, 4, 10, true, -1, &c);
	CHECK(c.verdict == BISECT_UNDECIDED);
	CHECK(c.low < 0.5 && c.high > 0.5);
	/* Fewer than 2 rounds compared: no look at all. */
	fill(r, 4, g, b, x);
	r[1].disturbed[2] = r[2].disturbed[0] = r[3].disturbed[1] = true;
	bisect_classify(r, 4, 2, 10, true, -1, &c);
	CHECK(c.verdict == BISECT_UNDECIDED && c.looks == 0);
	CHECK(c.rounds == 4 && c.compared == 1);
}

/*
 * The looks are made again from the rounds: the first that decides is the
 * verdict, so that more rounds (a resumed look) do not change it.
 */
static void test_classify_replayed(void)
{
	static const double g[] = { 100, 100, 100, 100, 100, 100 };
	static const double b[] = { 50, 50, 50, 50, 50, 50 };
	/* bad's side at first (constant differences decide at once) */
	static const double x[] = { 55, 55, 95, 95, 95, 95 };
	struct bisect_round r[6];
	struct bisect_classification c;

	fill(r, 6, g, b, x);
	bisect_classify(r, 6, 2, 10, false, -1, &c);
	CHECK(c.verdict == BISECT_BAD);
	CHECK(c.rounds == 2 && c.looks == 1);
	/* From 3 rounds on, the first look has other rounds. */
	bisect_classify(r, 6, 3, 10, false, -1, &c);
	CHECK(c.rounds >= 3);
}

static void test_compare_ends(void)
{
	static const double a[] = { 100, 101, 99, 100, 100 };
	static const double b[] = { 50, 51, 49, 50, 50 };
	static const double same[] = { 100, 100.5, 99.5, 100, 100 };
	struct seq_design d = {
		.spending = SEQ_OBRIEN_FLEMING, .alpha = 0.05, .max_runs = 10,
		.min_change = 5,
	};
	struct bisect_round r[5];
	struct seq_result sr;
	size_t compared;

	fill(r, 5, a, b, b);
	bisect_compare_ends(&d, r, 5, 3, false, 0, &sr, &compared);
	CHECK(sr.verdict == SEQ_CHANGED);
	CHECK(compared == 3);	/* the first look decided, not a later one */
	CHECK(sr.ci.estimate < -45 && sr.ci.estimate > -55);
	fill(r, 5, a, same, same);
	bisect_compare_ends(&d, r, 5, 3, false, 0, &sr, &compared);
	CHECK(sr.verdict == SEQ_SAME);
	/* Too few rounds for a look, and the last: undecided. */
	bisect_compare_ends(&d, r, 1, 3, true, 0, &sr, &compared);
	CHECK(sr.verdict == SEQ_UNDECIDED);
	CHECK(compared == 0);
	/* One-sided: did b go down by 5%?  Down by half: yes. */
	fill(r, 5, a, b, b);
	bisect_compare_ends(&d, r, 5, 3, false, -1, &sr, &compared);
	CHECK(sr.verdict == SEQ_CHANGED);
	/* Up by half: it did not go down (whatever else it did). */
	fill(r, 5, b, a, a);
	bisect_compare_ends(&d, r, 5, 3, false, -1, &sr, &compared);
	CHECK(sr.verdict == SEQ_SAME);
	/* Up by half, asked whether it went up: yes. */
	bisect_compare_ends(&d, r, 5, 3, false, 1, &sr, &compared);
	CHECK(sr.verdict == SEQ_CHANGED);
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
	test_pair_rounds();
	test_round_rule();
	test_classify();
	test_classify_replayed();
	test_compare_ends();
	test_parse();
	return check_done();
}
