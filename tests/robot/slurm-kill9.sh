#!/bin/bash
# kill -9 of kdelta run inside a Slurm job (kdelta-robot(5), SLURM), on a
# private single-node cluster (tests/robot/slurm.sh), in the middle of a
# run on xfs on a RAM disk: the batch fails loudly (the robot reports it,
# exit status 1), and what the killed run left -- the xfs mount, the RAM
# disk's tmpfs, the loop device, the cgroup -- stays recorded in kdelta
# run's work directory on the node, which outlives the job: the next
# batch's kdelta run cleans it up and says so, and the interrupted run is
# marked so.  Before, the batch script's exit handler deleted the work
# directory with its records, and all of it leaked for good.
source "$TESTLIB"
source "$SRCDIR/tests/robot/slurm.sh"
source "$SRCDIR/tests/robot/small.sh"
SLURM_DIR=
[ "$(id -u)" = 0 ] || skip "needs root to attach loop devices and mount"
command -v mkfs.xfs >/dev/null || skip "mkfs.xfs is not installed (xfsprogs)"
slow_bench "$T/bin/bench"
small_robot robot-kill9 "$T/slow-bench"

# leftovers: mounts and loop devices of this test, also where the batch
# script used to put kdelta run's work directory.
leftovers() {
	grep -E " ($T|/tmp/kdelta-slurm-batch-)" /proc/self/mountinfo
	grep -sE "^($T|/tmp/kdelta-slurm-batch-)" /sys/block/loop*/loop/backing_file
}
cleanup() {
	local m l
	for m in $(grep -E " ($T|/tmp/kdelta-slurm-batch-)" /proc/self/mountinfo |
		awk '{ print $5 }' | sort -r); do
		umount -l "$m"
	done
	for l in $(grep -lsE "^($T|/tmp/kdelta-slurm-batch-)" /sys/block/loop*/loop/backing_file); do
		l=${l#/sys/block/}
		losetup -d "/dev/${l%%/*}"
	done
}
at_exit 'touch "$T/go"; stop_slurm; cleanup 2>/dev/null'
start_slurm "$T/slurm"
small_robot_slurm
sed -i 's/^monitors: {}$/monitors: {}\ndisk: 1BRD_512M\nfs: xfs/' "$T/job.yaml"

"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err" &
robot=$!
wait_running "$robot" || fail "the job's run did not start: $(cat "$T/err")"
run=$(pgrep -o -f " run $T/results/\.kdelta/slurm/batch-[A-Za-z0-9]+/job\.yaml ")
# (The oldest: a child it forked may not have run its program yet.)
[ -n "$run" ] || { fail "no kdelta run in the Slurm job"; finish; }
grep -qF " $T/node-work/" /proc/self/mountinfo || fail "nothing mounted mid-run"
state=$(ls "$T"/node-work/kdelta-run.*/state)
cgroup=$(sed -n 's/^cgroup: //p' "$state")
kill -9 "$run"

wait "$robot"
status=$?
[ "$status" = 1 ] || fail "exit status $status, want 1: $(cat "$T/err")"
grep -Eqx "kdelta robot: Slurm job [0-9]+ on $(uname -n): the batch failed: kdelta run exited with status 137: .* \(see $T/results/\.kdelta/slurm/batch-[A-Za-z0-9]+/slurm-[0-9]+\.out\)" "$T/err" ||
	fail "the killed run is not reported: $(cat "$T/err")"
[ -e "$state" ] || fail "the killed run's records are gone: $(ls -la "$T/node-work" 2>&1)"

# The next pass: its batch's kdelta run cleans up, then measures.
touch "$T/go"
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 0 ] || fail "the next pass: exit status $status: $(cat "$T/err")"
grep -qs "^kdelta run: cleaned up what kdelta (pid $run) left: $T/node-work/kdelta-run\.[A-Za-z0-9]*, .*unmounted" \
	"$T"/results/.kdelta/slurm/batch-*/slurm-*.out ||
	fail "the next kdelta run on the node did not clean up: $(cat "$T"/results/.kdelta/slurm/batch-*/slurm-*.out)"
# (Base and head run the same bench: the rare change of 5% or more that
# noise makes and the sequential test takes for a regression is bisected,
# and its bisection cannot tell them apart: undecided, not mailed
# (tests/robot/small.sh).)
grep -Eqx "robot: pass done: 1 compared, [01] bisected, 0 mailed, 0 failed(, 1 undecided)?" "$T/err" ||
	fail "the next pass did not measure the test: $(cat "$T/err")"
grep -lx "interrupted: kdelta (pid $run) was killed; marked by the next start" \
	"$T"/results/robot-kill9/*/*/*/*/complete >/dev/null ||
	fail "the killed run is not marked interrupted"
if leftovers >&2; then
	fail "left behind (above)"
fi
[ -z "$cgroup" ] || [ ! -e "$cgroup" ] || fail "the killed run's cgroup $cgroup is left"
finish
