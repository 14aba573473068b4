// SPDX-License-Identifier: GPL-2.0
/*
 * perf-stat: system-wide event counts over the run, from
 * "perf stat -a -x , -I <interval>" (the tool of Debian's linux-perf),
 * named as LKP names them:
 *
 *   perf-stat.i.<event>    per second, the mean over the intervals
 *   perf-stat.ps.<event>   per second over the whole run
 *   perf-stat.total.instructions
 *   perf-stat.i.<ratio>, perf-stat.overall.<ratio>   where the PMU counts
 *       what they need: ipc and cpi (cpu-cycles, instructions),
 *       <x>-miss-rate% (cache-misses of cache-references, branch-misses of
 *       branch-instructions), cycles-between-cache-misses, MPKI
 *
 * Events: CPU cycles, instructions, cache references and misses, branches
 * and branch misses where a PMU counts them; task-clock (msec), cpu-clock,
 * page faults, context switches and migrations everywhere.  Unlike LKP's,
 * the last, shorter interval counts too: kdelta's runs are short.  The raw
 * file is LKP's: the command line, then perf's output.
 */
#include <math.h>
#include <stdlib.h>

#include "kdelta/counters.h"
#include "kdelta/util.h"
#include "perf.h"
#include "sampled.h"

#define EVENTS "cpu-cycles,instructions,cache-references,cache-misses," \
	"branch-instructions,branch-misses,cpu-clock,task-clock,"      \
	"page-faults,context-switches,cpu-migrations,minor-faults,"    \
	"major-faults"
#define MAX_EVENTS 32
/* perf stat warns of its overhead below 100 ms. */
#define MIN_INTERVAL "0.1s"

struct perf_stat {
	struct perf_run run;
	struct strbuf command;	/* the raw file's first line */
};

static void perf_stat_release(struct monitor_context *ctx)
{
	struct perf_stat *ps = ctx->state;

	if (!ps)
		return;
	perf_release(&ps->run);
	strbuf_release(&ps->command);
	free(ps);
	ctx->state = NULL;
}

static int perf_stat_start(struct monitor_context *ctx, struct kd_err *err)
{
	struct perf_stat *ps = xcalloc(1, sizeof(*ps));
	double interval = 1, least;
	char ms[32], *out;
	int rc;

	if (ctx->params && ctx->params->kind == JNODE_MAP &&
	    jnode_get(ctx->params, "interval"))
		interval = jnode_duration(ctx->params, "interval");
	/* Job files are checked; this is for jobs made otherwise. */
	if (parse_duration(MIN_INTERVAL, &least, NULL) < 0 ||
	    !(interval >= least)) {
		free(ps);
		return kd_error(err, "interval %gs is too short: the least is %s",
				interval, MIN_INTERVAL);
	}
	snprintf(ms, sizeof(ms), "%.0f", interval * 1000);
	strbuf_init(&ps->command);
	ctx->state = ps;
	if (perf_prepare(&ps->run, ctx->scratch_dir, err) < 0) {
		perf_stat_release(ctx);
		return -1;
	}
	out = perf_path(&ps->run, "stat.csv");
	{
		const char *args[] = { "stat", "-a", "-x", ",", "-I", ms, "-e",
				       EVENTS, "-o", out, NULL };

		strbuf_addstr(&ps->command, "perf");
		for (size_t i = 0; args[i]; i++)
			strbuf_addf(&ps->command, " %s", args[i]);
		rc = perf_start(&ps->run, args, "enable\n", ctx->cancel_fd,
				err);
	}
	free(out);
	if (rc)
		perf_stat_release(ctx);
	return rc;
}

static int perf_stat_stop(struct monitor_context *ctx,
			  const struct workload_usage *usage,
			  struct kd_err *err)
{
	struct perf_stat *ps = ctx->state;

	(void)usage;
	return perf_stop(&ps->run, false, err);
}

/* The raw file: the command line, then perf's output. */
static int perf_stat_finish(struct monitor_context *ctx, struct kd_err *err)
{
	struct perf_stat *ps = ctx->state;
	char *out = perf_path(&ps->run, "stat.csv");
	struct strbuf raw = STRBUF_INIT;
	int rc;

	strbuf_addf(&raw, "%s\n", ps->command.buf);
	rc = read_file(out, &raw, err);
	if (!rc)
		rc = write_file_atomic_gz(ctx->raw_path, raw.buf, raw.len, err);
	strbuf_release(&raw);
	free(out);
	return rc;
}

