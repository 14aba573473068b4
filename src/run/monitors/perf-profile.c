// SPDX-License-Identifier: GPL-2.0
/*
 * perf-profile: where the CPUs spent the run, from a system-wide call-graph
 * profile ("perf record -a -g", the tool of Debian's linux-perf), as LKP
 * reports it:
 *
 *   perf-profile.self.cycles-pp.<function>       percent of the samples in
 *                                                the function itself
 *   perf-profile.children.cycles-pp.<function>   ... in it or its callees
 *   perf-profile.calltrace.cycles-pp.<chain>     ... in this call chain: the
 *                                                function and up to 4 of
 *                                                its callers, callee first,
 *                                                joined by '.'
 *
 * The event is CPU cycles where the PMU counts them ("cycles:pp" as precise
 * as it allows), the cpu-clock timer otherwise; either way the metrics are
 * called cycles-pp, so that profiles of machines with and without a PMU
 * compare, and the raw file says which event it was.  Functions lose the
 * compiler's .isra.N, .constprop.N and .part.N suffixes; what becomes the
 * same name adds up.  Kept as lkp-tests keeps them: call chains that reach
 * 0.5% of the samples (perf report's threshold), and every value of at
 * least 0.05, in hundredths.  They change in points.
 *
 * Off unless a job names it: recording call graphs costs a few percent.
 * The raw file is LKP's: "perf report --children --header -U -g
 * folded,0.5,callee --sort=dso,symbol" of the recording, which kdelta
 * deletes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kdelta/counters.h"
#include "kdelta/proc.h"
#include "kdelta/util.h"
#include "perf.h"
#include "sampled.h"

/* perf report takes long on a long run's profile, not forever. */
#define REPORT_TIMEOUT 600.0
/* Call chains deeper than this share a name (LKP's). */
#define CHAIN_DEPTH 5

struct perf_profile {
	struct perf_run run;
	bool recorded;		/* perf record ended well */
};

static void perf_profile_release(struct monitor_context *ctx)
{
	struct perf_profile *pp = ctx->state;

	if (!pp)
		return;
	perf_release(&pp->run);
	free(pp);
	ctx->state = NULL;
}

static const char *param(const struct jnode *params, const char *name)
{
	const char *value = params && params->kind == JNODE_MAP
				    ? jnode_str(params, name) : NULL;

	return value && *value ? value : NULL;
}

/* -c PERIOD, or -F FREQ when the job gives a frequency. */
static void sampling_args(const struct jnode *params, char *opt, char *value,
			  size_t len)
{
	const char *freq = param(params, "freq"), *period = param(params, "period");

	strcpy(opt, freq ? "-F" : "-c");
	snprintf(value, len, "%s", freq ? freq : period ? period : "1000003");
}

/* A duration parameter in seconds, or -1 when the job gives none. */
static double seconds(const struct jnode *params, const char *name)
{
	return param(params, name) ? jnode_duration(params, name) : -1;
}

static int perf_profile_start(struct monitor_context *ctx, struct kd_err *err)
{
	struct perf_profile *pp = xcalloc(1, sizeof(*pp));
	double delay = seconds(ctx->params, "delay");
	double duration = seconds(ctx->params, "duration");
	char opt[4], value[32], *data;
	int rc;

	ctx->state = pp;
	if (perf_prepare(&pp->run, ctx->scratch_dir, err) < 0) {
		perf_profile_release(ctx);
		return -1;
	}
	sampling_args(ctx->params, opt, value, sizeof(value));
	data = perf_path(&pp->run, "perf.data");
	{
		const char *args[] = { "record", "-q", "-a", "-g", "-e",
				       perf_cycles_event(), opt, value, "-D",
				       "-1", "-o", data, NULL };

		/* Events off until enabled: now, or after LKP's delay. */
		rc = perf_start(&pp->run, args, delay > 0 ? "ping\n" : "enable\n",
				ctx->cancel_fd, err);
	}
	if (!rc && (delay > 0 || duration >= 0))
		rc = perf_schedule(&pp->run, delay > 0 ? delay : -1,
				   duration >= 0 ? (delay > 0 ? delay : 0) + duration
						 : -1, err);
	free(data);
	if (rc)
		perf_profile_release(ctx);
	return rc;
}

static int perf_profile_stop(struct monitor_context *ctx,
			     const struct workload_usage *usage,
			     struct kd_err *err)
{
	struct perf_profile *pp = ctx->state;

