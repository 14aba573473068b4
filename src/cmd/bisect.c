// SPDX-License-Identifier: GPL-2.0
/*
 * kdelta bisect: the command line, the output and the exit status around
 * bisect_run() (src/bisect/bisect.c).
 */
#include <math.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "kdelta/bisect.h"
#include "kdelta/cmdline.h"
#include "kdelta/compare.h"
#include "kdelta/executor.h"
#include "kdelta/job.h"
#include "kdelta/kernel-tree.h"
#include "kdelta/params.h"
#include "kdelta/catalogue.h"
#include "kdelta/metric-rules.h"
#include "kdelta/proc.h"
#include "kdelta/report.h"
#include "kdelta/runner.h"
#include "kdelta/store.h"
#include "kdelta/strbuf.h"
#include "kdelta/util.h"
#include "kdelta/run-recover.h"
#include "kdelta/workdir.h"

#include "vm-args.h"

#define BISECT_DEFAULT_MAX_RUNS 10

static const int caught_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void bisect_usage(FILE *out)
{
	fprintf(out,
		"usage: kdelta bisect --repo DIR --good G --bad B\n"
		"                     (--build CMD [--install CMD] |\n"
		"                      --kernel-config SPEC [--kernel-cache DIR])\n"
		"                     [--metric M] [--runs N]\n"
		"                     [--max-runs N] [--min-change PCT]\n"
		"                     [--result-root DIR] [--work-dir DIR]\n"
		"                     [--report FILE] [--vm-... options] JOB.yaml\n"
		"\n"
		"Finds the first commit between G (good) and B (bad) of the git repository\n"
		"DIR that changed a metric of the job: shows that G and B differ, then\n"
		"drives 'git bisect', and measures each commit it proposes in rounds with\n"
		"G and B (a run of each, shuffled), comparing the commit only with the\n"
		"runs of G and B of its own rounds, until a sequential test shows it on\n"
		"G's side or on B's.  A round whose runs were disturbed unevenly (other\n"
		"processes using CPU, another run beside it) is left out.  When the\n"
		"commit found is not the first that moved the metric towards B by\n"
		"--min-change (its parent differs from G), bisects between G and that\n"
		"parent; when that cannot be told, says undecided.  Each run is stored\n"
		"under the commit's full hash, tagged with its look: an interrupted\n"
		"bisect resumes where it stopped.\n"
		"\n"
		"    --repo DIR          the git repository; its work tree must be clean\n"
		"    --good G, --bad B   revisions: G without the change, B with it\n"
		"    --build CMD         builds and installs the checked-out commit, before\n"
		"                        every run (with --install: builds it, once);\n"
		"                        {commit} is replaced by the full hash,\n"
		"                        $KDELTA_COMMIT set; a failing build skips the commit.\n"
		"                        A build that names {out} ($KDELTA_OUT) makes a\n"
		"                        kernel there, as kdelta run --kernel's PATH: each\n"
		"                        commit's kernel is built once and booted in\n"
		"                        virtual machines, the job run inside (the --vm-*\n"
		"                        options below)\n"
		"    --kernel-config SPEC  DIR is a kernel tree: kdelta builds each commit's\n"
		"                        kernel itself (instead of --build) out of tree,\n"
		"                        with ccache when installed, from SPEC:\n"
		"                        BASE[+FRAGMENT...], BASE a .config file or a make\n"
		"                        target (tinyconfig, defconfig), each FRAGMENT a\n"
		"                        file of CONFIG_ lines or one of the tree's\n"
		"                        (kvm_guest.config); what the guest needs is added\n"
		"    --kernel-cache DIR  the tree's O= directory and the commits' kernels,\n"
		"                        kept: a commit built before is not built again\n"
		"                        (default: $XDG_CACHE_HOME/kdelta/kernels,\n"
		"                        ~/.cache/kdelta/kernels)\n"
		"    --install CMD       with it, each commit is built once, in a work tree\n"
		"                        of its own in the work directory, and 'sh -c CMD'\n"
		"                        runs there before each run to put that build in\n"
		"                        place ({commit} replaced)\n"
		"    --metric M          what to bisect (default: the job's key result, the\n"
		"                        first its key_result declares, else the first\n"
		"                        result its workload prints)\n"
		"    --runs N            rounds of a look before its first verdict\n"
		"                        (default %d, at least 2)\n"
		"    --max-runs N        rounds of a look at most; a commit undecided then\n"
		"                        is skipped (default %d, at least --runs and %d)\n"
		"    --min-change PCT    smallest change that counts, between G and B and\n"
		"                        for an earlier change (default %g)\n"
		"    --result-root DIR   the store (default: $KDELTA_RESULT_ROOT, else\n"
		"                        /var/lib/kdelta/results for root, else\n"
		"                        ~/.local/share/kdelta/results)\n"
		"    --work-dir DIR      where workloads run, and the build and run logs,\n"
		"                        private to you (default %s for\n"
		"                        root, else ~/.cache/kdelta/work)\n"
		"    --report FILE       also write the robot's mail about the first bad\n"
		"                        commit to FILE ('-': standard output)\n"
		"\n"
		"Kernels in virtual machines (--kernel-config, or a --build that names\n"
		"{out}):\n",
		JOB_DEFAULT_RUNS, BISECT_DEFAULT_MAX_RUNS, BISECT_MIN_REPRODUCE_RUNS,
		COMPARE_DEFAULT_MIN_CHANGE, WORK_DIR_ROOT_DEFAULT);
	vm_args_usage(out);
	fprintf(out,
		"\n"
		"Exit status: 0 first bad commit found, 1 it could not be found (good or\n"
		"bad failed to build or run, only skipped commits left, undecided), 2 bad\n"
		"usage or input, 3 good and bad do not differ, 4 the results could not be\n"
		"written (disk full, read-only), 6 good and bad undecided at --max-runs,\n"
		"128+N stopped by signal N.\n"
		"See kdelta(1).\n");
}

