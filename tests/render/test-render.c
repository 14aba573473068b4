// SPDX-License-Identifier: GPL-2.0
/*
 * Golden tables: rebuild the rows of seeds 002, 003 and 004 from their
 * numbers and compare the rendered lines with the mails' lines in
 * testdata/render/ (each file says where its lines come from and how the
 * mail archive altered them).  Each row's samples are m(1-k), m, m(1+k):
 * their mean is the seed's mean m and their relative stddev the seed's
 * 100k percent.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kdelta/catalogue.h"
#include "kdelta/compare.h"
#include "kdelta/matrix.h"
#include "kdelta/render.h"
#include "kdelta/util.h"

struct lines {
	char **v;
	size_t n, alloc;
};

static void lines_add(struct lines *l, const char *s, size_t len)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = xstrndup(s, len);
}

static void lines_split(struct lines *l, const char *text, bool skip_comments)
{
	while (*text) {
		const char *end = strchrnul(text, '\n');

		if (!skip_comments || *text != '#')
			lines_add(l, text, end - text);
		text = *end ? end + 1 : end;
	}
}

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static void read_testdata(const char *name, struct lines *l)
{
	const char *dir = getenv("TESTDATA");
	char *path = xasprintf("%s/render/%s", dir ? dir : "testdata", name);
	struct strbuf sb = STRBUF_INIT;
	struct kd_err err;

	if (read_file(path, &sb, &err))
		xdie("%s", err.msg);
	lines_split(l, sb.buf, true);
	strbuf_release(&sb);
	free(path);
}

/* Replaces every "from" in s by "to" (no longer than from), in place. */
static void replace_all(char *s, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to);
	char *p;

	while ((p = strstr(s, from))) {
		memcpy(p, to, tl);
		memmove(p + tl, p + fl, strlen(p + fl) + 1);
	}
}

/* "> > " removed and the mis-decoded "Â" read as "±" (seed 004). */
static char *unquote(const char *line, const char *quote)
{
	char *s;

	CHECK(!strncmp(line, quote, strlen(quote)));
	s = xstrdup(line + strlen(quote));
	replace_all(s, "Â", "±");
	return s;
}

/* The archive of seed 002: a run of n blanks, '-' or '=' became n mod 4. */
static char *archive_collapse(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	while (*s) {
		size_t run = 1;

		if (strchr(" -=", *s))
			while (s[run] == *s)
				run++;
		strbuf_addchars(&sb, *s, strchr(" -=", *s) ? run % 4 : 1);
		s += run;
	}
	return strbuf_detach(&sb);
}

static char *squeeze_blanks(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++)
		if (*s != ' ' || (sb.len && sb.buf[sb.len - 1] != ' '))
			strbuf_addch(&sb, *s);
	strbuf_rtrim(&sb);
	return strbuf_detach(&sb);
}

/*
 * Samples m - d, m - d, m + d, m + d, with d a multiple of the unit of m's
 * last place (so that the mean is exactly m), and their summary.  d makes
 * the population stddev pct + 0.5 percent of m, which lkp-tests truncates
 * to pct: the "± pct%" of the row read; 0 when the row shows no stddev.
 */
static void set_cell(struct metric_cell *cell, double m, double pct)
{
	double d = pct ? fabs(m) * (pct + 0.5) / 100 : 0;
	double unit = nextafter(2 * fabs(m), INFINITY) - 2 * fabs(m);

	d = round(d / unit) * unit;
	cell->samples = xmalloc(4 * sizeof(double));
	cell->samples[0] = cell->samples[1] = m - d;
	cell->samples[2] = cell->samples[3] = m + d;
	cell->sum.n = 4;
	summarize(cell->samples, 4, &cell->sum);
}

/*
 * Lines of mails before lkp-tests hid small stddevs (2017): the robot
 * then printed " ±  N%" for every mean, N = 0 and 1 too.  Puts those
 * back into a row rendered today, where they are blank, so that the row
 * can be compared with such a mail: the row must be blank exactly there.
 */
/* The byte offset of column col of a UTF-8 row ("±" is one column). */
static size_t column_offset(const char *row, size_t col)
{
	size_t at = 0;

	for (; row[at] && col; at++)
		col -= ((unsigned char)row[at + 1] & 0xc0) != 0x80;
	return at;
}

