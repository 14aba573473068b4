/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_PLOT_H
#define KDELTA_PLOT_H

#include <stddef.h>

#include "kdelta/strbuf.h"

/*
 * Plots of one metric's samples, one series per variant (the base first),
 * for the report mail, `kdelta plot` and the HTML page.
 */
struct plot_series {
	const char *label;
	const double *samples;	/* in run order */
	size_t n;
	/*
	 * SVG only: what to write under the column instead of the change of
	 * the mean against the base, e.g. "-6.2%, significant"; or NULL.
	 */
	const char *note;
};

#define PLOT_ASCII_WIDTH 80

/*
 * The robot's ASCII plot: the samples in the order they ran (runs of the
 * variants alternate, so run i of variant v is column i * nseries + v), a
 * y axis labelled at round ticks, one marker per variant and a legend
 * ("[*] <label> sample").  Exactly PLOT_ASCII_WIDTH columns at most.
 */
void plot_ascii(const char *title, const struct plot_series *series,
		size_t nseries, struct strbuf *out);

#define PLOT_SVG_WIDTH 720
#define PLOT_SVG_HEIGHT 420

/*
 * One self-contained SVG panel of PLOT_SVG_WIDTH x PLOT_SVG_HEIGHT (no
 * scripts, no fonts fetched): each variant's samples as dots, its mean and
 * 95% confidence interval, the axes with labels, the metric name as title,
 * subtitle (the group, or NULL) under it, and the change of each variant's
 * mean against the base (or its note) under its column.
 */
void plot_svg(const char *title, const char *subtitle,
	      const struct plot_series *series, size_t nseries,
	      struct strbuf *out);

/* One SVG document holding the panels given (each from plot_svg), stacked. */
void plot_svg_stack(const char *const *svgs, size_t n, struct strbuf *out);

/* An HTML page holding the panels given (each a complete <svg>). */
void plot_html_page(const char *title, const char *const *svgs, size_t n,
		    struct strbuf *out);

/*
 * Round axis ticks covering [lo, hi], ascending and finite: about `want`
 * ticks at steps of 1, 2 or 5 times a power of ten.  Total: every lo and
 * hi give at least 2 ticks when max >= 2 (0 otherwise).  An empty range
 * (lo > hi, as a min/max scan over no finite value leaves it, or a NaN
 * bound) gives the axis of [0, 1]; one value, or a span too narrow to
 * divide (below 1e-300, or below 1e-9 of the magnitude), is widened around
 * it, one value by 5% of its magnitude (by 1 for 0); infinite bounds count
 * as +-DBL_MAX, and where the next round tick would overflow, the end
 * tick is the bound itself.  Returns the number of ticks written to ticks
 * (at most max).
 */
size_t plot_ticks(double lo, double hi, size_t want, double *ticks,
		  size_t max);

/*
 * Where v lies on an axis from lo to hi: 0 at lo, 1 at hi, without
 * overflow for any finite bounds (e.g. -DBL_MAX .. DBL_MAX).
 */
double plot_axis_position(double v, double lo, double hi);

/*
 * Formats tick i of ticks as the axis shows it: the same number of
 * decimals for all, just enough to tell neighbours apart; in exponent
 * notation from 1e10 on and for steps below 1e-6, with as many significant
 * digits as tell neighbours apart.
 */
void plot_tick_label(const double *ticks, size_t nticks, size_t i,
		     char *buf, size_t size);

#endif
