/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_MONITOR_H
#define KDELTA_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>

#include <jansson.h>

#include "kdelta/err.h"
#include "kdelta/job.h"
#include "kdelta/metric-rules.h"
#include "kdelta/schema.h"
#include "kdelta/strbuf.h"

#define MONITOR_UNAVAILABLE 1

/* What a monitor's hooks get: the run, and the monitor's own state. */
struct monitor_context {
	const struct jnode *params;	/* its section of the job, or NULL */
	const struct jnode *job_root;	/* the whole job, or NULL */
	const char *run_dir;		/* where its raw file goes */
	const char *work_dir;		/* where the workload runs, or NULL */
	const char *scratch_dir;	/* for its temporary files: see
					 * struct monitor_run */
	int cancel_fd;			/* readable: stop waiting; -1: none */
	const char *raw_path;		/* <run_dir>/<name>.gz */
	void *state;			/* the monitor's own, start() to release() */
	bool stopped;			/* stop() was called */
};

/* A file a sampled monitor reads at each sample. */
struct monitor_source {
	char *path;	/* as written, before $KDELTA_PROC_ROOT */
	char *label;	/* a line written before its text ("node: 1"), or NULL */
};

struct monitor_sources {
	struct monitor_source *items;
	size_t n, alloc;
};

/* Adds a source; label may be NULL.  Both are copied. */
void monitor_sources_add(struct monitor_sources *sources, const char *path,
			 const char *label);
void monitor_sources_release(struct monitor_sources *sources);

struct workload_usage;

/*
 * A monitor: one file in src/run/monitors/, one line in the registry
 * (src/monitors/registry.c).  It declares its parameters (section) and
 * what kdelta should know of its metrics (metrics: kinds, directions,
 * floors; kdelta/metric-rules.h) beside its code.
 *
 * A sampled monitor reads /proc or /sys files at its interval, in-process,
 * from the session's one sampler thread, and stores each sample in
 * "<name>.gz" in LKP's raw form: a "time: <epoch>" line, then each file's
 * text, each after its label line if it has one.  Other monitors write
 * their raw file themselves, in stop().  Statistics are extracted from the
 * raw files afterwards (kdelta stats), so that they can be extracted again
 * after a parser fix.
 */
struct raw_sample;
struct series_set;

struct monitor {
	struct param_section section;	/* name, summary, parameters */
	const struct metric_spec *metrics;	/* NULL-terminated, or NULL */
	/*
	 * Whether it runs when a job names no monitors; NULL: it does.  A
	 * monitor a job names runs whatever this says.
	 */
	bool (*by_default)(void);
	/*
	 * Whether it slows the workload measurably (perf-profile's call
	 * graphs: a few percent).  A monitor is no part of a job's identity
	 * (as in lkp-tests), so runs with and without it share a result
	 * directory: comparisons say when the runs they put together or side
	 * by side differ in it (comparison_add_matrices()).
	 */
	bool perturbs;

	/* Sampled: the file read, or NULL; or the files sources() lists. */
	const char *path;
	/*
	 * Lists the files to sample (every NUMA node's, ...): 0, or
	 * MONITOR_UNAVAILABLE with the reason in err, or -1 on error.
	 */
	int (*sources)(const struct monitor_context *ctx,
		       struct monitor_sources *out, struct kd_err *err);
	/* Why a file may be absent: "kernel without CONFIG_LATENCYTOP". */
	const char *missing_hint;
	/*
	 * Sampled once, at stop, after stop(), instead of at the interval: for
	 * sources that accumulate since start() (latency_stats).  A sampled
	 * monitor whose interval parameter has no default is sampled at start
	 * and at stop only, unless the job gives an interval.
	 */
	bool final_sample_only;

	/*
	 * Optional hooks, in this order.  start(): before the first sample;
	 * returns 0, or MONITOR_UNAVAILABLE with the reason in err (the run
	 * goes on without the monitor), or -1 on error.  stop(): once after a
	 * successful start(), when the workload ended (usage NULL when none
	 * ran), before the last sample; quick, since the last samples of
	 * other monitors wait for it.  finish(): after every monitor stopped,
	 * for slow work that must not be measured (perf report); a monitor
	 * that is not sampled writes raw_path in stop() or finish().
	 * release(): always last after a successful start(), whether or not
	 * stop() was called (ctx->stopped): frees state, undoes what start()
	 * began.
	 */
	int (*start)(struct monitor_context *ctx, struct kd_err *err);
	int (*stop)(struct monitor_context *ctx,
		    const struct workload_usage *usage, struct kd_err *err);
	int (*finish)(struct monitor_context *ctx, struct kd_err *err);
	void (*release)(struct monitor_context *ctx);

