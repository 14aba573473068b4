// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "kdelta/cmdline.h"
#include "kdelta/compare.h"
#include "kdelta/job.h"
#include "kdelta/params.h"
#include "kdelta/machine.h"
#include "kdelta/proc.h"
#include "kdelta/runlock.h"
#include "kdelta/runner.h"
#include "kdelta/schema.h"
#include "kdelta/store.h"
#include "kdelta/util.h"
#include "kdelta/run-recover.h"
#include "kdelta/vm.h"
#include "kdelta/workdir.h"
#include "kdelta/workload.h"

#include "vm-args.h"

static const int caught_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void run_usage(FILE *out)
{
	fprintf(out,
		"usage: kdelta run JOB.yaml... [--commit ID | --commits A,B,...]\n"
		"                  [--runs N] [--warmup N] [--result-root DIR]\n"
		"                  [--work-dir DIR] [--setup CMD]\n"
		"                  [--order shuffled|fixed] [--seed N] [--tag TEXT]\n"
		"                  [--no-wait | --concurrent]\n"
		"                  [--until-decided [--max-runs N] [--min-change PCT]]\n"
		"       kdelta run JOB.yaml... --kernel LABEL=PATH... [--vm-... options]\n"
		"\n"
		"Runs every job of the job files for each commit, in rounds: round n\n"
		"holds the n-th run of every job and commit, in an order drawn anew\n"
		"for each round.  Stores each run under\n"
		"RESULT_ROOT/<testcase>/<param-dir>/<host>/<commit>/<run>/.\n"
		"With --kernel, each commit is a kernel booted in a virtual machine\n"
		"(QEMU) that runs the jobs inside; boots are interleaved in rounds.\n"
		"\n"
		"    --commit ID         label of what runs (default: the running kernel's\n"
		"                        release and a hash of /proc/version)\n"
		"    --commits A,B,...   several labels, run alternately\n"
		"    --runs N            runs per job and commit (default: the job's\n"
		"                        'runs', else %d)\n"
		"    --warmup N          discarded runs per job and commit, first\n"
		"    --result-root DIR   the store (default: $KDELTA_RESULT_ROOT, else\n"
		"                        /var/lib/kdelta/results for root, else\n"
		"                        ~/.local/share/kdelta/results)\n"
		"    --work-dir DIR      where workloads run, private to you (default\n"
		"                        %s for root, else\n"
		"                        ~/.cache/kdelta/work)\n"
		"    --setup CMD         run 'sh -c CMD' before each run, {commit} replaced\n"
		"                        by the label, $KDELTA_COMMIT set\n"
		"    --order fixed       job by job instead, each round going through the\n"
		"                        commits in the order given (A B A B ...)\n"
		"    --seed N            the order of the rounds that seed N gives (printed,\n"
		"                        and recorded in each run's job.yaml); default: a\n"
		"                        random seed\n"
		"    --tag TEXT          recorded in each run's job.yaml (kdelta.tag), with\n"
		"                        the batch and round it ran in (bisect and the\n"
		"                        robot find their runs by it)\n"
		"    --until-decided     after the runs, add rounds of the jobs whose workload\n"
		"                        results are neither changed nor the same against\n"
		"                        the first commit (a sequential test, see kdelta(1))\n"
		"    --max-runs N        with --until-decided: at most N runs a commit\n"
		"                        (default %d)\n"
		"    --min-change PCT    with --until-decided: the smallest change that\n"
		"                        counts, in percent (default %g, as compare's)\n"
		"    --no-wait           refuse (status 8) when another kdelta run holds\n"
		"                        the machine's run lock, instead of waiting for it\n"
		"    --concurrent        run beside other kdelta runs, without the lock\n"
		"                        (each run's job.yaml records what it saw)\n"
		"\n"
		"Kernels in virtual machines:\n"
		"    --kernel LABEL=PATH boot PATH (a kernel image, or a directory with\n"
		"                        boot/vmlinuz-* and lib/modules/<release>/) in\n"
		"                        QEMU and run the jobs there, stored as commit\n"
		"                        LABEL (repeatable; instead of --commits)\n",
		JOB_DEFAULT_RUNS, WORK_DIR_ROOT_DEFAULT,
		RUNNER_DEFAULT_MAX_RUNS, COMPARE_DEFAULT_MIN_CHANGE);
	vm_args_usage(out);
	fprintf(out, "\nWorkloads:\n");
	for (size_t i = 0; workload_registry[i]; i++)
		fprintf(out, "    %-19s %s\n", workload_registry[i]->section.name,
			workload_registry[i]->section.summary);
	fprintf(out,
		"\n"
		"Exit status: 0 all runs ok, 1 a run failed, 2 bad usage or input,\n"
		"4 the results could not be written (disk full, read-only), 8 another\n"
		"run holds the lock (--no-wait), 128+N stopped by signal N (130 Ctrl-C,\n"
		"143 SIGTERM).  See kdelta(1).\n");
}

