/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_ALLOC_H
#define KDELTA_ALLOC_H

#include <stddef.h>

/*
 * Allocation that cannot fail: running out of memory is the one error that
 * is not passed up (as in git), it prints a line and exits with status
 * KD_EXIT_NOMEM (xdie_nomem()).
 */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *ptr, size_t size);
/* xrealloc for n elements of size, with overflow check. */
void *xreallocarray(void *ptr, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* "kdelta: fatal: <message>" on stderr, then exit status 1. */
_Noreturn void xdie(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for running out of memory: exit status KD_EXIT_NOMEM. */
_Noreturn void xdie_nomem(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Grows *array (of *alloc elements) to hold at least n elements. */
#define ALLOC_GROW(array, n, alloc)                                            \
	do {                                                                   \
		if ((n) > (alloc)) {                                           \
			size_t new_alloc_ = (alloc) ? (alloc) * 2 : 8;        \
			if (new_alloc_ < (n))                                  \
				new_alloc_ = (n);                              \
			(array) = xreallocarray((array), new_alloc_,           \
						sizeof(*(array)));             \
			(alloc) = new_alloc_;                                  \
		}                                                              \
	} while (0)

#endif
