/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_MONITOR_H
#define KDELTA_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>

#include <jansson.h>

#include "kdelta/err.h"
#include "kdelta/job.h"
#include "kdelta/schema.h"
#include "kdelta/strbuf.h"

/*
 * A monitor: one file in src/monitors/, one line in the registry
 * (src/monitors/registry.c).  Sampled monitors read one /proc file at their
 * interval, in-process, and store each sample in "<name>.gz" in LKP's raw
 * form: a "time: <epoch>" line, then the file's text.  Statistics are
 * extracted from the raw files afterwards (kdelta stats), so that they can be
 * extracted again after a parser fix.
 */
struct monitor {
	struct param_section section;	/* name, summary, parameters */
	const char *path;		/* the file sampled; NULL: not sampled */
	/*
	 * Optional: prepare the source (latency_stats: enable and clear).  A
	 * failing begin() makes the monitor unavailable, with err as reason.
	 */
	int (*begin)(const struct jnode *params, struct kd_err *err);
	/* Optional: called after the workload ended, before the last sample. */
	int (*end)(const struct jnode *params, struct kd_err *err);
	/*
	 * Parses the raw file's decompressed text and adds the run's values as
	 * "<name>.<key>": number to stats (per-run aggregation as DESIGN.md
	 * says: counters last - first, gauges mean, rates mean rate).  raw is
	 * len bytes, not NUL-terminated, and may be NULL when len is 0; an
	 * empty raw file gives no metric.
	 */
	int (*extract)(const char *raw, size_t len, json_t *stats,
		       struct kd_err *err);
	/* Why path may be absent: "kernel without CONFIG_LATENCYTOP". */
	const char *missing_hint;
	/*
	 * Sampled once, at stop, after end(), instead of at the interval: for
	 * sources that accumulate since begin() (latency_stats).
	 */
	bool final_sample_only;
};

extern const struct monitor *const monitor_registry[];	/* NULL-terminated */
const struct monitor *monitor_find(const char *name);

/* What the workload's child used: for the "time" monitor. */
struct workload_usage {
	struct rusage ru;
	double elapsed;		/* seconds, wall clock */
};

/*
 * The "time" monitor's raw text, as GNU time -v writes it (LKP's "time"
 * file): "\tUser time (seconds): 0.123456" lines.
 */
void time_format(const struct workload_usage *usage, struct strbuf *out);

struct monitor_session;

/*
 * Starts the job's monitors (its "monitors" key, or every monitor at its
 * default interval) writing into run_dir.  A monitor whose source cannot be
 * read (absent, or not permitted) is not an error: it is listed by
 * monitor_session_unavailable() with the reason.
 */
int monitors_start(const struct jnode *job_root, const char *run_dir,
		   struct monitor_session **out, struct kd_err *err);
/*
 * Calls end(), takes the last samples, writes the "time" raw file (unless
 * usage is NULL: no workload ran) and closes the raw files.  Returns -1 when
 * a sample could not be read or stored, at any time since the start.
 */
int monitors_stop(struct monitor_session *session,
		  const struct workload_usage *usage, struct kd_err *err);
/* "name: reason" lines of monitors that were not available. */
void monitor_session_unavailable(const struct monitor_session *session,
				 struct strbuf *out);
void monitor_session_free(struct monitor_session *session);

/*
 * The path of a /proc file: path itself, or $KDELTA_PROC_ROOT followed by
 * path when that is set (tests point monitors at captured files that way).
 * Caller frees.
 */
char *monitor_proc_path(const char *path);

/* One sample of a raw file: its "time: <epoch>" and the text after it. */
struct raw_sample {
	double time;
	const char *text;
	size_t len;
};

/*
 * Iterates over the samples of a raw file's text (len bytes, not
 * NUL-terminated; NULL when len is 0), from *pos (0 at first).  Returns 1
 * with *sample filled, 0 after the last sample, or -1 when the text does
 * not start with a "time: " line or its epoch is not a plain decimal
 * number (digits, optionally one fraction: no sign, exponent, hex, "nan").
 */
int raw_next_sample(const char *raw, size_t len, size_t *pos,
		    struct raw_sample *sample, struct kd_err *err);

/*
 * Extracts the stats of a run directory from its raw files and workload
 * logs into a new object { "metric": number, ... } (kdelta stats).
 */
int run_dir_extract(const char *run_dir, json_t **stats, struct kd_err *err);
/* Writes stats as the run directory's stats.json, atomically, keys sorted. */
int run_dir_write_stats(const char *run_dir, const json_t *stats,
			struct kd_err *err);

#endif
