// SPDX-License-Identifier: GPL-2.0
/*
 * Measuring commits (executor.h), and the local executor: each commit is
 * checked out and built in the work tree, then the runner runs the job on
 * the commits that built, interleaved, rebuilding before each run when
 * there are several, so that every run runs the program of its commit.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kdelta/executor.h"
#include "kdelta/git.h"
#include "kdelta/machine.h"
#include "kdelta/proc.h"
#include "kdelta/commit-dir.h"
#include "kdelta/runlock.h"
#include "kdelta/runner.h"
#include "kdelta/store.h"
#include "kdelta/util.h"
#include "kdelta/vm.h"
#include "kdelta/workdir.h"

#include "executor-internal.h"

int executor_measure(struct executor *ex, const struct measure_request *req,
		     struct measure_result *res, struct kd_err *err)
{
	size_t n = req->n_commits;

	memset(res, 0, sizeof(*res));
	res->n = n;
	res->outcome = xcalloc(n ? n : 1, sizeof(*res->outcome));
	res->why = xcalloc(n ? n : 1, sizeof(*res->why));
	res->added = xcalloc(n ? n : 1, sizeof(*res->added));
	for (size_t i = 0; i < n; i++)
		res->outcome[i] = MEASURE_NOT_RUN;
	return ex->ops->measure(ex, req, res, err);
}

void executor_release(struct executor *ex)
{
	if (!ex)
		return;
	free(ex->host);
	ex->ops->release(ex);
}

int executor_cancel(struct executor *ex, const char *ticket, bool *done,
		    struct kd_err *err)
{
	*done = false;
	return ex->ops->cancel ? ex->ops->cancel(ex, ticket, done, err) : 0;
}

int executor_collect(struct executor *ex, const char *ticket,
		     struct strbuf *state, struct kd_err *err)
{
	strbuf_reset(state);
	return ex->ops->collect ? ex->ops->collect(ex, ticket, state, err) : 0;
}

void bisect_outcome_release(struct bisect_outcome *out)
{
	free(out->host);
	free(out->said);
	free(out->build_failed);
	free(out->where);
	memset(out, 0, sizeof(*out));
}

void measure_result_release(struct measure_result *res)
{
	for (size_t i = 0; res->why && i < res->n; i++)
		free(res->why[i]);
	free(res->why);
	free(res->outcome);
	free(res->added);
	free(res->host);
	memset(res, 0, sizeof(*res));
}

char *measure_setup_command(const char *repo, const char *build,
			    const char *install)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "cd ");
	shell_quote(&sb, repo);
	strbuf_addf(&sb, " && git checkout -q {commit} && %s", build);
	if (install)
		strbuf_addf(&sb, " && %s", install);
	return strbuf_detach(&sb);
}

struct local_executor {
	struct executor ex;
	struct local_executor_opts o;
	struct kernel_shelf *kernels;	/* with o.vm */
};

static int count_runs(const struct local_executor *le,
		      const struct measure_request *req, size_t i,
		      struct run_count *c, char **last_failure,
		      struct kd_err *err)
{
	return executor_count(&le->o, le->ex.host, req, i, c, last_failure,
			      err);
}

/* The build cache's work tree of a commit, and its record. */
static char *build_tree(const struct local_executor *le, const char *hash)
{
	return xasprintf("%s/builds/%s", le->o.work_dir->path, hash);
}

#define BUILD_RECORD ".kdelta-build"	/* "ok", or "failed: why" */

/*
 * Commit hash's build in the cache: made when it is not there (a work
 * tree of its own, the build run in it, the end recorded), the one made
 * before otherwise.
 */
static enum build_end cached_build(const struct local_executor *le,
				   const char *hash, struct strbuf *why,
				   struct kd_err *err)
{
	char *dir = build_tree(le, hash);
	char *record = xasprintf("%s/%s", dir, BUILD_RECORD);
	/* twice: a killed kdelta may have left the work tree locked */
	const char *add[] = { "worktree", "add", "-q", "--detach", "--force",
			      "--force", dir, hash, NULL };
	const char *prune[] = { "worktree", "prune", NULL };
	struct strbuf text = STRBUF_INIT;
	enum build_end end = BUILD_FAILED;

