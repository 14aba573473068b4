// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "check.h"
#include "kdelta/parallel.h"
#include "kdelta/util.h"

static void test_strbuf(void)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK_STR(sb.buf, "");
	strbuf_addf(&sb, "%d-%s", 42, "x");
	strbuf_addch(&sb, '!');
	strbuf_addchars(&sb, ' ', 3);
	CHECK_STR(sb.buf, "42-x!   ");
	strbuf_rtrim(&sb);
	CHECK_STR(sb.buf, "42-x!");
	for (int i = 0; i < 1000; i++)
		strbuf_addstr(&sb, "abcdefgh");
	CHECK(sb.len == 5 + 8000);
	strbuf_release(&sb);
	CHECK(sb.len == 0);
}

static void test_safe_name(void)
{
	char *s = safe_name("../etc/passwd", 64);
	char long_name[300];
	char *a, *b;

	CHECK_STR(s, "_._etc_passwd");
	free(s);
	s = safe_name("", 64);
	CHECK_STR(s, "_");
	free(s);
	s = safe_name("xfs-disk_wrt-3000", 64);
	CHECK_STR(s, "xfs-disk_wrt-3000");
	free(s);
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	a = safe_name(long_name, 100);
	long_name[10] = 'b';
	b = safe_name(long_name, 100);
	CHECK(strlen(a) == 100);
	CHECK(strcmp(a, b) != 0);
	free(a);
	free(b);
}

static void test_utf8_repair(void)
{
	char *s = utf8_repair("caf\xc3\xa9 \xe2\x82\xac");

	CHECK_STR(s, "caf\xc3\xa9 \xe2\x82\xac");	/* UTF-8 stays */
	free(s);
	/* Latin-1, a cut sequence, an overlong form, a surrogate. */
	s = utf8_repair("caf\xe9|\xe2\x82|\xc0\xaf|\xed\xa0\x80");
	CHECK_STR(s, "caf\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd|"
		  "\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	free(s);
}

static void test_files(void)
{
	char dir[] = "/tmp/kdelta-util.XXXXXX";
	struct strbuf sb = STRBUF_INIT;
	struct kd_err err;
	char *path, *nested;

	CHECK(mkdtemp(dir) != NULL);
	path = xasprintf("%s/f.gz", dir);
	nested = xasprintf("%s/a/b/c", dir);
	CHECK(write_file_atomic_gz(path, "hello\n", 6, &err) == 0);
	CHECK(read_file(path, &sb, &err) == 0);
	CHECK_STR(sb.buf, "hello\n");
	CHECK(mkdir_p(nested, &err) == 0);
	CHECK(is_directory(nested));
	strbuf_reset(&sb);
	CHECK(read_file("/nonexistent/x", &sb, &err) == -1);
	CHECK_STR(err.msg, "/nonexistent/x: No such file or directory");
	unlink(path);
	rmdir(nested);
	*strrchr(nested, '/') = '\0';
	rmdir(nested);
	*strrchr(nested, '/') = '\0';
	rmdir(nested);
	CHECK(rmdir(dir) == 0);
	free(path);
	free(nested);
	strbuf_release(&sb);
}

/* Writes data to dir/name, gzip-compressed (level 1) when gz. */
static char *put(const char *dir, const char *name, const void *data,
		 size_t len, bool gz)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	unsigned char *z = NULL;
	uLongf zlen = len + 1024;

	if (gz) {
		z_stream s = { 0 };

		z = xmalloc(zlen);
		deflateInit2(&s, 1, Z_DEFLATED, 16 + MAX_WBITS, 8,
			     Z_DEFAULT_STRATEGY);
		s.next_in = (unsigned char *)data;
		s.avail_in = (uInt)len;
		s.next_out = z;
		s.avail_out = (uInt)zlen;
		deflate(&s, Z_FINISH);
		zlen = s.total_out;
		deflateEnd(&s);
		data = z;
		len = zlen;
	}
	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		xdie("cannot write %s", path);
	free(z);
	return path;
}

