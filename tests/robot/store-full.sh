#!/bin/bash
# A result root on a full file system (a small tmpfs of the test's own),
# with --once (kdelta-robot(5), EXIT STATUS):
# 1. the job fills it mid-run: exit status 4, the run left half written;
#    the next pass, once there is room, marks that run interrupted and
#    measures the test;
# 2. full before the pass starts, so that the robot's state in it cannot
#    be written: exit status 4.  Before, SQLite's "database or disk is
#    full" ended the pass with status 1.
source "$TESTLIB"
source "$SRCDIR/tests/robot/small.sh"
[ "$(id -u)" = 0 ] || skip "not root: cannot mount a small tmpfs"
small_robot robot-full "$T/fill"
F=$T/full
mkdir "$F"
mount -t tmpfs -o size=1m kdelta-test-full "$F" || fail "cannot mount a tmpfs"
at_exit 'umount "$F" 2>/dev/null'
# The job's program: a result, and the file system filled while $T/fill-on
# is there.
cat >"$T/fill" <<EOT
#!/bin/sh
echo "v: 1"
[ -e "$T/fill-on" ] && head -c 2M /dev/zero >"$F/filler" 2>/dev/null
exit 0
EOT
chmod +x "$T/fill"
sed -i "s|^result-root: .*|result-root: $F/results|" "$T/robot.yaml"

# 1.
touch "$T/fill-on"
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 4 ] || fail "1: exit status $status, want 4: $(cat "$T/err")"
grep -q "^kdelta robot: $F/results/robot-full/.*: No space left on device$" "$T/err" ||
	fail "1: the error: $(cat "$T/err")"
half=$(find "$F/results/robot-full" -mindepth 4 -maxdepth 4 -type d -name 0)
[ -n "$half" ] && [ ! -e "$half/complete" ] || fail "1: no run left half written: $(find "$F")"
rm -f "$F/filler" "$T/fill-on"
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 0 ] || fail "1: the next pass: exit status $status: $(cat "$T/err")"
grep -q "^kdelta robot: cleaned up what kdelta (pid [0-9]*) left: .*, marked run $half interrupted, removed it$" "$T/err" ||
	fail "1: the half-written run was not marked: $(cat "$T/err")"
grep -q "^interrupted: the store could not be written: .*No space left on device; marked by the next start$" "$half/complete" ||
	fail "1: the mark: $(cat "$half/complete")"
grep -Eqx "robot: pass done: 1 compared, 0 bisected, 0 mailed, 0 failed(, 1 undecided)?" "$T/err" ||
	fail "1: the next pass did not measure the test: $(cat "$T/err")"

# 2.
git -C "$REPO" -c user.name=A -c user.email=a@example.org commit -q --allow-empty -m three
head -c 2M /dev/zero >"$F/filler" 2>/dev/null
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 4 ] || fail "2: exit status $status, want 4: $(cat "$T/err")"
grep -q "^kdelta robot: $F/results/\.kdelta/robot\.db: " "$T/err" ||
	fail "2: the error does not name the state: $(cat "$T/err")"
finish
