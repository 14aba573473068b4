#!/bin/bash
# A comparison that stays undecided at max-runs is a verdict of its own:
# not "no regression", not bisected, not mailed; the log line, the state
# and --status say so, with the runs that would decide it.  Before, the
# robot recorded "no regression of a workload result".
source "$TESTLIB"
source "$SRCDIR/tests/robot/small.sh"
small_robot robot-undecided sh
# One result, with no change and far too noisy to show that within 5% in
# 3 rounds: in the rounds of base (patch level 0) and head (1), 100 and
# 150, then 150 and 100, then 100 and 100, so that the change of each
# round is x1.5, x0.67 and x1, which cancel, whatever the order within
# a round (and if a round is left out as disturbed, its next one
# goes on with the same pairs).  Not random: a no-change drawn at random
# is a change at the test's level now and then.
cat >"$T/job.yaml" <<EOT
testcase: robot-undecided
monitors: {}
exec:
  cmd: 'l=\$(sed -n "s/^#define PATCHLEVEL //p" $T/repo/bench.c); n=\$(cat $T/count-\$l 2>/dev/null || echo 0); echo \$((n + 1)) >$T/count-\$l; set -- 100 150 150 100 100 100; shift \$((n % 3 * 2 + l)); echo "noisy: \$1"'
EOT
cat >>"$T/robot.yaml" <<EOT
mail:
  to: [dev@example.org]
  sendmail: touch $T/mailed
EOT
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 0 ] || fail "exit status $status, want 0: $(cat "$T/err")"
grep -Eq "^robot: main ${H[1]:0:12}: robot-undecided/[^:]*: undecided at max-runs: exec\.noisy( [-+][0-9.]+% \(interval [-+][0-9.]+% to [-+][0-9.]+%\))?, [0-3] rounds( \([^)]*\))?; ((about [0-9]+|more than [0-9]+) runs a side would decide it; )?not bisected, not mailed$" "$T/err" ||
	fail "no undecided verdict: $(cat "$T/err")"
grep -q "no regression" "$T/err" && fail "undecided called no regression: $(cat "$T/err")"
grep -Eqx "robot: pass done: 1 compared, 0 bisected, 0 mailed, 0 failed, 1 undecided" "$T/err" ||
	fail "the pass's line does not count the undecided test: $(grep 'pass done' "$T/err")"
grep -q "^bisect:" "$T/err" && fail "an undecided comparison was bisected"
[ ! -e "$T/mailed" ] || fail "an undecided comparison was mailed"
"$KDELTA" robot --status "$T/robot.yaml" >"$T/status" 2>&1 || fail "--status: $(cat "$T/status")"
sed -n '/^undecided (/,/^open bisects/p' "$T/status" |
	grep -Eq "^  [0-9-]+ [0-9:]+  main  robot-undecided/[^ ]+  ${H[0]:0:12}\.\.${H[1]:0:12}  undecided at max-runs: exec\.noisy.*; not bisected, not mailed$" ||
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
grep -Eq "^robot: main ${H[1]:0:12}: robot-direction/[^:]*: clean: no regression of a workload result$" "$T/err" ||
	fail "a declared direction: $(cat "$T/err")"
# A key result that no run prints (a misspelt name) is a failed test,
# counted and said, never "no regression".
rm -rf "$T/results"
sed -i 's/exec\.checksum: higher/exec.checksun: higher/' "$T/robot.yaml"
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
grep -Eq "^robot: main ${H[1]:0:12}: robot-direction/[^:]*: key result exec\.checksun: declared, but no run of base or head printed it$" "$T/err" ||
	fail "a key result that no run printed: $(cat "$T/err")"
grep -q "no regression" "$T/err" && fail "a missing key result called no regression"
grep -Eq "^robot: pass done: .* 1 failed" "$T/err" ||
	fail "a missing key result not counted as failed: $(grep 'pass done' "$T/err")"
finish
