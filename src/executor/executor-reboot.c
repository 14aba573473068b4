// SPDX-License-Identifier: GPL-2.0
/*
 * The reboot executor (executor.h): a test box that runs each commit's
 * kernel itself, as LKP's robot does.  A request is done over several
 * boots, and so over several lives of the robot's process:
 *
 *   1. every commit that needs runs has its kernel built into its {out},
 *      kept in the state directory (a commit that does not build: no
 *      rounds, as with every executor);
 *   2. the next boot of the request's plan (boot_plan_init(): rounds of
 *      one boot of each commit, in an order drawn from the request's seed
 *      for each round) is made: the kernel's modules go to
 *      <modules>/<release>, what the boot must show (the commit, its
 *      kernel's release and version string, the boot it leaves, a
 *      deadline, the runs it is for) is written to <state dir>/state.json,
 *      then the boot command runs (kexec, or a reboot through the boot
 *      loader), and the machine goes down;
 *   3. the robot is started again in the new kernel (a systemd unit, an
 *      @reboot entry: kdelta-robot(5)), asks for the same request, and
 *      this executor finds the boot it was waiting for: it takes that
 *      kernel's runs only when the running kernel's release and version
 *      string (uname -r, uname -v) are the commit's kernel's, then goes
 *      on with 2.
 *
 * Every run of a request has the request's batch identifier, and its
 * commit's runs in it are numbered as rounds (runner_opts.batch,
 * first_round), so that the k-th run of each commit, each taken in a boot
 * of its own, pair into round k as the runs of one batch on this machine
 * do (bisect_pair_rounds()).
 *
 * A boot into another kernel, a boot command that fails, and a boot that
 * does not come back before the deadline store the commit's runs as failed
 * with the reason, and the request goes on with the other commits.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "executor-internal.h"
#include "kdelta/commit-dir.h"
#include "kdelta/executor.h"
#include "kdelta/machine.h"
#include "kdelta/proc.h"
#include "kdelta/runlock.h"
#include "kdelta/runner.h"
#include "kdelta/store.h"
#include "kdelta/util.h"
#include "kdelta/vm.h"

#define SHORT "%.12s"
#define STATE_FILE "state.json"

struct reboot_executor {
	struct executor ex;
	struct reboot_executor_opts o;
	char *kernels;		/* <state dir>/kernels/<digest of the build> */
	char *state_path;
};

/* What the running kernel says of itself. */
struct running {
	char *release, *version, *boot_id;
};

/* A request's life across boots: state.json. */
struct state {
	char *request;		/* the request it is about */
	char *batch;		/* its runs' kdelta.batch */
	uint64_t seed;		/* of its boots' order */
	json_t *failed;		/* commit -> "why", of this request */
	json_t *boot;		/* the boot asked for, or NULL */
};

static char *read_line(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct strbuf sb = STRBUF_INIT;
	struct kd_err err;

	if (read_file_max(path, 4096, &sb, &err) < 0)
		strbuf_addstr(&sb, "?");
	strbuf_rtrim(&sb);
	free(path);
	return strbuf_detach(&sb);
}

static void running_read(struct running *r)
{
	const char *dir = getenv(REBOOT_RUNNING_ENV);

	if (!dir || !*dir)
		dir = "/proc/sys/kernel";
	r->release = read_line(dir, "osrelease");
	r->version = read_line(dir, "version");
	r->boot_id = read_line(dir, "random/boot_id");
}

static void running_release(struct running *r)
{
	free(r->release);
	free(r->version);
	free(r->boot_id);
}

/* The request's key: what it is for, its tag, job, runs and commits. */
static char *request_key(const struct measure_request *req)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s|%s|%s|%u", req->purpose ? req->purpose : "",
		    req->tag ? req->tag : "", req->job->name, req->runs);
	for (size_t i = 0; i < req->n_commits; i++)
		strbuf_addf(&sb, "|%s", req->commits[i]);
	return strbuf_detach(&sb);
}

static void state_release(struct state *s)
{
	free(s->request);
	free(s->batch);
	json_decref(s->failed);
	json_decref(s->boot);
	memset(s, 0, sizeof(*s));
}

