// SPDX-License-Identifier: GPL-2.0
/*
 * The slurm executor (executor.h): each request is one Slurm job, on a
 * node of its own (sbatch --exclusive), requeued by Slurm when its node
 * fails (--requeue).  The job clones the repository on the node, builds
 * each commit, runs kdelta run on those that built, interleaved, into the
 * result root the nodes share, and writes what it found into its
 * directory (BATCH_FOUND).  kdelta follows it with Slurm's command-line
 * tools, their stable interface: sbatch --parsable gives the job ID,
 * squeue its state while Slurm knows it, sacct (where the cluster keeps
 * accounting) afterwards.  The job ID is handed to the caller before the
 * wait (measure_request.submitted), so that a restarted robot waits for
 * the same job instead of submitting another.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kdelta/executor.h"
#include "kdelta/proc.h"
#include "kdelta/runner.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

#include "executor-internal.h"
#include "slurm-script.h"

#define SHORT "%.12s"

struct slurm_executor {
	struct executor ex;
	struct slurm_executor_opts o;
	char *node;	/* the first job's node: later ones go there */
};

/* "<command>: ..." on progress. */
#define say(se, ...) executor_say((se)->o.progress, (se)->o.command, __VA_ARGS__)

/*
 * Runs a Slurm command; its stdout in out.  -1 when it could not run or
 * gave no answer within the timeout (it is killed: a controller that hangs
 * must not hang the robot); 1 when a signal came (cancel_fd) and it was
 * stopped.
 */
static int slurm_command(const struct slurm_executor *se,
			 const char *const *argv, struct proc *p,
			 struct kd_err *err)
{
	p->argv = argv;
	p->out = PROC_PIPE;
	p->err = PROC_PIPE;
	p->same_group = true;
	p->timeout = se->o.timeout;
	p->cancel_fd = se->o.cancel_fd;
	if (proc_run(p, err) < 0)
		return kd_error_prefix(err, "%s", argv[0]);
	if (p->end == PROC_TIMED_OUT)
		return kd_error(err, "%s: no answer within %gs (slurm: timeout); stopped",
				argv[0], se->o.timeout);
	return p->end == PROC_CANCELLED;
}

/* "sbatch: error: ..." without its newline: what Slurm said. */
static void slurm_failure(const struct proc *p, struct strbuf *why)
{
	strbuf_addstr(why, p->err_buf.len ? p->err_buf.buf : p->out_buf.buf);
	strbuf_rtrim(why);
	if (!why->len)
		proc_describe_end(p, why);
}

/* A commit's complete runs under host (0 without a host). */
static int count_runs(const struct slurm_executor *se, const struct job *job,
		      const char *tag, const char *host, const char *commit,
		      size_t *ok,
		      size_t *failed, char **last_failure, struct kd_err *err)
{
	char *dir;
	int ret;

	*ok = *failed = 0;
	if (last_failure)
		*last_failure = NULL;
	if (!host)
		return 0;
	dir = runner_commit_dir(job, se->o.result_root, host, commit);
	ret = measure_count_runs(dir, tag, ok, failed, last_failure, err);
	free(dir);
	return ret;
}

