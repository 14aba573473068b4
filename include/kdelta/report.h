/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_REPORT_H
#define KDELTA_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/compare.h"
#include "kdelta/err.h"
#include "kdelta/mail.h"
#include "kdelta/strbuf.h"

/*
 * The robot's report: a mail that says which workload result a commit
 * changed, by how much, on which machine and job, how to reproduce it,
 * with the comparison table, an ASCII plot of each changed result and the
 * job file attached (src/output/report.c).  Used by kdelta report and, with its
 * own legend labels, by kdelta bisect.
 */

/* The largest significant change of a workload result. */
struct report_finding {
	const struct comparison *cmp;
	const struct metric_row *row;
	size_t variant;		/* the changed variant (not the base) */
};

/*
 * The finding a mail leads with: the largest significant change
 * (VERDICT_CHANGED) of a group's key result, over every group and variant
 * (key_results[i]: the key result of cmps[i], store_key_result(), or NULL;
 * key_results may be NULL); when no key result changed, the largest of any
 * workload result.  False when no workload result changed.
 */
bool report_find(const struct comparison *const *cmps, size_t n,
		 const char *const *key_results, struct report_finding *out);

/* "-13.6%", "+2.5 points" (for "%" metrics), "+12 (from 0)". */
void report_add_change(struct strbuf *out, const struct metric_cell *cell);

struct report_options {
	const struct compare_options *compare;	/* as the cmps were decided */
	/* NULL or empty: report_default_from() */
	const struct mail_addresses *from;
	const struct mail_addresses *to, *cc;	/* NULL: none */
	const char *in_reply_to;	/* a Message-ID, or NULL */
	const char *subject_prefix;	/* NULL: "[kdelta]"; "": none */
	bool always;		/* a mail even when nothing changed */
	/*
	 * What the plots' legends call each variant's samples, one per
	 * variant ("bisect-good", "bisect-bad"), or NULL: the labels.
	 */
	const char *const *sample_labels;
	/*
	 * The job file to attach, when the caller knows it (bisect), or
	 * NULL: the job of the changed variant's first run, without what
	 * the runner recorded (commit, host, machine, kdelta).
	 */
	const char *job_file;
	/*
	 * The kdelta run --setup that puts a commit in place, when the
	 * caller knows it (bisect), or NULL: the one the changed variant's
	 * runs recorded (kdelta.setup in their job.yaml), if any.
	 */
	const char *setup;
	/*
	 * What "To reproduce" says first: a command (a git clone the setup
	 * then uses), and a comment line before it; NULL: none.
	 */
	const char *prepare, *prepare_note;
	double date;		/* seconds since the epoch; 0: now */
	unsigned long long unique;	/* for the Message-ID; 0: made up */
};

/*
 * Appends the whole RFC 5322 message to out ('\n' line ends, as
 * sendmail -t takes) and returns 0; returns 1 and writes nothing when no
 * workload result changed significantly and opt->always is false; -1 when
 * a job file cannot be read.
 */
int report_write(const struct report_options *opt,
		 const struct comparison *const *cmps, size_t n,
		 struct strbuf *out, struct kd_err *err);

/*
 * The From used when none is given, added to list: "kdelta
 * <user@hostname>" (kdelta@localhost where those are not fit for an
 * address).
 */
void report_default_from(struct mail_addresses *list);

#endif
