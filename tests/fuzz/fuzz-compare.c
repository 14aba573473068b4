// SPDX-License-Identifier: GPL-2.0
/*
 * The comparer from the files it reads to everything it writes: result
 * directories made of the input (matrix.json, or runs with stats.json and
 * their completion marks, and a job.yaml), loaded and decided by
 * compare_load() as kdelta compare does with path arguments, then every
 * renderer: LKP's table, mmtests, the summary, JSON, CSV, the ASCII and SVG
 * plots, the HTML page and the report mail (report_write()).
 *
 * The input is pieces separated by form feeds ('\f', which neither JSON nor
 * YAML text holds):
 *
 *   - the first is the options byte, then "key: value" lines that stand for
 *     what the command line and git would give: label, subject (one per
 *     variant, in order), name (the group's), metric (for --summary),
 *     from, to, cc, in-reply-to, prefix (the report's);
 *   - then one piece per variant (at most MAX_VARIANTS): 'm' and the text of
 *     its matrix.json, or 'r' and its runs separated by '\v', each run a
 *     byte for its completion mark ('k': "ok", 'f': "failed: fuzz", any
 *     other: none) and the text of its stats.json;
 *   - a piece 'j' and a job.yaml: the job of every variant's run 0.
 *
 * Options byte: bits 0-1 the test (welch, mwu, lkp, welch), bit 2 --all,
 * bits 3-4 --fdr (0.05, 0, 0.25, 0.5), bit 5 --min-change 0 (else 1),
 * bit 6 the report even when nothing changed, bit 7 the group twice (two
 * groups: the summary's and the report's several-group forms).
 *
 * Properties: --format json is valid JSON with every group, variant and
 * metric; the mail passes fuzz_check_mail(); SVG and HTML hold no control
 * character (XML 1.0 forbids them).  GSL's error handler is off, as
 * kdelta's main() has it.
 *
 * Seeds: testdata/fuzz/compare/corpus/ (matrices and stats of the test
 * suite, and hand-made ones); dictionary: testdata/fuzz/compare.dict.
 */
#include <stddef.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <jansson.h>

#include "fuzz.h"
#include "kdelta/compare-args.h"
#include "kdelta/plot.h"
#include "kdelta/render.h"
#include "kdelta/report.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

#define MAX_VARIANTS 8
#define MAX_RUNS 12
/* Plotted rows per group: each plot costs as much as the rest. */
#define MAX_PLOTS 4

struct header {
	unsigned char options;
	char *labels[MAX_VARIANTS], *subjects[MAX_VARIANTS];
	size_t nlabels, nsubjects;
	char *name, *metric, *from, *to, *cc, *in_reply_to, *prefix;
};

static const char *const mail_headers[] = {
	"From", "To", "Cc", "Subject", "Date", "Message-ID", "In-Reply-To",
	"References", "MIME-Version", "Content-Type", NULL,
};

static void header_line(struct header *h, const char *line, size_t len)
{
	static const struct {
		const char *key;
		size_t offset;
	} fields[] = {
		{ "name: ", offsetof(struct header, name) },
		{ "metric: ", offsetof(struct header, metric) },
		{ "from: ", offsetof(struct header, from) },
		{ "to: ", offsetof(struct header, to) },
		{ "cc: ", offsetof(struct header, cc) },
		{ "in-reply-to: ", offsetof(struct header, in_reply_to) },
		{ "prefix: ", offsetof(struct header, prefix) },
	};

	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		size_t klen = strlen(fields[i].key);
		char **slot = (char **)((char *)h + fields[i].offset);

		if (len >= klen && !memcmp(line, fields[i].key, klen)) {
			free(*slot);
			*slot = fuzz_strndup(line + klen, len - klen);
			return;
		}
	}
	if (len >= 7 && !memcmp(line, "label: ", 7) && h->nlabels < MAX_VARIANTS)
		h->labels[h->nlabels++] = fuzz_strndup(line + 7, len - 7);
	else if (len >= 9 && !memcmp(line, "subject: ", 9) &&
		 h->nsubjects < MAX_VARIANTS)
		h->subjects[h->nsubjects++] = fuzz_strndup(line + 9, len - 9);
}