	if (path_exists(record) && read_file(record, &text, err) == 0) {
		strbuf_rtrim(&text);
		if (!strcmp(text.buf, "ok")) {
			end = BUILD_OK;
		} else {
			strbuf_addstr(why, !strncmp(text.buf, "failed: ", 8)
				      ? text.buf + 8 : text.buf);
		}
		goto out;
	}
	/*
	 * A build a killed kdelta left unfinished is made again.  A work
	 * tree that cannot be made is no fault of the commit's: an error.
	 */
	if (remove_tree(dir, err) < 0 ||
	    git_ok(le->o.repo, "worktree prune", prune, NULL, err) < 0 ||
	    git_ok(le->o.repo, "worktree add", add, NULL, err) < 0) {
		end = BUILD_ERROR;
		goto out;
	}
	end = executor_build(&le->o, dir, hash, NULL, NULL, why, err);
	if (end != BUILD_STOPPED) {
		strbuf_reset(&text);
		if (end == BUILD_OK)
			strbuf_addstr(&text, "ok\n");
		else
			strbuf_addf(&text, "failed: %s\n", why->buf);
		if (write_file_atomic(record, text.buf, text.len, err) < 0 &&
		    end == BUILD_OK) {
			end = BUILD_FAILED;
			strbuf_addstr(why, err->msg);
		}
	}
out:
	strbuf_release(&text);
	free(record);
	free(dir);
	return end;
}

/*
 * Checks out and builds commit i; one that does not build is done with
 * (MEASURE_BUILD_FAILED, need[i] false).  *built is i once it built, else
 * n_commits: the work tree holds no commit's build.
 */
static int build_commit(struct local_executor *le,
			const struct measure_request *req, size_t i,
			struct measure_result *res, bool *need, size_t *built,
			struct kd_err *err)
{
	struct strbuf why = STRBUF_INIT;
	enum build_end end;

	*built = req->n_commits;
	if (le->o.install) {
		end = cached_build(le, req->commits[i], &why, err);
	} else {
		if (git_checkout(le->o.repo, req->commits[i], err) < 0)
			return -1;
		end = executor_build(&le->o, le->o.repo, req->commits[i], NULL,
				     NULL, &why, err);
	}
	if (end == BUILD_ERROR) {
		strbuf_release(&why);
		return -1;
	} else if (end == BUILD_OK) {
		*built = i;
	} else if (end == BUILD_STOPPED) {
		res->signal = proc_caught_signal(le->o.cancel_fd);
	} else {
		need[i] = false;
		res->outcome[i] = MEASURE_BUILD_FAILED;
		res->why[i] = strbuf_detach(&why);
	}
	strbuf_release(&why);
	return 0;
}

/* build_commit() of each commit that needs runs, in turn. */
static int build_all(struct local_executor *le,
		     const struct measure_request *req,
		     struct measure_result *res, bool *need, size_t *built,
		     struct kd_err *err)
{
	*built = req->n_commits;
	for (size_t i = 0; i < req->n_commits && !res->signal; i++)
		if (need[i] && build_commit(le, req, i, res, need, built, err) < 0)
			return -1;
	return 0;
}

/*
 * What puts a commit in place before each run: with the cache, its
 * install in its build's work tree; else its checkout and build.
 */
static char *install_command(const struct local_executor *le)
{
	struct strbuf sb = STRBUF_INIT;
	char *builds;

	if (!le->o.install)
		return measure_setup_command(le->o.repo, le->o.build, NULL);
	builds = xasprintf("%s/builds", le->o.work_dir->path);
	strbuf_addstr(&sb, "cd ");
	shell_quote(&sb, builds);
	strbuf_addf(&sb, "/{commit} && %s", le->o.install);
	free(builds);
	return strbuf_detach(&sb);
}

/*
 * Runs rounds of the commits left (interleaved: the runner goes through
 * them in turn) until each has its runs or one of its runs failed.
 * Several commits are rebuilt before each of their runs (the setup); one
 * alone runs on its build in the work tree, made first unless *built (the
 * commit whose build the work tree holds) is that one.
 */
static int run_rounds(struct local_executor *le,
		      const struct measure_request *req,
		      struct measure_result *res, bool *need,
		      struct run_count *have, size_t *built, struct kd_err *err)
{
	size_t n = req->n_commits, left, only = n;
	const char **commits = xcalloc(n ? n : 1, sizeof(*commits));
	char *setup = install_command(le);
	struct job *job = (struct job *)req->job;
	int ret = 0;

