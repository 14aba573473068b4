/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_JSON_READER_H
#define KDELTA_JSON_READER_H

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/err.h"
#include "kdelta/strbuf.h"

/*
 * A pull reader for the flat JSON of result stores (src/base/json-reader.c):
 * stats.json, an object of numbers, and matrix.json, an object of arrays of
 * numbers.  jansson builds a tree with an allocated node per number; a
 * comparison reads hundreds of thousands of numbers, so the store is read
 * with this instead, straight into arrays.  The grammar is RFC 8259's
 * (strings are checked UTF-8); the caller decides which shapes it takes.
 *
 *	json_reader_init(&r, text, len, path);
 *	if (json_open(&r, '{', err) < 0) ...
 *	while ((more = json_member(&r, &first, err)) > 0) {
 *		... r.str.buf is the member's name; read its value ...
 *	}
 *	if (more < 0 || json_finish(&r, err) < 0) ...
 *
 * Errors read "<path>: invalid JSON at line L, column C: <problem>".
 */

enum json_kind {
	JSON_KIND_OBJECT,
	JSON_KIND_ARRAY,
	JSON_KIND_STRING,
	JSON_KIND_NUMBER,
	JSON_KIND_BOOLEAN,
	JSON_KIND_NULL,
	JSON_KIND_OTHER,	/* no value starts here (or the input ends) */
};

/* "an object", "an array", "a string", "a number", "a boolean", "null". */
const char *json_kind_name(enum json_kind kind);

struct json_reader {
	const char *text, *p, *end;
	const char *path;	/* for messages */
	struct strbuf str;	/* the string or member name last read */
};

void json_reader_init(struct json_reader *r, const char *text, size_t len,
		      const char *path);
void json_reader_release(struct json_reader *r);

/* The kind of the value that starts next (after any whitespace). */
enum json_kind json_peek(struct json_reader *r);

/* Reads '{' or '[' (open); *first is then true for json_member/json_item. */
int json_open(struct json_reader *r, char open, struct kd_err *err);
/*
 * Before each member of an object: 1 when there is one (its name is then
 * in r->str, and the ':' read), 0 after the closing '}', -1 on an error.
 */
int json_member(struct json_reader *r, bool *first, struct kd_err *err);
/* Before each element of an array: 1, 0 after the closing ']', or -1. */
int json_item(struct json_reader *r, bool *first, struct kd_err *err);

/*
 * Read one value of their kind; json_read_string's goes into r->str.
 * *fraction (when not NULL) says whether the number was written with a
 * fraction or an exponent: a Float to Ruby's JSON, where "2" is an Integer
 * (lkp-tests' compare treats the two differently, see lkp-rules.h).
 */
int json_read_number(struct json_reader *r, double *out, bool *fraction,
		     struct kd_err *err);
int json_read_string(struct json_reader *r, struct kd_err *err);
int json_read_null(struct json_reader *r, struct kd_err *err);

/*
 * The elements of an array of numbers and nulls, after its '[' (the hot
 * path of matrices): appends them to *values (NAN for null; *n of *alloc
 * used, grown as ALLOC_GROW does).  0 after the closing ']', -1 on an
 * error, 1 when an element is something else (read it with json_peek).
 * *fraction: whether a number of the array was written with a fraction or
 * an exponent (see json_read_number).
 */
int json_read_numbers(struct json_reader *r, double **values, size_t *n,
		      size_t *alloc, bool *fraction, struct kd_err *err);

/* Nothing but whitespace may follow the value read. */
int json_finish(struct json_reader *r, struct kd_err *err);

/* "<path>: invalid JSON at line L, column C: <problem>" at r's position. */
int json_error(struct json_reader *r, struct kd_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
