// SPDX-License-Identifier: GPL-2.0
/*
 * What the executors of src/executor/ share (executor-internal.h): a
 * commit's build, the count of its runs, what a batch added, the progress
 * lines, the machine's run lock.  The local executor (executor.c), its
 * kernels (executor-kernel.c) and the slurm executor call them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kdelta/commit-dir.h"
#include "kdelta/executor.h"
#include "kdelta/proc.h"
#include "kdelta/runlock.h"
#include "kdelta/runner.h"
#include "kdelta/store.h"
#include "kdelta/util.h"
#include "kdelta/workdir.h"

#include "executor-internal.h"

int measure_count_runs(const char *commit_dir, const char *tag, size_t *ok,
		       size_t *failed, char **last_failure, struct kd_err *err)
{
	struct tagged_runs rr;

	if (!tag)
		return store_count_runs(commit_dir, ok, failed, last_failure,
					err);
	if (result_dir_tagged_runs(commit_dir, tag, NULL, &rr, err) < 0)
		return -1;
	*ok = rr.n;
	*failed = rr.failed;
	if (last_failure) {
		*last_failure = rr.failure;
		rr.failure = NULL;
	}
	tagged_runs_release(&rr);
	return 0;
}

bool executor_builds_kernels(const char *build)
{
	return build && strstr(build, "{out}") != NULL;
}

char *build_command_expand(const char *build, const char *commit,
			   const char *out)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = build;

	for (;;) {
		const char *c = strstr(p, "{commit}");
		const char *o = out ? strstr(p, "{out}") : NULL;
		const char *hit = c && (!o || c < o) ? c : o;

		if (!hit)
			break;
		strbuf_add(&sb, p, (size_t)(hit - p));
		shell_quote(&sb, hit == c ? commit : out);
		p = hit + (hit == c ? strlen("{commit}") : strlen("{out}"));
	}
	strbuf_addstr(&sb, p);
	return strbuf_detach(&sb);
}

/*
 * ": <the line of the build's stderr that says why>": its first line that
 * has "error" in it (a compiler's first error is the cause, the later ones
 * its consequences), else its last line.
 */
static void add_build_error(struct strbuf *why, const struct strbuf *text)
{
	const char *line = NULL;
	size_t len = 0;

	for (const char *s = text->buf; *s;) {
		size_t n = strcspn(s, "\n");

		if (n && memmem(s, n, "error", 5)) {
			line = s;
			len = n;
			break;
		}
		s += n + (s[n] == '\n');
	}
	strbuf_addstr(why, ": ");
	if (line)
		strbuf_add(why, line, len > 200 ? 200 : len);
	else
		text_tail_lines(text->buf, text->len, 1, 200, why);
	strbuf_rtrim(why);
	if (why->buf[why->len - 1] == ':')
		strbuf_setlen(why, why->len - 1);
}

/*
 * Builds the checked-out commit in the work tree dir, in a workspace's
 * cgroup, so that nothing the build starts outlives it, nor a kill -9 of
 * kdelta beyond the next start (workdir.h).  Its output goes to log (NULL:
 * <work dir>/build-<commit>.log, its stderr kept for the reason only).
 */
enum build_end executor_build(const struct local_executor_opts *o,
			      const char *dir, const char *hash,
			      const char *out, const char *log_path,
			      struct strbuf *why, struct kd_err *err)
{
	struct strbuf command = STRBUF_INIT, text = STRBUF_INIT;
	char *expanded = build_command_expand(o->build, hash, out);
	char *env_commit = xasprintf("KDELTA_COMMIT=%s", hash);
	char *env_out = out ? xasprintf("KDELTA_OUT=%s", out) : NULL;
	const char *env[] = { env_commit, env_out, NULL };
	char *log = log_path ? xstrdup(log_path) :
		    xasprintf("%s/build-" SHORT ".log", o->work_dir->path, hash);
	enum build_end end = BUILD_FAILED;
	struct proc p = PROC_INIT;
	struct workspace ws;
	struct kd_err rerr;