static void header_parse(struct header *h, const char *data, size_t len)
{
	const char *p = data + (len ? 1 : 0), *end = data + len;

	memset(h, 0, sizeof(*h));
	h->options = len ? (unsigned char)data[0] : 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		header_line(h, p, (size_t)(eol - p));
		p = eol + 1;
	}
}

static void header_release(struct header *h)
{
	for (size_t i = 0; i < h->nlabels; i++)
		free(h->labels[i]);
	for (size_t i = 0; i < h->nsubjects; i++)
		free(h->subjects[i]);
	free(h->name);
	free(h->metric);
	free(h->from);
	free(h->to);
	free(h->cc);
	free(h->in_reply_to);
	free(h->prefix);
}

/* One variant's directory, "cmp/v<i>", from its piece. */
static void write_variant(size_t v, const char *data, size_t len)
{
	struct fuzz_parts runs;
	char *rel;

	if (len && data[0] == 'm') {
		rel = xasprintf("cmp/v%zu/matrix.json", v);
		free(fuzz_write(rel, data + 1, len - 1));
		free(rel);
		return;
	}
	if (!len)
		return;
	fuzz_split(data + 1, len - 1, '\v', MAX_RUNS, &runs);
	for (size_t r = 0; r < runs.n; r++) {
		const char *run = runs.data[r];
		size_t rlen = runs.len[r];

		if (rlen && (run[0] == 'k' || run[0] == 'f')) {
			const char *mark = run[0] == 'k' ? "ok\n" : "failed: fuzz\n";

			rel = xasprintf("cmp/v%zu/%zu/%s", v, r, STORE_COMPLETE_FILE);
			free(fuzz_write(rel, mark, strlen(mark)));
			free(rel);
		}
		rel = xasprintf("cmp/v%zu/%zu/%s", v, r, STORE_STATS_FILE);
		free(fuzz_write(rel, run + !!rlen, rlen ? rlen - 1 : 0));
		free(rel);
	}
}

static void write_job(size_t nvariants, const char *data, size_t len)
{
	for (size_t v = 0; v < nvariants; v++) {
		char *rel = xasprintf("cmp/v%zu/0/%s", v, STORE_JOB_FILE);

		free(fuzz_write(rel, data, len));
		free(rel);
	}
}

/* The comparer's options on its command line, as the user gives them. */
static int load(struct compare_state *st, struct compare_args *a,
		unsigned char options, size_t nvariants)
{
	static const char *const tests[] = { "welch", "mwu", "lkp", "welch" };
	static const char *const fdrs[] = { "0.05", "0", "0.25", "0.5" };
	char *argv[16 + MAX_VARIANTS];
	int argc = 0, ret;
	struct kd_err err;

	argv[argc++] = xstrdup("compare");
	argv[argc++] = xstrdup("--test");
	argv[argc++] = xstrdup(tests[options & 3]);
	argv[argc++] = xstrdup("--fdr");
	argv[argc++] = xstrdup(fdrs[(options >> 3) & 3]);
	argv[argc++] = xstrdup("--min-change");
	argv[argc++] = xstrdup(options & 0x20 ? "0" : "1");
	if (options & 4)
		argv[argc++] = xstrdup("--all");
	for (size_t v = 0; v < nvariants; v++)
		argv[argc++] = xasprintf("%s/cmp/v%zu", fuzz_tmpdir(), v);
	ret = compare_args_parse(a, argc, argv, NULL, &err);
	FUZZ_CHECK(!ret, "%s", err.msg);
	ret = compare_load(st, &a->q, &err);
	if (ret < 0)
		FUZZ_CHECK(err.msg[0], "results refused without a message");
	/* compare_args keeps pointers to the labels: free them after. */
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	return ret;
}

