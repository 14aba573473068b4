// SPDX-License-Identifier: GPL-2.0
/*
 * Units of the report: the ASCII plot against a fixed expected picture,
 * axis ticks, SVG escaping, and the mail writer's headers (neutralised
 * control characters, RFC 2047 words, transfer encodings).
 */
#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kdelta/mail.h"
#include "kdelta/plot.h"
#include "kdelta/report.h"
#include "kdelta/robot.h"
#include "kdelta/util.h"

static char *testdata_file(const char *name)
{
	const char *dir = getenv("TESTDATA");
	struct strbuf sb = STRBUF_INIT;
	struct kd_err err;
	char *path = xasprintf("%s/report/%s", dir ? dir : "testdata", name);

	if (read_file(path, &sb, &err) < 0)
		fprintf(stderr, "%s\n", err.msg);
	free(path);
	return strbuf_detach(&sb);
}

static size_t longest_line(const char *s)
{
	size_t longest = 0;

	while (*s) {
		size_t len = strcspn(s, "\n");

		if (len > longest)
			longest = len;
		s += len + (s[len] == '\n');
	}
	return longest;
}

/* Seed 002's aim9 creat-clo samples (ops_per_sec), five runs each. */
static void test_plot_ascii(void)
{
	static const double good[] = { 563556, 561002, 566120, 559870, 564890 };
	static const double bad[] = { 493033, 470115, 512440, 489900, 498760 };
	struct plot_series series[] = {
		{ "bisect-good", good, 5, NULL },
		{ "bisect-bad", bad, 5, NULL },
	};
	struct strbuf out = STRBUF_INIT;
	char *want = testdata_file("plot-ascii.txt");

	plot_ascii("aim9.creat-clo.ops_per_sec", series, 2, &out);
	CHECK_STR(out.buf, want);
	CHECK(longest_line(out.buf) <= PLOT_ASCII_WIDTH);
	free(want);
	strbuf_release(&out);
}

/* One variant, equal samples, a missing one: still a frame and a legend. */
static void test_plot_ascii_edges(void)
{
	static const double flat[] = { 7, 7, 7 };
	struct plot_series one = { "only", flat, 3, NULL };
	struct plot_series absent[] = { { "a", flat, 3, NULL },
					{ "b", NULL, 0, NULL } };
	struct strbuf out = STRBUF_INIT;

	plot_ascii("flat", &one, 1, &out);
	CHECK(strstr(out.buf, "\t[*] only sample\n") != NULL);
	CHECK(strstr(out.buf, "7.0 +") != NULL);
	CHECK(longest_line(out.buf) <= PLOT_ASCII_WIDTH);
	strbuf_reset(&out);
	plot_ascii("absent", absent, 2, &out);
	CHECK(strstr(out.buf, "\t[O] b sample\n") != NULL);
	CHECK(strchr(out.buf, 'O') == strstr(out.buf, "O] b"));
	strbuf_release(&out);
}

static void test_ticks(void)
{
	double t[16];
	char buf[32];
	size_t n = plot_ticks(470115, 566120, 5, t, 16);

	CHECK(n == 7);
	CHECK_NEAR(t[0], 460000, 0);
	CHECK_NEAR(t[n - 1], 580000, 0);
	n = plot_ticks(0.0025, 0.0068, 5, t, 16);
	CHECK_NEAR(t[0], 0.002, 1e-12);
	plot_tick_label(t, n, 1, buf, sizeof(buf));
	CHECK_STR(buf, "0.003");
	/* One value: 5% of it on either side. */
	n = plot_ticks(1, 1, 5, t, 16);
	CHECK(n >= 2 && t[0] <= 0.95 && t[n - 1] >= 1.05 && t[n - 1] < 1.1);
}

/*
 * Ticks are total: any bounds give at least two finite, ascending ticks
 * covering the range (to a billionth of a step); with them, an ASCII and an SVG plot of one constant
 * metric at the ends of double precision (ASan checks the grid).
 */