	/*
	 * Parses the raw file's decompressed text and adds the run's values as
	 * "<name>.<key>": number to stats (per-run aggregation by the kinds
	 * the monitor declares: counters last - first, gauges mean, rates
	 * mean rate).  raw is len bytes, not NUL-terminated, and may be NULL
	 * when len is 0; an empty raw file gives no metric.  raw holds no NUL
	 * byte: run_dir_extract() refuses a raw file with one.
	 */
	int (*extract)(const char *raw, size_t len, json_t *stats,
		       struct kd_err *err);
	/*
	 * Or, for the usual extraction (extract_series() of
	 * monitors/sampled.h): every sample of the raw file through this
	 * parser, then each series' run value by the kind the monitor's
	 * metrics declare.  name holds the metric prefix ("proc-vmstat.");
	 * the parser appends each field's name to it.
	 */
	int (*parse_sample)(const struct raw_sample *sample,
			    struct strbuf *name, struct series_set *set,
			    struct kd_err *err);
};

/*
 * The run values of a raw file's text (as struct monitor.extract): by
 * m's extract(), or its parse_sample() with extract_series().
 */
int monitor_extract(const struct monitor *m, const char *raw, size_t len,
		    json_t *stats, struct kd_err *err);

extern const struct monitor *const monitor_registry[];	/* NULL-terminated */
const struct monitor *monitor_find(const char *name);
/* Whether m runs for a job that names no monitors (its by_default()). */
bool monitor_by_default(const struct monitor *m);

/* What the workload's child used: for the "time" monitor. */
struct workload_usage {
	struct rusage ru;
	double elapsed;		/* seconds, wall clock */
};

/*
 * The "time" monitor's raw text, as GNU time -v writes it (LKP's "time"
 * file): "\tUser time (seconds): 0.123456" lines.  (Its own, public for its
 * tests.)
 */
void time_format(const struct workload_usage *usage, struct strbuf *out);

struct monitor_session;

/* The run a session watches. */
struct monitor_run {
	const struct jnode *job_root;	/* the job; NULL: default monitors */
	const char *run_dir;		/* where the raw files go */
	const char *work_dir;		/* where the workload runs, or NULL */
	int cancel_fd;			/* readable: stop waiting; -1: none */
	/*
	 * A private directory for the monitors' temporary files (perf's
	 * FIFOs, its recording): the run's workspace, which goes with the
	 * run, and after a kill -9 with the next run's clean-up of the work
	 * directory.  NULL (unit tests): $TMPDIR, or /tmp.
	 */
	const char *scratch_dir;
};

/*
 * Starts the job's monitors (its "monitors" key, or every monitor that runs
 * by default, at its default interval) writing into the run directory.  A
 * monitor whose source cannot be read (absent, or not permitted) is not an
 * error: it is listed by monitor_session_unavailable() with the reason.
 */
int monitors_start(const struct monitor_run *run,
		   struct monitor_session **out, struct kd_err *err);
/*
 * Calls each monitor's stop(), takes the last samples and closes the raw
 * files, then calls each monitor's finish(); usage is what the workload
 * used (NULL: no workload ran).  Returns
 * -1 when a sample could not be read or stored, at any time since the
 * start.
 */
int monitors_stop(struct monitor_session *session,
		  const struct workload_usage *usage, struct kd_err *err);
/* "name: reason" lines of monitors that were not available. */
void monitor_session_unavailable(const struct monitor_session *session,
				 struct strbuf *out);
void monitor_session_free(struct monitor_session *session);

/* The resources of pressure stall information, /proc/pressure/<name>. */
enum { PRESSURE_CPU, PRESSURE_IO, PRESSURE_MEMORY, PRESSURE_RESOURCES };

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
 * logs into a new object { "metric": number, ... } (kdelta stats).  A
 * directory with no job.yaml, completion mark, stats.json or raw monitor
 * file is no run directory, and an error.
 */
int run_dir_extract(const char *run_dir, json_t **stats, struct kd_err *err);
/* Writes stats as the run directory's stats.json, atomically, keys sorted. */
int run_dir_write_stats(const char *run_dir, const json_t *stats,
			struct kd_err *err);

#endif
