#!/bin/bash
# The robot's work tree after a kill -9 in the middle of a pass:
# 1. the executor had checked a commit out (a detached HEAD): the next
#    pass puts the work tree back on its branch, not on that commit;
#    before, the next pass took the detached HEAD for where it had been,
#    and the clone stayed detached for good;
# 2. a git killed with the robot left .git/index.lock, which made every
#    git command, so every pass, fail: the next pass removes it (once it
#    is a minute old) and says so;
# 3. a fresh index.lock, which the robot leaves to whoever holds it, fails
#    the pass with a message that names the file (git's advice after it
#    did not).
source "$TESTLIB"
source "$SRCDIR/tests/robot/small.sh"
slow_bench "$T/repo/bench"
small_robot robot-kill9-repo "$T/slow-bench"

"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err" &
pid=$!
at_exit 'touch "$T/go"; kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null'
wait_running "$pid" || fail "the pass did not run its job: $(cat "$T/err")"
kill -9 "$pid"
{ wait "$pid"; } 2>/dev/null
git -C "$REPO" symbolic-ref -q HEAD >/dev/null &&
	fail "the killed pass left the work tree on a branch: nothing to test"
touch -d '-5 min' "$REPO/.git/index.lock"

touch "$T/go"
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 0 ] || fail "1: the next pass: exit status $status: $(cat "$T/err")"
grep -qx "robot: removed $REPO/.git/index.lock, which a git killed 5 minutes ago left" "$T/err" ||
	fail "2: the stale index.lock: $(cat "$T/err")"
grep -qx "robot: the pass before did not end: the work tree goes back to refs/heads/main after this one" "$T/err" ||
	fail "1: not said: $(cat "$T/err")"
[ "$(git -C "$REPO" symbolic-ref -q HEAD)" = refs/heads/main ] ||
	fail "1: the work tree is not back on main: $(git -C "$REPO" status | head -n 1)"
grep -Eq "^robot: main ${H[1]:0:12}: robot-kill9-repo/[^:]*: " "$T/err" ||
	fail "1: no verdict: $(cat "$T/err")"
[ -e "$REPO/.git/kdelta-robot-head" ] && fail "1: the saved HEAD is left after the pass"

# 3. A new head, and an index.lock someone holds now.
git -C "$REPO" -c user.name=A -c user.email=a@example.org commit -q --allow-empty -m three
touch "$REPO/.git/index.lock"
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 1 ] || fail "3: exit status $status, want 1: $(cat "$T/err")"
grep -q "^kdelta robot: .*Unable to create '$REPO/.git/index.lock': File exists" "$T/err" ||
	fail "3: the message does not name index.lock: $(cat "$T/err")"
[ -e "$REPO/.git/index.lock" ] || fail "3: a fresh index.lock was removed"
finish