static void test_ticks_total(void)
{
	static const double v[] = {
		0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e-300, 1,
		1e15, 1e15 + 0.125, 9007199254740993.0, 1e300,
		1.7976931348623157e308, -1.7976931348623157e308,
		INFINITY, -INFINITY, NAN,
	};
	double t[16];

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		for (size_t j = 0; j < ARRAY_SIZE(v); j++) {
			size_t n = plot_ticks(v[i], v[j], 5, t, 16);
			bool ok = n >= 2;

			for (size_t k = 0; ok && k < n; k++)
				ok = isfinite(t[k]) && (!k || t[k] > t[k - 1]);
			if (ok && v[i] <= v[j] && isfinite(v[i]) && isfinite(v[j]))
				ok = t[0] <= v[i] &&
				     t[n - 1] >= v[j] - (t[1] - t[0]) * 1e-9;
			if (!ok)
				fprintf(stderr, "plot_ticks(%g, %g): %zu ticks\n",
					v[i], v[j], n);
			CHECK(ok);
		}
	CHECK(plot_ticks(0, 1, 5, t, 1) == 0);

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		const double same[] = { v[i], v[i], v[i] };
		struct plot_series s[] = { { "a", same, 3, NULL },
					   { "b", same, 3, NULL } };
		struct strbuf out = STRBUF_INIT;

		plot_ascii("constant", s, 2, &out);
		CHECK(longest_line(out.buf) <= PLOT_ASCII_WIDTH);
		CHECK(!strstr(out.buf, "nan") && !strstr(out.buf, "inf"));
		strbuf_reset(&out);
		plot_svg("constant", NULL, s, 2, &out);
		CHECK(!strstr(out.buf, "nan\"") && !strstr(out.buf, "inf\""));
		strbuf_release(&out);
	}
}

/* Ticks of tiny and huge axes tell neighbours apart. */
static void test_tick_labels(void)
{
	double t[16];
	char a[64], b[64];
	size_t n = plot_ticks(1e15, 1e15 + 4e6, 5, t, 16);

	plot_tick_label(t, n, 0, a, sizeof(a));
	plot_tick_label(t, n, 1, b, sizeof(b));
	CHECK_STR(a, "1e+15");
	CHECK_STR(b, "1.000000001e+15");
	n = plot_ticks(-1e-300, 1e-300, 5, t, 16);
	plot_tick_label(t, n, 1, a, sizeof(a));
	CHECK_STR(a, "-5e-301");
}

static void test_svg(void)
{
	static const double a[] = { 1, 2, 3 }, b[] = { 2, 3, 4 };
	struct plot_series s[] = { { "base<&>", a, 3, NULL },
				   { "x\"y", b, 3, "+50.0%, significant" } };
	struct strbuf out = STRBUF_INIT;

	plot_svg("m\x01<t>", "group", s, 2, &out);
	CHECK(strstr(out.buf, "base&lt;&amp;&gt;") != NULL);
	CHECK(strstr(out.buf, "x&quot;y") != NULL);
	CHECK(strstr(out.buf, "m &lt;t&gt;") != NULL);
	CHECK(strstr(out.buf, "+50.0%, significant") != NULL);
	CHECK(!strstr(out.buf, "<script"));
	strbuf_release(&out);
}

/* A list parsed from text, which must parse. */
static struct mail_addresses addresses(const char *text)
{
	struct mail_addresses list = MAIL_ADDRESSES_INIT;
	struct kd_err err;

	if (mail_addresses_parse(&list, text, &err) < 0) {
		fprintf(stderr, "'%s': %s\n", text, err.msg);
		CHECK(false);
	}
	return list;
}

static struct mail_addresses sample_from, sample_to;

static struct mail sample_mail(void)
{
	mail_addresses_release(&sample_from);
	mail_addresses_release(&sample_to);
	sample_from = addresses("kdelta <r@h>");
	sample_to = addresses("a@b.c");
	return (struct mail){
		.from = &sample_from,
		.to = &sample_to,
		.subject = "[kdelta] abc: x",
		.body = "hello\n",
		.date = 1796000000,
		.message_id_host = "h",
		.unique = 42,
	};
}

/* Each line of the message; true when one starts with prefix. */
static bool has_line(const char *text, const char *prefix)
{
	size_t len = strlen(prefix);

	for (const char *s = text; s; s = strchr(s, '\n'), s = s ? s + 1 : s)
		if (!strncmp(s, prefix, len))
			return true;
	return false;
}

static void test_mail_headers(void)
{
	struct mail m = sample_mail();
	struct mail_addresses to = MAIL_ADDRESSES_INIT;
	struct strbuf out = STRBUF_INIT;
	struct kd_err err;

	m.subject = "evil\r\nBcc: x@y";
	CHECK(mail_addresses_add(&to, "a\nBcc: z@y", "a@b.c", &err) == 0);
	m.to = &to;
	m.in_reply_to = "id@h>\r\nBcc: w@y";
	mail_format(&m, &out);
	CHECK(!has_line(out.buf, "Bcc:"));
	CHECK(has_line(out.buf, "To: \"a Bcc: z@y\" <a@b.c>\n"));
	CHECK(has_line(out.buf, "Subject: evil Bcc: x@y\n"));
	CHECK(has_line(out.buf, "In-Reply-To: <id@hBcc:w@y>\n"));
	CHECK(has_line(out.buf, "Date: Mon, 30 Nov 2026 00:53:20 +0000\n"));
	CHECK(has_line(out.buf, "Message-ID: <kdelta-1796000000-2a@h>\n"));
	CHECK(has_line(out.buf, "Content-Transfer-Encoding: 7bit\n"));
	mail_addresses_release(&to);
	strbuf_release(&out);
}

