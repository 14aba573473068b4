// SPDX-License-Identifier: GPL-2.0
/* The result store: run numbering, completion marks, matrix rebuild. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "check.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

static void write_text(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct kd_err err;

	CHECK(write_file_atomic(path, text, strlen(text), &err) == 0);
	free(path);
}

static void test_commit_dir(void)
{
	char *dir = store_commit_dir("/r/", "punch", "../../etc", "host/x", "..");

	/* Every component is one safe name: no way out of the root. */
	CHECK_STR(dir, "/r/punch/_._.._etc/host_x/%2E.");
	free(dir);
}

/* Labels: stored under names that keep them apart, found back. */
static void test_label_names(void)
{
	static const char *const labels[] = {
		"v6.1", "xfs/for-next", "xfs_for-next", "50%", "HEAD~1",
		".hidden", "a b\tc", "caf\xc3\xa9",
	};
	static const char *const names[] = {
		"v6.1", "xfs%2Ffor-next", "xfs_for-next", "50%25", "HEAD%7E1",
		"%2Ehidden", "a%20b%09c", "caf%C3%A9",
	};
	char long_label[400];

	for (size_t i = 0; i < ARRAY_SIZE(labels); i++) {
		char *name = store_label_name(labels[i]);
		char *back = store_label_from_name(name);

		CHECK_STR(name, names[i]);
		CHECK_STR(back, labels[i]);
		free(name);
		free(back);
	}
	memset(long_label, '/', sizeof(long_label) - 1);
	long_label[sizeof(long_label) - 1] = '\0';
	{
		char *name = store_label_name(long_label);

		CHECK(strlen(name) <= STORE_NAME_MAX && !strchr(name, '/'));
		free(name);
	}
}

static void test_numbering(const char *root)
{
	char *commit_dir = xasprintf("%s/tc/p/h/base", root), *run_dir, *path;
	unsigned number;
	struct kd_err err;

	CHECK(store_alloc_run(commit_dir, &number, &run_dir, &err) == 0);
	CHECK(number == 0);
	free(run_dir);
	CHECK(store_alloc_run(commit_dir, &number, &run_dir, &err) == 0);
	CHECK(number == 1);
	free(run_dir);
	/* A gap and a stray entry: numbering goes on after the largest. */
	path = xasprintf("%s/7", commit_dir);
	CHECK(mkdir(path, 0755) == 0);
	free(path);
	path = xasprintf("%s/08", commit_dir);
	CHECK(mkdir(path, 0755) == 0);
	free(path);
	CHECK(store_alloc_run(commit_dir, &number, &run_dir, &err) == 0);
	CHECK(number == 8);
	CHECK(store_run_status(run_dir) == NULL);
	CHECK(store_mark_complete(run_dir, "failed: x\nexited", &err) == 0);
	path = store_run_status(run_dir);
	CHECK_STR(path, "failed: x exited");
	free(path);
	free(run_dir);
	free(commit_dir);
}

static void add_run(const char *commit_dir, const char *status,
		    const char *stats)
{
	char *run_dir;
	unsigned number;
	struct kd_err err;

	CHECK(store_alloc_run(commit_dir, &number, &run_dir, &err) == 0);
	if (stats)
		write_text(run_dir, STORE_STATS_FILE, stats);
	if (status)
		CHECK(store_mark_complete(run_dir, status, &err) == 0);
	free(run_dir);
}

static void test_matrix(const char *root)
{
	char *commit_dir = xasprintf("%s/tc/p/h/test", root);
	char *path = xasprintf("%s/%s", commit_dir, STORE_MATRIX_FILE);
	char *want;
	struct strbuf sb = STRBUF_INIT;
	struct kd_err err;
	size_t n;

	add_run(commit_dir, "ok", "{\"a.x\": 1, \"b.y\": 10}");
	add_run(commit_dir, "failed: punch exited with status 1", "{\"a.x\": 99}");
	add_run(commit_dir, NULL, "{\"a.x\": 98}");	/* incomplete */
	add_run(commit_dir, "ok", "{\"a.x\": 2.5, \"c.z\": 7}");
	add_run(commit_dir, "ok", "{\"b.y\": 30}");
	CHECK(store_rebuild_matrix(commit_dir, &n, &err) == 0);
	CHECK(n == 3);
	CHECK(read_file(path, &sb, &err) == 0);
	/*
	 * lkp-tests' form, which its compare reads (checked with its Ruby):
	 * a run that lacks a metric has 0, never null; stats_source names
	 * each run's stats.json.
	 */
	want = xasprintf("{\"a.x\":[1,2.5,0],\"b.y\":[10,0,30],"
			 "\"c.z\":[0,7,0],\"stats_source\":"
			 "[\"%s/0/stats.json\",\"%s/3/stats.json\","
			 "\"%s/4/stats.json\"]}\n",
			 commit_dir, commit_dir, commit_dir);
	CHECK_STR(sb.buf, want);
	free(want);

	/* A damaged stats.json of an ok run is an error naming the file. */
	add_run(commit_dir, "ok", "{\"a.x\": ");
	CHECK(store_rebuild_matrix(commit_dir, &n, &err) < 0);
	CHECK(strstr(err.msg, "/5/stats.json:") != NULL);
	strbuf_release(&sb);
	free(path);
	free(commit_dir);
}

