// SPDX-License-Identifier: GPL-2.0
/*
 * The report mail, in the order of the LKP robot's: the finding, the
 * commit, the testcase, the machine and the parameters, how to reproduce,
 * then the details (the table and a plot of each changed result).
 */
#include <ctype.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report-internal.h"
#include "kdelta/compare.h"
#include "kdelta/job.h"
#include "kdelta/mail.h"
#include "kdelta/plot.h"
#include "kdelta/render.h"
#include "kdelta/report.h"
#include "kdelta/commit-dir.h"
#include "kdelta/run-record.h"
#include "kdelta/store.h"
#include "kdelta/util.h"
#include "version.h"

static double change_size(const struct metric_cell *cell)
{
	return cell->change_infinite ? INFINITY : fabs(cell->change);
}

/*
 * The largest significant change in cmps[i] of a workload result; of its
 * key result only, when only_key.  Keeps *out when it is larger.
 */
static bool find_in_group(const struct comparison *cmp, const char *key,
			  bool only_key, bool found,
			  struct report_finding *out)
{
	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct metric_row *row = &cmp->rows[r];

		if (!row->key || (only_key && (!key || strcmp(row->name, key))))
			continue;
		for (size_t v = 1; v < cmp->nvariants; v++) {
			const struct metric_cell *c = &row->cells[v];

			if (c->verdict != VERDICT_CHANGED ||
			    (found && change_size(c) <=
				      change_size(&out->row->cells[out->variant])))
				continue;
			*out = (struct report_finding){ cmp, row, v };
			found = true;
		}
	}
	return found;
}

bool report_find(const struct comparison *const *cmps, size_t n,
		 const char *const *key_results, struct report_finding *out)
{
	bool found = false;

	for (size_t i = 0; key_results && i < n; i++)
		found = find_in_group(cmps[i], key_results[i], true, found, out);
	for (size_t i = 0; !found && i < n; i++)
		found = find_in_group(cmps[i], NULL, false, found, out);
	return found;
}

void report_add_change(struct strbuf *out, const struct metric_cell *cell)
{
	if (cell->change_infinite)
		strbuf_addf(out, "%+.4g (from 0)", cell->sum.mean);
	else if (cell->change_absolute)
		strbuf_addf(out, "%+.1f points", cell->change);
	else
		strbuf_addf(out, "%+.1f%%", cell->change);
}

/* "regression", "improvement" or, when the name does not say, "change". */
static const char *change_kind(const struct metric_row *row,
			       const struct metric_cell *cell)
{
	double sign = cell->change_infinite ? cell->sum.mean : cell->change;

	if (!row->better || sign == 0)
		return "change";
	return row->better * sign > 0 ? "improvement" : "regression";
}