	while (!ret && !res->signal) {
		unsigned rounds = req->runs;
		struct runner_summary summary;
		struct runner_opts ro = {
			.commits = commits, .result_root = le->o.result_root,
			.work_dir = le->o.work_dir, .tag = req->tag,
			.seed = random_u64(),
			.cancel_fd = le->o.cancel_fd, .log = le->o.log,
		};

		left = 0;
		for (size_t i = 0; i < n; i++) {
			if (!need[i] || have[i].ok >= req->runs)
				continue;
			commits[left++] = req->commits[i];
			only = i;
			if (req->runs - have[i].ok < rounds)
				rounds = req->runs - (unsigned)have[i].ok;
		}
		if (!left)
			break;
		if (!le->o.install && left == 1 && only != *built) {
			ret = build_commit(le, req, only, res, need, built, err);
			if (ret < 0 || res->signal)
				break;
			if (!need[only])
				continue;
		}
		ro.n_commits = left;
		ro.runs = (int)rounds;
		ro.setup = le->o.install || left > 1 ? setup : NULL;
		ret = runner_run(&job, 1, &ro, &summary, err);
		if (left > 1)	/* the last run's setup built any of them */
			*built = n;
		if (le->o.log)
			fflush(le->o.log);
		res->store_failed = summary.store_failed;
		if (summary.signal)
			res->signal = summary.signal;
		runner_summary_release(&summary);
		if (!ret)
			ret = executor_tally(&le->o, le->ex.host, req, res,
					     need, have, err);
	}
	free(setup);
	free(commits);
	return ret;
}

/*
 * The machine's run lock for a batch: 0 when held, 1 when a signal came
 * first (res->signal), -1 on errors.
 */
static int take_run_lock(struct local_executor *le, struct run_lock *lock,
			 struct measure_result *res, struct kd_err *err)
{
	return executor_take_run_lock(lock, le->o.command, le->o.work_dir,
				      le->o.cancel_fd, le->o.progress,
				      &res->signal, err);
}

/*
 * A request's commits are measured together, in rounds: when one of them
 * does not build there are no rounds, and the others get no runs.
 */
static bool any_build_failed(const struct measure_result *res)
{
	for (size_t i = 0; i < res->n; i++)
		if (res->outcome[i] == MEASURE_BUILD_FAILED)
			return true;
	return false;
}

static int local_measure(struct executor *ex, const struct measure_request *req,
			 struct measure_result *res, struct kd_err *err)
{
	struct local_executor *le = (struct local_executor *)ex;
	size_t n = req->n_commits;
	bool *need;
	struct run_count *have;
	struct run_lock lock = { .fd = -1 };
	size_t built = n;
	int ret = 0;

	if (le->kernels)
		return kernel_measure(le->kernels, &ex->host, req, res, err);
	need = xcalloc(n ? n : 1, sizeof(*need));
	have = xcalloc(n ? n : 1, sizeof(*have));
	res->host = xstrdup(ex->host);
	for (size_t i = 0; i < n && !ret; i++) {
		ret = count_runs(le, req, i, &have[i], NULL, err);
		need[i] = have[i].ok < req->runs;
	}
	for (size_t i = 0; i < n && !ret; i++)
		if (need[i]) {
			ret = take_run_lock(le, &lock, res, err);
			break;
		}
	if (!ret)
		ret = build_all(le, req, res, need, &built, err);
	if (!ret && !res->signal && !any_build_failed(res))
		ret = run_rounds(le, req, res, need, have, &built, err);
	run_lock_release(&lock);
	if (ret > 0)
		ret = 0;
	for (size_t i = 0; i < n; i++)
		if (res->outcome[i] == MEASURE_NOT_RUN &&
		    have[i].ok >= req->runs)
			res->outcome[i] = MEASURE_OK;
	free(have);
	free(need);
	return ret;
}

/* The build cache goes: each work tree, then git's record of them. */
static void remove_builds(struct local_executor *le)
{
	const char *prune[] = { "worktree", "prune", NULL };
	char *builds;
	struct kd_err err;

	if (!le->o.install || !le->o.work_dir)
		return;
	builds = xasprintf("%s/builds", le->o.work_dir->path);
	if (remove_tree(builds, &err) < 0 && le->o.progress)
		fprintf(le->o.progress, "%s: %s\n", le->o.command, err.msg);
	git_ok(le->o.repo, "worktree prune", prune, NULL, &err);
	free(builds);
}

static void local_release(struct executor *ex)
{
	struct local_executor *le = (struct local_executor *)ex;

	remove_builds(le);
	kernel_shelf_free(le->kernels);
	free(ex);
}

