// SPDX-License-Identifier: GPL-2.0
/*
 * src/stats/stats.c against reference values computed with scipy (testdata/stats/
 * reference.txt, written by scripts/gen-stats-ref.py), and the edge cases
 * scipy answers with NaN or that are kdelta's own (lkp-tests' heuristic).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kdelta/stats.h"
#include "kdelta/util.h"
#include "reference.h"

#define P_TOLERANCE 1e-9

struct ref_case {
	char kind[16];
	char name[64];
	double stat, df, p;
	char method[16];
	double *a, *b;
	size_t na, nb;
};

static void parse_field(struct ref_case *c, const char *field)
{
	const char *value = strchr(field, '=');

	if (!value)
		xdie("reference.txt: field without '=': '%s'", field);
	value++;
	if (!strncmp(field, "t=", 2) || !strncmp(field, "u=", 2))
		c->stat = strtod(value, NULL);
	else if (!strncmp(field, "df=", 3))
		c->df = strtod(value, NULL);
	else if (!strncmp(field, "method=", 7))
		snprintf(c->method, sizeof(c->method), "%s", value);
	else if (!strncmp(field, "a=", 2) || !strncmp(field, "p=", 2))
		c->a = reference_list("reference.txt", value, &c->na);
	else if (!strncmp(field, "b=", 2) || !strncmp(field, "q=", 2))
		c->b = reference_list("reference.txt", value, &c->nb);
	else
		xdie("reference.txt: unknown field '%s'", field);
}

/* One line into c; returns 0 for comments and blank lines. */
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
		xdie("reference.txt: case without a name");
	snprintf(c->name, sizeof(c->name), "%s", tok);
	while ((tok = strtok_r(NULL, " \n", &save))) {
		/* Welch and MWU have both p= (a number) and a= lists. */
		if (!strncmp(tok, "p=", 2) && strcmp(c->kind, "bh"))
			c->p = strtod(tok + 2, NULL);
		else
			parse_field(c, tok);
	}
	return 1;
}

static void check_reference(const struct ref_case *c, int *counts)
{
	struct test_result r;

	if (!strcmp(c->kind, "welch")) {
		CHECK(welch_test(c->a, c->na, c->b, c->nb, &r) == 0);
		CHECK_NEAR(r.statistic, c->stat, P_TOLERANCE);
		CHECK_NEAR(r.df, c->df, P_TOLERANCE);
		CHECK_NEAR(r.p / c->p, 1, P_TOLERANCE);
		counts[0]++;
	} else if (!strcmp(c->kind, "mwu")) {
		CHECK(mwu_test(c->a, c->na, c->b, c->nb, &r) == 0);
		CHECK(r.exact == !strcmp(c->method, "exact"));
		CHECK(r.statistic == c->stat);
		CHECK_NEAR(r.p / c->p, 1, P_TOLERANCE);
		counts[1 + r.exact]++;
	} else if (!strcmp(c->kind, "bh")) {
		double *q = xmalloc(c->na * sizeof(*q));

		CHECK(c->na == c->nb);
		bh_adjust(c->a, c->na, q);
		for (size_t i = 0; i < c->na; i++)
			CHECK_NEAR(q[i], c->b[i], 1e-12);
		free(q);
		counts[3]++;
	} else {
		xdie("reference.txt: unknown kind '%s'", c->kind);
	}
	if (check_failures)
		fprintf(stderr, "  in reference case %s %s\n", c->kind,
			c->name);
}

static void test_reference(void)
{
	const char *dir = getenv("TESTDATA");
	char *path = xasprintf("%s/stats/reference.txt", dir ? dir : "testdata");
	FILE *f = fopen(path, "r");
	char line[16384];
	int counts[4] = { 0 };

	CHECK(f != NULL);
	if (!f) {
		free(path);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		struct ref_case c;

		CHECK(strchr(line, '\n') != NULL);	/* buffer large enough */
		if (parse_case(line, &c))
			check_reference(&c, counts);
		free(c.a);
		free(c.b);
	}
	fclose(f);
	free(path);
	printf("reference: %d welch, %d mwu asymptotic, %d mwu exact, %d bh\n",
	       counts[0], counts[1], counts[2], counts[3]);
	/* The file has all four kinds; an empty parse must not pass. */
	CHECK(counts[0] >= 20 && counts[1] >= 5 && counts[2] >= 15 &&
	      counts[3] >= 5);
}

