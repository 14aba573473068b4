// SPDX-License-Identifier: GPL-2.0
/*
 * Builds kdelta-job(5) from man/kdelta-job.5.in: the line "@PARAMETERS@"
 * becomes the parameter reference, generated from the declarations the
 * binary checks job files against, so that the page cannot drift from them.
 *
 *	gen-job-man kdelta-job.5.in kdelta-job.5
 */
#include <stdio.h>
#include <string.h>

#include "kdelta/job.h"
#include "kdelta/params.h"
#include "kdelta/util.h"
#include "kdelta/workload.h"

/* Text as roff: backslashes escaped, no line starting a request. */
static void roff_text(struct strbuf *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		strbuf_addstr(out, "\\&");
	for (; *s; s++) {
		if (*s == '\\')
			strbuf_addstr(out, "\\e");
		else if (*s == '-')
			strbuf_addstr(out, "\\-");
		else
			strbuf_addch(out, *s);
	}
}

static void describe_type(struct strbuf *out, const struct param_spec *p)
{
	strbuf_addstr(out, param_type_name(p->type));
	for (size_t i = 0; p->type == PARAM_CHOICE && p->choices[i]; i++) {
		strbuf_addstr(out, i ? ", " : ": ");
		roff_text(out, p->choices[i]);
	}
	if (p->min && p->max) {
		strbuf_addstr(out, ", ");
		roff_text(out, p->min);
		strbuf_addstr(out, " to ");
		roff_text(out, p->max);
	} else if (p->min || p->max) {
		strbuf_addstr(out, p->min ? ", at least " : ", at most ");
		roff_text(out, p->min ? p->min : p->max);
	}
	if (p->required)
		strbuf_addstr(out, "; required");
	if (p->def && *p->def) {
		strbuf_addstr(out, "; default ");
		roff_text(out, p->def);
	}
	if (p->unnamed)
		strbuf_addstr(out, "; not in the job's name");
}

static void section_params(struct strbuf *out, const struct param_section *s)
{
	if (!s->params || !s->params[0].name) {
		strbuf_addstr(out, "No parameters.\n");
		return;
	}
	for (const struct param_spec *p = s->params; p->name; p++) {
		strbuf_addstr(out, ".TP\n\\fB");
		roff_text(out, p->name);
		strbuf_addstr(out, "\\fR (");
		describe_type(out, p);
		strbuf_addstr(out, ")\n");
		roff_text(out, p->help ? p->help : "");
		strbuf_addch(out, '\n');
		if (p->not_applied) {
			strbuf_addstr(out, ".br\nRecorded, not applied: ");
			roff_text(out, p->not_applied);
			strbuf_addstr(out, ".\n");
		}
	}
}

static void sections(struct strbuf *out, const char *title,
		     const struct param_section *const *list)
{
	strbuf_addf(out, ".SS %s\n", title);
	if (!list || !list[0]) {
		strbuf_addstr(out, "None yet.\n");
		return;
	}
	for (size_t i = 0; list[i]; i++) {
		strbuf_addstr(out, ".PP\n.B ");
		roff_text(out, list[i]->name);
		strbuf_addstr(out, "\n\\(em ");
		roff_text(out, list[i]->summary ? list[i]->summary : "");
		strbuf_addstr(out, "\n.RS\n");
		section_params(out, list[i]);
		strbuf_addstr(out, ".RE\n");
	}
}

static void parameters(struct strbuf *out)
{
	const struct job_schema *schema = job_schema_default();

	strbuf_addstr(out, ".SS Common parameters\n");
	section_params(out, schema->common);
	sections(out, "Workloads", schema->workloads);
	sections(out, "Monitors", schema->monitors);
}

int main(int argc, char **argv)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	struct kd_err err;
	const char *marker, *aim9;
	int ret = 0;

	if (argc != 3) {
		fputs("usage: gen-job-man TEMPLATE OUTPUT\n", stderr);
		return 2;
	}
	if (read_file(argv[1], &in, &err)) {
		fprintf(stderr, "gen-job-man: %s\n", err.msg);
		return 1;
	}
	marker = strstr(in.buf, "\n@PARAMETERS@\n");
	if (!marker) {
		fprintf(stderr, "gen-job-man: %s: no @PARAMETERS@ line\n", argv[1]);
		strbuf_release(&in);
		return 1;
	}
	aim9 = strstr(in.buf, "\n@AIM9_TESTS@\n");
	if (!aim9 || aim9 > marker) {
		fprintf(stderr, "gen-job-man: %s: no @AIM9_TESTS@ line before @PARAMETERS@\n",
			argv[1]);
		strbuf_release(&in);
		return 1;
	}
	strbuf_add(&out, in.buf, (size_t)(aim9 - in.buf) + 1);
	workload_aim9_tests_man(&out);
	strbuf_add(&out, aim9 + strlen("\n@AIM9_TESTS@\n"),
		   (size_t)(marker - aim9) - strlen("\n@AIM9_TESTS@\n") + 1);
	parameters(&out);
	strbuf_addstr(&out, marker + strlen("\n@PARAMETERS@\n"));
	if (write_file_atomic(argv[2], out.buf, out.len, &err)) {
		fprintf(stderr, "gen-job-man: %s\n", err.msg);
		ret = 1;
	}
	strbuf_release(&in);
	strbuf_release(&out);
	return ret;
}
