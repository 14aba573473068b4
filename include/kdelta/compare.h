/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_COMPARE_H
#define KDELTA_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/commit-dir.h"
#include "kdelta/err.h"
#include "kdelta/key-result.h"
#include "kdelta/metric-rules.h"
#include "kdelta/run-record.h"
#include "kdelta/schema.h"
#include "kdelta/stats.h"
#include "kdelta/strbuf.h"

/*
 * The comparison model: what the comparer computed for one group (one
 * testcase / parameter set / host, or one --axis group), consumed by every
 * renderer.  Variant 0 is the base.
 */

/* A run worth a look, named, never left out of the statistics. */
struct variant {
	char *label;		/* commit label, or the --axis value */
	char *subject;		/* one-line commit subject (--repo), or NULL */
	char *path;		/* where its runs were read */
	size_t runs;		/* complete runs counted */
	size_t runs_failed;	/* complete but failed */
	size_t runs_incomplete;	/* started, never completed */
	/*
	 * Marked interrupted (store.h): kdelta was stopped or killed in
	 * them, which is not the commit's doing: listed, never counted as
	 * runs or failures.
	 */
	size_t runs_interrupted;
	char *notice;		/* what the user should hear of its store
				 * (a stale matrix rebuilt, runs that
				 * differ in a monitor that perturbs):
				 * lines, or NULL */
	char *failure;		/* why the first failed run failed (its
				 * completion mark, without "failed: "), or
				 * NULL */
	/*
	 * The complete runs' directory names in the order of the samples,
	 * or NULL when the matrix does not say which run is which.
	 */
	char **run_names;
	/* Runs the machine disturbed (kdelta.* of their job.yaml). */
	struct run_note *notes;
	size_t nnotes;
	/*
	 * The runs of its matrix, those lkp-tests marks incomplete too (its
	 * count of runs), and which of them it marks so (NULL: none).  A
	 * failure stat's samples are one per run of the matrix: lkp-tests
	 * counts it over every run, and decides it over both (decide.c).
	 */
	size_t matrix_runs;
	bool *lkp_incomplete;
	/*
	 * Runs made in virtual machines (kdelta.vm of their job.yaml,
	 * kdelta/vm.h): VARIANT_TIMING_INSTRUCTIONS when a guest's clock
	 * counted instructions, VARIANT_TIMING_EMULATED when it ran under
	 * QEMU's TCG in real time; NULL for timings of real hardware (this
	 * machine, or a guest under KVM).
	 */
	const char *timing;
	/*
	 * The boot each complete run was made in (kdelta.vm.boot_id), in the
	 * order of the samples, when every run says and run_names is set;
	 * else NULL.
	 */
	char **boots;
};

#define VARIANT_TIMING_INSTRUCTIONS RUN_RECORD_TIMING_INSTRUCTIONS
#define VARIANT_TIMING_EMULATED RUN_RECORD_TIMING_EMULATED

/* The runs a variant started: complete, failed and incomplete. */
static inline size_t variant_runs_attempted(const struct variant *v)
{
	return v->runs + v->runs_failed + v->runs_incomplete;
}

enum verdict {
	VERDICT_SAME,		/* a workload result: shown equivalent, its
				 * interval inside +-min_change; a monitor
				 * metric: no significant change */
	VERDICT_CHANGED,	/* significant and large enough */
	VERDICT_SMALL,		/* a monitor metric: significant, below its
				 * floor */
	VERDICT_FEW_RUNS,	/* fewer than 3 runs: not decided */
	VERDICT_ABSENT,		/* metric missing in this variant or the base */
	VERDICT_BASE,		/* variant 0 */
	VERDICT_NOT_FINITE,	/* a mean, spread, change or p-value beyond
				 * double precision: not decided */
	VERDICT_INCONCLUSIVE,	/* a workload result neither changed nor
				 * shown the same: more runs would tell */
};

/*
 * "same", "changed", "small", "few-runs", "absent", "base", "not-finite",
 * "inconclusive": JSON and CSV.
 */
const char *verdict_name(enum verdict verdict);

/*
 * One metric in one variant.  A comparison holds metrics x variants of
 * them (1.5 million at 30 commits x 50,000 metrics): the small fields sit
 * together, unpadded, as memory is what limits the largest comparisons.
 */
/*
 * A workload result's estimate against the base, once tested: the 95%
 * interval of the change (Fieller's; Hodges-Lehmann's with --test mwu), and
 * the runs per variant that would decide it at the noise observed (0: no
 * estimate; see runs_to_decide()), also with too few runs.  Only workload
 * results have one of their own: the rows of monitor metrics, most of a
 * comparison, share key_estimate_none (unbounded, no runs).
 */