/*
 * Lists as people type them: blanks around addresses and blank elements
 * are nothing, a quoted name may hold a comma; what is no address is
 * refused, with the element.
 */
static void test_mail_address_parse(void)
{
	static const struct {
		const char *text, *error;
	} bad[] = {
		{ "a@b.c, Last, First <f@l.org>", "'Last' is not an address kdelta writes (local@domain, without blanks, quotes or any of \"(),:;<>[\\]\")" },
		{ "x <a@b.c> y", "'x <a@b.c> y' is not an address (a@b.c, or Name <a@b.c>; a name with a comma in quotes)" },
		{ "\"unterminated <a@b.c>", "'\"unterminated <a@b.c>' is not an address (a@b.c, or Name <a@b.c>; a name with a comma in quotes)" },
		{ "N <a@b.c", "'N <a@b.c' is not an address (a@b.c, or Name <a@b.c>; a name with a comma in quotes)" },
		{ "N <a@b@c>", "'a@b@c' is not an address kdelta writes (local@domain, without blanks, quotes or any of \"(),:;<>[\\]\")" },
		{ "a b@c", "'a b@c' is not an address kdelta writes (local@domain, without blanks, quotes or any of \"(),:;<>[\\]\")" },
		{ "N <a@b\x01>", "'a@b ' is not an address kdelta writes (local@domain, without blanks, quotes or any of \"(),:;<>[\\]\")" },
		{ "\"q\"@b.c", "'\"q\"@b.c' is not an address (a@b.c, or Name <a@b.c>; a name with a comma in quotes)" },
		{ "<@b.c>", "'@b.c' is not an address kdelta writes (local@domain, without blanks, quotes or any of \"(),:;<>[\\]\")" },
	};
	struct mail_addresses l = addresses(" y@z ,, \"Last, First\" <f@l.org>,<x@y>,"
					    " Dr. \"Who\\\"s\" Who <w@h.o> ");
	struct kd_err err;

	CHECK(l.n == 4);
	CHECK_STR(l.v[0].addr, "y@z");
	CHECK(!l.v[0].name);
	CHECK_STR(l.v[1].name, "Last, First");
	CHECK_STR(l.v[1].addr, "f@l.org");
	CHECK(!l.v[2].name);
	CHECK_STR(l.v[3].name, "Dr. Who\"s Who");
	mail_addresses_release(&l);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		CHECK(mail_addresses_parse(&l, bad[i].text, &err) < 0);
		CHECK_STR(err.msg, bad[i].error);
		mail_addresses_release(&l);
	}
}

/*
 * Issue 24: a commit author named "Evil, victim@example.net" added a
 * recipient and garbled the author's address.  The name is quoted now,
 * whatever it holds.
 */
static void test_mail_author_name(void)
{
	static const struct {
		const char *name, *want;
	} cases[] = {
		{ "Evil, victim@example.net", "To: \"Evil, victim@example.net\" <author@example.org>,\n dev@example.org\n" },
		{ "A <b@c>, \"d\\", "To: \"A <b@c>, \\\"d\\\\\" <author@example.org>,\n dev@example.org\n" },
		{ "Plain Name", "To: Plain Name <author@example.org>,\n dev@example.org\n" },
		{ "J\xc3\xb6rg, x@y", "To: =?UTF-8?Q?J=C3=B6rg=2C_x=40y?=\n <author@example.org>,\n dev@example.org\n" },
		{ "", "To: author@example.org,\n dev@example.org\n" },
	};
	struct robot_mail rm = { .author = true, .to = addresses("dev@example.org") };
	struct strbuf out = STRBUF_INIT, note = STRBUF_INIT;
	struct mail m = sample_mail();

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct mail_addresses to = MAIL_ADDRESSES_INIT;

		robot_mail_to(&rm, cases[i].name, "author@example.org", &to,
			      &note);
		m.to = &to;
		strbuf_reset(&out);
		mail_format(&m, &out);
		if (!has_line(out.buf, cases[i].want))
			fprintf(stderr, "%s\n", out.buf);
		CHECK(has_line(out.buf, cases[i].want));
		mail_addresses_release(&to);
	}
	CHECK_STR(note.buf, "");
	/* An author address that is none: left out, and said. */
	{
		struct mail_addresses to = MAIL_ADDRESSES_INIT;

		robot_mail_to(&rm, "x", "a@b>, c@d", &to, &note);
		CHECK(to.n == 1);
		CHECK_STR(to.v[0].addr, "dev@example.org");
		CHECK_STR(note.buf, "the author's address is left out of To: 'a@b>, c@d' is not an address kdelta writes (local@domain, without blanks, quotes or any of \"(),:;<>[\\]\")");
		mail_addresses_release(&to);
	}
	mail_addresses_release(&rm.to);
	strbuf_release(&note);
	strbuf_release(&out);
}

