// SPDX-License-Identifier: GPL-2.0
/*
 * SVG plots: per variant, its samples, mean and 95% confidence interval,
 * with the change against the base written under each column.  Plain SVG
 * 1.1 with generic font families: nothing is fetched when it is shown.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "kdelta/plot.h"
#include "kdelta/stats.h"
#include "kdelta/util.h"

#define SVG_WIDTH PLOT_SVG_WIDTH
#define SVG_HEIGHT PLOT_SVG_HEIGHT
#define MARGIN_LEFT 90
#define MARGIN_RIGHT 24
#define MARGIN_TOP 56
#define MARGIN_BOTTOM 86

static const char *const colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
	"#ff7f0e", "#17becf", "#8c564b", "#e377c2",
};

static void add_escaped(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': strbuf_addstr(out, "&amp;"); break;
		case '<': strbuf_addstr(out, "&lt;"); break;
		case '>': strbuf_addstr(out, "&gt;"); break;
		case '"': strbuf_addstr(out, "&quot;"); break;
		case '\'': strbuf_addstr(out, "&apos;"); break;
		default:
			/* Control characters are not allowed in XML 1.0. */
			strbuf_addch(out, printable_char(*s));
		}
	}
}

/* What fits on a line of the panel in the 12px font, about. */
#define SUBTITLE_MAX 100

/* s, escaped, cut to max characters with an ellipsis. */
static void add_cut(struct strbuf *out, const char *s, size_t max)
{
	size_t chars = 0, len = 0;
	char *head;

	for (; s[len] && chars < max; len++)
		chars += ((unsigned char)s[len] & 0xc0) != 0x80;
	while (((unsigned char)s[len] & 0xc0) == 0x80)
		len++;
	head = xstrndup(s, len);
	add_escaped(out, head);
	if (s[len])
		strbuf_addstr(out, "&#8230;");
	free(head);
}

struct column {
	struct sample_summary sum;
	double ci;		/* half width of the 95% interval; 0: none */
};

static void column_stats(const struct plot_series *s, struct column *c)
{
	summarize(s->samples, s->n, &c->sum);
	c->ci = 0;
	if (s->n >= 2)
		c->ci = gsl_cdf_tdist_Pinv(0.975, (double)(s->n - 1)) *
			c->sum.stddev / sqrt((double)s->n);
}

static double y_of(double v, double lo, double hi)
{
	double h = SVG_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM;

	return MARGIN_TOP + (1 - plot_axis_position(v, lo, hi)) * h;
}

static void format_value(char *buf, size_t size, double v)
{
	if (isnan(v))
		snprintf(buf, size, "nan");	/* never "-nan" */
	else if (fabs(v) >= 1e7 || (v != 0 && fabs(v) < 1e-3))
		snprintf(buf, size, "%.4g", v);
	else if (fabs(v) >= 100)
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, "%.4g", v);
}

static void add_axis(struct strbuf *out, const char *title, double lo,
		     double hi, const double *ticks, size_t nticks)
{
	int x0 = MARGIN_LEFT, x1 = SVG_WIDTH - MARGIN_RIGHT;
	char buf[64];

	for (size_t i = 0; i < nticks; i++) {
		double y = y_of(ticks[i], lo, hi);

		plot_tick_label(ticks, nticks, i, buf, sizeof(buf));
		strbuf_addf(out,
			    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n"
			    "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"middle\">%s</text>\n",
			    x0, y, x1, y, x0 - 8, y, buf);
	}
	strbuf_addf(out,
		    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n"
		    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n",
		    x0, MARGIN_TOP, x0, SVG_HEIGHT - MARGIN_BOTTOM,
		    x0, SVG_HEIGHT - MARGIN_BOTTOM, x1, SVG_HEIGHT - MARGIN_BOTTOM);
	/* The y axis is the metric; the x axis the variants. */
	strbuf_addf(out, "<text transform=\"translate(16,%d) rotate(-90)\" text-anchor=\"middle\" fill=\"#555\">",
		    (MARGIN_TOP + SVG_HEIGHT - MARGIN_BOTTOM) / 2);
	add_escaped(out, title);
	strbuf_addf(out, "</text>\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">"
		    "dots: samples in run order; bar: mean; whiskers: 95%% confidence interval</text>\n",
		    (x0 + x1) / 2, SVG_HEIGHT - 8);
}

