// SPDX-License-Identifier: GPL-2.0
/*
 * AIM9's processor tests: arithmetic in each C type, function calls,
 * non-local gotos, and the numeric, string, sort and memory routines,
 * written from what AIM9's documentation says each measures ("Thousand
 * Double Precision Additions", "Function Calls (15 arguments)", "Integer
 * Sieves", ...).  Every loop's value goes through AIM9_KEEP() so that the
 * compiler does the work it stands for.
 */
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "aim9.h"

/* The arithmetic tests count thousands of operations, as AIM9 does. */
#define ARITH_OPS 1000

/*
 * One arithmetic test: a thousand a = a OP b in one type.  A division keeps
 * its value from reaching zero by adding the step back.
 */
#define ARITH_TEST(fn, type, expr)					\
	static int fn(void *state, uint64_t n, struct kd_err *err)	\
	{								\
		type a = (type)7, b = (type)3;				\
									\
		(void)state;						\
		(void)err;						\
		for (uint64_t k = 0; k < n; k++) {			\
			for (int i = 0; i < ARITH_OPS; i++) {		\
				a = (type)(expr);			\
				AIM9_KEEP(a);				\
			}						\
			AIM9_KEEP(b);					\
		}							\
		return 0;						\
	}

ARITH_TEST(add_double, double, a + b)
ARITH_TEST(add_float, float, a + b)
/* Unsigned, where a signed overflow would be undefined: the same work. */
ARITH_TEST(add_int, unsigned int, a + b)
ARITH_TEST(add_long, unsigned long, a + b)
ARITH_TEST(add_short, unsigned short, a + b)
ARITH_TEST(mul_double, double, a * b)
ARITH_TEST(mul_float, float, a * b)
ARITH_TEST(mul_int, unsigned int, a * b)
ARITH_TEST(mul_long, unsigned long, a * b)
ARITH_TEST(mul_short, unsigned short, (unsigned)a * b)
ARITH_TEST(div_double, double, a / b + b)
ARITH_TEST(div_float, float, a / b + b)
ARITH_TEST(div_int, int, a / b + 1000)
ARITH_TEST(div_long, long, a / b + 1000)
ARITH_TEST(div_short, short, a / b + 1000)

/* Function calls the compiler may not inline or drop. */
static __attribute__((noinline)) int call0(void)
{
	__asm__ volatile("");
	return 1;
}

static __attribute__((noinline)) int call1(int a)
{
	__asm__ volatile("");
	return a;
}

static __attribute__((noinline)) int call2(int a, int b)
{
	__asm__ volatile("");
	return a + b;
}

static __attribute__((noinline)) int call15(int a, int b, int c, int d,
					    int e, int f, int g, int h, int i,
					    int j, int k, int l, int m, int o,
					    int p)
{
	__asm__ volatile("");
	return a + b + c + d + e + f + g + h + i + j + k + l + m + o + p;
}

/* A thousand calls of each kind count as one operation, as arithmetic. */
static int fun_cal(void *state, uint64_t n, struct kd_err *err)
{
	int sum = 0;

	(void)state;
	(void)err;
	for (uint64_t k = 0; k < n * ARITH_OPS; k++)
		sum = (sum + call0()) & 0xffff;
	AIM9_KEEP(sum);
	return 0;
}

static int fun_cal1(void *state, uint64_t n, struct kd_err *err)
{
	int sum = 0;

	(void)state;
	(void)err;
	for (uint64_t k = 0; k < n * ARITH_OPS; k++)
		sum = (sum + call1((int)(k & 0xff))) & 0xffff;
	AIM9_KEEP(sum);
	return 0;
}

static int fun_cal2(void *state, uint64_t n, struct kd_err *err)
{
	int sum = 0;

	(void)state;
	(void)err;
	for (uint64_t k = 0; k < n * ARITH_OPS; k++)
		sum = call2((int)(k & 0xff), sum & 0xffff);
	AIM9_KEEP(sum);
	return 0;
}

static int fun_cal15(void *state, uint64_t n, struct kd_err *err)
{
	int sum = 0;

	(void)state;
	(void)err;
	for (uint64_t k = 0; k < n * ARITH_OPS; k++)
		sum = call15((int)(k & 0xff), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
			     12, 13, sum & 0xffff);
	AIM9_KEEP(sum);
	return 0;
}

