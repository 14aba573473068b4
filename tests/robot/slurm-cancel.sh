#!/bin/bash
# Stale Slurm job IDs (kdelta-robot(5), SLURM):
# 1. --cancel scancels only a job that is the batch's own and still under
#    way.  A batch left "running" whose job ID Slurm has ended, or has
#    given to another job since (IDs are reused), is closed without
#    scancel; the other job goes on.  Before, --cancel sent scancel to
#    whatever the stored ID named.
# 2. A batch a killed robot left "running" with a job ID, whose request
#    the next pass does not make again (it asks for other runs), ends at
#    the next pass, which waits for its job first.  Before, it stayed
#    "running" with that ID for good, for a later --cancel to scancel.
# 3. A build that leaves a process behind, writing into the job's clone
#    on the node (a build server), does not keep the clone there after
#    the job.  Before, rm -rf in the batch script's exit handler raced
#    with such a writer (or with a git clone that Slurm's SIGTERM missed,
#    as in robot-pass-slurm's --cancel, 1 in 4 under load): "Directory
#    not empty", and the clone stayed for good.
source "$TESTLIB"
source "$SRCDIR/tests/robot/small.sh"
source "$SRCDIR/tests/robot/slurm.sh"
SLURM_DIR=
small_robot robot-cancel "$T/bin/bench"
at_exit 'stop_slurm'
start_slurm "$T/slurm"
cat >>"$T/robot.yaml" <<EOT
executor: slurm
slurm:
  partition: kdelta-test
  poll: 0.3s
EOT
"$KDELTA" robot --cancel "$T/robot.yaml" >"$T/out" 2>"$T/err" ||
	fail "--cancel with no state: $(cat "$T/err")"
grep -qx "robot: 0 batches cancelled" "$T/err" || fail "--cancel with no state: $(cat "$T/err")"

# A job that has ended; then somebody else's job, running.
ended=$(sbatch --parsable --partition=kdelta-test --output=/dev/null \
	--wrap true) || fail "sbatch of a short job"
for ((i = 0; i < 300; i++)); do
	[ "$(squeue -h --states=all -j "$ended" -o %T 2>/dev/null)" = COMPLETED ] && break
	sleep 0.1
done
[ "$(squeue -h --states=all -j "$ended" -o %T 2>/dev/null)" = COMPLETED ] ||
	fail "the short job did not complete: $(squeue -h --states=all -j "$ended" -o %T 2>&1)"
other=$(sbatch --parsable --job-name=someone-else --partition=kdelta-test \
	--output=/dev/null --wrap 'sleep 120') || fail "sbatch of another job"
python3 - "$T/results/.kdelta/robot.db" "$other" "$ended" "$T/results/.kdelta/slurm" <<'EOP' ||
import sqlite3, sys
db, other, ended, jobs = sys.argv[1:]
c = sqlite3.connect(db)
for purpose, ticket in (("test 1: stale, another's ID", f"{other} {jobs}/batch-AAAAAA"),
                        ("test 2: stale, ended", f"{ended} {jobs}/batch-BBBBBB")):
    c.execute("INSERT INTO batches (purpose, commits, runs, state, started, ticket)"
              " VALUES (?, 'x', 3, 'running', strftime('%s', 'now'), ?)", (purpose, ticket))
c.commit()
EOP
	fail "cannot write the robot's state"
"$KDELTA" robot --cancel "$T/robot.yaml" >"$T/out" 2>"$T/err" ||
	fail "--cancel: $(cat "$T/err")"
grep -qx "robot: Slurm job $other: another job has its ID now; nothing to cancel" "$T/err" ||
	fail "--cancel of another's job ID: $(cat "$T/err")"
grep -Eqx "robot: Slurm job $ended: (COMPLETED|Slurm forgot it); nothing to cancel" "$T/err" ||
	fail "--cancel of an ended job: $(cat "$T/err")"