static void show_small_stddevs(char **rowp, const struct metric_cell *cells,
			       size_t n)
{
	char *row = *rowp = xrealloc(*rowp, strlen(*rowp) + n + 1);

	for (size_t v = 0; v < n; v++) {
		const struct sample_summary *s = &cells[v].sum;
		size_t at = column_offset(row, v ?
			LKP_FIRST_WIDTH + (v - 1) * LKP_VARIANT_WIDTH +
				LKP_CHANGE_WIDTH + 1 + LKP_MEAN_WIDTH :
			LKP_MEAN_WIDTH);
		double pct = 100 * s->pop_stddev / s->mean;
		char old[16];

		if (!s->n || pct > 2 || strlen(row) < at + LKP_STDDEV_WIDTH)
			continue;
		CHECK(!strncmp(row + at, "      ", LKP_STDDEV_WIDTH));
		snprintf(old, sizeof(old), " ±%3d%%", (int)pct);
		/* "±" is two bytes: the row grows by one */
		memmove(row + at + strlen(old), row + at + LKP_STDDEV_WIDTH,
			strlen(row + at + LKP_STDDEV_WIDTH) + 1);
		memcpy(row + at, old, strlen(old));
	}
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ')
		s++;
	return s;
}

/*
 * Reads a row as the seeds print it -- per variant [change] mean [± N%],
 * then the name -- into cells.  A shown change is significant; a change
 * shown as an absolute difference ("3e+04") or not shown is computed from
 * the means.
 */
static char *parse_row(const char *s, struct metric_cell *cells, size_t n)
{
	for (size_t v = 0; v < n; v++) {
		const char *token = skip_blanks(s);
		double x = 0, pct = 0, change = NAN;
		bool shown = false;
		char *end;

		x = strtod(token, &end);
		if (v && (*end == '%' || memchr(token, 'e', end - token))) {
			shown = true;
			if (*end == '%')
				change = x;
			s = end + (*end == '%');
			token = skip_blanks(s);
			x = strtod(token, &end);
		}
		/* a whole mean is truncated: read "70897" as 70897.5 */
		if (!memchr(token, '.', end - token))
			x += copysign(0.5, x);
		s = skip_blanks(end);
		if (!strncmp(s, "±", strlen("±"))) {
			pct = strtod(s + strlen("±"), &end);
			s = end + 1;	/* the '%' */
		}
		set_cell(&cells[v], x, pct);
		cells[v].verdict = VERDICT_BASE;
		if (!v)
			continue;
		if (isnan(change))
			change = 100 * (x - cells[0].sum.mean) / cells[0].sum.mean;
		cells[v].change = change;
		cells[v].verdict = shown ? VERDICT_CHANGED : VERDICT_SAME;
	}
	return xstrdup(skip_blanks(s));
}

static void free_cells(struct metric_cell *cells, size_t n)
{
	for (size_t v = 0; v < n; v++)
		free(cells[v].samples);
	free(cells);
}

/* Renders one row alone, without its newline. */
static char *render_row(const struct metric_cell *cells, size_t n,
			const char *name, enum lkp_style style,
			enum lkp_change_mode mode)
{
	struct strbuf sb = STRBUF_INIT;

	lkp_add_row(&sb, cells, n, name, style, mode);
	CHECK(sb.len && sb.buf[sb.len - 1] == '\n');
	strbuf_setlen(&sb, sb.len - 1);
	return strbuf_detach(&sb);
}

/* Seed 004's detailed table: COMPACT rows of two variants. */
static void test_seed004_detail(void)
{
	struct lines want = { 0 };

	read_testdata("seed004-detail.txt", &want);
	CHECK(want.n == 11);
	for (size_t i = 0; i < want.n; i++) {
		struct metric_cell *cells = xcalloc(2, sizeof(*cells));
		char *line = unquote(want.v[i], "> > ");
		char *name = parse_row(line, cells, 2);
		char *got = render_row(cells, 2, name, LKP_STYLE_COMPACT,
				       LKP_CHANGE_PLAIN);

		CHECK(got[0] == ' ');
		CHECK_STR(got + 1, line);
		free(got);
		free(name);
		free(line);
		free_cells(cells, 2);
	}
	lines_free(&want);
}

