// SPDX-License-Identifier: GPL-2.0
/*
 * The shell scripts the slurm executor submits (slurm-script.h): what a
 * Slurm job does on its node, written out as text.  executor-slurm.c
 * submits them and follows their jobs.
 */
#include <stdlib.h>
#include <string.h>

#include "kdelta/executor.h"
#include "kdelta/proc.h"
#include "kdelta/runner.h"
#include "kdelta/strbuf.h"
#include "kdelta/util.h"
#include "kdelta/vm.h"

#include "slurm-script.h"

static void add_quoted_line(struct strbuf *sb, const char *prefix,
			    const char *value)
{
	strbuf_addstr(sb, prefix);
	shell_quote(sb, value);
	strbuf_addch(sb, '\n');
}

/*
 * What every batch script does first: says what it is, names its places,
 * starts "found" (the host the runs are stored under, the node), and
 * clones the repository into a private directory.
 *
 * Nothing has a name another user of the node could take first: the
 * clone lies in a directory mktemp makes (mode 0700, a random name), and
 * kdelta works in its own private work directory, which lasts beyond the
 * job (a run killed there is cleaned up by the next kdelta run on the
 * node, from the records it left: workdir.h).  What stops the batch
 * whatever the commits (no private directory, no clone, kdelta refusing
 * its work directory or killed) is said in "found" as "batch-failed
 * <why>", for the robot to report.
 */
static void script_head(const struct slurm_executor_opts *o, const char *what,
			const char *purpose, const char *dir,
			struct strbuf *sb)
{
	strbuf_addf(sb, "#!/bin/sh\n"
		    "# Written by kdelta's slurm executor (kdelta-robot(5)):\n"
		    "# %s.\n", what);
	if (purpose) {
		strbuf_addstr(sb, "# ");
		for (const char *s = purpose; *s; s++)
			strbuf_addch(sb, *s == '\n' ? ' ' : *s);
		strbuf_addch(sb, '\n');
	}
	add_quoted_line(sb, "dir=", dir);
	add_quoted_line(sb, "kdelta=", o->kdelta);
	add_quoted_line(sb, "root=", o->result_root);
	add_quoted_line(sb, "work=", o->work_dir ? o->work_dir : "");
	add_quoted_line(sb, "build=", o->build);
	add_quoted_line(sb, "install=", o->install ? o->install : "");
	strbuf_addstr(sb,
		"rm -f \"$dir/" BATCH_FOUND "\" \"$dir/found.tmp\"\n"
		"trap 'exit 143' TERM\n"
		"trap 'exit 130' INT\n");
	/*
	 * The host the runs go under: this node's, or, with kernels, the
	 * guests' (kdelta run and kdelta bisect say it: host_of_guests()).
	 */
	if (!o->vm)
		strbuf_addstr(sb, "echo \"host $(uname -n)\" >\"$dir/found.tmp\"\n"
			      "echo \"node ${SLURMD_NODENAME:-$(uname -n)}\" >>\"$dir/found.tmp\"\n");
	else
		strbuf_addstr(sb, "echo \"node ${SLURMD_NODENAME:-$(uname -n)}\" >\"$dir/found.tmp\"\n");
	strbuf_addstr(sb,
		"# failed WHY: the batch cannot go on, whatever its commits\n"
		"failed() {\n"
		"\techo \"batch-failed $*\" | head -c 500 | tr -d '\\n' >>\"$dir/found.tmp\"\n"
		"\techo >>\"$dir/found.tmp\"\n"
		"\tmv \"$dir/found.tmp\" \"$dir/" BATCH_FOUND "\"\n"
		"\texit 1\n"
		"}\n"
		"# gone: the clone's directory removed as the job ends, however it\n"
		"# ends.  Slurm's signals are ignored from here on (one that came\n"
		"# as the job ended killed rm half-way).  What the job started and\n"
		"# is still there is stopped first: the script's process group (as\n"
		"# Slurm starts it, it leads one), where Slurm's signal missed a\n"
		"# process forked as it came, and whatever works in the clone (a\n"
		"# build server a build left, in a process group of its own):\n"
		"# only root and this job may enter the clone's directory; one find\n"
		"# reads every process's working directory).  rm tries again while\n"
		"# something still wrote there.\n"
		"gone() {\n"
		"\ttrap '' TERM INT\n"
		"\t[ \"$(cut -d ' ' -f 5 /proc/$$/stat 2>/dev/null)\" = $$ ] && kill -TERM 0 2>/dev/null\n"
		"\t[ -n \"$base\" ] || return\n"
		"\tfor i in 1 2 3 4 5; do\n"
		"\t\tfind /proc/[0-9]*/cwd -maxdepth 0 \\( -lname \"$base\" -o -lname \"$base/*\" -o -lname \"$base *\" \\) 2>/dev/null |\n"
		"\t\twhile read -r p; do\n"
		"\t\t\tp=${p#/proc/}\n"
		"\t\t\tkill -KILL \"${p%/cwd}\" 2>/dev/null\n"
		"\t\tdone\n"
		"\t\trm -rf \"$base\" 2>/dev/null && [ ! -e \"$base\" ] && return\n"
		"\t\tsleep 1\n"
		"\tdone\n"
		"\techo \"kdelta: cannot remove $base\" >&2\n"
		"}\n"
		"base=\n"
		"trap gone EXIT\n"
		"base=$(mktemp -d \"${TMPDIR:-/tmp}/kdelta-slurm.XXXXXXXXXX\") ||\n"
		"\tfailed \"cannot make a private directory in ${TMPDIR:-/tmp} for the clone\"\n"
		"echo \"clone $base\" >>\"$dir/found.tmp\"\n"
		"clone=$base/clone\n"
		"KDELTA_SLURM_CLONE=$clone\n"
		"KDELTA_SLURM_BUILDS=$base/builds\n"
		"export KDELTA_SLURM_CLONE KDELTA_SLURM_BUILDS\n");
	strbuf_addstr(sb, "git clone -q --no-checkout ");
	shell_quote(sb, o->repo);
	strbuf_addstr(sb, " \"$clone\" 2>\"$base/clone.err\" ||\n"
		"\tfailed \"git clone: $(tail -n 1 \"$base/clone.err\")\"\n");
}