/* A label that looks like a commit hash is cut to 12 characters. */
static char *short_commit(const char *label)
{
	size_t len = strlen(label);

	if (len < 12)
		return xstrdup(label);
	for (const char *s = label; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return xstrdup(label);
	return xstrndup(label, 12);
}

/* Groups with a significant change of a workload result, in order. */
static bool has_key_change(const struct comparison *cmp)
{
	for (size_t r = 0; r < cmp->nrows; r++)
		if (cmp->rows[r].key &&
		    metric_row_has(&cmp->rows[r], cmp->nvariants,
				   VERDICT_CHANGED))
			return true;
	return false;
}


/* ---- the body ------------------------------------------------------ */

struct report {
	const struct report_options *opt;
	const struct comparison *const *cmps;
	size_t n;
	char **key_results;		/* one per cmps[i], or NULL */
	struct report_finding finding;
	bool changed;			/* finding is set */
	/*
	 * A variant whose runs fail where the base's do not: the finding the
	 * mail leads with, before any change (failing_cmp NULL: none).
	 */
	const struct comparison *failing_cmp;
	size_t failing_variant;
	const struct comparison **sections;	/* the groups shown */
	struct section_job *jobs;	/* one per section */
	size_t nsections;
};

static const struct comparison *headline_cmp(const struct report *rep)
{
	if (rep->failing_cmp)
		return rep->failing_cmp;
	return rep->changed ? rep->finding.cmp : rep->sections[0];
}

static size_t headline_variant(const struct report *rep)
{
	if (rep->failing_cmp)
		return rep->failing_variant;
	return rep->changed ? rep->finding.variant
			    : headline_cmp(rep)->nvariants - 1;
}

/* The first variant whose runs fail where the base's do not. */
static void find_failing(struct report *rep)
{
	for (size_t i = 0; i < rep->n && !rep->failing_cmp; i++)
		for (size_t v = 1; v < rep->cmps[i]->nvariants; v++)
			if (variant_fails_more(rep->cmps[i], v)) {
				rep->failing_cmp = rep->cmps[i];
				rep->failing_variant = v;
				break;
			}
}

/* A variant of cmp without a usable run (the base first), or -1. */
static ssize_t variant_without_runs(const struct comparison *cmp)
{
	for (size_t v = 0; v < cmp->nvariants; v++)
		if (!cmp->variants[v].runs)
			return (ssize_t)v;
	return -1;
}

/* "<axis>=<value>" for --axis, else the commit's label, short if a hash. */
static void add_what_changed(struct strbuf *out, const struct comparison *cmp,
			     size_t v)
{
	char *label = cmp->axis ? xstrdup(cmp->variants[v].label)
				: short_commit(cmp->variants[v].label);

	if (cmp->axis) {
		add_printable(out, cmp->axis);
		strbuf_addch(out, '=');
	}
	add_printable(out, label);
	free(label);
}

static void add_subject(const struct report *rep, struct strbuf *out)
{
	const struct comparison *cmp = headline_cmp(rep);
	const char *prefix = rep->opt->subject_prefix ?
		rep->opt->subject_prefix : "[kdelta]";

	if (*prefix)
		strbuf_addf(out, "%s ", prefix);
	add_what_changed(out, cmp, headline_variant(rep));
	strbuf_addstr(out, ": ");
	if (rep->failing_cmp) {
		const struct variant *var =
			&cmp->variants[rep->failing_variant];

		strbuf_addf(out, "%s fails in %zu of %zu runs",
			    cmp->testcase ? cmp->testcase : cmp->name,
			    var->runs_failed + var->runs_incomplete,
			    variant_runs_attempted(var));
	} else if (rep->changed) {
		const struct metric_cell *cell =
			&rep->finding.row->cells[rep->finding.variant];

		strbuf_addf(out, "%s ", rep->finding.row->name);
		report_add_change(out, cell);
		strbuf_addf(out, " %s", change_kind(rep->finding.row, cell));
	} else {
		strbuf_addf(out, "%s: %s",
			    cmp->testcase ? cmp->testcase : cmp->name,
			    variant_without_runs(cmp) >= 0 ?
				    "no usable run to compare" :
				    "no significant change");
	}
}

/*
 * "commit: <label> ("<subject>")", the subject on a line of its own when
 * both do not fit in 80 columns.
 */
static void add_commit_line(struct strbuf *out, const struct variant *var)
{
	size_t start = out->len;

	strbuf_addstr(out, "commit: ");
	add_printable(out, var->label);
	if (var->subject) {
		size_t label_end = out->len;

		strbuf_addstr(out, " (\"");
		add_printable(out, var->subject);
		strbuf_addstr(out, "\")");
		if (out->len - start > 80) {
			struct strbuf subject = STRBUF_INIT;

			strbuf_add(&subject, out->buf + label_end + 1,
				   out->len - label_end - 1);
			strbuf_setlen(out, label_end);
			strbuf_addf(out, "\n        %s", subject.buf);
			strbuf_release(&subject);
		}
	}
	strbuf_addch(out, '\n');
}

/* "prefill: write (compared with fallocate)" */
static void add_axis_line(struct strbuf *out, const struct comparison *cmp,
			  size_t v)
{
	add_printable(out, cmp->axis);
	strbuf_addstr(out, ": ");
	add_printable(out, cmp->variants[v].label);
	strbuf_addstr(out, " (compared with ");
	add_printable(out, cmp->variants[0].label);
	strbuf_addstr(out, ")\n");
}

/*
 * "3 of 3 runs failed (the base's 0 of 3): <why the first failed>", for each
 * variant with failed or incomplete runs.
 */
static void add_failures(struct strbuf *out, const struct comparison *cmp)
{
	bool any = false;

	for (size_t v = 0; v < cmp->nvariants; v++) {
		const struct variant *var = &cmp->variants[v];
		size_t failed = var->runs_failed + var->runs_incomplete;

		if (!failed)
			continue;
		any = true;
		strbuf_addch(out, '\t');
		add_printable(out, var->label);
		strbuf_addf(out, ": %zu of %zu runs failed", failed,
			    variant_runs_attempted(var));
		if (var->runs_incomplete)
			strbuf_addf(out, " (%zu never completed)",
				    var->runs_incomplete);
		if (var->failure) {
			strbuf_addstr(out, ":\n\t\t");
			add_printable(out, var->failure);
		}
		strbuf_addch(out, '\n');
	}
	if (any)
		strbuf_addch(out, '\n');
}

static void add_finding(const struct report *rep, struct strbuf *out)
{
	const struct comparison *cmp = headline_cmp(rep);
	size_t v = headline_variant(rep);

	if (rep->failing_cmp) {
		strbuf_addstr(out, "FYI, we noticed that the workload fails due to ");
	} else if (rep->changed) {
		const struct metric_cell *cell =
			&rep->finding.row->cells[rep->finding.variant];

		strbuf_addstr(out, "FYI, we noticed a ");
		report_add_change(out, cell);
		strbuf_addf(out, " %s of ", change_kind(rep->finding.row, cell));
		add_printable(out, rep->finding.row->name);
		strbuf_addstr(out, " due to ");
	} else if (variant_without_runs(cmp) >= 0) {
		strbuf_addstr(out, "FYI, we could not compare the workload results: a variant has no\nusable run, ");
		strbuf_addstr(out, cmp->axis ? "when " : "with ");
	} else {
		strbuf_addstr(out, "FYI, we noticed no significant change of the workload results\n");
		strbuf_addstr(out, cmp->axis ? "when " : "with ");
	}
	if (cmp->axis) {
		strbuf_addstr(out, "changing ");
		add_printable(out, cmp->axis);
		strbuf_addstr(out, ":\n\n");
		add_axis_line(out, cmp, v);
	} else {
		strbuf_addstr(out, "commit:\n\n");
		add_commit_line(out, &cmp->variants[v]);
	}
	strbuf_addch(out, '\n');
	add_failures(out, cmp);
}

/*
 * "\tkey: value", on one line that fits in 80 columns: the job file
 * attached has the whole of a long or multi-line value.
 */
static void add_param(struct strbuf *out, const struct param *param)
{
	struct strbuf line = STRBUF_INIT;
	size_t max = 80 - 8;	/* after the tab */
	const char *nl = strchr(param->value, '\n');
	char *value = nl ? xstrndup(param->value, (size_t)(nl - param->value))
			 : xstrdup(param->value);
	bool cut = nl && nl[1];

	add_printable(&line, param->key);
	strbuf_addstr(&line, ": ");
	add_printable(&line, value);
	if (line.len > max) {
		size_t len = max - 4;

		/* never half a UTF-8 sequence */
		while (len && ((unsigned char)line.buf[len] & 0xc0) == 0x80)
			len--;
		strbuf_setlen(&line, len);
		cut = true;
	}
	strbuf_addf(out, "\t%s%s\n", line.buf, cut ? " ..." : "");
	strbuf_release(&line);
	free(value);
}

static void add_test_description(const struct report *rep,
				 struct strbuf *out)
{
	const struct comparison *cmp = headline_cmp(rep);
	const struct section_job *job = &rep->jobs[0];

	for (size_t i = 0; i < rep->nsections; i++)
		if (rep->sections[i] == cmp)
			job = &rep->jobs[i];
	strbuf_addstr(out, "in testcase: ");
	add_printable(out, cmp->testcase ? cmp->testcase : cmp->name);
	strbuf_addch(out, '\n');
	if (job->machine || cmp->host) {
		strbuf_addstr(out, "on test machine: ");
		add_printable(out, job->machine ? job->machine : cmp->host);
		strbuf_addch(out, '\n');
	}
	add_timing_notes(out, &cmp, 1);
	if (cmp->axis) {
		strbuf_addf(out, "comparing %s: ", cmp->axis);
		for (size_t v = 0; v < cmp->nvariants; v++) {
			strbuf_addstr(out, v ? ", " : "");
			add_printable(out, cmp->variants[v].label);
		}
		strbuf_addch(out, '\n');
	}
	if (!cmp->nparams)
		return;
	strbuf_addstr(out, "with following parameters:\n\n");
	for (size_t i = 0; i < cmp->nparams; i++)
		if (strcmp(cmp->params[i].key, "testcase"))
			add_param(out, &cmp->params[i]);
}

/* The key result of a group, or NULL. */
static const char *key_result_of(const struct report *rep,
				 const struct comparison *cmp)
{
	for (size_t i = 0; rep->key_results && i < rep->n; i++)
		if (rep->cmps[i] == cmp)
			return rep->key_results[i];
	return NULL;
}

/* The other groups that changed, one line each with their headline. */
static void add_other_findings(const struct report *rep, struct strbuf *out)
{
	const struct comparison *headline = headline_cmp(rep);
	bool any = false;

	for (size_t i = 0; i < rep->nsections; i++) {
		const struct comparison *cmp = rep->sections[i];
		const char *key = key_result_of(rep, cmp);
		struct report_finding f;

		if (cmp == headline || !report_find(&cmp, 1, &key, &f))
			continue;
		if (!any && headline->axis) {
			strbuf_addstr(out, "\nIn addition to that, changing ");
			add_printable(out, headline->axis);
			strbuf_addstr(out, " also has significant impact on the\nfollowing tests:\n\n");
		} else if (!any) {
			strbuf_addstr(out, "\nIn addition to that, the commit also has significant impact on the\nfollowing tests:\n\n");
		}
		any = true;
		strbuf_addch(out, '\t');
		add_printable(out, cmp->name);
		strbuf_addstr(out, ": ");
		report_add_change(out, &f.row->cells[f.variant]);
		strbuf_addf(out, " %s of ",
			    change_kind(f.row, &f.row->cells[f.variant]));
		add_printable(out, f.row->name);
		strbuf_addch(out, '\n');
	}
}

/*
 * The labels as the commands name them: commits by their short hash, which
 * names them well enough in the reader's own store.
 */
static void add_labels(struct strbuf *out, const struct comparison *cmp,
		       const char *sep)
{
	for (size_t v = 0; v < cmp->nvariants; v++) {
		char *label = cmp->axis ? xstrdup(cmp->variants[v].label)
					: short_commit(cmp->variants[v].label);

		strbuf_addstr(out, v ? sep : "");
		report_shell_word(out, label, false);
		free(label);
	}
}

/* The options that changed the decision from compare's defaults. */
static void add_compare_options(struct strbuf *out,
				const struct compare_options *opt)
{
	struct compare_options defaults;

	if (!opt)
		return;
	compare_options_init(&defaults);
	if (opt->test != defaults.test)
		strbuf_addf(out, " --test %s", sig_test_names[opt->test]);
	if (opt->fdr != defaults.fdr)
		strbuf_addf(out, " --fdr %g", opt->fdr);
	if (opt->min_change != defaults.min_change)
		strbuf_addf(out, " --min-change %g", opt->min_change);
}

/* The length of the shell word at s: up to a blank outside quotes. */
static size_t shell_word_length(const char *s)
{
	bool quoted = false;
	size_t n = 0;

	for (; s[n] && (quoted || s[n] != ' '); n++) {
		if (s[n] == '\'')
			quoted = !quoted;
		else if (!quoted && s[n] == '\\' && s[n + 1])
			n++;	/* \' is a quote in the word, not an opening one */
	}
	return n;
}

/*
 * The length of the text at s that stays on one line: a shell word, or an
 * option ("--setup") with its value.
 */
static size_t shell_unit_length(const char *s)
{
	size_t word = shell_word_length(s), gap;

	if (strncmp(s, "--", 2) || !s[word])
		return word;
	gap = strspn(s + word, " ");
	if (!s[word + gap] || s[word + gap] == '-')
		return word;
	return word + gap + shell_word_length(s + word + gap);
}

/*
 * A command line, indented by a tab, continued with a backslash where a
 * word (or an option with its value) would pass column 80.
 */

static void add_command(struct strbuf *out, const char *cmd)
{
	size_t col = 8;
	const char *p = cmd;

	strbuf_addch(out, '\t');
	while (*p) {
		size_t word = shell_unit_length(p);

		if (p != cmd && col + 1 + word > 78) {
			strbuf_addstr(out, " \\\n\t    ");
			col = 12;
		} else if (p != cmd) {
			strbuf_addch(out, ' ');
			col++;
		}
		strbuf_add(out, p, word);
		col += word;
		p += word;
		p += strspn(p, " ");
	}
	strbuf_addch(out, '\n');
}

/* " --setup CMD" */
static void add_setup_option(struct strbuf *cmd, const char *setup)
{
	if (!setup)
		return;
	strbuf_addstr(cmd, " --setup ");
	report_shell_word(cmd, setup, true);
}

/*
 * " --kernel LABEL=PATH" for each variant, as its runs recorded; a kernel
 * that is gone (a bisection's build made it in a workspace) is "PATH",
 * and *gone says so.
 */
static void add_kernel_options(struct strbuf *cmd,
			       const struct comparison *cmp, bool *gone)
{
	*gone = false;
	for (size_t v = 0; v < cmp->nvariants; v++) {
		char *kernel = report_variant_kernel(&cmp->variants[v]);
		char *spec;

		if (kernel && !path_exists(kernel)) {
			free(kernel);
			kernel = NULL;
		}
		*gone |= !kernel;
		spec = xasprintf("%s=%s", cmp->variants[v].label,
				 kernel ? kernel : "PATH");

		strbuf_addstr(cmd, " --kernel ");
		report_shell_word(cmd, spec, true);
		free(spec);
		free(kernel);
	}
}

/* The command that runs a section's job again, with the comments it needs. */
static void add_run_command(struct strbuf *out, const struct comparison *cmp,
			    const struct section_job *job)
{
	struct strbuf cmd = STRBUF_INIT;

	strbuf_addf(out, "\t# %s is attached to this mail\n", job->filename);
	if (cmp->axis && !job->axis_listed) {
		strbuf_addf(out, "\t# set %s to each of: ", cmp->axis);
		add_labels(out, cmp, ", ");
		strbuf_addch(out, '\n');
	}
	if (job->base_setup_differs) {
		strbuf_addstr(out, "\t# the base's runs had ");
		if (job->base_setup) {
			strbuf_addstr(out, "--setup ");
			report_shell_word(out, job->base_setup, false);
		} else {
			strbuf_addstr(out, "no --setup");
		}
		strbuf_addch(out, '\n');
	}
	strbuf_addf(&cmd, "kdelta run %s", job->filename);
	if (!cmp->axis && job->vm) {
		bool gone;

		add_kernel_options(&cmd, cmp, &gone);
		strbuf_addstr(&cmd, job->vm_options.buf);
		if (gone)
			strbuf_addstr(out, "\t# PATH: the commit's kernel, as its build leaves it in {out}\n");
	} else if (!cmp->axis) {
		strbuf_addstr(&cmd, " --commits ");
		add_labels(&cmd, cmp, ",");
	}
	add_setup_option(&cmd, job->setup);
	add_command(out, cmd.buf);
	strbuf_release(&cmd);
}

static void add_reproduce(const struct report *rep, struct strbuf *out)
{
	const struct comparison *cmp = headline_cmp(rep);
	struct strbuf cmd = STRBUF_INIT;

	strbuf_addstr(out, "\nTo reproduce:\n\n");
	if (rep->opt->prepare_note)
		strbuf_addf(out, "\t# %s\n", rep->opt->prepare_note);
	if (rep->opt->prepare)
		add_command(out, rep->opt->prepare);
	for (size_t i = 0; i < rep->nsections; i++) {
		if (rep->jobs[i].text.len)
			add_run_command(out, rep->sections[i], &rep->jobs[i]);
		else
			strbuf_addf(out, "\t# no job file was found for %s\n",
				    rep->sections[i]->name);
	}
	strbuf_addstr(&cmd, "kdelta compare");
	add_compare_options(&cmd, rep->opt->compare);
	if (cmp->axis)
		strbuf_addf(&cmd, " --axis %s", cmp->axis);
	strbuf_addch(&cmd, ' ');
	add_labels(&cmd, cmp, " ");
	add_command(out, cmd.buf);
	strbuf_release(&cmd);
}

static void add_plots(const struct report *rep, const struct comparison *cmp,
		      bool changed_only, struct strbuf *out)
{
	struct plot_series *series = xcalloc(cmp->nvariants, sizeof(*series));
	char **labels = xcalloc(cmp->nvariants, sizeof(*labels));

	for (size_t v = 0; v < cmp->nvariants; v++)
		labels[v] = rep->opt->sample_labels ?
			xstrdup(rep->opt->sample_labels[v]) :
			short_commit(cmp->variants[v].label);
	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct metric_row *row = &cmp->rows[r];
		bool changed = metric_row_has(row, cmp->nvariants,
					      VERDICT_CHANGED);

		if (!row->key || (changed_only && !changed))
			continue;
		for (size_t v = 0; v < cmp->nvariants; v++) {
			series[v].label = labels[v];
			series[v].samples = row->cells[v].samples;
			series[v].n = row->cells[v].samples ?
				row->cells[v].sum.n : 0;
		}
		strbuf_addch(out, '\n');
		plot_ascii(row->name, series, cmp->nvariants, out);
	}
	for (size_t v = 0; v < cmp->nvariants; v++)
		free(labels[v]);
	free(labels);
	free(series);
}

