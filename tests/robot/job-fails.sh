#!/bin/bash
# A job that fails (its exec command is relative, but jobs run in the
# private work directory, not in the repository) ends the test with that
# failure, and the pass's line counts it as failed.
source "$TESTLIB"
source "$SRCDIR/tests/robot/small.sh"
small_robot robot-fails './bench'
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 0 ] || fail "exit status $status, want 0: $(cat "$T/err")"
grep -Eq "^robot: main ${H[1]:0:12}: robot-fails/[^:]*: base ${H[0]:0:12}: " "$T/err" ||
	fail "no line about the failed job: $(cat "$T/err")"
grep -qxF "robot: pass done: 0 compared, 0 bisected, 0 mailed, 1 failed" "$T/err" ||
	fail "the pass's line does not count the failed test: $(grep 'pass done' "$T/err")"
finish
