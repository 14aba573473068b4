// SPDX-License-Identifier: GPL-2.0
/*
 * kdelta robot: the command line, the loop of passes and the exit status
 * around robot_pass() (src/robot/robot.c).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtin.h"
#include "kdelta/cmdline.h"
#include "kdelta/executor.h"
#include "kdelta/proc.h"
#include "kdelta/robot.h"
#include "kdelta/robot-lock.h"
#include "kdelta/robot-state.h"
#include "kdelta/util.h"
#include "kdelta/run-recover.h"
#include "kdelta/workdir.h"

static const int caught_signals[] = { SIGINT, SIGTERM, SIGHUP };

static const char robot_usage[] =
	"usage: kdelta robot [--once] CONFIG.yaml\n"
	"       kdelta robot --status CONFIG.yaml\n"
	"       kdelta robot --cancel CONFIG.yaml\n"
	"\n"
	"Watches the branches of a git repository that CONFIG.yaml names: for every\n"
	"new head, measures it and its base (its parent, or the merge-base with a\n"
	"base branch) with each job, interleaved on one machine (this one, a\n"
	"Slurm node, or this one rebooted into each commit's kernel: the\n"
	"executor), a round more at a time until every\n"
	"workload result is decided (a sequential test) or max-runs.  When a\n"
	"workload result regressed, bisects between base and head as kdelta\n"
	"bisect does, and mails the first bad commit once\n"
	"per (commit, job, metric) through sendmail.  A commit that does not build\n"
	"is recorded and skipped.  Its state is an SQLite file: a robot killed at\n"
	"any point resumes where it was, without repeating a run that completed;\n"
	"a mail goes out once, but again, with the same Message-ID, when the robot\n"
	"was killed while sendmail ran (sendmail may have taken it).\n"
	"The configuration is described in kdelta-robot(5).\n"
	"\n"
	"    --once              one pass, then exit (default: a pass every\n"
	"                        'interval' until SIGTERM or SIGINT)\n"
	"    --status            what the robot knows: the tests queued or under\n"
	"                        way, recent verdicts, open bisections, mails\n"
	"    --cancel            after stopping the robot: cancel (scancel) the\n"
	"                        Slurm jobs of its batches under way, each only\n"
	"                        while Slurm knows it under its batch's name, so\n"
	"                        that nothing of it runs on; a robot started\n"
	"                        later submits those batches anew.  (SIGTERM or\n"
	"                        SIGINT stop the robot only: its Slurm jobs go on,\n"
	"                        and the next start waits for them.)\n"
	"    -h, --help          show this help\n"
	"\n"
	"The runs' own lines go to <work dir>/robot-runs.log, build logs beside it.\n"
	"\n"
	"One robot at a time works on a state and on a repository: another one\n"
	"(a cron job that overlaps itself) exits at once with status 8.\n"
	"\n"
	"In the loop, a pass that an error ends (a Slurm controller down, a failed\n"
	"git fetch) is tried again after 10s, twice as long after each further\n"
	"one, at most 'interval'; the robot says so and stays alive.\n"
	"\n"
	"Exit status: 0 done (also when SIGTERM or SIGINT ends the loop), 1 an\n"
	"error ended a --once pass (its state, the store, git, the executor),\n"
	"2 bad usage or a bad configuration, 4 the result root, the store, the\n"
	"state or the work directory could not be written (disk full, read-only),\n"
	"or a --once pass could not send a mail (it is kept, and sent again),\n"
	"8 another robot is at work on the same state or repository, 128+N a\n"
	"--once pass stopped by signal N.\n"
	"See kdelta(1).\n";

struct robot_args {
	bool once, status, cancel;
	const char *config;
};

static int parse_options(int argc, char **argv, struct robot_args *a)
{
	static const struct option options[] = {
		{ "once", no_argument, NULL, 'o' },
		{ "status", no_argument, NULL, 's' },
		{ "cancel", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	struct cmd_parser p = { "robot", "", options, 0, "" };
	struct kd_err err;
	int c;

	while ((c = cmd_next_option(&p, argc, argv, &err)) != -1) {
		switch (c) {
		case 'o': a->once = true; break;
		case 's': a->status = true; break;
		case 'c': a->cancel = true; break;
		case CMD_HELP: fputs(robot_usage, stdout); return 1;
		default:
			cmd_error("robot", "%s", err.msg);
			return -1;
		}
	}
	if (a->once + a->status + a->cancel > 1) {
		cmd_error("robot", "--once, --status and --cancel exclude each other");
		return -1;
	}
	if (optind != argc - 1) {
		cmd_error("robot", "%s; usage: kdelta robot [--once|--status|--cancel] CONFIG.yaml",
			optind >= argc ? "no configuration file given"
				       : "one configuration file only");
		return -1;
	}
	a->config = argv[optind];
	return 0;
}

static int show_status(const struct robot_config *cfg)
{
	struct robot_state *st;
	struct kd_err err;
	int ret;

	if (!path_exists(cfg->state)) {
		printf("state: %s (none yet: the robot has not run)\n",
		       cfg->state);
		return KD_EXIT_OK;
	}
	if (robot_state_open(cfg->state, &st, &err) < 0) {
		cmd_error("robot", "%s", err.msg);
		return KD_EXIT_FAIL;
	}
	printf("state: %s\n", cfg->state);
	ret = robot_state_print(st, stdout, &err);
	robot_state_close(st);
	if (ret < 0) {
		cmd_error("robot", "%s", err.msg);
		return KD_EXIT_FAIL;
	}
	return KD_EXIT_OK;
}

/* Until the interval is over or a signal came: the signal, or 0. */
static int wait_interval(int cancel_fd, double seconds)
{
	struct pollfd p = { .fd = cancel_fd, .events = POLLIN };
	double end = now_monotonic() + seconds, left;

	while ((left = end - now_monotonic()) > 0) {
		int ms = left > 3600 ? 3600 * 1000 : (int)(left * 1000) + 1;

		if (poll(&p, 1, ms) > 0)
			break;
	}
	return proc_caught_signal(cancel_fd);
}

