// SPDX-License-Identifier: GPL-2.0
/*
 * time: the workload's own resource usage (its child's rusage), written at
 * stop in GNU time -v's form, which is LKP's "time" file, and extracted as
 * LKP does: "\tUser time (seconds): 1.25" becomes time.user_time, the
 * parenthesised part dropped, blanks made '_', lower case.  Times carry
 * microseconds, where GNU time rounds to hundredths.
 */
#include <stdlib.h>
#include <unistd.h>

#include "kdelta/counters.h"
#include "kdelta/util.h"
#include "sampled.h"

static double seconds_of(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* "m:ss.ssssss", or "h:mm:ss.ssssss" from an hour on, as GNU time. */
static void format_elapsed(double seconds, struct strbuf *out)
{
	long whole = (long)seconds;
	double frac_seconds = seconds - (double)(whole - whole % 60);

	if (whole >= 3600)
		strbuf_addf(out, "%ld:%02ld:%09.6f", whole / 3600,
			    whole / 60 % 60, frac_seconds);
	else
		strbuf_addf(out, "%ld:%09.6f", whole / 60, frac_seconds);
}

void time_format(const struct workload_usage *usage, struct strbuf *out)
{
	const struct rusage *ru = &usage->ru;
	double user = seconds_of(&ru->ru_utime);
	double sys = seconds_of(&ru->ru_stime);

	strbuf_addf(out, "\tUser time (seconds): %.6f\n", user);
	strbuf_addf(out, "\tSystem time (seconds): %.6f\n", sys);
	if (usage->elapsed > 0)
		strbuf_addf(out, "\tPercent of CPU this job got: %d%%\n",
			    (int)(100 * (user + sys) / usage->elapsed));
	else
		strbuf_addstr(out, "\tPercent of CPU this job got: ?%\n");
	strbuf_addstr(out, "\tElapsed (wall clock) time (h:mm:ss or m:ss): ");
	format_elapsed(usage->elapsed, out);
	strbuf_addf(out,
		    "\n"
		    "\tAverage shared text size (kbytes): %ld\n"
		    "\tAverage unshared data size (kbytes): %ld\n"
		    "\tAverage stack size (kbytes): %ld\n"
		    "\tAverage total size (kbytes): %ld\n"
		    "\tMaximum resident set size (kbytes): %ld\n"
		    "\tAverage resident set size (kbytes): 0\n"
		    "\tMajor (requiring I/O) page faults: %ld\n"
		    "\tMinor (reclaiming a frame) page faults: %ld\n"
		    "\tVoluntary context switches: %ld\n"
		    "\tInvoluntary context switches: %ld\n"
		    "\tSwaps: %ld\n"
		    "\tFile system inputs: %ld\n"
		    "\tFile system outputs: %ld\n"
		    "\tSocket messages sent: %ld\n"
		    "\tSocket messages received: %ld\n"
		    "\tSignals delivered: %ld\n"
		    "\tPage size (bytes): %ld\n",
		    ru->ru_ixrss, ru->ru_idrss, ru->ru_isrss,
		    ru->ru_ixrss + ru->ru_idrss + ru->ru_isrss, ru->ru_maxrss,
		    ru->ru_majflt, ru->ru_minflt, ru->ru_nvcsw, ru->ru_nivcsw,
		    ru->ru_nswap, ru->ru_inblock, ru->ru_oublock, ru->ru_msgsnd,
		    ru->ru_msgrcv, ru->ru_nsignals, sysconf(_SC_PAGESIZE));
}

/* "Elapsed (wall clock) time (h:mm:ss or m:ss)" -> "elapsed_time". */
static void metric_name(const char *key, size_t len, struct strbuf *name)
{
	const char *end = key + len;

	while (key < end) {
		if (*key == ' ' && key + 1 < end && key[1] == '(') {
			const char *close = memchr(key, ')', (size_t)(end - key));

			if (close) {
				key = close + 1;
				continue;
			}
		}
		if (*key == ' ' || *key == '\t')
			strbuf_addch(name, '_');
		else
			strbuf_addch(name, (char)(*key >= 'A' && *key <= 'Z'
						  ? *key - 'A' + 'a' : *key));
		key++;
	}
}

/* "1:02:03.5" -> 3723.5 */
static bool parse_clock(const char *value, size_t len, double *out)
{
	const char *p = value, *end = value + len;

	*out = 0;
	while (p <= end) {
		const char *colon = memchr(p, ':', (size_t)(end - p));
		const char *part_end = colon ? colon : end;
		double part;

		if (!sampled_parse_number(p, (size_t)(part_end - p), &part))
			return false;
		*out = *out * 60 + part;
		if (!colon)
			return true;
		p = colon + 1;
	}
	return false;
}

/*
 * Every value GNU time writes is a count, seconds or a clock: digits, '.'
 * and ':' only -- no sign, exponent, hex, "nan" or "inf", which strtod()
 * would take.
 */
static bool plain_unsigned(const char *value, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!strchr("0123456789.:", value[i]))
			return false;
	return len > 0;
}