/* A long address folds before it, never after it onto a blank line. */
static void test_mail_address_blanks(void)
{
	struct mail m = sample_mail();
	struct mail_addresses to = MAIL_ADDRESSES_INIT;
	struct strbuf out = STRBUF_INIT, long_addr = STRBUF_INIT,
		      want = STRBUF_INIT;
	struct kd_err err;

	CHECK(mail_addresses_add(&to, NULL, "y@z", &err) == 0);
	strbuf_addchars(&long_addr, 'x', 80);
	strbuf_addstr(&long_addr, "@h");
	CHECK(mail_addresses_add(&to, "", long_addr.buf, &err) == 0);
	m.to = &to;
	mail_format(&m, &out);
	strbuf_addstr(&want, "To: y@z,\n ");
	strbuf_addstr(&want, long_addr.buf);
	strbuf_addch(&want, '\n');
	CHECK(has_line(out.buf, want.buf));
	CHECK(!strstr(out.buf, "\n \n"));
	mail_addresses_release(&to);
	strbuf_release(&want);
	strbuf_release(&long_addr);
	strbuf_release(&out);
}

/* The commit's author, also a configured recipient, gets the mail once. */
static void test_mail_address_twice(void)
{
	struct mail m = sample_mail();
	struct mail_addresses to = addresses("Dev <dev@example.org>, DEV@Example.org, other@example.org");
	struct mail_addresses cc = addresses("dev@example.org, cc@example.org, <Cc@example.org>");
	struct strbuf out = STRBUF_INIT;

	m.to = &to;
	m.cc = &cc;
	mail_format(&m, &out);
	CHECK(has_line(out.buf, "To: Dev <dev@example.org>,\n other@example.org\n"));
	CHECK(has_line(out.buf, "Cc: dev@example.org,\n cc@example.org\n"));
	mail_addresses_release(&to);
	mail_addresses_release(&cc);
	strbuf_release(&out);
}

static void test_mail_encoding(void)
{
	struct mail m = sample_mail();
	struct strbuf out = STRBUF_INIT, body = STRBUF_INIT;

	m.subject = "xfs: gr\xc3\xb6\xc3\x9f""ere Schreibvorg\xc3\xa4nge";
	mail_addresses_release(&sample_from);
	sample_from = addresses("J\xc3\xb6rg Tester <j@t.example>");
	m.body = "\xc2\xb1 1%\n";
	mail_format(&m, &out);
	CHECK(has_line(out.buf, "Subject: =?UTF-8?Q?xfs:_gr=C3=B6=C3=9Fere_Schreibvorg=C3=A4nge?=\n"));
	CHECK(has_line(out.buf, "From: =?UTF-8?Q?J=C3=B6rg_Tester?=\n <j@t.example>\n"));
	CHECK(has_line(out.buf, "Content-Transfer-Encoding: 8bit\n"));
	strbuf_reset(&out);
	/* A line over 998 octets: quoted-printable, short lines. */
	strbuf_addchars(&body, 'x', 2000);
	strbuf_addch(&body, '\n');
	m.body = body.buf;
	mail_format(&m, &out);
	CHECK(has_line(out.buf, "Content-Transfer-Encoding: quoted-printable\n"));
	CHECK(longest_line(out.buf) <= 78);
	strbuf_release(&body);
	strbuf_release(&out);
}

static void test_change_text(void)
{
	struct metric_cell c = { 0 };
	struct strbuf sb = STRBUF_INIT;

	c.change = -13.64;
	report_add_change(&sb, &c);
	CHECK_STR(sb.buf, "-13.6%");
	strbuf_reset(&sb);
	c.change_absolute = true;
	c.change = 2.46;
	report_add_change(&sb, &c);
	CHECK_STR(sb.buf, "+2.5 points");
	strbuf_release(&sb);
}

int main(void)
{
	test_plot_ascii();
	test_plot_ascii_edges();
	test_ticks();
	test_ticks_total();
	test_tick_labels();
	test_svg();
	test_mail_headers();
	test_mail_address_parse();
	test_mail_author_name();
	test_mail_address_blanks();
	test_mail_address_twice();
	test_mail_encoding();
	test_change_text();
	mail_addresses_release(&sample_from);
	mail_addresses_release(&sample_to);
	return check_done();
}