/* A new request: its batch and seed drawn, nothing failed, no boot. */
static void state_new(struct state *s, const char *key)
{
	state_release(s);
	s->request = xstrdup(key);
	s->batch = xasprintf("%016" PRIx64, random_u64());
	s->seed = random_u64();
	s->failed = json_object();
}

/* state.json as it is (an empty state when there is none). */
static int state_load(const struct reboot_executor *re, struct state *s,
		      struct kd_err *err)
{
	json_error_t jerr;
	json_t *root;
	const char *request, *batch, *seed;

	memset(s, 0, sizeof(*s));
	if (!path_exists(re->state_path)) {
		s->failed = json_object();
		return 0;
	}
	root = json_load_file(re->state_path, 0, &jerr);
	if (!json_is_object(root)) {
		json_decref(root);
		return kd_error(err, "%s: %s", re->state_path,
				root ? "not a JSON object" : jerr.text);
	}
	request = json_string_value(json_object_get(root, "request"));
	batch = json_string_value(json_object_get(root, "batch"));
	seed = json_string_value(json_object_get(root, "seed"));
	if (!request || !batch || strlen(batch) != 16 || !seed ||
	    !json_is_object(json_object_get(root, "failed"))) {
		json_decref(root);
		return kd_error(err, "%s: not the reboot executor's state (request, batch, seed, failed)",
				re->state_path);
	}
	s->request = xstrdup(request);
	s->batch = xstrdup(batch);
	s->seed = strtoull(seed, NULL, 16);
	s->failed = json_incref(json_object_get(root, "failed"));
	if (json_is_object(json_object_get(root, "boot")))
		s->boot = json_incref(json_object_get(root, "boot"));
	json_decref(root);
	return 0;
}

static int state_save(const struct reboot_executor *re, const struct state *s,
		      struct kd_err *err)
{
	char seed[17];
	json_t *root;
	char *text;
	int ret;

	snprintf(seed, sizeof(seed), "%016" PRIx64, s->seed);
	root = json_pack("{ss ss ss sO}", "request", s->request,
			 "batch", s->batch, "seed", seed, "failed", s->failed);
	if (s->boot)
		json_object_set(root, "boot", s->boot);
	text = json_dumps(root, JSON_INDENT(1) | JSON_SORT_KEYS);
	ret = mkdir_p(re->o.state_dir, err);
	if (!ret)
		ret = write_file_atomic(re->state_path, text, strlen(text), err);
	free(text);
	json_decref(root);
	return ret;
}

static const char *boot_str(const struct state *s, const char *key)
{
	const char *v = json_string_value(json_object_get(s->boot, key));

	return v ? v : "";
}

static unsigned boot_uint(const struct state *s, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(s->boot, key));

	return v < 0 ? 0 : (unsigned)v;
}

/* A request in progress. */
struct job_state {
	struct reboot_executor *re;
	const struct measure_request *req;
	struct measure_result *res;
	struct state st;
	size_t *ok, *failed;	/* complete runs with the tag, in the store */
	size_t *before;		/* of ok, those not of the request's batch */
	unsigned *target;	/* runs each needs in the batch */
	size_t *start;		/* ok when the request came */
	struct vm_kernel *kernels;	/* built, of the commits that need runs */
	bool *need;
};

/* "<command>: ..." on progress. */
#define say(re, ...) executor_say((re)->o.progress, (re)->o.command, __VA_ARGS__)

/* Commit i's runs with the request's tag: ok, failed, and those of its batch. */
static int count(struct job_state *js, size_t i, char **last_failure,
		 struct kd_err *err)
{
	char *dir = runner_commit_dir(js->req->job, js->re->o.result_root,
				      js->re->ex.host, js->req->commits[i]);
	struct tagged_runs rr;
	int ret = result_dir_tagged_runs(dir, js->req->tag, NULL, &rr, err);

	free(dir);
	if (ret < 0)
		return -1;
	js->ok[i] = rr.n;
	js->failed[i] = rr.failed;
	js->before[i] = 0;
	for (size_t k = 0; k < rr.n; k++)
		if (!rr.at[k].batch || strcmp(rr.at[k].batch, js->st.batch))
			js->before[i]++;
	if (last_failure) {
		*last_failure = rr.failure;
		rr.failure = NULL;
	}
	tagged_runs_release(&rr);
	return 0;
}

