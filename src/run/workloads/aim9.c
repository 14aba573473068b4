// SPDX-License-Identifier: GPL-2.0
/*
 * aim9, LKP's single-process AIM Suite IX: one test repeated for testtime,
 * its rate reported as "<test>.ops_per_sec", the metric lkp-tests calls
 * aim9.<test>.ops_per_sec (seed 002: aim9.creat-clo.ops_per_sec).
 *
 * The tests kdelta implements, after AIM9's of the same name:
 *   creat-clo  creat() then close() one file, over and over; every creat()
 *              but the first truncates an existing empty file (O_TRUNC on a
 *              0-length file: the path seed 002's tmpfs regression was in).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "kdelta/store.h"
#include "kdelta/util.h"
#include "kdelta/workload.h"

#define CREAT_CLO_FILE "creat-clo.tmp"
/*
 * The clock is read once per this many iterations, so that the loop costs
 * what a bare creat+close loop costs (the harness benchmark compares them).
 */
#define CREAT_CLO_BATCH 256

static int creat_clo_loop(double testtime, uint64_t *ops, double *elapsed,
			  struct kd_err *err)
{
	double start = now_monotonic(), now;

	*ops = 0;
	do {
		for (int i = 0; i < CREAT_CLO_BATCH; i++)
			if (wl_creat_close(CREAT_CLO_FILE, err) < 0)
				return -1;
		*ops += CREAT_CLO_BATCH;
		now = now_monotonic();
	} while (now - start < testtime);
	*elapsed = now - start;
	return 0;
}

/* Operations (creat+close pairs) per second. */
static int creat_clo_run(double testtime, double *rate, struct kd_err *err)
{
	double elapsed = 0;
	uint64_t ops = 0;
	int ret;

	/* The file exists before the clock starts: every timed creat truncates. */
	ret = wl_creat_close(CREAT_CLO_FILE, err);
	if (!ret)
		ret = creat_clo_loop(testtime, &ops, &elapsed, err);
	if (unlink(CREAT_CLO_FILE) < 0 && errno != ENOENT && !ret)
		ret = kd_error(err, "unlink %s: %s", CREAT_CLO_FILE,
			       strerror(errno));
	*rate = ret ? 0 : (double)ops / elapsed;
	return ret;
}

struct aim9_test {
	const char *name;
	int (*run)(double testtime, double *ops_per_sec, struct kd_err *err);
};

/* In the order of aim9_test_names[]. */
static const struct aim9_test aim9_tests[] = {
	{ "creat-clo", creat_clo_run },
};

static const char *const aim9_test_names[] = { "creat-clo", NULL };

static int aim9_run(const struct jnode *params, FILE *out, struct kd_err *err)
{
	const char *test = jnode_str(params, "test");
	double rate;
	char *key;

	for (size_t i = 0; i < ARRAY_SIZE(aim9_tests); i++) {
		if (!test || strcmp(aim9_tests[i].name, test))
			continue;
		if (aim9_tests[i].run(jnode_duration(params, "testtime"), &rate,
				      err) < 0)
			return kd_error_prefix(err, "aim9 %s", test);
		key = xasprintf("%s.ops_per_sec", test);
		store_result_write(out, key, rate);
		free(key);
		return wl_flush(out, "aim9", err);
	}
	return kd_error(err, "aim9: no test '%s'", test ? test : "");
}

static const struct param_spec aim9_params[] = {
	{ .name = "test", .type = PARAM_CHOICE, .choices = aim9_test_names,
	  .choices_are = "aim9 tests kdelta implements", .required = true,
	  .help = "the test: creat-clo, creat() and close() of one empty file (AIM9's \"File Creations and Closes\"); the result is <test>.ops_per_sec, aim9.creat-clo.ops_per_sec" },
	{ .name = "testtime", .type = PARAM_DURATION, .def = "10s",
	  .min = "1ms",
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
