/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_REPORT_INTERNAL_H
#define KDELTA_REPORT_INTERNAL_H

/*
 * Shared by the report's files (src/output/report*.c); not an API:
 * report-job.c finds the job a section's runs had (and writes a shell word
 * of its commands), report.c writes the mail.
 */
#include <stdbool.h>
#include <stddef.h>

#include "kdelta/compare.h"
#include "kdelta/report.h"
#include "kdelta/strbuf.h"

/* What a section needs of its job: the text to attach and the machine. */
struct section_job {
	char *filename;		/* of the attachment */
	struct strbuf text;	/* empty: no job file found */
	char *machine;		/* "2 threads <model> with 24G memory", or NULL */
	bool vm;		/* its runs were made in virtual machines */
	struct strbuf vm_options;	/* " --vm-clock instructions", ... */
	char *setup;		/* the --setup its runs had, or NULL */
	char *base_setup;	/* the base's, when it differs; or NULL */
	bool base_setup_differs;
	bool axis_listed;	/* the --axis values are a list in text */
};

/* The job of cmps' variant v, its machine and options, into job. */
int report_section_job_load(const struct report_options *opt,
			    const struct comparison *cmp, size_t v,
			    struct section_job *job, struct kd_err *err);
void report_section_job_release(struct section_job *job);
/* The key result a group's job declares, or NULL. */
char *report_group_key_result(const struct comparison *cmp);
/* The --kernel PATH a variant's runs had, or NULL. */
char *report_variant_kernel(const struct variant *var);
/*
 * A word of a command to copy into a shell: quoted unless plain; a newline
 * kept (inside the quotes) with keep_newlines.
 */
void report_shell_word(struct strbuf *out, const char *word,
		       bool keep_newlines);

#endif
