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
finish
