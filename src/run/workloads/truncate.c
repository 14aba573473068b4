// SPDX-License-Identifier: GPL-2.0
/*
 * truncate, after Jan Kara's trunc-bench (seed 000): stage 1 creates
 * nr_files sparse files of file_size with ftruncate and reads each through
 * once, which fills the page cache with their (zero) pages; stage 2, timed,
 * truncates every file to 0 and so takes those pages out of the cache again.
 * The regression it found was in removing page cache entries, so the files
 * should together be about twice the memory size to show it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "kdelta/store.h"
#include "kdelta/util.h"
#include "kdelta/workload.h"

#define TRUNCATE_MAX_FILES 1000000
#define TRUNCATE_READ_SIZE (1024 * 1024)	/* trunc-bench's buffer */

static void truncate_file_name(char *buf, size_t size, int64_t i)
{
	snprintf(buf, size, "truncate.%" PRId64, i);
}

/* Stage 1 for one file: size it by ftruncate, then read it through. */
static int truncate_fill(const char *name, uint64_t file_size, char *buf,
			 size_t buf_size, struct kd_err *err)
{
	int fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644);
	uint64_t done = 0;
	ssize_t n = 0;

	if (fd < 0)
		return kd_error(err, "truncate: create %s: %s", name,
				strerror(errno));
	if (ftruncate(fd, (off_t)file_size) < 0) {
		kd_error(err, "truncate: ftruncate %s: %s", name,
			 strerror(errno));
		close(fd);
		return -1;
	}
	while (done < file_size &&
	       ((n = read(fd, buf, buf_size)) > 0 || (n < 0 && errno == EINTR)))
		done += n > 0 ? (uint64_t)n : 0;
	if (n < 0)
		kd_error(err, "truncate: read %s: %s", name, strerror(errno));
	else if (done < file_size)
		kd_error(err, "truncate: read %s: only %" PRIu64 " of %" PRIu64 " bytes",
			 name, done, file_size);
	close(fd);
	return done < file_size ? -1 : 0;
}

/* Stage 2: truncates every file to 0; *usecs is how long that took. */
static int truncate_all(int64_t nr_files, double *usecs, struct kd_err *err)
{
	double start = now_monotonic();
	char name[64];

	for (int64_t i = 0; i < nr_files; i++) {
		truncate_file_name(name, sizeof(name), i);
		if (truncate(name, 0) < 0)
			return kd_error(err, "truncate: truncate %s: %s", name,
					strerror(errno));
	}
	*usecs = (now_monotonic() - start) * 1e6;
	return 0;
}

static int truncate_stages(int64_t nr_files, uint64_t file_size,
			   bool drop_caches, int64_t *created, double *usecs,
			   struct kd_err *err)
{
	size_t buf_size = file_size < TRUNCATE_READ_SIZE ?
			  (size_t)file_size : TRUNCATE_READ_SIZE;
	char *buf = xmalloc(buf_size);
	char name[64];
	int ret = 0;

	for (*created = 0; *created < nr_files && !ret; (*created)++) {
		truncate_file_name(name, sizeof(name), *created);
		ret = truncate_fill(name, file_size, buf, buf_size, err);
	}
	free(buf);
	if (!ret && drop_caches)
		ret = wl_drop_caches("truncate", err);
	if (!ret)
		ret = truncate_all(nr_files, usecs, err);
	return ret;
}

static int truncate_run(const struct jnode *params, FILE *out,
			struct kd_err *err)
{
	int64_t nr_files = jnode_int(params, "nr_files"), created = 0;
	uint64_t file_size = jnode_size(params, "file_size");
	long page_size = sysconf(_SC_PAGESIZE);
	double usecs = 0, pages;
	char name[64];
	int ret;

	if (nr_files < 1 || nr_files > TRUNCATE_MAX_FILES)
		return kd_error(err, "truncate: nr_files must be between 1 and %d, not %" PRId64,
				TRUNCATE_MAX_FILES, nr_files);
	if (file_size < 1 || file_size > INT64_MAX)
		return kd_error(err, "truncate: file_size must be at least 1 byte and fit in off_t");
	ret = truncate_stages(nr_files, file_size, jnode_bool(params, "drop_caches"),
			      &created, &usecs, err);
	for (int64_t i = 0; i < created; i++) {
		truncate_file_name(name, sizeof(name), i);
		if (unlink(name) < 0 && errno != ENOENT && !ret)
			ret = kd_error(err, "truncate: unlink %s: %s", name,
				       strerror(errno));
	}
	if (ret)
		return ret;
	pages = (double)nr_files *
		(double)((file_size + (uint64_t)page_size - 1) / (uint64_t)page_size);
	if (usecs <= 0)
		return kd_error(err, "truncate: the clock did not advance while truncating; raise nr_files");
	store_result_write(out, "usecs", usecs);
	store_result_write(out, "usecs_per_file", usecs / (double)nr_files);
	store_result_write(out, "pages_per_sec", pages / (usecs / 1e6));
	return wl_flush(out, "truncate", err);
}

static const struct param_spec truncate_params[] = {
	{ .name = "nr_files", .type = PARAM_INT, .def = "4",
	  .help = "number of files (truncate.0, truncate.1, ... in the work directory, removed at the end); trunc-bench's file-count, 64 in seed 000" },
	{ .name = "file_size", .type = PARAM_SIZE, .def = "64M",
	  .help = "size of each file, made by ftruncate and read through once, so that its pages are cached; all files together about twice the memory show seed 000's regression" },
	{ .name = "drop_caches", .type = PARAM_BOOL, .def = "false",
	  .help = "sync and drop the caches between creating and truncating (needs root), so that no page is cached any more" },
	{ .name = NULL },
};

static const struct metric_spec truncate_metrics[] = {
	{ "usecs", .better = -1 },
	{ "usecs_per_file", .better = -1 },
	{ "pages_per_sec", .better = +1 },
	{ NULL },
};

const struct workload workload_truncate = {
	.section = {
		.name = "truncate",
		.summary = "trunc-bench (seed 000): time truncating cached files to 0; results usecs, usecs_per_file, pages_per_sec",
		.params = truncate_params,
	},
	.metrics = truncate_metrics,
	.run = truncate_run,
};