/* What the command line and git would have given instead. */
static void apply_header(struct comparison *cmp, const struct header *h)
{
	for (size_t v = 0; v < cmp->nvariants; v++) {
		if (v < h->nlabels) {
			free(cmp->variants[v].label);
			cmp->variants[v].label = xstrdup(h->labels[v]);
		}
		if (v < h->nsubjects)
			cmp->variants[v].subject = xstrdup(h->subjects[v]);
	}
	free(cmp->name);
	cmp->name = xstrdup(h->name ? h->name : "fuzz/group/host");
}

static void check_no_control(const char *what, const struct strbuf *sb)
{
	for (size_t i = 0; i < sb->len; i++) {
		unsigned char c = (unsigned char)sb->buf[i];

		FUZZ_CHECK(c >= 0x20 || c == '\n' || c == '\t',
			   "%s: control character 0x%02x at byte %zu", what, c, i);
	}
}

/* Every group, variant and metric is there: nothing dropped. */
static void check_json(const struct strbuf *sb,
		       const struct comparison *const *cmps, size_t n)
{
	json_error_t jerr;
	json_t *root = json_loadb(sb->buf, sb->len, 0, &jerr);
	json_t *groups = json_object_get(root, "groups");

	FUZZ_CHECK(root, "--format json is not JSON: %s at line %d", jerr.text,
		   jerr.line);
	FUZZ_CHECK(json_array_size(groups) == n,
		   "--format json holds %zu groups, want %zu",
		   json_array_size(groups), n);
	for (size_t i = 0; i < n; i++) {
		json_t *g = json_array_get(groups, i);
		json_t *metrics = json_object_get(g, "metrics");

		FUZZ_CHECK(json_array_size(json_object_get(g, "variants")) ==
			   cmps[i]->nvariants, "--format json: group %zu lacks variants", i);
		FUZZ_CHECK(json_array_size(metrics) == cmps[i]->nrows,
			   "--format json: group %zu holds %zu metrics, want %zu",
			   i, json_array_size(metrics), cmps[i]->nrows);
		for (size_t r = 0; r < cmps[i]->nrows; r++)
			FUZZ_CHECK(json_array_size(json_object_get(json_array_get(metrics, r), "variants")) ==
				   cmps[i]->nvariants,
				   "--format json: metric %zu lacks variants", r);
	}
	json_decref(root);
}

static void render_tables(const struct comparison *const *cmps, size_t n,
			  const struct compare_options *opt, const char *metric)
{
	struct strbuf out = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		render_lkp(cmps[i], opt, &out);
		render_mmtests(cmps[i], opt, &out);
	}
	if (metric)
		render_summary(cmps, n, metric, opt, &out);
	strbuf_reset(&out);
	render_csv(cmps, n, opt, &out);
	strbuf_reset(&out);
	render_json(cmps, n, opt, &out);
	check_json(&out, cmps, n);
	strbuf_release(&out);
}

/* As kdelta plot draws a panel: ASCII, and SVG with a note per variant. */
static void render_plots(const struct comparison *cmp)
{
	struct plot_series series[MAX_VARIANTS];
	struct strbuf ascii = STRBUF_INIT, page = STRBUF_INIT;
	char *svgs[MAX_PLOTS];
	size_t nsvgs = 0;

	for (size_t r = 0; r < cmp->nrows && nsvgs < MAX_PLOTS; r++) {
		const struct metric_row *row = &cmp->rows[r];
		struct strbuf svg = STRBUF_INIT;

		for (size_t v = 0; v < cmp->nvariants; v++)
			series[v] = (struct plot_series){
				.label = cmp->variants[v].label,
				.samples = row->cells[v].samples,
				.n = row->cells[v].samples ? row->cells[v].sum.n : 0,
				.note = v ? row->name : NULL,
			};
		plot_ascii(row->name, series, cmp->nvariants, &ascii);
		plot_svg(row->name, cmp->name, series, cmp->nvariants, &svg);
		svgs[nsvgs++] = strbuf_detach(&svg);
	}
	plot_svg_stack((const char *const *)svgs, nsvgs, &page);
	check_no_control("SVG", &page);
	strbuf_reset(&page);
	plot_html_page(cmp->variants[0].label, (const char *const *)svgs,
		       nsvgs, &page);
	check_no_control("HTML", &page);
	for (size_t i = 0; i < nsvgs; i++)
		free(svgs[i]);
	strbuf_release(&page);
	strbuf_release(&ascii);
}