/* An event's counts: this interval's, and the run's. */
struct event {
	char name[64];
	double interval, total;
	double rate_sum;	/* of the per-second rates of the intervals */
	bool in_interval;
};

struct counts {
	struct event events[MAX_EVENTS];
	size_t n;
	double interval_start, interval_time, end;
	size_t nintervals;
	/* Ratios of each interval, summed, by name. */
	struct series_set ratios;
};

static struct event *event_of(struct counts *c, const char *name, size_t len)
{
	for (size_t i = 0; i < c->n; i++)
		if (strlen(c->events[i].name) == len &&
		    !memcmp(c->events[i].name, name, len))
			return &c->events[i];
	if (c->n == MAX_EVENTS || len >= sizeof(c->events[0].name))
		return NULL;
	memset(&c->events[c->n], 0, sizeof(c->events[0]));
	memcpy(c->events[c->n].name, name, len);
	return &c->events[c->n++];
}

static double sum_of(const struct counts *c, const char *name, bool run)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->events[i].name, name))
			return run ? c->events[i].total
				   : (c->events[i].in_interval
					      ? c->events[i].interval : 0);
	return 0;
}

typedef void ratio_out(void *arg, const char *name, double value);

/*
 * LKP's derived metrics (its perf-stat parser's "addon keys") from the sums
 * of an interval or of the run.
 */
static void ratios(const struct counts *c, bool run, ratio_out *out,
		   void *arg)
{
	static const char *const bases[] = { "s", "-references",
					     "-instructions" };
	double cycles = sum_of(c, "cpu-cycles", run);
	double instructions = sum_of(c, "instructions", run);

	for (size_t i = 0; i < c->n; i++) {
		const char *name = c->events[i].name;
		size_t len = strlen(name);
		double misses = sum_of(c, name, run);
		char stem[64], metric[96];

		if (len <= 7 || strcmp(name + len - 7, "-misses"))
			continue;
		snprintf(stem, sizeof(stem), "%.*s", (int)(len - 7), name);
		for (size_t b = 0; b < ARRAY_SIZE(bases); b++) {
			char base[96];
			double of;

			snprintf(base, sizeof(base), "%s%s", stem, bases[b]);
			of = sum_of(c, base, run);
			if (!of)
				continue;
			snprintf(metric, sizeof(metric), "%s-miss-rate%%", stem);
			out(arg, metric, 100 * misses /
					 (b == 0 ? of + misses : of));
			break;
		}
		if (!strcmp(name, "cache-misses") && misses) {
			if (cycles)
				out(arg, "cycles-between-cache-misses",
				    cycles / misses);
			if (instructions)
				out(arg, "MPKI", misses / instructions * 1000);
		}
	}
	if (cycles && instructions) {
		out(arg, "ipc", instructions / cycles);
		out(arg, "cpi", cycles / instructions);
	}
}

struct interval_ratio {
	struct series_set *set;
	double time;
};

static void add_interval_ratio(void *arg, const char *name, double value)
{
	struct interval_ratio *r = arg;

	series_add(r->set, name, r->time, value);
}

/* The interval that ended at c->interval_time is complete. */
static void close_interval(struct counts *c)
{
	double seconds = c->interval_time - c->interval_start;
	struct interval_ratio r = { &c->ratios, c->interval_time };

	if (!c->interval_time)
		return;
	for (size_t i = 0; i < c->n; i++) {
		struct event *e = &c->events[i];

		if (!e->in_interval)
			continue;
		if (seconds > 0)
			e->rate_sum += e->interval / seconds;
	}
	ratios(c, false, add_interval_ratio, &r);
	for (size_t i = 0; i < c->n; i++)
		c->events[i].in_interval = false;
	c->nintervals++;
	c->end = c->interval_time;
	c->interval_start = c->interval_time;
	c->interval_time = 0;
}

/*
 * "1.001075264,2008.12,msec,cpu-clock,2008121455,100.00,2.008,CPUs utilized"
 * -- time, value, unit, event, ...; "<not supported>" and "<not counted>"
 * values count nothing.  Other lines (the command, "# started on ...") are
 * not perf's counts.
 */