/* Commit i's runs in the request's batch. */
static size_t in_batch(const struct job_state *js, size_t i)
{
	return js->ok[i] - js->before[i];
}

/*
 * The runner on commit i: n runs of the job, its rounds in the batch
 * from first_round on, or (fail_reason) one run stored failed.  Under
 * the machine's run lock.
 */
static int run_commit(struct job_state *js, size_t i, unsigned n,
		      unsigned first_round, const char *fail_reason,
		      struct kd_err *err)
{
	struct reboot_executor *re = js->re;
	const char *commits[] = { js->req->commits[i] };
	struct runner_opts ro = {
		.commits = commits, .n_commits = 1, .runs = (int)n,
		.result_root = re->o.result_root, .work_dir = re->o.work_dir,
		.tag = js->req->tag, .batch = js->st.batch,
		.first_round = first_round, .seed = random_u64(),
		.cancel_fd = re->o.cancel_fd, .log = re->o.log,
		.fail_reason = fail_reason,
	};
	struct job *job = (struct job *)js->req->job;
	struct runner_summary summary;
	struct run_lock lock = { .fd = -1 };
	int sig = 0, ret;

	ret = executor_take_run_lock(&lock, re->o.command, re->o.work_dir,
				     re->o.cancel_fd, re->o.progress, &sig,
				     err);
	if (ret == 0) {
		ret = runner_run(&job, 1, &ro, &summary, err);
		js->res->store_failed |= summary.store_failed;
		if (summary.signal)
			sig = summary.signal;
		runner_summary_release(&summary);
	}
	run_lock_release(&lock);
	if (sig)
		js->res->signal = sig;
	if (re->o.log)
		fflush(re->o.log);
	return ret < 0 ? -1 : 0;
}

/* Commit i's runs fail: one stored failed with why, and the request goes on. */
static int fail_commit(struct job_state *js, size_t i, const char *why,
		       struct kd_err *err)
{
	say(js->re, SHORT ": %s", js->req->commits[i], why);
	json_object_set_new(js->st.failed, js->req->commits[i],
			    json_string(why));
	js->need[i] = false;
	js->res->outcome[i] = MEASURE_RUN_FAILED;
	free(js->res->why[i]);
	js->res->why[i] = xstrdup(why);
	if (state_save(js->re, &js->st, err) < 0)
		return -1;
	return run_commit(js, i, 1, (unsigned)in_batch(js, i), why, err);
}

static ssize_t commit_index(const struct measure_request *req, const char *h)
{
	for (size_t i = 0; i < req->n_commits; i++)
		if (!strcmp(req->commits[i], h))
			return (ssize_t)i;
	return -1;
}

/* Waits until the epoch time deadline; 1 when a signal came first. */
static int wait_until(struct job_state *js, double deadline)
{
	for (;;) {
		double left = deadline - now_epoch();
		struct pollfd pfd = { .fd = js->re->o.cancel_fd, .events = POLLIN };

		if (left <= 0)
			return 0;
		if (poll(&pfd, pfd.fd >= 0 ? 1 : 0,
			 left > 3600 ? 3600000 : (int)(left * 1000) + 1) > 0) {
			js->res->signal = proc_caught_signal(js->re->o.cancel_fd);
			if (js->res->signal)
				return 1;
		}
	}
}

/* The runs of the boot the machine is in, its kernel being commit i's. */
static int take_runs(struct job_state *js, size_t i, struct kd_err *err)
{
	/* The rounds the boot was for; a robot started again in it: the rest. */
	unsigned end = boot_uint(&js->st, "first_round") +
		       boot_uint(&js->st, "runs");
	unsigned done = (unsigned)in_batch(js, i);
	size_t failed_before = js->failed[i];
	char *failure = NULL;

	if (done >= end)
		return 0;
	say(js->re, SHORT ": in its kernel %s: %u run%s", js->req->commits[i],
	    boot_str(&js->st, "release"), end - done, end - done == 1 ? "" : "s");
	if (run_commit(js, i, end - done, done, NULL, err) < 0)
		return -1;
	if (count(js, i, &failure, err) < 0) {
		free(failure);
		return -1;
	}
	if (js->failed[i] > failed_before) {
		char *why = xasprintf("the job failed%s%s", failure ? ": " : "",
				      failure ? failure : "");

		js->need[i] = false;
		js->res->outcome[i] = MEASURE_RUN_FAILED;
		free(js->res->why[i]);
		js->res->why[i] = why;
		json_object_set_new(js->st.failed, js->req->commits[i],
				    json_string(why));
	}
	free(failure);
	return 0;
}