static void add_details(const struct report *rep, struct strbuf *out)
{
	for (size_t i = 0; i < rep->nsections; i++) {
		strbuf_addch(out, '\n');
		render_lkp(rep->sections[i], rep->opt->compare, out);
		add_plots(rep, rep->sections[i], rep->changed, out);
	}
}

static void add_body(const struct report *rep, struct strbuf *out)
{
	strbuf_addstr(out, "Hello,\n\n");
	add_finding(rep, out);
	add_test_description(rep, out);
	add_other_findings(rep, out);
	strbuf_addstr(out, "\nDetails are as below:\n");
	strbuf_addchars(out, '-', 78);
	strbuf_addstr(out, ">\n");
	add_reproduce(rep, out);
	add_details(rep, out);
	strbuf_addf(out, "\n-- \nkdelta %s\n", KDELTA_VERSION);
}

/* ---- the message --------------------------------------------------- */

void report_default_from(struct mail_addresses *list)
{
	struct passwd *pw = getpwuid(getuid());
	const char *user = pw ? pw->pw_name : getenv("USER");
	char host[256] = "localhost", *addr;
	struct kd_err err;

	if (gethostname(host, sizeof(host) - 1) < 0 || !*host)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	addr = xasprintf("%s@%s", user && *user ? user : "kdelta", host);
	if (mail_addresses_add(list, "kdelta", addr, &err) < 0)
		mail_addresses_add(list, "kdelta", "kdelta@localhost", &err);
	free(addr);
}