static void check_line(const char *line, const char *key, double value)
{
	char *got = NULL;
	double v = 0;
	bool ok = store_result_line(line, strlen(line), &got, &v);

	CHECK(ok == (key != NULL));
	if (ok && key) {
		CHECK_STR(got, key);
		CHECK(v == value);
	}
	free(got);
}

/* Result lines, and the key result: the first of the first ok run. */
static void test_key_result(const char *root)
{
	char *dir = xasprintf("%s/aim9/p/h/c", root), *key;

	check_line("ops_per_sec: 12.5", "ops_per_sec", 12.5);
	check_line("creat-clo.ops_per_sec: 3 \r", "creat-clo.ops_per_sec", 3);
	check_line("a b: 1", NULL, 0);
	check_line("a:1", NULL, 0);
	check_line("a: one", NULL, 0);
	check_line(": 1", NULL, 0);
	check_line("a: ", NULL, 0);
	check_line("a: 1 ms", NULL, 0);
	/* Decimal numbers only: "0x10" was read as 16. */
	check_line("z: 0x10", NULL, 0);
	check_line("z: 0X1p4", NULL, 0);
	check_line("z: inf", NULL, 0);
	check_line("z: -nan", NULL, 0);
	check_line("z: .", NULL, 0);
	check_line("z: 1e", NULL, 0);
	check_line("z: -2.5e-3", "z", -2.5e-3);
	check_line("z: .5", "z", 0.5);
	check_line("z: +7.", "z", 7);
	CHECK(store_key_result(dir) == NULL);
	for (int i = 0; i < 3; i++) {
		char *run = xasprintf("%s/%d", dir, i);
		struct kd_err err;

		CHECK(mkdir_p(run, &err) == 0);
		free(run);
	}
	write_text(root, "aim9/p/h/c/0/complete", "failed: x\n");
	write_text(root, "aim9/p/h/c/0/aim9.log", "creat-clo.files: 3\n");
	write_text(root, "aim9/p/h/c/1/complete", "ok\n");
	write_text(root, "aim9/p/h/c/1/setup.log", "setup: 1\n");
	write_text(root, "aim9/p/h/c/1/aim9.log",
		   "note: not a number\ncreat-clo.ops_per_sec: 5\nx: 1\n");
	key = store_key_result(dir);
	CHECK_STR(key, "aim9.creat-clo.ops_per_sec");
	free(key);
	/* kdelta 0.1's names are read as today's. */
	write_text(root, "aim9/p/h/c/1/aim9.log", "");
	write_text(root, "aim9/p/h/c/2/complete", "ok\n");
	write_text(root, "aim9/p/h/c/2/disk_wrt.log", "jobs_per_min: 5\n");
	key = store_key_result(dir);
	CHECK_STR(key, "aim7.jobs-per-min");
	free(key);
	free(dir);
}

/* What store_result_write() writes, store_result_next() reads back. */
static void test_result_protocol(void)
{
	const char *pos;
	char *buf = NULL, *key;
	size_t size = 0;
	double v;
	FILE *out = open_memstream(&buf, &size);

	CHECK(out != NULL);
	fputs("starting: now\n", out);
	store_result_write(out, "usecs", 248372.671);
	fputs("\nnoise\n", out);
	store_result_write(out, "ops_per_sec", 1.0 / 3);
	CHECK(fclose(out) == 0);
	pos = buf;
	CHECK(store_result_next(&pos, &key, &v));
	CHECK_STR(key, "usecs");
	CHECK(v == 248372.671);
	free(key);
	CHECK(store_result_next(&pos, &key, &v));
	CHECK_STR(key, "ops_per_sec");
	CHECK(v == strtod("0.333333333", NULL));
	free(key);
	CHECK(!store_result_next(&pos, &key, &v));
	CHECK(*pos == '\0');
	pos = "last: 2";	/* no final newline */
	CHECK(store_result_next(&pos, &key, &v) && v == 2);
	free(key);
	free(buf);
}

int main(void)
{
	char root[] = "/tmp/kdelta-test-store.XXXXXX";
	char *rm;

	CHECK(mkdtemp(root) != NULL);
	test_commit_dir();
	test_label_names();
	test_numbering(root);
	test_matrix(root);
	test_key_result(root);
	test_result_protocol();
	rm = xasprintf("rm -rf '%s'", root);
	CHECK(system(rm) == 0);
	free(rm);
	return check_done();
}
