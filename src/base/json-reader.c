// SPDX-License-Identifier: GPL-2.0
/*
 * The pull reader of the stores' flat JSON (see kdelta/json-reader.h).
 * Numbers are the hot path: most are short decimals, which Clinger's fast
 * path converts exactly with one multiplication or division of two exact
 * doubles (the result is then correctly rounded, as strtod's); any other
 * goes to strtod.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/json-reader.h"
#include "kdelta/util.h"

const char *json_kind_name(enum json_kind kind)
{
	switch (kind) {
	case JSON_KIND_OBJECT: return "an object";
	case JSON_KIND_ARRAY: return "an array";
	case JSON_KIND_STRING: return "a string";
	case JSON_KIND_NUMBER: return "a number";
	case JSON_KIND_BOOLEAN: return "a boolean";
	case JSON_KIND_NULL: return "null";
	case JSON_KIND_OTHER: break;
	}
	return "no value";
}

void json_reader_init(struct json_reader *r, const char *text, size_t len,
		      const char *path)
{
	r->text = r->p = text;
	r->end = text + len;
	r->path = path;
	strbuf_init(&r->str);
}

void json_reader_release(struct json_reader *r)
{
	strbuf_release(&r->str);
}

int json_error(struct json_reader *r, struct kd_err *err, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	const char *line_start = r->text;
	size_t line = 1;
	va_list ap;

	for (const char *s = r->text; s < r->p; s++)
		if (*s == '\n') {
			line++;
			line_start = s + 1;
		}
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	kd_error(err, "%s: invalid JSON at line %zu, column %zu: %s", r->path,
		 line, (size_t)(r->p - line_start) + 1, sb.buf);
	strbuf_release(&sb);
	return -1;
}

static inline void skip_space(struct json_reader *r)
{
	const char *p = r->p, *end = r->end;

	while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
		p++;
	r->p = p;
}

/* What stands at r->p, for messages: "'x'", or "the end". */
static int unexpected(struct json_reader *r, struct kd_err *err,
		      const char *wanted)
{
	unsigned char c;

	if (r->p >= r->end)
		return json_error(r, err, "expected %s, got the end of the input",
				  wanted);
	c = (unsigned char)*r->p;
	if (c >= 0x20 && c < 0x7f)
		return json_error(r, err, "expected %s, got '%c'", wanted, c);
	return json_error(r, err, "expected %s, got byte 0x%02x", wanted, c);
}

enum json_kind json_peek(struct json_reader *r)
{
	skip_space(r);
	if (r->p >= r->end)
		return JSON_KIND_OTHER;
	switch (*r->p) {
	case '{': return JSON_KIND_OBJECT;
	case '[': return JSON_KIND_ARRAY;
	case '"': return JSON_KIND_STRING;
	case 't': case 'f': return JSON_KIND_BOOLEAN;
	case 'n': return JSON_KIND_NULL;
	case '-': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		return JSON_KIND_NUMBER;
	}
	return JSON_KIND_OTHER;
}

int json_open(struct json_reader *r, char open, struct kd_err *err)
{
	skip_space(r);
	if (r->p >= r->end || *r->p != open)
		return unexpected(r, err, open == '{' ? "'{'" : "'['");
	r->p++;
	return 0;
}

/* Before an element or member: 1 when there is one, 0 after close. */
static int next_in(struct json_reader *r, char close, bool *first,
		   struct kd_err *err)
{
	skip_space(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return 0;
	}
	if (*first) {
		*first = false;
		return 1;
	}
	if (r->p < r->end && *r->p == ',') {
		r->p++;
		return 1;
	}
	return unexpected(r, err, close == '}' ? "',' or '}'" : "',' or ']'");
}

int json_item(struct json_reader *r, bool *first, struct kd_err *err)
{
	return next_in(r, ']', first, err);
}

int json_member(struct json_reader *r, bool *first, struct kd_err *err)
{
	int ret = next_in(r, '}', first, err);

	if (ret <= 0)
		return ret;
	if (json_peek(r) != JSON_KIND_STRING)
		return unexpected(r, err, "a member name (a string)");
	if (json_read_string(r, err) < 0)
		return -1;
	skip_space(r);
	if (r->p >= r->end || *r->p != ':')
		return unexpected(r, err, "':'");
	r->p++;
	return 1;
}

int json_read_null(struct json_reader *r, struct kd_err *err)
{
	skip_space(r);
	if (r->end - r->p < 4 || memcmp(r->p, "null", 4))
		return unexpected(r, err, "null");
	r->p += 4;
	return 0;
}

int json_finish(struct json_reader *r, struct kd_err *err)
{
	skip_space(r);
	if (r->p < r->end)
		return unexpected(r, err, "nothing more");
	return 0;
}