static bool parse_value(const char *name, const char *value, size_t len,
			double *out)
{
	if (!strcmp(name, "time.percent_of_cpu_this_job_got")) {
		if (len && value[len - 1] == '%')
			len--;
		if (len == 1 && value[0] == '?') {
			*out = 0;
			return true;
		}
	}
	if (!plain_unsigned(value, len))
		return false;
	if (!strcmp(name, "time.elapsed_time"))
		return parse_clock(value, len, out);
	return sampled_parse_number(value, len, out);
}

static int time_extract(const char *raw, size_t len, json_t *stats,
			struct kd_err *err)
{
	const char *pos = raw, *end, *line;
	struct strbuf name = STRBUF_INIT;
	size_t line_len;
	int rc = 0;

	if (!len)	/* raw may be NULL */
		return 0;
	end = raw + len;
	while (!rc && next_line(&pos, end, &line, &line_len)) {
		const char *sep = memmem(line, line_len, ": ", 2);
		const char *key = line, *value;
		double v;

		while (key < line + line_len && (*key == ' ' || *key == '\t'))
			key++;
		if (!sep || sep < key ||
		    ((size_t)(sep - key) >= 19 &&
		     !memcmp(key, "Command being timed", 19)))
			continue;
		value = sep + 2;
		strbuf_reset(&name);
		strbuf_addstr(&name, "time.");
		metric_name(key, (size_t)(sep - key), &name);
		/* No name (": 0", or NULs, which end it): no measurement. */
		if (!name.buf[strlen("time.")])
			continue;
		if (!parse_value(name.buf, value, (size_t)(line + line_len - value), &v))
			rc = kd_error(err, "bad line '%.*s': expected a number",
				      (int)(line_len > 80 ? 80 : line_len), line);
		else
			metric_set(stats, name.buf, v);
	}
	strbuf_release(&name);
	return rc;
}

/* The raw file, at stop: what the workload's child used. */
static int time_stop(struct monitor_context *ctx,
		     const struct workload_usage *usage, struct kd_err *err)
{
	struct strbuf text = STRBUF_INIT;
	int rc;

	if (!usage)
		return 0;	/* no workload ran */
	time_format(usage, &text);
	rc = write_file_atomic_gz(ctx->raw_path, text.buf, text.len, err);
	strbuf_release(&text);
	return rc;
}

static const struct param_spec time_params[] = {
	{ .name = NULL },
};

/* lkp-tests' etc/perf-metrics-threshold.yaml "NAME: v": above v, v / 2 apart. */
#define FLOOR(name, v, half) METRIC_FLOOR(5, v, half, 0,                      \
	"time." name ": 5%, above " #v ", " #half " apart")

#define SECONDS(name) METRIC_FLOOR(5, 10, 5, 0,                               \
	"time." name ": 5%, above 10 s, 5 s apart")
#define EVENTS(name) FLOOR(name, 1000, 500)
#define BLOCKS(name) FLOOR(name, 10000, 5000)

static const struct metric_spec time_metrics[] = {
	{ "elapsed_time*", .better = -1, .floor = SECONDS("elapsed_time*") },
	{ "user_time", .better = -1, .floor = SECONDS("user_time") },
	{ "system_time", .better = -1, .floor = SECONDS("system_time") },
	{ "major_page_faults", .floor = EVENTS("major_page_faults") },
	{ "minor_page_faults", .floor = EVENTS("minor_page_faults") },
	{ "voluntary_context_switches",
	  .floor = EVENTS("voluntary_context_switches") },
	{ "involuntary_context_switches",
	  .floor = EVENTS("involuntary_context_switches") },
	{ "swaps", .floor = EVENTS("swaps") },
	{ "file_system_inputs", .floor = BLOCKS("file_system_inputs") },
	{ "file_system_outputs", .floor = BLOCKS("file_system_outputs") },
	{ "socket_messages_*", .floor = BLOCKS("socket_messages_*") },
	{ NULL },
};

const struct monitor monitor_time = {
	.section = {
		.name = "time",
		.summary = "the workload's own CPU time, page faults, context switches and I/O (its rusage)",
		.params = time_params,
	},
	.metrics = time_metrics,
	.stop = time_stop,
	.extract = time_extract,
};
