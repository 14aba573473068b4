// SPDX-License-Identifier: GPL-2.0
/*
 * Ruby's format() for one Float, rebuilt on decimal digits: the double is
 * rounded to 15 significant digits (glibc's "%.14e", exact and half to
 * even), then those digits to the precision asked, half to even again.
 * See kdelta/rubyfmt.h for why.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/rubyfmt.h"
#include "kdelta/util.h"

/* The significant digits Ruby's first rounding keeps. */
#define RUBY_DIGITS 15

struct number_spec {
	bool plus, left, space, zero;
	int width, precision;	/* precision -1: the default, 6 */
	char conv;		/* 'f', 'e', 'g' or 'd' */
};

/*
 * A non-negative decimal: digit[0].digit[1]... times 10^exp; no digits
 * for zero.
 */
struct decimal {
	char digit[RUBY_DIGITS + 1];
	int ndigits;
	int exp;
};

static void parse_spec(const char *spec, struct number_spec *s)
{
	const char *p = spec;
	char *end;

	memset(s, 0, sizeof(*s));
	s->precision = -1;
	if (*p++ != '%')
		xdie("BUG: number format \"%s\"", spec);
	for (;; p++) {
		if (*p == '+')
			s->plus = true;
		else if (*p == '-')
			s->left = true;
		else if (*p == ' ')
			s->space = true;
		else if (*p == '0')
			s->zero = true;
		else
			break;
	}
	s->width = (int)strtol(p, &end, 10);
	p = end;
	if (*p == '.') {
		s->precision = (int)strtol(p + 1, &end, 10);
		p = end;
	}
	s->conv = *p;
	if (!strchr("fegd", s->conv) || !*p || p[1])
		xdie("BUG: number format \"%s\"", spec);
}

/* |x| to 15 significant digits, half to even on its exact value. */
static void decimal_from_double(double x, struct decimal *d)
{
	char buf[32];
	char *p;

	d->ndigits = 0;
	d->exp = 0;
	if (x == 0)
		return;
	snprintf(buf, sizeof(buf), "%.*e", RUBY_DIGITS - 1, fabs(x));
	for (p = buf; *p != 'e'; p++)
		if (*p != '.')
			d->digit[d->ndigits++] = *p;
	d->exp = atoi(p + 1);
}

/*
 * Rounds d to keep significant digits, half to even.  Returns whether it
 * met a tie and rounded it down.
 */
static bool decimal_round(struct decimal *d, int keep)
{
	bool up, tie = true;
	int i;

	if (keep >= d->ndigits)
		return false;
	if (keep < 0) {
		d->ndigits = 0;
		return false;
	}
	for (i = keep + 1; i < d->ndigits; i++)
		tie &= d->digit[i] == '0';
	if (d->digit[keep] != '5')
		up = d->digit[keep] > '5';
	else
		up = !tie || (keep > 0 && (d->digit[keep - 1] - '0') % 2);
	tie &= d->digit[keep] == '5';
	d->ndigits = keep;
	if (!up)
		return tie;
	for (i = keep - 1; i >= 0 && d->digit[i] == '9'; i--)
		d->digit[i] = '0';
	if (i >= 0) {
		d->digit[i]++;
		return false;
	}
	/* every kept digit was 9 (or none was kept): one more place */
	d->digit[0] = '1';
	if (!d->ndigits)
		d->ndigits = 1;
	else
		memset(d->digit + 1, '0', d->ndigits - 1);
	d->exp++;
	return false;
}

/*
 * Whether "%g" keeps the trailing zeros of x rounded down at a tie to keep
 * significant digits: Ruby keeps them ("%.2g" of 1.05e5 is "1.0e+05")
 * when x is exactly that tie and a whole number below 1e15, or lies above
 * it (4.05e22 is 4.05000000000000000419e22: "4.0e+22"), and drops them
 * when x lies below it (3.05 is 3.0499999999999998: "3").
 */
static bool keeps_zeros(double x, int keep)
{
	char buf[80];
	const char *p;
	bool exact = true;

	snprintf(buf, sizeof(buf), "%.60e", fabs(x));
	for (p = buf; keep > 0; p++)
		keep -= *p != '.';
	if (*p != '5')
		return false;
	for (p++; *p != 'e'; p++)
		exact &= *p == '0';
	return !exact || (x == trunc(x) && fabs(x) < 1e15);
}

/* The digit of d at weight 10^place. */
static char decimal_digit(const struct decimal *d, int place)
{
	int i = d->exp - place;

	return i >= 0 && i < d->ndigits ? d->digit[i] : '0';
}

static void add_fixed(struct strbuf *sb, const struct decimal *d,
		      int decimals)
{
	int top = d->ndigits && d->exp > 0 ? d->exp : 0;

	for (int place = top; place >= 0; place--)
		strbuf_addch(sb, decimal_digit(d, place));
	if (decimals > 0)
		strbuf_addch(sb, '.');
	for (int place = -1; place >= -decimals; place--)
		strbuf_addch(sb, decimal_digit(d, place));
}

