/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_STORE_H
#define KDELTA_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kdelta/err.h"

/*
 * The result store (docs/design.md "5. The store"):
 *
 *   RESULT_ROOT/<testcase>/<param-dir>/<host>/<commit>/
 *       0/ 1/ ...              one directory per run
 *           job.yaml           the expanded job as it ran, plus the keys
 *                              commit, host, machine: {...}, kdelta: {...}
 *           <monitor>.gz       raw samples
 *           <prefix>.log       the workload's "key: value" output
 *           <prefix>.stderr    the workload's stderr
 *           setup.log          the setup hook's stdout (no metrics)
 *           stats.json         {"metric": number, ...}
 *           complete           written last: "ok\n" or "failed: <reason>\n";
 *                              or "interrupted: <how>\n" for a run kdelta
 *                              was stopped in (a signal; or kill -9, marked
 *                              by the next start's cleanup): not the
 *                              commit's doing, listed, never counted as a
 *                              failure; a run directory without it is
 *                              incomplete (the machine went down?) and
 *                              never counted as complete
 *       matrix.json.gz         {"metric": [run0, run1, ...],
 *                               "stats_source": ["<run dir>/stats.json", ...]}
 *                              over the "ok" runs, in run order, in
 *                              lkp-tests' form (matrix_to_json()): a metric
 *                              missing from some runs has 0 there (older
 *                              stores have null, still read as "no value");
 *                              one left stale by a kill is rebuilt when
 *                              compared (result_dir_load())
 */
#define STORE_JOB_FILE "job.yaml"
#define STORE_STATS_FILE "stats.json"
#define STORE_COMPLETE_FILE "complete"
#define STORE_MATRIX_FILE "matrix.json.gz"
#define STORE_SETUP_LOG "setup.log"
/* Longest name of one store path component (safe_name()). */
#define STORE_NAME_MAX 200

/*
 * The result root: the option if given, else $KDELTA_RESULT_ROOT, else
 * /var/lib/kdelta/results for root, else
 * ${XDG_DATA_HOME:-$HOME/.local/share}/kdelta/results.  Caller frees.
 */
char *result_root(const char *option);

/*
 * A commit label's directory name: the label itself when it is made of
 * [A-Za-z0-9._+=,@-] and does not begin with a dot, else with every other
 * byte written %XX ("xfs/for-next" is stored as "xfs%2Ffor-next"), so that
 * different labels never share a directory; longer than STORE_NAME_MAX, a
 * prefix and a hash (safe_name()).  Caller frees.
 */
char *store_label_name(const char *label);
/* The label a directory name stands for: the %XX decoded.  Caller frees. */
char *store_label_from_name(const char *name);

/*
 * RESULT_ROOT/<testcase>/<param-dir>/<host>/<commit>, the first three made
 * safe with safe_name() (no '/', no leading '.', bounded), the commit with
 * store_label_name(), so that nothing can point outside root.  Caller
 * frees.
 */
char *store_commit_dir(const char *root, const char *testcase,
		       const char *param_dir, const char *host,
		       const char *commit);

/*
 * Creates the commit directory if needed and the next run directory in it:
 * one more than the largest run number present, complete or not, so that a
 * number is never reused.  mkdir() is the lock: concurrent runners get
 * distinct numbers.  Sets *number and *run_dir (caller frees).  Removes
 * the temporary files of atomic writes that killed processes left in the
 * commit directory and its run directories (remove_stale_tmp_files()).
 */
int store_alloc_run(const char *commit_dir, unsigned *number, char **run_dir,
		    struct kd_err *err);

/*
 * A run made elsewhere (a guest's, kdelta/vm.h), put into the store at
 * once or not at all: store_import_begin() makes a temporary directory
 * ".import.<pid>.XXXXXX" in the commit directory (creating that), the
 * caller fills it, and store_import_finish() renames it to the next run
 * number with renameat2(RENAME_NOREPLACE), so that it never lands on
 * another run: when that number is taken meanwhile, the next one.
 * Before each attempt, prepare() writes what depends on the number (its
 * job.yaml).  The temporary directories of killed processes are removed
 * by the next import into the commit directory (as stale temporary files
 * are, STALE_TMP_AGE); store_import_abort() removes one now.
 */
#define STORE_IMPORT_PREFIX ".import."
int store_import_begin(const char *commit_dir, char **tmp_dir,
		       struct kd_err *err);
