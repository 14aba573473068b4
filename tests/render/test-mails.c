// SPDX-License-Identifier: GPL-2.0
/*
 * Rows of real LKP robot mails (testdata/render/mails-lkp.txt, which says
 * where each table comes from), rebuilt from their numbers and rendered
 * again: each must come out byte for byte as the robot printed it.
 *
 * A %stddev row gives each variant's mean (a whole mean m, which lkp-tests
 * truncates, is read as m + 0.5), its stddev (N% read as N.5%, blank as
 * none), and its change as printed; a fail:runs row each variant's count
 * and runs, from which kdelta computes the %reproduction itself.
 *
 * With "--write-matrices DIR", writes each table's rebuilt runs as
 * DIR/<table>/<variant>.json, lkp-tests' matrix.json, for
 * scripts/lkp-oracle.sh to compare kdelta with lkp-tests on them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "kdelta/catalogue.h"
#include "kdelta/compare.h"
#include "kdelta/matrix.h"
#include "kdelta/render.h"
#include "kdelta/stats.h"
#include "kdelta/util.h"

struct table {
	bool fail;
	size_t nvariants;
	char *source;
	struct comparison cmp;
	char **lines;		/* the mail's row of each cmp.rows[] */
	size_t alloc;
};

/* The byte offset of column col of a UTF-8 row ("±" is one column). */
static size_t column_offset(const char *row, size_t col)
{
	size_t at = 0;

	for (; row[at] && col; at++)
		col -= ((unsigned char)row[at + 1] & 0xc0) != 0x80;
	return at;
}

/* Columns [from, from + width) of row, blanks trimmed; caller frees. */
static char *field(const char *row, size_t from, size_t width)
{
	size_t a = column_offset(row, from), b = column_offset(row, from + width);
	struct strbuf sb = STRBUF_INIT;

	strbuf_add(&sb, row + a, b - a);
	strbuf_rtrim(&sb);
	while (sb.len && sb.buf[0] == ' ')
		memmove(sb.buf, sb.buf + 1, sb.len--);
	return strbuf_detach(&sb);
}

static void set_samples(struct metric_cell *cell, double *x, size_t n)
{
	cell->samples = x;
	cell->sum.n = n;
	summarize(x, n, &cell->sum);
}

/*
 * Samples m - d, m - d, m + d, m + d with a population stddev of pct + 0.5
 * percent of m (none for pct < 0), d a multiple of m's last unit so that
 * the mean is m exactly.
 */
static void set_mean(struct metric_cell *cell, double m, double pct)
{
	double d = pct >= 0 ? fabs(m) * (pct + 0.5) / 100 : 0;
	double unit = nextafter(2 * fabs(m), INFINITY) - 2 * fabs(m);
	double *x = xmalloc(4 * sizeof(*x));

	d = round(d / unit) * unit;
	x[0] = x[1] = m - d;
	x[2] = x[3] = m + d;
	set_samples(cell, x, 4);
}

/* A printed mean back to a value that prints so. */
static double read_mean(const char *text)
{
	double x = strtod(text, NULL);

	if (!strpbrk(text, ".e"))	/* truncated: the middle of [x, x+1) */
		return x + copysign(0.5, x);
	if (x == 0)			/* "0.00": a small positive mean */
		return 0.001;
	return x;
}

static void parse_perf_cell(struct metric_cell *cell, const char *row,
			    size_t v)
{
	size_t at = v ? LKP_FIRST_WIDTH + (v - 1) * LKP_VARIANT_WIDTH : 0;
	char *mean, *stddev, *change = NULL;
	double pct = -1;

	if (v) {
		change = field(row, at, LKP_CHANGE_WIDTH);
		at += LKP_CHANGE_WIDTH + 1;
	}
	mean = field(row, at, LKP_MEAN_WIDTH);
	stddev = field(row, at + LKP_MEAN_WIDTH, LKP_STDDEV_WIDTH);
	if (*stddev)
		pct = strtod(stddev + strlen("±"), NULL);
	set_mean(cell, read_mean(mean), pct);
	cell->verdict = v ? VERDICT_CHANGED : VERDICT_BASE;
	if (change) {
		cell->change = strtod(change, NULL);
		cell->change_absolute = !strchr(change, '%');
	}
	free(change);
	free(mean);
	free(stddev);
}

