/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_EXECUTOR_H
#define KDELTA_EXECUTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kdelta/err.h"
#include "kdelta/job.h"
#include "kdelta/strbuf.h"

/*
 * Measuring commits, for bisect and the robot: each commit checked out and
 * built, then the job run on it into the store, the commits' runs
 * interleaved (A B A B ...) on one machine.  An executor is where that
 * happens: the local one runs the runner on this machine (src/executor/executor.c),
 * the slurm one submits each request as a Slurm job that runs kdelta run
 * on a node (src/executor/executor-slurm.c).
 *
 * A request says how many complete runs each commit should have in the
 * end, not how many to add: runs already in the store count, so that a
 * request made again after an interruption only completes what is missing.
 */

struct measure_request {
	const struct job *job;
	const char *const *commits;	/* full hashes */
	size_t n_commits;
	unsigned runs;		/* complete runs ("ok") each should have */
	/*
	 * Recorded with each run (kdelta.tag, runner.h); when set, only the
	 * runs with this tag count towards runs.  NULL: every run counts.
	 */
	const char *tag;
	/*
	 * What the runs are for, in a few words ("bisect 3: 1f2e... to 4
	 * runs"): an executor that keeps state (the robot's) knows a
	 * request it was already given by it.  NULL: none.
	 */
	const char *purpose;
	/*
	 * For an executor that hands requests to another system (Slurm):
	 * the ticket it gave an earlier request with this purpose, which is
	 * still out there and is waited for instead of asking again (NULL:
	 * none); and submitted(), called with a new ticket once the request
	 * is handed over and before waiting for it, so that the caller can
	 * keep it (the robot's state) for a restart.  NULL: not kept.
	 */
	const char *ticket;
	int (*submitted)(void *arg, const char *ticket, struct kd_err *err);
	void *submitted_arg;
};

enum measure_outcome {
	MEASURE_OK,		/* the commit has its runs */
	MEASURE_BUILD_FAILED,	/* it did not build: nothing was run */
	MEASURE_RUN_FAILED,	/* a run of the job failed */
	MEASURE_NOT_RUN,	/* stopped before its turn */
};

struct measure_result {
	size_t n;		/* commits */
	enum measure_outcome *outcome;	/* one per commit */
	char **why;		/* one per commit: why it failed, or NULL */
	size_t *added;		/* one per commit: complete runs added */
	char *host;		/* the host its runs are stored under */
	int signal;		/* a signal stopped it */
	bool store_failed;	/* the store could not be written */
};

struct executor;
struct vm_options;

/*
 * A whole bisection handed to another system (a Slurm node), which runs
 * kdelta bisect there into the shared store: one job that builds each
 * commit once and makes every look, instead of one job a look.  The
 * caller then makes the bisection's decisions again from the store
 * (store_executor_new()), which decides as the node decided (bisect.h).
 */
struct bisect_request {
	const struct job *job;
	const char *good, *bad;	/* full hashes */
	const char *metric;
	unsigned runs, max_runs;
	double min_change;
	/* as in measure_request */
	const char *purpose, *ticket;
	int (*submitted)(void *arg, const char *ticket, struct kd_err *err);
	void *submitted_arg;
};

struct bisect_outcome {
	char *host;		/* the host its runs are stored under */
	int status;		/* kdelta bisect's exit status, -1: none */
	char *said;		/* its last line on stderr, or NULL */
	/* "<commit> <why>" lines of the commits that did not build, or NULL */
	char *build_failed;
	char *where;		/* its files, for messages */
	int signal;		/* a signal stopped the wait */
};

void bisect_outcome_release(struct bisect_outcome *out);

struct executor_ops {
	/*
	 * Measures; returns -1 on errors that end the caller's work (the
	 * store, a git command, the executor itself), with res filled as far
	 * as it got.  A commit that does not build or whose run fails is no
	 * error: its outcome says so.
	 */
	int (*measure)(struct executor *ex, const struct measure_request *req,
		       struct measure_result *res, struct kd_err *err);
	void (*release)(struct executor *ex);
	/*
	 * Cancels what a ticket stands for, for good; NULL: no tickets.
	 * *done: it had ended already (nothing was cancelled).
	 */
	int (*cancel)(struct executor *ex, const char *ticket, bool *done,
		      struct kd_err *err);
	/*
	 * Waits for the work behind a ticket a killed caller left, whatever
	 * state it reached; *state: how it ended ("COMPLETED", ...).  1 when
	 * a signal came first.  NULL: no tickets.
	 */
	int (*collect)(struct executor *ex, const char *ticket,
		       struct strbuf *state, struct kd_err *err);
	/* A whole bisection (struct bisect_request); NULL: not here. */
	int (*bisect)(struct executor *ex, const struct bisect_request *req,
		      struct bisect_outcome *out, struct kd_err *err);
};