/* The robot's own report quoted in seed 004: a DETAIL row. */
static void test_seed004_regression(void)
{
	struct lines want = { 0 };
	struct metric_cell *cells = xcalloc(2, sizeof(*cells));
	char *line, *name, *got;

	read_testdata("seed004-regression.txt", &want);
	CHECK(want.n == 1);
	line = unquote(want.v[0], "> ");
	name = parse_row(line, cells, 2);
	got = render_row(cells, 2, name, LKP_STYLE_DETAIL, LKP_CHANGE_PLAIN);
	show_small_stddevs(&got, cells, 2);
	CHECK(line[0] == '\t');
	CHECK_STR(got + 4, line + 1);
	CHECK(!strncmp(got, "    ", 4));
	free(got);
	free(name);
	free(line);
	free_cells(cells, 2);
	lines_free(&want);
}

static void free_comparison(struct comparison *cmp)
{
	comparison_release(cmp);
	free(cmp);
}

static struct comparison *new_comparison(const char *const *labels, size_t n)
{
	struct comparison *cmp = xcalloc(1, sizeof(*cmp));

	cmp->catalogue = metric_catalogue_default();
	cmp->nvariants = n;
	cmp->variants = xcalloc(n, sizeof(*cmp->variants));
	for (size_t v = 0; v < n; v++) {
		cmp->variants[v].label = xstrdup(labels[v]);
		cmp->variants[v].runs = 3;
	}
	return cmp;
}

static struct metric_row *add_row(struct comparison *cmp, const char *line)
{
	struct metric_row *row;

	cmp->rows = xreallocarray(cmp->rows, cmp->nrows + 1, sizeof(*row));
	row = &cmp->rows[cmp->nrows++];
	memset(row, 0, sizeof(*row));
	row->cells = xcalloc(cmp->nvariants, sizeof(*row->cells));
	row->name = parse_row(line, row->cells, cmp->nvariants);
	return row;
}

/* "key/key/...:" and "  value/value/..." of seed 002 into cmp's params. */
static void set_params(struct comparison *cmp, const char *keys,
		       const char *values)
{
	char *k = xstrdup(keys), *v = xstrdup(values), *ks, *vs;
	char *key = strtok_r(k, "/:", &ks), *value = strtok_r(v, "/ ", &vs);

	for (; key && value; key = strtok_r(NULL, "/:", &ks),
	     value = strtok_r(NULL, "/ ", &vs)) {
		if (!strcmp(key, "testcase")) {
			cmp->testcase = xstrdup(value);
			continue;
		}
		cmp->params = xreallocarray(cmp->params, cmp->nparams + 1,
					    sizeof(*cmp->params));
		cmp->params[cmp->nparams].key = xstrdup(key);
		cmp->params[cmp->nparams++].value = xstrdup(value);
	}
	free(k);
	free(v);
}

/* Seed 002's whole three-column table, through the archive's collapse. */
static void test_seed002(void)
{
	static const char *const labels[] = {
		"c435a390574d012f8d30074135d8fcc6f480b484",
		"afa2db2fb6f15f860069de94a1257db57589fe95",
		"43819159da2b77fedcf7562134d6003dccd6a068",
	};
	struct compare_options opt = { .all = false };
	struct comparison *cmp = new_comparison(labels, 3);
	struct lines want = { 0 }, got = { 0 };
	struct strbuf out = STRBUF_INIT;
	size_t first_row = 13, label_line = 9;
	/*
	 * The labels and their rule: 27 wide since 2019, 26 in the seed's
	 * "afa2db2fb6f15f860069de94a1" and its 26 dashes (2 after collapsing).
	 */
	static const char *const labels_today[2] = {
		"c435a390574d012f afa2db2fb6f15f860069de94a12 43819159da2b77fedcf7562134d ",
		" --- --- ",
	};

	read_testdata("seed002-3col.txt", &want);
	CHECK(want.n == first_row + 19);
	set_params(cmp, want.v[1], want.v[2]);
	for (size_t i = first_row; i < want.n; i++)
		add_row(cmp, want.v[i]);
	render_lkp(cmp, &opt, &out);
	lines_split(&got, out.buf, false);
	/* then a blank line, the legend of the marks and a blank line */
	CHECK(got.n == want.n + 3);
	for (size_t i = 0; i < want.n && i < got.n; i++) {
		char *collapsed;

		if (i >= first_row)
			show_small_stddevs(&got.v[i],
					   cmp->rows[i - first_row].cells, 3);
		collapsed = archive_collapse(got.v[i]);
		if (i == label_line || i == label_line + 1)
			CHECK_STR(collapsed, labels_today[i - label_line]);
		else
			CHECK_STR(collapsed, want.v[i]);
		free(collapsed);
	}
	CHECK(got.n == want.n + 3 && !strcmp(got.v[want.n], "") &&
	      !strncmp(got.v[want.n + 1], "marks: +1.0% changed", 20) &&
	      !strcmp(got.v[got.n - 1], ""));
	lines_free(&want);
	lines_free(&got);
	strbuf_release(&out);
	free_comparison(cmp);
}

