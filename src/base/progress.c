// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <sys/ioctl.h>

#include "kdelta/progress.h"
#include "kdelta/util.h"

void format_duration(struct strbuf *out, double seconds)
{
	long s = seconds > 0 ? (long)(seconds + 0.5) : 0;

	if (s >= 3600)
		strbuf_addf(out, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		strbuf_addf(out, "%ld:%02ld", s / 60, s % 60);
}

void progress_init(struct progress *p, FILE *out, bool live, size_t total)
{
	p->out = out;
	p->live = live;
	p->total = total;
	p->done = 0;
	p->start = p->step_start = now_monotonic();
	p->busy = 0;
	strbuf_init(&p->what);
	p->line_shown = false;
}

void progress_begin(struct progress *p, const char *what)
{
	strbuf_reset(&p->what);
	strbuf_addstr(&p->what, what);
	p->step_start = now_monotonic();
	progress_tick(p);
}

void progress_clear(struct progress *p)
{
	if (p->line_shown)
		fputs("\r\033[K", p->out);
	p->line_shown = false;
}

/* Columns of the terminal, so that the live line never wraps. */
static size_t terminal_width(FILE *out)
{
	struct winsize ws;

	if (ioctl(fileno(out), TIOCGWINSZ, &ws) < 0 || ws.ws_col < 20)
		return 80;
	return ws.ws_col;
}

void progress_tick(struct progress *p)
{
	struct strbuf line = STRBUF_INIT, head = STRBUF_INIT;
	double now = now_monotonic();
	size_t width;

	if (!p->live)
		return;
	strbuf_addf(&head, "kdelta: [%zu/%zu] %s", p->done + 1, p->total,
		    p->what.buf);
	strbuf_addstr(&line, ", ");
	format_duration(&line, now - p->step_start);
	strbuf_addstr(&line, ", total ");
	format_duration(&line, now - p->start);
	strbuf_addstr(&line, ", ETA ");
	if (p->done) {
		double per_step = p->busy / p->done;
		double left = per_step * (p->total - p->done) -
			      (now - p->step_start);

		format_duration(&line, left);
	} else {
		strbuf_addstr(&line, "?");
	}
	/* Too long: the start of the job's name goes, the commit and run stay. */
	width = terminal_width(p->out) - 1;
	if (head.len + line.len > width && width > line.len + 3)
		fprintf(p->out, "\r\033[K...%s%s",
			head.buf + head.len - (width - line.len - 3), line.buf);
	else
		fprintf(p->out, "\r\033[K%s%s", head.buf, line.buf);
	fflush(p->out);
	p->line_shown = true;
	strbuf_release(&head);
	strbuf_release(&line);
}

double progress_end(struct progress *p, const char *result, bool important)
{
	double took = now_monotonic() - p->step_start;

	p->done++;
	p->busy += took;
	if (!p->live || important) {
		progress_clear(p);
		fprintf(p->out, "kdelta: [%zu/%zu] %s: %s\n", p->done, p->total,
			p->what.buf, result);
		fflush(p->out);
	}
	return took;
}

void progress_notice(struct progress *p, const char *fmt, ...)
{
	va_list ap;

	progress_clear(p);
	fputs("kdelta: ", p->out);
	va_start(ap, fmt);
	vfprintf(p->out, fmt, ap);
	va_end(ap);
	fputc('\n', p->out);
	fflush(p->out);
}

void progress_release(struct progress *p)
{
	progress_clear(p);
	strbuf_release(&p->what);
}
