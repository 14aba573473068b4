// SPDX-License-Identifier: GPL-2.0
/*
 * The sequential decision of "kdelta run --until-decided" (src/
 * sequential.c):
 *
 *  - boundaries against reference values computed with scipy's
 *    multivariate normal probabilities (testdata/stats/
 *    sequential-reference.txt, scripts/gen-sequential-ref.py);
 *  - by simulation, 1,000 adaptive sequences each (looks after every round
 *    from 3 to 30 runs per side, 1% noise): A/A ends "changed" in no more
 *    than alpha of them, a 5% shift is found in at least 95%, a change of
 *    exactly --min-change ends "same" in no more than alpha, while a fixed
 *    95% interval at every look would call a change in far more A/A
 *    sequences than alpha (so that the first check can fail).
 *
 * Random numbers come from GSL's MT19937 with fixed seeds.
 */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "check.h"
#include "kdelta/sequential.h"
#include "kdelta/util.h"
#include "reference.h"

#define SEQUENCES 1000
#define FIRST_LOOK 3
#define MAX_RUNS 30
#define LOOKS (MAX_RUNS - FIRST_LOOK + 1)
#define ALPHA 0.05

static enum seq_spending spending_named(const char *name)
{
	for (int i = 0; seq_spending_names[i]; i++)
		if (!strcmp(name, seq_spending_names[i]))
			return (enum seq_spending)i;
	xdie("sequential-reference.txt: unknown spending '%s'", name);
}

/* "boundaries SPENDING alpha=A t=... z=..." */
static int check_line(char *line)
{
	char *save = NULL, *tok = strtok_r(line, " \n", &save);
	double alpha = 0, *t = NULL, *want = NULL, *z;
	size_t nt = 0, nz = 0;
	enum seq_spending spending;

	if (!tok || tok[0] == '#')
		return 0;
	if (strcmp(tok, "boundaries"))
		xdie("sequential-reference.txt: unknown kind '%s'", tok);
	spending = spending_named(strtok_r(NULL, " \n", &save));
	while ((tok = strtok_r(NULL, " \n", &save))) {
		if (!strncmp(tok, "alpha=", 6))
			alpha = strtod(tok + 6, NULL);
		else if (!strncmp(tok, "t=", 2))
			t = reference_list("sequential-reference.txt", tok + 2, &nt);
		else if (!strncmp(tok, "z=", 2))
			want = reference_list("sequential-reference.txt", tok + 2, &nz);
	}
	CHECK(nt == nz && nt > 0 && alpha > 0);
	z = xcalloc(nt, sizeof(*z));
	seq_boundaries(spending, alpha, t, nt, z);
	for (size_t j = 0; j < nt && j < nz; j++)
		CHECK_NEAR(z[j], want[j], 1e-4);
	free(z);
	free(t);
	free(want);
	return 1;
}

static void test_reference(void)
{
	const char *dir = getenv("TESTDATA");
	char *path = xasprintf("%s/stats/sequential-reference.txt",
			       dir ? dir : "testdata");
	FILE *f = fopen(path, "r");
	char line[4096];
	int cases = 0;

	CHECK(f != NULL);
	if (f) {
		while (fgets(line, sizeof(line), f))
			cases += check_line(line);
		fclose(f);
	}
	free(path);
	printf("reference: %d schedules\n", cases);
	CHECK(cases >= 8);
}

