/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_RUBYFMT_H
#define KDELTA_RUBYFMT_H

#include "kdelta/strbuf.h"

/*
 * Numbers as Ruby's format() prints them, for the tables that must read
 * byte for byte as lkp-tests' (lkp-tests is Ruby).
 *
 * spec is one conversion: '%', flags ('+', '-', ' ', '0'), a width, a
 * precision, and 'f', 'e', 'g' or 'd'.  'd' truncates toward zero, as
 * Ruby's "%d" does with a Float (1001.9 prints 1001).
 *
 * Why not printf: where the output has 1 to 15 significant digits, Ruby
 * 3.1 rounds a double to 15 significant digits first (half to even), and
 * only then to the precision asked (half to even again); glibc rounds the
 * exact binary value once.  They differ on near-ties: 0.35
 * (0.34999999999999997...) is "0.4" in Ruby, "0.3" in C; about one value
 * in 17 of those kdelta prints.  "%g" keeps the trailing zeros of some
 * such ties ("%.2g" of 1.05e5 is "1.0e+05").  Checked against Ruby 3.1 on
 * values of the magnitudes kdelta prints in each format:
 * scripts/check-rubyfmt.sh, and the table tests/render/test-rubyfmt.c
 * reads.
 *
 * Infinities and NaN print as Ruby prints them: "Inf", "-Inf", "NaN".
 */
void strbuf_add_ruby_number(struct strbuf *sb, const char *spec, double x);

#endif