/* "  NN:RR" of a fail:runs cell at column at: occurrences and runs. */
static void parse_fail_cell(const char *row, size_t at, double *fails,
			    size_t *runs)
{
	char *f = field(row, at, LKP_MEAN_WIDTH + 1);
	char *r = field(row, at + LKP_MEAN_WIDTH + 2, LKP_STDDEV_WIDTH - 2);

	*fails = *f ? strtod(f, NULL) : 0;
	*runs = strtoul(r, NULL, 10);
	free(f);
	free(r);
}

static void parse_fail_row(struct table *t, struct metric_row *row,
			   const char *line)
{
	for (size_t v = 0; v < t->nvariants; v++) {
		size_t at = v ? LKP_FIRST_WIDTH + (v - 1) * LKP_VARIANT_WIDTH +
					LKP_CHANGE_WIDTH + 1 : 0;
		double fails, *x;
		size_t runs;

		parse_fail_cell(line, at, &fails, &runs);
		x = xcalloc(runs ? runs : 1, sizeof(*x));
		for (size_t i = 0; i < (size_t)fails && i < runs; i++)
			x[i] = 1;
		set_samples(&row->cells[v], x, runs);
		row->cells[v].verdict = v ? VERDICT_CHANGED : VERDICT_BASE;
		t->cmp.variants[v].runs = runs;
	}
	row->failure = true;
}

static void add_line(struct table *t, const char *line)
{
	size_t name_at = LKP_FIRST_WIDTH +
			 (t->nvariants - 1) * LKP_VARIANT_WIDTH + 2;
	struct comparison *cmp = &t->cmp;
	struct metric_row *row;

	cmp->rows = xreallocarray(cmp->rows, cmp->nrows + 1, sizeof(*row));
	ALLOC_GROW(t->lines, cmp->nrows + 1, t->alloc);
	t->lines[cmp->nrows] = xstrdup(line);
	row = &cmp->rows[cmp->nrows++];
	memset(row, 0, sizeof(*row));
	row->name = xstrdup(line + column_offset(line, name_at));
	row->cells = xcalloc(t->nvariants, sizeof(*row->cells));
	if (t->fail) {
		parse_fail_row(t, row, line);
		return;
	}
	for (size_t v = 0; v < t->nvariants; v++)
		parse_perf_cell(&row->cells[v], line, v);
}

static struct table *new_table(const char *header)
{
	struct table *t = xcalloc(1, sizeof(*t));
	char kind[8];
	int at = 0;

	CHECK(sscanf(header, "table %7s %zu %n", kind, &t->nvariants, &at) == 2);
	t->fail = !strcmp(kind, "fail");
	t->source = xstrdup(header + at);
	t->cmp.catalogue = metric_catalogue_default();
	t->cmp.nvariants = t->nvariants;
	t->cmp.variants = xcalloc(t->nvariants, sizeof(*t->cmp.variants));
	for (size_t v = 0; v < t->nvariants; v++) {
		t->cmp.variants[v].label = xasprintf("v%zu", v);
		t->cmp.variants[v].runs = 4;
	}
	return t;
}

static size_t read_tables(struct table ***tables)
{
	const char *dir = getenv("TESTDATA");
	char *path = xasprintf("%s/render/mails-lkp.txt", dir ? dir : "testdata");
	struct strbuf sb = STRBUF_INIT;
	struct kd_err err;
	size_t n = 0, alloc = 0;
	char *line, *save;

	if (read_file(path, &sb, &err))
		xdie("%s", err.msg);
	for (line = strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (*line == '#')
			continue;
		if (!strncmp(line, "table ", 6)) {
			ALLOC_GROW(*tables, n + 1, alloc);
			(*tables)[n++] = new_table(line);
		} else if (n) {
			add_line((*tables)[n - 1], line);
		}
	}
	strbuf_release(&sb);
	free(path);
	return n;
}