/* Appends the bytes of path, as they are, to sb. */
static void slurp(const char *path, struct strbuf *sb)
{
	FILE *f = fopen(path, "rb");
	char buf[4096];
	size_t n;

	while (f && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(sb, buf, n);
	if (f)
		fclose(f);
}

/*
 * read_file_max(path, max) fails with "<path>: <what>" -- or, when what is
 * NULL, succeeds -- into sb.
 */
static void check_read(const char *path, size_t max, const char *what,
		       struct strbuf *sb)
{
	struct kd_err err = { .msg = "" };
	char *want = what ? xasprintf("%s: %s", path, what) : xstrdup("");

	strbuf_reset(sb);
	CHECK(read_file_max(path, max, sb, &err) == (what ? -1 : 0));
	CHECK_STR(err.msg, want);
	free(want);
}

/* check_read() of dir/name holding data, then the file is removed. */
static void check_file(const char *dir, const char *name, const void *data,
		       size_t len, bool gz, size_t max, const char *what,
		       struct strbuf *sb)
{
	char *path = put(dir, name, data, len, gz);

	check_read(path, max, what, sb);
	unlink(path);
	free(path);
}

/*
 * What read_file() refuses: FIFOs and devices (without blocking), more
 * than its limit (a gzip bomb stops at the limit), a ".gz" file that is
 * empty or not gzip, corrupt data and garbage after it.
 */
static void test_read_file_limits(void)
{
	char dir[] = "/tmp/kdelta-read.XXXXXX";
	struct strbuf sb = STRBUF_INIT, two = STRBUF_INIT;
	size_t big = 8u << 20;
	char *zeros = xcalloc(1, big), *path;

	CHECK(mkdtemp(dir) != NULL);
	path = xasprintf("%s/fifo.log", dir);
	CHECK(mkfifo(path, 0600) == 0);
	check_read(path, 100, "not a regular file", &sb);
	unlink(path);
	free(path);
	check_read("/dev/zero", 100, "not a regular file", &sb);
	check_read(dir, 100, "is a directory", &sb);

	/* 8 MiB of zeros, 8 KiB compressed: refused at 1 MiB. */
	check_file(dir, "bomb.gz", zeros, big, true, 1u << 20,
		   "too large: more than 1 MiB decompressed", &sb);
	CHECK(sb.len <= 1u << 20);
	check_file(dir, "bomb.gz", zeros, big, true, big, NULL, &sb);
	CHECK(sb.len == big);
	check_file(dir, "plain", zeros, (1u << 20) + 1, false, 1u << 20,
		   "too large: more than 1 MiB", &sb);
	check_file(dir, "empty.gz", "", 0, false, 100,
		   "empty file, not gzip data", &sb);
	check_file(dir, "text.gz", "hello\n", 6, false, 100, "not gzip data",
		   &sb);
	check_file(dir, "text", "hello\n", 6, false, 100, NULL, &sb);
	CHECK_STR(sb.buf, "hello\n");

	/* Two members are one file; anything else after them is garbage. */
	path = put(dir, "a.gz", "one\n", 4, true);
	slurp(path, &two);
	slurp(path, &two);
	unlink(path);
	free(path);
	check_file(dir, "two.gz", two.buf, two.len, false, 100, NULL, &sb);
	CHECK_STR(sb.buf, "one\none\n");
	strbuf_addstr(&two, "junk");
	check_file(dir, "junk.gz", two.buf, two.len, false, 100,
		   "trailing garbage after the gzip data", &sb);
	strbuf_setlen(&two, two.len - 4 - 10);
	check_file(dir, "cut.gz", two.buf, two.len, false, 100,
		   "corrupt or truncated gzip data", &sb);

	/*
	 * A member larger than the trailer at the end says (the last
	 * member's size) gets more room; the limit counts every member.
	 */
	strbuf_reset(&two);
	path = put(dir, "big.gz", zeros, 100000, true);
	slurp(path, &two);
	unlink(path);
	free(path);
	path = put(dir, "a.gz", "one\n", 4, true);
	slurp(path, &two);
	unlink(path);
	free(path);
	check_file(dir, "two.gz", two.buf, two.len, false, 100004, NULL, &sb);
	CHECK(sb.len == 100004 && !memcmp(sb.buf + 100000, "one\n", 4));
	check_file(dir, "two.gz", two.buf, two.len, false, 100003,
		   "too large: more than 100003 bytes decompressed", &sb);

	CHECK(rmdir(dir) == 0);
	free(zeros);
	strbuf_release(&sb);
	strbuf_release(&two);
}

struct visits {
	unsigned *count;	/* per index */
	size_t grain;
	bool range_too_long;
};

static void visit(void *ctx, size_t begin, size_t end)
{
	struct visits *v = ctx;

	if (end <= begin || end - begin > v->grain)
		__atomic_store_n(&v->range_too_long, true, __ATOMIC_RELAXED);
	for (size_t i = begin; i < end; i++)
		__atomic_fetch_add(&v->count[i], 1, __ATOMIC_RELAXED);
}

/* Every index once, in ranges of at most grain, whatever n and grain. */
static void test_parallel_for(void)
{
	static const size_t sizes[] = { 0, 1, 2, 7, 256, 1000, 4097 };
	static const size_t grains[] = { 0, 1, 3, 256, 5000 };

	for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
		for (size_t g = 0; g < ARRAY_SIZE(grains); g++) {
			struct visits v = {
				xcalloc(sizes[s] + 1, sizeof(unsigned)),
				grains[g] ? grains[g] : 1, false,
			};
			size_t once = 0;

			parallel_for(sizes[s], grains[g], visit, &v);
			for (size_t i = 0; i < sizes[s]; i++)
				once += v.count[i] == 1;
			CHECK(once == sizes[s]);
			CHECK(!v.range_too_long);
			free(v.count);
		}
	}
}