/* Non-local gotos: one setjmp() and the longjmp() back to it. */
static __attribute__((noinline)) void jump_back(jmp_buf *env)
{
	longjmp(*env, 1);
}

static int jmp_test(void *state, uint64_t n, struct kd_err *err)
{
	jmp_buf env;
	volatile uint64_t done = 0;

	(void)state;
	(void)err;
	while (done < n) {
		if (!setjmp(env))
			jump_back(&env);
		done = done + 1;
	}
	return 0;
}

#define SIEVE_SIZE 8192

/* Integer sieves: the primes below 8192 by Eratosthenes' sieve. */
static int sieve(void *state, uint64_t n, struct kd_err *err)
{
	static char composite[SIEVE_SIZE];
	int primes = 0;

	(void)state;
	for (uint64_t k = 0; k < n; k++) {
		memset(composite, 0, sizeof(composite));
		primes = 0;
		for (int i = 2; i < SIEVE_SIZE; i++) {
			if (composite[i])
				continue;
			primes++;
			for (int j = 2 * i; j < SIEVE_SIZE; j += i)
				composite[j] = 1;
		}
		AIM9_KEEP(primes);
	}
	if (primes != 1028)	/* the primes below 8192 */
		return kd_error(err, "sieve: %d primes below %d, not 1028",
				primes, SIEVE_SIZE);
	return 0;
}

/* Series evaluations: e to the x by 30 terms of its Taylor series. */
static int series_1(void *state, uint64_t n, struct kd_err *err)
{
	double x = 0.5, sum = 0;

	(void)state;
	for (uint64_t k = 0; k < n; k++) {
		double term = 1;

		sum = 1;
		for (int i = 1; i < 30; i++) {
			term *= x / i;
			sum += term;
		}
		AIM9_KEEP(x);
		AIM9_KEEP(sum);
	}
	if (fabs(sum - exp(0.5)) > 1e-12)
		return kd_error(err, "series_1: the series gives %.17g", sum);
	return 0;
}

/* Zeros found: the root of x^2 - c by Newton-Raphson, to 1e-12. */
static int new_raph(void *state, uint64_t n, struct kd_err *err)
{
	double c = 2, x = 0;

	(void)state;
	for (uint64_t k = 0; k < n; k++) {
		x = c;
		for (int i = 0; i < 64 && fabs(x * x - c) > 1e-12; i++)
			x -= (x * x - c) / (2 * x);
		AIM9_KEEP(c);
		AIM9_KEEP(x);
	}
	if (fabs(x - sqrt(2)) > 1e-9)
		return kd_error(err, "new_raph: found %.17g", x);
	return 0;
}

/* Numeric functions: one each of exp, log, pow, sqrt and fmod a time. */
static int num_rtns_1(void *state, uint64_t n, struct kd_err *err)
{
	double x = 1.25, r = 0;

	(void)state;
	(void)err;
	for (uint64_t k = 0; k < n; k++) {
		AIM9_KEEP(x);
		r = exp(x) + log(x) + pow(x, 1.5) + sqrt(x) + fmod(x * 7, 3);
		AIM9_KEEP(r);
	}
	return 0;
}

/* Trigonometric functions: one each of sin, cos, tan and atan2 a time. */
static int trig_rtns(void *state, uint64_t n, struct kd_err *err)
{
	double x = 0.7, r = 0;

	(void)state;
	(void)err;
	for (uint64_t k = 0; k < n; k++) {
		AIM9_KEEP(x);
		r = sin(x) + cos(x) + tan(x) + atan2(x, 2);
		AIM9_KEEP(r);
	}
	return 0;
}

/* Point transformations: a 3-D point through a 4x4 matrix. */
static int matrix_rtns(void *state, uint64_t n, struct kd_err *err)
{
	double m[4][4] = {
		{ 0.5, -0.5, 0, 1 }, { 0.5, 0.5, 0, 2 }, { 0, 0, 1, 3 },
		{ 0, 0, 0, 1 },
	};
	double p[4] = { 1, 2, 3, 1 }, q[4];

	(void)state;
	(void)err;
	for (uint64_t k = 0; k < n; k++) {
		AIM9_KEEP(p);
		for (int i = 0; i < 4; i++)
			q[i] = m[i][0] * p[0] + m[i][1] * p[1] +
			       m[i][2] * p[2] + m[i][3] * p[3];
		AIM9_KEEP(q);
	}
	return 0;
}

#define SYSTEM_N 8

