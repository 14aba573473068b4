/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_STRBUF_H
#define KDELTA_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * A growable, always NUL-terminated byte buffer, after git's strbuf.
 * buf is never NULL; STRBUF_INIT needs no allocation.
 */
struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

extern char strbuf_empty[];
#define STRBUF_INIT { strbuf_empty, 0, 0 }

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
/* Returns the buffer (caller frees) and leaves sb empty. */
char *strbuf_detach(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Appends n copies of c. */
void strbuf_addchars(struct strbuf *sb, char c, size_t n);
void strbuf_setlen(struct strbuf *sb, size_t len);
void strbuf_rtrim(struct strbuf *sb);

/* A string formatted like printf into a new allocation. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