struct staged {
	unsigned *stages_done;	/* per item: how many of its stages ended */
	unsigned *runs;		/* per (stage, item) */
	size_t n;
	bool out_of_order;
};

static void stage_visit(void *ctx, size_t stage, size_t i)
{
	struct staged *st = ctx;

	if (__atomic_load_n(&st->stages_done[i], __ATOMIC_ACQUIRE) != stage)
		__atomic_store_n(&st->out_of_order, true, __ATOMIC_RELAXED);
	__atomic_fetch_add(&st->runs[stage * st->n + i], 1, __ATOMIC_RELAXED);
	/* A slow first stage: a later one that did not wait would see it. */
	if (!stage && i % 2 == 0)
		usleep(2000);
	__atomic_fetch_add(&st->stages_done[i], 1, __ATOMIC_RELEASE);
}

/* Every (stage, item) once, each stage of an item after the one before. */
static void test_parallel_stages(void)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 5, 64 };

	for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
		for (size_t nstages = 0; nstages <= 3; nstages++) {
			size_t n = sizes[s], once = 0;
			struct staged st = {
				xcalloc(n + 1, sizeof(unsigned)),
				xcalloc(n * nstages + 1, sizeof(unsigned)),
				n, false,
			};

			parallel_stages(n, nstages, stage_visit, &st);
			for (size_t k = 0; k < n * nstages; k++)
				once += st.runs[k] == 1;
			CHECK(once == n * nstages);
			CHECK(!st.out_of_order);
			free(st.stages_done);
			free(st.runs);
		}
	}
}

int main(void)
{
	test_parallel_for();
	test_parallel_stages();
	test_strbuf();
	test_utf8_repair();
	test_safe_name();
	test_files();
	test_read_file_limits();
	CHECK(edit_distance("runs", "rns") == 1);
	CHECK(edit_distance("testcase", "tastcase") == 1);
	CHECK(edit_distance("", "abc") == 3);
	return check_done();
}