/* "<testcase>.yaml", or with the parameter directory when several. */
static char *attachment_name(const struct comparison *cmp, size_t nsections,
			     size_t index)
{
	const char *testcase = cmp->testcase ? cmp->testcase : "job";
	char *raw, *safe;

	if (nsections == 1)
		raw = xasprintf("%s.yaml", testcase);
	else
		raw = xasprintf("%zu-%s.yaml", index + 1, cmp->name);
	for (char *p = raw; *p; p++)
		if (*p == '/')
			*p = '-';
	safe = safe_name(raw, 120);
	free(raw);
	return safe;
}

static int report_prepare(struct report *rep, struct kd_err *err)
{
	rep->sections = xcalloc(rep->n ? rep->n : 1, sizeof(*rep->sections));
	for (size_t i = 0; i < rep->n; i++)
		if ((!rep->changed && !rep->failing_cmp) ||
		    has_key_change(rep->cmps[i]) ||
		    rep->cmps[i] == rep->failing_cmp)
			rep->sections[rep->nsections++] = rep->cmps[i];
	rep->jobs = xcalloc(rep->nsections ? rep->nsections : 1,
			    sizeof(*rep->jobs));
	for (size_t i = 0; i < rep->nsections; i++) {
		const struct comparison *cmp = rep->sections[i];
		size_t v = cmp == rep->failing_cmp ? rep->failing_variant :
			   rep->changed && cmp == rep->finding.cmp ?
			   rep->finding.variant : cmp->nvariants - 1;

		strbuf_init(&rep->jobs[i].text);
		strbuf_init(&rep->jobs[i].vm_options);
		rep->jobs[i].filename = attachment_name(cmp, rep->nsections, i);
		if (report_section_job_load(rep->opt, cmp, v, &rep->jobs[i], err) < 0)
			return -1;
	}
	return 0;
}

