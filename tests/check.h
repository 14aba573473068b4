/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_TESTS_CHECK_H
#define KDELTA_TESTS_CHECK_H

/*
 * Minimal unit-test helpers: each CHECK that fails prints where and what,
 * and the test's main() ends with "return check_done();".
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                            \
	do {                                                                   \
		check_count++;                                                 \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, \
				__LINE__, #cond);                              \
			check_failures++;                                      \
		}                                                              \
	} while (0)

#define CHECK_STR(got, want)                                                   \
	do {                                                                   \
		const char *g_ = (got), *w_ = (want);                          \
		check_count++;                                                 \
		if (!g_ || !w_ || strcmp(g_, w_)) {                            \
			fprintf(stderr,                                        \
				"%s:%d: CHECK_STR failed: %s\n  got:  '%s'\n  want: '%s'\n", \
				__FILE__, __LINE__, #got, g_ ? g_ : "(null)",  \
				w_ ? w_ : "(null)");                           \
			check_failures++;                                      \
		}                                                              \
	} while (0)

/* |got - want| <= tol * max(1, |want|) */
#define CHECK_NEAR(got, want, tol)                                             \
	do {                                                                   \
		double g_ = (got), w_ = (want);                                \
		double s_ = fabs(w_) > 1 ? fabs(w_) : 1;                       \
		check_count++;                                                 \
		if (!(fabs(g_ - w_) <= (tol) * s_)) {                          \
			fprintf(stderr,                                        \
				"%s:%d: CHECK_NEAR failed: %s\n  got:  %.17g\n  want: %.17g\n", \
				__FILE__, __LINE__, #got, g_, w_);             \
			check_failures++;                                      \
		}                                                              \
	} while (0)

static inline int check_done(void)
{
	printf("%d checks, %d failed\n", check_count, check_failures);
	return check_failures ? 1 : 0;
}

#endif
