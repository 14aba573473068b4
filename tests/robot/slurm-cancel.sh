#!/bin/bash
# --cancel scancels only a job that is the batch's own and still under
# way.  A batch left "running" whose job ID Slurm has ended, or has given
# to another job since (IDs are reused), is closed without scancel; the
# other job goes on.  Before, --cancel sent scancel to whatever the stored
# ID named.
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
finish