struct bisect_args {
	struct bisect_opts o;
	const char *build, *install, *result_root, *work_dir, *report;
	long runs, max_runs;
	struct job_set set;
	struct vm_args vm;	/* a build that names {out} */
	const char *kernel_config, *kernel_cache;
	struct kernel_tree tree;	/* with --kernel-config */
	char *tree_build;		/* its build command */
};

/* "kdelta bisect: <problem>" (cmd_error()); returns -1. */
static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	cmd_error("bisect", "%s", sb.buf);
	strbuf_release(&sb);
	return -1;
}

static int parse_count(const char *opt, const char *arg, long min, long *out)
{
	int64_t value = 0;

	if (parse_int(arg, &value, NULL) < 0 || value < min || value > 100000)
		return usage_error("%s expects a number of %ld or more, not '%s'",
				   opt, min, arg);
	*out = (long)value;
	return 0;
}

static int parse_min_change(const char *arg, double *out)
{
	struct kd_err err;

	if (param_number(&compare_min_change_param, arg, out, &err) < 0)
		return usage_error("--min-change: %s", err.msg);
	return 0;
}

static int take_option(void *args, int c, const char *arg)
{
	struct bisect_args *a = args;

	switch (c) {
	case 'r': a->o.repo = arg; break;
	case 'g': a->o.good = arg; break;
	case 'b': a->o.bad = arg; break;
	case 'B': a->build = arg; break;
	case 'I': a->install = arg; break;
	case 'm': a->o.metric = metric_current_name(arg); break;
	case 'R': a->result_root = arg; break;
	case 'W': a->work_dir = arg; break;
	case 'o': a->report = arg; break;
	case 'n': return parse_count("--runs", arg, 2, &a->runs);
	case 'M': return parse_count("--max-runs", arg, 2, &a->max_runs);
	case 'c': return parse_min_change(arg, &a->o.min_change);
	case 'K': a->kernel_config = arg; break;
	case 'C': a->kernel_cache = arg; break;
	}
	if (vm_args_is(c))
		return vm_args_take(&a->vm, c, arg, "bisect");
	return 0;
}

/* Returns 1 for --help, -1 on bad usage. */
static int parse_options(int argc, char **argv, struct bisect_args *a)
{
	static const struct option options[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "good", required_argument, NULL, 'g' },
		{ "bad", required_argument, NULL, 'b' },
		{ "build", required_argument, NULL, 'B' },
		{ "install", required_argument, NULL, 'I' },
		{ "metric", required_argument, NULL, 'm' },
		{ "runs", required_argument, NULL, 'n' },
		{ "max-runs", required_argument, NULL, 'M' },
		{ "min-change", required_argument, NULL, 'c' },
		{ "result-root", required_argument, NULL, 'R' },
		{ "work-dir", required_argument, NULL, 'W' },
		{ "report", required_argument, NULL, 'o' },
		{ "kernel-config", required_argument, NULL, 'K' },
		{ "kernel-cache", required_argument, NULL, 'C' },
		VM_ARGS_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};

	return cmd_parse_options("bisect", options, argc, argv, bisect_usage,
				 take_option, a);
}