	(void)usage;
	if (perf_stop(&pp->run, true, err) < 0)
		return -1;
	pp->recorded = true;
	return 0;
}

/* perf report of the recording, as LKP asks it, into the raw file. */
static int perf_profile_finish(struct monitor_context *ctx, struct kd_err *err)
{
	struct perf_profile *pp = ctx->state;
	char *data = perf_path(&pp->run, "perf.data");
	const char *argv[] = { "perf", "report", "--children", "--header",
			       "-U", "-g", "folded,0.5,callee",
			       "--sort=dso,symbol", "-i", data, NULL };
	struct proc report = PROC_INIT;
	struct strbuf how = STRBUF_INIT;
	int rc;

	report.argv = argv;
	report.out = PROC_PIPE;
	report.cancel_fd = ctx->cancel_fd;
	report.timeout = REPORT_TIMEOUT;
	rc = pp->recorded ? proc_run(&report, err) : 0;
	if (!rc && pp->recorded &&
	    (report.end != PROC_EXITED || report.status)) {
		proc_describe_end(&report, &how);
		if (report.err_buf.len) {
			strbuf_addstr(&how, ": ");
			text_tail_lines(report.err_buf.buf, report.err_buf.len,
					2, 300, &how);
		}
		rc = kd_error(err, "perf report %s", how.buf);
	}
	if (!rc && pp->recorded)
		rc = write_file_atomic_gz(ctx->raw_path, report.out_buf.buf,
					  report.out_buf.len, err);
	strbuf_release(&how);
	proc_clear(&report);
	free(data);
	return rc;
}

/* name -> percent, summed, in the order names first appear. */
struct percents {
	struct series_set set;
};

/* "foo.isra.0" -> "foo" */
static void add_function(struct strbuf *out, const char *name, size_t len)
{
	static const char *const suffixes[] = { ".isra.", ".constprop.",
						".part." };
	const char *end = name + len;

	while (name < end) {
		size_t skip = 0;

		for (size_t i = 0; i < ARRAY_SIZE(suffixes) && !skip; i++) {
			size_t n = strlen(suffixes[i]);

			if ((size_t)(end - name) > n &&
			    !memcmp(name, suffixes[i], n) && name[n] >= '0' &&
			    name[n] <= '9') {
				skip = n;
				while (name + skip < end && name[skip] >= '0' &&
				       name[skip] <= '9')
					skip++;
			}
		}
		if (skip) {
			name += skip;
			continue;
		}
		strbuf_addch(out, *name++);
	}
}

static bool perf_percent(const char *word, size_t len, double *out)
{
	return len > 1 && word[len - 1] == '%' &&
	       sampled_parse_number(word, len - 1, out);
}

/*
 * "    34.03%     4.11%  [kernel.kallsyms]  [k] do_syscall_64   -   -":
 * children and self percent, the object, the kind, the function, and
 * perf's IPC columns, when there.
 */
static bool parse_entry(const char *line, size_t len, struct percents *p,
			struct strbuf *name)
{
	const char *pos = line, *end = line + len, *w[7];
	size_t l[7], n = 0;
	double children, self;

	while (n < 7 && next_word(&pos, end, &w[n], &l[n]))
		n++;
	if ((n != 5 && n != 7) || next_word(&pos, end, &w[0], &l[0]) ||
	    !perf_percent(w[0], l[0], &children) ||
	    !perf_percent(w[1], l[1], &self))
		return false;
	strbuf_reset(name);
	strbuf_addstr(name, "children.cycles-pp.");
	add_function(name, w[4], l[4]);
	series_add(&p->set, name->buf, 0, children);
	strbuf_reset(name);
	strbuf_addstr(name, "self.cycles-pp.");
	add_function(name, w[4], l[4]);
	series_add(&p->set, name->buf, 0, self);
	return true;
}

/* "5.40% entry_SYSCALL_64_after_hwframe;read": a folded call chain. */
static bool parse_chain(const char *line, size_t len, struct percents *p,
			struct strbuf *name)
{
	const char *pos = line, *end = line + len, *pct, *chain, *extra;
	size_t pct_len, chain_len, extra_len, depth = 0;
	double percent;

