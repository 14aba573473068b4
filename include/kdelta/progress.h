/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_PROGRESS_H
#define KDELTA_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kdelta/strbuf.h"

/*
 * Progress of a batch of steps (runs).  On a terminal (live), one status
 * line is redrawn in place: what runs, the elapsed time and an ETA from the
 * durations of the steps so far.  Elsewhere (a log file, CI), each finished
 * step prints one line.  Notices and failures always print a line of their
 * own.
 */
struct progress {
	FILE *out;
	bool live;
	size_t total, done;
	double start;		/* of the batch */
	double step_start;
	double busy;		/* seconds of the finished steps */
	struct strbuf what;	/* the current step */
	bool line_shown;	/* a live line is on the screen */
};

void progress_init(struct progress *p, FILE *out, bool live, size_t total);
/* Starts step "what" ("job 1/4 punch-4k/base run 2/3"). */
void progress_begin(struct progress *p, const char *what);
/* Redraws the live line; nothing without a terminal. */
void progress_tick(struct progress *p);
/*
 * Ends the current step: "kdelta: [i/n] what: result" without a terminal;
 * on a terminal only when important (a failure).  Returns its duration.
 */
double progress_end(struct progress *p, const char *result, bool important);
/* Prints "kdelta: <message>" on a line of its own. */
void progress_notice(struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Clears the live line. */
void progress_clear(struct progress *p);
void progress_release(struct progress *p);

/* "0:05", "1:05", "1:02:03". */
void format_duration(struct strbuf *out, double seconds);

#endif
