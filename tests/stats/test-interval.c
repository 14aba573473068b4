// SPDX-License-Identifier: GPL-2.0
/*
 * The intervals of the change (src/stats/stats.c: Fieller-Welch, Hodges-Lehmann
 * with Moses' interval) against reference values computed with scipy by
 * other means (testdata/stats/interval-reference.txt, written by
 * scripts/gen-interval-ref.py), their edges, and the runs needed to decide.
 */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "check.h"
#include "kdelta/stats.h"
#include "kdelta/util.h"
#include "reference.h"

struct ref_case {
	char kind[16], name[64], method[16];
	double low, high, df, est;
	double *a, *b;
	size_t na, nb;
};

static void parse_field(struct ref_case *c, const char *field)
{
	const char *value = strchr(field, '=');

	if (!value)
		xdie("interval-reference.txt: field without '=': '%s'", field);
	value++;
	if (!strncmp(field, "low=", 4))
		c->low = strtod(value, NULL);
	else if (!strncmp(field, "high=", 5))
		c->high = strtod(value, NULL);
	else if (!strncmp(field, "df=", 3))
		c->df = strtod(value, NULL);
	else if (!strncmp(field, "est=", 4))
		c->est = strtod(value, NULL);
	else if (!strncmp(field, "method=", 7))
		snprintf(c->method, sizeof(c->method), "%s", value);
	else if (!strncmp(field, "a=", 2))
		c->a = reference_list("interval-reference.txt", value, &c->na);
	else if (!strncmp(field, "b=", 2))
		c->b = reference_list("interval-reference.txt", value, &c->nb);
	else
		xdie("interval-reference.txt: unknown field '%s'", field);
}

static int parse_case(char *line, struct ref_case *c)
{
	char *save = NULL, *tok;

	memset(c, 0, sizeof(*c));
	tok = strtok_r(line, " \n", &save);
	if (!tok || tok[0] == '#')
		return 0;
	snprintf(c->kind, sizeof(c->kind), "%s", tok);
	tok = strtok_r(NULL, " \n", &save);
	if (!tok)
		xdie("interval-reference.txt: case without a name");
	snprintf(c->name, sizeof(c->name), "%s", tok);
	while ((tok = strtok_r(NULL, " \n", &save)))
		parse_field(c, tok);
	return 1;
}

static void check_case(const struct ref_case *c, int *counts)
{
	struct change_interval ci;
	int before = check_failures;

	if (!strcmp(c->kind, "fieller")) {
		CHECK(fieller_interval(c->a, c->na, c->b, c->nb, 0.05, false,
				       false, &ci) == 0);
		CHECK(ci.bounded);
		/* GSL's t quantiles agree with scipy's to about 1e-9 */
		CHECK_NEAR(ci.low, c->low, 1e-7);
		CHECK_NEAR(ci.high, c->high, 1e-7);
		CHECK_NEAR(ci.df, c->df, 1e-9);
		CHECK(ci.low <= ci.estimate && ci.estimate <= ci.high);
		counts[0]++;
	} else if (!strcmp(c->kind, "moses")) {
		CHECK(hodges_lehmann_interval(c->a, c->na, c->b, c->nb, 0.05,
					      false, &ci) == 0);
		CHECK(ci.bounded);
		CHECK_NEAR(ci.estimate, c->est, 1e-12);
		CHECK_NEAR(ci.low, c->low, 1e-12);
		CHECK_NEAR(ci.high, c->high, 1e-12);
		counts[1 + !strcmp(c->method, "exact")]++;
	} else {
		xdie("interval-reference.txt: unknown kind '%s'", c->kind);
	}
	if (check_failures != before)
		fprintf(stderr, "  in reference case %s %s\n", c->kind,
			c->name);
}

static void test_reference(void)
{
	const char *dir = getenv("TESTDATA");
	char *path = xasprintf("%s/stats/interval-reference.txt",
			       dir ? dir : "testdata");
	FILE *f = fopen(path, "r");
	char line[16384];
	int counts[3] = { 0 };

	CHECK(f != NULL);
	if (!f) {
		free(path);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		struct ref_case c;

		CHECK(strchr(line, '\n') != NULL);
		if (parse_case(line, &c))
			check_case(&c, counts);
		free(c.a);
		free(c.b);
	}
	fclose(f);
	free(path);
	printf("reference: %d fieller, %d moses asymptotic, %d moses exact\n",
	       counts[0], counts[1], counts[2]);
	CHECK(counts[0] >= 20 && counts[1] >= 5 && counts[2] >= 10);
}

/*
 * Fieller's ends are where Welch's statistic for mean(b) - rho mean(a)
 * reaches the t quantile: checked at the ends of a fresh interval.
 */