static void check_summary(const struct lines *want, const struct lines *got)
{
	char *line, *a, *b;

	/* the seed's lines, one less (see below), and the legend */
	CHECK(got->n == 13 && want->n == 13);
	if (got->n != 13 || want->n != 13)
		return;
	CHECK(!strncmp(got->v[12], "marks: -19% changed", 19));
	for (size_t i = 0; i < 2; i++) {
		line = unquote(want->v[i], "> > ");
		CHECK_STR(got->v[i], line);
		free(line);
	}
	line = unquote(want->v[2], "> > ");
	CHECK_STR(got->v[2] + 1, line);
	free(line);
	/* the "\ |" line lost its last "\" to the next line */
	line = unquote(want->v[3], "> > ");
	CHECK(!strncmp(got->v[3] + 1, line, strlen(line)));
	CHECK_STR(got->v[3] + 1 + strlen(line), "                \\  ");
	free(line);
	line = xasprintf("%s %s", want->v[4] + strlen("> > \\"),
			 want->v[5] + strlen("> > "));
	a = squeeze_blanks(got->v[4]);
	b = squeeze_blanks(line);
	CHECK_STR(a, b);
	free(a);
	free(b);
	free(line);
	for (size_t i = 5; i < 12; i++) {
		line = unquote(want->v[i + 1], "> > ");
		CHECK(got->v[i][0] == ' ');
		CHECK_STR(got->v[i] + 1, line);
		free(line);
	}
}

/* Seed 004's GEO-MEAN summary of aim7.jobs-per-min over seven groups. */
static void test_seed004_summary(void)
{
	static const char *const labels[] = {
		"99091700659f4df9", "74a242ad94d13436a1644c0b45",
		"bf4dc6e4ecc2a3d042029319bc",
	};
	struct compare_options opt = { .all = false };
	struct comparison *cmps[7];
	struct lines want = { 0 }, got = { 0 };
	struct strbuf out = STRBUF_INIT;

	read_testdata("seed004-summary.txt", &want);
	CHECK(want.n == 13);
	for (size_t g = 0; g < 7 && g + 6 < want.n; g++) {
		char *line = unquote(want.v[g + 6], "> > ");
		struct metric_row *row;

		cmps[g] = new_comparison(labels, 3);
		row = add_row(cmps[g], line);
		cmps[g]->name = row->name;
		row->name = xstrdup("aim7.jobs-per-min");
		free(line);
	}
	render_summary((const struct comparison *const *)cmps, 7,
		       "aim7.jobs-per-min", &opt, &out);
	lines_split(&got, out.buf, false);
	check_summary(&want, &got);
	for (size_t g = 0; g < 7; g++)
		free_comparison(cmps[g]);
	lines_free(&want);
	lines_free(&got);
	strbuf_release(&out);
}

static void add_mmtests_row(struct comparison *cmp, const char *name,
			    const double *values)
{
	struct metric_row *row;

	cmp->rows = xreallocarray(cmp->rows, cmp->nrows + 1, sizeof(*row));
	row = &cmp->rows[cmp->nrows++];
	memset(row, 0, sizeof(*row));
	row->name = xstrdup(name);
	row->key = true;
	row->better = 1;
	row->cells = xcalloc(cmp->nvariants, sizeof(*row->cells));
	for (size_t v = 0; v < cmp->nvariants; v++) {
		set_cell(&row->cells[v], values[v], 0);
		row->cells[v].verdict = v ? VERDICT_SAME : VERDICT_BASE;
	}
}

