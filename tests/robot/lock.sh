#!/bin/bash
# The local executor holds the machine's run lock (kdelta(1), the run lock)
# for each batch, as kdelta run does: while another holds it, the robot
# waits and says so, builds and runs nothing, then goes on once it is free.
source "$TESTLIB"
source "$SRCDIR/tests/robot/small.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
small_robot robot-lock "$T/repo/bench"

# Another holder of the lock (an fcntl lock on a private file, as
# kdelta's), until told.
python3 -c '
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.lockf(fd, fcntl.LOCK_EX)
os.write(fd, b"the holder of this test")
open(sys.argv[2], "w").write("held")
while not os.path.exists(sys.argv[3]):
    time.sleep(0.1)
' "$KDELTA_RUN_LOCK" "$T/held" "$T/release" &
holder=$!
at_exit 'touch "$T/release"; kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null'
wait_nonempty "$T/held" || fail "the test could not take the lock"

"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err" &
pid=$!
wait_line "$T/err" "^robot: waiting for the machine's run lock, held by the holder of this test$" "$pid" ||
	fail "the robot did not wait for the lock: $(cat "$T/err")"
[ -e "$REPO/bench" ] && fail "the robot built while another held the lock"
[ -d "$T/results/$(uname -n)" ] && fail "the robot ran while another held the lock"
touch "$T/release"
wait "$holder"
wait "$pid"
status=$?
[ "$status" = 0 ] || fail "exit status $status, want 0: $(cat "$T/err")"
grep -Eq "^robot: main ${H[1]:0:12}: robot-lock/[^:]*: " "$T/err" ||
	fail "no verdict once the lock was free: $(cat "$T/err")"
finish
