/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_STORE_H
#define KDELTA_STORE_H

/*
 * The result store (DESIGN.md "The store"):
 *
 *   RESULT_ROOT/<testcase>/<param-dir>/<host>/<commit>/
 *       0/ 1/ ...              one directory per run
 *           job.yaml           the expanded job as it ran, plus the keys
 *                              commit, host, machine: {...}, kdelta: {...}
 *           <monitor>.gz       raw samples
 *           <prefix>.log       the workload's "key: value" output
 *           <prefix>.stderr    the workload's stderr
 *           stats.json         {"metric": number, ...}
 *           complete           written last: "ok\n" or "failed: <reason>\n";
 *                              a run directory without it is incomplete and
 *                              never counted
 *       matrix.json.gz         {"metric": [run0, run1, ...],
 *                               "stats_source": ["<run dir>", ...]}
 *                              over the "ok" runs, in run order; a metric
 *                              missing from some runs has null there
 */
#define STORE_JOB_FILE "job.yaml"
#define STORE_STATS_FILE "stats.json"
#define STORE_COMPLETE_FILE "complete"
#define STORE_MATRIX_FILE "matrix.json.gz"

/*
 * The result root: the option if given, else $KDELTA_RESULT_ROOT, else
 * /var/lib/kdelta/results for root, else
 * ${XDG_DATA_HOME:-$HOME/.local/share}/kdelta/results.  Caller frees.
 */
char *result_root(const char *option);

#endif