/* Seed 003: mmtests' table, its two-line kernel names and Hmean rows. */
static void test_seed003(void)
{
	static const char *const labels[] = {
		"4.14.0-rc4-vanilla", "4.14.0-rc4-janbatch-v1r1",
	};
	static const double seq[] = { 21313.45, 24963.95 };
	static const double rand[] = { 19974.03, 23377.66 };
	struct compare_options opt = { .all = false };
	struct comparison *cmp = new_comparison(labels, 2);
	struct lines want = { 0 }, got = { 0 };
	struct strbuf out = STRBUF_INIT;

	cmp->name = xstrdup("bonnie");
	add_mmtests_row(cmp, "SeqCreate del", seq);
	add_mmtests_row(cmp, "RandCreate del", rand);
	read_testdata("seed003.txt", &want);
	render_mmtests(cmp, &opt, &out);
	lines_split(&got, out.buf, false);
	/* the table, each result's verdict line, the legend */
	CHECK(want.n == 4 && got.n == 9);
	CHECK_STR(got.n ? got.v[0] : NULL, "bonnie");
	CHECK(got.n == 9 && !strncmp(got.v[5], "SeqCreate del, 4.14.0-rc4-janbatch-v1r1: ", 41));
	CHECK(got.n == 9 && !strncmp(got.v[6], "RandCreate del, 4.14.0-rc4-janbatch-v1r1: ", 42));
	CHECK_STR(got.n == 9 ? got.v[7] : NULL,
		  "marks: *  1.00%* changed, (  1.00%) same or small (below the metric's floor), [  1.00%] inconclusive or too few runs; + is better");
	for (size_t i = 0; i < want.n && i + 1 < got.n; i++)
		CHECK_STR(got.v[i + 1], want.v[i]);
	/* mmtests marks a significant change: "*  17.13%*" */
	cmp->rows[0].cells[1].verdict = VERDICT_CHANGED;
	strbuf_reset(&out);
	render_mmtests(cmp, &opt, &out);
	CHECK(strstr(out.buf, "    24963.95 *  17.13%*\n") != NULL);
	/* neither changed nor the same: "[  17.13%]", not "(  17.13%)" */
	cmp->rows[0].cells[1].verdict = VERDICT_INCONCLUSIVE;
	strbuf_reset(&out);
	render_mmtests(cmp, &opt, &out);
	CHECK(strstr(out.buf, "    24963.95 [  17.13%]\n") != NULL);
	cmp->rows[0].cells[1].verdict = VERDICT_CHANGED;
	lines_free(&want);
	lines_free(&got);
	strbuf_release(&out);
	free_comparison(cmp);
}

