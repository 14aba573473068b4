#!/bin/bash
# One robot at a time on a state and on a repository (kdelta-robot(5)):
# while a pass is at work, a second pass of the same configuration
# (a cron job overlapping itself), one of another configuration on the
# same repository, one on the same state, and --cancel refuse at once with
# exit status 8, saying who is at work, and change nothing; the first pass
# ends as if alone.  Before the locks, the second pass checked out, built
# and bisected in the same work tree as the first.
source "$TESTLIB"
source "$SRCDIR/tests/robot/small.sh"
# The job waits for $T/go, so that the first pass is at work, not done.
slow_bench "$T/repo/bench"
small_robot robot-overlap "$T/slow-bench"
git clone -q "$T/repo" "$T/clone" || fail "cannot clone the fixture"

"$KDELTA" robot --once "$T/robot.yaml" >"$T/first.out" 2>"$T/first.err" &
first=$!
at_exit 'touch "$T/go"; kill "$first" 2>/dev/null; wait "$first" 2>/dev/null'
wait_running "$first" || fail "the first pass did not run its job: $(cat "$T/first.err")"
head=$(git -C "$T/repo" rev-parse HEAD)
state_lock=$T/results/.kdelta/robot.db.lock
holder="kdelta robot (pid $first, since [-0-9]* [0-9:]* [-+][0-9]*, config $T/robot.yaml)"

# busy CONFIG WHAT LOCK [OPTION]: kdelta robot refuses with status 8 (a
# robot that waits instead is killed after 20 s).
busy() {
	local status
	timeout -s KILL 20 "$KDELTA" robot ${4:+"$4"} "$1" >"$T/out" 2>"$T/err"
	status=$?
	[ "$status" = 8 ] || fail "$1 ${4:-}: exit status $status, want 8: $(cat "$T/err")"
	grep -qx "kdelta robot: $holder holds $2 $3; another robot is at work there: nothing done" "$T/err" ||
		fail "$1 ${4:-}: message: $(cat "$T/err")"
	[ -s "$T/out" ] && fail "$1 ${4:-}: printed on stdout"
}
repo_lock=$T/repo/.git/kdelta-robot.lock
busy "$T/robot.yaml" "the lock of the repository" "$repo_lock"
busy "$T/robot.yaml" "the lock of the repository" "$repo_lock" --cancel
# Another configuration of the same repository, with a state of its own.
sed 's/^result-root: .*/result-root: other-results/' "$T/robot.yaml" >"$T/other-repo.yaml"
busy "$T/other-repo.yaml" "the lock of the repository" "$repo_lock"
# Another repository (a clone), with the same state.
sed 's/^repository: .*/repository: clone/' "$T/robot.yaml" >"$T/other-state.yaml"
busy "$T/other-state.yaml" "the lock of the robot's state" "$state_lock"
[ -e "$T/other-results" ] && fail "a refused robot made its result root"
[ "$(git -C "$T/repo" rev-parse HEAD)" = "$head" ] ||
	fail "a refused robot moved the work tree"
# --status reads beside it.
"$KDELTA" robot --status "$T/robot.yaml" >"$T/out" 2>"$T/err" ||
	fail "--status beside a pass: $(cat "$T/err")"

touch "$T/go"
wait "$first"
status=$?
[ "$status" = 0 ] || fail "the first pass: exit status $status, want 0: $(cat "$T/first.err")"
grep -Eq "^robot: main ${H[1]:0:12}: robot-overlap/[^:]*: " "$T/first.err" ||
	fail "the first pass gave no verdict: $(cat "$T/first.err")"
# The lock goes with the robot: the next pass works.
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err" ||
	fail "a pass after the first: $(cat "$T/err")"
finish