	if (!next_word(&pos, end, &pct, &pct_len) ||
	    !next_word(&pos, end, &chain, &chain_len) ||
	    next_word(&pos, end, &extra, &extra_len) ||
	    !perf_percent(pct, pct_len, &percent))
		return false;
	strbuf_reset(name);
	strbuf_addstr(name, "calltrace.cycles-pp");
	for (const char *f = chain, *chain_end = chain + chain_len;
	     f < chain_end && depth < CHAIN_DEPTH; depth++) {
		const char *semi = memchr(f, ';', (size_t)(chain_end - f));
		const char *f_end = semi ? semi : chain_end;

		strbuf_addch(name, '.');
		add_function(name, f, (size_t)(f_end - f));
		f = f_end + 1;
	}
	series_add(&p->set, name->buf, 0, percent);
	return true;
}

/* Kept: at least 0.05, in hundredths, as lkp-tests prints them. */
static void emit(const struct percents *p, json_t *stats)
{
	for (size_t i = 0; i < p->set.n; i++) {
		const struct series *s = &p->set.items[i];
		char hundredths[64], *metric;

		if (!(s->sum >= 0.05))
			continue;
		snprintf(hundredths, sizeof(hundredths), "%.2f", s->sum);
		metric = xasprintf("perf-profile.%s", s->metric);
		metric_set(stats, metric, strtod(hundredths, NULL));
		free(metric);
	}
}

/*
 * perf report's text: header lines ('#'), then per function its entry line
 * followed by its folded call chains.  Lines before the first "# Samples:"
 * line, and lines of neither form, are not counted.
 */
static int perf_profile_extract(const char *raw, size_t len, json_t *stats,
				struct kd_err *err)
{
	const char *pos = raw, *end, *line;
	struct percents p = { SERIES_SET_INIT };
	struct strbuf name = STRBUF_INIT;
	bool samples = false;
	size_t line_len;

	(void)err;
	if (!len)	/* raw may be NULL */
		return 0;
	end = raw + len;
	while (next_line(&pos, end, &line, &line_len)) {
		if (line_len && line[0] == '#') {
			if (line_len > 11 && !memcmp(line, "# Samples: ", 11))
				samples = true;
			continue;
		}
		if (samples && !parse_entry(line, line_len, &p, &name))
			parse_chain(line, line_len, &p, &name);
	}
	emit(&p, stats);
	series_release(&p.set);
	strbuf_release(&name);
	return 0;
}

static const struct param_spec perf_profile_params[] = {
	{ .name = "period", .type = PARAM_INT, .def = "1000003", .min = "1",
	  .help = "events between two samples (perf record -c): cycles, or nanoseconds of cpu-clock" },
	{ .name = "freq", .type = PARAM_INT, .min = "1",
	  .help = "samples per second instead of a period (perf record -F)" },
	{ .name = "delay", .type = PARAM_DURATION, .min = "0",
	  .help = "time from the start (just before the workload) to the first sample; default: none" },
	{ .name = "duration", .type = PARAM_DURATION, .min = "0.01s",
	  .help = "time the profile lasts from its first sample; default: until the workload ends" },
	{ .name = NULL },
};

/*
 * After lkp-tests' etc/perf-metrics-threshold.yaml "perf-profile.*: 1": the
 * larger maximum above 1 point (2 for native_queued_spin_lock_slowpath),
 * and the means half a point apart, which its "v / 2" means but Ruby's
 * integer division makes 0.  No relative change: a function going from 2%
 * to 3% of the CPU time is news.
 */
static const struct metric_spec perf_profile_metrics[] = {
	/*
	 * A function or chain a profile lacks had fewer samples than it
	 * keeps (above): none, as lkp-tests counts it.
	 */
	{ "*", .points = true, .absent_zero = true,
	  .floor = METRIC_FLOOR(0, 1, 0.5, 0,
				"perf-profile.*: above 1, 0.5 points apart") },
	{ "children.cycles-pp.native_queued_spin_lock_slowpath",
	  .floor = METRIC_FLOOR(0, 2, 0.5, 0,
		"perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath: above 2, 0.5 points apart") },
	{ NULL },
};

static bool never(void)
{
	return false;
}

const struct monitor monitor_perf_profile = {
	.section = {
		.name = "perf-profile",
		.summary = "where the CPUs spent the run: LKP's call-graph profile of perf record; off unless named",
		.params = perf_profile_params,
	},
	.metrics = perf_profile_metrics,
	.by_default = never,
	.perturbs = true,
	.start = perf_profile_start,
	.stop = perf_profile_stop,
	.finish = perf_profile_finish,
	.release = perf_profile_release,
	.extract = perf_profile_extract,
};
