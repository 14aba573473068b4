/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_RUNNER_H
#define KDELTA_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kdelta/disk.h"
#include "kdelta/err.h"
#include "kdelta/job.h"

struct work_dir;

/*
 * The runner (kdelta run): for each expanded job, each commit and each run,
 * it sets up the file system, starts the monitors, runs the workload in a
 * child process, stops the monitors, writes the run directory and only then
 * marks the run complete (docs/design.md "2. The runner", "5. The store").
 */

/* --until-decided: the most runs per job and commit. */
#define RUNNER_DEFAULT_MAX_RUNS 30

/*
 * The order of a batch's runs (the plan).
 *
 * Shuffled (the default): in rounds.  Every job and every commit gets its
 * n-th run in round n, warmup rounds first, so that the machine's drift
 * falls alike on every commit and on every job, and so on the jobs that
 * --axis compares with each other.  A job with fewer runs than another
 * takes no part in the later rounds.  Within a round the order is drawn
 * from the seed, because any fixed order would favour one of them (the
 * first after a pause, or after the same other run, every time): the same
 * seed gives the same order.
 *
 * Fixed: kdelta 0.1's order.  Job by job, in the order of the job files;
 * for each job its warmup rounds, then its runs, each round going through
 * the commits in the order given (A B C A B C ...).
 *
 * Rounds added afterwards (kdelta run --until-decided) hold the jobs asked
 * for, each with every commit: shuffled as above, or in the fixed order of
 * jobs and commits.
 */
enum run_order {
	RUN_ORDER_SHUFFLED,
	RUN_ORDER_FIXED,
};

/* "shuffled", "fixed", indexed by enum run_order, then NULL. */
extern const char *const run_order_names[];

struct runner_opts {
	const char *const *commits;	/* labels, already checked */
	size_t n_commits;
	int runs;			/* > 0: overrides each job's "runs" */
	unsigned warmup;		/* discarded runs per job and commit */
	const char *result_root;
	const struct work_dir *work_dir;	/* opened, private (workdir.h) */
	const char *setup;		/* shell command template, or NULL */
	enum run_order order;
	uint64_t seed;			/* of the shuffled order */
	/*
	 * Recorded in each run's job.yaml as kdelta.tag (NULL: none), so that
	 * whoever asked for the runs (bisect, the robot) finds them again.
	 * Every run also records kdelta.batch, an identifier drawn for the
	 * batch, and kdelta.round, its job's round in it: runs with the same
	 * batch and round ran alongside each other.
	 */
	const char *tag;
	/*
	 * Rounds added after the planned ones, while a workload result of a
	 * job is neither changed nor the same against the first commit
	 * (kdelta/run-decide.h), up to max_runs runs a side.
	 */
	bool until_decided;
	unsigned max_runs;
	double min_change;		/* percent (points for a percentage) */
	int cancel_fd;			/* readable: stop (proc_catch_signals) */
	FILE *log;			/* progress and notices */
	bool live;			/* one live status line (a terminal) */
	/*
	 * A guest's batch (kdelta/vm.h): its runs go back to the host, whose
	 * store keeps the matrices and the index, so this one does not;
	 * run_started() is told of each run as it starts, run_stored() once
	 * its completion mark is written (ok or failed).  first_round is
	 * the rounds the host's batch had before this boot, so that each
	 * boot's rounds are shuffled in an order of their own (from the same
	 * seed).  disks: the guest's RAM disks, the brd module's or its
	 * virtio disks (fs_setup()).
	 */
	void (*run_started)(void *arg, size_t job, unsigned round);
	void (*run_stored)(void *arg, size_t job, unsigned round,
			   const char *run_dir);
	void *run_arg;
	bool no_matrix;
	unsigned first_round;
	struct fs_disks disks;
	/*
	 * kdelta.batch of the runs: NULL, one drawn for this batch; else
	 * this one (16 hex digits), and their kdelta.round counted from
	 * first_round on, so that the runs of several runners pair into the
	 * rounds of one batch: a test box's, whose every boot runs one
	 * commit (executor.h's reboot executor).
	 */
	const char *batch;
	/*
	 * Non-NULL: the runs are stored failed with this reason, and
	 * nothing runs: a test box that did not boot the commit's kernel
	 * has no run of it to take.
	 */
	const char *fail_reason;
};