static void add_column(struct strbuf *out, const struct plot_series *s,
		       const struct column *c, const struct column *base,
		       size_t index, double x, double lo, double hi)
{
	const char *color = colors[index % ARRAY_SIZE(colors)];
	double bottom = SVG_HEIGHT - MARGIN_BOTTOM;
	char buf[64];

	for (size_t i = 0; i < s->n; i++) {
		/* Spread the dots sideways in run order so that none hide. */
		double dx = s->n > 1 ? -24 + 48.0 * (double)i / (double)(s->n - 1) : 0;

		if (!isfinite(s->samples[i]))
			continue;
		strbuf_addf(out,
			    "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" fill-opacity=\"0.55\"/>\n",
			    x + dx, y_of(s->samples[i], lo, hi), color);
	}
	/* A mean or spread beyond double precision is not drawn. */
	if (c->ci > 0 && isfinite(c->sum.mean - c->ci) &&
	    isfinite(c->sum.mean + c->ci))
		strbuf_addf(out,
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n"
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n"
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
			    x + 34, y_of(c->sum.mean - c->ci, lo, hi),
			    x + 34, y_of(c->sum.mean + c->ci, lo, hi), color,
			    x + 29, y_of(c->sum.mean - c->ci, lo, hi),
			    x + 39, y_of(c->sum.mean - c->ci, lo, hi), color,
			    x + 29, y_of(c->sum.mean + c->ci, lo, hi),
			    x + 39, y_of(c->sum.mean + c->ci, lo, hi), color);
	if (isfinite(c->sum.mean))
		strbuf_addf(out,
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>\n",
			    x - 30, y_of(c->sum.mean, lo, hi), x + 40,
			    y_of(c->sum.mean, lo, hi), color);

	strbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"bold\" fill=\"%s\">",
		    x, bottom + 20, color);
	add_escaped(out, s->label);
	format_value(buf, sizeof(buf), c->sum.mean);
	strbuf_addf(out, "</text>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">n=%zu, mean %s</text>\n",
		    x, bottom + 38, s->n, buf);
	if (s->note) {
		strbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"bold\">",
			    x, bottom + 56);
		add_escaped(out, s->note);
		strbuf_addstr(out, "</text>\n");
	} else if (!base)
		strbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">base</text>\n",
			    x, bottom + 56);
	else if (base->sum.mean != 0 &&
		 isfinite((c->sum.mean - base->sum.mean) / base->sum.mean))
		strbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"bold\">%+.1f%%</text>\n",
			    x, bottom + 56,
			    100 * (c->sum.mean - base->sum.mean) / fabs(base->sum.mean));
}

void plot_svg(const char *title, const char *subtitle,
	      const struct plot_series *series, size_t nseries,
	      struct strbuf *out)
{
	struct column *cols = xcalloc(nseries, sizeof(*cols));
	double lo = INFINITY, hi = -INFINITY, ticks[16], step;
	size_t nticks;

	for (size_t s = 0; s < nseries; s++) {
		column_stats(&series[s], &cols[s]);
		for (size_t i = 0; i < series[s].n; i++)
			if (isfinite(series[s].samples[i])) {
				lo = fmin(lo, series[s].samples[i]);
				hi = fmax(hi, series[s].samples[i]);
			}
		if (series[s].n && isfinite(cols[s].sum.mean - cols[s].ci) &&
		    isfinite(cols[s].sum.mean + cols[s].ci)) {
			lo = fmin(lo, cols[s].sum.mean - cols[s].ci);
			hi = fmax(hi, cols[s].sum.mean + cols[s].ci);
		}
	}
	nticks = plot_ticks(lo, hi, 6, ticks, ARRAY_SIZE(ticks));
	lo = ticks[0];
	hi = ticks[nticks - 1];
	step = (double)(SVG_WIDTH - MARGIN_LEFT - MARGIN_RIGHT) / (double)nseries;

	strbuf_addf(out,
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		    "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		    "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">",
		    SVG_WIDTH, SVG_HEIGHT, SVG_WIDTH, SVG_HEIGHT, SVG_WIDTH / 2);
	add_escaped(out, title);
	strbuf_addf(out, "</text>\n<text x=\"%d\" y=\"42\" text-anchor=\"middle\" fill=\"#555\">",
		    SVG_WIDTH / 2);
	if (subtitle)
		add_cut(out, subtitle, SUBTITLE_MAX);
	strbuf_addstr(out, "</text>\n");
	add_axis(out, title, lo, hi, ticks, nticks);
	for (size_t s = 0; s < nseries; s++)
		add_column(out, &series[s], &cols[s], s ? &cols[0] : NULL, s,
			   MARGIN_LEFT + step * ((double)s + 0.5), lo, hi);
	strbuf_addstr(out, "</svg>\n");
	free(cols);
}

void plot_svg_stack(const char *const *svgs, size_t n, struct strbuf *out)
{
	strbuf_addf(out,
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%zu\" viewBox=\"0 0 %d %zu\">\n"
		    "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		    SVG_WIDTH, n * SVG_HEIGHT, SVG_WIDTH, n * SVG_HEIGHT);
	for (size_t i = 0; i < n; i++) {
		strbuf_addf(out, "<g transform=\"translate(0,%zu)\">\n",
			    i * SVG_HEIGHT);
		strbuf_addstr(out, svgs[i]);
		strbuf_addstr(out, "</g>\n");
	}
	strbuf_addstr(out, "</svg>\n");
}

void plot_html_page(const char *title, const char *const *svgs, size_t n,
		    struct strbuf *out)
{
	strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
	add_escaped(out, title);
	strbuf_addstr(out, "</title>\n<style>body{font-family:sans-serif;background:#fff;color:#111;margin:16px}"
			   "h1{font-size:20px}figure{margin:0 0 16px 0}</style>\n</head>\n<body>\n<h1>");
	add_escaped(out, title);
	strbuf_addstr(out, "</h1>\n");
	for (size_t i = 0; i < n; i++) {
		strbuf_addstr(out, "<figure>\n");
		strbuf_addstr(out, svgs[i]);
		strbuf_addstr(out, "</figure>\n");
	}
	strbuf_addstr(out, "</body>\n</html>\n");
}