/* Exact powers of ten: every one up to 1e22 is a double. */
static const double exact_powers[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* A decimal as read: digits (the first 19 kept) times ten to exp. */
struct decimal {
	uint64_t digits;
	long exp;
	bool exact;	/* no non-zero digit was dropped */
	bool negative;
};

static bool digit_at(const char *p, const char *end)
{
	return p < end && (unsigned)(*p - '0') < 10;
}

/* Scans a number by JSON's grammar; NULL when it does not follow it. */
static const char *scan_number(const char *p, const char *end,
			       struct decimal *d)
{
	uint64_t digits = 0;
	long exp = 0, e = 0;
	int kept = 0;
	bool exact = true, e_negative = false;

	d->negative = p < end && *p == '-';
	p += d->negative;
	if (!digit_at(p, end))
		return NULL;
	if (*p == '0')
		p++;	/* no other digit may follow a leading zero */
	else
		for (; digit_at(p, end); p++) {
			if (kept < 19) {
				digits = digits * 10 + (unsigned)(*p - '0');
				kept++;
			} else {
				exact &= *p == '0';
				exp++;
			}
		}
	if (p < end && *p == '.') {
		if (!digit_at(++p, end))
			return NULL;
		for (; digit_at(p, end); p++) {
			if (kept < 19) {
				digits = digits * 10 + (unsigned)(*p - '0');
				kept += digits != 0;
				exp--;
			} else {
				exact &= *p == '0';
			}
		}
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			e_negative = *p++ == '-';
		if (!digit_at(p, end))
			return NULL;
		for (; digit_at(p, end); p++)
			if (e < 100000)
				e = e * 10 + (*p - '0');
		exp += e_negative ? -e : e;
	}
	d->digits = digits;
	d->exp = exp;
	d->exact = exact;
	return p;
}

/* Clinger's fast path; false when it does not apply. */
static bool decimal_fast(const struct decimal *d, double *out)
{
	double v;

	if (!d->exact || d->digits > (UINT64_C(1) << 53) ||
	    d->exp < -22 || d->exp > 22)
		return false;
	v = (double)d->digits;
	v = d->exp < 0 ? v / exact_powers[-d->exp] : v * exact_powers[d->exp];
	*out = d->negative ? -v : v;
	return true;
}

/*
 * The common number, [-]digits[.digits] with at most 19 digits and a
 * value that the fast path converts: its end, or NULL for any other.
 */
static inline const char *short_decimal(const char *p, const char *end,
					double *out)
{
	const char *start, *dot = NULL;
	uint64_t v = 0;
	size_t ndigits, nfraction = 0;
	bool negative = p < end && *p == '-';
	double x;

	p += negative;
	start = p;
	while (p < end && (unsigned)(*p - '0') < 10)
		v = v * 10 + (unsigned)(*p++ - '0');
	ndigits = (size_t)(p - start);
	if (!ndigits || (ndigits > 1 && *start == '0'))
		return NULL;
	if (p < end && *p == '.') {
		dot = ++p;
		while (p < end && (unsigned)(*p - '0') < 10)
			v = v * 10 + (unsigned)(*p++ - '0');
		nfraction = (size_t)(p - dot);
		if (!nfraction)
			return NULL;
	}
	if (ndigits + nfraction > 19 || nfraction > 22 ||
	    v > (UINT64_C(1) << 53) ||
	    (p < end && (*p == 'e' || *p == 'E')))
		return NULL;
	x = nfraction ? (double)v / exact_powers[nfraction] : (double)v;
	*out = negative ? -x : x;
	return p;
}

/* Any number at r->p, the common ones aside. */
static int read_number_slow(struct json_reader *r, double *out,
			    struct kd_err *err)
{
	struct decimal d;
	const char *start = r->p, *stop;
	char small[64], *text;
	size_t len;

	stop = scan_number(start, r->end, &d);
	if (!stop) {
		if (start < r->end && (*start == '-' || digit_at(start, r->end)))
			return json_error(r, err, "malformed number");
		return unexpected(r, err, "a number");
	}
	r->p = stop;
	if (decimal_fast(&d, out))
		return 0;
	len = (size_t)(stop - start);
	text = len < sizeof(small) ? small : xmalloc(len + 1);
	memcpy(text, start, len);
	text[len] = '\0';
	errno = 0;
	*out = strtod(text, NULL);
	if (text != small)
		free(text);
	if (errno == ERANGE && (*out > 1 || *out < -1)) {
		r->p = start;
		return json_error(r, err, "number out of range: %.*s",
				  (int)(len < 40 ? len : 40), start);
	}
	return 0;
}

/* Whether the number text [p, end) has a fraction or an exponent. */
static bool has_fraction(const char *p, const char *end)
{
	for (; p < end; p++)
		if (*p == '.' || *p == 'e' || *p == 'E')
			return true;
	return false;
}

int json_read_number(struct json_reader *r, double *out, bool *fraction,
		     struct kd_err *err)
{
	const char *start, *stop;

	skip_space(r);
	start = r->p;
	stop = short_decimal(r->p, r->end, out);
	if (!stop) {
		if (read_number_slow(r, out, err) < 0)
			return -1;
		stop = r->p;
	}
	r->p = stop;
	if (fraction)
		*fraction = has_fraction(start, stop);
	return 0;
}

int json_read_numbers(struct json_reader *r, double **values, size_t *n,
		      size_t *alloc, bool *fraction, struct kd_err *err)
{
	bool first = true;
	int more;

	*fraction = false;
	while ((more = next_in(r, ']', &first, err)) > 0) {
		const char *start, *stop;
		double *slot;

		ALLOC_GROW(*values, *n + 1, *alloc);
		slot = &(*values)[*n];
		skip_space(r);
		start = r->p;
		stop = short_decimal(r->p, r->end, slot);
		if (stop) {
			r->p = stop;
		} else if (r->p < r->end && *r->p == 'n') {
			if (json_read_null(r, err) < 0)
				return -1;
			*slot = NAN;
		} else if (json_peek(r) == JSON_KIND_NUMBER ||
			   json_peek(r) == JSON_KIND_OTHER) {
			if (read_number_slow(r, slot, err) < 0)
				return -1;
		} else {
			return 1;
		}
		if (!*fraction && *slot == *slot)
			*fraction = has_fraction(start, r->p);
		(*n)++;
	}
	return more;
}

static int hex4(const char *p, const char *end, unsigned *out)
{
	*out = 0;
	if (end - p < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		unsigned v = c >= '0' && c <= '9' ? (unsigned)(c - '0')
			   : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			   : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
			   : 16;

		if (v == 16)
			return -1;
		*out = *out << 4 | v;
	}
	return 0;
}

static void add_utf8(struct strbuf *sb, unsigned cp)
{
	if (cp < 0x80) {
		strbuf_addch(sb, (char)cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, (char)(0xc0 | cp >> 6));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, (char)(0xe0 | cp >> 12));
		strbuf_addch(sb, (char)(0x80 | (cp >> 6 & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addch(sb, (char)(0xf0 | cp >> 18));
		strbuf_addch(sb, (char)(0x80 | (cp >> 12 & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | (cp >> 6 & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	}
}

/* The code point of a \u escape at p (after "\\u"), pairs included. */
static const char *unicode_escape(const char *p, const char *end,
				  unsigned *cp, const char **problem)
{
	unsigned low;

	*problem = NULL;
	if (hex4(p, end, cp) < 0) {
		*problem = "expected four hex digits after \\u";
		return p;
	}
	p += 4;
	if (*cp >= 0xdc00 && *cp <= 0xdfff) {
		*problem = "lone low surrogate";
	} else if (*cp >= 0xd800 && *cp <= 0xdbff) {
		if (end - p < 6 || p[0] != '\\' || p[1] != 'u' ||
		    hex4(p + 2, end, &low) < 0 || low < 0xdc00 || low > 0xdfff) {
			*problem = "high surrogate without its low half";
			return p;
		}
		p += 6;
		*cp = 0x10000 + ((*cp - 0xd800) << 10) + (low - 0xdc00);
	} else if (!*cp) {
		*problem = "\\u0000 in a string";
	}
	return p;
}

/* An escape at r->p; errors point at its backslash. */
static int read_escape(struct json_reader *r, struct kd_err *err)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *at = r->p, *hit, *problem;
	unsigned cp;

	if (r->end - at < 2)
		return json_error(r, err, "unterminated string");
	if (at[1] == 'u') {
		r->p = unicode_escape(at + 2, r->end, &cp, &problem);
		if (problem) {
			r->p = at;
			return json_error(r, err, "%s", problem);
		}
		add_utf8(&r->str, cp);
		return 0;
	}
	hit = at[1] ? strchr(from, at[1]) : NULL;
	if (!hit)
		return json_error(r, err, "invalid escape in a string");
	strbuf_addch(&r->str, to[hit - from]);
	r->p = at + 2;
	return 0;
}

/* The length of the valid UTF-8 sequence at p, or 0 (RFC 3629). */
static size_t utf8_length(const unsigned char *p, const unsigned char *end)
{
	unsigned char c = p[0];
	size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
		 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	unsigned char lo = 0x80, hi = 0xbf;

	if (!n || end - p < (ptrdiff_t)n)
		return 0;
	/* No overlong forms, no surrogates, nothing above U+10FFFF. */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

int json_read_string(struct json_reader *r, struct kd_err *err)
{
	skip_space(r);
	if (r->p >= r->end || *r->p != '"')
		return unexpected(r, err, "a string");
	r->p++;
	strbuf_reset(&r->str);
	for (;;) {
		const char *run = r->p;
		unsigned char c;
		size_t n;

		while (r->p < r->end && (c = (unsigned char)*r->p) >= 0x20 &&
		       c < 0x80 && c != '"' && c != '\\')
			r->p++;
		strbuf_add(&r->str, run, (size_t)(r->p - run));
		if (r->p >= r->end)
			return json_error(r, err, "unterminated string");
		c = (unsigned char)*r->p;
		if (c == '"') {
			r->p++;
			return 0;
		}
		if (c == '\\') {
			if (read_escape(r, err) < 0)
				return -1;
			continue;
		}
		if (c < 0x20)
			return json_error(r, err, "control character 0x%02x in a string",
					  c);
		n = utf8_length((const unsigned char *)r->p,
				(const unsigned char *)r->end);
		if (!n)
			return json_error(r, err, "invalid UTF-8 in a string");
		strbuf_add(&r->str, r->p, n);
		r->p += n;
	}
}