static void test_fieller_ends(void)
{
	const double a[] = { 100.2, 99.1, 101.3, 98.7, 100.9, 99.8 };
	const double b[] = { 96.1, 97.4, 95.2, 98.0, 96.6 };
	double ma = 0, mb = 0, va = 0, vb = 0;
	struct change_interval ci;

	for (size_t i = 0; i < 6; i++)
		ma += a[i] / 6;
	for (size_t i = 0; i < 5; i++)
		mb += b[i] / 5;
	for (size_t i = 0; i < 6; i++)
		va += (a[i] - ma) * (a[i] - ma) / 5 / 6;
	for (size_t i = 0; i < 5; i++)
		vb += (b[i] - mb) * (b[i] - mb) / 4 / 5;
	CHECK(fieller_interval(a, 6, b, 5, 0.1, false, false, &ci) == 0);
	for (int end = 0; end < 2; end++) {
		double rho = 1 + (end ? ci.high : ci.low) / 100;
		double t = (mb - rho * ma) / sqrt(vb + rho * rho * va);

		CHECK_NEAR(fabs(t), gsl_cdf_tdist_Qinv(0.05, ci.df), 1e-9);
	}
	CHECK(ci.low < ci.estimate && ci.estimate < ci.high && ci.high < 0);
	/* Hsu's degrees of freedom: the smaller sample's n - 1, wider. */
	{
		struct change_interval hsu;

		CHECK(fieller_interval(a, 6, b, 5, 0.1, false, true, &hsu) == 0);
		CHECK(hsu.df == 4);
		CHECK(hsu.low < ci.low && hsu.high > ci.high);
	}
}

static void test_fieller_edges(void)
{
	const double c5[] = { 5, 5, 5 }, c6[] = { 6, 6, 6, 6 };
	const double around0[] = { -1, 1, -0.5, 0.6 }, x[] = { 10, 11, 12 };
	const double neg_a[] = { -10, -11, -12 }, neg_b[] = { -5, -5.5, -6 };
	const double pct_a[] = { 40, 42, 41 }, pct_b[] = { 45, 46, 47 };
	struct change_interval ci;

	/* constant samples: the interval is the change itself */
	CHECK(fieller_interval(c5, 3, c5, 3, 0.05, false, false, &ci) == 0);
	CHECK(ci.bounded && ci.low == 0 && ci.high == 0 && isinf(ci.df));
	CHECK(fieller_interval(c5, 3, c6, 4, 0.05, false, false, &ci) == 0);
	CHECK(ci.bounded);
	CHECK_NEAR(ci.low, 20, 1e-12);
	CHECK_NEAR(ci.high, 20, 1e-12);
	/* a base mean indistinguishable from 0: no bounded interval */
	CHECK(fieller_interval(around0, 4, x, 3, 0.05, false, false, &ci) == 0);
	CHECK(!ci.bounded && isinf(ci.low) && ci.low < 0 && isinf(ci.high));
	/* an exact zero base */
	{
		const double zero[] = { 0, 0, 0 };

		CHECK(fieller_interval(zero, 3, x, 3, 0.05, false, false,
				       &ci) == 0);
		CHECK(!ci.bounded);
		/* ... unless nothing ever moved: 0 -> 0 is no change */
		CHECK(fieller_interval(zero, 3, zero, 3, 0.05, false, false,
				       &ci) == 0);
		CHECK(ci.bounded && ci.low == 0 && ci.high == 0);
	}
	/* negative means: from -11 to -5.5 is a rise of 50% */
	CHECK(fieller_interval(neg_a, 3, neg_b, 3, 0.05, false, false, &ci) == 0);
	CHECK_NEAR(ci.estimate, 50, 1e-12);
	CHECK(ci.bounded && ci.low < 50 && ci.high > 50 && ci.low > 0);
	/* points: Welch's interval of the difference, 41 -> 46 */
	CHECK(fieller_interval(pct_a, 3, pct_b, 3, 0.05, true, false, &ci) == 0);
	CHECK_NEAR(ci.estimate, 5, 1e-12);
	CHECK_NEAR(ci.high - ci.estimate,
		   gsl_cdf_tdist_Qinv(0.025, 4) * sqrt(2.0 / 3), 1e-12);
	/* one run is no spread */
	CHECK(fieller_interval(x, 1, x, 3, 0.05, false, false, &ci) == -1);
	CHECK(!ci.bounded);
}

