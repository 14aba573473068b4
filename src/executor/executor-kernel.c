// SPDX-License-Identifier: GPL-2.0
/*
 * The local executor when commits are kernels (executor.h, a build that
 * names {out}): each commit is checked out and built once into its {out},
 * which then holds a kernel as kdelta run --kernel's PATH takes it, and
 * the request's rounds are batches of boots (kdelta/vm.h), the kernels
 * interleaved, each run recorded with the request's tag and its round in
 * the batch, as the runner records them.  A build that leaves no kernel in
 * {out} is a commit that does not build.
 *
 * The kernels are kept for the executor's life (a bisection asks for good
 * and bad in every look): in a workspace of its own, which goes when the
 * executor is released (or, after a kill -9, with the next kdelta's
 * start), or in the kernel cache, where they stay (kdelta/kernel-tree.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kdelta/executor.h"
#include "kdelta/git.h"
#include "kdelta/proc.h"
#include "kdelta/runlock.h"
#include "kdelta/runner.h"
#include "kdelta/util.h"
#include "kdelta/vm.h"
#include "kdelta/workdir.h"

#include "executor-internal.h"

/* A commit's kernel: built, or why not. */
struct shelf_entry {
	char *hash;
	struct vm_kernel k;
	char *why;		/* NULL: built */
};

struct kernel_shelf {
	const struct local_executor_opts *o;
	struct workspace ws;	/* the {out} directories without a cache */
	bool have_ws;
	struct shelf_entry *at;
	size_t n, alloc;
	bool said_host;
};

struct kernel_shelf *kernel_shelf_new(const struct local_executor_opts *o)
{
	struct kernel_shelf *s = xcalloc(1, sizeof(*s));

	s->o = o;
	s->ws = (struct workspace){ .fd = -1, .state_fd = -1 };
	return s;
}

void kernel_shelf_free(struct kernel_shelf *s)
{
	struct kd_err err;

	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->at[i].hash);
		free(s->at[i].why);
		vm_kernel_release(&s->at[i].k);
	}
	free(s->at);
	if (s->have_ws && workspace_remove(&s->ws, &err) < 0)
		executor_say(s->o->progress, s->o->command, "%s", err.msg);
	free(s);
}

/* A kernel built there whole before, <cache>/<hash>, resolved into *k. */
static bool kept_kernel(const char *cache, const char *hash,
			struct vm_kernel *k, char **out)
{
	char *mark;
	struct kd_err err;
	bool ok;

	*out = xasprintf("%s/%s", cache, hash);
	mark = xasprintf("%s/" KERNEL_MARK, *out);
	ok = path_exists(mark) && vm_kernel_resolve(hash, *out, k, &err) == 0;
	free(mark);
	return ok;
}

enum build_end executor_build_kernel(const struct local_executor_opts *o,
				     const char *cache, const char *hash,
				     struct vm_kernel *k, struct strbuf *why,
				     struct kd_err *err)
{
	char *out, *mark, *log = xasprintf("%s/%s.log", cache, hash);
	enum build_end end = BUILD_FAILED;
	struct kd_err kerr;
	double start;

	vm_kernel_release(k);
	if (kept_kernel(cache, hash, k, &out)) {
		executor_say(o->progress, o->command,
			     SHORT ": its kernel, built before: %s", hash, out);
		free(out);
		free(log);
		return BUILD_OK;
	}
	mark = xasprintf("%s/" KERNEL_MARK, out);
	/* What a killed or failed build left half made goes first. */
	if (remove_tree(out, &kerr) < 0 || mkdir_p(out, &kerr) < 0) {
		strbuf_addf(why, "{out} %s: %s", out, kerr.msg);
		goto done;
	}
	if (git_checkout(o->repo, hash, err) < 0) {
		end = BUILD_ERROR;
		goto done;
	}
	executor_say(o->progress, o->command,
		     SHORT ": building its kernel into %s (log: %s)", hash, out,
		     log);
	start = now_monotonic();
	end = executor_build(o, o->repo, hash, out, log, why, err);
	if (end == BUILD_OK && vm_kernel_resolve(hash, out, k, &kerr) < 0) {
		strbuf_addf(why, "the build left no kernel in {out}: %s",
			    kerr.msg);
		end = BUILD_FAILED;
	}
	if (end == BUILD_OK &&
	    write_file_atomic(mark, hash, strlen(hash), &kerr) < 0) {
		strbuf_addstr(why, kerr.msg);
		end = BUILD_FAILED;
	}
	if (end == BUILD_OK)
		executor_say(o->progress, o->command,
			     SHORT ": kernel %s built in %.0f s", hash,
			     k->release ? k->release : "(release unknown)",
			     now_monotonic() - start);
	if (end == BUILD_FAILED)
		strbuf_addf(why, " (build log: %s)", log);
done:
	free(log);
	free(mark);
	free(out);
	return end;
}

