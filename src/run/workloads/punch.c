// SPDX-License-Identifier: GPL-2.0
/*
 * punch, after the hole-punching thread (seed 001): prepare a file of
 * file_size, either by fallocate (unwritten extents, nothing cached) or by
 * writing it (written extents and a page cache full of its pages), fsync it,
 * optionally drop the caches, then time nr_punches
 * fallocate(PUNCH_HOLE | KEEP_SIZE) calls of punch_size every stride.  Seed
 * 001 measured about 1 us per punch after fallocate, 90 us after write, and
 * the fallocate figure again after write once the caches were dropped.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/falloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "kdelta/store.h"
#include "kdelta/util.h"
#include "kdelta/workload.h"

#define PUNCH_FILE "punch.tmp"
#define PUNCH_WRITE_SIZE (1024 * 1024)	/* as seed 001's xfs_io pwrite -b 1m */

struct punch_params {
	uint64_t file_size, punch_size, stride;
	int64_t nr_punches;
	bool prefill_write, drop_caches;
};

static int punch_unsupported(int fd, const char *what, struct kd_err *err)
{
	char fs[64];

	wl_fs_type(fd, fs, sizeof(fs));
	return kd_error(err, "punch: %s %s: not supported by the %s file system of the work directory; choose another fs",
			what, PUNCH_FILE, fs);
}

static int punch_prefill(int fd, const struct punch_params *p,
			 struct kd_err *err)
{
	char *buf;

	if (!p->prefill_write) {
		if (!fallocate(fd, 0, 0, (off_t)p->file_size))
			return 0;
		if (errno == EOPNOTSUPP)
			return punch_unsupported(fd, "fallocate", err);
		return kd_error(err, "punch: fallocate %s: %s", PUNCH_FILE,
				strerror(errno));
	}
	buf = xmalloc(PUNCH_WRITE_SIZE);
	memset(buf, 'a', PUNCH_WRITE_SIZE);
	for (uint64_t off = 0; off < p->file_size; off += PUNCH_WRITE_SIZE) {
		uint64_t left = p->file_size - off;
		size_t len = left < PUNCH_WRITE_SIZE ? (size_t)left : PUNCH_WRITE_SIZE;

		if (wl_write_all(fd, buf, len) < 0) {
			free(buf);
			return kd_error(err, "punch: write %s: %s", PUNCH_FILE,
					strerror(errno));
		}
	}
	free(buf);
	return 0;
}

static int punch_holes(int fd, const struct punch_params *p, double *usecs,
		       struct kd_err *err)
{
	const int mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
	double start = now_monotonic();

	for (int64_t i = 0; i < p->nr_punches; i++) {
		off_t off = (off_t)((uint64_t)i * p->stride);

		if (fallocate(fd, mode, off, (off_t)p->punch_size) == 0)
			continue;
		if (errno == EOPNOTSUPP)
			return punch_unsupported(fd, "punching holes in", err);
		return kd_error(err, "punch: punching a hole at %jd in %s: %s",
				(intmax_t)off, PUNCH_FILE, strerror(errno));
	}
	*usecs = (now_monotonic() - start) * 1e6;
	return 0;
}

static int punch_file(const struct punch_params *p, double *usecs,
		      struct kd_err *err)
{
	int fd = open(PUNCH_FILE, O_RDWR | O_CREAT | O_TRUNC, 0644);
	int ret;

	if (fd < 0)
		return kd_error(err, "punch: create %s: %s", PUNCH_FILE,
				strerror(errno));
	ret = punch_prefill(fd, p, err);
	if (!ret && fsync(fd) < 0)
		ret = kd_error(err, "punch: fsync %s: %s", PUNCH_FILE,
			       strerror(errno));
	if (!ret && p->drop_caches)
		ret = wl_drop_caches("punch", err);
	if (!ret)
		ret = punch_holes(fd, p, usecs, err);
	close(fd);
	if (unlink(PUNCH_FILE) < 0 && !ret)
		ret = kd_error(err, "punch: unlink %s: %s", PUNCH_FILE,
			       strerror(errno));
	return ret;
}

/* Completes p (nr_punches 0: as many as fit); *at: the key it is about. */
static int punch_check(struct punch_params *p, const char **at,
		       struct kd_err *err)
{
	char a[32], b[32], c[32];