/*
 * The boot state.json says was asked for, now that the robot runs again:
 * the commit's runs when the machine runs its kernel, else its failure.
 * 1 when a signal stopped the wait (the boot is still awaited).
 */
static int settle_boot(struct job_state *js, struct kd_err *err)
{
	const char *commit = boot_str(&js->st, "commit");
	ssize_t i = commit_index(js->req, commit);
	double deadline = json_number_value(json_object_get(js->st.boot, "deadline"));
	struct running r;
	char *why = NULL;
	int ret = 0;

	running_read(&r);
	if (i < 0) {
		why = xstrdup("a boot for a commit this request does not have");
	} else if (!strcmp(r.boot_id, boot_str(&js->st, "from_boot_id"))) {
		/* Not booted yet: the command ran, the machine did not go down. */
		if (deadline > now_epoch())
			say(js->re, SHORT ": waiting for the boot into its kernel, %.0f s more",
			    commit, deadline - now_epoch());
		if (wait_until(js, deadline)) {
			running_release(&r);
			return 1;
		}
		why = xasprintf("did not boot its kernel %s within %.0f s of the boot command (log: %s)",
				boot_str(&js->st, "release"), js->re->o.timeout,
				boot_str(&js->st, "log"));
	} else if (strcmp(r.release, boot_str(&js->st, "release")) ||
		   strcmp(r.version, boot_str(&js->st, "version"))) {
		why = xasprintf("booted %s (%s), not its kernel %s (%s)%s",
				r.release, r.version,
				boot_str(&js->st, "release"),
				boot_str(&js->st, "version"),
				now_epoch() > deadline ?
				", and after the deadline: its kernel did not come back" : "");
	} else {
		ret = take_runs(js, (size_t)i, err);
	}
	if (ret == 0 && !js->res->signal) {
		json_decref(js->st.boot);
		js->st.boot = NULL;
		if (why && i >= 0 && js->need[i])
			ret = fail_commit(js, (size_t)i, why, err);
		else if (why)
			say(js->re, SHORT ": %s", commit, why);
		if (ret == 0)
			ret = state_save(js->re, &js->st, err);
	}
	free(why);
	running_release(&r);
	return ret;
}

/* "{image}", "{release}", "{out}", "{commit}" replaced, each quoted for sh. */
static char *boot_command_expand(const char *template, const char *const *names,
				 const char *const *values, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = template;

	while (*p) {
		size_t k;

		for (k = 0; k < n; k++)
			if (!strncmp(p, names[k], strlen(names[k])))
				break;
		if (k < n) {
			shell_quote(&sb, values[k]);
			p += strlen(names[k]);
		} else {
			strbuf_addch(&sb, *p++);
		}
	}
	return strbuf_detach(&sb);
}

/* sh -c command, its output in log; 0 with p's end filled, -1 if it could not run. */
static int run_shell(struct job_state *js, const char *command,
		     const char *log, double timeout, struct proc *p,
		     struct kd_err *err)
{
	p->shell = command;
	p->out_path = log;
	p->err = PROC_TO_OUT;
	p->cancel_fd = js->re->o.cancel_fd;
	p->timeout = timeout;
	return proc_run(p, err);
}

/* The kernel's modules into <modules>/<release>, replacing what was there. */
static int install_modules(struct job_state *js, const struct vm_kernel *k,
			   const char *log, struct strbuf *why,
			   struct kd_err *err)
{
	struct strbuf cmd = STRBUF_INIT;
	char *dest;
	struct proc p = PROC_INIT;
	int ret;