static void test_summarize(void)
{
	const double x[] = { 4, 1, 3, 2, 10 };
	const double neg[] = { -2, -4 };
	struct sample_summary s;

	summarize(x, 5, &s);
	CHECK(s.n == 5);
	CHECK_NEAR(s.mean, 4, 1e-15);
	CHECK_NEAR(s.stddev, sqrt(12.5), 1e-15);	/* sum sq 50 / 4 */
	CHECK_NEAR(s.rel_stddev, 100 * sqrt(12.5) / 4, 1e-13);
	CHECK(s.min == 1 && s.max == 10);
	summarize(x, 4, &s);
	CHECK(s.min == 1 && s.max == 4);
	summarize(neg, 2, &s);
	CHECK(s.min == -4 && s.max == -2);
	CHECK_NEAR(s.rel_stddev, 100 * sqrt(2) / 3, 1e-13);
	summarize(x, 1, &s);
	CHECK(s.n == 1 && s.mean == 4 && s.stddev == 0 && s.min == 4 &&
	      s.max == 4);
	summarize(NULL, 0, &s);
	CHECK(s.n == 0 && s.mean == 0 && s.stddev == 0 && s.rel_stddev == 0);
}

/* The test does not depend on the unit: tiny magnitudes give the same p. */
static void test_welch_scale(void)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 7, 6 };
	double ta[3], tb[4];
	struct test_result unit, tiny;

	for (size_t i = 0; i < 3; i++)
		ta[i] = a[i] * 1e-120;
	for (size_t i = 0; i < 4; i++)
		tb[i] = b[i] * 1e-120;
	CHECK(welch_test(a, 3, b, 4, &unit) == 0);
	CHECK(welch_test(ta, 3, tb, 4, &tiny) == 0);
	CHECK(fabs(tiny.df - unit.df) < 1e-9 * unit.df);
	CHECK(fabs(tiny.p - unit.p) < 1e-9 * unit.p);
}

static void test_welch_edges(void)
{
	const double c5[] = { 5, 5, 5 }, c7[] = { 7, 7, 7, 7 };
	const double zero[] = { 0, 0, 0 }, x[] = { 1, 2 };
	const double wild[] = { 1e308, -1e308, 0 };
	struct test_result r;

	CHECK(welch_test(c5, 3, c5, 3, &r) == 0);
	CHECK(r.p == 1 && r.statistic == 0 && r.df == 4);
	CHECK(welch_test(zero, 3, zero, 3, &r) == 0);
	CHECK(r.p == 1 && !isnan(r.statistic));
	CHECK(welch_test(c5, 3, c7, 4, &r) == 0);
	CHECK(r.p == 0 && isinf(r.statistic) && r.statistic < 0);
	CHECK(welch_test(c7, 4, c5, 3, &r) == 0);
	CHECK(r.statistic > 0);
	CHECK(welch_test(x, 1, x, 2, &r) == -1);
	CHECK(welch_test(x, 2, x, 2, &r) == 0);
	CHECK(r.p == 1 && r.statistic == 0);
	/* The variance overflows: no test, rather than GSL's abort(). */
	CHECK(welch_test(wild, 3, zero, 3, &r) == 0);
	CHECK(isnan(r.p) && isnan(r.statistic) && isnan(r.df));
	test_welch_scale();
}

static void test_mwu_edges(void)
{
	const double c[] = { 3, 3, 3, 3 }, a[] = { 1 }, b[] = { 2 };
	const double low[] = { 1, 2, 3, 4, 5 }, high[] = { 6, 7, 8, 9, 10 };
	struct test_result r;

	CHECK(mwu_test(c, 4, c, 3, &r) == 0);	/* all tied: no evidence */
	CHECK(r.p == 1 && !r.exact && r.statistic == 6);
	CHECK(mwu_test(a, 1, b, 1, &r) == 0);
	CHECK(r.exact && r.p == 1);
	CHECK(mwu_test(a, 0, b, 1, &r) == -1);
	/* The smallest p 5 runs each can give: 2 / C(10, 5). */
	CHECK(mwu_test(low, 5, high, 5, &r) == 0);
	CHECK(r.exact && r.statistic == 0);
	CHECK_NEAR(r.p, 2.0 / 252, 1e-15);
	CHECK(mwu_test(high, 5, low, 5, &r) == 0);
	CHECK(r.statistic == 25);
	CHECK_NEAR(r.p, 2.0 / 252, 1e-15);
	CHECK(mwu_test(low, 3, high, 3, &r) == 0);
	CHECK_NEAR(r.p, 0.1, 1e-15);
}