	*at = "file_size";
	if (!p->file_size || p->file_size > INT64_MAX)
		return kd_error(err, "punch: file_size must be at least 1 byte and fit in off_t");
	*at = p->punch_size ? "stride" : "punch_size";
	if (!p->punch_size || !p->stride)
		return kd_error(err, "punch: punch_size and stride must be at least 1 byte");
	if (p->punch_size > p->stride)
		return kd_error(err, "punch: punch_size %s is larger than stride %s: the holes would overlap",
				wl_size_str(p->punch_size, a),
				wl_size_str(p->stride, b));
	*at = "nr_punches";
	if (p->nr_punches < 0)
		return kd_error(err, "punch: nr_punches must be 0 (as many as fit) or more, not %" PRId64,
				p->nr_punches);
	if (!p->nr_punches)
		p->nr_punches = (int64_t)(p->file_size / p->stride);
	if ((uint64_t)p->nr_punches > p->file_size / p->stride)
		return kd_error(err, "punch: %" PRId64 " holes every %s do not fit in file_size %s (at most %" PRIu64 "); lower nr_punches or stride, or raise file_size",
				p->nr_punches, wl_size_str(p->stride, a),
				wl_size_str(p->file_size, c),
				p->file_size / p->stride);
	*at = "stride";
	if (!p->nr_punches)
		return kd_error(err, "punch: stride %s is larger than file_size %s: no hole fits",
				wl_size_str(p->stride, a),
				wl_size_str(p->file_size, c));
	return 0;
}

static int punch_read(const struct jnode *params, struct punch_params *p,
		      const char **at, struct kd_err *err)
{
	const char *prefill = jnode_str(params, "prefill");

	*p = (struct punch_params){
		.file_size = jnode_size(params, "file_size"),
		.punch_size = jnode_size(params, "punch_size"),
		.stride = jnode_size(params, "stride"),
		.nr_punches = jnode_int(params, "nr_punches"),
		.prefill_write = prefill && !strcmp(prefill, "write"),
		.drop_caches = jnode_bool(params, "drop_caches"),
	};
	return punch_check(p, at, err);
}

/* The sizes must fit each other: checked as the job file loads. */
static int punch_constraints(const struct jnode *params, const char **at,
			     struct kd_err *err)
{
	struct punch_params p;

	return punch_read(params, &p, at, err);
}

static int punch_run(const struct jnode *params, FILE *out, struct kd_err *err)
{
	struct punch_params p;
	const char *at;
	double usecs = 0;

	if (punch_read(params, &p, &at, err) < 0 ||
	    punch_file(&p, &usecs, err) < 0)
		return -1;
	if (usecs <= 0)
		return kd_error(err, "punch: the clock did not advance while punching; raise nr_punches");
	store_result_write(out, "usecs", usecs);
	store_result_write(out, "usecs_per_punch", usecs / (double)p.nr_punches);
	store_result_write(out, "punches_per_sec", (double)p.nr_punches / (usecs / 1e6));
	return wl_flush(out, "punch", err);
}

static const char *const punch_prefills[] = { "fallocate", "write", NULL };

static const struct param_spec punch_params[] = {
	{ .name = "file_size", .type = PARAM_SIZE, .def = "64M",
	  .help = "size of the file, punch.tmp in the work directory, removed at the end (seed 001: 20G)" },
	{ .name = "prefill", .type = PARAM_CHOICE, .def = "fallocate",
	  .choices = punch_prefills,
	  .help = "how the file is prepared: fallocate (unwritten extents) or write (data written in 1M blocks); either way it is then fsynced" },
	{ .name = "drop_caches", .type = PARAM_BOOL, .def = "false",
	  .help = "drop the page cache after preparing the file (needs root), as seed 001's second experiment" },
	{ .name = "punch_size", .type = PARAM_SIZE, .def = "4k",
	  .help = "length of each hole, punched with fallocate(PUNCH_HOLE|KEEP_SIZE)" },
	{ .name = "stride", .type = PARAM_SIZE, .def = "64k",
	  .help = "distance between the starts of consecutive holes, at least punch_size" },
	{ .name = "nr_punches", .type = PARAM_INT, .def = "0",
	  .help = "number of holes; 0: as many as fit (file_size / stride); nr_punches * stride must fit in file_size" },
	{ .name = NULL },
};

static const struct metric_spec punch_metrics[] = {
	{ "usecs", .better = -1 },
	{ "usecs_per_punch", .better = -1 },
	{ "punches_per_sec", .better = +1 },
	{ NULL },
};

const struct workload workload_punch = {
	.section = {
		.name = "punch",
		.summary = "hole punching (seed 001): time punching holes in a file; results usecs, usecs_per_punch, punches_per_sec",
		.params = punch_params,
		.constraints = punch_constraints,
	},
	.metrics = punch_metrics,
	.run = punch_run,
};