int store_import_finish(const char *commit_dir, const char *tmp_dir,
			int (*prepare)(void *arg, const char *tmp_dir,
				       unsigned number, struct kd_err *err),
			void *arg, unsigned *number, char **run_dir,
			struct kd_err *err);
/* Removes a temporary import directory and the files in it. */
void store_import_abort(const char *tmp_dir);

/* Writes the completion mark: "ok" or "failed: <reason>" (one line). */
int store_mark_complete(const char *run_dir, const char *status,
			struct kd_err *err);

/*
 * Marks a run kdelta was stopped in "interrupted: <how>", unless it has a
 * mark already (it ended before).  *marked says whether it wrote one.
 */
#define STORE_INTERRUPTED "interrupted"
int store_mark_interrupted(const char *run_dir, const char *how,
			   bool *marked, struct kd_err *err);
/* Whether a completion mark (store_run_status()) is an interrupted run's. */
bool store_status_interrupted(const char *status);

/*
 * The completion mark of a run directory, without its newline, or NULL
 * when the run is incomplete.  A mark that is neither "ok" nor
 * "failed[: reason]" on one line (a NUL byte, more lines, other words) is
 * STORE_MALFORMED_MARK: the run counts as failed, never as ok.  An
 * "interrupted[: how]" mark is neither ok nor failed.  Caller
 * frees.
 */
#define STORE_MALFORMED_MARK "failed: malformed completion mark"
char *store_run_status(const char *run_dir);

/* The run numbers of commit_dir in ascending order (caller frees *out). */
int store_list_runs(const char *commit_dir, unsigned **out, size_t *n,
		    struct kd_err *err);

/*
 * Calls fn for each run of commit_dir in run order, with the run's
 * directory, number and completion mark (store_run_status(): NULL while
 * incomplete), until fn returns non-zero, which it returns then.  No
 * directory: no runs.  -1 with err when it cannot be read.
 */
typedef int store_run_fn(const char *run_dir, unsigned number,
			 const char *status, void *arg);
int store_each_run(const char *commit_dir, store_run_fn *fn, void *arg,
		   struct kd_err *err);

/*
 * A commit directory's complete runs: "ok" ones, failed ones, and the
 * reason of the last failed one (may be NULL; caller frees).  No
 * directory: none.
 */
int store_count_runs(const char *commit_dir, size_t *ok, size_t *failed,
		     char **last_failure, struct kd_err *err);

/*
 * The result protocol, between a workload and everything that reads its
 * log (kdelta stats, the job's key result, kdelta run's progress line,
 * bisect): each result is a line of its own,
 *
 *	<key>: <number>
 *
 * a key without blanks, a colon and one blank, then a number that
 * strtod() reads whole (blanks after it allowed: "12.5 " but not "12.5
 * ms").  Every other line is the workload's own business and ignored.  It
 * becomes the metric "<prefix>.<key>" (kdelta/workload.h).
 */

/* Writes one result line; nine significant digits. */
void store_result_write(FILE *out, const char *key, double value);

/*
 * One line (len bytes, without its newline): true for a result line, with
 * *key (caller frees) and *value set; false for any other line.
 */
bool store_result_line(const char *line, size_t len, char **key,
		       double *value);

/*
 * The next result line of a NUL-terminated text from *pos on: true with
 * *key (caller frees) and *value set, and *pos after that line; false
 * when there is none left.
 */
bool store_result_next(const char **pos, char **key, double *value);

/*
 * The job's key result in a commit directory: "<prefix>.<key>" of the
 * first result line of the workload's log (<prefix>.log) in its first run
 * whose status is ok, under today's name (metric_current_name()); NULL
 * when there is none (lkp-tests' trees have no such log).  Caller frees.
 */
char *store_key_result(const char *commit_dir);

struct matrix;

/* Writes m as commit_dir/matrix.json.gz, atomically (matrix_to_json()). */
int store_write_matrix(const char *commit_dir, const struct matrix *m,
		       struct kd_err *err);

/*
 * Rewrites commit_dir/matrix.json.gz atomically from the stats.json of
 * every "ok" run.  *n_runs (may be NULL) is set to the number of runs in it.
 */
int store_rebuild_matrix(const char *commit_dir, size_t *n_runs,
			 struct kd_err *err);

#endif
