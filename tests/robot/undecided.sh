#!/bin/bash
# A comparison that stays undecided at max-runs is a verdict of its own:
# not "no regression", not bisected, not mailed; the log line, the state
# and --status say so, with the runs that would decide it.  Before, the
# robot recorded "no regression of a workload result".
source "$TESTLIB"
source "$SRCDIR/tests/robot/small.sh"
small_robot robot-undecided sh
# One result, drawn at random between 50 and 149 each run: no change, and
# far too noisy to show it within 1% in 3 runs.
cat >"$T/job.yaml" <<'EOT'
testcase: robot-undecided
monitors: {}
exec:
  cmd: 'echo "noisy: $(( $(od -An -N2 -tu2 /dev/urandom) % 100 + 50 ))"'
EOT
cat >>"$T/robot.yaml" <<EOT
mail:
  to: [dev@example.org]
  sendmail: touch $T/mailed
EOT
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 0 ] || fail "exit status $status, want 0: $(cat "$T/err")"
grep -Eq "^robot: main ${H[1]:0:12}: robot-undecided/[^:]*: undecided at max-runs: exec\.noisy [-+][0-9.]+% \(interval [-+][0-9.]+% to [-+][0-9.]+%\), 3 rounds; (about [0-9]+|more than [0-9]+) runs a side would decide it; not bisected, not mailed$" "$T/err" ||
	fail "no undecided verdict: $(cat "$T/err")"
grep -q "no regression" "$T/err" && fail "undecided called no regression: $(cat "$T/err")"
grep -q "^bisect:" "$T/err" && fail "an undecided comparison was bisected"
[ ! -e "$T/mailed" ] || fail "an undecided comparison was mailed"
"$KDELTA" robot --status "$T/robot.yaml" >"$T/status" 2>&1 || fail "--status: $(cat "$T/status")"
sed -n '/^undecided (/,/^open bisects/p' "$T/status" |
	grep -Eq "^  [0-9-]+ [0-9:]+  main  robot-undecided/[^ ]+  ${H[0]:0:12}\.\.${H[1]:0:12}  undecided at max-runs: exec\.noisy .* runs a side would decide it; not bisected, not mailed$" ||
	fail "--status does not list the undecided comparison: $(cat "$T/status")"

# A result that changed in a direction nobody declared better is not a
# regression the robot may bisect and mail, nor clean: undecided, saying
# how to declare it.  Head's build prints a checksum 10 higher.
rm -rf "$T/results"
cat >"$T/job.yaml" <<EOT
testcase: robot-direction
monitors: {}
exec:
  cmd: 'echo "checksum: \$(( \$(sed -n "s/^#define PATCHLEVEL //p" $T/repo/bench.c) * 10 + 100 ))"'
EOT
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 0 ] || fail "unknown direction: exit status $status, want 0: $(cat "$T/err")"
grep -Eq "^robot: main ${H[1]:0:12}: robot-direction/[^:]*: undecided: exec\.checksum \+10\.0% .*, in a direction nobody declared better \(key-result: \{exec\.checksum: higher\}, or lower\); not bisected, not mailed$" "$T/err" ||
	fail "a change of unknown direction: $(cat "$T/err")"
[ ! -e "$T/mailed" ] || fail "a change of unknown direction was mailed"
# Declared (the robot's key-result), it is judged: higher is better here.
rm -rf "$T/results"
printf 'key-result:\n  exec.checksum: higher\n' >>"$T/robot.yaml"
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err" ||
	fail "declared direction: $(cat "$T/err")"
grep -Eq "^robot: main ${H[1]:0:12}: robot-direction/[^:]*: no regression of a workload result$" "$T/err" ||
	fail "a declared direction: $(cat "$T/err")"
finish