static void render_report(const struct comparison *const *cmps, size_t n,
			  const struct compare_options *opt,
			  const struct header *h)
{
	struct mail_addresses from = MAIL_ADDRESSES_INIT,
			      to = MAIL_ADDRESSES_INIT,
			      cc = MAIL_ADDRESSES_INIT;
	struct report_options ro = {
		.compare = opt,
		.from = &from,
		.to = &to,
		.cc = &cc,
		.in_reply_to = h->in_reply_to,
		.subject_prefix = h->prefix,
		.always = h->options & 0x40,
		.date = 1796001600,
		.unique = 0x5eed,
	};
	struct strbuf out = STRBUF_INIT;
	struct kd_err err = { .msg = "" };
	int ret;

	/* What does not parse is no address (kdelta report refuses it). */
	if (mail_addresses_parse(&from, h->from ? h->from : "kdelta <kdelta@localhost>", &err) < 0)
		mail_addresses_release(&from);
	if (h->to && mail_addresses_parse(&to, h->to, &err) < 0)
		mail_addresses_release(&to);
	if (h->cc && mail_addresses_parse(&cc, h->cc, &err) < 0)
		mail_addresses_release(&cc);
	err.msg[0] = '\0';
	ret = report_write(&ro, cmps, n, &out, &err);

	if (ret < 0)
		FUZZ_CHECK(err.msg[0], "report failed without a message");
	if (!ret)
		fuzz_check_mail(out.buf, out.len, mail_headers);
	mail_addresses_release(&from);
	mail_addresses_release(&to);
	mail_addresses_release(&cc);
	strbuf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct compare_state st = { 0 };
	struct compare_args a;
	struct fuzz_parts parts;
	struct header h;
	const char *job = NULL;
	size_t nvariants = 0, job_len = 0;

	gsl_set_error_handler_off();
	fuzz_split(data, size, '\f', MAX_VARIANTS + 2, &parts);
	header_parse(&h, parts.data[0], parts.len[0]);
	fuzz_remove("cmp");
	for (size_t i = 1; i < parts.n; i++) {
		if (parts.len[i] && parts.data[i][0] == 'j' && !job) {
			job = parts.data[i] + 1;
			job_len = parts.len[i] - 1;
		} else if (nvariants < MAX_VARIANTS) {
			char *copy = fuzz_memdup(parts.data[i], parts.len[i]);

			write_variant(nvariants++, copy, parts.len[i]);
			free(copy);
		}
	}
	if (job)
		write_job(nvariants, job, job_len);
	/* A variant with nothing is an empty directory. */
	for (size_t v = 0; v < nvariants; v++) {
		char *rel = xasprintf("cmp/v%zu/.keep", v);

		free(fuzz_write(rel, "", 0));
		free(rel);
	}
	if (nvariants >= 2 && load(&st, &a, h.options, nvariants) == 0) {
		const struct comparison *cmps[2];
		size_t n = h.options & 0x80 ? 2 : 1;

		apply_header(st.cmps[0], &h);
		cmps[0] = cmps[1] = st.cmps[0];
		render_tables(cmps, n, &a.q.opt,
			      h.metric ? h.metric
			      : st.cmps[0]->nrows ? st.cmps[0]->rows[0].name : NULL);
		render_plots(st.cmps[0]);
		render_report(cmps, n, &a.q.opt, &h);
	}
	if (nvariants >= 2)
		compare_args_release(&a);
	compare_state_release(&st);
	header_release(&h);
	return 0;
}
