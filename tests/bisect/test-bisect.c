// SPDX-License-Identifier: GPL-2.0
/*
 * The parts of kdelta bisect that need no repository: classifying a
 * commit's samples, and reading what git bisect says.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "kdelta/bisect.h"

/* Samples of the fixture's bench (testdata/bisect/make-repo.sh). */
static const double good[] = { 360964.7, 361860.2, 363841.5, 367136.8 };
static const double bad[] = { 292003.1, 290611.0, 288740.2 };
static const double like_good[] = { 365999.9, 362000.4, 366827.8 };
static const double between[] = { 327000.0, 331000.0, 325500.0 };

/*
 * Reference values: the same formulas in Python with mpmath 1.3.0, the
 * two-sided p from the regularized incomplete beta function
 * (betainc(df/2, 1/2, 0, df/(df+t^2))), independent of GSL.
 */
static void test_classify(void)
{
	struct bisect_classification c;

	bisect_classify(good, 4, bad, 3, like_good, 3, &c);
	CHECK(c.verdict == BISECT_GOOD);
	CHECK_NEAR(c.midpoint, 326951.1166666667, 1e-12);
	CHECK_NEAR(c.t, 22.261494536845298, 1e-9);
	CHECK_NEAR(c.df, 3.3068507561853777, 1e-9);
	CHECK_NEAR(c.p, 0.00010200742630479617, 1e-6);

	/* Halfway: neither side. */
	bisect_classify(good, 4, bad, 3, between, 3, &c);
	CHECK(c.verdict == BISECT_UNDECIDED);
	CHECK_NEAR(c.t, 0.47946944718730899, 1e-9);
	CHECK_NEAR(c.df, 3.07464396573554, 1e-9);
	CHECK_NEAR(c.p, 0.66364996156414469, 1e-6);

	/* Which side is bad comes from good and bad, not from the metric. */
	bisect_classify(bad, 3, good, 4, like_good, 3, &c);
	CHECK(c.verdict == BISECT_BAD);
	bisect_classify(good, 4, bad, 3, bad, 3, &c);
	CHECK(c.verdict == BISECT_BAD);

	/* One sample has no variance: no verdict yet. */
	bisect_classify(good, 4, bad, 3, like_good, 1, &c);
	CHECK(c.verdict == BISECT_UNDECIDED);
	CHECK(c.p == 1);
}

static void test_classify_constant(void)
{
	static const double ones[] = { 1, 1 }, twos[] = { 2, 2 };
	static const double halves[] = { 1.5, 1.5 };
	struct bisect_classification c;

	bisect_classify(ones, 2, twos, 2, ones, 2, &c);
	CHECK(c.verdict == BISECT_GOOD);
	CHECK(c.p == 0);
	CHECK(isinf(c.t));
	bisect_classify(ones, 2, twos, 2, twos, 2, &c);
	CHECK(c.verdict == BISECT_BAD);
	bisect_classify(ones, 2, twos, 2, halves, 2, &c);
	CHECK(c.verdict == BISECT_UNDECIDED);
	CHECK(!isnan(c.p));
	/* Good and bad alike: nothing is closer to either. */
	bisect_classify(ones, 2, ones, 2, ones, 2, &c);
	CHECK(c.verdict == BISECT_UNDECIDED);
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
	test_parse();
	return check_done();
}
