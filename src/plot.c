// SPDX-License-Identifier: GPL-2.0
/*
 * ASCII plots, after the ones in LKP robot mails: samples in the order they
 * ran, a labelled y axis, a marker per variant and a legend.
 */
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

size_t plot_ticks(double lo, double hi, size_t want, double *ticks,
		  size_t max)
{
	double range, rough, mag, step, first;
	size_t n = 0;

	if (!(hi > lo) || !isfinite(lo) || !isfinite(hi) || !max || want < 2)
		return 0;
	range = hi - lo;
	rough = range / (double)(want - 1);
	mag = pow(10, floor(log10(rough)));
	if (rough / mag < 1.5)
		step = mag;
	else if (rough / mag < 3.5)
		step = 2 * mag;
	else if (rough / mag < 7.5)
		step = 5 * mag;
	else
		step = 10 * mag;
	first = floor(lo / step) * step;
	for (double t = first; n < max; t = first + step * (double)n) {
		/* Snap -0.0 and representation noise to the step grid. */
		double snapped = round(t / step) * step;

		ticks[n++] = snapped == 0 ? 0 : snapped;
		if (snapped >= hi - step * 1e-9)
			break;
	}
	return n;
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

static void format_tick(char *buf, size_t size, double v, int decimals)
{
	if (fabs(v) >= 1e10)
		snprintf(buf, size, "%.3g", v);
	else
		snprintf(buf, size, "%.*f", decimals, v);
}

void plot_tick_label(const double *ticks, size_t nticks, size_t i,
		     char *buf, size_t size)
{
	int decimals = nticks > 1 ? tick_decimals(ticks[1] - ticks[0]) : 0;

	format_tick(buf, size, ticks[i], decimals);
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
	if (!isfinite(lo)) {
		lo = 0;
		hi = 1;
	} else if (hi == lo) {
		double pad = lo ? fabs(lo) * 0.05 : 1;

		lo -= pad;
		hi += pad;
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
	double r = (f->hi - v) / (f->hi - f->lo) * (double)f->height;

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