/* Linear systems solved: 8 equations by Gaussian elimination. */
static int array_rtns(void *state, uint64_t n, struct kd_err *err)
{
	double a[SYSTEM_N][SYSTEM_N + 1], x[SYSTEM_N];

	(void)state;
	for (uint64_t k = 0; k < n; k++) {
		for (int i = 0; i < SYSTEM_N; i++) {
			/* Diagonally dominant, so that no pivot is needed. */
			for (int j = 0; j < SYSTEM_N; j++)
				a[i][j] = i == j ? SYSTEM_N + 1 : 1.0 / (i + j + 1);
			a[i][SYSTEM_N] = i + 1;
		}
		AIM9_KEEP(a);
		for (int c = 0; c < SYSTEM_N; c++)
			for (int r = c + 1; r < SYSTEM_N; r++) {
				double f = a[r][c] / a[c][c];

				for (int j = c; j <= SYSTEM_N; j++)
					a[r][j] -= f * a[c][j];
			}
		for (int r = SYSTEM_N - 1; r >= 0; r--) {
			double s = a[r][SYSTEM_N];

			for (int j = r + 1; j < SYSTEM_N; j++)
				s -= a[r][j] * x[j];
			x[r] = s / a[r][r];
		}
		AIM9_KEEP(x);
	}
	if (!isfinite(x[0]))
		return kd_error(err, "array_rtns: no solution");
	return 0;
}

#define SORT_N 256

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Sort operations: 256 pseudo-random integers by qsort(). */
static int sort_rtns_1(void *state, uint64_t n, struct kd_err *err)
{
	int v[SORT_N];
	uint32_t seed = 12345;

	(void)state;
	for (uint64_t k = 0; k < n; k++) {
		for (int i = 0; i < SORT_N; i++) {
			seed = seed * 1103515245 + 12345;
			v[i] = (int)(seed >> 8);
		}
		qsort(v, SORT_N, sizeof(*v), int_cmp);
		AIM9_KEEP(v);
	}
	for (int i = 1; i < SORT_N; i++)
		if (v[i - 1] > v[i])
			return kd_error(err, "sort_rtns_1: not sorted");
	return 0;
}

/*
 * String manipulations: a copy, a concatenation, a comparison, a length
 * and a search of 40-byte strings.
 */
static int string_rtns(void *state, uint64_t n, struct kd_err *err)
{
	char a[128], b[128];
	size_t len = 0;

	(void)state;
	(void)err;
	for (uint64_t k = 0; k < n; k++) {
		strcpy(a, "the quick brown fox jumps over the lazy");
		AIM9_KEEP(a);
		strcpy(b, a);
		strcat(b, " dog");
		AIM9_KEEP(b);
		len = strlen(b) + (size_t)(strcmp(a, b) < 0) +
		      (size_t)(strchr(b, 'z') - b);
		AIM9_KEEP(len);
	}
	return 0;
}

/* Dynamic memory operations: a malloc() and its free(), 16 B to 4 KiB. */
static int mem_rtns_1(void *state, uint64_t n, struct kd_err *err)
{
	(void)state;
	for (uint64_t k = 0; k < n; k++) {
		char *p = malloc(16 << (k % 9));

		if (!p)
			return kd_error(err, "mem_rtns_1: out of memory");
		p[0] = (char)k;
		AIM9_KEEP(p[0]);
		free(p);
	}
	return 0;
}

#define BLOCK_SIZE 4096

/*
 * Block memory operations: a memset(), a memcpy() and a memcmp() of a
 * 4 KiB block.
 */
static int mem_rtns_2(void *state, uint64_t n, struct kd_err *err)
{
	static char a[BLOCK_SIZE], b[BLOCK_SIZE];
	int same = 0;

	(void)state;
	for (uint64_t k = 0; k < n; k++) {
		memset(a, (int)(k & 0x7f), sizeof(a));
		AIM9_KEEP(a);
		memcpy(b, a, sizeof(b));
		AIM9_KEEP(b);
		same = !memcmp(a, b, sizeof(a));
	}
	if (n && !same)
		return kd_error(err, "mem_rtns_2: the copy differs");
	return 0;
}

#define RAM_COPY_WORDS 8192