/* A build of kernels: the --vm-* options; no --install. */
static int check_kernels(struct bisect_args *a)
{
	if (!executor_builds_kernels(a->build)) {
		if (a->vm.first)
			return usage_error("--%s goes with kernels: --kernel-config, or a --build that makes them (one that names {out})",
					   a->vm.first);
		return 0;
	}
	if (a->install)
		return usage_error("--install does not go with kernels (%s): each commit's kernel is built once and booted from there",
				   a->kernel_config ? "--kernel-config" :
						      "a --build that names {out}");
	return vm_args_check(&a->vm, "bisect");
}

/* --kernel-config: the tree's build command, which makes kernels. */
static int check_kernel_tree(struct bisect_args *a)
{
	struct kd_err err;

	if (a->kernel_cache && !a->kernel_config)
		return usage_error("--kernel-cache goes with --kernel-config");
	if (!a->kernel_config)
		return 0;
	if (a->build)
		return usage_error("--build and --kernel-config exclude each other: with --kernel-config, kdelta builds the kernels");
	if (kernel_tree_init(&a->tree, a->o.repo, a->kernel_config,
			     vm_guest_kconfig, a->kernel_cache, &err) < 0)
		return usage_error("%s", err.msg);
	a->build = a->tree_build = kernel_tree_build_command(&a->tree);
	return 0;
}

/* The required options and the job file. */
static int check_args(struct bisect_args *a, int argc, char **argv)
{
	static const char *const required[] = { "--repo", "--good", "--bad",
						 "--build" };
	const char *given[] = { a->o.repo, a->o.good, a->o.bad,
				a->kernel_config ? "-" : a->build };
	struct kd_err err;
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(required); i++)
		if (!given[i] || !*given[i])
			return usage_error("%s is required%s; see 'kdelta bisect --help'",
					   required[i], i == 3 ? " (or --kernel-config)" : "");
	/* Before --kernel-config looks into it. */
	if (stat(a->o.repo, &st) < 0)
		return usage_error("--repo %s: no such directory", a->o.repo);
	if (!S_ISDIR(st.st_mode))
		return usage_error("--repo %s: not a directory", a->o.repo);
	if (check_kernel_tree(a) < 0 || check_kernels(a) < 0)
		return -1;
	if (a->max_runs < a->runs || a->max_runs < BISECT_MIN_REPRODUCE_RUNS)
		return usage_error("--max-runs %ld must be at least --runs (%ld) and at least %d",
				   a->max_runs, a->runs,
				   BISECT_MIN_REPRODUCE_RUNS);
	if (optind != argc - 1)
		return usage_error(optind >= argc
				   ? "no job file given; usage: kdelta bisect [options] JOB.yaml"
				   : "one job file only; usage: kdelta bisect [options] JOB.yaml");
	if (job_load_file(argv[optind], job_schema_default(), &a->set, &err) < 0)
		return usage_error("%s", err.msg);
	if (a->set.n != 1)
		return usage_error("%s holds %zu jobs; bisect runs one (write it out with 'kdelta split -o DIR %s')",
				   argv[optind], a->set.n, argv[optind]);
	if (!job_workload(&a->set.jobs[0]))
		return usage_error("%s: the job has no workload section; see 'kdelta run --help' for the workloads",
				   argv[optind]);
	a->o.job = &a->set.jobs[0];
	return 0;
}

/* " (-50.1%, interval -51.0% to -49.2%)" */
static void print_change(const struct change_interval *ci, bool points)
{
	const char *unit = points ? " points" : "%";

	if (!isfinite(ci->estimate))
		return;
	printf(" %+.1f%s", ci->estimate, unit);
	if (ci->bounded)
		printf(" (interval %+.1f%s to %+.1f%s)", ci->low, unit,
		       ci->high, unit);
}

/* What the look at good against the first bad commit's parent found. */
static void print_earlier(const struct bisect_opts *o,
			  const struct bisect_result *r)
{
	const struct seq_result *e = &r->earlier;
	bool points = metric_is_percent(metric_catalogue_default(),
					r->metric);
	const char *unit = points ? " points" : "%";

	if (!r->earlier_commit || e->verdict == SEQ_CONTINUE)
		return;
	printf("before it: its parent %.12s against good %.12s:",
	       r->earlier_commit, r->good);
	print_change(&e->ci, points);
	if (e->verdict == SEQ_SAME)
		printf(", no change of %g%s or more towards bad\n",
		       o->min_change, unit);
	else
		printf(", undecided whether it changed by %g%s or more towards bad (more --max-runs, or a larger --min-change, would tell)\n",
		       o->min_change, unit);
}

