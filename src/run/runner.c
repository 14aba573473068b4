// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "kdelta/cpufreq.h"
#include "kdelta/disk.h"
#include "kdelta/disturbance.h"
#include "kdelta/machine.h"
#include "kdelta/monitor.h"
#include "kdelta/params.h"
#include "kdelta/proc.h"
#include "kdelta/progress.h"
#include "kdelta/result-index.h"
#include "kdelta/run-decide.h"
#include "kdelta/run-record.h"
#include "kdelta/runner.h"
#include "kdelta/store.h"
#include "kdelta/util.h"
#include "kdelta/workdir.h"
#include "kdelta/workload.h"
#include "version.h"

#include "runner-private.h"

static bool interrupted(struct run *r)
{
	if (!r->interrupted && proc_caught_signal(r->b->opts->cancel_fd))
		r->interrupted = true;
	return r->interrupted;
}

static void set_number(struct jnode *map, const char *key, const char *fmt,
		       double value)
{
	char buf[64];

	snprintf(buf, sizeof(buf), fmt, value);
	set_scalar(map, key, buf);
}

/* Whether any round holds more than one run: then the order matters. */
static bool plan_has_order(const struct run_plan *plan)
{
	return plan->order == RUN_ORDER_SHUFFLED &&
	       plan->n_jobs * plan->n_commits > 1;
}

/*
 * The order of the batch, and the seed that repeats a shuffled one: a
 * fixed order has no seed, a lone job and commit no order at all.
 */
static void record_order(struct run *r)
{
	const struct run_plan *plan = &r->b->plan;
	char seed[32];

	if (plan->order == RUN_ORDER_FIXED)
		set_scalar(r->kdelta, "order", run_order_names[plan->order]);
	if (!plan_has_order(plan))
		return;
	set_scalar(r->kdelta, "order", run_order_names[plan->order]);
	snprintf(seed, sizeof(seed), "%" PRIu64, plan->seed);
	set_scalar(r->kdelta, "seed", seed);
}

/* The job as it runs, with commit, host, machine and kdelta. */
static void record_init(struct run *r)
{
	char date[64];
	time_t now = time(NULL);
	struct tm tm;

	r->record = jnode_clone(r->job->root);
	set_number(r->record, "runs", "%.0f", r->runs);
	r->kdelta = jnode_new_map();
	set_scalar(r->kdelta, "version", KDELTA_VERSION);
	set_number(r->kdelta, "run", "%.0f", r->number);
	set_number(r->kdelta, "start_time", "%.3f", now_epoch());
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S%z",
		 localtime_r(&now, &tm));
	set_scalar(r->kdelta, "start_date", date);
	if (r->b->opts->setup)
		set_scalar(r->kdelta, RUN_RECORD_SETUP, r->b->opts->setup);
	record_order(r);
	set_scalar(r->kdelta, RUN_RECORD_BATCH, r->b->batch_id);
	/* A batch given goes on over several runners: its rounds go on too. */
	set_number(r->kdelta, RUN_RECORD_ROUND, "%.0f",
		   (double)r->step->round +
		   (r->b->opts->batch ? r->b->opts->first_round : 0));
	if (r->b->opts->tag)
		set_scalar(r->kdelta, RUN_RECORD_TAG, r->b->opts->tag);
	run_record_set(r->record, r->commit, r->b->machine.hostname,
		       machine_to_jnode(&r->b->machine), r->kdelta);
}

static int record_write(struct run *r, struct kd_err *err)
{
	struct strbuf yaml = STRBUF_INIT;
	char *path = xasprintf("%s/%s", r->run_dir, STORE_JOB_FILE);
	int ret;

	job_to_yaml(r->record, &yaml);
	ret = write_file_atomic(path, yaml.buf, yaml.len, err);
	strbuf_release(&yaml);
	free(path);
	return ret;
}

/* proc's tick, for the batch's progress line. */
static void tick_progress(void *progress)
{
	progress_tick(progress);
}