struct key_estimate {
	struct change_interval ci;
	size_t runs_needed;
};

extern const struct key_estimate key_estimate_none;

struct metric_cell {
	double *samples;	/* NULL when absent */
	struct sample_summary sum;	/* the caller sets sum.n, the number
					 * of samples; compare_decide fills
					 * the rest */
	/* Against the base (undefined for variant 0): */
	double change;		/* percent; absolute for "%" metrics */
	bool change_absolute;	/* metric is a percentage already */
	bool change_infinite;	/* base mean 0, this one not */
	bool samples_shared;	/* samples point into cmp->sample_blocks:
				 * not freed with the cell */
	bool zero_filled;	/* not in the matrix, samples are the zeros
				 * of an event counter (lkp-tests would see
				 * it absent) */
	bool by_boots;		/* tested on the means of its runs' boots
				 * (runs that share a boot: decide.c) */
	bool integers;		/* every value in the matrix was written as
				 * an integer (a Ruby Integer, lkp-rules.h) */
	enum verdict verdict;
	struct test_result test;
	double q;		/* BH-corrected p within the metric's family */
	const struct key_estimate *est;	/* see cell_estimate() */
	const char *rule;	/* the rule that decided, for --explain */
};

struct metric_row {
	char *name;
	bool key;		/* a workload result (the key-metric family) */
	bool failure;		/* a failure stat (lkp_failure_stat()): its
				 * values count occurrences per run, it is
				 * decided by lkp-tests' rule and shown in
				 * the fail:runs table */
	int better;		/* +1 higher is better, -1 lower, 0 unknown */
	/*
	 * Judged by a gate (compare_outcome()): a workload result, and one of
	 * those the job declared when it declared any (key_result:).
	 */
	bool gate;
	struct metric_cell *cells;	/* one per variant */
	struct key_estimate *estimates;	/* a workload result's, one per
					 * variant (compare_decide());
					 * otherwise NULL */
};

/* A cell's estimate: key_estimate_none until compare_decide() made one. */
static inline const struct key_estimate *
cell_estimate(const struct metric_cell *cell)
{
	return cell->est ? cell->est : &key_estimate_none;
}


struct comparison {
	/*
	 * The group, as a path: "<testcase>/<param-dir>/<host>" in kdelta's
	 * store (the commit directory's path below the result root, without
	 * the commit), "<testcase>/<params>/<host>[/<commit>]" for --axis.
	 */
	char *name;
	char *testcase;
	char *host;
	struct param *params;	/* the group's common parameters */
	size_t nparams;
	char *axis;		/* --axis KEY, or NULL for commits */
	struct variant *variants;
	size_t nvariants;
	struct metric_row *rows;	/* sorted: key results, then monitors,
					 * then by magnitude of change */
	size_t nrows;
	/* What cells' shared samples point into (comparison_add_matrices). */
	double **sample_blocks;
	size_t nsample_blocks;
	/*
	 * What kdelta knows of the metrics' sources, which describes every
	 * row (kind, direction, floor, workload result or not): the
	 * runner's monitors and workloads (metric_catalogue_default()), set
	 * before comparison_add_matrices(); NULL: lkp-tests' rules and the
	 * generic ones only.
	 */
	const struct metric_catalogue *catalogue;
	/*
	 * The key results the job declared (key_result: in the base's first
	 * run's job.yaml, or the robot's key-result), with their directions,
	 * which are the rows' (compare_decide()); none: every workload
	 * result is a key result, in the rules' direction.
	 */
	struct key_results declared;
};

/* The confidence of a workload result's interval, in percent. */
#define COMPARE_INTERVAL_LEVEL 95

struct compare_options {
	enum sig_test test;
	double fdr;		/* 0: no correction */
	double min_change;	/* percent, for workload results */
	bool all;		/* list unchanged metrics too */
};

/* The defaults of --fdr and --min-change (percent). */
#define COMPARE_DEFAULT_FDR 0.05
#define COMPARE_DEFAULT_MIN_CHANGE 1.0

/*
 * compare's defaults, for every command that decides comparisons: --test
 * welch, --fdr and --min-change as above, --all off.
 */
void compare_options_init(struct compare_options *opt);

/*
 * The one reading of --min-change (compare, report, plot, run, bisect) and
 * of the robot's min-change: a percentage from 0 (param_number()).
 */