static const struct executor_ops local_ops = {
	.measure = local_measure,
	.release = local_release,
};

int local_executor_new(const struct local_executor_opts *o,
		       struct executor **out, struct kd_err *err)
{
	struct local_executor *le;
	struct machine m;

	*out = NULL;
	if (machine_read(&m, err) < 0)
		return -1;
	le = xcalloc(1, sizeof(*le));
	le->ex.ops = &local_ops;
	le->ex.name = "local";
	le->o = *o;
	if (o->vm) {
		/* The guests' host, when it is known without a boot. */
		struct runner_opts ro = {
			.result_root = o->result_root, .work_dir = o->work_dir,
			.cancel_fd = o->cancel_fd, .log = o->progress,
		};

		if (vm_batch_host(NULL, 0, &ro, o->vm, false, &le->ex.host,
				  err) < 0) {
			machine_release(&m);
			free(le);
			return -1;
		}
		le->kernels = kernel_shelf_new(&le->o);
	} else {
		le->ex.host = xstrdup(m.hostname);
	}
	machine_release(&m);
	*out = &le->ex;
	return 0;
}

/* ---- the store executor ------------------------------------------ */

struct store_executor {
	struct executor ex;
	char *result_root;
	char *build_failed;	/* "<commit> <why>" lines, or NULL */
	char *where;
};

/* Why commit did not build, from build_failed's lines; NULL: it did. */
static char *build_failure(const struct store_executor *se,
			   const char *commit)
{
	for (const char *s = se->build_failed; s && *s;) {
		size_t len = strcspn(s, "\n"), id = strcspn(s, " \n");

		if (id >= 7 && !strncmp(commit, s, id))
			return xstrndup(s + id + (id < len),
					len - id - (id < len));
		s += len + (s[len] == '\n');
	}
	return NULL;
}

static int store_measure(struct executor *ex, const struct measure_request *req,
			 struct measure_result *res, struct kd_err *err)
{
	struct store_executor *se = (struct store_executor *)ex;
	bool unbuilt = false;
	int ret = 0;

	res->host = xstrdup(ex->host);
	/* As every executor: a commit that does not build, no rounds. */
	for (size_t i = 0; i < req->n_commits; i++) {
		char *why = build_failure(se, req->commits[i]);

		if (why) {
			res->outcome[i] = MEASURE_BUILD_FAILED;
			res->why[i] = why;
			unbuilt = true;
		}
	}
	for (size_t i = 0; i < req->n_commits && !ret && !unbuilt; i++) {
		char *dir = runner_commit_dir(req->job, se->result_root,
					      ex->host, req->commits[i]);
		char *failure = NULL;
		size_t ok, failed;

		ret = measure_count_runs(dir, req->tag, &ok, &failed, &failure,
					 err);
		free(dir);
		if (ret < 0)
			break;
		if (ok >= req->runs) {
			res->outcome[i] = MEASURE_OK;
		} else if (failed) {
			res->outcome[i] = MEASURE_RUN_FAILED;
			res->why[i] = xasprintf("the job failed%s%s",
						failure ? ": " : "",
						failure ? failure : "");
		} else {
			ret = kd_error(err, SHORT " has %zu of the %u runs%s%s asked for, and nothing here measures it (%s)",
				       req->commits[i], ok, req->runs,
				       req->tag ? " tagged " : "",
				       req->tag ? req->tag : "", se->where);
		}
		free(failure);
	}
	return ret;
}

static void store_release(struct executor *ex)
{
	struct store_executor *se = (struct store_executor *)ex;

	free(se->result_root);
	free(se->build_failed);
	free(se->where);
	free(se);
}

static const struct executor_ops store_ops = {
	.measure = store_measure,
	.release = store_release,
};

int store_executor_new(const char *result_root, const char *host,
		       const char *build_failed, const char *where,
		       struct executor **out, struct kd_err *err)
{
	struct store_executor *se;

	*out = NULL;
	if (!host)
		return kd_error(err, "the store executor needs the host the runs are stored under");
	se = xcalloc(1, sizeof(*se));
	se->ex.ops = &store_ops;
	se->ex.name = "store";
	se->ex.host = xstrdup(host);
	se->result_root = xstrdup(result_root);
	se->build_failed = build_failed ? xstrdup(build_failed) : NULL;
	se->where = xstrdup(where ? where : "the store");
	*out = &se->ex;
	return 0;
}