static void add_exponential(struct strbuf *sb, const struct decimal *d,
			    int decimals)
{
	int exp = d->ndigits ? d->exp : 0;

	strbuf_addch(sb, decimal_digit(d, exp));
	if (decimals > 0)
		strbuf_addch(sb, '.');
	for (int i = 1; i <= decimals; i++)
		strbuf_addch(sb, decimal_digit(d, exp - i));
	strbuf_addf(sb, "e%c%02d", exp < 0 ? '-' : '+', abs(exp));
}

/* "%g" drops trailing zeros of the fraction, and a bare '.'. */
static void strip_fraction_zeros(struct strbuf *sb, size_t from)
{
	char *e = memchr(sb->buf + from, 'e', sb->len - from);
	size_t end = e ? (size_t)(e - sb->buf) : sb->len, cut = end;

	if (!memchr(sb->buf + from, '.', end - from))
		return;
	while (sb->buf[cut - 1] == '0')
		cut--;
	if (sb->buf[cut - 1] == '.')
		cut--;
	memmove(sb->buf + cut, sb->buf + end, sb->len - end);
	strbuf_setlen(sb, sb->len - (end - cut));
}

/*
 * Ruby's first rounding happens only when the output holds 1 to 15
 * significant digits; otherwise it prints the exact value correctly
 * rounded.
 */
static bool needs_all_digits(char conv, int precision, int exp)
{
	int keep = exp + precision + 1;

	/*
	 * No digit kept ("%.2f" of 0.005): Ruby compares the exact value
	 * with the half, as glibc does.
	 */
	if (conv == 'f')
		return keep > RUBY_DIGITS || keep <= 0;
	if (conv == 'e')
		return precision + 1 > RUBY_DIGITS;
	return precision > RUBY_DIGITS;
}

/* The digits of |x| as spec asks, without sign or padding. */
static void add_magnitude(struct strbuf *sb, const struct number_spec *s,
			  double x)
{
	int precision = s->precision < 0 ? 6 : s->precision;
	size_t from = sb->len;
	struct decimal d;

	if (s->conv == 'd') {
		strbuf_addf(sb, "%.0f", fabs(trunc(x)));
		return;
	}
	decimal_from_double(x, &d);
	if (needs_all_digits(s->conv, precision, d.exp)) {
		/* Ruby prints these exactly, as glibc does */
		if (s->conv == 'f')
			strbuf_addf(sb, "%.*f", precision, fabs(x));
		else if (s->conv == 'e')
			strbuf_addf(sb, "%.*e", precision, fabs(x));
		else
			strbuf_addf(sb, "%.*g", precision, fabs(x));
		return;
	}
	if (s->conv == 'f') {
		decimal_round(&d, d.exp + precision + 1);
		add_fixed(sb, &d, precision);
	} else if (s->conv == 'e') {
		decimal_round(&d, precision + 1);
		add_exponential(sb, &d, precision);
	} else {
		bool tie_down;
		int exp;

		if (!precision)
			precision = 1;
		tie_down = decimal_round(&d, precision);
		exp = d.ndigits ? d.exp : 0;
		if (exp < precision && exp >= -4)
			add_fixed(sb, &d, precision - 1 - exp);
		else
			add_exponential(sb, &d, precision - 1);
		if (!tie_down || !keeps_zeros(x, precision))
			strip_fraction_zeros(sb, from);
	}
}

void strbuf_add_ruby_number(struct strbuf *sb, const char *spec, double x)
{
	struct strbuf digits = STRBUF_INIT;
	struct number_spec s;
	const char *sign;
	bool negative;
	size_t len;

	parse_spec(spec, &s);
	/* NaN has no sign in Ruby, nor an Integer's zero ("%d" of -0.5) */
	negative = signbit(x) && !isnan(x) &&
		   !(s.conv == 'd' && isfinite(x) && trunc(x) == 0);
	sign = negative ? "-" : s.plus ? "+" : s.space ? " " : "";
	if (isnan(x))
		strbuf_addstr(&digits, "NaN");
	else if (isinf(x))
		strbuf_addstr(&digits, "Inf");
	else
		add_magnitude(&digits, &s, x);
	len = strlen(sign) + digits.len;
	if (!s.left && !(s.zero && isfinite(x)) && (size_t)s.width > len)
		strbuf_addchars(sb, ' ', s.width - len);
	strbuf_addstr(sb, sign);
	if (!s.left && s.zero && isfinite(x) && (size_t)s.width > len)
		strbuf_addchars(sb, '0', s.width - len);
	strbuf_add(sb, digits.buf, digits.len);
	if (s.left && (size_t)s.width > len)
		strbuf_addchars(sb, ' ', s.width - len);
	strbuf_release(&digits);
}
