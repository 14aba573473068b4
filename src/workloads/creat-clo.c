// SPDX-License-Identifier: GPL-2.0
/*
 * creat-clo, after AIM9's test of the same name: creat() then close() one
 * file, over and over.  Every creat() but the first truncates an existing
 * empty file (O_TRUNC on a 0-length file: the path seed 002's tmpfs
 * regression was in).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "kdelta/util.h"
#include "kdelta/workload.h"

#define CREAT_CLO_FILE "creat-clo.tmp"
/*
 * The clock is read once per this many iterations, so that the loop costs
 * what a bare creat+close loop costs (the harness benchmark compares them).
 */
#define CREAT_CLO_BATCH 256

static int creat_close(struct kd_err *err)
{
	int fd = creat(CREAT_CLO_FILE, 0644);

	if (fd < 0)
		return kd_error(err, "creat-clo: creat %s: %s", CREAT_CLO_FILE,
				strerror(errno));
	if (close(fd) < 0)
		return kd_error(err, "creat-clo: close %s: %s", CREAT_CLO_FILE,
				strerror(errno));
	return 0;
}

static int creat_clo_loop(double testtime, uint64_t *ops, double *elapsed,
			  struct kd_err *err)
{
	double start = now_monotonic(), now;

	*ops = 0;
	do {
		for (int i = 0; i < CREAT_CLO_BATCH; i++)
			if (creat_close(err) < 0)
				return -1;
		*ops += CREAT_CLO_BATCH;
		now = now_monotonic();
	} while (now - start < testtime);
	*elapsed = now - start;
	return 0;
}

static int creat_clo_run(const struct jnode *params, FILE *out,
			 struct kd_err *err)
{
	double testtime = jnode_duration(params, "testtime"), elapsed = 0;
	uint64_t ops = 0;
	int ret;

	if (!(testtime > 0))
		return kd_error(err, "creat-clo: testtime must be more than 0s");
	/* The file exists before the clock starts: every timed creat truncates. */
	ret = creat_close(err);
	if (!ret)
		ret = creat_clo_loop(testtime, &ops, &elapsed, err);
	if (unlink(CREAT_CLO_FILE) < 0 && errno != ENOENT && !ret)
		ret = kd_error(err, "creat-clo: unlink %s: %s", CREAT_CLO_FILE,
			       strerror(errno));
	if (ret)
		return ret;
	wl_result(out, "ops_per_sec", (double)ops / elapsed);
	return wl_flush(out, "creat-clo", err);
}

static const struct param_spec creat_clo_params[] = {
	{ .name = "testtime", .type = PARAM_DURATION, .def = "1s",
	  .help = "how long to repeat creat+close, e.g. 10s or 300s (LKP's value); ops_per_sec counts creat+close pairs per second" },
	{ .name = NULL },
};

static const struct metric_spec creat_clo_metrics[] = {
	{ "ops_per_sec", .better = +1 },
	{ NULL },
};

const struct workload workload_creat_clo = {
	.section = {
		.name = "creat-clo",
		.summary = "AIM9 creat-clo: creat() and close() one empty file; result ops_per_sec",
		.params = creat_clo_params,
	},
	.metrics = creat_clo_metrics,
	.run = creat_clo_run,
};