/* Allocates the run directory: numbered in the store, or a warmup's scratch. */
static int run_open(struct run *r, struct kd_err *err)
{
	const struct runner_opts *o = r->b->opts;

	if (r->step->warmup) {
		/* Discarded with the workspace. */
		r->run_dir = xasprintf("%s/warmup", r->ws.path);
		if (mkdirat(r->ws.fd, "warmup", 0700) < 0)
			return kd_error(err, "%s: %s", r->run_dir,
					strerror(errno));
		r->number = r->step->round;
	} else {
		r->commit_dir = runner_commit_dir(r->job, o->result_root,
			r->b->machine.hostname, r->commit);
		if (store_alloc_run(r->commit_dir, &r->number, &r->run_dir, err) < 0)
			return -1;
		/* A kill -9 from here: the next start marks it interrupted. */
		if (workspace_record(&r->ws, err, "run", "%s", r->run_dir) < 0)
			return -1;
	}
	record_init(r);
	return record_write(r, err);
}

static void run_setup_hook(struct run *r)
{
	const struct runner_opts *o = r->b->opts;
	char *command = setup_command_expand(o->setup, r->commit);
	char *env_commit = xasprintf("KDELTA_COMMIT=%s", r->commit);
	const char *env[] = { env_commit, NULL };
	char *log = xasprintf("%s/%s", r->run_dir, STORE_SETUP_LOG);
	struct strbuf how = STRBUF_INIT;
	struct proc p = PROC_INIT;
	struct kd_err err;

	p.shell = command;
	p.env = env;
	p.cgroup = r->ws.cgroup;
	p.out_path = log;
	p.cancel_fd = o->cancel_fd;
	p.tick = tick_progress;
	p.tick_arg = &r->b->progress;
	if (proc_run(&p, &err) < 0) {
		run_fail(r, "setup: %s", err.msg);
	} else if (p.end == PROC_CANCELLED) {
		r->interrupted = true;
	} else if (p.end != PROC_EXITED || p.status) {
		proc_describe_failure(&p, p.err_buf.buf, p.err_buf.len, &how);
		run_fail(r, "setup %s", how.buf);
	}
	proc_clear(&p);
	strbuf_release(&how);
	free(log);
	free(env_commit);
	free(command);
}

/* The file system and the monitors; the caller cleans up either way. */
static void run_prepare(struct run *r)
{
	struct monitor_run watched;
	struct kd_err err;

	run_machine_settings(r);
	if (r->failure.len)
		return;
	if (fs_setup(r->job->root, &r->ws, &r->b->opts->disks, &r->mount,
		     &err) < 0) {
		r->mount = NULL;
		run_fail(r, "%s", err.msg);
		return;
	}
	set_scalar(r->kdelta, "fs", fs_describe(r->mount));
	if (interrupted(r))
		return;
	watched.job_root = r->job->root;
	watched.run_dir = r->run_dir;
	watched.work_dir = fs_work_dir(r->mount);
	watched.scratch_dir = r->ws.path;
	watched.cancel_fd = r->b->opts->cancel_fd;
	if (monitors_start(&watched, &r->monitors, &err) < 0) {
		r->monitors = NULL;
		run_fail(r, "monitors: %s", err.msg);
		return;
	}
	note_unavailable(r);
}

struct workload_child {
	const struct run *r;
	int go[2];		/* the parent writes one byte: start */
};