/*
 * With kernels: "host <the guests' host>" into "found" from what kdelta
 * said on stderr in FILE ("... runs stored under host vm-node-tcg-1cpu"),
 * once; else (no kernel built, nothing booted) the node's.
 */
static void add_host_of_guests(struct strbuf *sb, const char *file,
			       bool last)
{
	strbuf_addf(sb, "grep -q '^host ' \"$dir/found.tmp\" ||\n"
		    "\tsed -n 's/.*runs stored under host \\(.*\\)$/host \\1/p' %s | head -n 1 >>\"$dir/found.tmp\"\n",
		    file);
	if (last)
		strbuf_addstr(sb, "grep -q '^host ' \"$dir/found.tmp\" || echo \"host $(uname -n)\" >>\"$dir/found.tmp\"\n");
}

/*
 * A build of kernels in the script: {commit} the hash, {out} the
 * directory the script puts in $KDELTA_OUT before it.
 */
static char *kernel_build_command(const char *build, const char *commit)
{
	char *with_commit = setup_command_expand(build, commit);
	struct strbuf sb = STRBUF_INIT;
	const char *p = with_commit, *hit;

	while ((hit = strstr(p, "{out}"))) {
		strbuf_add(&sb, p, (size_t)(hit - p));
		strbuf_addstr(&sb, "\"$KDELTA_OUT\"");
		p = hit + strlen("{out}");
	}
	strbuf_addstr(&sb, p);
	free(with_commit);
	return strbuf_detach(&sb);
}

/* Kernels: kdelta run --kernel of those that built, booted on this node. */
static void add_kernel_run(const struct slurm_executor_opts *o,
			   struct strbuf *sb)
{
	strbuf_addstr(sb,
		"\tkernels=\n"
		"\tfor c in $1; do\n"
		"\t\tcase $ok in *,$c,*) kernels=\"$kernels --kernel $c=$base/out/$c\";; esac\n"
		"\tdone\n"
		"\t\"$kdelta\" run \"$dir/" BATCH_JOB "\" $kernels --runs \"$2\" --result-root \"$root\" ${work:+--work-dir \"$work\"} ${tag:+--tag \"$tag\"}");
	vm_options_args(o->vm, sb);
	strbuf_addstr(sb, " 2>\"$base/run.err\"\n");
}

