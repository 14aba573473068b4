// SPDX-License-Identifier: GPL-2.0
/* Typed values: sizes, durations, booleans, integers, choices. */
#include <stdint.h>

#include "check.h"
#include "kdelta/schema.h"

static void check_size(const char *s, uint64_t want)
{
	struct kd_err err = { .msg = "" };
	uint64_t got = 0;

	CHECK(parse_size(s, &got, &err) == 0);
	CHECK_STR(err.msg, "");
	if (got != want)
		fprintf(stderr, "size %s: got %llu, want %llu\n", s,
			(unsigned long long)got, (unsigned long long)want);
	CHECK(got == want);
}

static void check_size_error(const char *s, const char *msg)
{
	struct kd_err err = { .msg = "" };
	uint64_t got = 7;

	CHECK(parse_size(s, &got, &err) == -1);
	CHECK_STR(err.msg, msg);
	CHECK(got == 7);
}

static void test_size(void)
{
	check_size("0", 0);
	check_size("512", 512);
	check_size("512B", 512);
	check_size("4k", 4096);
	check_size("4K", 4096);
	check_size("4KB", 4096);
	check_size("4KiB", 4096);
	check_size("64M", 64ULL << 20);
	check_size("1G", 1ULL << 30);
	check_size("48G", 48ULL << 30);
	check_size("2T", 2ULL << 40);
	check_size("18446744073709551615", UINT64_MAX);
	check_size("16777215T", 16777215ULL << 40);
	check_size_error("-1G", "size '-1G' is negative");
	check_size_error("99999999999T",
			 "size '99999999999T' is too large (at most 2^64 - 1 bytes)");
	check_size_error("18446744073709551616",
			 "size '18446744073709551616' is too large (at most 2^64 - 1 bytes)");
	check_size_error("16777216T",
			 "size '16777216T' is too large (at most 2^64 - 1 bytes)");
	check_size_error("", "expected a size like 512, 4k, 64M or 1G, got ''");
	check_size_error("1.5G", "expected a size like 512, 4k, 64M or 1G, got '1.5G'");
	check_size_error("4 k", "expected a size like 512, 4k, 64M or 1G, got '4 k'");
	check_size_error("4kb", "expected a size like 512, 4k, 64M or 1G, got '4kb'");
	check_size_error("4P", "expected a size like 512, 4k, 64M or 1G, got '4P'");
	check_size_error("k", "expected a size like 512, 4k, 64M or 1G, got 'k'");
	check_size_error("+4k", "expected a size like 512, 4k, 64M or 1G, got '+4k'");
}

static void test_duration(void)
{
	static const struct { const char *s; double want; } good[] = {
		{ "10", 10 }, { "300s", 300 }, { "5m", 300 }, { "1h", 3600 },
		{ "0.5s", 0.5 }, { "1.5", 1.5 }, { "250ms", 0.25 }, { "0", 0 },
	};
	static const struct { const char *s, *msg; } bad[] = {
		{ "-1s", "duration '-1s' is negative" },
		{ "5x", "expected a duration like 10, 300s, 5m, 1h or 0.5s, got '5x'" },
		{ ".5", "expected a duration like 10, 300s, 5m, 1h or 0.5s, got '.5'" },
		{ "5.", "expected a duration like 10, 300s, 5m, 1h or 0.5s, got '5.'" },
		{ "1e3", "expected a duration like 10, 300s, 5m, 1h or 0.5s, got '1e3'" },
		{ "inf", "expected a duration like 10, 300s, 5m, 1h or 0.5s, got 'inf'" },
		{ "", "expected a duration like 10, 300s, 5m, 1h or 0.5s, got ''" },
		{ "9999999999999h", "duration '9999999999999h' is too long" },
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		double got = -1;

		CHECK(parse_duration(good[i].s, &got, NULL) == 0);
		CHECK_NEAR(got, good[i].want, 1e-12);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct kd_err err = { .msg = "" };
		double got;

		CHECK(parse_duration(bad[i].s, &got, &err) == -1);
		CHECK_STR(err.msg, bad[i].msg);
	}
}

static void test_percent(void)
{
	static const struct { const char *s; double want; } good[] = {
		{ "1", 1 }, { "2.5", 2.5 }, { "10%", 10 }, { "0", 0 },
		{ "-0.5", -0.5 }, { "1000000", 1e6 },
	};
	static const char *const bad[] = {
		"1e3", "x", "", "1.", ".5", "5%%", "inf", "nan", "0x10", "1 ",
	};
	const struct param_spec spec = { .name = "min-change",
					 .type = PARAM_PERCENT, .min = "0",
					 .max = "1000000" };
	struct kd_err err = { .msg = "" };
	double got = -1;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		CHECK(parse_percent(good[i].s, &got, NULL) == 0);
		CHECK_NEAR(got, good[i].want, 1e-12);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(parse_percent(bad[i], &got, &err) == -1);
	CHECK_STR(err.msg, "expected a percentage like 1, 2.5 or 10%, got '1 '");
	/* The one reading of the options: the type, then the bounds. */
	CHECK(param_number(&spec, "2.5%", &got, &err) == 0);
	CHECK_NEAR(got, 2.5, 1e-12);
	CHECK(param_number(&spec, "-1", &got, &err) == -1);
	CHECK_STR(err.msg, "expected at least 0, got '-1'");
	CHECK(param_number(&spec, "1000000.5", &got, &err) == -1);
	CHECK_STR(err.msg, "expected at most 1000000, got '1000000.5'");
}

