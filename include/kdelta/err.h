/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_ERR_H
#define KDELTA_ERR_H

/*
 * Errors travel up as return values; the message travels in a struct kd_err
 * owned by the caller.  Only main() and the cmd_*() functions print it and
 * choose the exit status.
 *
 *	if (fd < 0)
 *		return kd_error(err, "%s: %s", path, strerror(errno));
 */
#include <stdbool.h>

/*
 * How text from outside -- files, git, the command line: metric, label,
 * parameter and group names, commit subjects -- is written where people
 * read it (tables, plots, the mail, CSV, error messages): a control
 * character (C0 or DEL: CR, LF, tab, escape, ...) becomes a blank, so that
 * no such text can break a line, add a mail header or move a terminal's
 * cursor.  The one rule: every writer of such text calls these.
 */
static inline bool is_control_char(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

static inline char printable_char(char c)
{
	return is_control_char((unsigned char)c) ? ' ' : c;
}

/* s with each control character made a blank, in place. */
void make_printable(char *s);

/* Exit statuses, documented in kdelta(1). */
enum {
	KD_EXIT_OK = 0,
	KD_EXIT_FAIL = 1,	/* a run failed; --fail-on-regression: regressed */
	KD_EXIT_USAGE = 2,	/* bad usage or bad input */
	KD_EXIT_NOT_REPRODUCIBLE = 3,
	KD_EXIT_WRITE = 4,	/* run, bisect: the store or the work directory
				 * could not be written (disk full, read-only) */
	KD_EXIT_NOMEM = 5,	/* out of memory (xdie_nomem()) */
	KD_EXIT_INCONCLUSIVE = 6,	/* --fail-on-regression: more runs
					 * would tell */
	KD_EXIT_NO_DATA = 7,	/* --fail-on-regression: a variant without
				 * a usable run, a result missing */
	KD_EXIT_BUSY = 8,	/* run --no-wait: another run holds the lock */
};

struct kd_err {
	char msg[2048];
	/*
	 * The kind of error, as the exit status it calls for: KD_EXIT_USAGE
	 * (the user's input is wrong: an option, a repository in the middle
	 * of a git bisect), KD_EXIT_WRITE (the store or the work directory
	 * could not be written); 0 when the code that failed did not say,
	 * and the command chooses (kd_err_status()).  kd_error() clears it,
	 * kd_error_prefix() keeps it, kd_err_kind() sets it.
	 */
	int status;
};

/* Says which kind of error err holds (see struct kd_err).  Returns -1. */
int kd_err_kind(struct kd_err *err, int status);

/* The exit status err calls for, or otherwise when it did not say. */
static inline int kd_err_status(const struct kd_err *err, int otherwise)
{
	return err->status ? err->status : otherwise;
}

/*
 * Formats msg into err (if err is not NULL) and returns -1.  The message is
 * one line: control characters become blanks (make_printable()), a final
 * line break is dropped.
 */
int kd_error(struct kd_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prefixes what err already says: "prefix: old message".  Returns -1. */
int kd_error_prefix(struct kd_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