static void test_spending(void)
{
	for (int s = SEQ_OBRIEN_FLEMING; s <= SEQ_POCOCK; s++) {
		double before = 0;

		CHECK(seq_alpha_spent(s, ALPHA, 0) == 0);
		CHECK_NEAR(seq_alpha_spent(s, ALPHA, 1), ALPHA, 1e-15);
		CHECK(seq_alpha_spent(s, ALPHA, 2) == ALPHA);
		for (double t = 0.05; t < 1; t += 0.05) {
			double now = seq_alpha_spent(s, ALPHA, t);

			CHECK(now > before && now < ALPHA);
			before = now;
		}
	}
	/* O'Brien-Fleming spends almost nothing early, Pocock a lot */
	CHECK(seq_alpha_spent(SEQ_OBRIEN_FLEMING, ALPHA, 0.1) < 1e-6);
	CHECK(seq_alpha_spent(SEQ_POCOCK, ALPHA, 0.1) > 0.005);
	/* one look at t = 1 is the fixed-sample test */
	{
		double t = 1, z;

		seq_boundaries(SEQ_OBRIEN_FLEMING, ALPHA, &t, 1, &z);
		CHECK_NEAR(z, gsl_cdf_ugaussian_Qinv(ALPHA / 2), 1e-12);
	}
	/* a look that adds nothing spends nothing */
	{
		double t[] = { 0.5, 0.5, 1 }, z[3];

		seq_boundaries(SEQ_POCOCK, ALPHA, t, 3, z);
		CHECK(isfinite(z[0]) && isinf(z[1]) && isfinite(z[2]));
	}
	/*
	 * seq_boundary(): the newest look's boundary; a last look spends
	 * all that is left, whatever its information
	 */
	{
		double t[] = { 0.3, 0.6 }, ended[] = { 0.3, 1 }, z[2], last[2];

		seq_boundaries(SEQ_OBRIEN_FLEMING, ALPHA, t, 2, z);
		seq_boundaries(SEQ_OBRIEN_FLEMING, ALPHA, ended, 2, last);
		CHECK(seq_boundary(SEQ_OBRIEN_FLEMING, ALPHA, t, 2, false) ==
		      z[1]);
		CHECK(last[1] < z[1]);
		CHECK(seq_boundary(SEQ_OBRIEN_FLEMING, ALPHA, t, 2, true) ==
		      last[1]);
		CHECK_NEAR(seq_boundary(SEQ_OBRIEN_FLEMING, ALPHA, t, 1, true),
			   gsl_cdf_ugaussian_Qinv(ALPHA / 2), 1e-12);
		CHECK(isinf(seq_boundary(SEQ_POCOCK, ALPHA, t, 0, true)));
	}
}

static void test_information(void)
{
	struct seq_look equal = { 15, 15 }, lopsided = { 10, 30 }, none = { 0, 5 };

	CHECK_NEAR(seq_information(&equal, 30), 0.5, 1e-15);
	CHECK_NEAR(seq_information(&lopsided, 30), 7.5 / 15, 1e-15);
	CHECK(seq_information(&none, 30) == 0);
}

struct scenario {
	const char *what;
	enum seq_spending spending;
	double shift;		/* true change, relative */
	double min_change;	/* percent */
	bool fixed_level;	/* every look with a fixed 95% interval */
};

struct outcome {
	int up, down, same, undecided;
	double runs;		/* mean runs per side at the stop */
};

/*
 * One sequence: 30 runs per side drawn at once with 1% noise around 100,
 * looked at after every round from 3 on.
 */
static enum seq_verdict run_sequence(gsl_rng *rng, const struct scenario *s,
				     const double *z, double *estimate,
				     size_t *runs)
{
	struct seq_design d = {
		.spending = s->spending, .alpha = ALPHA, .max_runs = MAX_RUNS,
		.min_change = s->min_change,
	};
	double a[MAX_RUNS], b[MAX_RUNS];
	struct seq_result res = { 0 };

	for (size_t i = 0; i < MAX_RUNS; i++) {
		a[i] = 100 + gsl_ran_gaussian(rng, 1);
		b[i] = 100 * (1 + s->shift) + gsl_ran_gaussian(rng, 1);
	}
	for (size_t n = FIRST_LOOK; n <= MAX_RUNS; n++) {
		double bound = s->fixed_level ? gsl_cdf_ugaussian_Qinv(0.025)
					      : z[n - FIRST_LOOK];

		seq_judge(&d, bound, n == MAX_RUNS, a, n, b, n, &res);
		if (res.verdict != SEQ_CONTINUE) {
			*runs = n;
			break;
		}
	}
	*estimate = res.ci.estimate;
	return res.verdict;
}

static struct outcome simulate(const struct scenario *s, unsigned long seed)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double t[LOOKS], z[LOOKS];
	struct outcome o = { 0 };

	for (size_t j = 0; j < LOOKS; j++)
		t[j] = (double)(FIRST_LOOK + j) / MAX_RUNS;
	seq_boundaries(s->spending, ALPHA, t, LOOKS, z);
	gsl_rng_set(rng, seed);
	for (int i = 0; i < SEQUENCES; i++) {
		double estimate = 0;
		size_t runs = MAX_RUNS;

		switch (run_sequence(rng, s, z, &estimate, &runs)) {
		case SEQ_CHANGED:
			if (estimate > 0)
				o.up++;
			else
				o.down++;
			break;
		case SEQ_SAME:
			o.same++;
			break;
		default:
			o.undecided++;
		}
		o.runs += (double)runs / SEQUENCES;
	}
	gsl_rng_free(rng);
	printf("%-52s changed +%d -%d, same %d, undecided %d, %.1f runs\n",
	       s->what, o.up, o.down, o.same, o.undecided, o.runs);
	return o;
}