/*
 * The batch script of a request: the head, then each commit that needs
 * runs built (a commit that does not build is said in "found", with the
 * line of its log that says why), then rounds of kdelta run over those
 * that built, as the local executor's, and "found": the builds that
 * failed and kdelta run's exit statuses.  With install, each commit is
 * built once, in a work tree of its own, and installed before each run;
 * else it is checked out and built before each run.
 */
void slurm_script_measure(const struct slurm_executor_opts *o,
			  const struct measure_request *req, const char *dir,
			  const size_t *missing, struct strbuf *sb)
{
	struct strbuf setup = STRBUF_INIT;
	size_t n = req->n_commits, done = 0;

	/* The clone's path is mktemp's: the script exports it. */
	if (o->install)
		strbuf_addf(&setup, "cd \"$KDELTA_SLURM_BUILDS\"/{commit} && %s",
			    o->install);
	else
		strbuf_addf(&setup, "cd \"$KDELTA_SLURM_CLONE\" && git checkout -q {commit} && %s",
			    o->build);
	script_head(o, "builds the commits on this node and runs kdelta run on those that built",
		    req->purpose, dir, sb);
	add_quoted_line(sb, "setup=", setup.buf);
	add_quoted_line(sb, "tag=", req->tag ? req->tag : "");
	strbuf_addstr(sb,
		"ok=, unbuilt=\n"
		"# build COMMIT BUILD: builds COMMIT (its own work tree with install,\n"
		"# else checked out in the clone); says why not\n"
		"build() {\n"
		"\tlog=\"$dir/build-$(printf %.12s \"$1\").log\"\n"
		"\tif [ -n \"$install\" ]; then\n"
		"\t\t(git -C \"$clone\" worktree add -q --detach \"$KDELTA_SLURM_BUILDS/$1\" \"$1\" && cd \"$KDELTA_SLURM_BUILDS/$1\" && KDELTA_COMMIT=$1 && export KDELTA_COMMIT && sh -c \"$2\") >\"$log\" 2>&1\n"
		"\telse\n"
		"\t\t(cd \"$clone\" && git checkout -q \"$1\" && KDELTA_COMMIT=$1 && export KDELTA_COMMIT && sh -c \"$2\") >\"$log\" 2>&1\n"
		"\tfi\n"
		"\tstatus=$?\n"
		"\t[ $status = 0 ] && return 0\n"
		"\twhy=$(grep -m 1 error \"$log\" || tail -n 1 \"$log\")\n"
		"\techo \"build-failed $1 exited with status $status: $why\" | head -c 300 | tr -d '\\n' >>\"$dir/found.tmp\"\n"
		"\techo >>\"$dir/found.tmp\"\n"
		"\tunbuilt=$1\n"
		"\treturn 1\n"
		"}\n"
		"# run COMMITS RUNS: kdelta run on those of COMMITS that built (none\n"
		"# when one did not: the commits are measured together); its\n"
		"# stderr goes to the job's output after it, its last line into\n"
		"# \"found\" when it failed otherwise than by a failed run (status 1)\n"
		"run() {\n"
		"\t[ -z \"$unbuilt\" ] || return 0\n"
		"\tlist=\n"
		"\tfor c in $1; do\n"
		"\t\tcase $ok in *,$c,*) list=\"$list${list:+,}$c\";; esac\n"
		"\tdone\n"
		"\t[ -n \"$list\" ] || return 0\n"
		"\t: >\"$base/run.err\"\n");
	if (o->vm)
		add_kernel_run(o, sb);
	else
		strbuf_addstr(sb,
		"\tcase $list${install:+,} in\n"
		"\t*,*) \"$kdelta\" run \"$dir/" BATCH_JOB "\" --commits \"$list\" --runs \"$2\" --result-root \"$root\" ${work:+--work-dir \"$work\"} --setup \"$setup\" ${tag:+--tag \"$tag\"} 2>\"$base/run.err\";;\n"
		"\t*) build \"$list\" \"$(echo \"$build\" | sed \"s/{commit}/$list/g\")\" &&\n"
		"\t   \"$kdelta\" run \"$dir/" BATCH_JOB "\" --commit \"$list\" --runs \"$2\" --result-root \"$root\" ${work:+--work-dir \"$work\"} ${tag:+--tag \"$tag\"} 2>\"$base/run.err\";;\n"
		"\tesac\n");
	strbuf_addstr(sb,
		"\tstatus=$?\n"
		"\tcat \"$base/run.err\" >&2 2>/dev/null\n");
	if (o->vm)
		add_host_of_guests(sb, "\"$base/run.err\"", false);
	strbuf_addstr(sb,
		"\techo \"run-status $status\" >>\"$dir/found.tmp\"\n"
		"\tcase $status in\n"
		"\t0|1) ;;\n"
		"\t*) failed \"kdelta run exited with status $status: $(tail -n 1 \"$base/run.err\" 2>/dev/null)\";;\n"
		"\tesac\n"
		"}\n");
	for (size_t i = 0; i < n; i++) {
		char *expanded;

		if (!missing[i])
			continue;
		if (o->vm) {
			/* {out}: $KDELTA_OUT, a directory of the clone's base */
			expanded = kernel_build_command(o->build, req->commits[i]);
			strbuf_addf(sb, "KDELTA_OUT=$base/out/%s; export KDELTA_OUT; mkdir -p \"$KDELTA_OUT\"\n",
				    req->commits[i]);
		} else {
			expanded = setup_command_expand(o->build, req->commits[i]);
		}
		strbuf_addf(sb, "build %s ", req->commits[i]);
		shell_quote(sb, expanded);
		strbuf_addf(sb, " && ok=\"${ok}%s,\"\n", req->commits[i]);
		free(expanded);
	}
	/* Rounds: the commits still missing runs, as many as the fewest. */
	for (;;) {
		size_t rounds = 0;

		for (size_t i = 0; i < n; i++)
			if (missing[i] > done && (!rounds ||
						  missing[i] - done < rounds))
				rounds = missing[i] - done;
		if (!rounds)
			break;
		strbuf_addstr(sb, "run '");
		for (size_t i = 0, k = 0; i < n; i++)
			if (missing[i] > done)
				strbuf_addf(sb, "%s%s", k++ ? " " : "",
					    req->commits[i]);
		strbuf_addf(sb, "' %zu\n", rounds);
		done += rounds;
	}
	if (o->vm)
		add_host_of_guests(sb, "/dev/null", true);
	strbuf_addstr(sb, "mv \"$dir/found.tmp\" \"$dir/" BATCH_FOUND "\"\n");
	strbuf_release(&setup);
}