	if (!k->modules)
		return 0;
	dest = xasprintf("%s/%s", js->re->o.modules, k->release);
	strbuf_addstr(&cmd, "rm -rf ");
	shell_quote(&cmd, dest);
	strbuf_addstr(&cmd, " && mkdir -p ");
	shell_quote(&cmd, js->re->o.modules);
	strbuf_addstr(&cmd, " && cp -a ");
	shell_quote(&cmd, k->modules);
	strbuf_addch(&cmd, ' ');
	shell_quote(&cmd, dest);
	ret = run_shell(js, cmd.buf, log, 0, &p, err);
	if (ret == 0 && (p.end != PROC_EXITED || p.status)) {
		strbuf_addf(why, "installing its modules into %s ", dest);
		proc_describe_end(&p, why);
		strbuf_addf(why, " (log: %s)", log);
		ret = 1;
	}
	proc_clear(&p);
	free(dest);
	strbuf_release(&cmd);
	return ret;
}

/*
 * Every commit that needs runs has its kernel (built, or taken from the
 * kept ones); one that does not build is done with.
 */
static int build_kernels(struct job_state *js, struct kd_err *err)
{
	struct reboot_executor *re = js->re;
	struct local_executor_opts lo = {
		.repo = re->o.repo, .build = re->o.build,
		.result_root = re->o.result_root, .work_dir = re->o.work_dir,
		.cancel_fd = re->o.cancel_fd, .log = re->o.log,
		.command = re->o.command, .progress = re->o.progress,
	};

	for (size_t i = 0; i < js->req->n_commits && !js->res->signal; i++) {
		const char *hash = js->req->commits[i];
		struct strbuf why = STRBUF_INIT;
		enum build_end end;

		if (!js->need[i])
			continue;
		end = executor_build_kernel(&lo, re->kernels, hash,
					    &js->kernels[i], &why, err);
		if (end == BUILD_ERROR) {
			strbuf_release(&why);
			return -1;
		} else if (end == BUILD_STOPPED) {
			js->res->signal = proc_caught_signal(re->o.cancel_fd);
		} else if (end == BUILD_FAILED) {
			say(re, SHORT ": does not build: %s", hash, why.buf);
			js->need[i] = false;
			js->res->outcome[i] = MEASURE_BUILD_FAILED;
			js->res->why[i] = strbuf_detach(&why);
		}
		strbuf_release(&why);
	}
	return 0;
}

/*
 * What the boot must show: the commit, the kernel's release and version
 * string, the boot it leaves, the deadline, the runs it is for; written
 * before the command.
 */
static int expect_boot(struct job_state *js, size_t i, const char *release,
		       const char *version, unsigned first_round,
		       unsigned runs, const char *log, struct kd_err *err)
{
	struct running r;

	running_read(&r);
	json_decref(js->st.boot);
	js->st.boot = json_pack("{ss ss ss ss sf sI sI ss}",
				"commit", js->req->commits[i],
				"release", release, "version", version,
				"from_boot_id", r.boot_id,
				"deadline", now_epoch() + js->re->o.timeout,
				"first_round", (json_int_t)first_round,
				"runs", (json_int_t)runs, "log", log);
	running_release(&r);
	return state_save(js->re, &js->st, err);
}

/*
 * Boots commit i's kernel for runs runs from round first_round of the
 * batch: its modules installed, the boot expected, the command run.
 * Returns once the boot failed (the commit's runs failed) or a signal
 * came; the machine going down ends the process.
 */
