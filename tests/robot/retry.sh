#!/bin/bash
# An error that ends a pass (here: the store cannot be written, a file
# stands where the testcase's directory goes):
# 1. with --once, exit status 4 (the store), not 1;
# 2. in the loop, the robot says so, tries again after a while (at most
#    'interval'), stays alive, and measures the test once the store can be
#    written again.  Before, the loop ended at the first error.
source "$TESTLIB"
source "$SRCDIR/tests/robot/small.sh"
small_robot robot-retry "$T/repo/bench"
echo 'interval: 1s' >>"$T/robot.yaml"
mkdir -p "$T/results"
echo "not a directory" >"$T/results/robot-retry"

"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 4 ] || fail "--once: exit status $status, want 4: $(cat "$T/err")"
grep -q "^kdelta robot: .*$T/results/robot-retry" "$T/err" ||
	fail "--once: the error does not name the store: $(cat "$T/err")"

"$KDELTA" robot "$T/robot.yaml" >"$T/out" 2>"$T/err" &
pid=$!
at_exit 'kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null'
wait_line "$T/err" "^robot: pass failed \(2 in a row, since [-0-9]+ [0-9:]+\): .*$T/results/robot-retry.*; trying again in 1s$" "$pid" ||
	fail "the loop did not go on after a failed pass: $(cat "$T/err")"
rm "$T/results/robot-retry"
wait_line "$T/err" "^robot: main ${H[1]:0:12}: robot-retry/[^:]*: " "$pid" ||
	fail "no verdict once the store could be written: $(cat "$T/err")"
# Said when the pass ends, after its verdict: wait for it.
wait_line "$T/err" "^robot: this pass worked, after [0-9]+ that failed since [-0-9]+ [0-9:]+$" "$pid" ||
	fail "the pass that worked after failures is not said: $(cat "$T/err")"
kill -TERM "$pid"
wait "$pid"
status=$?
[ "$status" = 0 ] || fail "SIGTERM: exit status $status, want 0: $(cat "$T/err")"
finish
