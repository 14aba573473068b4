// SPDX-License-Identifier: GPL-2.0
/* Matrix parsing, metric families, and rows built from matrices. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "kdelta/catalogue.h"
#include "kdelta/compare.h"
#include "kdelta/matrix.h"
#include "kdelta/util.h"

static int parse(const char *text, struct matrix *m, struct kd_err *err)
{
	return matrix_parse(text, strlen(text), "m.json", m, err);
}

static void test_parse(void)
{
	struct matrix m;
	struct kd_err err;

	CHECK(parse("{\"a.x\": [1, 2.5, null], \"b\": [3, 4, 5],"
		    " \"stats_source\": [\"0\", \"1\", \"2\"]}", &m, &err) == 0);
	CHECK(m.nruns == 3);
	CHECK(m.nmetrics == 2);
	CHECK_STR(m.names[0], "a.x");
	CHECK_STR(m.names[1], "b");
	CHECK(m.values[1] == 2.5);
	CHECK(isnan(m.values[2]));
	CHECK(m.values[5] == 5);
	matrix_release(&m);

	/*
	 * Ragged, as lkp-tests saves a matrix when the last runs lack a stat
	 * (lib/matrix.rb unite_to saves before matrix_fill_missing_zeros):
	 * zeros up to stats_source's length; without stats_source the
	 * longest array sets the width and the others lack values.
	 */
	CHECK(parse("{\"a\": [1, 2, 3], \"b\": [4],"
		    " \"stats_source\": [\"0\", \"1\", \"2\"], \"c\": []}",
		    &m, &err) == 0);
	CHECK(m.nruns == 3 && m.nmetrics == 3);
	CHECK(m.values[3] == 4 && m.values[4] == 0 && m.values[5] == 0);
	CHECK(m.values[6] == 0 && m.values[8] == 0);
	matrix_release(&m);
	CHECK(parse("{\"a\": [1, 2], \"b\": [3]}", &m, &err) == 0);
	CHECK(m.nruns == 2 && m.values[2] == 3 && isnan(m.values[3]));
	matrix_release(&m);
	/* A metric named twice: its first place, its last values. */
	CHECK(parse("{\"a\": [1, 2], \"b\": [3, 4], \"a\": [5, 6]}", &m,
		    &err) == 0);
	CHECK(m.nmetrics == 2 && !strcmp(m.names[0], "a") && m.values[1] == 6);
	CHECK(m.values[2] == 3 && !m.incomplete);
	matrix_release(&m);
	/*
	 * Names are read as they are called today; a file with the older and
	 * today's name of one metric keeps today's, in either order.
	 */
	CHECK(parse("{\"creat-clo.ops_per_sec\": [1, 2]}", &m, &err) == 0);
	CHECK(m.nmetrics == 1 && !strcmp(m.names[0], "aim9.creat-clo.ops_per_sec"));
	matrix_release(&m);
	CHECK(parse("{\"creat-clo.ops_per_sec\": [1, 2],"
		    " \"aim9.creat-clo.ops_per_sec\": [3, 4]}", &m, &err) == 0);
	CHECK(m.nmetrics == 1 && m.values[0] == 3 && m.values[1] == 4);
	matrix_release(&m);
	CHECK(parse("{\"aim9.creat-clo.ops_per_sec\": [3, 4],"
		    " \"creat-clo.ops_per_sec\": [1, 2]}", &m, &err) == 0);
	CHECK(m.nmetrics == 1 && m.nruns == 2 && m.values[0] == 3 &&
	      m.values[1] == 4);
	matrix_release(&m);
	/* Numbers: exact, whatever path converts them. */
	CHECK(parse("{\"a\": [0.1, -0, 1e22, 1e23, 123456789012345678901234,"
		    " 2.2250738585072014e-308, 4.9e-324, -1.5E+3, 0.000001]}",
		    &m, &err) == 0);
	CHECK(m.values[0] == 0.1 && m.values[1] == 0 && signbit(m.values[1]));
	CHECK(m.values[2] == 1e22 && m.values[3] == 1e23);
	CHECK(m.values[4] == 123456789012345678901234.0);
	CHECK(m.values[5] == 2.2250738585072014e-308 && m.values[6] == 4.9e-324);
	CHECK(m.values[7] == -1500 && m.values[8] == 0.000001);
	matrix_release(&m);
	CHECK(parse("{\"a\": [1, 2], \"stats_source\": [\"0\"]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: ragged matrix: 'a' has 2 values, 'stats_source' has 1");
	CHECK(parse("{\"a\": [1, \"2\"]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: metric 'a', run 1: expected a number, got a string");
	CHECK(parse("{\"a\": [[1]]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: metric 'a', run 0: expected a number, got an array");
	CHECK(parse("{\"a\": 1}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: metric 'a': expected an array of numbers, got a number");
	CHECK(parse("[1]", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: expected a JSON object of metric arrays, got an array");
	CHECK(parse("{\"stats_source\": 3}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: stats_source: expected an array, got a number");
	CHECK(parse("{\"stats_source\": [1]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: stats_source: expected an array of strings, got a number in it");
	CHECK(parse("{\"a\": [NaN]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: invalid JSON at line 1, column 8: expected a number, got 'N'");
	CHECK(parse("{\"a\": [1e999]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: invalid JSON at line 1, column 8: number out of range: 1e999");
	CHECK(parse("{\"a\":\n [01]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: invalid JSON at line 2, column 4: expected ',' or ']', got '1'");
	CHECK(parse("{\"a\": [1.]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: invalid JSON at line 1, column 8: malformed number");
	CHECK(parse("{\"a\": [1,]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: invalid JSON at line 1, column 10: expected a number, got ']'");
	CHECK(parse("{\"a\": [1]", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: invalid JSON at line 1, column 10: expected ',' or '}', got the end of the input");
	CHECK(parse("{\"a\": [1]} x", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: invalid JSON at line 1, column 12: expected nothing more, got 'x'");
	CHECK(parse("{\"a\\u0000\": [1]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: invalid JSON at line 1, column 4: \\u0000 in a string");
	CHECK(parse("{\"a\xff\": [1]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: invalid JSON at line 1, column 4: invalid UTF-8 in a string");
	CHECK(parse("{\"a\\ud800\": [1]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: invalid JSON at line 1, column 4: high surrogate without its low half");
	CHECK(parse("{\"a\\x\": [1]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: invalid JSON at line 1, column 4: invalid escape in a string");
	CHECK(parse("{\"a\\udc00\": [1]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: invalid JSON at line 1, column 4: lone low surrogate");
	CHECK(parse("{\"a\\u12\": [1]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: invalid JSON at line 1, column 4: expected four hex digits after \\u");
	CHECK(parse("{\"a\xed\xa0\x80\": [1]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: invalid JSON at line 1, column 4: invalid UTF-8 in a string");
	CHECK(parse("{\"a\tb\": [1]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: invalid JSON at line 1, column 4: control character 0x09 in a string");
	/* Escapes decode, surrogate pairs included. */
	CHECK(parse("{\"\\u00e9\\ud83d\\ude00\\t\\/\": [1]}", &m, &err) == 0);
	CHECK_STR(m.names[0], "\xc3\xa9\xf0\x9f\x98\x80\t/");
	matrix_release(&m);
	CHECK(parse("{}", &m, &err) == 0);
	CHECK(m.nmetrics == 0 && m.nruns == 0);
	matrix_release(&m);
}

static void test_families(void)
{
	CHECK(metric_is_key(metric_catalogue_default(), "creat-clo.ops_per_sec"));
	CHECK(metric_is_key(metric_catalogue_default(), "aim9.creat-clo.ops_per_sec"));
	CHECK(metric_is_key(metric_catalogue_default(), "noperiod"));
	CHECK(!metric_is_key(metric_catalogue_default(), "proc-vmstat.pgfree"));
	CHECK(!metric_is_key(metric_catalogue_default(), "slabinfo.dentry.active_objs"));
	CHECK(!metric_is_key(metric_catalogue_default(), "time.user_time"));
	CHECK(!metric_is_key(metric_catalogue_default(), "sched_debug.cfs_rq[0]:/.nr_spread_over"));
	CHECK(!metric_is_key(metric_catalogue_default(), "numa-vmstat.node0.numa_other"));
	CHECK(!metric_is_key(metric_catalogue_default(), "cpuidle.C1-NHM.usage"));
	CHECK(metric_absent_means_zero(metric_catalogue_default(), "proc-vmstat.pgmajfault"));
	CHECK(metric_absent_means_zero(metric_catalogue_default(), "proc-vmstat.numa_hit"));
	CHECK(!metric_absent_means_zero(metric_catalogue_default(), "proc-vmstat.nr_free_pages"));
	CHECK(!metric_absent_means_zero(metric_catalogue_default(), "meminfo.Dirty"));
	CHECK(!metric_absent_means_zero(metric_catalogue_default(), "creat-clo.ops_per_sec"));
	/* A function below what a profile keeps had (almost) no samples. */
	CHECK(metric_absent_means_zero(metric_catalogue_default(), "perf-profile.self.cycles-pp.vfs_statx"));
	CHECK(metric_absent_means_zero(metric_catalogue_default(), "perf-profile.calltrace.cycles-pp.a.b"));
}

static const struct metric_row *row_named(const struct comparison *cmp,
					  const char *name)
{
	for (size_t r = 0; r < cmp->nrows; r++)
		if (!strcmp(cmp->rows[r].name, name))
			return &cmp->rows[r];
	return NULL;
}

/*
 * Whether values were written as integers (Ruby's Integer, "0") or with a
 * fraction or exponent (Float, "0.0", "1e3"): lkp-tests' compare tells them
 * apart for perf-profile.*, so the cells say it.
 */
static void test_integers(void)
{
	struct matrix a, b;
	struct matrix *ms[] = { &a, &b };
	struct comparison cmp = { .catalogue = metric_catalogue_default() };
	const struct metric_row *row;
	struct kd_err err;

	CHECK(parse("{\"p.i\": [0, -2, 3], \"p.f\": [0, 0.0, 1],"
		    " \"p.e\": [1e3, 2, null], \"p.n\": [null, 1, 2],"
		    " \"p.f\": [1, 2, 3]}", &a, &err) == 0);
	CHECK(a.fractions && !a.fractions[0] && a.fractions[2]);
	/* null is no number: the others decide */
	CHECK(!a.fractions[3]);
	/* a metric named twice: its last values' */
	CHECK(!a.fractions[1]);
	CHECK(parse("{\"p.i\": [0.5, 1, 1], \"p.f\": [0, 1, 2]}", &b, &err) == 0);
	cmp.nvariants = 2;
	cmp.variants = xcalloc(2, sizeof(*cmp.variants));
	comparison_add_matrices(&cmp, ms);
	row = row_named(&cmp, "p.i");
	CHECK(row && row->cells[0].integers && !row->cells[1].integers);
	row = row_named(&cmp, "p.e");
	CHECK(row && !row->cells[0].integers && !row->cells[1].integers);
	comparison_release(&cmp);
	matrix_release(&a);
	matrix_release(&b);
}

static void test_rows(void)
{
	struct matrix a, b;
	struct matrix *ms[] = { &a, &b };
	struct comparison cmp = { .catalogue = metric_catalogue_default() };
	const struct metric_row *row;
	struct kd_err err;

	CHECK(parse("{\"w.ops\": [1, null, 3], \"meminfo.Dirty\": [5, 6, 7],"
		    " \"proc-vmstat.pgfree\": [9, 9, 9]}", &a, &err) == 0);
	CHECK(parse("{\"w.ops\": [4, 5], \"proc-vmstat.pgmajfault\": [1, null],"
		    " \"only.here\": [null, null]}", &b, &err) == 0);
	cmp.nvariants = 2;
	cmp.variants = xcalloc(2, sizeof(*cmp.variants));
	comparison_add_matrices(&cmp, ms);
	CHECK(cmp.nrows == 5);

	row = row_named(&cmp, "w.ops");
	CHECK(row && row->key);
	CHECK(row && row->cells[0].sum.n == 2 && row->cells[0].samples[1] == 3);
	CHECK(row && row->cells[1].sum.n == 2 && row->cells[1].samples[0] == 4);
	/* A gauge missing from a variant is absent there... */
	row = row_named(&cmp, "meminfo.Dirty");
	CHECK(row && !row->key && row->cells[0].sum.n == 3);
	CHECK(row && !row->cells[1].samples && row->cells[1].sum.n == 0);
	/* ...an event counter is zero, in every run. */
	row = row_named(&cmp, "proc-vmstat.pgfree");
	CHECK(row && row->cells[1].sum.n == 2 && row->cells[1].samples[1] == 0);
	row = row_named(&cmp, "proc-vmstat.pgmajfault");
	CHECK(row && row->cells[0].sum.n == 3 && row->cells[0].samples[2] == 0);
	CHECK(row && row->cells[1].sum.n == 2 && row->cells[1].samples[0] == 1 &&
	      row->cells[1].samples[1] == 0);
	/* All null: absent. */
	row = row_named(&cmp, "only.here");
	CHECK(row && !row->cells[0].samples && !row->cells[1].samples);

	comparison_release(&cmp);
	CHECK(cmp.rows == NULL && cmp.nrows == 0);
	matrix_release(&a);
	matrix_release(&b);
}

/*
 * A metric whose absence means none (a counter, a perf-profile function)
 * is zero in a variant that lacks it only when that variant's runs had its
 * source: a profile without the function, not runs without a profile.
 */
static void test_absent_source(void)
{
	struct matrix a, b, c;
	struct matrix *ms[] = { &a, &b, &c };
	struct comparison cmp = { .catalogue = metric_catalogue_default() };
	const struct metric_row *row;
	struct kd_err err;

	CHECK(parse("{\"w.ops\": [1, 2, 3],"
		    " \"perf-profile.self.cycles-pp.open\": [10, 11, 12],"
		    " \"proc-vmstat.nr_free_pages\": [5, 5, 5]}", &a, &err) == 0);
	CHECK(parse("{\"w.ops\": [1, 2, 3],"
		    " \"perf-profile.self.cycles-pp.open\": [10, 11, 12],"
		    " \"perf-profile.self.cycles-pp.vfs_statx\": [4, 5, 6],"
		    " \"proc-vmstat.pgfree\": [7, 8, 9]}", &b, &err) == 0);
	CHECK(parse("{\"w.ops\": [1, 2, 3]}", &c, &err) == 0);
	cmp.nvariants = 3;
	cmp.variants = xcalloc(3, sizeof(*cmp.variants));
	comparison_add_matrices(&cmp, ms);
	row = row_named(&cmp, "perf-profile.self.cycles-pp.vfs_statx");
	/* Profiled, below the threshold: zero in every run... */
	CHECK(row && row->cells[0].sum.n == 3 && row->cells[0].samples &&
	      row->cells[0].samples[0] == 0 && row->cells[0].samples[2] == 0 &&
	      row->cells[0].zero_filled);
	CHECK(row && row->cells[1].sum.n == 3 && !row->cells[1].zero_filled);
	/* ...not profiled: absent. */
	CHECK(row && !row->cells[2].samples && row->cells[2].sum.n == 0);
	/* A counter: zero where its monitor ran (a gauge of it says so). */
	row = row_named(&cmp, "proc-vmstat.pgfree");
	CHECK(row && row->cells[0].sum.n == 3 && row->cells[0].samples[1] == 0);
	CHECK(row && !row->cells[2].samples);
	comparison_release(&cmp);
	matrix_release(&a);
	matrix_release(&b);
	matrix_release(&c);
}

/*
 * lkp-tests' incomplete runs (last_state.is_incomplete_run 1): left out of
 * performance stats, counted in failure stats (lib/compare.rb uses its
 * complete_matrixes for the former, every run for the latter).  Matrix
 * made by hand in lkp-tests' format.
 */
static void test_incomplete_runs(void)
{
	struct matrix a;
	struct matrix *ms[] = { &a };
	struct comparison cmp = { .catalogue = metric_catalogue_default() };
	const struct metric_row *row;
	struct kd_err err;

	CHECK(parse("{\"last_state.is_incomplete_run\": [0, 1, 0, 1],"
		    " \"w.ops\": [10, 99, 12, 98], \"dmesg.oops\": [0, 1],"
		    " \"ltp.x.fail\": [1, 1, 0, 1],"
		    " \"stats_source\": [\"0\", \"1\", \"2\", \"3\"]}",
		    &a, &err) == 0);
	CHECK(a.nincomplete == 2 && a.incomplete && a.incomplete[1] &&
	      !a.incomplete[2] && a.incomplete[3]);
	cmp.nvariants = 1;
	cmp.variants = xcalloc(1, sizeof(*cmp.variants));
	comparison_add_matrices(&cmp, ms);
	row = row_named(&cmp, "w.ops");
	CHECK(row && row->cells[0].sum.n == 2 && row->cells[0].samples[0] == 10 &&
	      row->cells[0].samples[1] == 12);
	/* A row whose every run counts is the matrix's: shared, not copied. */
	CHECK(row && !row->cells[0].samples_shared);
	row = row_named(&cmp, "dmesg.oops");
	CHECK(row && row->cells[0].sum.n == 4 && row->cells[0].samples[1] == 1 &&
	      row->cells[0].samples[3] == 0);
	CHECK(row && row->cells[0].samples_shared && cmp.nsample_blocks == 1);
	CHECK(!a.values && !a.names[0]);
	row = row_named(&cmp, "last_state.is_incomplete_run");
	CHECK(row && row->cells[0].sum.n == 4);
	/* Every failure stat lkp-tests has (its etc/failure, etc/pass). */
	row = row_named(&cmp, "ltp.x.fail");
	CHECK(row && row->cells[0].sum.n == 4 && row->cells[0].samples[1] == 1);
	comparison_release(&cmp);
	matrix_release(&a);
}

/*
 * What kdelta writes, lkp-tests' form: names sorted and escaped, no null
 * (0 instead), numbers in their shortest exact form; it reads back the same.
 */
static void test_write(void)
{
	static const double v[] = { 0.1, 1.0 / 3, -0.0, 1e20, 123456789.25,
				    -7, 2.5e-300, NAN };
	struct strbuf out = STRBUF_INIT;
	struct matrix m = { 0 }, back;
	struct kd_err err;

	m.nruns = 2;
	m.nmetrics = 4;
	m.names = xcalloc(4, sizeof(*m.names));
	m.names[0] = xstrdup("z.last");
	m.names[1] = xstrdup("a.\"q\"\\\t");
	m.names[2] = xstrdup("m.x");
	m.names[3] = xstrdup("m.y");
	m.values = xcalloc(8, sizeof(double));
	memcpy(m.values, v, sizeof(v));
	m.sources = xcalloc(2, sizeof(*m.sources));
	m.sources[0] = xstrdup("r/0/stats.json");
	m.sources[1] = xstrdup("r/1/stats.json");
	matrix_to_json(&m, &out);
	CHECK_STR(out.buf, "{\"a.\\\"q\\\"\\\\\\u0009\":[0,1e+20],"
		  "\"m.x\":[123456789.25,-7],\"m.y\":[2.5e-300,0],"
		  "\"z.last\":[0.1,0.3333333333333333],"
		  "\"stats_source\":[\"r/0/stats.json\",\"r/1/stats.json\"]}\n");
	CHECK(parse(out.buf, &back, &err) == 0);
	CHECK(back.nmetrics == 4 && back.nruns == 2);
	CHECK_STR(back.names[0], m.names[1]);
	CHECK(back.sources && !strcmp(back.sources[1], "r/1/stats.json"));
	for (size_t i = 0; i < 8; i++)
		CHECK(back.values[i] == (isnan(v[(i + 2) % 8]) ? 0 : v[(i + 2) % 8]));
	matrix_release(&back);
	matrix_release(&m);
	/* No stats_source in, none out. */
	CHECK(parse("{\"a.x\": [1, 2]}", &back, &err) == 0);
	CHECK(back.sources == NULL);
	strbuf_reset(&out);
	matrix_to_json(&back, &out);
	CHECK_STR(out.buf, "{\"a.x\":[1,2]}\n");
	matrix_release(&back);
	strbuf_release(&out);
}

/* Many names: the hash table grows and still finds every one. */
static void test_many_metrics(void)
{
	struct strbuf text = STRBUF_INIT;
	struct matrix m, m2;
	struct matrix *ms[] = { &m, &m2 };
	struct comparison cmp = { .catalogue = metric_catalogue_default() };
	struct kd_err err;

	strbuf_addch(&text, '{');
	for (int i = 0; i < 5000; i++)
		strbuf_addf(&text, "%s\"proc-vmstat.nr_x%d\": [%d]", i ? ", " : "",
			    i, i);
	strbuf_addch(&text, '}');
	CHECK(parse(text.buf, &m, &err) == 0);
	CHECK(parse(text.buf, &m2, &err) == 0);
	cmp.nvariants = 2;
	cmp.variants = xcalloc(2, sizeof(*cmp.variants));
	comparison_add_matrices(&cmp, ms);
	CHECK(cmp.nrows == 5000);
	CHECK(cmp.nrows == 5000 && cmp.rows[4321].cells[1].samples[0] == 4321);
	comparison_release(&cmp);
	matrix_release(&m);
	matrix_release(&m2);
	strbuf_release(&text);
}

/* kdelta 0.1's result names are read as lkp-tests' (metric_current_name()). */
static void test_renamed(void)
{
	struct matrix m;
	struct kd_err err;

	CHECK(parse("{\"disk_wrt.jobs_per_min\": [1, 2], \"disk_wrt.throughput_MBps\": [3, 4],"
		    " \"creat-clo.ops_per_sec\": [5, 6]}", &m, &err) == 0);
	CHECK(m.nmetrics == 3);
	CHECK_STR(m.names[0], "aim7.jobs-per-min");
	CHECK_STR(m.names[1], "disk_wrt.throughput_MBps");
	CHECK_STR(m.names[2], "aim9.creat-clo.ops_per_sec");
	matrix_release(&m);
	/* Both names in one matrix: today's is kept, whatever the order. */
	CHECK(parse("{\"disk_rr.jobs_per_min\": [1, 2], \"aim7.jobs-per-min\": [3, 4]}",
		    &m, &err) == 0);
	CHECK(m.nmetrics == 1);
	CHECK_STR(m.names[0], "aim7.jobs-per-min");
	CHECK(m.values[0] == 3 && m.values[1] == 4);
	matrix_release(&m);
	CHECK(parse("{\"aim7.jobs-per-min\": [3, 4], \"disk_rr.jobs_per_min\": [1, 2]}",
		    &m, &err) == 0);
	CHECK(m.nmetrics == 1 && m.values[0] == 3);
	matrix_release(&m);
}

int main(void)
{
	test_parse();
	test_renamed();
	test_families();
	test_rows();
	test_integers();
	test_absent_source();
	test_incomplete_runs();
	test_write();
	test_many_metrics();
	return check_done();
}