/* A new batch directory under the job directory, NULL on errors. */
static char *batch_dir_new(const struct slurm_executor *se, struct kd_err *err)
{
	char *dir = xasprintf("%s/batch-XXXXXX", se->o.job_dir);

	if (mkdir_p(se->o.job_dir, err) < 0) {
		free(dir);
		return NULL;
	}
	if (!mkdtemp(dir)) {
		kd_error(err, "%s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

/* dir/name from text; executable when it is the script. */
static int batch_write(const char *dir, const char *name,
		       const struct strbuf *text, struct kd_err *err)
{
	char *path = xasprintf("%s/%s", dir, name);
	int ret = write_file_atomic(path, text->buf, text->len, err);

	if (!ret && !strcmp(name, BATCH_SCRIPT) && chmod(path, 0755) < 0)
		ret = kd_error(err, "%s: %s", path, strerror(errno));
	free(path);
	return ret;
}

/* What every batch holds: its job and its script. */
static int batch_write_job(const char *dir, const struct job *job,
			   const struct strbuf *script, struct kd_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	job_to_yaml(job->root, &sb);
	ret = batch_write(dir, BATCH_JOB, &sb, err);
	if (!ret)
		ret = batch_write(dir, BATCH_SCRIPT, script, err);
	strbuf_release(&sb);
	return ret;
}

/* The batch's directory, its script, its job, the counts before. */
static int prepare_batch(struct slurm_executor *se,
			 const struct measure_request *req, char **dir_out,
			 struct kd_err *err)
{
	char *dir = batch_dir_new(se, err);
	size_t n = req->n_commits;
	size_t *missing = xcalloc(n ? n : 1, sizeof(*missing));
	struct strbuf script = STRBUF_INIT, before = STRBUF_INIT;
	int ret = dir ? 0 : -1;

	*dir_out = NULL;
	for (size_t i = 0; i < n && !ret; i++) {
		size_t ok, failed;

		ret = count_runs(se, req->job, req->tag, se->ex.host,
				 req->commits[i], &ok, &failed, NULL, err);
		missing[i] = ok < req->runs ? req->runs - ok : 0;
		strbuf_addf(&before, "%s %zu %zu\n", req->commits[i], ok,
			    failed);
	}
	if (!ret) {
		if (se->ex.host)
			strbuf_addf(&before, "host %s\n", se->ex.host);
		ret = batch_write(dir, BATCH_BEFORE, &before, err);
	}
	if (!ret) {
		slurm_script_measure(&se->o, req, dir, missing, &script);
		ret = batch_write_job(dir, req->job, &script, err);
	}
	strbuf_release(&script);
	strbuf_release(&before);
	free(missing);
	if (ret < 0) {
		free(dir);
		return -1;
	}
	*dir_out = dir;
	return 0;
}

/* sbatch: the job ID. */
static int submit(struct slurm_executor *se, const char *dir, long *id,
		  struct kd_err *err)
{
	char *name;
	char *script = xasprintf("%s/%s", dir, BATCH_SCRIPT);
	char *out = xasprintf("%s/slurm-%%j.out", dir);
	const char *argv[20];
	size_t n = 0;
	struct proc p = PROC_INIT;
	int ret;

	argv[n++] = "sbatch";
	argv[n++] = "--parsable";
	argv[n++] = "--exclusive";
	argv[n++] = "--requeue";
	argv[n++] = name = xasprintf("--job-name=kdelta-%s", strrchr(dir, '/') + 1);
	argv[n++] = "--chdir";
	argv[n++] = dir;
	argv[n++] = "--output";
	argv[n++] = out;
	if (se->o.partition) {
		argv[n++] = "--partition";
		argv[n++] = se->o.partition;
	}
	if (se->o.account) {
		argv[n++] = "--account";
		argv[n++] = se->o.account;
	}
	if (se->o.constraint) {
		argv[n++] = "--constraint";
		argv[n++] = se->o.constraint;
	}
	if (se->node) {
		argv[n++] = "--nodelist";
		argv[n++] = se->node;
	}
	argv[n++] = script;
	argv[n] = NULL;
	ret = slurm_command(se, argv, &p, err);
	if (!ret) {
		char *end;

		*id = strtol(p.out_buf.buf, &end, 10);
		if (p.end != PROC_EXITED || p.status || *id <= 0 ||
		    (*end && *end != ';' && *end != '\n')) {
			struct strbuf why = STRBUF_INIT;

			slurm_failure(&p, &why);
			ret = kd_error(err, "sbatch %s: %s", script, why.buf);
			strbuf_release(&why);
		}
	}
	proc_clear(&p);
	free(name);
	free(out);
	free(script);
	return ret;
}

/*
 * The job's state as squeue (or, once Slurm forgot the job, sacct) says
 * it: "PENDING", "RUNNING", "COMPLETED", ...; "" when neither knows it.
 * 1 when squeue could not be asked (a controller down for a moment):
 * ask again later.
 */
static int job_state(const struct slurm_executor *se, long id,
		     struct strbuf *state, struct strbuf *node,
		     struct strbuf *why)
{
	char ids[32];
	const char *squeue[] = { "squeue", "-h", "--states=all", "-j", ids,
				 "-o", "%T %N",
				 NULL };
	const char *sacct[] = { "sacct", "-n", "-X", "-P", "-j", ids, "-o",
				"State", NULL };
	struct proc p = PROC_INIT, a = PROC_INIT;
	struct kd_err err;
	int ret = 0;

	strbuf_reset(state);
	strbuf_reset(node);
	snprintf(ids, sizeof(ids), "%ld", id);
	if (slurm_command(se, squeue, &p, &err)) {
		strbuf_addstr(why, p.end == PROC_CANCELLED ? "stopped" : err.msg);
		proc_clear(&p);
		return 1;
	}
	if (p.end == PROC_EXITED && !p.status && p.out_buf.len) {
		const char *s = p.out_buf.buf;
		size_t len = strcspn(s, " \n");

		strbuf_add(state, s, len);
		s += len + (s[len] == ' ');
		strbuf_add(node, s, strcspn(s, " \n"));
	} else if (p.end == PROC_EXITED &&
		   (!p.status || strstr(p.err_buf.buf, "Invalid job id"))) {
		/* Gone from the controller's memory: accounting, if kept. */
		if (!slurm_command(se, sacct, &a, &err) && a.end == PROC_EXITED &&
		    !a.status)
			strbuf_add(state, a.out_buf.buf,
				   strcspn(a.out_buf.buf, " \n"));
	} else {
		slurm_failure(&p, why);
		ret = 1;
	}
	proc_clear(&a);
	proc_clear(&p);
	return ret;
}

static bool job_active(const char *state)
{
	static const char *const active[] = {
		"PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED",
		"REQUEUED", "REQUEUE_FED", "REQUEUE_HOLD", "RESIZING",
		"SIGNALING", "STAGE_OUT", "STOPPED", "RESV_DEL_HOLD", NULL,
	};

	for (size_t i = 0; active[i]; i++)
		if (!strcmp(state, active[i]))
			return true;
	return false;
}

/*
 * Waits for the job to end: 0, its last state in state (empty: Slurm
 * forgot it); 1 when a signal came first (res->signal).
 */
static int wait_job(struct slurm_executor *se, long id, int *signal,
		    struct strbuf *state)
{
	struct strbuf node = STRBUF_INIT, why = STRBUF_INIT, said = STRBUF_INIT;
	struct pollfd pfd = { .fd = se->o.cancel_fd, .events = POLLIN };
	int ret = 0;

	for (;;) {
		int r;

		strbuf_reset(&why);
		r = job_state(se, id, state, &node, &why);
		if (r) {
			say(se, "Slurm job %ld: cannot ask squeue (%s); asking again", id,
			    why.buf);
		} else if (!job_active(state->buf)) {
			break;
		} else if (strcmp(said.buf, state->buf)) {
			strbuf_reset(&said);
			strbuf_add(&said, state->buf, state->len);
			if (node.len)
				say(se, "Slurm job %ld: %s on %s", id,
				    state->buf, node.buf);
			else
				say(se, "Slurm job %ld: %s", id, state->buf);
		}
		/* Without a cancel_fd, poll() just sleeps. */
		if (poll(&pfd, se->o.cancel_fd >= 0, (int)(se->o.poll * 1000)) > 0 &&
		    (*signal = proc_caught_signal(se->o.cancel_fd))) {
			ret = 1;
			break;
		}
	}
	strbuf_release(&said);
	strbuf_release(&why);
	strbuf_release(&node);
	return ret;
}

/* A value of "found" or "before": the rest of the line after "key ". */
static char *line_value(const char *text, const char *key)
{
	size_t len = strlen(key);

	for (const char *s = text; *s; s += strcspn(s, "\n") + (s[strcspn(s, "\n")] != 0))
		if (!strncmp(s, key, len) && s[len] == ' ')
			return xstrndup(s + len + 1, strcspn(s + len + 1, "\n"));
	return NULL;
}

/* The outcome of each commit, from what the job found and the store. */
static int read_outcome(struct slurm_executor *se,
			const struct measure_request *req, const char *dir,
			const char *found, struct measure_result *res,
			struct kd_err *err)
{
	char *host = line_value(found, "host"), *node = line_value(found, "node");
	char *before_path = xasprintf("%s/%s", dir, BATCH_BEFORE);
	struct strbuf before = STRBUF_INIT;
	char *before_host;
	int ret = 0, kdelta_status = 0;

	if (!host || !*host) {
		free(host);
		free(node);
		free(before_path);
		return kd_error(err, "%s/%s: no host line", dir, BATCH_FOUND);
	}
	if (read_file(before_path, &before, err) < 0)
		strbuf_reset(&before);
	before_host = line_value(before.buf, "host");
	for (const char *s = found; (s = strstr(s, "run-status ")); s++) {
		int st = atoi(s + 11);

		if (st != 0 && st != 1)
			kdelta_status = st;
	}
	free(se->ex.host);
	se->ex.host = xstrdup(host);
	if (node && *node && !se->node)
		se->node = xstrdup(node);
	free(res->host);
	res->host = xstrdup(host);
	for (size_t i = 0; i < req->n_commits && !ret; i++) {
		const char *c = req->commits[i];
		char *key = xasprintf("build-failed %s", c);
		char *why = line_value(found, key);
		char *had = line_value(before.buf, c), *failure = NULL;
		size_t ok0 = 0, failed0 = 0, ok, failed;

		if (had && before_host && !strcmp(before_host, host))
			sscanf(had, "%zu %zu", &ok0, &failed0);
		if (why) {
			res->outcome[i] = MEASURE_BUILD_FAILED;
			res->why[i] = why;
			why = NULL;
		} else if (!(ret = count_runs(se, req->job, req->tag, host, c,
					      &ok, &failed, &failure, err))) {
			res->added[i] = ok > ok0 ? ok - ok0 : 0;
			if (ok >= req->runs) {
				res->outcome[i] = MEASURE_OK;
			} else if (strstr(found, "\nbuild-failed ")) {
				/* measured together: another did not build */
				res->outcome[i] = MEASURE_NOT_RUN;
			} else {
				res->outcome[i] = MEASURE_RUN_FAILED;
				if (failed > failed0)
					res->why[i] = xasprintf("the job failed%s%s",
						failure ? ": " : "",
						failure ? failure : "");
				else
					res->why[i] = xasprintf("kdelta run on %s exited with status %d (see %s)",
						node ? node : host, kdelta_status,
						dir);
			}
		}
		free(failure);
		free(had);
		free(why);
		free(key);
	}
	free(before_host);
	strbuf_release(&before);
	free(before_path);
	free(node);
	free(host);
	return ret;
}

/*
 * A batch that could not do its work on the node, whatever its commits
 * ("batch-failed <why>" in "found"): an error, not a verdict on them.
 */
static int batch_failed(long id, const char *dir, const char *found,
			struct kd_err *err)
{
	char *why = line_value(found, "batch-failed");
	char *node = line_value(found, "node");

	if (!why) {
		free(node);
		return 0;
	}
	make_printable(why);
	if (node)
		make_printable(node);
	kd_error(err, "Slurm job %ld on %s: the batch failed: %s (see %s/slurm-%ld.out)",
		 id, node && *node ? node : "?", why, dir, id);
	free(node);
	free(why);
	return -1;
}

/* "<job ID> <directory>" */
static int parse_ticket(const char *ticket, long *id, char **dir,
			struct kd_err *err)
{
	char *end;

	*id = strtol(ticket, &end, 10);
	if (*id <= 0 || *end != ' ' || end[1] != '/')
		return kd_error(err, "not a Slurm ticket: '%s'", ticket);
	*dir = xstrdup(end + 1);
	return 0;
}

/*
 * Whether every commit has its runs already (then no job is submitted:
 * asking again is harmless), with their outcomes in res.
 */
static int all_measured(struct slurm_executor *se,
			const struct measure_request *req,
			struct measure_result *res, bool *all,
			struct kd_err *err)
{
	*all = se->ex.host != NULL;
	for (size_t i = 0; i < req->n_commits && *all; i++) {
		size_t ok, failed;

		if (count_runs(se, req->job, req->tag, se->ex.host,
			       req->commits[i], &ok, &failed, NULL, err) < 0)
			return -1;
		*all = ok >= req->runs;
	}
	for (size_t i = 0; i < req->n_commits && *all; i++)
		res->outcome[i] = MEASURE_OK;
	if (*all)
		res->host = xstrdup(se->ex.host);
	return 0;
}

/*
 * sbatch of the batch in dir, and its ticket handed to submitted() (may
 * be NULL) before anything waits for it: 0 with the job's ID, 1 when a
 * signal stopped sbatch, -1 on errors.
 */
static int hand_over(struct slurm_executor *se, const char *dir,
		     int (*submitted)(void *, const char *, struct kd_err *),
		     void *submitted_arg, long *id, struct kd_err *err)
{
	int ret = submit(se, dir, id, err);

	if (!ret && submitted) {
		char *ticket = xasprintf("%ld %s", *id, dir);

		ret = submitted(submitted_arg, ticket, err);
		free(ticket);
	}
	if (!ret)
		say(se, "Slurm job %ld submitted (%s)", *id, dir);
	return ret;
}

/* A Slurm job of kdelta's, from its hand-over (or ticket) to its end. */
struct slurm_job {
	long id;
	char *dir;		/* its batch directory, NULL until known */
	struct strbuf state;	/* Slurm's last word on it */
	bool found;		/* it wrote BATCH_FOUND (text: its lines) */
	struct strbuf text;
	int signal;		/* what stopped the wait, 0 if none */
};

#define SLURM_JOB_INIT { .state = STRBUF_INIT, .text = STRBUF_INIT }

static void slurm_job_release(struct slurm_job *job)
{
	free(job->dir);
	strbuf_release(&job->state);
	strbuf_release(&job->text);
}

/*
 * The job a ticket names, waited for again; or, with no ticket, the batch
 * prepared in job->dir handed over and waited for.  0 when it ended (with
 * job->found and its text) or a signal stopped the wait (job->signal), -1
 * on errors.
 */
static int slurm_job_run(struct slurm_executor *se, const char *ticket,
			 int (*submitted)(void *, const char *, struct kd_err *),
			 void *submitted_arg, struct slurm_job *job,
			 struct kd_err *err)
{
	char *path;
	int ret;

	if (ticket) {
		free(job->dir);
		job->dir = NULL;
		ret = parse_ticket(ticket, &job->id, &job->dir, err);
		if (!ret)
			say(se, "Slurm job %ld: waiting for it again (%s)",
			    job->id, job->dir);
	} else {
		ret = hand_over(se, job->dir, submitted, submitted_arg,
				&job->id, err);
	}
	if (ret > 0) {
		/* A signal while sbatch ran: no job ID to wait for. */
		job->signal = proc_caught_signal(se->o.cancel_fd);
		return 0;
	}
	if (ret || wait_job(se, job->id, &job->signal, &job->state))
		return ret;
	path = xasprintf("%s/%s", job->dir, BATCH_FOUND);
	job->found = path_exists(path);
	if (job->found)
		ret = read_file(path, &job->text, err);
	free(path);
	if (!ret)
		say(se, "Slurm job %ld: ended %s", job->id,
		    job->state.len ? job->state.buf : "(Slurm forgot it)");
	return ret;
}

/* "Slurm job 12 ended COMPLETED before its end (see DIR/slurm-12.out)" */
static char *ended_early(const struct slurm_job *job)
{
	return xasprintf("Slurm job %ld ended %s before its end (see %s/slurm-%ld.out)",
			 job->id, job->state.len ? job->state.buf : "(state unknown)",
			 job->dir, job->id);
}

static int slurm_measure(struct executor *ex, const struct measure_request *req,
			 struct measure_result *res, struct kd_err *err)
{
	struct slurm_executor *se = (struct slurm_executor *)ex;
	struct slurm_job job = SLURM_JOB_INIT;
	bool all;
	int ret = 0;

	if (!req->ticket && (all_measured(se, req, res, &all, err) < 0 || all))
		return all ? 0 : -1;
	if (!req->ticket)
		ret = prepare_batch(se, req, &job.dir, err);
	if (!ret)
		ret = slurm_job_run(se, req->ticket, req->submitted,
				    req->submitted_arg, &job, err);
	res->signal = job.signal;
	if (!ret && !job.signal && job.found) {
		ret = batch_failed(job.id, job.dir, job.text.buf, err);
		if (!ret)
			ret = read_outcome(se, req, job.dir, job.text.buf, res,
					   err);
	} else if (!ret && !job.signal) {
		for (size_t i = 0; i < req->n_commits; i++) {
			res->outcome[i] = MEASURE_RUN_FAILED;
			res->why[i] = ended_early(&job);
		}
	}
	if (!res->host && ex->host)
		res->host = xstrdup(ex->host);
	slurm_job_release(&job);
	return ret;
}

/* The name Slurm knows the job by, "" when it does not know it. */
static void job_name(const struct slurm_executor *se, long id,
		     struct strbuf *name)
{
	char ids[32];
	const char *argv[] = { "squeue", "-h", "--states=all", "-j", ids,
			       "-o", "%j", NULL };
	struct proc p = PROC_INIT;
	struct kd_err err;

	strbuf_reset(name);
	snprintf(ids, sizeof(ids), "%ld", id);
	if (!slurm_command(se, argv, &p, &err) && p.end == PROC_EXITED &&
	    !p.status)
		strbuf_add(name, p.out_buf.buf, strcspn(p.out_buf.buf, "\n"));
	proc_clear(&p);
}

/*
 * scancel, only of the job the ticket names and only while it is under
 * way: a job ID Slurm no longer knows, or knows under another name (IDs
 * are reused), is not cancelled; *done says it had ended.
 */
static int slurm_cancel(struct executor *ex, const char *ticket, bool *done,
			struct kd_err *err)
{
	struct slurm_executor *se = (struct slurm_executor *)ex;
	struct strbuf state = STRBUF_INIT, node = STRBUF_INIT,
		      why = STRBUF_INIT, name = STRBUF_INIT;
	char ids[32], *dir = NULL, *want = NULL;
	const char *argv[] = { "scancel", ids, NULL };
	struct proc p = PROC_INIT;
	long id;
	int ret;

	if (parse_ticket(ticket, &id, &dir, err) < 0)
		return -1;
	want = xasprintf("kdelta-%s", strrchr(dir, '/') + 1);
	snprintf(ids, sizeof(ids), "%ld", id);
	if (job_state(se, id, &state, &node, &why)) {
		ret = kd_error(err, "Slurm job %ld: cannot ask squeue: %s", id,
			       why.buf);
		goto out;
	}
	job_name(se, id, &name);
	if (!job_active(state.buf) || strcmp(name.buf, want)) {
		*done = true;
		say(se, "Slurm job %ld: %s; nothing to cancel", id,
		    !job_active(state.buf) ? (state.len ? state.buf : "Slurm forgot it")
		    : "another job has its ID now");
		ret = 0;
		goto out;
	}
	ret = slurm_command(se, argv, &p, err);
	if (ret > 0)
		ret = kd_error(err, "scancel %ld: stopped by a signal", id);
	if (!ret && (p.end != PROC_EXITED || p.status)) {
		strbuf_reset(&why);
		slurm_failure(&p, &why);
		ret = kd_error(err, "scancel %ld: %s", id, why.buf);
	}
	if (!ret)
		say(se, "Slurm job %ld cancelled", id);
	proc_clear(&p);
out:
	strbuf_release(&state);
	strbuf_release(&node);
	strbuf_release(&why);
	strbuf_release(&name);
	free(want);
	free(dir);
	return ret;
}

/* A job a killed robot left: waited for until it ends, whatever it did. */
static int slurm_collect(struct executor *ex, const char *ticket,
			 struct strbuf *state, struct kd_err *err)
{
	struct slurm_executor *se = (struct slurm_executor *)ex;
	struct slurm_job job = SLURM_JOB_INIT;
	int ret = slurm_job_run(se, ticket, NULL, NULL, &job, err);

	strbuf_reset(state);
	strbuf_add(state, job.state.buf, job.state.len);
	if (!ret && job.signal)
		ret = 1;
	slurm_job_release(&job);
	return ret;
}

/* A bisection's directory, its job and its script. */
static int prepare_bisect(struct slurm_executor *se,
			  const struct bisect_request *req, char **dir_out,
			  struct kd_err *err)
{
	struct strbuf script = STRBUF_INIT;
	char *dir = batch_dir_new(se, err);

	*dir_out = NULL;
	if (!dir)
		return -1;
	slurm_script_bisect(&se->o, req, dir, &script);
	if (batch_write_job(dir, req->job, &script, err) < 0) {
		strbuf_release(&script);
		free(dir);
		return -1;
	}
	strbuf_release(&script);
	*dir_out = dir;
	return 0;
}

/*
 * The commits the node's bisection could not build, from its progress
 * lines ("bisect: testing 1a2b3c4d5e6f (...): build failed (why) -> skip"):
 * "<abbreviation> <why>" lines.
 */
static char *build_failures(const char *err_text)
{
	static const char testing[] = "bisect: testing ";
	struct strbuf sb = STRBUF_INIT;

	for (const char *s = err_text; s && *s;) {
		size_t len = strcspn(s, "\n");
		const char *failed = memmem(s, len, "): build failed (", 17);

		if (!strncmp(s, testing, strlen(testing)) && failed) {
			const char *hash = s + strlen(testing);
			const char *why = failed + 17;
			const char *end = s + len;

			while (end > why && end[-1] != ')')
				end--;
			strbuf_add(&sb, hash, strspn(hash, "0123456789abcdef"));
			strbuf_addch(&sb, ' ');
			if (end > why)
				strbuf_add(&sb, why, (size_t)(end - 1 - why));
			strbuf_addch(&sb, '\n');
		}
		s += len + (s[len] == '\n');
	}
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

/* What the job found: the host, the node, kdelta bisect's end. */
static int read_bisect(struct slurm_executor *se, long id, const char *dir,
		       const char *found, struct bisect_outcome *out,
		       struct kd_err *err)
{
	char *host = line_value(found, "host"), *node = line_value(found, "node");
	char *status = line_value(found, "bisect-status");
	char *path = xasprintf("%s/%s", dir, BISECT_ERR);
	struct strbuf text = STRBUF_INIT;
	int ret = batch_failed(id, dir, found, err);

	if (!ret && (!host || !*host))
		ret = kd_error(err, "%s/%s: no host line", dir, BATCH_FOUND);
	if (!ret) {
		free(se->ex.host);
		se->ex.host = xstrdup(host);
		if (node && *node && !se->node)
			se->node = xstrdup(node);
		out->host = xstrdup(host);
		out->status = status ? atoi(status) : -1;
		if (read_file(path, &text, NULL) == 0) {
			struct strbuf last = STRBUF_INIT;

			out->build_failed = build_failures(text.buf);
			text_tail_lines(text.buf, text.len, 1, 300, &last);
			strbuf_rtrim(&last);
			make_printable(last.buf);
			out->said = last.len ? strbuf_detach(&last) : NULL;
			strbuf_release(&last);
		}
	}
	strbuf_release(&text);
	free(path);
	free(status);
	free(node);
	free(host);
	return ret;
}

/*
 * A whole bisection as one Slurm job (executor.h): kdelta bisect on the
 * node, which builds each commit once (with install) and makes every
 * look there; the caller decides again from the store.
 */
static int slurm_bisect(struct executor *ex, const struct bisect_request *req,
			struct bisect_outcome *out, struct kd_err *err)
{
	struct slurm_executor *se = (struct slurm_executor *)ex;
	struct slurm_job job = SLURM_JOB_INIT;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->status = -1;
	if (!req->ticket)
		ret = prepare_bisect(se, req, &job.dir, err);
	if (!ret)
		ret = slurm_job_run(se, req->ticket, req->submitted,
				    req->submitted_arg, &job, err);
	out->signal = job.signal;
	if (!ret && !job.signal && !job.found) {
		char *why = ended_early(&job);

		ret = kd_error(err, "%s", why);
		free(why);
	} else if (!ret && !job.signal) {
		ret = read_bisect(se, job.id, job.dir, job.text.buf, out, err);
	}
	if (job.dir && (req->ticket || job.id))
		out->where = xasprintf("Slurm job %ld, %s", job.id, job.dir);
	slurm_job_release(&job);
	return ret;
}

static void slurm_release(struct executor *ex)
{
	struct slurm_executor *se = (struct slurm_executor *)ex;

	free(se->node);
	free(se);
}

static const struct executor_ops slurm_ops = {
	.measure = slurm_measure,
	.release = slurm_release,
	.cancel = slurm_cancel,
	.collect = slurm_collect,
	.bisect = slurm_bisect,
};

int slurm_executor_new(const struct slurm_executor_opts *o,
		       struct executor **out, struct kd_err *err)
{
	struct slurm_executor *se = xcalloc(1, sizeof(*se));

	(void)err;
	se->ex.ops = &slurm_ops;
	se->ex.name = "slurm";
	se->o = *o;
	if (se->o.poll <= 0)
		se->o.poll = 10;
	if (se->o.timeout <= 0)
		se->o.timeout = 120;
	*out = &se->ex;
	return 0;
}