static void test_simulation(void)
{
	const int nominal = (int)(ALPHA * SEQUENCES);
	struct outcome o;

	for (int sp = SEQ_OBRIEN_FLEMING; sp <= SEQ_POCOCK; sp++) {
		struct scenario aa = { "A/A, --min-change 0", sp, 0, 0, false };
		struct scenario aa1 = { "A/A, --min-change 1%", sp, 0, 1, false };
		struct scenario ab = { "A/B +5%", sp, 0.05, 1, false };
		struct scenario margin = { "A/B +1% = --min-change", sp, 0.01, 1,
					   false };

		printf("%s:\n", seq_spending_names[sp]);
		o = simulate(&aa, 1 + sp);
		CHECK(o.up + o.down <= nominal);
		o = simulate(&aa1, 11 + sp);
		CHECK(o.up + o.down <= nominal);
		CHECK(o.same >= SEQUENCES / 2);
		o = simulate(&ab, 21 + sp);
		CHECK(o.up >= SEQUENCES * 95 / 100 && o.down == 0);
		o = simulate(&margin, 31 + sp);
		CHECK(o.same <= nominal);
	}
	/* the same A/A sequences judged with a fixed 95% interval */
	{
		struct scenario naive = { "A/A, fixed 95% interval at every look",
					  SEQ_OBRIEN_FLEMING, 0, 0, true };

		o = simulate(&naive, 1);
		CHECK(o.up + o.down > 3 * nominal);
	}
}

/* seq_decide() is seq_boundaries() and seq_judge() at the newest look. */
static void test_decide(void)
{
	struct seq_design d = { SEQ_OBRIEN_FLEMING, ALPHA, 10, 1, false };
	struct seq_look looks[] = { { 3, 3 }, { 4, 4 }, { 5, 5 } };
	const double a[] = { 100.1, 99.4, 100.6, 99.9, 100.3 };
	const double b[] = { 106.2, 104.9, 105.4, 105.8, 104.7 };
	double t[3], z[3];
	struct seq_result got, want;

	for (size_t j = 0; j < 3; j++)
		t[j] = seq_information(&looks[j], 10);
	seq_boundaries(d.spending, d.alpha, t, 3, z);
	seq_judge(&d, z[2], false, a, 5, b, 5, &want);
	CHECK(seq_decide(&d, looks, 3, a, 5, b, 5, &got) == 0);
	CHECK(got.verdict == want.verdict && got.z == want.z);
	CHECK(got.verdict == SEQ_CHANGED);
	CHECK_STR(seq_verdict_name(got.verdict), "changed");
	CHECK(got.ci.low > 0 && got.level < 0.05);
	/* the looks must end with the samples given */
	CHECK(seq_decide(&d, looks, 2, a, 5, b, 5, &got) == -1);
	CHECK(seq_decide(&d, looks, 0, a, 5, b, 5, &got) == -1);
	/* too few runs: continue; the last look: undecided */
	seq_judge(&d, 2, false, a, 1, b, 5, &got);
	CHECK(got.verdict == SEQ_CONTINUE);
	seq_judge(&d, 2, true, a, 1, b, 5, &got);
	CHECK(got.verdict == SEQ_UNDECIDED);
	/* equal constant samples: same at once */
	seq_judge(&d, 5, false, a, 5, a, 5, &got);
	CHECK(got.verdict == SEQ_CONTINUE || got.verdict == SEQ_SAME);
	{
		const double c[] = { 7, 7, 7 };

		seq_judge(&d, 5, false, c, 3, c, 3, &got);
		CHECK(got.verdict == SEQ_SAME);
	}
}

int main(void)
{
	gsl_set_error_handler_off();
	test_reference();
	test_spending();
	test_information();
	test_decide();
	test_simulation();
	return check_done();
}
