// SPDX-License-Identifier: GPL-2.0
/*
 * kdelta stats on a run directory made of the input: every raw file (read
 * through read_file(), gzip and all) through its monitor's extract(), every
 * workload log through the "key: value" reader, as run_dir_extract() does;
 * then the stats.json run_dir_write_stats() writes, read back as kdelta
 * compare reads it (matrix_from_stats()).
 *
 * The input is files separated by form feeds ('\f'): a name on the first
 * line, then the content.  A name ending in ".gz" (the monitors' raw files)
 * has its content gzip-compressed by this target, unless the content is
 * already gzip (starts with 1f 8b), so that the parsers see text and the
 * reader still meets broken gzip.  A name that is not one path component
 * becomes "file<N>".
 *
 *   proc-vmstat.gz
 *   time: 1796001600.000000
 *   pgfree 12
 *   \f
 *   exec.log
 *   ops: 5
 *
 * Properties: every metric is "<source>.<name>" and a finite number; what
 * kdelta stats writes reads back, as compare reads it, to the same metrics
 * and values.
 *
 * Seeds: testdata/fuzz/stats/corpus/; dictionary: testdata/fuzz/stats.dict.
 */
#include <math.h>
#include <string.h>

#include <zlib.h>

#include "fuzz.h"
#include "kdelta/matrix.h"
#include "kdelta/monitor.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

#define MAX_FILES 16

static bool component(const char *name)
{
	return *name && strcmp(name, ".") && strcmp(name, "..") &&
	       !strchr(name, '/') && strlen(name) < 200;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static void write_gzip(const char *rel, const char *data, size_t len)
{
	char *path = fuzz_write(rel, "", 0);
	gzFile gz = gzopen(path, "wb1");

	FUZZ_CHECK(gz && (!len || gzwrite(gz, data, (unsigned)len) == (int)len) &&
		   gzclose(gz) == Z_OK, "%s: cannot compress", path);
	free(path);
}

static void write_run(const char *data, size_t size)
{
	struct fuzz_parts parts;

	fuzz_split(data, size, '\f', MAX_FILES, &parts);
	for (size_t i = 0; i < parts.n; i++) {
		const char *p = parts.data[i], *nl = memchr(p, '\n', parts.len[i]);
		size_t nlen = nl ? (size_t)(nl - p) : parts.len[i];
		const char *content = nl ? nl + 1 : p + parts.len[i];
		size_t clen = (size_t)(p + parts.len[i] - content);
		char *name = fuzz_strndup(p, nlen);
		char *rel;

		if (!component(name) || !strcmp(name, STORE_STATS_FILE)) {
			free(name);
			name = xasprintf("file%zu", i);
		}
		rel = xasprintf("run/%s", name);
		if (ends_with(name, ".gz") &&
		    !(clen >= 2 && (unsigned char)content[0] == 0x1f &&
		      (unsigned char)content[1] == 0x8b))
			write_gzip(rel, content, clen);
		else
			free(fuzz_write(rel, content, clen));
		free(rel);
		free(name);
	}
}

static void check_metrics(json_t *stats)
{
	const char *key;
	json_t *value;

	json_object_foreach(stats, key, value) {
		const char *dot = strchr(key, '.');

		FUZZ_CHECK(dot && dot > key && dot[1], "metric '%s' is not <source>.<name>",
			   key);
		FUZZ_CHECK(json_is_number(value) && isfinite(json_number_value(value)),
			   "metric '%s' is not a finite number", key);
	}
}

/* What kdelta stats wrote, as compare reads it: the same metrics. */
static void check_read_back(const char *run, json_t *stats)
{
	char *path = xasprintf("%s/%s", run, STORE_STATS_FILE);
	const char *paths[] = { path };
	struct matrix m;
	struct kd_err err;

	FUZZ_CHECK(!matrix_from_stats(paths, 1, &m, &err),
		   "the stats.json kdelta stats wrote does not load: %s", err.msg);
	FUZZ_CHECK(m.nmetrics == json_object_size(stats),
		   "stats.json loads with %zu metrics, kdelta stats made %zu",
		   m.nmetrics, json_object_size(stats));
	for (size_t i = 0; i < m.nmetrics; i++) {
		json_t *v = json_object_get(stats, m.names[i]);

		FUZZ_CHECK(v, "stats.json has '%s', kdelta stats did not make it",
			   m.names[i]);
		FUZZ_CHECK(m.values[i] == json_number_value(v),
			   "%s: %.17g in stats.json, %.17g made", m.names[i],
			   m.values[i], json_number_value(v));
	}
	matrix_release(&m);
	free(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *run;
	json_t *stats;
	struct kd_err err = { .msg = "" };

	fuzz_remove("run");
	write_run((const char *)data, size);
	free(fuzz_write("run/.keep", "", 0));
	run = xasprintf("%s/run", fuzz_tmpdir());
	if (run_dir_extract(run, &stats, &err) < 0) {
		FUZZ_CHECK(err.msg[0], "kdelta stats failed without a message");
	} else {
		check_metrics(stats);
		FUZZ_CHECK(!run_dir_write_stats(run, stats, &err), "%s", err.msg);
		check_read_back(run, stats);
		json_decref(stats);
	}
	free(run);
	return 0;
}
