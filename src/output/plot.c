// SPDX-License-Identifier: GPL-2.0
/*
 * ASCII plots, after the ones in LKP robot mails: samples in the order they
 * ran, a labelled y axis, a marker per variant and a legend.
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/plot.h"
#include "kdelta/render.h"
#include "kdelta/util.h"

/*
 * Rows from the top tick to the bottom one: about PLOT_ROWS, a multiple of
 * the number of intervals between ticks, so that the ticks are evenly
 * spaced.
 */
#define PLOT_ROWS 16

static const char markers[] = "*O+x#@%&";

/*
 * Narrower spans would need steps below DBL_MIN (subnormal, too coarse to
 * tell ticks apart) or more significant digits than a label can show.
 */
#define AXIS_MIN_SPAN 1e-300
#define AXIS_MIN_RELATIVE_SPAN 1e-9

/*
 * Makes [*lo, *hi] an axis range plot_ticks() can divide: finite, lo < hi,
 * a span of at least AXIS_MIN_SPAN and of AXIS_MIN_RELATIVE_SPAN of the
 * magnitude.  One constant value gets 5% of its magnitude on either side
 * (1 for 0); the padding stops at +-DBL_MAX.
 */
static void axis_range(double *lo, double *hi)
{
	double magnitude, min_span, mid, pad;

	if (isnan(*lo) || isnan(*hi) || *lo > *hi) {
		*lo = 0;
		*hi = 1;
		return;
	}
	*lo = fmax(*lo, -DBL_MAX);
	*hi = fmin(*hi, DBL_MAX);
	magnitude = fmax(fabs(*lo), fabs(*hi));
	min_span = fmax(AXIS_MIN_SPAN, magnitude * AXIS_MIN_RELATIVE_SPAN);
	/* Halves: hi - lo itself overflows for -DBL_MAX .. DBL_MAX. */
	if (*hi / 2 - *lo / 2 >= min_span / 2)
		return;
	if (*lo == *hi) {
		pad = *lo ? fmax(fabs(*lo) * 0.05, min_span) : 1;
		mid = *lo;
	} else {
		pad = min_span / 2;
		mid = *lo / 2 + *hi / 2;
	}
	*lo = fmax(mid - pad, -DBL_MAX);
	*hi = fmin(mid + pad, DBL_MAX);
}

/* 1, 2, 5 or 10 times a power of ten, near (hi - lo) / (want - 1). */
static double axis_step(double lo, double hi, size_t want)
{
	double rough_log = log10(hi / 2 - lo / 2) + log10(2.0 / (double)(want - 1));
	double mag = pow(10, floor(rough_log));
	double ratio = pow(10, rough_log - floor(rough_log));
	double step;

	if (ratio < 1.5)
		step = mag;
	else if (ratio < 3.5)
		step = 2 * mag;
	else if (ratio < 7.5)
		step = 5 * mag;
	else
		step = 10 * mag;
	/* Near DBL_MAX the round step itself may overflow. */
	return isfinite(step) ? step : mag;
}

size_t plot_ticks(double lo, double hi, size_t want, double *ticks,
		  size_t max)
{
	double step, first;
	size_t n = 0;

	if (max < 2)
		return 0;
	axis_range(&lo, &hi);
	step = axis_step(lo, hi, want < 2 ? 2 : want);
	/* |lo / step| is below 1e10: the multiples of step are exact. */
	first = floor(lo / step);
	if (first * step > lo)	/* lo / step underflowed to -0 */
		first--;
	while (n < max) {
		double t = (first + (double)n) * step;

		/* A round tick beyond +-DBL_MAX: the axis ends there. */
		if (t < -DBL_MAX)
			t = lo;
		else if (t > DBL_MAX)
			t = hi;
		ticks[n++] = t == 0 ? 0 : t;	/* no "-0" */
		if (t >= hi - step * 1e-9)
			break;
	}
	return n;
}

double plot_axis_position(double v, double lo, double hi)
{
	/* Halves: no overflow for any finite bounds. */
	double span = hi / 2 - lo / 2;

	return span > 0 ? (v / 2 - lo / 2) / span : 0.5;
}

/* Decimals enough to tell ticks `step` apart, none for whole steps. */
static int tick_decimals(double step)
{
	int d = 0;

	while (d < 9 && fabs(step * pow(10, d) - round(step * pow(10, d))) >
				1e-6 * fabs(step * pow(10, d)))
		d++;
	return d;
}

/*
 * Large and tiny ticks are written in exponent notation, with the
 * significant digits that tell ticks `step` apart: "1.000000005e+15".
 */
#define TICK_FIXED_BELOW 1e10
#define TICK_FIXED_STEP 1e-6

void plot_tick_label(const double *ticks, size_t nticks, size_t i,
		     char *buf, size_t size)
{
	double step = nticks > 1 ? ticks[1] - ticks[0] : 0;
	double top = nticks ? fmax(fabs(ticks[0]), fabs(ticks[nticks - 1])) : 0;
	int digits;

	if (top < TICK_FIXED_BELOW && (step >= TICK_FIXED_STEP || step == 0)) {
		snprintf(buf, size, "%.*f", tick_decimals(step), ticks[i]);
		return;
	}
	digits = 3;
	if (step > 0 && isfinite(step) && top > 0)
		digits = (int)fmax(3, fmin(17, floor(log10(top)) -
						   floor(log10(step)) + 1));
	snprintf(buf, size, "%.*g", digits, ticks[i]);
}

