// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
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

int main(void)
{
	test_strbuf();
	test_utf8_repair();
	test_safe_name();
	test_files();
	CHECK(edit_distance("runs", "rns") == 1);
	CHECK(edit_distance("testcase", "tastcase") == 1);
	CHECK(edit_distance("", "abc") == 3);
	return check_done();
}