struct runner_summary {
	size_t ok, failed;
	int signal;			/* the signal that stopped the batch */
	bool store_failed;		/* a file of the store could not be
					 * written: the batch stopped */
	char *kept;			/* what an interrupted batch left */
};

/*
 * Runs the batch.  A run that fails (setup hook, file system, workload) is
 * recorded as failed and the batch goes on; -1 is returned when the batch
 * cannot go on: a bad job, or (summary->store_failed) a file of the store
 * that cannot be written (a full disk, a read-only file system), which
 * leaves the current run incomplete, its completion mark not written or
 * removed again, so that the commit's matrix stays the set of its complete
 * runs.
 */
int runner_run(struct job *const *jobs, size_t n_jobs,
	       const struct runner_opts *opts, struct runner_summary *summary,
	       struct kd_err *err);
void runner_summary_release(struct runner_summary *summary);

struct run_step {
	size_t job;
	size_t commit;
	unsigned round;		/* the job's: 0-based, counted separately
				 * for warmups */
	bool warmup;
};

struct run_plan {
	struct run_step *steps;
	size_t n, alloc;
	size_t n_jobs, n_commits;
	unsigned *runs;		/* of each job per commit, planned so far */
	unsigned rounds;	/* the batch's rounds so far, warmups too */
	enum run_order order;
	uint64_t seed;
};

/*
 * The plan of runs[j] runs of each job j per commit, after warmup
 * warmup rounds.  Release with run_plan_release().
 */
void run_plan_init(struct run_plan *plan, const unsigned *runs,
		   size_t n_jobs, size_t n_commits, unsigned warmup,
		   enum run_order order, uint64_t seed);
/*
 * The same, its rounds numbered from first_round on: a guest's share of
 * a batch (runner_opts.first_round).
 */
void run_plan_init_from(struct run_plan *plan, const unsigned *runs,
			size_t n_jobs, size_t n_commits, unsigned warmup,
			enum run_order order, uint64_t seed,
			unsigned first_round);
/* Appends one round of every job j with more[j], with every commit. */
void run_plan_add_round(struct run_plan *plan, const bool *more);
void run_plan_release(struct run_plan *plan);

/*
 * The plan of a batch whose commits are kernels booted in virtual
 * machines (kdelta/vm.h): each boot runs up to runs_per_boot runs of
 * every job (its warmups first), so each commit has as many boots as its
 * job with the most runs needs.  The boots are in rounds as runs are:
 * round b holds the b-th boot of every commit, in an order drawn from the
 * seed for each round (or the commits' order with RUN_ORDER_FIXED), so
 * that the machine's drift falls alike on every kernel.  A boot's own
 * runs are a run_plan of their own, shuffled from the same seed from
 * first_round on.
 */
struct boot_step {
	size_t commit;
	unsigned boot;		/* the commit's, 0-based */
	unsigned first_round;	/* rounds of runs before it, in its commit */
	unsigned *runs;		/* of each job in this boot (into plan->runs) */
};

struct boot_plan {
	struct boot_step *boots;
	size_t n;
	size_t n_jobs, n_commits;
	unsigned boots_per_commit;
	unsigned *runs;		/* n x n_jobs */
};

void boot_plan_init(struct boot_plan *plan, const unsigned *runs,
		    size_t n_jobs, size_t n_commits, unsigned runs_per_boot,
		    unsigned warmup, enum run_order order, uint64_t seed);
void boot_plan_release(struct boot_plan *plan);

/* Runs of a job: opts->runs if set, else the job's (job->runs). */
unsigned job_runs(const struct job *job, int runs_option);

/*
 * The setup command for one commit: every "{commit}" replaced by the label,
 * quoted for sh.  Caller frees.
 */
char *setup_command_expand(const char *template, const char *commit);

/* The job's "testcase", else its workload's name: its store directory. */
const char *runner_testcase(const struct job *job);

/*
 * The store directory of a job's runs for one commit on host:
 * RESULT_ROOT/<testcase>/<job name>/<host>/<commit>, the testcase being the
 * job's "testcase", else its workload's name.  Caller frees.
 */
char *runner_commit_dir(const struct job *job, const char *result_root,
			const char *host, const char *commit);

/*
 * Checks a commit label from the command line: non-empty, not "." or "..".
 * Labels are used through safe_name().
 */
int commit_label_check(const char *label, struct kd_err *err);

#endif