grep -qx "robot: 0 batches cancelled" "$T/err" || fail "--cancel counted: $(cat "$T/err")"
case $(squeue -h --states=all -j "$other" -o %T) in
PENDING | CONFIGURING | RUNNING) ;;
*) fail "the other job is $(squeue -h --states=all -j "$other" -o %T) after --cancel" ;;
esac
scancel "$other"
# Both batches ended: --status lists none under way.
"$KDELTA" robot --status "$T/robot.yaml" >"$T/status" 2>&1 || fail "--status: $(cat "$T/status")"
sed -n '/^batches handed/,/^recent/p' "$T/status" | grep -qx '  (none)' ||
	fail "--status: batches still under way: $(cat "$T/status")"

# 2.
python3 - "$T/results/.kdelta/robot.db" "$ended" "$T/results/.kdelta/slurm" <<'EOP' ||
import sqlite3, sys
db, ended, jobs = sys.argv[1:]
c = sqlite3.connect(db)
c.execute("INSERT INTO batches (purpose, commits, runs, state, started, ticket)"
          " VALUES ('test 7: base and head to 9 runs', 'x', 9, 'running',"
          " strftime('%s', 'now'), ?)", (f"{ended} {jobs}/batch-CCCCCC",))
c.commit()
EOP
	fail "cannot write the robot's state"
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err" ||
	fail "2: the pass: $(cat "$T/err")"
grep -qx "robot: Slurm job $ended: waiting for it again ($T/results/.kdelta/slurm/batch-CCCCCC)" "$T/err" ||
	fail "2: the stale batch's job was not waited for: $(cat "$T/err")"
"$KDELTA" robot --status "$T/robot.yaml" >"$T/status" 2>&1 || fail "--status: $(cat "$T/status")"
sed -n '/^batches handed/,/^recent/p' "$T/status" | grep -qx '  (none)' ||
	fail "2: a batch still under way: $(cat "$T/status")"
"$KDELTA" robot --cancel "$T/robot.yaml" >"$T/out" 2>"$T/err" ||
	fail "2: --cancel: $(cat "$T/err")"
grep -q "Slurm job $ended" "$T/err" && fail "2: --cancel still knows job $ended: $(cat "$T/err")"

# 3. One commit more: its batch builds it alone, and its build leaves a
# writer behind in the clone.
git -C "$REPO" -c user.name=A -c user.email=a@example.org commit -q --allow-empty -m three
sed -i "s|^build: .*|build: cc -O2 -o bench bench.c \&\& mkdir -p $T/bin \&\& cp bench $T/bin/bench \&\& { (while :; do mkdir -p \"\$PWD/obj\"; done) >/dev/null 2>\&1 \& }|" "$T/robot.yaml"
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err" ||
	fail "3: the pass: $(cat "$T/err")"
batch=$(sed -n 's/^robot: Slurm job [0-9]* submitted (\(.*\))$/\1/p' "$T/err" | tail -n 1)
clone=$(sed -n 's/^clone //p' "$batch/found" 2>/dev/null)
[ -n "$clone" ] || fail "3: no clone in the batch's $batch/found: $(cat "$T/err")"
# The robot waited for the job to end on the node (not COMPLETING): no
# writer is left in the clone, to make it again after any removal, and
# the clone is gone.
in_clone() {
	local p
	for p in /proc/[0-9]*; do
		case $(readlink "$p/cwd" 2>/dev/null) in
		"$clone"/* | "$clone" | "$clone "*) echo "${p#/proc/}" ;;
		esac
	done
}
if [ -n "$clone" ]; then
	left=$(in_clone)
	[ -z "$left" ] || fail "3: the build's writer is left in the clone: $(ps -o pid,cmd -p "$(echo $left | tr ' ' ,)")"
	[ -e "$clone" ] && fail "3: the job left its clone $clone: $(find "$clone" | head)"
	[ -z "$left" ] || kill -9 $left
	rm -rf "$clone"
fi
finish
