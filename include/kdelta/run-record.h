/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_RUN_RECORD_H
#define KDELTA_RUN_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/err.h"
#include "kdelta/job.h"

/*
 * A run's record, <run>/job.yaml (store.h): the job as it ran, plus what
 * the runner records of the run under the keys below.  One writer, the
 * runner (run_record_set()); one reader, this module, for the comparer's
 * parameters and disturbed runs and for the report's attachment, machine
 * and --setup.  lkp-tests' job.yaml, which has no "kdelta" key, is read by
 * the same functions.
 */

/* The keys the runner adds to a job: no job file has them. */
#define RUN_RECORD_COMMIT "commit"
#define RUN_RECORD_HOST "host"
#define RUN_RECORD_MACHINE "machine"	/* machine.h: machine_to_jnode() */
#define RUN_RECORD_KDELTA "kdelta"	/* kdelta's own record of the run */

/* What the runner records under "kdelta". */
#define RUN_RECORD_SETUP "setup"	/* kdelta run --setup */
#define RUN_RECORD_START "start_time"	/* when it started (epoch) */
/*
 * Its batch (an identifier drawn per batch), its job's round in the batch
 * (from 0), and the batch's --tag: runs with the same batch and round ran
 * alongside each other (runner.h).
 */
#define RUN_RECORD_BATCH "batch"
#define RUN_RECORD_ROUND "round"
#define RUN_RECORD_TAG "tag"
/* The disturbance of the run (src/run/disturbance.c writes them). */
#define RUN_RECORD_OTHERS_SECONDS "others_cpu_seconds"
#define RUN_RECORD_OTHERS_PERCENT "others_cpu_percent"
#define RUN_RECORD_LOAD_START "load_avg_start"
#define RUN_RECORD_LOAD_END "load_avg_end"
#define RUN_RECORD_CONCURRENT "concurrent_runs"
/* pressure: {cpu|io|memory: {some_stall_percent: ..., ...}} */
#define RUN_RECORD_PRESSURE "pressure"
#define RUN_RECORD_STALL_PERCENT "some_stall_percent"

/*
 * A run made in a virtual machine (kdelta run --kernel, kdelta/vm.h)
 * records it under "kdelta": "vm": {clock, accel, boot_id, kernel, ...}.
 */
#define RUN_RECORD_VM "vm"
/* The kinds of timing of such runs (run_record_vm_timing()). */
#define RUN_RECORD_TIMING_INSTRUCTIONS "instructions"
#define RUN_RECORD_TIMING_EMULATED "emulated"

/* Whether key is one the runner adds (commit, host, machine, kdelta). */
bool run_record_key(const char *key);

/* The writer's part: the record's keys on the job's tree, record. */
void run_record_set(struct jnode *record, const char *commit,
		    const char *host, struct jnode *machine,
		    struct jnode *kdelta);

/*
 * Reads the record at path: *root is its tree (NULL when the file is
 * empty; the caller frees it with jnode_free()), or -1 with the file's
 * problem in err.
 */
int run_record_load(const char *path, struct jnode **root, struct kd_err *err);

/* Whether root is kdelta's record (it has "kdelta"), not lkp-tests'. */
bool run_record_is_kdelta(const struct jnode *root);

/* The --setup its run had, or NULL. */
const char *run_record_setup(const struct jnode *root);
/*
 * Of a run in a virtual machine: RUN_RECORD_TIMING_INSTRUCTIONS when its
 * guest's clock counted instructions, RUN_RECORD_TIMING_EMULATED when it
 * ran under QEMU's TCG in real time; NULL for real hardware (this
 * machine, or a guest under KVM).
 */
const char *run_record_vm_timing(const struct jnode *root);
/* Its boot (kdelta.vm.boot_id: the runs of one boot share it), or NULL. */
const char *run_record_vm_boot(const struct jnode *root);
/* The kernel it booted (kdelta.vm.kernel: --kernel's PATH), or NULL. */
const char *run_record_vm_kernel(const struct jnode *root);

/* "2 threads <model> with 24G memory" of its machine; NULL: not said. */
char *run_record_machine(const struct jnode *root);

/*
 * Why the machine disturbed its run, "; "-separated, or NULL: other
 * processes (not the run's own, not kernel threads) used at least
 * RUN_DISTURBED_OTHERS_PERCENT of a CPU over its time, and at least
 * RUN_DISTURBED_OTHERS_SECONDS of CPU time; another kdelta run beside it.
 * A record written before kdelta read the other processes' CPU time is
 * judged as it was then: a load average (at its start or end) above the
 * machine's CPUs, tasks stalled on CPU, I/O or memory for at least
 * RUN_DISTURBED_STALL_PERCENT of its time, another kdelta run.
 */
#define RUN_DISTURBED_OTHERS_PERCENT 25
#define RUN_DISTURBED_OTHERS_SECONDS 0.1
#define RUN_DISTURBED_STALL_PERCENT 10
char *run_record_disturbance(const struct jnode *root);

/* Where a run was in its batch: its kdelta.batch, .round, .tag, start. */
struct run_place {
	const char *batch;	/* NULL: an older kdelta's run */
	long round;		/* -1 when not recorded */
	const char *tag;	/* NULL: none */
	double start;		/* epoch; 0 when not recorded */
};

/* The place of root's run (its strings are root's). */
void run_record_place(const struct jnode *root, struct run_place *out);

/*
 * The key results its job declared (key_result:, key-result.h) into out;
 * none when it declared none, -1 when they are malformed.
 */
struct key_results;
int run_record_key_results(const struct jnode *root, struct key_results *out,
			   struct kd_err *err);

/* A job parameter: key ("section.key" where needed) and value. */
struct param {
	char *key;
	char *value;
};

/*
 * The parameters of the job that made a run, flattened: top-level scalars
 * as "key", a section's scalars as "key" too, or "section.key" when the
 * name is taken; sorted by key; without the runner's keys, monitors and
 * runs.  lkp-tests' records keep the axes lkp-tests shows (lkp-axes.h),
 * from the result path they record, else rel (their place below the
 * result root, NULL: unknown).
 */
struct job_params {
	struct param *items;
	size_t n;
	char *testcase;		/* the job's testcase, or NULL */
	char *host;		/* the job's host (or testbox), or NULL */
};

void run_record_params(const struct jnode *root, const char *rel,
		       struct job_params *out);
const char *job_params_get(const struct job_params *params, const char *key);
void job_params_release(struct job_params *params);

#endif