struct run_args {
	const char *commits_arg;
	int runs;
	long warmup;
	const char *result_root;
	const char *work_dir;
	const char *setup;
	enum run_order order;
	bool no_wait, concurrent;
	bool until_decided;
	long max_runs;			/* 0: not given */
	double min_change;		/* < 0: not given */
	bool seed_given;
	uint64_t seed;
	const char *tag;
	char **labels;
	size_t n_labels;
	struct job **jobs;
	size_t n_jobs;
	struct job_set *sets;
	size_t n_sets;
	struct vm_args vm;		/* --kernel and the --vm-* options */
};

static int parse_count(const char *opt, const char *arg, long min, long *out)
{
	int64_t value = 0;

	if (parse_int(arg, &value, NULL) < 0 || value < min || value > 100000) {
		cmd_error("run", "%s expects a number%s, not '%s'",
			opt, min > 0 ? " of 1 or more" : "", arg);
		return -1;
	}
	*out = (long)value;
	return 0;
}

static int parse_order(const char *arg, enum run_order *out)
{
	for (int i = 0; run_order_names[i]; i++)
		if (!strcmp(arg, run_order_names[i])) {
			*out = (enum run_order)i;
			return 0;
		}
	cmd_error("run", "--order expects shuffled or fixed, not '%s'",
		arg);
	return -1;
}

static int parse_seed(const char *arg, uint64_t *out)
{
	int64_t value;

	if (parse_int(arg, &value, NULL) < 0 || value < 0) {
		cmd_error("run", "--seed expects a number of 0 or more, not '%s'",
			arg);
		return -1;
	}
	*out = (uint64_t)value;
	return 0;
}

static int parse_change(const char *arg, double *out)
{
	struct kd_err err;

	if (param_number(&compare_min_change_param, arg, out, &err) < 0) {
		cmd_error("run", "--min-change: %s", err.msg);
		return -1;
	}
	return 0;
}

/* A seed nobody chose: short enough to type again. */
static uint64_t random_seed(void)
{
	uint32_t seed;

	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed)) {
		double now = now_epoch();

		seed = (uint32_t)hash64(&now, sizeof(now)) ^ (uint32_t)getpid();
	}
	return seed;
}

static int parse_kernel(struct run_args *a, const char *arg)
{
	struct kd_err err;

	ALLOC_GROW(a->vm.vo.kernels, a->vm.vo.n_kernels + 1,
		   a->vm.kernels_alloc);
	if (vm_kernel_parse(arg, &a->vm.vo.kernels[a->vm.vo.n_kernels],
			    &err) < 0) {
		cmd_error("run", "%s", err.msg);
		return -1;
	}
	a->vm.vo.n_kernels++;
	return 0;
}

/* What --kernel excludes, and what the --vm-* options need. */
static int check_vm_options(struct run_args *a)
{
	if (!a->vm.vo.n_kernels) {
		if (a->vm.first) {
			cmd_error("run", "--%s goes with --kernel", a->vm.first);
			return -1;
		}
		return 0;
	}
	if (a->commits_arg) {
		cmd_error("run", "--kernel names the commits (its labels): give --kernel or --commits, not both");
		return -1;
	}
	if (a->setup) {
		cmd_error("run", "--setup runs on this machine, and --kernel's runs in guests: give one of them");
		return -1;
	}
	if (a->until_decided) {
		cmd_error("run", "--until-decided does not go with --kernel: give the runs (--runs)");
		return -1;
	}
	return vm_args_check(&a->vm, "run");
}

