// SPDX-License-Identifier: GPL-2.0
/* Matrix parsing, metric families, and rows built from matrices. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
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

	/* Without stats_source, the first array sets the width. */
	CHECK(parse("{\"a\": [1, 2], \"b\": [3]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: ragged matrix: 'b' has 1 values, 'a' has 2");
	CHECK(parse("{\"a\": [1, 2], \"stats_source\": [\"0\"]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: ragged matrix: 'a' has 2 values, 'stats_source' has 1");
	CHECK(parse("{\"a\": [1, \"2\"]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: metric 'a', run 1: expected a number, got a string");
	CHECK(parse("{\"a\": 1}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: metric 'a': expected an array of numbers, got a number");
	CHECK(parse("[1]", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: expected a JSON object of metric arrays, got an array");
	CHECK(parse("{\"a\": [NaN]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: invalid JSON at line 1, column 10: invalid token near 'NaN'");
	CHECK(parse("{\"a\": [1e999]}", &m, &err) < 0);
	CHECK_STR(err.msg, "m.json: invalid JSON at line 1, column 12: real number overflow near '1e999'");
	CHECK(parse("{}", &m, &err) == 0);
	CHECK(m.nmetrics == 0 && m.nruns == 0);
	matrix_release(&m);
}

static void test_families(void)
{
	CHECK(metric_is_key("creat-clo.ops_per_sec"));
	CHECK(metric_is_key("aim9.creat-clo.ops_per_sec"));
	CHECK(metric_is_key("noperiod"));
	CHECK(!metric_is_key("proc-vmstat.pgfree"));
	CHECK(!metric_is_key("slabinfo.dentry.active_objs"));
	CHECK(!metric_is_key("time.user_time"));
	CHECK(!metric_is_key("sched_debug.cfs_rq[0]:/.nr_spread_over"));
	CHECK(!metric_is_key("numa-vmstat.node0.numa_other"));
	CHECK(!metric_is_key("cpuidle.C1-NHM.usage"));
	CHECK(metric_absent_means_zero("proc-vmstat.pgmajfault"));
	CHECK(metric_absent_means_zero("proc-vmstat.numa_hit"));
	CHECK(!metric_absent_means_zero("proc-vmstat.nr_free_pages"));
	CHECK(!metric_absent_means_zero("meminfo.Dirty"));
	CHECK(!metric_absent_means_zero("creat-clo.ops_per_sec"));
}

static const struct metric_row *row_named(const struct comparison *cmp,
					  const char *name)
{
	for (size_t r = 0; r < cmp->nrows; r++)
		if (!strcmp(cmp->rows[r].name, name))
			return &cmp->rows[r];
	return NULL;
}

static void test_rows(void)
{
	struct matrix a, b;
	const struct matrix *ms[] = { &a, &b };
	struct comparison cmp = { 0 };
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

/* Many names: the hash table grows and still finds every one. */
static void test_many_metrics(void)
{
	struct strbuf text = STRBUF_INIT;
	struct matrix m;
	const struct matrix *ms[] = { &m, &m };
	struct comparison cmp = { 0 };
	struct kd_err err;

	strbuf_addch(&text, '{');
	for (int i = 0; i < 5000; i++)
		strbuf_addf(&text, "%s\"proc-vmstat.nr_x%d\": [%d]", i ? ", " : "",
			    i, i);
	strbuf_addch(&text, '}');
	CHECK(parse(text.buf, &m, &err) == 0);
	cmp.nvariants = 2;
	cmp.variants = xcalloc(2, sizeof(*cmp.variants));
	comparison_add_matrices(&cmp, ms);
	CHECK(cmp.nrows == 5000);
	CHECK(cmp.nrows == 5000 && cmp.rows[4321].cells[1].samples[0] == 4321);
	comparison_release(&cmp);
	matrix_release(&m);
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
	test_many_metrics();
	return check_done();
}