static int boot_commit(struct job_state *js, size_t i, unsigned first_round,
		       unsigned runs, struct kd_err *err)
{
	struct reboot_executor *re = js->re;
	const char *hash = js->req->commits[i];
	const struct vm_kernel *k = &js->kernels[i];
	char *banner = NULL, *command = NULL, *version;
	char *log = xasprintf("%s/boot-" SHORT ".log", re->o.state_dir, hash);
	struct strbuf why = STRBUF_INIT;
	struct proc p = PROC_INIT;
	int ret = 0;

	if (vm_image_banner(k->image, &banner, err) < 0)
		goto out_err;
	version = banner ? strstr(banner, " #") : NULL;
	if (!version || !k->release) {
		ret = fail_commit(js, i, "its kernel image has no version string (uname -r and -v) to know it by after the boot",
				  err);
		goto out;
	}
	version++;
	if ((ret = install_modules(js, k, log, &why, err)) != 0) {
		if (ret > 0)
			ret = fail_commit(js, i, why.buf, err);
		goto out;
	}
	{
		const char *names[] = { "{image}", "{release}", "{out}", "{commit}" };
		const char *values[] = { k->image, k->release, k->path, hash };

		command = boot_command_expand(re->o.boot, names, values, 4);
	}
	if (expect_boot(js, i, k->release, version, first_round, runs, log,
			err) < 0)
		goto out_err;
	say(re, SHORT ": booting its kernel %s (%s): %s", hash, k->release,
	    version, command);
	if (run_shell(js, command, log, re->o.timeout, &p, err) < 0) {
		strbuf_addf(&why, "the boot command could not run: %s", err->msg);
	} else if (p.end == PROC_CANCELLED) {
		/* Stopped before the machine went down: asked again next time. */
		js->res->signal = proc_caught_signal(re->o.cancel_fd);
		json_decref(js->st.boot);
		js->st.boot = NULL;
		ret = state_save(re, &js->st, err);
		goto out;
	} else if (p.end != PROC_TIMED_OUT && (p.end != PROC_EXITED || p.status)) {
		strbuf_addstr(&why, "the boot command ");
		proc_describe_end(&p, &why);
		strbuf_addf(&why, " (log: %s)", log);
	}
	if (!why.len) {
		/* The machine is going down, or did not: the deadline says. */
		ret = settle_boot(js, err);
		goto out;
	}
	json_decref(js->st.boot);
	js->st.boot = NULL;
	ret = fail_commit(js, i, why.buf, err);
	goto out;
out_err:
	ret = -1;
out:
	proc_clear(&p);
	strbuf_release(&why);
	free(command);
	free(banner);
	free(log);
	return ret < 0 ? -1 : 0;
}

/*
 * The next boot of the request's plan: rounds of one boot of each commit,
 * in an order drawn from the seed for each round, runs_per_boot runs each
 * (boot_plan_init()); the first whose runs the batch lacks, of a commit
 * that still needs runs.  False when there is none.
 */
static bool next_boot(struct job_state *js, size_t *commit,
		      unsigned *first_round, unsigned *runs)
{
	struct boot_plan plan;
	unsigned most = 0;
	bool found = false;

	for (size_t i = 0; i < js->req->n_commits; i++)
		if (js->need[i] && js->target[i] > most)
			most = js->target[i];
	boot_plan_init(&plan, &most, 1, js->req->n_commits,
		       js->re->o.runs_per_boot, 0, RUN_ORDER_SHUFFLED,
		       js->st.seed);
	for (size_t s = 0; s < plan.n && !found; s++) {
		const struct boot_step *b = &plan.boots[s];
		size_t i = b->commit;
		unsigned end = b->first_round + b->runs[0];
		unsigned done = (unsigned)in_batch(js, i);

		if (end > js->target[i])
			end = js->target[i];
		if (!js->need[i] || done >= end)
			continue;
		*commit = i;
		*first_round = done;
		*runs = end - done;
		found = true;
	}
	boot_plan_release(&plan);
	return found;
}

/* Each commit's runs counted; need and target from them. */
static int count_all(struct job_state *js, struct kd_err *err)
{
	for (size_t i = 0; i < js->req->n_commits; i++) {
		if (count(js, i, NULL, err) < 0)
			return -1;
		js->target[i] = js->before[i] >= js->req->runs ? 0 :
				js->req->runs - (unsigned)js->before[i];
		if (in_batch(js, i) >= js->target[i])
			js->need[i] = false;
	}
	return 0;
}

static int reboot_measure(struct executor *ex,
			  const struct measure_request *req,
			  struct measure_result *res, struct kd_err *err)
{
	struct reboot_executor *re = (struct reboot_executor *)ex;
	size_t n = req->n_commits, m = n ? n : 1;
	char *key = request_key(req);
	struct job_state js = {
		.re = re, .req = req, .res = res,
		.ok = xcalloc(m, sizeof(size_t)),
		.failed = xcalloc(m, sizeof(size_t)),
		.before = xcalloc(m, sizeof(size_t)),
		.start = xcalloc(m, sizeof(size_t)),
		.target = xcalloc(m, sizeof(unsigned)),
		.kernels = xcalloc(m, sizeof(struct vm_kernel)),
		.need = xcalloc(m, sizeof(bool)),
	};
	bool mine, any = false;
	int ret = state_load(re, &js.st, err);