/* Zero bases, missing values, undecided and unchanged rows, failed runs. */
static void test_edges(void)
{
	static const char *const labels[] = { "a", "b" };
	struct compare_options opt = { .all = false };
	struct comparison *cmp = new_comparison(labels, 2);
	struct strbuf out = STRBUF_INIT;
	struct metric_row *row;
	char *got;

	/* lkp-tests' change against a zero base, as in its mails */
	row = add_row(cmp, "0.00 2.00 vmstat.procs.b");
	row->cells[1].change_infinite = true;
	got = render_row(row->cells, 2, row->name, LKP_STYLE_DETAIL,
			 LKP_CHANGE_PLAIN);
	CHECK_STR(got, "      0.00         +2e+102%       2.00        vmstat.procs.b");
	free(got);
	got = render_row(row->cells, 2, row->name, LKP_STYLE_COMPACT,
			 LKP_CHANGE_PLAIN);
	CHECK_STR(got, "      0.00            2e+00       2.00        vmstat.procs.b");
	free(got);
	/*
	 * One run: lkp-tests takes -1 for its stddev and divides it by the
	 * mean too, so that a negative mean above -50 shows one
	 */
	row = add_row(cmp, "10.00 -1.00 last_state.exit_code");
	free(row->cells[1].samples);
	row->cells[1].samples = xmalloc(sizeof(double));
	row->cells[1].samples[0] = -1;
	summarize(row->cells[1].samples, 1, &row->cells[1].sum);
	got = render_row(row->cells, 2, row->name, LKP_STYLE_DETAIL,
			 LKP_CHANGE_PLAIN);
	CHECK_STR(got, "     10.00          -110.0%      -1.00 ±100%  last_state.exit_code");
	free(got);
	/* an absent value, and too few runs to decide */
	row = add_row(cmp, "100.00 ± 10% 90.00 ± 10% time.user_time");
	row->cells[1].sum.n = 0;
	got = render_row(row->cells, 2, row->name, LKP_STYLE_DETAIL,
			 LKP_CHANGE_PLAIN);
	CHECK_STR(got, "    100.00 ± 10%                     -        time.user_time");
	free(got);
	row->cells[1].sum.n = 2;
	row->cells[1].verdict = VERDICT_FEW_RUNS;
	row->key = true;
	/*
	 * --all: a row without a significant change has its change in (),
	 * a stddev of 2% or less is blank (here 1.5%; 2.5% shows as 2%)
	 */
	row = add_row(cmp, "1000 ± 1% 1003 ± 3% proc-vmstat.pgfree");
	got = render_row(row->cells, 2, row->name, LKP_STYLE_DETAIL,
			 LKP_CHANGE_QUIET);
	CHECK_STR(got, "      1000           (+0.3%)      1003 ±  3%  proc-vmstat.pgfree");
	free(got);
	cmp->variants[1].runs_failed = 1;
	cmp->variants[1].runs_incomplete = 1;
	render_lkp(cmp, &opt, &out);
	CHECK(strstr(out.buf, "\n       fail:runs  %reproduction    fail:runs\n"
			      "           |             |             |    \n"
			      "           :3           20%           1:5     runs.failed\n") != NULL);
	/* too few runs: the change as lkp-tests prints it, undecided */
	CHECK(strstr(out.buf, "    100.00 ± 10%    (-10.0%)     90.00 ± 10%  time.user_time\n"
			      "not enough runs (fewer than 3) to decide 1 row\n") != NULL);
	CHECK(strstr(out.buf, "proc-vmstat.pgfree") == NULL);
	strbuf_reset(&out);
	opt.all = true;
	render_lkp(cmp, &opt, &out);
	CHECK(strstr(out.buf, "(+0.3%)      1003 ±  3%  proc-vmstat.pgfree\n") != NULL);
	CHECK(strstr(out.buf, "nan") == NULL && strstr(out.buf, "inf") == NULL);
	strbuf_release(&out);
	free_comparison(cmp);
}

/*
 * Strings from files with control characters in them: a parameter value
 * that would put a "Bcc:" line of its own into the robot's mail, a label
 * with an escape character, a metric name with a tab.  Each stays on its
 * line, a blank for each control character, and the columns stay aligned.
 */
static void test_control_characters(void)
{
	static const char *const labels[] = { "v1.0", "v2\x1b[31m" };
	static const char want[] =
		"========================================================================================="
		"\n"
		"fs/testcase:\n"
		"  xfs  Bcc: x@y/truncate\n"
		"\n"
		"commit: \n"
		"  v1.0\n"
		"  v2 [31m\n"
		"\n"
		"            v1.0                     v2 [31m \n"
		"---------------- --------------------------- \n"
		"         %stddev     %change         %stddev\n"
		"             \\          |                \\  \n"
		"      1000 ±  4%     +20.0%       1200 ±  4%  truncate.ops per_sec\n"
		"\n"
		"marks: +1.0% changed, (+1.0%) same, small or undecided, ±N% stddev, - no value\n"
		"\n";
	struct compare_options opt = { .all = false };
	struct comparison *cmp = new_comparison(labels, 2);
	struct strbuf out = STRBUF_INIT;
	struct metric_row *row;

	cmp->testcase = xstrdup("truncate");
	cmp->nparams = 1;
	cmp->params = xcalloc(1, sizeof(*cmp->params));
	cmp->params[0].key = xstrdup("fs");
	cmp->params[0].value = xstrdup("xfs\r\nBcc: x@y");
	row = add_row(cmp, "1000 ± 4% +20.0% 1200 ± 4% truncate.ops_per_sec");
	row->name[strlen("truncate.ops")] = '\t';
	render_lkp(cmp, &opt, &out);
	CHECK_STR(out.buf, want);
	strbuf_reset(&out);
	render_mmtests(cmp, &opt, &out);
	CHECK(strpbrk(out.buf, "\r\t\x1b") == NULL);
	CHECK(strstr(out.buf, "\nBcc") == NULL);
	strbuf_release(&out);
	free_comparison(cmp);
}

int main(void)
{
	test_seed002();
	test_seed003();
	test_seed004_detail();
	test_seed004_regression();
	test_seed004_summary();
	test_edges();
	test_control_characters();
	return check_done();
}