/*
 * A failed build's log, out of the executor's workspace (which goes with
 * it) into the work directory, as the builds of other commits leave
 * theirs: <work dir>/build-<commit>.log, which why then names.
 */
static void keep_log(const struct local_executor_opts *o, const char *cache,
		     const char *hash, struct strbuf *why)
{
	char *from = xasprintf("%s/%s.log", cache, hash);
	char *to = xasprintf("%s/build-" SHORT ".log", o->work_dir->path, hash);
	struct strbuf text = STRBUF_INIT;
	struct kd_err err;
	char *at;

	if (read_file(from, &text, &err) == 0 &&
	    write_file_atomic(to, text.buf, text.len, &err) == 0 &&
	    (at = strstr(why->buf, from))) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_add(&sb, why->buf, (size_t)(at - why->buf));
		strbuf_addstr(&sb, to);
		strbuf_addstr(&sb, at + strlen(from));
		strbuf_reset(why);
		strbuf_addstr(why, sb.buf);
		strbuf_release(&sb);
	}
	strbuf_release(&text);
	free(to);
	free(from);
}

/*
 * Commit hash's kernel: the one built before (by this executor, or in the
 * cache), else checked out and built now.  BUILD_FAILED with why.
 */
static enum build_end shelf_get(struct kernel_shelf *s, const char *hash,
				const struct vm_kernel **k, struct strbuf *why,
				struct kd_err *err)
{
	const struct local_executor_opts *o = s->o;
	struct shelf_entry e = { 0 };
	enum build_end end;
	const char *cache;

	for (size_t i = 0; i < s->n; i++) {
		if (strcmp(s->at[i].hash, hash))
			continue;
		if (s->at[i].why) {
			strbuf_addstr(why, s->at[i].why);
			return BUILD_FAILED;
		}
		*k = &s->at[i].k;
		return BUILD_OK;
	}
	if (!o->kernel_cache && !s->have_ws) {
		if (workspace_create(o->work_dir, &s->ws, NULL, err) < 0)
			return BUILD_ERROR;
		s->have_ws = true;
	}
	cache = o->kernel_cache ? o->kernel_cache : s->ws.path;
	end = executor_build_kernel(o, cache, hash, &e.k, why, err);
	if (end == BUILD_FAILED && !o->kernel_cache)
		keep_log(o, cache, hash, why);
	if (end == BUILD_STOPPED || end == BUILD_ERROR) {
		vm_kernel_release(&e.k);
		return end;
	}
	e.hash = xstrdup(hash);
	if (end == BUILD_FAILED)
		e.why = xstrdup(why->buf);
	ALLOC_GROW(s->at, s->n + 1, s->alloc);
	s->at[s->n] = e;
	*k = &s->at[s->n++].k;
	return end;
}

/* What measuring one request takes. */
struct request {
	struct kernel_shelf *s;
	char **host;
	const struct measure_request *req;
	struct measure_result *res;
	bool *need;
	struct run_count *have;
	const struct vm_kernel **kernels;	/* per commit, once built */
};

/*
 * The kernels of the commits that need runs (every commit while the host
 * is not known: a probe boots the first): 1 when a signal came.
 */
static int get_kernels(struct request *r, struct kd_err *err)
{
	for (size_t i = 0; i < r->req->n_commits; i++) {
		struct strbuf why = STRBUF_INIT;
		enum build_end end;

		if (!r->need[i] && *r->host)
			continue;
		end = shelf_get(r->s, r->req->commits[i], &r->kernels[i], &why,
				err);
		if (end == BUILD_FAILED) {
			r->need[i] = false;
			r->res->outcome[i] = MEASURE_BUILD_FAILED;
			r->res->why[i] = strbuf_detach(&why);
		}
		strbuf_release(&why);
		if (end == BUILD_ERROR)
			return -1;
		if (end == BUILD_STOPPED) {
			r->res->signal = proc_caught_signal(r->s->o->cancel_fd);
			return 1;
		}
	}
	return 0;
}

/*
 * The host the guests' runs go under, when only a boot can tell (KVM not
 * probed here yet): the first kernel that built booted under KVM.
 */
static int learn_host(struct request *r, struct kd_err *err)
{
	const struct local_executor_opts *o = r->s->o;
	struct job *job = (struct job *)r->req->job;
	struct runner_opts ro = {
		.result_root = o->result_root, .work_dir = o->work_dir,
		.cancel_fd = o->cancel_fd, .log = o->progress,
	};

	for (size_t i = 0; i < r->req->n_commits && !*r->host; i++) {
		struct vm_options vo = *o->vm;

		if (r->res->outcome[i] == MEASURE_BUILD_FAILED)
			continue;
		vo.kernels = (struct vm_kernel *)r->kernels[i];
		vo.n_kernels = 1;
		if (vm_batch_host(&job, 1, &ro, &vo, true, r->host, err) < 0)
			return -1;
		if ((r->res->signal = proc_caught_signal(o->cancel_fd)))
			return 1;
	}
	for (size_t i = 0; i < r->req->n_commits && *r->host; i++) {
		if (executor_count(o, *r->host, r->req, i, &r->have[i], NULL,
				   err) < 0)
			return -1;
		r->need[i] = r->have[i].ok < r->req->runs &&
			     r->res->outcome[i] != MEASURE_BUILD_FAILED;
	}
	return 0;
}