/*
 * The batch script of a whole bisection: the head, the clone's work tree
 * at the bad commit, then kdelta bisect on the node (its build cache
 * builds each commit once when install is set), its output and its
 * progress lines beside the script, and "found": its exit status.
 */
void slurm_script_bisect(const struct slurm_executor_opts *o,
			 const struct bisect_request *req, const char *dir,
			 struct strbuf *sb)
{
	script_head(o, "bisects on this node, as kdelta bisect does",
		    req->purpose, dir, sb);
	add_quoted_line(sb, "good=", req->good);
	add_quoted_line(sb, "bad=", req->bad);
	add_quoted_line(sb, "metric=", req->metric ? req->metric : "");
	strbuf_addf(sb, "runs=%u\nmax_runs=%u\nmin_change=%.17g\n", req->runs,
		    req->max_runs, req->min_change);
	strbuf_addstr(sb,
		"git -C \"$clone\" checkout -q --detach \"$bad\" 2>\"$base/clone.err\" ||\n"
		"\tfailed \"git checkout: $(tail -n 1 \"$base/clone.err\")\"\n"
		"\"$kdelta\" bisect --repo \"$clone\" --good \"$good\" --bad \"$bad\" --build \"$build\" ${install:+--install \"$install\"} ${metric:+--metric \"$metric\"} --runs \"$runs\" --max-runs \"$max_runs\" --min-change \"$min_change\" --result-root \"$root\" ${work:+--work-dir \"$work\"}");
	if (o->vm)
		vm_options_args(o->vm, sb);
	strbuf_addstr(sb,
		" \"$dir/" BATCH_JOB "\" >\"$dir/" BISECT_OUT "\" 2>\"$dir/" BISECT_ERR "\"\n"
		"status=$?\n"
		"cat \"$dir/" BISECT_ERR "\" >&2\n");
	if (o->vm)
		add_host_of_guests(sb, "\"$dir/" BISECT_ERR "\"", true);
	strbuf_addstr(sb,
		"echo \"bisect-status $status\" >>\"$dir/found.tmp\"\n"
		"mv \"$dir/found.tmp\" \"$dir/" BATCH_FOUND "\"\n");
}