	strbuf_addstr(&command, "cd ");
	shell_quote(&command, dir);
	strbuf_addf(&command, " || exit 125\n%s", expanded);
	p.shell = command.buf;
	p.env = env;
	p.out_path = log;
	/* A kept log holds the build's errors too. */
	if (log_path)
		p.err = PROC_TO_OUT;
	p.cancel_fd = o->cancel_fd;
	if (workspace_create(o->work_dir, &ws, NULL, err) < 0) {
		strbuf_addstr(why, err->msg);
		goto out;
	}
	p.cgroup = ws.cgroup;
	if (proc_run(&p, err) < 0) {
		strbuf_addstr(why, err->msg);
	} else if (p.end == PROC_CANCELLED) {
		end = BUILD_STOPPED;
	} else if (p.end == PROC_EXITED && !p.status) {
		end = BUILD_OK;
	} else {
		proc_describe_end(&p, why);
		if (log_path && read_file(log_path, &text, &rerr) == 0)
			add_build_error(why, &text);
		else
			add_build_error(why, &p.err_buf);
	}
	if (workspace_remove(&ws, err) < 0 && end == BUILD_OK) {
		end = BUILD_FAILED;
		strbuf_addstr(why, err->msg);
	}
	proc_clear(&p);
out:
	strbuf_release(&text);
	strbuf_release(&command);
	free(log);
	free(env_commit);
	free(env_out);
	free(expanded);
	return end;
}

int executor_count(const struct local_executor_opts *o, const char *host,
		   const struct measure_request *req, size_t i,
		   struct run_count *c, char **last_failure, struct kd_err *err)
{
	char *dir = runner_commit_dir(req->job, o->result_root, host,
				      req->commits[i]);
	int ret = measure_count_runs(dir, req->tag, &c->ok, &c->failed,
				     last_failure, err);

	free(dir);
	return ret;
}

int executor_tally(const struct local_executor_opts *o, const char *host,
		   const struct measure_request *req,
		   struct measure_result *res, bool *need,
		   struct run_count *have, struct kd_err *err)
{
	int ret = 0;

	for (size_t i = 0; i < req->n_commits && ret == 0; i++) {
		struct run_count now;
		char *failure = NULL;

		if (!need[i] || have[i].ok >= req->runs)
			continue;
		ret = executor_count(o, host, req, i, &now, &failure, err);
		if (!ret) {
			res->added[i] += now.ok - have[i].ok;
			if (now.failed > have[i].failed) {
				need[i] = false;
				res->outcome[i] = MEASURE_RUN_FAILED;
				res->why[i] = xasprintf("the job failed%s%s",
					failure ? ": " : "",
					failure ? failure : "");
			}
			have[i] = now;
		}
		free(failure);
	}
	return ret;
}

void executor_say(FILE *progress, const char *command, const char *fmt, ...)
{
	va_list ap;

	if (!progress)
		return;
	fprintf(progress, "%s: ", command);
	va_start(ap, fmt);
	vfprintf(progress, fmt, ap);
	va_end(ap);
	fputc('\n', progress);
	fflush(progress);
}

struct lock_wait {
	const char *command;
	FILE *progress;
};

static void lock_waiting(const char *holder, void *arg)
{
	const struct lock_wait *lw = arg;

	executor_say(lw->progress, lw->command,
		     "waiting for the machine's run lock, held by %s", holder);
}

int executor_take_run_lock(struct run_lock *lock, const char *command,
			   const struct work_dir *wd, int cancel_fd,
			   FILE *progress, int *signal, struct kd_err *err)
{
	char *path = run_lock_path();
	char *who = xasprintf("kdelta %s (pid %ld, work dir %s)", command,
			      (long)getpid(), wd->path);
	struct lock_wait lw = { command, progress };
	int ret = 0;

	switch (run_lock_take(lock, path, who, true, cancel_fd, lock_waiting,
			      &lw, err)) {
	case RUN_LOCK_TAKEN:
		break;
	case RUN_LOCK_CANCELLED:
		*signal = proc_caught_signal(cancel_fd);
		ret = 1;
		break;
	default:
		kd_error_prefix(err, "the machine's run lock");
		ret = -1;
		break;
	}
	free(who);
	free(path);
	return ret;
}