/* One option of kdelta run (cmd_parse_options()). */
static int take_option(void *args, int c, const char *arg)
{
	struct run_args *a = args;
	long runs;

	switch (c) {
	case 'c':
	case 'C':
		if (a->commits_arg) {
			cmd_error("run", "give --commit or --commits once");
			return -1;
		}
		a->commits_arg = arg;
		break;
	case 'r':
		if (parse_count("--runs", arg, 1, &runs) < 0)
			return -1;
		a->runs = runs;
		break;
	case 'w':
		if (parse_count("--warmup", arg, 0, &a->warmup) < 0)
			return -1;
		break;
	case 'R':
		a->result_root = arg;
		break;
	case 'W':
		a->work_dir = arg;
		break;
	case 's':
		a->setup = arg;
		break;
	case 'o':
		if (parse_order(arg, &a->order) < 0)
			return -1;
		break;
	case 'S':
		if (parse_seed(arg, &a->seed) < 0)
			return -1;
		a->seed_given = true;
		break;
	case 'N':
		a->no_wait = true;
		break;
	case 'u':
		a->until_decided = true;
		break;
	case 'm':
		if (parse_count("--max-runs", arg, 2, &a->max_runs) < 0)
			return -1;
		break;
	case 'M':
		if (parse_change(arg, &a->min_change) < 0)
			return -1;
		break;
	case 'x':
		a->concurrent = true;
		break;
	case 't':
		if (!*arg || strchr(arg, '\n')) {
			cmd_error("run", "--tag expects one line of text");
			return -1;
		}
		a->tag = arg;
		break;
	case 'k':
		if (parse_kernel(a, arg) < 0)
			return -1;
		break;
	default:
		if (vm_args_is(c))
			return vm_args_take(&a->vm, c, arg, "run");
	}
	return 0;
}