/* Changes the search went past, to an earlier one. */
static void print_later(const struct bisect_result *r)
{
	for (size_t i = 0; i < r->n_later; i++)
		printf("a later change: %s (\"%s\")\n", r->later[i],
		       r->later_subjects ? r->later_subjects[i] : "");
}

static void print_found(const struct bisect_opts *o,
			const struct bisect_result *r)
{
	struct strbuf table = STRBUF_INIT;

	render_lkp(&r->cmp, &r->opt, &table);
	if (r->end == BISECT_FOUND)
		printf("first bad commit: %s (\"%s\")\n", r->first_bad,
		       r->subject);
	else
		printf("first bad commit: undecided: %s (\"%s\") changed it, but whether an earlier commit did too is undecided\n",
		       r->first_bad, r->subject);
	printf("metric: %s\n", r->metric);
	print_earlier(o, r);
	print_later(r);
	if (r->base_is_parent)
		printf("compared with its parent %s\n\n", r->base);
	else
		printf("compared with the last good commit %s (its parent could not be measured)\n\n",
		       r->base);
	fwrite(table.buf, 1, table.len, stdout);
	strbuf_release(&table);
}

static void print_range(const struct bisect_result *r)
{
	printf("first bad commit: undecided: one of these %zu, which could not all be tested or decided:\n",
	       r->n_candidates);
	for (size_t i = 0; i < r->n_candidates; i++)
		printf("  %s (\"%s\")\n", r->candidates[i],
		       r->candidate_subjects[i]);
	printf("metric: %s\n", r->metric);
	print_later(r);
	printf("\n");
}

static void print_not_reproducible(const struct bisect_opts *o,
				   const struct bisect_result *r)
{
	struct strbuf table = STRBUF_INIT;

	render_lkp(&r->cmp, &r->opt, &table);
	if (r->ends.verdict == SEQ_UNDECIDED)
		printf("undecided: %s is neither shown to differ between --good %s and --bad %s nor shown the same within --min-change, at --max-runs; more runs (--max-runs) or a larger --min-change would tell\n\n",
		       r->metric ? r->metric : "the metric", o->good, o->bad);
	else
		printf("not reproducible: %s does not differ significantly between --good %s and --bad %s\n\n",
		       r->metric ? r->metric : "the metric", o->good, o->bad);
	fwrite(table.buf, 1, table.len, stdout);
	strbuf_release(&table);
}

/* The robot's mail about base against the first bad commit. */
static int write_report(const struct bisect_args *a, struct bisect_result *r,
			struct kd_err *err)
{
	struct report_options ro = { 0 };
	struct strbuf mail = STRBUF_INIT;
	int ret = bisect_report_write(r, &a->o, a->build, a->install, NULL,
				      &ro, &mail, err);

	if (ret >= 0 && !strcmp(a->report, "-"))
		fwrite(mail.buf, 1, mail.len, stdout);
	else if (ret >= 0)
		ret = write_file_atomic(a->report, mail.buf, mail.len, err);
	strbuf_release(&mail);
	return ret < 0 ? -1 : 0;
}

/* Prints what the bisection found; returns the exit status. */
static int print_result(const struct bisect_args *a, struct bisect_result *r)
{
	struct kd_err err;

	switch (r->end) {
	case BISECT_STOPPED:
		cmd_error("bisect", "stopped by SIG%s; the repository is back where it was, and the runs so far count when bisecting again",
			sigabbrev_np(r->signal) ? sigabbrev_np(r->signal) : "?");
		return 128 + r->signal;
	case BISECT_NOT_REPRODUCIBLE:
		print_not_reproducible(&a->o, r);
		return r->ends.verdict == SEQ_UNDECIDED ? KD_EXIT_INCONCLUSIVE
							: KD_EXIT_NOT_REPRODUCIBLE;
	case BISECT_RANGE:
		print_range(r);
		break;
	case BISECT_FOUND:
	case BISECT_EARLIER_UNDECIDED:
		print_found(&a->o, r);
		break;
	}
	printf("git bisect log:\n%s", r->log.buf);
	fflush(stdout);
	if (r->end == BISECT_FOUND && a->report && write_report(a, r, &err) < 0) {
		cmd_error("bisect", "--report: %s", err.msg);
		return KD_EXIT_FAIL;
	}
	return r->end == BISECT_FOUND ? KD_EXIT_OK : KD_EXIT_FAIL;
}