/*
 * After a failed pass in the loop: ROBOT_RETRY_FIRST seconds, twice as
 * long after each further one, at most the interval.
 */
static double retry_delay(unsigned failures, double interval)
{
	double delay = ROBOT_RETRY_FIRST;

	for (unsigned i = 1; i < failures && delay < interval; i++)
		delay *= 2;
	return delay < interval ? delay : interval;
}

/* Failed passes in a row, for the log. */
struct failures {
	unsigned n;
	char since[32];		/* the first one's time */
};

/*
 * A failed pass in the loop: said with how many failed in a row since
 * when, then a wait before the next try; the robot stays alive.
 */
static double pass_failed(const struct robot_opts *o, struct failures *f,
			  const struct kd_err *err)
{
	double delay;

	if (!f->n++) {
		time_t now = time(NULL);
		struct tm tm;

		strftime(f->since, sizeof(f->since), "%Y-%m-%d %H:%M:%S",
			 localtime_r(&now, &tm));
	}
	delay = retry_delay(f->n, o->cfg->interval);
	fprintf(o->log, "robot: pass failed (%u in a row, since %s): %s; trying again in %gs\n",
		f->n, f->since, err->msg, delay);
	return delay;
}

/*
 * Passes until --once is done or a signal: an exit status.  An error ends
 * a --once pass (status 1, 4 when the store could not be written); in the
 * loop, it is said and the pass is tried again after a while (a
 * controller that was down for a moment, a fetch that failed).
 */