static int parse_options(int argc, char **argv, struct run_args *a)
{
	static const struct option options[] = {
		{ "commit", required_argument, NULL, 'c' },
		{ "commits", required_argument, NULL, 'C' },
		{ "runs", required_argument, NULL, 'r' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "result-root", required_argument, NULL, 'R' },
		{ "work-dir", required_argument, NULL, 'W' },
		{ "setup", required_argument, NULL, 's' },
		{ "order", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 'S' },
		{ "no-wait", no_argument, NULL, 'N' },
		{ "until-decided", no_argument, NULL, 'u' },
		{ "max-runs", required_argument, NULL, 'm' },
		{ "min-change", required_argument, NULL, 'M' },
		{ "concurrent", no_argument, NULL, 'x' },
		{ "tag", required_argument, NULL, 't' },
		{ "kernel", required_argument, NULL, 'k' },
		VM_ARGS_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	int ret = cmd_parse_options("run", options, argc, argv, run_usage,
				    take_option, a);

	if (ret)
		return ret;
	if (!a->until_decided && (a->max_runs || a->min_change >= 0)) {
		cmd_error("run", "--%s goes with --until-decided",
			a->max_runs ? "max-runs" : "min-change");
		return -1;
	}
	if (a->until_decided && a->max_runs && a->runs > a->max_runs) {
		cmd_error("run", "--max-runs %ld is less than --runs %d",
			a->max_runs, a->runs);
		return -1;
	}
	if (check_vm_options(a) < 0)
		return -1;
	if (a->no_wait && a->concurrent) {
		cmd_error("run", "--no-wait and --concurrent exclude each other: --concurrent takes no lock");
		return -1;
	}
	if (optind >= argc) {
		cmd_error("run", "no job file given; usage: kdelta run JOB.yaml... (see 'kdelta run --help')");
		return -1;
	}
	return 0;
}

/*
 * Adds one label of --commits, unless it is a duplicate: the label as
 * given ({commit}, job.yaml), stored under store_label_name().
 */
static int add_label(struct run_args *a, const char *label, size_t *alloc,
		     struct kd_err *err)
{
	char *name;

	if (commit_label_check(label, err) < 0)
		return -1;
	name = store_label_name(label);
	for (size_t i = 0; i < a->n_labels; i++) {
		char *other = store_label_name(a->labels[i]);
		bool same = !strcmp(other, name);

		free(other);
		if (same) {
			kd_error(err, "commit '%s' given twice (as store name '%s')",
				 label, name);
			free(name);
			return -1;
		}
	}
	free(name);
	ALLOC_GROW(a->labels, a->n_labels + 1, *alloc);
	a->labels[a->n_labels++] = xstrdup(label);
	return 0;
}

/* Splits --commits, checks and sanitizes each label; or labels the kernel. */
static int parse_commits(struct run_args *a)
{
	struct machine m;
	struct kd_err err;
	char *list, *label, *next;
	size_t alloc = 0;
	int ret = 0;

	if (a->vm.vo.n_kernels) {
		for (size_t i = 0; i < a->vm.vo.n_kernels && !ret; i++)
			ret = add_label(a, a->vm.vo.kernels[i].label, &alloc, &err);
		if (ret < 0)
			cmd_error("run", "%s", err.msg);
		return ret;
	}
	if (!a->commits_arg) {
		if (machine_read(&m, &err) < 0) {
			cmd_error("run", "%s", err.msg);
			return -1;
		}
		a->labels = xcalloc(1, sizeof(*a->labels));
		a->labels[a->n_labels++] = kernel_commit_label(&m);
		machine_release(&m);
		return 0;
	}
	list = xstrdup(a->commits_arg);
	for (label = list; label && !ret; label = next) {
		next = strchr(label, ',');
		if (next)
			*next++ = '\0';
		ret = add_label(a, label, &alloc, &err);
	}
	if (ret < 0)
		cmd_error("run", "%s", err.msg);
	free(list);
	return ret;
}

/* Loads every job file; all must load before anything runs. */
static int load_jobs(struct run_args *a, int argc, char **argv)
{
	size_t alloc = 0;
	struct kd_err err;

	a->sets = xcalloc(argc, sizeof(*a->sets));
	for (int i = 0; i < argc; i++) {
		struct job_set *set = &a->sets[a->n_sets];

		if (job_load_file(argv[i], job_schema_default(), set, &err) < 0) {
			cmd_error("run", "%s", err.msg);
			return -1;
		}
		a->n_sets++;
		for (size_t j = 0; j < set->n; j++) {
			const struct workload *wl = workload_of_job(&set->jobs[j]);

			if (!wl) {
				cmd_error("run", "%s: job %zu has no workload section; add one, see 'kdelta run --help' for the workloads",
					argv[i], j + 1);
				return -1;
			}
			if (workload_prefix_check(wl,
					jnode_get(set->jobs[j].root, wl->section.name),
					&err) < 0) {
				cmd_error("run", "%s: job %zu: %s",
					argv[i], j + 1, err.msg);
				return -1;
			}
			ALLOC_GROW(a->jobs, a->n_jobs + 1, alloc);
			a->jobs[a->n_jobs++] = &set->jobs[j];
		}
	}
	return 0;
}

static void run_args_release(struct run_args *a)
{
	for (size_t i = 0; i < a->n_labels; i++)
		free(a->labels[i]);
	free(a->labels);
	for (size_t i = 0; i < a->n_sets; i++)
		job_set_release(&a->sets[i]);
	free(a->sets);
	free(a->jobs);
	vm_args_release(&a->vm);
}

/* The exit status of a finished (or stopped) batch, after saying why. */
static int report(const struct runner_summary *s, const char *root)
{
	if (s->signal) {
		const char *name = sigabbrev_np(s->signal);

		fprintf(stderr, "kdelta: stopped by SIG%s after cleaning up; %zu complete run(s) kept in %s%s%s\n",
			name ? name : "?",
			s->ok, root, s->kept ? "; " : "", s->kept ? s->kept : "");
		return 128 + s->signal;
	}
	fprintf(stderr, "kdelta: %zu run(s) ok, %zu failed; results in %s\n",
		s->ok, s->failed, root);
	return s->failed ? KD_EXIT_FAIL : KD_EXIT_OK;
}

/* The exit status of a batch that could not go on, after saying why. */
static int report_failure(const struct runner_summary *s,
			  const struct kd_err *err)
{
	if (!s->store_failed) {
		cmd_error("run", "%s", err->msg);
		return kd_err_status(err, KD_EXIT_FAIL);
	}
	cmd_error("run", "cannot write the results: %s; stopped after %zu run(s) ok, %zu failed%s%s",
		err->msg, s->ok, s->failed, s->kept ? "; " : "",
		s->kept ? s->kept : "");
	return KD_EXIT_WRITE;
}

/* The private work directory, after cleaning up after killed kdeltas. */
static int open_work_dir(struct run_args *a, struct work_dir *wd)
{
	struct strbuf notes = STRBUF_INIT;
	struct kd_err err = { .status = 0 };
	int ret = run_work_dir_prepare(wd, a->work_dir, "run", &notes, &err);

	fputs(notes.buf, stderr);
	strbuf_release(&notes);
	if (ret < 0)
		cmd_error("run", "%s%s", err.status == KD_EXIT_WRITE ?
			  "cannot write: " : "", err.msg);
	return ret < 0 ? kd_err_status(&err, KD_EXIT_USAGE) : KD_EXIT_OK;
}

static void lock_waiting(const char *holder, void *path)
{
	cmd_error("run", "waiting for the machine's run lock %s, held by %s (--no-wait refuses, --concurrent runs beside it)",
		(const char *)path, holder);
}

/*
 * The machine's run lock for the batch, unless --concurrent: KD_EXIT_OK
 * when held (or not wanted), else the exit status, after saying why.
 */
static int take_run_lock(const struct run_args *a, const struct work_dir *wd,
			 int cancel_fd, struct run_lock *lock)
{
	char *path, *who, date[64];
	time_t now = time(NULL);
	struct kd_err err;
	struct tm tm;
	int status = KD_EXIT_OK, sig;

	lock->fd = -1;
	if (a->concurrent)
		return KD_EXIT_OK;
	path = run_lock_path();
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S %z",
		 localtime_r(&now, &tm));
	who = xasprintf("kdelta run (pid %ld, since %s, work dir %s)",
			(long)getpid(), date, wd->path);
	switch (run_lock_take(lock, path, who, !a->no_wait, cancel_fd,
			      lock_waiting, path, &err)) {
	case RUN_LOCK_TAKEN:
		break;
	case RUN_LOCK_BUSY:
		cmd_error("run", "%s; try again later, or run beside it with --concurrent",
			err.msg);
		status = KD_EXIT_BUSY;
		break;
	case RUN_LOCK_CANCELLED:
		sig = proc_caught_signal(cancel_fd);
		fprintf(stderr, "kdelta: stopped by SIG%s while waiting for the run lock; nothing ran\n",
			sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
		status = 128 + sig;
		break;
	case RUN_LOCK_REFUSED:
		cmd_error("run", "%s", err.msg);
		status = KD_EXIT_USAGE;
		break;
	case RUN_LOCK_ERROR:
		cmd_error("run", "the machine's run lock: %s",
			err.msg);
		status = KD_EXIT_WRITE;
		break;
	}
	free(who);
	free(path);
	return status;
}

static int run_batch(struct run_args *a)
{
	char *root = result_root(a->result_root), *abs_root = absolute_path(root);
	struct work_dir wd = { .fd = -1 };
	struct run_lock lock = { .fd = -1 };
	struct runner_opts o = {
		.commits = (const char *const *)a->labels,
		.n_commits = a->n_labels, .runs = a->runs, .warmup = a->warmup,
		.result_root = abs_root, .work_dir = &wd, .setup = a->setup,
		.order = a->order,
		.until_decided = a->until_decided,
		.max_runs = a->max_runs ? (unsigned)a->max_runs :
					  RUNNER_DEFAULT_MAX_RUNS,
		.min_change = a->min_change >= 0 ? a->min_change
						 : COMPARE_DEFAULT_MIN_CHANGE,
		.seed = a->seed_given ? a->seed : random_seed(),
		.tag = a->tag,
		.log = stderr, .live = isatty(STDERR_FILENO),
	};
	struct runner_summary summary;
	struct kd_err err;
	int status;

	o.cancel_fd = proc_catch_signals(caught_signals,
					 ARRAY_SIZE(caught_signals), &err);
	if (o.cancel_fd < 0) {
		cmd_error("run", "%s", err.msg);
		status = KD_EXIT_FAIL;
	} else if (mkdir_p(abs_root, &err) < 0) {
		cmd_error("run", "cannot write the results: %s",
			err.msg);
		status = KD_EXIT_WRITE;
	} else if ((status = open_work_dir(a, &wd)) != KD_EXIT_OK) {
		;
	} else if ((status = take_run_lock(a, &wd, o.cancel_fd, &lock)) !=
		   KD_EXIT_OK) {
		;
	} else if ((a->vm.vo.n_kernels ?
		    vm_batch_run(a->jobs, a->n_jobs, &o, &a->vm.vo, &summary,
				 &err) :
		    runner_run(a->jobs, a->n_jobs, &o, &summary, &err)) < 0) {
		status = report_failure(&summary, &err);
		runner_summary_release(&summary);
	} else {
		status = report(&summary, abs_root);
		runner_summary_release(&summary);
	}
	proc_release_signals(o.cancel_fd, caught_signals,
			     ARRAY_SIZE(caught_signals));
	run_lock_release(&lock);
	work_dir_close(&wd);
	free(abs_root);
	free(root);
	return status;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = { .runs = 0, .min_change = -1 };
	int r, status = KD_EXIT_USAGE;

	optind = 1;
	r = parse_options(argc, argv, &a);
	if (r > 0)
		return KD_EXIT_OK;
	if (r == 0)
		r = parse_commits(&a);
	if (r == 0 && a.until_decided && a.n_labels < 2) {
		cmd_error("run", "--until-decided decides against the first commit: give two or more with --commits");
		r = -1;
	}
	if (r == 0 && load_jobs(&a, argc - optind, argv + optind) == 0)
		status = run_batch(&a);
	run_args_release(&a);
	return status;
}