/*
 * The result root and the private work directory, after cleaning up after
 * killed kdeltas in it; an exit status.
 */
static int prepare_dirs(struct bisect_args *a, const char *abs_root,
			struct work_dir *wd)
{
	struct strbuf notes = STRBUF_INIT;
	struct kd_err err = { .status = 0 };
	int ret;

	if (mkdir_p(abs_root, &err) < 0) {
		cmd_error("bisect", "cannot write the results: %s",
			err.msg);
		return KD_EXIT_WRITE;
	}
	ret = run_work_dir_prepare(wd, a->work_dir, "bisect", &notes, &err);
	fputs(notes.buf, stderr);
	strbuf_release(&notes);
	if (ret < 0)
		cmd_error("bisect", "%s%s", err.status == KD_EXIT_WRITE ?
			  "cannot write: " : "", err.msg);
	return ret < 0 ? kd_err_status(&err, KD_EXIT_USAGE) : KD_EXIT_OK;
}

/* The local executor, and the bisection. */
static int run_bisect(struct bisect_args *a, const struct work_dir *wd)
{
	struct local_executor_opts lo = {
		.repo = a->o.repo, .build = a->build, .install = a->install,
		.result_root = a->o.result_root, .work_dir = wd,
		.cancel_fd = a->o.cancel_fd,
		.command = "bisect", .progress = stderr,
		.vm = executor_builds_kernels(a->build) ? &a->vm.vo : NULL,
		.kernel_cache = a->tree_build ? a->tree.kernels : NULL,
	};
	struct bisect_result res;
	struct kd_err err = { .status = 0 };
	int status;

	lo.log = work_dir_open_log(wd, "bisect-runs.log", &err);
	if (!lo.log) {
		cmd_error("bisect", "%s", err.msg);
		return KD_EXIT_WRITE;
	}
	if (local_executor_new(&lo, &a->o.executor, &err) < 0) {
		cmd_error("bisect", "%s", err.msg);
		fclose(lo.log);
		return KD_EXIT_FAIL;
	}
	status = bisect_run(&a->o, &res, &err);
	/*
	 * The executor goes first, with what it built for the bisection
	 * (kernels in {out}): the report says what is there after it.
	 */
	executor_release(a->o.executor);
	if (status < 0) {
		cmd_error("bisect", "%s", err.msg);
		status = kd_err_status(&err, res.store_failed ? KD_EXIT_WRITE
							      : KD_EXIT_FAIL);
	} else {
		status = print_result(a, &res);
	}
	bisect_result_release(&res);
	fclose(lo.log);
	return status;
}

static int bisect(struct bisect_args *a)
{
	char *root = result_root(a->result_root);
	char *abs_root = absolute_path(root);
	char *repo = absolute_path(a->o.repo);
	struct work_dir wd = { .fd = -1 };
	struct kd_err err;
	int status;

	a->o.repo = repo;
	a->o.result_root = abs_root;
	a->o.runs = a->runs;
	a->o.max_runs = a->max_runs;
	a->o.log = stderr;
	a->o.cancel_fd = proc_catch_signals(caught_signals,
					    ARRAY_SIZE(caught_signals), &err);
	if (a->o.cancel_fd < 0) {
		cmd_error("bisect", "%s", err.msg);
		status = KD_EXIT_FAIL;
	} else if ((status = prepare_dirs(a, abs_root, &wd)) == KD_EXIT_OK) {
		status = run_bisect(a, &wd);
	}
	if (a->o.cancel_fd >= 0)
		proc_release_signals(a->o.cancel_fd, caught_signals,
				     ARRAY_SIZE(caught_signals));
	work_dir_close(&wd);
	free(repo);
	free(abs_root);
	free(root);
	return status;
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect_args a = {
		.runs = JOB_DEFAULT_RUNS, .max_runs = BISECT_DEFAULT_MAX_RUNS,
		.o.min_change = COMPARE_DEFAULT_MIN_CHANGE,
	};
	int r, status = KD_EXIT_USAGE;

	optind = 1;
	r = parse_options(argc, argv, &a);
	if (r > 0)
		return KD_EXIT_OK;
	if (r == 0 && check_args(&a, argc, argv) == 0)
		status = bisect(&a);
	job_set_release(&a.set);
	vm_args_release(&a.vm);
	kernel_tree_release(&a.tree);
	free(a.tree_build);
	return status;
}