/* Memory to memory copy: 64 KiB, one 8-byte word at a time. */
static int ram_copy(void *state, uint64_t n, struct kd_err *err)
{
	static uint64_t from[RAM_COPY_WORDS], to[RAM_COPY_WORDS];

	(void)state;
	(void)err;
	for (uint64_t k = 0; k < n; k++) {
		AIM9_KEEP(from);
		for (int i = 0; i < RAM_COPY_WORDS; i++)
			to[i] = from[i];
		AIM9_KEEP(to);
	}
	return 0;
}

/*
 * Auxiliary loops: the bookkeeping loops around the others' work, a
 * count, a table lookup and a compare over a 256-entry table.
 */
static int misc_rtns_1(void *state, uint64_t n, struct kd_err *err)
{
	unsigned char table[256];
	uint64_t hits = 0;

	(void)state;
	(void)err;
	for (int i = 0; i < 256; i++)
		table[i] = (unsigned char)(i * 7);
	for (uint64_t k = 0; k < n; k++) {
		AIM9_KEEP(table);
		for (int i = 0; i < 256; i++)
			hits += table[(unsigned char)(i + k)] > 127;
		AIM9_KEEP(hits);
	}
	return 0;
}

const struct aim9_test aim9_cpu_tests[] = {
	{ "add_double", "a thousand double additions", NULL, add_double, NULL },
	{ "add_float", "a thousand float additions", NULL, add_float, NULL },
	{ "add_int", "a thousand int additions", NULL, add_int, NULL },
	{ "add_long", "a thousand long additions", NULL, add_long, NULL },
	{ "add_short", "a thousand short additions", NULL, add_short, NULL },
	{ "array_rtns", "a system of 8 linear equations solved", NULL,
	  array_rtns, NULL },
	{ "div_double", "a thousand double divisions", NULL, div_double, NULL },
	{ "div_float", "a thousand float divisions", NULL, div_float, NULL },
	{ "div_int", "a thousand int divisions", NULL, div_int, NULL },
	{ "div_long", "a thousand long divisions", NULL, div_long, NULL },
	{ "div_short", "a thousand short divisions", NULL, div_short, NULL },
	{ "fun_cal", "a thousand calls of a function without arguments",
	  NULL, fun_cal, NULL },
	{ "fun_cal1", "a thousand calls with 1 argument", NULL, fun_cal1, NULL },
	{ "fun_cal15", "a thousand calls with 15 arguments", NULL, fun_cal15,
	  NULL },
	{ "fun_cal2", "a thousand calls with 2 arguments", NULL, fun_cal2, NULL },
	{ "jmp_test", "a setjmp() and its longjmp() (non-local goto)", NULL,
	  jmp_test, NULL },
	{ "matrix_rtns", "a 3-D point through a 4x4 matrix", NULL,
	  matrix_rtns, NULL },
	{ "mem_rtns_1", "a malloc() and free() of 16 B to 4 KiB", NULL,
	  mem_rtns_1, NULL },
	{ "mem_rtns_2", "a memset(), memcpy() and memcmp() of 4 KiB", NULL,
	  mem_rtns_2, NULL },
	{ "misc_rtns_1", "a loop of lookups and compares over a 256-entry table",
	  NULL, misc_rtns_1, NULL },
	{ "mul_double", "a thousand double multiplications", NULL, mul_double,
	  NULL },
	{ "mul_float", "a thousand float multiplications", NULL, mul_float, NULL },
	{ "mul_int", "a thousand int multiplications", NULL, mul_int, NULL },
	{ "mul_long", "a thousand long multiplications", NULL, mul_long, NULL },
	{ "mul_short", "a thousand short multiplications", NULL, mul_short, NULL },
	{ "new_raph", "a square root found by Newton-Raphson", NULL, new_raph,
	  NULL },
	{ "num_rtns_1", "an exp(), log(), pow(), sqrt() and fmod()", NULL,
	  num_rtns_1, NULL },
	{ "ram_copy", "64 KiB copied a word at a time", NULL, ram_copy, NULL },
	{ "series_1", "e^x by 30 terms of its series", NULL, series_1, NULL },
	{ "sieve", "the primes below 8192 by Eratosthenes' sieve", NULL, sieve,
	  NULL },
	{ "sort_rtns_1", "256 integers sorted by qsort()", NULL, sort_rtns_1,
	  NULL },
	{ "string_rtns", "a strcpy(), strcat(), strcmp(), strlen() and strchr()",
	  NULL, string_rtns, NULL },
	{ "trig_rtns", "a sin(), cos(), tan() and atan2()", NULL, trig_rtns,
	  NULL },
	{ NULL },
};
