/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_RENDER_H
#define KDELTA_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/compare.h"
#include "kdelta/strbuf.h"

/*
 * Cells and rows of the LKP-style tables, shared by render_lkp() and
 * render_summary() (src/output/render-util.c).  Column widths are lkp-tests'
 * (lib/compare.rb): a variant's mean is 10 wide and its relative stddev
 * " ±NN%" 6 wide; every later variant adds an 11-wide change, a blank, its
 * mean and stddev, 28 columns in all; the name follows two blanks.
 * Numbers are formatted as Ruby formats them (kdelta/rubyfmt.h).
 */
#define LKP_MEAN_WIDTH 10
#define LKP_STDDEV_WIDTH 6
#define LKP_CHANGE_WIDTH 11
#define LKP_FIRST_WIDTH (LKP_MEAN_WIDTH + LKP_STDDEV_WIDTH)
#define LKP_VARIANT_WIDTH (LKP_CHANGE_WIDTH + 1 + LKP_FIRST_WIDTH)
/*
 * Column labels over the table, cut to these widths and each followed by a
 * blank: 16 over the base, 27 over each later variant (lkp-tests since
 * 2019, and its mails).
 */
#define LKP_BASE_LABEL_WIDTH LKP_FIRST_WIDTH
#define LKP_LABEL_WIDTH (LKP_FIRST_WIDTH + LKP_CHANGE_WIDTH)

/*
 * Two dialects of the robot's numbers.  LKP_STYLE_DETAIL is today's
 * lkp-tests (lib/compare.rb): one-decimal signed changes ("+11.9%"), means
 * below 1000 with two decimals, whole means truncated, the population
 * stddev shown above 2%.  LKP_STYLE_COMPACT is the cross-testcase summary
 * of lkp-tests' older "compare" (seed 004): whole-percent changes
 * ("-19%"), increases of 500% or more as the absolute difference
 * ("3e+04"), means below 10 with two decimals, stddevs above 3% shown.
 */
enum lkp_style {
	LKP_STYLE_DETAIL,
	LKP_STYLE_COMPACT,
};

/* How the change columns of one row are shown. */
enum lkp_change_mode {
	LKP_CHANGE_PLAIN,	/* every change */
	LKP_CHANGE_QUIET,	/* in parentheses: nothing changed */
	LKP_CHANGE_SIGNIFICANT,	/* only VERDICT_CHANGED cells, else blank */
	LKP_CHANGE_MARKED,	/* VERDICT_CHANGED cells plainly, the others
				 * in parentheses: each cell says whether it
				 * changed, whatever the row's other cells */
};

/* The mean as the robot prints it; "-" when the variant has no sample. */
void lkp_add_mean(struct strbuf *out, double mean, size_t n,
		  enum lkp_style style);
/* The change of cell against base, unpadded; nothing when not comparable. */
void lkp_add_change(struct strbuf *out, const struct metric_cell *base,
		    const struct metric_cell *cell, enum lkp_style style);

/*
 * One row: every variant's columns, then two blanks and name, then a
 * newline.  cells has nvariants entries, the base first.
 */
void lkp_add_row(struct strbuf *out, const struct metric_cell *cells,
		 size_t nvariants, const char *name, enum lkp_style style,
		 enum lkp_change_mode mode);

/*
 * Two header lines over the columns: base[line] over the base variant,
 * then later[line] over each later one.
 */
void lkp_add_column_header(struct strbuf *out, size_t nvariants,
			   const char *const base[2],
			   const char *const later[2]);
/* The two header lines: "%stddev %change %stddev ..." and "\ | \ ...". */
void lkp_add_perf_header(struct strbuf *out, size_t nvariants);

/*
 * Appends s with each control character (CR, LF, tab, escape, ...) made a
 * blank (printable_char()), so that its length stays the same: a string
 * read from a file or from git (a parameter, label, subject, metric or
 * group name) must neither break a table's lines nor put a line of its own
 * into a mail.  Every such string of the text renderers and of the report
 * goes through here, or through add_right()/add_left() or lkp_add_row()'s
 * name, which call it; CSV fields through the same rule.  JSON keeps the
 * string as it is: its escapes carry it intact.
 */
void add_printable(struct strbuf *out, const char *s);

/*
 * Appends text, made printable, right-aligned in width columns (text is
 * ASCII, or counts its UTF-8 bytes as columns).
 */
void add_right(struct strbuf *out, const char *text, size_t width);
/* Appends text, made printable, left-aligned in width columns. */
void add_left(struct strbuf *out, const char *text, size_t width);
/*
 * Appends text (printable already) and a newline, broken at blanks into
 * lines of at most width columns (a UTF-8 sequence is one column; a longer
 * word stays whole), each line after the first indented by indent blanks:
 * a line of words for an 80-column mail.
 */
void add_wrapped(struct strbuf *out, const char *text, size_t width,
		 size_t indent);

/*
 * A workload result's verdict in words (src/output/render-verdict.c), for every
 * text output: "-3.1% (95% CI -9.0% … +2.8%): inconclusive, about 14 runs
 * per side would decide ±1%".  The change and its interval are in percent
 * (points for metrics that are percentages); "changed" says the direction
 * ("changed, worse"); "not enough runs" and the other undecided verdicts
 * say why.
 */
/*
 * The lines of words after a table fit the robot's 80-column mail; robot
 * mails name a commit with a subject by its first 12 digits.
 */
#define RENDER_VERDICT_WIDTH 80
#define RENDER_SHORT_COMMIT 12

/* Whether a label is a commit id (12 or more hex digits). */
bool render_is_commit_id(const char *s);
/* A variant's label: a commit id cut to 12 digits, else as it is. */
void render_add_label(struct strbuf *out, const struct variant *v);
/*
 * The verdict lines of a comparison: why a variant has no usable run, and
 * each workload result of each later variant in words (add_key_verdict():
 * "aim9.creat-clo.ops_per_sec, fix: -3.1% (95% CI -9.0% … +2.8%):
 * inconclusive, about 14 runs per side would decide ±1%"), wrapped.
 */
void render_key_verdicts(struct strbuf *out, const struct comparison *cmp,
			 const struct compare_options *opt);
/* The same of one row, named name ("<group>" in --summary). */
void render_row_verdicts(struct strbuf *out, const struct comparison *cmp,
			 const struct metric_row *row, const char *name,
			 const struct compare_options *opt);
void add_key_verdict(struct strbuf *out, const struct metric_row *row,
		     const struct metric_cell *cell,
		     const struct compare_options *opt);
/* "95% CI -9.0% … +2.8%", or "95% CI unbounded". */
void add_interval(struct strbuf *out, const struct metric_cell *cell);
/* "about 14 runs per side would decide ±1%", or nothing without one. */
void add_runs_needed(struct strbuf *out, const struct metric_cell *cell,
		     const struct compare_options *opt);

/*
 * What the timings of variants run in virtual machines are (struct
 * variant's timing), one line for each kind, for every table and mail:
 * "timings: instruction time of QEMU's TCG (-icount: 1 ns an instruction;
 * no caches, no I/O latency, no contention): cloud, rt".  Nothing when
 * every variant ran on real hardware.
 */
void add_timing_notes(struct strbuf *out, const struct comparison *const *cmps,
		      size_t n);

/*
 * The group's name as LKP writes it under testcase/testparams/testbox:
 * cmp->name, or when that is not set "<testcase>/<parameter values joined
 * by '-'>/<host>".  Caller frees.
 */
char *comparison_group_name(const struct comparison *cmp);

#endif