/* Rounds of boots of the kernels still missing runs, as run_rounds(). */
static int boot_rounds(struct request *r, struct kd_err *err)
{
	const struct local_executor_opts *o = r->s->o;
	size_t n = r->req->n_commits;
	const char **commits = xcalloc(n ? n : 1, sizeof(*commits));
	struct vm_kernel *kernels = xcalloc(n ? n : 1, sizeof(*kernels));
	struct job *job = (struct job *)r->req->job;
	int ret = 0;

	while (!ret && !r->res->signal) {
		unsigned rounds = r->req->runs;
		size_t left = 0;
		struct vm_options vo = *o->vm;
		struct runner_summary summary;
		struct runner_opts ro = {
			.commits = commits, .result_root = o->result_root,
			.work_dir = o->work_dir, .tag = r->req->tag,
			.seed = random_u64(),
			.cancel_fd = o->cancel_fd, .log = o->log,
		};

		for (size_t i = 0; i < n; i++) {
			if (!r->need[i] || r->have[i].ok >= r->req->runs)
				continue;
			commits[left] = r->req->commits[i];
			/* shared, not owned: the shelf keeps them */
			kernels[left++] = *r->kernels[i];
			if (r->req->runs - r->have[i].ok < rounds)
				rounds = r->req->runs - (unsigned)r->have[i].ok;
		}
		if (!left)
			break;
		vo.kernels = kernels;
		vo.n_kernels = left;
		ro.n_commits = left;
		ro.runs = (int)rounds;
		ret = vm_batch_run(&job, 1, &ro, &vo, &summary, err);
		if (o->log)
			fflush(o->log);
		r->res->store_failed = summary.store_failed;
		if (summary.signal)
			r->res->signal = summary.signal;
		runner_summary_release(&summary);
		if (!ret)
			ret = executor_tally(o, *r->host, r->req, r->res, r->need,
					     r->have, err);
	}
	free(kernels);
	free(commits);
	return ret;
}

static bool build_failed(const struct measure_result *res)
{
	for (size_t i = 0; i < res->n; i++)
		if (res->outcome[i] == MEASURE_BUILD_FAILED)
			return true;
	return false;
}

int kernel_measure(struct kernel_shelf *s, char **host,
		   const struct measure_request *req,
		   struct measure_result *res, struct kd_err *err)
{
	size_t n = req->n_commits;
	struct request r = {
		.s = s, .host = host, .req = req, .res = res,
		.need = xcalloc(n ? n : 1, sizeof(bool)),
		.have = xcalloc(n ? n : 1, sizeof(struct run_count)),
		.kernels = xcalloc(n ? n : 1, sizeof(struct vm_kernel *)),
	};
	struct run_lock lock = { .fd = -1 };
	bool any = !*host;
	int ret = 0;

	for (size_t i = 0; i < n && !ret && *host; i++) {
		ret = executor_count(s->o, *host, req, i, &r.have[i], NULL, err);
		r.need[i] = r.have[i].ok < req->runs;
		any |= r.need[i];
	}
	if (!ret && any)
		ret = executor_take_run_lock(&lock, s->o->command, s->o->work_dir,
					     s->o->cancel_fd, s->o->progress,
					     &res->signal, err);
	if (!ret && any)
		ret = get_kernels(&r, err);
	if (!ret && !*host)
		ret = learn_host(&r, err);
	if (*host)
		res->host = xstrdup(*host);
	/* Once: what a Slurm job's script reads back (slurm-script.c). */
	if (*host && !s->said_host) {
		executor_say(s->o->progress, s->o->command,
			     "kernels booted in VMs; runs stored under host %s",
			     *host);
		s->said_host = true;
	}
	/* As every executor: a commit that does not build, no rounds. */
	if (!ret && *host && !build_failed(res))
		ret = boot_rounds(&r, err);
	run_lock_release(&lock);
	if (ret > 0)
		ret = 0;
	for (size_t i = 0; i < n; i++)
		if (res->outcome[i] == MEASURE_NOT_RUN &&
		    r.have[i].ok >= req->runs)
			res->outcome[i] = MEASURE_OK;
	free(r.kernels);
	free(r.have);
	free(r.need);
	return ret;
}
