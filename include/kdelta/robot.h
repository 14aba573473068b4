/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_ROBOT_H
#define KDELTA_ROBOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kdelta/err.h"
#include "kdelta/job.h"
#include "kdelta/key-result.h"
#include "kdelta/mail.h"
#include "kdelta/vm.h"

/*
 * kdelta robot: watches branches of a repository, measures every new head
 * against its base, bisects a regression of a workload result, and mails
 * the first bad commit once.  The configuration (robot-config.c), the
 * durable state in SQLite (robot-state.c) and one pass (robot.c).
 * kdelta-robot(5) describes the configuration.
 */

#define ROBOT_DEFAULT_RUNS 3
#define ROBOT_DEFAULT_MAX_RUNS 10
#define ROBOT_DEFAULT_INTERVAL 600.0	/* seconds between passes */
/* Seconds before trying a failed pass again, doubled after each failure. */
#define ROBOT_RETRY_FIRST 10.0
#define ROBOT_STATE_FILE ".kdelta/robot.db"	/* in the result root */
#define ROBOT_SLURM_DIR ".kdelta/slurm"		/* in the result root */
#define ROBOT_REBOOT_DIR ".kdelta/reboot"	/* in the result root */
#define ROBOT_SLURM_POLL 10.0	/* seconds between looks at a Slurm job */
#define ROBOT_SLURM_TIMEOUT 120.0	/* the longest a Slurm command may take */
/* A branch to watch, and what its heads are compared with. */
struct robot_branch {
	char *name;	/* a revision naming it: "for-next", "origin/for-next" */
	char *base;	/* NULL: a head's parent; else the merge-base with it */
};

struct robot_mail {
	bool enabled;	/* the configuration has a mail section */
	struct mail_addresses from;	/* empty: report's default */
	struct mail_addresses to, cc;
	bool author;	/* the first bad commit's author is added to To */
	char *sendmail;	/* the command, split at blanks */
	/*
	 * Where the mail's recipients clone the repository from (a URL), for
	 * its "To reproduce"; NULL: a placeholder, <your clone>.
	 */
	char *repository;
};

struct robot_config {
	char *path;		/* the file, as given */
	char *repo;		/* the work tree, absolute */
	struct robot_branch *branches;
	size_t n_branches;
	struct job_set *job_files;	/* one set per file of "jobs" */
	size_t n_job_files;
	char *build;		/* sh -c in repo; {commit} replaced, and
				 * {out}: then commits are kernels, booted
				 * in virtual machines (vm) */
	/*
	 * "kernel-config": build is the kernel tree's build command that
	 * kdelta wrote (kdelta/kernel-tree.h), and the commits' kernels are
	 * kept here; NULL otherwise.
	 */
	char *kernel_cache;
	char *install;		/* NULL, or sh -c in a commit's build tree:
				 * each commit built once (executor.h) */
	/*
	 * key-result: the key results and their directions, over those of
	 * the jobs (key-result.h); none: the jobs'.
	 */
	struct key_results key_results;
	unsigned runs, max_runs;
	double min_change;	/* percent */
	char *result_root;	/* absolute */
	char *work_dir;		/* NULL: the default private work directory */
	char *state;		/* the SQLite file, absolute */
	double interval;	/* seconds */
	char *executor;		/* "local", "slurm", "reboot" */
	struct robot_slurm {
		char *partition, *account, *constraint;	/* NULL: Slurm's */
		char *kdelta;	/* the program on the nodes */
		char *job_dir;	/* absolute: the batches' files */
		char *work_dir;	/* kdelta run's on the nodes; NULL: default */
		double poll;	/* seconds */
		double timeout;	/* seconds */
	} slurm;
	struct robot_reboot {
		char *command;	/* the boot command ({image} ...) */
		char *modules;	/* absolute */
		double timeout;	/* seconds */
		unsigned runs_per_boot;
		char *state_dir;	/* absolute: the result root's */
	} reboot;
	struct robot_mail mail;
	/*
	 * "vm": the --vm-* options of the kernels' boots, for a build that
	 * names {out} (kdelta/vm.h; kernels unset, files and append owned).
	 */
	struct vm_options vm;
};

/*
 * Loads and checks the configuration: every key known, the repository a
 * git work tree, every branch and base a revision of it, every job file
 * loadable with one workload.  Errors say "FILE:LINE:COL: ..." where the
 * file has the place.  Relative paths are relative to the file's
 * directory.
 */
int robot_config_load(const char *path, struct robot_config *cfg,
		      struct kd_err *err);
/*
 * The configuration in text (len bytes, as read from path) checked as
 * robot_config_load() checks it, but without a look at the world: the
 * repository, its branches and the job files are not looked at (no job is
 * loaded).  For the robot-config fuzz target.
 */
int robot_config_parse(const char *text, size_t len, const char *path,
		       struct robot_config *cfg, struct kd_err *err);
void robot_config_release(struct robot_config *cfg);

/*
 * The To of a mail about a commit: with 'author', the commit's author,
 * then the configured addresses.  The author as git gives the name and the address
 * apart (git log --format=%an, %ae), never parsed from one string, so
 * that no name can add a recipient.  An author address kdelta does not
 * write (mail_addresses_add()) is left out, and note says why.
 */
void robot_mail_to(const struct robot_mail *m, const char *author_name,
		   const char *author_addr, struct mail_addresses *to,
		   struct strbuf *note);

/* The durable state (robot-state.c): SQLite, WAL, one transaction a step. */
struct robot_state;

/*
 * -1 on errors; of the kind KD_EXIT_WRITE (kd_err_status()) when the
 * state's file could not be written (disk full, read-only, an I/O error).
 */
int robot_state_open(const char *path, struct robot_state **out,
		     struct kd_err *err);
void robot_state_close(struct robot_state *st);
/* Whether a write to the state failed so (struct db's not_written). */
bool robot_state_not_written(const struct robot_state *st);
/* "kdelta robot --status": the queue, recent verdicts, bisects, mails. */
int robot_state_print(struct robot_state *st, FILE *out, struct kd_err *err);

struct robot_opts {
	const struct robot_config *cfg;
	struct robot_state *state;
	struct executor *executor;	/* measures the commits */
	int cancel_fd;			/* readable: stop (proc_catch_signals) */
	FILE *log;			/* progress lines ("robot: ...") */
};

struct robot_pass_result {
	size_t tested;		/* comparisons decided in this pass */
	size_t bisected;	/* bisections ended */
	size_t mailed;		/* mails sent */
	size_t failed;		/* tests whose job failed, or that ended in an error */
	size_t undecided;	/* tests and bisections that ended undecided */
	size_t unsent;		/* mails sendmail did not take (sent next pass) */
	int signal;		/* a signal stopped the pass */
	bool store_failed;	/* the store could not be written */
};

/*
 * One pass: fetches, records the heads not yet tested, and takes every
 * test that is not done (also those an earlier, killed robot left) as far
 * as it goes: base and head measured, compared, a regression bisected,
 * the first bad commit mailed once per (commit, job, metric).  Returns -1
 * on errors that end the pass (its state, the store, git, the executor:
 * the loop tries again later, --once exits; res->store_failed says when
 * the store could not be written); a commit that does not build or a job
 * that fails is recorded, not an error.
 */
int robot_pass(const struct robot_opts *o, struct robot_pass_result *res,
	       struct kd_err *err);

#endif