static void report_release(struct report *rep)
{
	for (size_t i = 0; rep->key_results && i < rep->n; i++)
		free(rep->key_results[i]);
	free(rep->key_results);
	for (size_t i = 0; i < rep->nsections; i++)
		report_section_job_release(&rep->jobs[i]);
	free(rep->jobs);
	free(rep->sections);
}

static unsigned long long made_up_unique(void)
{
	unsigned long long seed[3] = {
		(unsigned long long)getpid(),
		(unsigned long long)(now_monotonic() * 1e9),
		(unsigned long long)(now_epoch() * 1e6),
	};

	return hash64(seed, sizeof(seed));
}

static void format_message(const struct report *rep, const char *host,
			   struct strbuf *out)
{
	const struct report_options *opt = rep->opt;
	struct mail_attachment *att = xcalloc(rep->nsections + 1, sizeof(*att));
	struct strbuf subject = STRBUF_INIT, body = STRBUF_INIT;
	struct mail_addresses from = MAIL_ADDRESSES_INIT;
	struct mail m = {
		.from = opt->from && opt->from->n ? opt->from : &from,
		.to = opt->to,
		.cc = opt->cc,
		.in_reply_to = opt->in_reply_to,
		.date = opt->date ? opt->date : now_epoch(),
		.message_id_host = host,
		.unique = opt->unique ? opt->unique : made_up_unique(),
	};