static void test_bool_int(void)
{
	struct kd_err err = { .msg = "" };
	bool b = false;
	int64_t i = 0;

	CHECK(parse_bool("yes", &b, NULL) == 0 && b);
	CHECK(parse_bool("True", &b, NULL) == 0 && b);
	CHECK(parse_bool("on", &b, NULL) == 0 && b);
	CHECK(parse_bool("0", &b, NULL) == 0 && !b);
	CHECK(parse_bool("OFF", &b, NULL) == 0 && !b);
	CHECK(parse_bool("maybe", &b, &err) == -1);
	CHECK_STR(err.msg, "expected true or false, got 'maybe'");

	CHECK(parse_int("42", &i, NULL) == 0 && i == 42);
	CHECK(parse_int("-7", &i, NULL) == 0 && i == -7);
	CHECK(parse_int("9223372036854775807", &i, NULL) == 0 && i == INT64_MAX);
	CHECK(parse_int("-9223372036854775808", &i, NULL) == 0 && i == INT64_MIN);
	CHECK(parse_int("9223372036854775808", &i, &err) == -1);
	CHECK_STR(err.msg, "integer '9223372036854775808' is out of range");
	CHECK(parse_int("many", &i, &err) == -1);
	CHECK_STR(err.msg, "expected an integer, got 'many'");
	CHECK(parse_int("3.0", &i, NULL) == -1);
	CHECK(parse_int("-", &i, NULL) == -1);
	CHECK(parse_int("", &i, NULL) == -1);
	CHECK(parse_int(" 3", &i, NULL) == -1);
}

static void test_param_check(void)
{
	static const char *const fs[] = { "xfs", "ext4", NULL };
	static const struct param_spec params[] = {
		{ .name = "fs", .type = PARAM_CHOICE, .choices = fs },
		{ .name = "size", .type = PARAM_SIZE },
		{ .name = "argv", .type = PARAM_LIST },
		{ NULL },
	};
	struct kd_err err = { .msg = "" };

	CHECK(param_find(params, "size") == &params[1]);
	CHECK(param_find(params, "nope") == NULL);
	CHECK(param_check(&params[0], "ext4", &err) == 0);
	CHECK(param_check(&params[0], "zfs", &err) == -1);
	CHECK_STR(err.msg, "expected one of xfs, ext4, got 'zfs'");
	CHECK(param_check(&params[1], "4k", &err) == 0);
	CHECK(param_check(&params[2], "ls", &err) == -1);
	CHECK_STR(err.msg, "expected a list, got 'ls'");
	CHECK_STR(param_type_name(PARAM_DURATION), "duration");
	CHECK_STR(param_type_name(PARAM_MAP), "mapping");
}

static int check_even(const char *value, struct kd_err *err)
{
	return strlen(value) % 2 ? kd_error(err, "odd: '%s'", value) : 0;
}

/* Bounds of each bounded type, a choice's description, a check. */
static void test_declared_constraints(void)
{
	static const char *const tests[] = { "creat-clo", NULL };
	static const struct param_spec params[] = {
		{ .name = "load", .type = PARAM_INT, .min = "1", .max = "100000" },
		{ .name = "block", .type = PARAM_SIZE, .min = "1", .max = "64M" },
		{ .name = "time", .type = PARAM_DURATION, .min = "1ms" },
		{ .name = "test", .type = PARAM_CHOICE, .choices = tests,
		  .choices_are = "aim9 tests kdelta implements" },
		{ .name = "word", .type = PARAM_STRING, .check = check_even },
		{ NULL },
	};
	struct kd_err err = { .msg = "" };

	CHECK(param_check(&params[0], "1", &err) == 0);
	CHECK(param_check(&params[0], "100000", &err) == 0);
	CHECK(param_check(&params[0], "0", &err) == -1);
	CHECK_STR(err.msg, "expected at least 1, got '0'");
	CHECK(param_check(&params[0], "100001", &err) == -1);
	CHECK_STR(err.msg, "expected at most 100000, got '100001'");
	CHECK(param_check(&params[0], "x", &err) == -1);
	CHECK_STR(err.msg, "expected an integer, got 'x'");
	CHECK(param_check(&params[1], "64M", &err) == 0);
	CHECK(param_check(&params[1], "65537k", &err) == -1);
	CHECK_STR(err.msg, "expected at most 64M, got '65537k'");
	CHECK(param_check(&params[1], "0", &err) == -1);
	CHECK_STR(err.msg, "expected at least 1, got '0'");
	CHECK(param_check(&params[2], "0.001", &err) == 0);
	CHECK(param_check(&params[2], "0.5ms", &err) == -1);
	CHECK_STR(err.msg, "expected at least 1ms, got '0.5ms'");
	CHECK(param_check(&params[3], "add_double", &err) == -1);
	CHECK_STR(err.msg, "'add_double' is not one of the aim9 tests kdelta implements: creat-clo");
	CHECK(param_check(&params[4], "ab", &err) == 0);
	CHECK(param_check(&params[4], "abc", &err) == -1);
	CHECK_STR(err.msg, "odd: 'abc'");
}

int main(void)
{
	test_size();
	test_duration();
	test_percent();
	test_bool_int();
	test_param_check();
	test_declared_constraints();
	return check_done();
}