static void test_lkp(void)
{
	const double base[] = { 1, 2, 3, 4, 5 };
	const double above[] = { 3.5, 6, 7, 8, 9 };	/* min > middle 3 */
	const double overlap[] = { 2.5, 6, 7, 8, 9 };
	const double low3[] = { 1, 2, 3 }, high3[] = { 4, 5, 6 };
	double many[32], outlier[32];

	CHECK(lkp_changed(low3, 3, high3, 3));
	CHECK(lkp_changed(high3, 3, low3, 3));
	CHECK(lkp_changed(base, 5, above, 5));
	CHECK(lkp_changed(above, 5, base, 5));
	CHECK(!lkp_changed(base, 5, overlap, 5));
	CHECK(!lkp_changed(overlap, 5, base, 5));
	CHECK(!lkp_changed(base, 5, base, 5));
	CHECK(!lkp_changed(base, 0, base, 5));
	/*
	 * 32 runs: LKP trims 32 >> 5 = 1 value at each end, so one
	 * outlier does not hide the change; with 31 runs nothing is trimmed.
	 */
	for (int i = 0; i < 32; i++) {
		many[i] = 100 + i;
		outlier[i] = i ? 199 + i : 0;
	}
	CHECK(lkp_changed(many, 32, outlier, 32));
	CHECK(!lkp_changed(many, 31, outlier, 31));
}

static void test_bh_edges(void)
{
	const double p[] = { 0.04, 0.01, 0.03, 0.02 };
	double q[4];

	bh_adjust(p, 0, q);	/* nothing to do, nothing touched */
	bh_adjust(p, 4, q);
	/* all four significant at 0.04: each p(k) * 4 / k <= 0.04 */
	for (int i = 0; i < 4; i++)
		CHECK_NEAR(q[i], 0.04, 1e-15);
	/* in place */
	memcpy(q, p, sizeof(p));
	bh_adjust(q, 4, q);
	CHECK_NEAR(q[1], 0.04, 1e-15);
}

/* Iglewicz and Hoaglin's modified z-scores: the run far from the others. */
static void test_outliers(void)
{
	const double one[] = { 10, 10.1, 9.9, 10, 10.05, 14 };
	const double none[] = { 10, 10.1, 9.9, 10, 10.05, 10.2 };
	const double mad0[] = { 1, 1, 1, 1, 2 };
	const double same[] = { 3, 3, 3, 3 };
	bool is[6];
	double z[6], median = 0;

	CHECK(find_outliers(one, 6, is, z, &median) == 1);
	CHECK(is[5] && !is[0] && !is[4]);
	/* median 10.025, MAD 0.05: (14 - 10.025) / (1.4826 * 0.05) */
	CHECK_NEAR(z[5], 3.975 / (1.4826 * 0.05), 1e-9);
	CHECK_NEAR(median, 10.025, 1e-12);
	CHECK(find_outliers(none, 6, is, NULL, NULL) == 0);
	/* a MAD of 0: the mean absolute deviation, 0.2, times 1.2533 */
	CHECK(find_outliers(mad0, 5, is, z, NULL) == 1 && is[4]);
	CHECK_NEAR(z[4], 1 / (1.2533 * 0.2), 1e-9);
	CHECK(find_outliers(same, 4, is, NULL, NULL) == 0);
	CHECK(find_outliers(one, 2, is, NULL, NULL) == 0);
}

int main(void)
{
	test_reference();
	test_summarize();
	test_welch_edges();
	test_mwu_edges();
	test_lkp();
	test_bh_edges();
	test_outliers();
	return check_done();
}