struct executor {
	const struct executor_ops *ops;
	const char *name;	/* "local", "slurm", "reboot" */
	/*
	 * The host the runs are stored under (the store's <host>
	 * directory), or NULL while the executor cannot know it yet (a
	 * cluster, before its first batch chose a node).
	 */
	char *host;
};

int executor_measure(struct executor *ex, const struct measure_request *req,
		     struct measure_result *res, struct kd_err *err);
void executor_release(struct executor *ex);
/*
 * Cancels the work behind a ticket (measure_request); 0 without tickets.
 * *done: it had ended already.
 */
int executor_cancel(struct executor *ex, const char *ticket, bool *done,
		    struct kd_err *err);
/* collect(), or 0 with *state "" when the executor has no tickets. */
int executor_collect(struct executor *ex, const char *ticket,
		     struct strbuf *state, struct kd_err *err);
void measure_result_release(struct measure_result *res);

/*
 * The local executor: this machine, the runner in this process, under the
 * machine's run lock.
 */
struct local_executor_opts {
	const char *repo;	/* the work tree the commits are built in */
	const char *build;	/* sh -c template: {commit} replaced */
	/*
	 * NULL: each commit is checked out and built in repo, again before
	 * each of its runs when several take turns.  Else the build cache:
	 * each commit is built once, in a work tree of its own (git worktree)
	 * at <work dir>/builds/<commit>, which records how its build ended
	 * (.kdelta-build), and install (sh -c, {commit} replaced) runs there
	 * before each run to put that build in place.  The cache outlives a
	 * killed kdelta (its next start uses what it holds) and goes when the
	 * executor is released.
	 */
	const char *install;
	const char *result_root;	/* absolute */
	const struct work_dir *work_dir;	/* private, opened (workdir.h):
						 * build-<commit>.log go there */
	int cancel_fd;		/* readable: stop (proc_catch_signals) */
	FILE *log;		/* the runner's lines */
	/*
	 * The command measuring ("robot", "bisect"): it holds the machine's
	 * run lock (runlock.h) for each batch, as kdelta run does, and says
	 * "<command>: waiting for the machine's run lock ..." on progress
	 * while another holds it.
	 */
	const char *command;
	FILE *progress;
	/*
	 * Commits that are kernels (executor_builds_kernels(build)): each is
	 * built once into a directory of its own, {out}, and booted in a
	 * virtual machine with these options (kdelta/vm.h; kernels unset),
	 * the commits' boots interleaved in rounds.  NULL otherwise.
	 */
	const struct vm_options *vm;
	/*
	 * With vm: NULL, each commit's {out} is in a workspace of the
	 * executor's, gone when it is released; else it is
	 * <kernel_cache>/<full hash>, kept, and one that holds KERNEL_MARK
	 * is not built again; the build's log is <kernel_cache>/<hash>.log.
	 */
	const char *kernel_cache;
};

/* In a kept {out}: the kernel there was built whole (its commit's hash). */
#define KERNEL_MARK ".kdelta-kernel"

int local_executor_new(const struct local_executor_opts *o,
		       struct executor **out, struct kd_err *err);

/*
 * Whether a build command makes kernels: it names {out}, the directory it
 * must leave the commit's kernel in, as kdelta run --kernel's PATH takes
 * it (boot/vmlinuz-* and lib/modules/<release>/, or an image).
 */
bool executor_builds_kernels(const char *build);

/*
 * The build command for one commit: {commit} replaced by its hash, {out}
 * by out (NULL: left as it is), each quoted for sh.  Caller frees.
 */
char *build_command_expand(const char *build, const char *commit,
			   const char *out);

/*
 * The slurm executor: each request is one Slurm job (sbatch --exclusive
 * --requeue) that clones the repository on the node, builds the commits
 * and runs kdelta run on those that built, interleaved, into the result
 * root, which the nodes share.  Its files (the batch script, the job, the
 * build logs, Slurm's output, what the job found) are in a directory of
 * job_dir, which the nodes share too; the ticket is "<job ID> <that
 * directory>".  Later requests go to the node the first one ran on, so
 * that every comparison is of runs on one node.
 */