struct frame {
	double lo, hi;
	double ticks[16];
	size_t nticks;
	size_t label_width;
	size_t inner;		/* columns between the two frame bars */
	size_t height;		/* rows from the top tick to the bottom one */
};

static void frame_init(struct frame *f, const struct plot_series *series,
		       size_t nseries)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t per_interval;
	char buf[64];

	for (size_t s = 0; s < nseries; s++)
		for (size_t i = 0; i < series[s].n; i++) {
			if (!isfinite(series[s].samples[i]))
				continue;
			lo = fmin(lo, series[s].samples[i]);
			hi = fmax(hi, series[s].samples[i]);
		}
	f->nticks = plot_ticks(lo, hi, 5, f->ticks, ARRAY_SIZE(f->ticks));
	f->lo = f->ticks[0];
	f->hi = f->ticks[f->nticks - 1];
	per_interval = (PLOT_ROWS + (f->nticks - 1) / 2) / (f->nticks - 1);
	f->height = (per_interval ? per_interval : 1) * (f->nticks - 1);
	f->label_width = 0;
	for (size_t i = 0; i < f->nticks; i++) {
		plot_tick_label(f->ticks, f->nticks, i, buf, sizeof(buf));
		if (strlen(buf) > f->label_width)
			f->label_width = strlen(buf);
	}
	f->inner = PLOT_ASCII_WIDTH - f->label_width - 3;
}

static size_t value_row(const struct frame *f, double v)
{
	double r = (1 - plot_axis_position(v, f->lo, f->hi)) * (double)f->height;

	return (size_t)fmax(0, fmin((double)f->height, round(r)));
}

/*
 * Fills grid (f->height + 1 rows of f->inner columns) with markers;
 * returns whether samples of different variants fell on one cell.
 */
static bool place_samples(const struct frame *f,
			  const struct plot_series *series, size_t nseries,
			  char *grid)
{
	size_t runs = 0, slots, usable = f->inner - 2;
	bool shared = false;

	for (size_t s = 0; s < nseries; s++)
		runs = series[s].n > runs ? series[s].n : runs;
	slots = runs * nseries;
	for (size_t s = 0; s < nseries; s++) {
		char mark = markers[s % (sizeof(markers) - 1)];

		for (size_t i = 0; i < series[s].n; i++) {
			size_t slot = i * nseries + s, col, row;
			char *cell;

			if (!isfinite(series[s].samples[i]))
				continue;
			col = slots > 1 ? 1 + slot * (usable - 1) / (slots - 1)
					: f->inner / 2;
			row = value_row(f, series[s].samples[i]);
			cell = &grid[row * f->inner + col];
			if (*cell != ' ' && *cell != mark)
				shared = true;
			*cell = *cell == ' ' || *cell == mark ? mark : '#';
		}
	}
	return shared;
}

static void add_centered(struct strbuf *out, const char *text, size_t width)
{
	size_t len = strlen(text);

	if (len < width)
		strbuf_addchars(out, ' ', (width - len) / 2);
	add_printable(out, text);
	strbuf_addch(out, '\n');
}

static void add_frame_line(struct strbuf *out, const struct frame *f)
{
	strbuf_addchars(out, ' ', f->label_width + 1);
	strbuf_addch(out, '+');
	strbuf_addchars(out, '-', f->inner);
	strbuf_addstr(out, "+\n");
}

void plot_ascii(const char *title, const struct plot_series *series,
		size_t nseries, struct strbuf *out)
{
	struct frame f;
	char *grid;
	char label[64];
	size_t runs = 0;
	bool shared;

	frame_init(&f, series, nseries);
	grid = xmalloc((f.height + 1) * f.inner);
	memset(grid, ' ', (f.height + 1) * f.inner);
	shared = place_samples(&f, series, nseries, grid);

	add_centered(out, title, PLOT_ASCII_WIDTH);
	strbuf_addch(out, '\n');
	add_frame_line(out, &f);
	for (size_t row = 0; row <= f.height; row++) {
		const char *bar = "|";

		label[0] = '\0';
		for (size_t t = 0; t < f.nticks; t++)
			if (value_row(&f, f.ticks[t]) == row) {
				plot_tick_label(f.ticks, f.nticks, t, label,
						sizeof(label));
				bar = "+";
			}
		strbuf_addf(out, "%*s %s", (int)f.label_width, label, bar);
		strbuf_add(out, grid + row * f.inner, f.inner);
		strbuf_addstr(out, bar);
		strbuf_rtrim(out);
		strbuf_addch(out, '\n');
	}
	add_frame_line(out, &f);

	for (size_t s = 0; s < nseries; s++)
		runs = series[s].n > runs ? series[s].n : runs;
	snprintf(label, sizeof(label), "run %zu", runs);
	strbuf_addchars(out, ' ', f.label_width + 2);
	strbuf_addstr(out, "run 1");
	if (runs > 1) {
		strbuf_addchars(out, ' ', f.inner - strlen("run 1") - strlen(label));
		strbuf_addstr(out, label);
	}
	strbuf_addstr(out, "\n\n");
	for (size_t s = 0; s < nseries; s++) {
		strbuf_addf(out, "\t[%c] ", markers[s % (sizeof(markers) - 1)]);
		add_printable(out, series[s].label);
		strbuf_addstr(out, " sample\n");
	}
	if (shared)
		strbuf_addstr(out, "\t[#] samples of several variants\n");
	free(grid);
}
