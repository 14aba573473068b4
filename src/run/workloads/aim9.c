// SPDX-License-Identifier: GPL-2.0
/*
 * aim9, LKP's single-process AIM Suite IX: one test repeated for testtime,
 * its rate reported as "<test>.ops_per_sec", the metric lkp-tests calls
 * aim9.<test>.ops_per_sec (seed 002: aim9.creat-clo.ops_per_sec).  The
 * tests, under lkp-tests' names, are in aim9-*.c (aim9.h); this file runs
 * one: its setup, then batches of its operations, each about a
 * millisecond long so that reading the clock costs nothing that shows,
 * until testtime has passed; then its teardown.
 */
#include <stdlib.h>
#include <string.h>

#include "aim9.h"
#include "common.h"
#include "kdelta/store.h"
#include "kdelta/util.h"
#include "kdelta/workload.h"

/* A batch grows until it takes this long. */
#define AIM9_BATCH_SECONDS 1e-3

static const struct aim9_test *const aim9_families[] = {
	aim9_cpu_tests, aim9_sys_tests, aim9_file_tests, aim9_ipc_tests,
};

static const struct aim9_test *aim9_find(const char *name)
{
	for (size_t f = 0; name && f < ARRAY_SIZE(aim9_families); f++)
		for (const struct aim9_test *t = aim9_families[f]; t->name; t++)
			if (!strcmp(t->name, name))
				return t;
	return NULL;
}

/* Operations per second of one test over testtime. */
static int aim9_measure(const struct aim9_test *t, double testtime,
			double *rate, struct kd_err *err)
{
	void *state = NULL;
	uint64_t ops = 0, batch = 1;
	double start, now = 0;
	int ret = t->setup ? t->setup(&state, err) : 0;

	start = now_monotonic();
	while (!ret) {
		double before = now_monotonic();

		ret = t->run(state, batch, err);
		now = now_monotonic();
		if (ret)
			break;
		ops += batch;
		if (now - start >= testtime)
			break;
		if (now - before < AIM9_BATCH_SECONDS && batch < (1ULL << 40))
			batch *= 2;
	}
	if (t->teardown)
		t->teardown(state);
	*rate = ret ? 0 : (double)ops / (now - start);
	return ret;
}

/* lkp-tests' aim9.yaml lists these, in this order. */
static const char *const aim9_test_names[] = {
	"add_double", "add_float", "add_int", "add_long", "add_short",
	"array_rtns", "brk_test", "creat-clo", "dgram_pipe", "dir_rtns_1",
	"disk_cp", "disk_rd", "disk_rr", "disk_rw", "disk_src", "disk_wrt",
	"div_double", "div_float", "div_int", "div_long", "div_short",
	"exec_test", "fifo_test", "fork_test", "fun_cal", "fun_cal1",
	"fun_cal15", "fun_cal2", "jmp_test", "link_test", "matrix_rtns",
	"mem_rtns_1", "mem_rtns_2", "misc_rtns_1", "mul_double", "mul_float",
	"mul_int", "mul_long", "mul_short", "new_raph", "num_rtns_1",
	"page_test", "pipe_cpy", "ram_copy", "series_1", "shared_memory",
	"shell_rtns_1", "shell_rtns_2", "shell_rtns_3", "sieve", "signal_test",
	"sort_rtns_1", "stream_pipe", "string_rtns", "sync_disk_cp",
	"sync_disk_rw", "sync_disk_wrt", "tcp_test", "trig_rtns", "udp_test",
	NULL,
};

void workload_aim9_tests_man(struct strbuf *out)
{
	for (size_t i = 0; aim9_test_names[i]; i++) {
		const struct aim9_test *t = aim9_find(aim9_test_names[i]);

		strbuf_addf(out, ".TP\n.B %s\n%s\n", t->name, t->what);
	}
}

static int aim9_run(const struct jnode *params, FILE *out, struct kd_err *err)
{
	const char *test = jnode_str(params, "test");
	const struct aim9_test *t = aim9_find(test);
	double rate;
	char *key;

	if (!t)		/* the schema lets no other test through */
		return kd_error(err, "aim9: no test '%s'", test ? test : "");
	if (aim9_measure(t, jnode_duration(params, "testtime"), &rate, err) < 0)
		return kd_error_prefix(err, "aim9 %s", test);
	key = xasprintf("%s.ops_per_sec", test);
	store_result_write(out, key, rate);
	free(key);
	return wl_flush(out, "aim9", err);
}

static const struct param_spec aim9_params[] = {
	{ .name = "test", .type = PARAM_CHOICE, .choices = aim9_test_names,
	  .choices_are = "aim9 tests kdelta implements", .required = true,
	  .lkp_option = true,
	  .help = "the test, one of AIM9's 60 under lkp-tests' names (AIM9 TESTS below); the result is <test>.ops_per_sec, aim9.creat-clo.ops_per_sec" },
	{ .name = "testtime", .type = PARAM_DURATION, .def = "10s",
	  .min = "1ms", .lkp_option = true,
	  .help = "how long to repeat the test, e.g. 3s or 300s (LKP's value)" },
	{ .name = NULL },
};

/* kdelta 0.1's creat-clo workload, with the same parameter (1s there). */
static const struct param_renamed aim9_renamed[] = {
	{ "creat-clo", "aim9: {test: creat-clo}", "testtime: 1s" },
	{ NULL },
};

/* Every aim9 result is <test>.ops_per_sec. */
static const struct metric_spec aim9_metrics[] = {
	{ "*", .better = +1 },
	{ NULL },
};

const struct workload workload_aim9 = {
	.section = {
		.name = "aim9",
		.summary = "AIM Suite IX, as LKP runs it: one test, one process, for testtime; result <test>.ops_per_sec",
		.params = aim9_params,
		.renamed = aim9_renamed,
	},
	.metrics = aim9_metrics,
	.run = aim9_run,
};
