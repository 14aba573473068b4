// SPDX-License-Identifier: GPL-2.0
/*
 * strbuf_add_ruby_number() against Ruby 3.1's own format(): every line of
 * testdata/render/rubyfmt-reference.txt ("SPEC<TAB>VALUE<TAB>RUBY"), made
 * by scripts/gen-rubyfmt-ref.rb, and cases worked out by hand.
 *
 * With "--print", reads "SPEC<TAB>VALUE" lines on standard input and
 * prints each with kdelta's output appended: scripts/check-rubyfmt.sh
 * compares that with a live Ruby on many more values.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kdelta/rubyfmt.h"
#include "kdelta/util.h"

static char *format_one(const char *spec, double x)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_ruby_number(&sb, spec, x);
	return strbuf_detach(&sb);
}

static void check_one(const char *spec, double x, const char *want)
{
	char *got = format_one(spec, x);

	if (strcmp(got, want))
		fprintf(stderr, "format(\"%s\", %.17g)\n", spec, x);
	CHECK_STR(got, want);
	free(got);
}

/* Near-ties, signs, zeros, carries and non-finite values. */
static void test_by_hand(void)
{
	check_one("%.1f", 0.35, "0.4");		/* glibc: 0.3 */
	check_one("%.1f", 0.25, "0.2");		/* an exact tie: to even */
	check_one("%.2f", 2.675, "2.68");	/* glibc: 2.67 */
	check_one("%.2f", 1.005, "1.00");	/* 15 digits: 1.00500000000000 */
	check_one("%+.1f", 0.0, "+0.0");
	check_one("%+.1f", -0.04, "-0.0");
	check_one("%.1f", 99999.95, "100000.0");
	check_one("%.1f", 9.96, "10.0");
	check_one("%.0f", 0.5, "0");
	check_one("%.0f", 12.5, "12");
	check_one("%.0f", 0.51, "1");
	check_one("%d", 1001.5, "1001");
	check_one("%d", -1.5, "-1");
	check_one("%d", -0.5, "0");
	check_one("%10d", 222.99, "       222");
	check_one("%+.2g", 2e102, "+2e+102");
	check_one("%+.2g", -123456.0, "-1.2e+05");
	check_one("%.4g", 123456789.5, "1.235e+08");
	check_one("%.4g", 0.0, "0");
	check_one("%.2g", 1e-5, "1e-05");
	check_one("%.2g", 0.000125, "0.00012");
	/* "%g" keeps the zeros of a tie rounded down from above, or exact */
	check_one("%.2g", 1.05e5, "1.0e+05");
	check_one("%.2g", 4.05e22, "4.0e+22");
	check_one("%.2g", 3.05, "3");
	check_one("%.2g", 1.05e20, "1e+20");
	check_one("%.4g", 1.2005e9, "1.200e+09");
	check_one("%10.2f", 1e-300, "      0.00");
	check_one("%+10.1f", 123.45, "    +123.4");
	check_one("%-6.1f", 1.25, "1.2   ");
	check_one("%06.1f", -1.25, "-001.2");
	check_one("%.1f", 1.0 / 0.0, "Inf");
	check_one("%+.1f", 1.0 / 0.0, "+Inf");
	check_one("%10.2f", -1.0 / 0.0, "      -Inf");
	check_one("%.2f", 0.0 / 0.0, "NaN");
}

/*
 * Ruby's outputs of testdata/render/NAME ("SPEC<TAB>VALUE<TAB>RUBY" lines
 * after '#' comments), each against kdelta's: the lines read, and how many
 * kdelta prints otherwise (with check, each of those fails a check).
 */
static size_t against_ruby(const char *name, bool check, size_t *missed)
{
	const char *dir = getenv("TESTDATA");
	char *path = xasprintf("%s/render/%s", dir ? dir : "testdata", name);
	FILE *f = fopen(path, "r");
	char line[256];
	size_t n = 0;

	*missed = 0;
	CHECK(f != NULL);
	while (f && fgets(line, sizeof(line), f)) {
		char *spec = strtok(line, "\t"), *value = strtok(NULL, "\t");
		char *want = strtok(NULL, "\n"), *got;

		if (*line == '#')
			continue;
		CHECK(spec && value && want);
		if (!spec || !value || !want)
			continue;
		got = format_one(spec, strtod(value, NULL));
		*missed += strcmp(got, want) != 0;
		free(got);
		if (check)
			check_one(spec, strtod(value, NULL), want);
		n++;
	}
	if (f)
		fclose(f);
	free(path);
	return n;
}

static void test_reference(void)
{
	size_t missed;

	CHECK(against_ruby("rubyfmt-reference.txt", true, &missed) >= 1000);
}

/*
 * Values a few ulps from a tie (testdata/render/rubyfmt-near-ties.txt,
 * scripts/gen-rubyfmt-ref.rb --ulps): Ruby rounds some of them as ties
 * and some not, by a rule kdelta's model (15 significant digits first)
 * only approaches.  It missed 71 of these 2000 (glibc's printf, which
 * rounds the exact value, misses 130); kdelta(1), LKP COMPATIBILITY, says
 * so.  A change of the model that misses more fails here.
 */
#define NEAR_TIES_MISSED 71

static void test_near_ties(void)
{
	size_t missed, n = against_ruby("rubyfmt-near-ties.txt", false, &missed);

	CHECK(n == 2000);
	if (missed > NEAR_TIES_MISSED)
		fprintf(stderr, "near ties: %zu of %zu printed otherwise than Ruby, more than %d\n",
			missed, n, NEAR_TIES_MISSED);
	CHECK(missed <= NEAR_TIES_MISSED);
}

static int print_stdin(void)
{
	char line[256];

	while (fgets(line, sizeof(line), stdin)) {
		char *spec = strtok(line, "\t"), *value = strtok(NULL, "\t\n");
		char *got;

		if (!spec || !value)
			continue;
		got = format_one(spec, strtod(value, NULL));
		printf("%s\t%s\t%s\n", spec, value, got);
		free(got);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--print"))
		return print_stdin();
	test_by_hand();
	test_reference();
	test_near_ties();
	return check_done();
}