static void test_moses_edges(void)
{
	const double a[] = { 10, 11, 12 }, b[] = { 13, 14, 15 };
	const double a4[] = { 10, 11, 12, 13 }, b4[] = { 14, 15, 16, 17 };
	const double same[] = { 7, 7, 7, 7, 7 }, zero[] = { 0, 1, -1 };
	struct change_interval ci;

	/* 3 against 3: U's smallest two-sided p is 0.1, no 95% interval */
	CHECK(hodges_lehmann_interval(a, 3, b, 3, 0.05, false, &ci) == 0);
	CHECK(!ci.bounded && ci.critical == 0);
	CHECK_NEAR(ci.estimate, 300.0 / 11, 1e-12);
	/* ... but a 90% one: the extreme differences */
	CHECK(hodges_lehmann_interval(a, 3, b, 3, 0.1, false, &ci) == 0);
	CHECK(ci.bounded);
	CHECK_NEAR(ci.low, 100.0 / 11, 1e-12);
	CHECK_NEAR(ci.high, 500.0 / 11, 1e-12);
	/* 4 against 4 at 95%: P(U = 0) = 1/70 < 0.025, the extremes */
	CHECK(hodges_lehmann_interval(a4, 4, b4, 4, 0.05, true, &ci) == 0);
	CHECK(ci.bounded && ci.critical == 1 && ci.low == 1 && ci.high == 7);
	/* all tied: the interval is 0, whatever the rank */
	CHECK(hodges_lehmann_interval(same, 5, same, 5, 0.05, false, &ci) == 0);
	CHECK(ci.bounded && ci.low == 0 && ci.high == 0);
	/* a base median of 0: no percent */
	CHECK(hodges_lehmann_interval(zero, 3, b, 3, 0.05, false, &ci) == 0);
	CHECK(!ci.bounded && isnan(ci.estimate));
	CHECK(hodges_lehmann_interval(a, 0, b, 3, 0.05, false, &ci) == -1);
}

/* n runs with mean m and standard deviation sd exactly (symmetric). */
static void exact_sample(double *x, size_t n, double m, double sd)
{
	/* +-d alternating, d chosen so that the n - 1 divisor gives sd */
	double d = sd * sqrt((double)(n - 1) / (double)(n - n % 2));

	for (size_t i = 0; i < n; i++)
		x[i] = m + (i == n - 1 && n % 2 ? 0 : (i % 2 ? d : -d));
}

static void test_runs_to_decide(void)
{
	double a[5], b[5];

	exact_sample(a, 5, 100, 4);
	exact_sample(b, 5, 96.9, 4);
	/*
	 * The example: -3.1% at 4% noise, 5 runs; the interval's
	 * half-width must fall below 3.1%: t(0.975, 26) 5.57 / sqrt(14) =
	 * 3.06 does, 13 runs give 3.19.
	 */
	CHECK(runs_to_decide(a, 5, b, 5, -3.1, 1, false, SIG_WELCH) == 14);
	/* Mann-Whitney needs pi/3 as many */
	CHECK(runs_to_decide(a, 5, b, 5, -3.1, 1, false, SIG_MWU) == 15);
	/* a change below min_change: shown inside +-1% needs 1 - 0.3 */
	CHECK(runs_to_decide(a, 5, b, 5, -0.3, 1, false, SIG_WELCH) > 200);
	/* no noise: the fewest runs */
	{
		const double c[] = { 5, 5, 5 };

		CHECK(runs_to_decide(c, 3, c, 3, 0, 1, false, SIG_WELCH) == 2);
		CHECK(runs_to_decide(c, 3, c, 3, 0, 1, false, SIG_MWU) == 4);
		/* a change of exactly 0 cannot be shown nonzero */
		CHECK(runs_to_decide(c, 3, c, 3, 0, 0, false, SIG_WELCH) == 0);
	}
	/* one sample without spread known: the other's */
	CHECK(runs_to_decide(a, 1, b, 5, -3.1, 1, false, SIG_WELCH) > 0);
	CHECK(runs_to_decide(a, 1, b, 1, -3.1, 1, false, SIG_WELCH) == 0);
	/* beyond the cap */
	CHECK(runs_to_decide(a, 5, b, 5, -0.9999, 1, false, SIG_WELCH) ==
	      RUNS_NEEDED_MAX + 1);
	/* points: the difference's spread, 4 * sqrt(2) per run */
	CHECK(runs_to_decide(a, 5, b, 5, 3, 1, true, SIG_WELCH) ==
	      runs_to_decide(a, 5, b, 5, 3, 1, true, SIG_LKP));
}

int main(void)
{
	gsl_set_error_handler_off();
	test_reference();
	test_fieller_ends();
	test_fieller_edges();
	test_moses_edges();
	test_runs_to_decide();
	return check_done();
}