	res->host = xstrdup(ex->host);
	mine = !ret && js.st.request && !strcmp(js.st.request, key);
	if (!ret && !mine) {
		/*
		 * Another request's state: this one starts its own, unless
		 * it needs no run (one asked again once it had its runs, as
		 * the robot replays ended batches), which leaves the state
		 * to the request it is of.
		 */
		char *awaited = js.st.boot ? xstrdup(boot_str(&js.st, "commit")) : NULL;

		state_new(&js.st, key);
		for (size_t i = 0; i < n; i++)
			js.need[i] = true;
		ret = count_all(&js, err);
		for (size_t i = 0; i < n; i++)
			any |= js.need[i];
		if (!ret && !any) {
			for (size_t i = 0; i < n; i++)
				js.start[i] = js.ok[i];
			free(awaited);
			goto done;
		}
		if (!ret && awaited)
			say(re, SHORT ": its boot was for another request; this one makes its own",
			    awaited);
		free(awaited);
		if (!ret)
			ret = state_save(re, &js.st, err);
	}
	for (size_t i = 0; i < n && !ret; i++) {
		const char *failed = json_string_value(json_object_get(js.st.failed,
								       req->commits[i]));

		js.need[i] = !failed;
		if (failed) {
			res->outcome[i] = MEASURE_RUN_FAILED;
			res->why[i] = xstrdup(failed);
		}
	}
	if (!ret)
		ret = count_all(&js, err);
	for (size_t i = 0; i < n; i++)
		js.start[i] = js.ok[i];
	any = false;
	for (size_t i = 0; i < n; i++)
		any |= js.need[i];
	if (!ret && any && mine && js.st.boot) {
		ret = settle_boot(&js, err);
		if (!ret)
			ret = count_all(&js, err);
	}
	if (!ret && any && !res->signal)
		ret = build_kernels(&js, err);
	for (size_t i = 0; i < n; i++)
		if (res->outcome[i] == MEASURE_BUILD_FAILED)
			any = false;	/* no rounds, as with every executor */
	while (!ret && any && !res->signal) {
		size_t i;
		unsigned first_round, runs;

		if (!next_boot(&js, &i, &first_round, &runs))
			break;
		ret = boot_commit(&js, i, first_round, runs, err);
		if (!ret)
			ret = count_all(&js, err);
	}
done:
	if (ret > 0)
		ret = 0;
	for (size_t i = 0; i < n; i++) {
		res->added[i] = js.ok[i] - js.start[i];
		if (res->outcome[i] == MEASURE_NOT_RUN &&
		    js.ok[i] >= req->runs)
			res->outcome[i] = MEASURE_OK;
	}
	for (size_t i = 0; i < n; i++)
		vm_kernel_release(&js.kernels[i]);
	state_release(&js.st);
	free(js.ok);
	free(js.failed);
	free(js.before);
	free(js.start);
	free(js.target);
	free(js.kernels);
	free(js.need);
	free(key);
	return ret;
}

static void reboot_release(struct executor *ex)
{
	struct reboot_executor *re = (struct reboot_executor *)ex;

	free(re->kernels);
	free(re->state_path);
	free(re);
}

static const struct executor_ops reboot_ops = {
	.measure = reboot_measure,
	.release = reboot_release,
};

int reboot_executor_new(const struct reboot_executor_opts *o,
			struct executor **out, struct kd_err *err)
{
	struct reboot_executor *re;
	struct machine m;

	*out = NULL;
	if (!executor_builds_kernels(o->build))
		return kd_error(err, "the reboot executor boots kernels: its build must name {out}, where it leaves the commit's kernel");
	if (machine_read(&m, err) < 0)
		return -1;
	re = xcalloc(1, sizeof(*re));
	re->ex.ops = &reboot_ops;
	re->ex.name = "reboot";
	re->ex.host = xstrdup(m.hostname);
	re->o = *o;
	/* Another build command builds other kernels: kept apart. */
	re->kernels = xasprintf("%s/kernels/%016" PRIx64, o->state_dir,
				hash64(o->build, strlen(o->build)));
	re->state_path = xasprintf("%s/" STATE_FILE, o->state_dir);
	machine_release(&m);
	*out = &re->ex;
	return 0;
}
