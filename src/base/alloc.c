// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/alloc.h"
#include "kdelta/err.h"

static _Noreturn void vdie(int status, const char *fmt, va_list ap)
{
	fputs("kdelta: fatal: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	exit(status);
}

void xdie(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(KD_EXIT_FAIL, fmt, ap);
}

void xdie_nomem(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(KD_EXIT_NOMEM, fmt, ap);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		xdie_nomem("out of memory allocating %zu bytes", size);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		xdie_nomem("out of memory allocating %zu x %zu bytes", n, size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		xdie_nomem("out of memory allocating %zu bytes", size);
	return p;
}

void *xreallocarray(void *ptr, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		xdie_nomem("allocation of %zu x %zu bytes overflows", n, size);
	return xrealloc(ptr, n * size);
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}