static int parse_line(const char *line, size_t len, struct counts *c,
		      struct kd_err *err)
{
	const char *field[4], *end = line + len, *p = line;
	size_t flen[4];
	double time, value;
	struct event *e;

	for (int i = 0; i < 4; i++) {
		const char *comma = memchr(p, ',', (size_t)(end - p));

		field[i] = p;
		flen[i] = (size_t)((comma ? comma : end) - p);
		if (!comma && i < 3)
			return 0;
		p = comma ? comma + 1 : end;
	}
	while (flen[0] && *field[0] == ' ') {
		field[0]++;
		flen[0]--;
	}
	if (!sampled_parse_number(field[0], flen[0], &time))
		return 0;
	if (time != c->interval_time)
		close_interval(c);
	c->interval_time = time;
	if (!sampled_parse_number(field[1], flen[1], &value))
		return flen[1] && *field[1] == '<' ? 0 :
		       kd_error(err, "bad line '%.*s': expected a count",
				(int)(len > 80 ? 80 : len), line);
	/* "cpu_atom/cpu-cycles/" on hybrid machines: the event */
	if (flen[3] > 2 && field[3][flen[3] - 1] == '/') {
		const char *slash = memchr(field[3], '/', flen[3] - 1);

		if (slash) {
			flen[3] -= (size_t)(slash + 1 - field[3]) + 1;
			field[3] = slash + 1;
		}
	}
	e = event_of(c, field[3], flen[3]);
	if (!e || time < c->interval_start)
		return kd_error(err, "bad line '%.*s': too many events, or time going back",
				(int)(len > 80 ? 80 : len), line);
	e->interval = value;
	e->in_interval = true;
	e->total += value;
	return 0;
}

static void add_overall(void *arg, const char *name, double value)
{
	char *metric = xasprintf("perf-stat.overall.%s", name);

	metric_set(arg, metric, value);
	free(metric);
}

static void emit(const struct counts *c, json_t *stats)
{
	double instructions = sum_of(c, "instructions", true);

	for (size_t i = 0; c->nintervals && c->end > 0 && i < c->n; i++) {
		const struct event *e = &c->events[i];
		char *metric;

		metric = xasprintf("perf-stat.i.%s", e->name);
		metric_set(stats, metric, e->rate_sum / (double)c->nintervals);
		free(metric);
		metric = xasprintf("perf-stat.ps.%s", e->name);
		metric_set(stats, metric, e->total / c->end);
		free(metric);
	}
	for (size_t i = 0; i < c->ratios.n; i++) {
		const struct series *s = &c->ratios.items[i];
		char *metric = xasprintf("perf-stat.i.%s", s->metric);

		metric_set(stats, metric, s->sum / (double)s->n);
		free(metric);
	}
	if (instructions)
		metric_set(stats, "perf-stat.total.instructions", instructions);
	ratios(c, true, add_overall, stats);
}

static int perf_stat_extract(const char *raw, size_t len, json_t *stats,
			     struct kd_err *err)
{
	struct counts *c;
	const char *pos = raw, *end, *line;
	size_t line_len;
	int rc = 0;

	if (!len)	/* raw may be NULL */
		return 0;
	c = xcalloc(1, sizeof(*c));
	end = raw + len;
	while (!rc && next_line(&pos, end, &line, &line_len))
		rc = parse_line(line, line_len, c, err);
	if (!rc) {
		close_interval(c);
		emit(c, stats);
	}
	series_release(&c->ratios);
	free(c);
	return rc;
}

static const struct param_spec perf_stat_params[] = {
	{ .name = "interval", .type = PARAM_DURATION, .def = "1s",
	  .min = MIN_INTERVAL,
	  .help = "perf stat's interval (-I), at least " MIN_INTERVAL },
	{ .name = NULL },
};

static const struct metric_spec perf_stat_metrics[] = {
	{ "*.ipc", .better = +1 },
	{ NULL },
};

const struct monitor monitor_perf_stat = {
	.section = {
		.name = "perf-stat",
		.summary = "system-wide counts of perf stat: context switches, migrations, page faults, CPU time; IPC, cache and branch ratios where a PMU counts them",
		.params = perf_stat_params,
	},
	.metrics = perf_stat_metrics,
	.start = perf_stat_start,
	.stop = perf_stat_stop,
	.finish = perf_stat_finish,
	.release = perf_stat_release,
	.extract = perf_stat_extract,
};