struct slurm_executor_opts {
	const char *repo;		/* the repository, as the nodes see it */
	const char *build;		/* sh -c template: {commit} replaced */
	const char *install;		/* NULL, or the build cache's install
					 * (local_executor_opts) */
	const char *result_root;	/* absolute, shared with the nodes */
	const char *job_dir;		/* absolute, shared with the nodes */
	/*
	 * kdelta run's work directory on the nodes (NULL: its default):
	 * lasting, so that a run killed there is cleaned up by the next.
	 */
	const char *work_dir;
	const char *partition, *account, *constraint;	/* NULL: Slurm's */
	const char *kdelta;		/* the program on the nodes */
	double poll;			/* seconds between looks at the job */
	double timeout;			/* the longest a Slurm command may take */
	int cancel_fd;			/* readable: stop waiting */
	FILE *progress;			/* "robot: Slurm job 12 ..." lines */
	const char *command;		/* "robot" */
	/*
	 * Commits that are kernels (as the local executor's): the job builds
	 * each into a directory of its clone's on the node and runs kdelta
	 * run --kernel there with these options (a bisection: kdelta bisect
	 * with them); the node boots the VMs.
	 */
	const struct vm_options *vm;
};

int slurm_executor_new(const struct slurm_executor_opts *o,
		       struct executor **out, struct kd_err *err);

/*
 * The reboot executor (executor-reboot.c): a test box that boots each
 * commit's kernel itself, as LKP's robot does.  Each commit is built into
 * {out} (build must name it), kept under state_dir/kernels; before its
 * boot, its modules are copied to <modules>/<release> and what the boot
 * must show is written to state_dir/state.json; then the boot command
 * runs (kexec, or a reboot through the boot loader) and the machine goes
 * down.  The robot, started again in the new kernel (kdelta-robot(5)),
 * asks for the same request, and the executor takes that kernel's runs
 * only when the running kernel's release and version string (uname -r,
 * uname -v, read from $KDELTA_RUNNING_KERNEL or /proc/sys/kernel) are the
 * commit's kernel's, runs_per_boot of them.  The boots go in rounds, one
 * of each commit a round in an order drawn for the round, and the runs of
 * a request are one batch whose rounds pair across boots (runner.h).  A
 * boot into another kernel, a boot command that fails, and a boot that
 * did not come back within timeout seconds store that commit's runs as
 * failed with the reason, and the others go on.  The runs are stored
 * under this machine's host name.
 */
#define REBOOT_DEFAULT_COMMAND \
	"kexec -l {image} --reuse-cmdline && sync && kexec -e"
#define REBOOT_DEFAULT_MODULES "/lib/modules"
#define REBOOT_DEFAULT_TIMEOUT 600.0
#define REBOOT_DEFAULT_RUNS_PER_BOOT 1
/* A directory read instead of /proc/sys/kernel: a simulated boot's. */
#define REBOOT_RUNNING_ENV "KDELTA_RUNNING_KERNEL"

struct reboot_executor_opts {
	const char *repo;		/* the work tree the kernels are built in */
	const char *build;		/* sh -c template naming {out} */
	const char *result_root;	/* absolute */
	const struct work_dir *work_dir;	/* private, opened */
	const char *boot;	/* sh -c template: {image}, {release}, {out},
				 * {commit} replaced */
	const char *modules;	/* where a kernel's modules are installed */
	double timeout;		/* seconds from the boot command to the runs */
	unsigned runs_per_boot;
	const char *state_dir;	/* absolute; must survive a reboot */
	int cancel_fd;
	FILE *log;		/* the runner's lines */
	FILE *progress;		/* "robot: ..." lines */
	const char *command;	/* "robot" */
};

int reboot_executor_new(const struct reboot_executor_opts *o,
			struct executor **out, struct kd_err *err);

/*
 * The store executor: it measures nothing, and answers from the store what
 * another executor measured (a Slurm node's bisection): a commit has its
 * runs when the store holds them; else it did not build when
 * build_failed ("<commit or its abbreviation> <why>" lines) says so, its
 * run failed when the store holds a failed run with the request's tag;
 * otherwise the request is an error that names where (what the other
 * executor left, for messages).
 */
int store_executor_new(const char *result_root, const char *host,
		       const char *build_failed, const char *where,
		       struct executor **out, struct kd_err *err);

/*
 * The complete runs of a commit directory that a request with tag counts
 * (store_count_runs() of them all when tag is NULL).
 */
int measure_count_runs(const char *commit_dir, const char *tag, size_t *ok,
		       size_t *failed, char **last_failure, struct kd_err *err);

/*
 * The shell command that puts a commit in place before a run, as the
 * runner's --setup takes it ({commit} left in): check it out in repo and
 * build it, then install it (install may be NULL).  This is what a
 * report's "To reproduce" says too.
 */
char *measure_setup_command(const char *repo, const char *build,
			    const char *install);

#endif