static int passes(const struct robot_args *a, const struct robot_opts *o)
{
	struct failures f = { 0 };

	for (;;) {
		struct robot_pass_result res;
		struct kd_err err;
		double wait = o->cfg->interval;
		int sig;

		if (robot_pass(o, &res, &err) < 0) {
			if (a->once) {
				cmd_error("robot", "%s", err.msg);
				return res.store_failed ? KD_EXIT_WRITE
							: KD_EXIT_FAIL;
			}
			wait = pass_failed(o, &f, &err);
		} else {
			if (f.n)
				fprintf(o->log, "robot: this pass worked, after %u that failed since %s\n",
					f.n, f.since);
			f.n = 0;
			fprintf(o->log, "robot: pass %s: %zu compared, %zu bisected, %zu mailed, %zu failed",
				res.signal ? "stopped" : "done", res.tested,
				res.bisected, res.mailed, res.failed);
			if (res.undecided)
				fprintf(o->log, ", %zu undecided", res.undecided);
			if (res.unsent)
				fprintf(o->log, ", %zu mail%s not sent (sent again on the next pass)",
					res.unsent, res.unsent == 1 ? "" : "s");
			fputc('\n', o->log);
			if (!res.signal && !a->once)
				fprintf(o->log, "robot: next pass in %gs\n", wait);
		}
		fflush(o->log);
		sig = res.signal;
		if (!sig && !a->once)
			sig = wait_interval(o->cancel_fd, wait);
		if (sig) {
			cmd_error("robot", "stopped by SIG%s; the next start resumes where it was",
				sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
			return a->once ? 128 + sig : KD_EXIT_OK;
		}
		if (a->once)
			return res.unsent ? KD_EXIT_WRITE : KD_EXIT_OK;
	}
}

/* The configured executor. */
static int executor_new(const struct robot_config *cfg,
			const struct local_executor_opts *lo,
			struct executor **out, struct kd_err *err)
{
	struct slurm_executor_opts so = {
		.repo = cfg->repo, .build = cfg->build, .install = cfg->install,
		.result_root = cfg->result_root, .job_dir = cfg->slurm.job_dir,
		.work_dir = cfg->slurm.work_dir,
		.partition = cfg->slurm.partition,
		.account = cfg->slurm.account,
		.constraint = cfg->slurm.constraint,
		.kdelta = cfg->slurm.kdelta, .poll = cfg->slurm.poll,
		.timeout = cfg->slurm.timeout,
		.cancel_fd = lo->cancel_fd, .progress = stderr,
		.command = "robot", .vm = lo->vm,
	};

	struct reboot_executor_opts ro = {
		.repo = cfg->repo, .build = cfg->build,
		.result_root = cfg->result_root, .work_dir = lo->work_dir,
		.boot = cfg->reboot.command, .modules = cfg->reboot.modules,
		.timeout = cfg->reboot.timeout,
		.runs_per_boot = cfg->reboot.runs_per_boot,
		.state_dir = cfg->reboot.state_dir,
		.cancel_fd = lo->cancel_fd, .log = lo->log, .progress = stderr,
		.command = "robot",
	};

	if (!strcmp(cfg->executor, "slurm"))
		return slurm_executor_new(&so, out, err);
	if (!strcmp(cfg->executor, "reboot"))
		return reboot_executor_new(&ro, out, err);
	return local_executor_new(lo, out, err);
}

/*
 * --cancel: the Slurm jobs of the batches under way, cancelled; the
 * batches forget them, so that the next pass submits them anew.
 */
static int cancel_batches(struct robot_state *st, struct executor *ex,
			  struct kd_err *err)
{
	char **purposes, **tickets;
	size_t n, cancelled = 0;
	int ret = robot_state_batch_tickets(st, &purposes, &tickets, &n, err);

	for (size_t i = 0; i < n && !ret; i++) {
		bool done;

		ret = executor_cancel(ex, tickets[i], &done, err);
		if (!ret)
			ret = robot_state_batch_close(st, purposes[i],
				done ? "collected" : "cancelled",
				done ? "ended before --cancel" : "--cancel",
				err);
		cancelled += !ret && !done;
	}
	if (!ret)
		fprintf(stderr, "robot: %zu batch%s cancelled\n", cancelled,
			cancelled == 1 ? "" : "es");
	for (size_t i = 0; i < n; i++) {
		free(purposes[i]);
		free(tickets[i]);
	}
	free(purposes);
	free(tickets);
	return ret;
}

/* The work directory, the executor, the state: then the passes. */
static int robot_locked(const struct robot_args *a,
			const struct robot_config *cfg, int cancel_fd)
{
	struct work_dir wd = { .fd = -1 };
	struct strbuf notes = STRBUF_INIT;
	struct local_executor_opts lo = {
		.repo = cfg->repo, .build = cfg->build, .install = cfg->install,
		.result_root = cfg->result_root, .work_dir = &wd,
		.cancel_fd = cancel_fd,
		.command = "robot", .progress = stderr,
		.vm = executor_builds_kernels(cfg->build) ? &cfg->vm : NULL,
		.kernel_cache = cfg->kernel_cache,
	};
	struct robot_opts o = { .cfg = cfg, .cancel_fd = cancel_fd,
				.log = stderr };
	struct kd_err err = { .status = 0 };
	int ret, status = KD_EXIT_FAIL;

	if (mkdir_p(cfg->result_root, &err) < 0) {
		cmd_error("robot", "cannot write the results: %s",
			err.msg);
		return KD_EXIT_WRITE;
	}
	ret = run_work_dir_prepare(&wd, cfg->work_dir, "robot", &notes, &err);
	fputs(notes.buf, stderr);
	strbuf_release(&notes);
	if (ret < 0) {
		cmd_error("robot", "%s", err.msg);
		return kd_err_status(&err, KD_EXIT_USAGE);
	}
	lo.log = work_dir_open_log(&wd, "robot-runs.log", &err);
	if (!lo.log) {
		cmd_error("robot", "%s", err.msg);
		work_dir_close(&wd);
		return KD_EXIT_WRITE;
	}
	if (executor_new(cfg, &lo, &o.executor, &err) < 0)
		cmd_error("robot", "%s", err.msg);
	else if ((ret = robot_state_open(cfg->state, &o.state, &err)) < 0) {
		cmd_error("robot", "%s", err.msg);
		status = kd_err_status(&err, status);
	} else if (!a->cancel)
		status = passes(a, &o);
	else if (cancel_batches(o.state, o.executor, &err) < 0)
		cmd_error("robot", "%s", err.msg);
	else
		status = KD_EXIT_OK;
	robot_state_close(o.state);
	executor_release(o.executor);
	fclose(lo.log);
	work_dir_close(&wd);
	return status;
}

/*
 * The robot's locks (robot-lock.h), then the rest: another robot at work
 * on the same state or repository is exit status 8, with nothing done.
 */
static int robot(const struct robot_args *a, const struct robot_config *cfg,
		 int cancel_fd)
{
	struct robot_lock lock;
	struct kd_err err;
	int ret = robot_lock_take(cfg, &lock, &err), status;

	if (ret) {
		cmd_error("robot", "%s%s", err.msg, ret > 0 ?
			  "; another robot is at work there: nothing done" : "");
		return ret > 0 ? KD_EXIT_BUSY : KD_EXIT_WRITE;
	}
	status = robot_locked(a, cfg, cancel_fd);
	robot_lock_release(&lock);
	return status;
}

int cmd_robot(int argc, char **argv)
{
	struct robot_args a = { 0 };
	struct robot_config cfg;
	struct kd_err err;
	int r, status, cancel_fd;

	optind = 1;
	r = parse_options(argc, argv, &a);
	if (r)
		return r > 0 ? KD_EXIT_OK : KD_EXIT_USAGE;
	if (robot_config_load(a.config, &cfg, &err) < 0) {
		cmd_error("robot", "%s", err.msg);
		robot_config_release(&cfg);
		return KD_EXIT_USAGE;
	}
	if (a.status) {
		status = show_status(&cfg);
	} else if ((cancel_fd = proc_catch_signals(caught_signals,
				ARRAY_SIZE(caught_signals), &err)) < 0) {
		cmd_error("robot", "%s", err.msg);
		status = KD_EXIT_FAIL;
	} else {
		status = robot(&a, &cfg, cancel_fd);
		proc_release_signals(cancel_fd, caught_signals,
				     ARRAY_SIZE(caught_signals));
	}
	robot_config_release(&cfg);
	return status;
}
