/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_COMMIT_DIR_H
#define KDELTA_COMMIT_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "kdelta/err.h"
#include "kdelta/matrix.h"
#include "kdelta/resultdb.h"
#include "kdelta/strbuf.h"

/*
 * The runs of a commit directory, from their directories: complete ("ok",
 * or in lkp-tests' trees, which mark nothing, any with stats.json), failed
 * and incomplete; the first and the last one's mtime (0: no run).
 */
struct run_counts {
	size_t ok, failed, incomplete;
	size_t interrupted;	/* kdelta was stopped in them (store.h) */
	time_t first, last;
};

int result_dir_runs(const struct result_dir *dir, struct run_counts *out,
		    struct kd_err *err);

/* A run the machine disturbed (run_record_disturbance()). */
struct run_note {
	char *run;		/* the run's directory name: "3" */
	char *why;		/* "load average 5.20 above its 2 CPUs" */
};

/* What a commit directory's runs say, beside its matrix. */
struct commit_runs {
	size_t complete;	/* complete runs: the matrix's */
	size_t failed;		/* complete but failed */
	size_t incomplete;	/* started, never completed */
	size_t interrupted;	/* kdelta was stopped in them (store.h) */
	char *failure;		/* why the first failed run failed, or NULL */
	/*
	 * The complete runs' directory names in the order of the matrix's
	 * runs (NULL-terminated), or NULL when it does not say which is which.
	 */
	char **run_names;
	struct run_note *notes;	/* the disturbed runs */
	size_t nnotes;
	char *notice;		/* a stale matrix rebuilt: what to tell */
	/*
	 * Runs in virtual machines: the boot of each complete run, in
	 * run_names' order, when every run names one (else NULL); the kind
	 * of their timings, RUN_RECORD_TIMING_INSTRUCTIONS when any is
	 * instruction time, else RUN_RECORD_TIMING_EMULATED when any was
	 * emulated, else NULL (run_record_vm_timing()).
	 */
	char **boots;
	const char *timing;
};

void commit_runs_release(struct commit_runs *r);

/*
 * Loads a commit directory's matrix (matrix.json[.gz], else the stats.json
 * of its complete runs) and counts its runs into out: complete ones from
 * the matrix, failed and incomplete ones from the run directories.
 * kdelta's matrix.json.gz whose stats_source names other runs than those
 * marked ok is stale: the runs' stats.json are read instead, the file is
 * rewritten when it can be, and out->notice says so; when those cannot be
 * read, it is an error.
 */
int result_dir_load(const struct result_dir *dir, struct matrix *m,
		    struct commit_runs *out, struct kd_err *err);

/*
 * result_dir_load() in two steps, so that loading several directories is a
 * pipeline on every processor (one matrix parsed while another is
 * inflated; see compare-load.c): result_dir_read() scans the runs and
 * reads the matrix file's text into t; result_dir_finish() parses it into
 * m, fills out, releases t and returns what result_dir_load() would.  On
 * failure result_dir_read() leaves nothing to release.
 */
struct run_scan;
struct result_dir_text {
	struct run_scan *runs;
	char *path;		/* the matrix file; NULL: the runs' stats.json */
	struct strbuf text;	/* its contents, inflated */
};

int result_dir_read(const struct result_dir *dir, struct result_dir_text *t,
		    struct kd_err *err);
int result_dir_finish(const struct result_dir *dir, struct result_dir_text *t,
		      struct matrix *m, struct commit_runs *out,
		      struct kd_err *err);
void result_dir_text_release(struct result_dir_text *t);

/*
 * A complete "ok" run of kdelta's store, as bisect and the robot pair
 * runs: where it ran in its batch (run_record_place()), whether the
 * machine disturbed it, and its value of one metric.  Two runs ran
 * alongside each other, in one round of one batch, when their batch and
 * round are the same (runner.h).
 */
struct tagged_run {
	unsigned number;	/* the run directory's */
	char *tag;		/* kdelta.tag, or NULL */
	char *batch;		/* kdelta.batch, or NULL (older runs) */
	long round;		/* kdelta.round, -1 when absent */
	double start;		/* kdelta.start_time (epoch), 0 when absent */
	double value;		/* of the metric asked for; NAN: the run
				 * lacks it */
	char *disturbed;	/* why the machine disturbed it
				 * (run_record_disturbance()), or NULL */
};

struct tagged_runs {
	struct tagged_run *at;	/* in run order */
	size_t n;
	size_t failed;		/* runs marked failed (with tag, when asked) */
	char *failure;		/* the last one's reason, or NULL */
};

/*
 * The complete runs of commit_dir (no directory: none): the "ok" ones
 * whose kdelta.tag is tag (all when tag is NULL), with their value of
 * metric (NULL: none read), and the failed ones counted.
 */
int result_dir_tagged_runs(const char *commit_dir, const char *tag,
			   const char *metric, struct tagged_runs *out,
			   struct kd_err *err);
void tagged_runs_release(struct tagged_runs *r);

/*
 * The key results the job of commit_dir's runs declared (its first ok
 * run's record; key-result.h), none when it declared none.
 */
struct key_results;
int result_dir_key_results(const char *commit_dir, struct key_results *out,
			   struct kd_err *err);
/*
 * The job's key result: the first it declared, else the first result its
 * workload printed (store_key_result()); NULL when neither.  Caller frees.
 */
char *result_dir_key_result(const char *commit_dir);

#endif
