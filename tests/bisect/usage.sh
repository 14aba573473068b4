#!/bin/bash
# Bad usage and repositories bisect refuses: one clear line each, exit
# status 2, nothing run, and the repository left as it was.
source "$TESTLIB"
source "$SRCDIR/tests/bisect/common.sh"

make_fixture
B=(--build 'cc -O2 -o bench bench.c' --result-root "$RESULTS" --work-dir "$WORK")

expect_error 2 "kdelta bisect: --repo is required; see 'kdelta bisect --help'" \
	"$KDELTA" bisect --good main~1 --bad main "${B[@]}" "$JOB"
expect_error 2 "kdelta bisect: --build is required (or --kernel-config); see 'kdelta bisect --help'" \
	"$KDELTA" bisect --repo "$REPO" --good main~1 --bad main "$JOB"
expect_error 2 "kdelta bisect: no job file given; usage: kdelta bisect [options] JOB.yaml" \
	"$KDELTA" bisect --repo "$REPO" --good main~1 --bad main "${B[@]}"
expect_error 2 "kdelta bisect: --runs expects a number of 2 or more, not '1'" \
	"$KDELTA" bisect --repo "$REPO" --good main~1 --bad main --runs 1 "${B[@]}" "$JOB"
expect_error 2 "kdelta bisect: --max-runs 4 must be at least --runs (5) and at least 3" \
	"$KDELTA" bisect --repo "$REPO" --good main~1 --bad main --runs 5 --max-runs 4 "${B[@]}" "$JOB"
expect_error 2 "kdelta bisect: unknown option '--god'; see 'kdelta bisect --help'" \
	"$KDELTA" bisect --repo "$REPO" --god main~1 --bad main "${B[@]}" "$JOB"
printf 'exec:\n  cmd: [true, false]\n' >"$T/two.yaml"
expect_error 2 "kdelta bisect: $T/two.yaml holds 2 jobs; bisect runs one (write it out with 'kdelta split -o DIR $T/two.yaml')" \
	"$KDELTA" bisect --repo "$REPO" --good main~1 --bad main "${B[@]}" "$T/two.yaml"

expect_error 2 "kdelta bisect: --repo $T/nowhere: no such directory" \
	"$KDELTA" bisect --repo "$T/nowhere" --good main~1 --bad main "${B[@]}" "$JOB"
expect_error 2 "kdelta bisect: --repo $T: not a git repository" \
	"$KDELTA" bisect --repo "$T" --good main~1 --bad main "${B[@]}" "$JOB"
expect_error 2 "kdelta bisect: --repo $T/nowhere: no such directory" \
	"$KDELTA" bisect --repo "$T/nowhere" --good main~1 --bad main --kernel-config tinyconfig "$JOB"
expect_error 2 "kdelta bisect: --kernel-config: $REPO is not a kernel tree (no Makefile and scripts/kconfig/ at its top)" \
	"$KDELTA" bisect --repo "$REPO" --good main~1 --bad main --kernel-config tinyconfig "$JOB"
# Kernels (--kernel-config, or a --build that names {out}) and what goes
# with them.
mkdir -p "$T/ktree/scripts/kconfig" && touch "$T/ktree/Makefile"
expect_error 2 "kdelta bisect: --install does not go with kernels (a --build that names {out}): each commit's kernel is built once and booted from there" \
	"$KDELTA" bisect --repo "$REPO" --good main~1 --bad main --build 'sh build.sh {out}' \
	--install true "$JOB"
expect_error 2 "kdelta bisect: --install does not go with kernels (--kernel-config): each commit's kernel is built once and booted from there" \
	"$KDELTA" bisect --repo "$T/ktree" --good main~1 --bad main --kernel-config tinyconfig \
	--kernel-cache "$T/kcache" --install true "$JOB"
expect_error 2 "kdelta bisect: --kernel-config: the tree has no fragment missing.config (in kernel/configs/ or arch/x86/configs/)" \
	"$KDELTA" bisect --repo "$T/ktree" --good main~1 --bad main \
	--kernel-config tinyconfig+missing.config --kernel-cache "$T/kcache" "$JOB"
expect_error 2 "kdelta bisect: --vm-clock goes with kernels: --kernel-config, or a --build that makes them (one that names {out})" \
	"$KDELTA" bisect --repo "$REPO" --good main~1 --bad main --build true \
	--vm-clock instructions "$JOB"
expect_error 2 "kdelta bisect: --good v1.0: no such commit in $REPO" \
	"$KDELTA" bisect --repo "$REPO" --good v1.0 --bad main "${B[@]}" "$JOB"
expect_error 2 "kdelta bisect: --good and --bad are the same commit ${H[19]:0:12}; give an older good one" \
	"$KDELTA" bisect --repo "$REPO" --good "${H[19]}" --bad main "${B[@]}" "$JOB"
expect_error 2 "kdelta bisect: --good main is not an ancestor of --bad main~3; bisect needs a good commit older than the bad one" \
	"$KDELTA" bisect --repo "$REPO" --good main --bad main~3 "${B[@]}" "$JOB"

echo "/* local change */" >>"$REPO/bench.c"
expect_error 2 "kdelta bisect: $REPO: the work tree has uncommitted changes; commit or stash them first" \
	"$KDELTA" bisect --repo "$REPO" --good main~1 --bad main "${B[@]}" "$JOB"
git -C "$REPO" checkout -q -- bench.c

git -C "$REPO" bisect start main main~3 >/dev/null 2>&1
expect_error 2 "kdelta bisect: $REPO: a git bisect is already in progress; finish it or end it with 'git bisect reset'" \
	"$KDELTA" bisect --repo "$REPO" --good main~1 --bad main "${B[@]}" "$JOB"
git -C "$REPO" bisect reset >/dev/null 2>&1

[ ! -e "$RESULTS/bisect-fixture" ] || fail "runs were made: $(run_counts)"
expect_restored

# A build runs in a cgroup of its own: what it leaves running,
# even in a session of its own, is killed when it ends.  Here the good
# commit's build fails, which ends the bisection with status 1.
if have_cgroup2 && command -v setsid >/dev/null; then
	"$KDELTA" bisect --repo "$REPO" --good main~1 --bad main \
		--build "setsid sh -c 'echo \$\$ >$T/bg; exec sleep 300' </dev/null >/dev/null 2>&1 & until [ -s $T/bg ]; do sleep 0.1; done; exit 1" \
		--result-root "$RESULTS" --work-dir "$WORK" "$JOB" >/dev/null 2>"$T/err"
	status=$?
	[ "$status" = 1 ] || fail "failing build: exit status $status, want 1: $(cat "$T/err")"
	if [ -s "$T/bg" ]; then
		gone "$(cat "$T/bg")" || { fail "the build's leftover survived it"; kill -9 "$(cat "$T/bg")"; }
	else
		fail "the build did not run: $(cat "$T/err")"
	fi
	expect_restored
fi
finish
