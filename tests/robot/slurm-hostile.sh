#!/bin/bash
# The slurm executor against another user of the node (kdelta-robot(5),
# SLURM), on a private single-node Slurm cluster (tests/robot/slurm.sh):
#
# 1. A user who makes /tmp/kdelta-slurm-<batch>.work (or the clone's
#    name) as soon as a batch's directory appears cannot silence the
#    robot: the batch uses no predictable name there.  Before, kdelta run
#    refused that work directory, every test ended "exited with status 2"
#    and no regression was ever reported.
# 2. A refusal of that kind (here: a work directory on the node that
#    belongs to another user) is a failed batch that the robot reports
#    (exit status 1, the reason, the test still open), not a verdict;
#    the next pass, with a fit work directory, measures the test.
source "$TESTLIB"
source "$SRCDIR/tests/robot/slurm.sh"
source "$SRCDIR/tests/robot/small.sh"
SLURM_DIR=
id nobody >/dev/null 2>&1 || skip "no user 'nobody' to play another user"
command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
small_robot robot-hostile "$T/bin/bench"
watcher=
at_exit 'stop_slurm; [ -z "$watcher" ] || { kill "$watcher"; wait "$watcher"; } 2>/dev/null
[ -s "$T/taken" ] && xargs rm -rf <"$T/taken"'
start_slurm "$T/slurm"
small_robot_slurm

# 1. Another user takes the names a batch used to have as soon as its
# directory appears, and again whenever they are removed.
(
	while :; do
		for d in "$T"/results/.kdelta/slurm/batch-*; do
			[ -d "$d" ] || continue
			b=${d##*/}
			grep -qx "/tmp/kdelta-slurm-$b" "$T/taken" 2>/dev/null ||
				printf '%s\n' "/tmp/kdelta-slurm-$b" "/tmp/kdelta-slurm-$b.work" >>"$T/taken"
			for name in "/tmp/kdelta-slurm-$b" "/tmp/kdelta-slurm-$b.work"; do
				[ -e "$name" ] ||
					setpriv --reuid=nobody --regid=nogroup --clear-groups \
						mkdir -m 0777 "$name" 2>/dev/null
			done
		done
		sleep 0.02
	done
) &
watcher=$!
# (Base and head run the same bench: the rare false regression is
# bisected, undecided, not mailed: tests/robot/slurm-kill9.sh.)
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 0 ] || fail "1: exit status $status, want 0: $(cat "$T/err")"
[ -s "$T/taken" ] || fail "1: the other user took no name"
grep -Eqx "robot: pass done: 1 compared, [01] bisected, 0 mailed, 0 failed(, 1 undecided)?" "$T/err" ||
	fail "1: the other user silenced the robot: $(cat "$T/err")"
kill "$watcher"
wait "$watcher" 2>/dev/null
watcher=

# 2. kdelta run on the node refuses its work directory: a failed batch.
git -C "$REPO" -c user.name=A -c user.email=a@example.org commit -q --allow-empty -m three
mkdir -m 0700 "$T/theirs"
chown nobody "$T/theirs"
sed -i "s|^  work-dir: .*|  work-dir: $T/theirs|" "$T/robot.yaml"
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 1 ] || fail "2: exit status $status, want 1: $(cat "$T/err")"
grep -Eqx "kdelta robot: Slurm job [0-9]+ on $(uname -n): the batch failed: kdelta run exited with status 2: kdelta run: refusing the work directory $T/theirs: it belongs to uid 65534, not to uid 0 that kdelta runs as; give a private directory of your own with --work-dir \(see $T/results/\.kdelta/slurm/batch-[A-Za-z0-9]+/slurm-[0-9]+\.out\)" "$T/err" ||
	fail "2: the refusal is not reported: $(cat "$T/err")"
"$KDELTA" robot --status "$T/robot.yaml" >"$T/status" 2>&1 || fail "--status: $(cat "$T/status")"
grep -Eq "^  test 2  main  robot-hostile/[^ ]+  [0-9a-f]{12}\.\.[0-9a-f]{12}  measure$" "$T/status" ||
	fail "2: the test is not open any more: $(cat "$T/status")"
sed -i "s|^  work-dir: .*|  work-dir: $T/node-work|" "$T/robot.yaml"
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 0 ] || fail "2: the next pass: exit status $status: $(cat "$T/err")"
grep -Eqx "robot: pass done: 1 compared, [01] bisected, 0 mailed, 0 failed(, 1 undecided)?" "$T/err" ||
	fail "2: the next pass did not measure the test: $(cat "$T/err")"
finish