extern const struct param_spec compare_min_change_param;

/*
 * Fills every cell's summary, change, test, q-value and verdict (with the
 * rule that decided), and sorts the rows.  The caller has filled variants,
 * rows (name, key, samples and sum.n) and options; see docs/design.md
 * "Statistics" and the SIGNIFICANCE section of kdelta(1).
 */
void compare_decide(struct comparison *cmp, const struct compare_options *opt);

/*
 * What a set of decided comparisons tells a robot, from better to worse
 * (the worst found wins), of the key results (the rows with gate: the
 * workload results the job declared, or all when it declared none):
 *  - clean: every key result of every variant is the same or changed for
 *    the better, and no variant fails more than the base;
 *  - inconclusive: some key result is neither changed nor shown the same
 *    (or had too few runs to decide, or statistics not finite), or changed
 *    in a direction nobody says is better or worse (the verdict line says
 *    how to declare it);
 *  - no data: a variant, or the base, has no usable run, or a key result
 *    is missing on one side, or one the job declares (key_result) is
 *    printed by no run (comparison_missing_key_result());
 *  - regressed: a key result changed for the worse, a failure stat rose,
 *    or a variant's runs failed where the base's did not
 *    (variant_fails_more()).
 * No comparison at all is "no data".
 */
enum compare_outcome {
	OUTCOME_CLEAN,
	OUTCOME_INCONCLUSIVE,
	OUTCOME_NO_DATA,
	OUTCOME_REGRESSED,
};

enum compare_outcome compare_outcome(const struct comparison *const *cmps,
				     size_t n);
/* "clean", "inconclusive", "no data", "regressed". */
const char *compare_outcome_name(enum compare_outcome outcome);
/* Whether variant v has failed or incomplete runs and the base none. */
bool variant_fails_more(const struct comparison *cmp, size_t v);
/*
 * The first key result declared (cmp->declared) that no run printed: a
 * misspelt name, or a program that changed its output; NULL when none.
 * Such a result cannot gate, so it is no data, never clean.
 */
const char *comparison_missing_key_result(const struct comparison *cmp);

/* Renderers (src/output/render-*.c).  Each appends to out. */
void render_lkp(const struct comparison *cmp, const struct compare_options *opt,
		struct strbuf *out);
void render_mmtests(const struct comparison *cmp,
		    const struct compare_options *opt, struct strbuf *out);

/*
 * Seed 004's table: one row per group for one metric, one column per
 * variant, a GEO-MEAN row first.
 */
void render_summary(const struct comparison *const *cmps, size_t n,
		    const char *metric, const struct compare_options *opt,
		    struct strbuf *out);

/*
 * Machine-readable: everything of every group (src/output/render-json.c), and one
 * CSV line per metric and variant (src/output/render-csv.c).  Both list every
 * metric, whatever opt->all says.
 */
void render_json(const struct comparison *const *cmps, size_t n,
		 const struct compare_options *opt, struct strbuf *out);
void render_csv(const struct comparison *const *cmps, size_t n,
		const struct compare_options *opt, struct strbuf *out);

/*
 * The rows of a comparison (src/compare/comparison.c).
 */
struct matrix;

/*
 * Fills cmp->rows from one matrix per variant (cmp->nvariants of them):
 * the union of their metrics, each cell's samples (the values present) and
 * sum.n, NULL samples where a variant lacks the metric.  A failure stat's
 * cell holds every run; any other leaves out the incomplete runs.
 * It takes the matrices' names and values over (cells point into the
 * values where they can): the caller still releases the matrices, but
 * reads nothing more of them.
 */
void comparison_add_matrices(struct comparison *cmp,
			     struct matrix *const *matrices);
/* Whether some variant's cell of row (the base's aside) has verdict. */
bool metric_row_has(const struct metric_row *row, size_t nvariants,
		    enum verdict verdict);
/* Frees a row: its cells' own samples, its name. */
void metric_row_release(struct metric_row *row, size_t nvariants);
/* Frees everything a comparison owns and zeroes it. */
void comparison_release(struct comparison *cmp);
/*
 * Frees v's run names, notes and lkp_incomplete (comparison_release()
 * calls it).
 */
void variant_release_runs(struct variant *v);
/*
 * Keeps the rows for which keep(row, ctx) is true, in their order, and
 * frees the others.
 */
void comparison_keep_rows(struct comparison *cmp,
			  bool (*keep)(const struct metric_row *, void *),
			  void *ctx);

#endif