	if (m.from == &from)
		report_default_from(&from);
	add_subject(rep, &subject);
	add_body(rep, &body);
	for (size_t i = 0; i < rep->nsections; i++)
		if (rep->jobs[i].text.len)
			att[m.nattachments++] = (struct mail_attachment){
				rep->jobs[i].filename, rep->jobs[i].text.buf,
				rep->jobs[i].text.len,
			};
	m.subject = subject.buf;
	m.body = body.buf;
	m.attachments = att;
	mail_format(&m, out);
	strbuf_release(&subject);
	strbuf_release(&body);
	mail_addresses_release(&from);
	free(att);
}

int report_write(const struct report_options *opt,
		 const struct comparison *const *cmps, size_t n,
		 struct strbuf *out, struct kd_err *err)
{
	struct report rep = { .opt = opt, .cmps = cmps, .n = n };
	char host[256] = "localhost";
	int ret;

	rep.key_results = xcalloc(n ? n : 1, sizeof(*rep.key_results));
	for (size_t i = 0; i < n; i++)
		rep.key_results[i] = report_group_key_result(cmps[i]);
	rep.changed = report_find(cmps, n,
				  (const char *const *)rep.key_results,
				  &rep.finding);
	find_failing(&rep);
	if (!n || (!rep.changed && !rep.failing_cmp && !opt->always)) {
		report_release(&rep);
		return 1;
	}
	if (gethostname(host, sizeof(host) - 1) < 0 || !*host)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	ret = report_prepare(&rep, err);
	if (!ret)
		format_message(&rep, host, out);
	report_release(&rep);
	return ret;
}
