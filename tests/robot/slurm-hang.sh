#!/bin/bash
# A Slurm command that hangs (here: an sbatch that never answers, in front
# of the real one in PATH) cannot hang the robot (kdelta-robot(5), slurm:
# timeout): after 'timeout' it is stopped and the pass fails saying so,
# and SIGTERM stops the robot while it waits for it.  Before, the robot
# waited for sbatch for good, signals or not.
source "$TESTLIB"
source "$SRCDIR/tests/robot/small.sh"
small_robot robot-slurm-hang "$T/bin/bench"
mkdir -p "$T/fake"
cat >"$T/fake/sbatch" <<EOT
#!/bin/sh
echo \$\$ >"$T/sbatch.pid"
exec sleep 300
EOT
chmod +x "$T/fake/sbatch"
export PATH="$T/fake:$PATH"
cat >>"$T/robot.yaml" <<EOT
executor: slurm
slurm:
  poll: 0.3s
  timeout: 1s
EOT

"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 1 ] || fail "timeout: exit status $status, want 1: $(cat "$T/err")"
grep -qx "kdelta robot: sbatch: no answer within 1s (slurm: timeout); stopped" "$T/err" ||
	fail "timeout: $(cat "$T/err")"
gone "$(cat "$T/sbatch.pid")" || fail "timeout: sbatch is still running"

# The default timeout is long: SIGTERM stops the robot meanwhile.
sed -i '/^  timeout: /d' "$T/robot.yaml"
rm -f "$T/sbatch.pid"
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err" &
pid=$!
at_exit 'kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
[ -s "$T/sbatch.pid" ] && kill -9 "$(cat "$T/sbatch.pid")" 2>/dev/null'
wait_nonempty "$T/sbatch.pid" || fail "SIGTERM: sbatch did not start: $(cat "$T/err")"
kill -TERM "$pid"
for ((i = 0; i < 200; i++)); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$pid" 2>/dev/null && fail "SIGTERM: the robot still waits for sbatch after 20s"
wait "$pid"
status=$?
[ "$status" = 143 ] || fail "SIGTERM: exit status $status, want 143: $(cat "$T/err")"
gone "$(cat "$T/sbatch.pid")" || fail "SIGTERM: sbatch is still running"
finish