/* The rendered line of row r: alone, or from the whole fail:runs table. */
static char *render_line(struct table *t, size_t r)
{
	struct metric_row *row = &t->cmp.rows[r];
	struct strbuf sb = STRBUF_INIT;
	struct compare_options opt = { .all = false };
	char *at, *end, *line;

	if (!t->fail) {
		lkp_add_row(&sb, row->cells, t->nvariants, row->name,
			    LKP_STYLE_DETAIL, LKP_CHANGE_PLAIN);
		strbuf_setlen(&sb, sb.len - 1);
		return strbuf_detach(&sb);
	}
	render_lkp(&t->cmp, &opt, &sb);
	at = strstr(sb.buf, row->name);
	CHECK(at != NULL);
	if (!at) {
		strbuf_release(&sb);
		return xstrdup("");
	}
	end = strchrnul(at, '\n');
	while (at > sb.buf && at[-1] != '\n')
		at--;
	line = xstrndup(at, end - at);
	strbuf_release(&sb);
	return line;
}

static void free_table(struct table *t)
{
	for (size_t r = 0; r < t->cmp.nrows; r++)
		free(t->lines[r]);
	free(t->lines);
	free(t->source);
	comparison_release(&t->cmp);
	free(t);
}

static void write_matrices(struct table *const *tables, size_t n,
			   const char *dir)
{
	for (size_t i = 0; i < n; i++) {
		const struct table *t = tables[i];
		char *sub = xasprintf("%s/%02zu", dir, i);

		if (mkdir(sub, 0777) && errno != EEXIST)
			xdie("mkdir %s: %s", sub, strerror(errno));
		for (size_t v = 0; v < t->nvariants; v++) {
			char *path = xasprintf("%s/%zu.json", sub, v);
			FILE *f = fopen(path, "w");
			size_t runs = 0;

			if (!f)
				xdie("%s: %s", path, strerror(errno));
			fputc('{', f);
			for (size_t r = 0; r < t->cmp.nrows; r++) {
				const struct metric_cell *c =
					&t->cmp.rows[r].cells[v];

				fprintf(f, "%s\"%s\": [", r ? ", " : "",
					t->cmp.rows[r].name);
				for (size_t k = 0; k < c->sum.n; k++)
					fprintf(f, "%s%.17g", k ? ", " : "",
						c->samples[k]);
				fputc(']', f);
				runs = c->sum.n;
			}
			fprintf(f, ", \"stats_source\": [");
			for (size_t k = 0; k < runs; k++)
				fprintf(f, "%s\"%zu\"", k ? ", " : "", k);
			fprintf(f, "]}\n");
			fclose(f);
			free(path);
		}
		free(sub);
	}
}

int main(int argc, char **argv)
{
	struct table **tables = NULL;
	size_t n = read_tables(&tables), rows = 0, same = 0;

	if (argc > 2 && !strcmp(argv[1], "--write-matrices")) {
		write_matrices(tables, n, argv[2]);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		struct table *t = tables[i];

		for (size_t r = 0; r < t->cmp.nrows; r++) {
			char *got = render_line(t, r);

			if (strcmp(got, t->lines[r]))
				fprintf(stderr, "table %zu (%s):\n", i,
					t->source);
			CHECK_STR(got, t->lines[r]);
			same += !strcmp(got, t->lines[r]);
			rows++;
			free(got);
		}
		free_table(t);
	}
	free(tables);
	printf("%zu of %zu rows of robot mails identical\n", same, rows);
	CHECK(rows >= 150);
	return check_done();
}