/* In the child: wait for the go, run the workload, exit. */
static int workload_child_main(void *arg)
{
	struct workload_child *c = arg;
	const struct run *r = c->r;
	struct kd_err err;
	char go;

	close(c->go[1]);
	if (read(c->go[0], &go, 1) != 1)
		return 1;	/* the parent gave up before the start */
	if (r->wl->run(jnode_get(r->job->root, r->wl->section.name), stdout,
		       &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	return 0;
}

static void workload_failure(struct run *r, const struct proc *p)
{
	char *errlog = xasprintf("%s/%s.stderr", r->run_dir, r->prefix);
	struct strbuf how = STRBUF_INIT, text = STRBUF_INIT;
	struct kd_err err;

	if (read_file(errlog, &text, &err) < 0)
		strbuf_reset(&text);
	proc_describe_failure(p, text.buf, text.len, &how);
	run_fail(r, "%s %s", r->prefix, how.buf);
	strbuf_release(&text);
	strbuf_release(&how);
	free(errlog);
}

/*
 * Forks the workload, starts it once forked, waits for it; records what
 * else the machine did meanwhile.
 */
static void run_workload(struct run *r, struct workload_usage *usage)
{
	struct workload_child child = { .r = r };
	struct disturbance_sample before, after;
	char *proc = monitor_proc_path("/proc");
	char *log = xasprintf("%s/%s.log", r->run_dir, r->prefix);
	char *errlog = xasprintf("%s/%s.stderr", r->run_dir, r->prefix);
	struct proc p = PROC_INIT;
	struct kd_err err;

	if (pipe2(child.go, O_CLOEXEC) < 0) {
		run_fail(r, "cannot create a pipe: %s", strerror(errno));
		goto out;
	}
	p.fn = workload_child_main;
	p.arg = &child;
	p.cgroup = r->ws.cgroup;
	p.dir_fd = fs_work_dir_fd(r->mount);
	p.out_path = log;
	p.err_path = errlog;
	p.cancel_fd = r->b->opts->cancel_fd;
	p.tick = tick_progress;
	p.tick_arg = &r->b->progress;
	/* Forked before the go, so that monitors see only the workload. */
	if (proc_start(&p, &err) < 0) {
		close(child.go[0]);
		close(child.go[1]);
		run_fail(r, "%s", err.msg);
		goto out;
	}
	close(child.go[0]);
	disturbance_read(proc, getpid(), &before);
	p.start = now_monotonic();
	if (write(child.go[1], "g", 1) != 1)
		proc_kill(&p);
	close(child.go[1]);
	if (proc_wait(&p, &err) < 0)
		run_fail(r, "%s", err.msg);
	else if (p.end == PROC_CANCELLED)
		r->interrupted = true;
	else if (p.end != PROC_EXITED || p.status)
		workload_failure(r, &p);
	disturbance_read(proc, getpid(), &after);
	disturbance_record(&before, &after, r->kdelta);
	disturbance_sample_release(&before);
	disturbance_sample_release(&after);
	usage->ru = p.rusage;
	usage->elapsed = p.elapsed;
	proc_clear(&p);
out:
	free(proc);
	free(errlog);
	free(log);
}

/*
 * Stops the monitors, kills what the run left running, tears the file
 * system down and removes the workspace, whatever happened.  What cannot
 * be undone fails the run; the workspace then stays, with its record of
 * what is left, for the next kdelta to clean up.
 */
static void run_cleanup(struct run *r, const struct workload_usage *usage)
{
	struct kd_err err;

	if (r->monitors && monitors_stop(r->monitors, usage, &err) < 0 &&
	    !r->interrupted)
		run_fail(r, "monitors: %s", err.msg);
	monitor_session_free(r->monitors);
	r->monitors = NULL;
	if (r->ws.fd >= 0 && workspace_kill(&r->ws, &err) < 0) {
		progress_notice(&r->b->progress, "%s", err.msg);
		run_fail(r, "%s", err.msg);
	}
	if (r->mount && fs_teardown(r->mount, &err) < 0) {
		progress_notice(&r->b->progress, "%s", err.msg);
		run_fail(r, "teardown: %s", err.msg);
		workspace_leave(&r->ws);
	}
	r->mount = NULL;
	/* The workspace itself goes once the run is marked (batch_step()). */
	if (r->ws.fd >= 0 && workspace_empty(&r->ws, &err) < 0) {
		progress_notice(&r->b->progress, "%s", err.msg);
		run_fail(r, "%s", err.msg);
		workspace_leave(&r->ws);
	}
	if (cpufreq_restore(&r->cpufreq, &err) < 0)
		progress_notice(&r->b->progress, "%s", err.msg);
}

/*
 * The commit's matrix, after the run's completion mark.  When it cannot be
 * written, the mark goes again: the matrix must stay the set of complete
 * runs, and the run is left incomplete.
 */
static int run_update_matrix(struct run *r, struct kd_err *err)
{
	char *mark;

	if (store_rebuild_matrix(r->commit_dir, NULL, err) == 0)
		return 0;
	mark = xasprintf("%s/%s", r->run_dir, STORE_COMPLETE_FILE);
	if (unlink(mark) < 0)
		kd_error(err, "%s; removing %s failed too (%s): the matrix lacks this run until the next run of this commit rewrites it",
			 err->msg, mark, strerror(errno));
	free(mark);
	return -1;
}

/* The run's workload results, for --until-decided. */
static void decider_add(const struct run *r, json_t *stats)
{
	size_t len = strlen(r->prefix);
	const char *key;
	json_t *value;

	if (!r->b->decider || !stats)
		return;
	json_object_foreach(stats, key, value)
		if (!strncmp(key, r->prefix, len) && key[len] == '.' &&
		    json_is_number(value))
			run_decider_add(r->b->decider, r->step->job,
					r->step->commit, key,
					json_number_value(value));
}

/*
 * Whether the workload reported anything: a run without a single result
 * of its own has measured nothing, whatever the monitors saw.
 */
static bool has_result(const struct run *r, json_t *stats)
{
	size_t len = strlen(r->prefix);
	const char *key;
	json_t *value;

	json_object_foreach(stats, key, value)
		if (!strncmp(key, r->prefix, len) && key[len] == '.')
			return true;
	return false;
}

/*
 * stats.json, then the completion mark, then the matrix.  A file that
 * cannot be written stops the batch: the run is left incomplete, and one
 * whose workload printed no result fails.
 */
static int run_finish(struct run *r, struct kd_err *err)
{
	json_t *stats = NULL;
	struct kd_err xerr;
	int ret = -1;

	if (!r->failure.len && run_dir_extract(r->run_dir, &stats, &xerr) < 0)
		run_fail(r, "stats: %s", xerr.msg);
	if (!r->failure.len && !has_result(r, stats))
		run_fail(r, "%s printed no 'key: value' line; see kdelta-job(5) %s",
			 r->prefix, r->wl->section.name);
	if (stats && run_dir_write_stats(r->run_dir, stats, err) < 0)
		goto out;
	if (r->failure.len) {
		char *status = xasprintf("failed: %s", r->failure.buf);

		ret = store_mark_complete(r->run_dir, status, err);
		free(status);
	} else {
		ret = store_mark_complete(r->run_dir, "ok", err);
	}
	if (ret == 0 && !r->b->opts->no_matrix)
		ret = run_update_matrix(r, err);
	if (ret == 0 && !r->failure.len)
		decider_add(r, stats);
	/* The store's index learns of the run now, not at the next lookup. */
	if (ret == 0 && !r->b->opts->no_matrix &&
	    result_index_update(r->b->opts->result_root, &xerr) < 0)
		progress_notice(&r->b->progress, "%s", xerr.msg);
	if (ret == 0 && r->b->opts->run_stored)
		r->b->opts->run_stored(r->b->opts->run_arg, r->step->job,
				       r->step->round, r->run_dir);
out:
	json_decref(stats);
	return ret;
}

/* "ok, 2.1s, punch.usecs_per_punch: 1.23": the first result the workload printed (store_result_next()). */
static void run_result_line(const struct run *r, double took,
			    struct strbuf *out)
{
	char *log = xasprintf("%s/%s.log", r->run_dir, r->prefix);
	struct strbuf text = STRBUF_INIT;
	struct kd_err err;

	if (r->failure.len) {
		strbuf_addf(out, "failed: %s", r->failure.buf);
	} else {
		const char *pos;
		char *key;
		double value;

		strbuf_addf(out, "ok, %.1fs", took);
		pos = read_file(log, &text, &err) == 0 ? text.buf : "";
		if (store_result_next(&pos, &key, &value)) {
			strbuf_addf(out, ", %s.%s: %.9g", r->prefix, key, value);
			free(key);
		}
	}
	strbuf_release(&text);
	free(log);
}

static void run_release(struct run *r)
{
	free(r->commit_dir);
	free(r->run_dir);
	jnode_free(r->record);
	strbuf_release(&r->failure);
}

/* The run's workspace; a notice once per batch when it has no cgroup. */
static int run_workspace(struct run *r, struct kd_err *err)
{
	struct strbuf no_cgroup = STRBUF_INIT;
	int ret = workspace_create(r->b->opts->work_dir, &r->ws, &no_cgroup,
				   err);

	if (!ret && !r->ws.cgroup && !r->b->no_cgroup_noticed) {
		progress_notice(&r->b->progress,
				"no cgroup for the runs (%s): a run's processes are stopped by process group only (see kdelta(1))",
				no_cgroup.buf);
		r->b->no_cgroup_noticed = true;
	}
	strbuf_release(&no_cgroup);
	return ret;
}

/*
 * One run, start to end.  Returns -1 only when the store cannot be written;
 * a failed or interrupted run returns 0 with r->failure or r->interrupted.
 */
static int run_one(struct run *r, struct kd_err *err)
{
	struct workload_usage usage = { .elapsed = 0 };

	if (run_workspace(r, err) < 0)
		return -1;
	if (run_open(r, err) < 0) {
		run_cleanup(r, &usage);
		return -1;
	}
	if (r->b->opts->fail_reason)
		run_fail(r, "%s", r->b->opts->fail_reason);
	if (r->b->opts->setup && !r->failure.len && !interrupted(r))
		run_setup_hook(r);
	if (!r->failure.len && !interrupted(r))
		run_prepare(r);
	if (!r->failure.len && !interrupted(r)) {
		if (record_write(r, err) < 0) {
			run_cleanup(r, &usage);
			return -1;
		}
		run_workload(r, &usage);
	}
	run_cleanup(r, &usage);
	if (r->step->warmup || r->interrupted || interrupted(r))
		return 0;
	return record_write(r, err) < 0 ? -1 : run_finish(r, err);
}

static void step_title(const struct batch *b, const struct run_step *s,
		       struct strbuf *out)
{
	const struct job *job = b->jobs[s->job];

	/* The log lines have the job's name; the live line says how far too. */
	if (b->opts->live && b->n_jobs > 1)
		strbuf_addf(out, "job %zu/%zu ", s->job + 1, b->n_jobs);
	strbuf_addf(out, "%s/%s ", job->name, b->opts->commits[s->commit]);
	if (s->warmup)
		strbuf_addf(out, "warmup %u/%u", s->round + 1, b->opts->warmup);
	else
		strbuf_addf(out, "run %u/%u", s->round + 1, b->plan.runs[s->job]);
}

/*
 * A run a signal stopped: "interrupted: stopped by SIGTERM", not the
 * commit's doing (store.h), and said in the summary.
 */
static int mark_interrupted(struct batch *b, struct run *r,
			    struct kd_err *err)
{
	int sig = b->summary->signal;
	char *how = xasprintf("kdelta was stopped by SIG%s",
			      sig && sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
	bool marked;
	int ret = store_mark_interrupted(r->run_dir, how, &marked, err);

	free(how);
	if (ret < 0) {
		b->summary->store_failed = true;
		b->summary->kept = xasprintf("%s left incomplete", r->run_dir);
		return -1;
	}
	b->summary->kept = xasprintf("%s marked interrupted", r->run_dir);
	return 0;
}

/*
 * The run's workspace, emptied by run_cleanup(), removed once the run is
 * marked: until then its records (workdir.h) let the next start mark a
 * run that a kill -9 cut short, also between its stats and its mark.
 * A run left incomplete because the store could not be written leaves
 * it, with why, for the next start to mark when it can.
 */
static void run_remove_workspace(struct run *r, const struct kd_err *store)
{
	struct kd_err err;

	if (r->ws.fd < 0)
		return;
	if (store) {
		/* What the next start writes in the mark (workdir.h). */
		workspace_record(&r->ws, &err, "interrupted",
				 "the store could not be written: %s",
				 store->msg);
		workspace_leave(&r->ws);
	} else if (workspace_remove(&r->ws, &err) < 0) {
		progress_notice(&r->b->progress, "%s", err.msg);
	}
}

/* Runs one step of the plan; -1 stops the batch. */
static int batch_step(struct batch *b, const struct run_step *s,
		      struct kd_err *err)
{
	const struct job *job = b->jobs[s->job];
	struct run r = {
		.b = b, .job = job, .step = s, .runs = b->plan.runs[s->job],
		.commit = b->opts->commits[s->commit],
		.wl = workload_of_job(job),
		.ws = { .fd = -1, .state_fd = -1 },
	};
	struct strbuf line = STRBUF_INIT;
	double took;
	int ret;

	strbuf_init(&r.failure);
	r.prefix = workload_prefix(r.wl, jnode_get(job->root, r.wl->section.name));
	if (!s->warmup && b->opts->run_started)
		b->opts->run_started(b->opts->run_arg, s->job, s->round);
	step_title(b, s, &line);
	progress_begin(&b->progress, line.buf);
	r.start = now_monotonic();
	ret = run_one(&r, err);
	took = now_monotonic() - r.start;
	strbuf_reset(&line);
	if (ret < 0) {
		b->summary->store_failed = true;
		if (r.run_dir && !s->warmup)
			b->summary->kept = xasprintf("%s left incomplete", r.run_dir);
		progress_clear(&b->progress);	/* the command says why */
	} else if (!r.interrupted) {
		run_result_line(&r, took, &line);
		progress_end(&b->progress, line.buf, r.failure.len > 0);
		if (r.failure.len)
			b->summary->failed++;
		else if (!s->warmup)
			b->summary->ok++;
	} else if (r.interrupted) {
		b->summary->signal = proc_caught_signal(b->opts->cancel_fd);
		if (!s->warmup)
			ret = mark_interrupted(b, &r, err);
	}
	run_remove_workspace(&r, ret < 0 ? err : NULL);
	strbuf_release(&line);
	run_release(&r);
	return ret;
}

/*
 * --until-decided, after a round: a look at every result of the jobs of
 * that round, and another round of those that need it and may have more.
 * Returns whether a round was added.
 */
static bool batch_add_round(struct batch *b)
{
	const char **names = xcalloc(b->n_jobs, sizeof(*names));
	bool *looked = xcalloc(b->n_jobs, sizeof(*looked));
	struct run_decider_news news = {
		STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
	};
	size_t n;

	for (size_t j = 0; j < b->n_jobs; j++) {
		names[j] = b->jobs[j]->name;
		looked[j] = b->more[j];
	}
	n = run_decider_look(b->decider, names, b->opts->commits,
			     b->plan.runs, looked, b->more, &news);
	if (news.failing.len)
		progress_notice(&b->progress, "cannot decide: %s",
				news.failing.buf);
	if (news.final.len)
		progress_notice(&b->progress, "undecided after --max-runs %u: %s",
				b->opts->max_runs, news.final.buf);
	if (n) {
		progress_notice(&b->progress, "undecided: %s; adding a round",
				news.undecided.buf);
		run_plan_add_round(&b->plan, b->more);
		b->progress.total = b->plan.n;
	}
	strbuf_release(&news.undecided);
	strbuf_release(&news.final);
	strbuf_release(&news.failing);
	free(looked);
	free(names);
	return n > 0;
}

/* --until-decided's design: that of kdelta/sequential.h, at its defaults. */
static struct run_decider *batch_decider(const struct runner_opts *opts,
					 size_t n_jobs)
{
	struct seq_design design;

	if (!opts->until_decided)
		return NULL;
	seq_design_init(&design, opts->max_runs, opts->min_change, false);
	return run_decider_new(n_jobs, opts->n_commits, &design);
}

static void decider_summary(struct batch *b)
{
	size_t counts[4];

	if (!b->decider)
		return;
	run_decider_count(b->decider, counts);
	progress_notice(&b->progress, "until decided: %zu changed, %zu same, %zu undecided (workload results against %s)",
			counts[SEQ_CHANGED], counts[SEQ_SAME],
			counts[SEQ_CONTINUE] + counts[SEQ_UNDECIDED],
			b->opts->commits[0]);
}

int runner_run(struct job *const *jobs, size_t n_jobs,
	       const struct runner_opts *opts, struct runner_summary *summary,
	       struct kd_err *err)
{
	struct batch b = { .opts = opts, .jobs = jobs, .n_jobs = n_jobs,
			   .summary = summary };
	unsigned *runs = xcalloc(n_jobs ? n_jobs : 1, sizeof(*runs));
	int ret = 0;

	memset(summary, 0, sizeof(*summary));
	if (opts->batch)
		snprintf(b.batch_id, sizeof(b.batch_id), "%s", opts->batch);
	else
		snprintf(b.batch_id, sizeof(b.batch_id), "%016" PRIx64,
			 random_u64());
	for (size_t j = 0; j < n_jobs; j++) {
		const struct workload *wl = workload_of_job(jobs[j]);

		runs[j] = job_runs(jobs[j], opts->runs);
		if (workload_prefix_check(wl, jnode_get(jobs[j]->root,
					  wl->section.name), err) < 0) {
			free(runs);
			return kd_error_prefix(err, "job %s", jobs[j]->name);
		}
	}
	if (machine_read(&b.machine, err) < 0) {
		free(runs);
		return -1;
	}
	run_plan_init_from(&b.plan, runs, n_jobs, opts->n_commits,
			   opts->warmup, opts->order, opts->seed,
			   opts->first_round);
	free(runs);
	progress_init(&b.progress, opts->log, opts->live, b.plan.n);
	strbuf_init(&b.noticed);
	strbuf_addch(&b.noticed, '\n');
	if (plan_has_order(&b.plan))
		progress_notice(&b.progress, "runs in rounds, each in the order of seed %" PRIu64 " (--seed %" PRIu64 " repeats it)",
				opts->seed, opts->seed);
	b.decider = batch_decider(opts, n_jobs);
	b.more = xcalloc(n_jobs ? n_jobs : 1, sizeof(*b.more));
	for (size_t j = 0; j < n_jobs; j++)
		b.more[j] = true;
	for (size_t i = 0; ret == 0 && !summary->signal;) {
		for (; i < b.plan.n && !summary->signal; i++) {
			ret = batch_step(&b, &b.plan.steps[i], err);
			if (ret < 0)
				break;
			if (!summary->signal)
				summary->signal = proc_caught_signal(opts->cancel_fd);
		}
		if (ret < 0 || summary->signal || !b.decider ||
		    !batch_add_round(&b))
			break;
	}
	if (ret == 0 && !summary->signal)
		decider_summary(&b);
	run_decider_free(b.decider);
	free(b.more);
	progress_release(&b.progress);
	strbuf_release(&b.noticed);
	machine_release(&b.machine);
	run_plan_release(&b.plan);
	return ret;
}

void runner_summary_release(struct runner_summary *summary)
{
	free(summary->kept);
	summary->kept = NULL;
}
