#!/bin/bash
# kdelta run --until-decided: rounds are added to the jobs whose workload
# results are neither changed nor the same against the first commit, up
# to --max-runs; a job whose runs fail for a commit stops.  The workloads
# print values that depend only on the commit and on how many runs of it
# came before, so every verdict is the same on any machine.
. "$TESTLIB"
export KDELTA_RESULT_ROOT="$T/default-root"

# steady: 100 against 200, no noise: changed at the first look.
# noisy: 100 110 100 110 ... against 102 112 ...: +2% under +-5% of noise,
# which 6 runs a side cannot decide at --min-change 1.
# failing: fails for commit b.
cat >"$T/steady.sh" <<EOF
[ "\$(cat '$T/commit')" = b ] && echo "x: 200" || echo "x: 100"
EOF
cat >"$T/noisy.sh" <<EOF
c=\$(cat '$T/commit'); f='$T/noisy.'\$c
n=\$(cat "\$f" 2>/dev/null || echo 0); echo \$((n + 1)) >"\$f"
base=100; [ "\$c" = b ] && base=102
echo "x: \$((base + n % 2 * 10))"
EOF
cat >"$T/failing.sh" <<EOF
[ "\$(cat '$T/commit')" = b ] && exit 3; echo "x: 1"
EOF
job() {
	printf 'testcase: decide\nmonitors: []\nexec: {cmd: "sh %s/%s.sh", name: %s}\n' \
		"$T" "$1" "$1"
}
{ job steady; echo ---; job noisy | tail -1; } >"$T/job.yaml"

# runs NAME COMMIT: how many runs of job NAME and COMMIT are stored.
runs() {
	ls "$T"/r/decide/*-"$1"/*/"$2" 2>/dev/null | grep -c '^[0-9]*$'
}

"$KDELTA" run "$T/job.yaml" --commits a,b --runs 2 --until-decided \
	--max-runs 6 --seed 5 --result-root "$T/r" --work-dir "$T/w" \
	--setup "echo {commit} >'$T/commit'" 2>"$T/stderr" ||
	fail "run: $(cat "$T/stderr")"
[ "$(runs steady a) $(runs steady b)" = "2 2" ] ||
	fail "steady: $(runs steady a) $(runs steady b) runs, want 2 2"
[ "$(runs noisy a) $(runs noisy b)" = "6 6" ] ||
	fail "noisy: $(runs noisy a) $(runs noisy b) runs, want 6 6"
# After each look, what is still undecided; the runs go on in rounds.
# (Two runs a side bound no interval at the first look's level: the line
# says so, with the change, where it said nothing before.)
grep -q '^kdelta: undecided: [^ ]*-noisy/b noisy\.x [-+][0-9.]*% (repeated 95% CI unbounded: too few runs yet for this look'"'"'s level); adding a round$' "$T/stderr" ||
	fail "no first undecided line: $(cat "$T/stderr")"
n=$(grep -c '^kdelta: undecided: [^ ]*-noisy/b noisy\.x [-+][0-9.]*% (repeated 95% CI [-+][0-9.]*% … [-+][0-9.]*%); adding a round$' "$T/stderr")
[ "$n" = 3 ] || fail "undecided lines with an interval: $n, want 3: $(cat "$T/stderr")"
grep -q '^kdelta: undecided after --max-runs 6: [^ ]*-noisy/b noisy\.x +1\.9% (repeated 95% CI [-+][0-9.]*% … [-+][0-9.]*%)$' "$T/stderr" ||
	fail "no last undecided line: $(cat "$T/stderr")"
grep -q 'undecided.*steady/b' "$T/stderr" && fail "steady was undecided: $(cat "$T/stderr")"
grep -q '^kdelta: \[16/16\] [^ ]*-noisy/[ab] run 6/6: ok' "$T/stderr" ||
	fail "progress of the added rounds: $(cat "$T/stderr")"
grep -qx 'kdelta: until decided: 1 changed, 0 same, 1 undecided (workload results against a)' \
	"$T/stderr" || fail "summary: $(cat "$T/stderr")"

# A job whose runs fail for a commit: no more rounds for it.
job failing >"$T/failing.yaml"
"$KDELTA" run "$T/failing.yaml" --commits a,b --runs 2 --until-decided \
	--result-root "$T/r" --work-dir "$T/w" \
	--setup "echo {commit} >'$T/commit'" 2>"$T/stderr"
[ $? = 1 ] || fail "failing: status, want 1: $(cat "$T/stderr")"
grep -q '^kdelta: cannot decide: [^ ]*-failing/b: no run gave a result$' "$T/stderr" ||
	fail "failing: $(cat "$T/stderr")"
[ "$(runs failing a) $(runs failing b)" = "2 2" ] ||
	fail "failing: $(runs failing a) $(runs failing b) runs, want 2 2"

expect_error 2 "kdelta run: --until-decided decides against the first commit: give two or more with --commits" \
	"$KDELTA" run "$T/job.yaml" --commit a --until-decided
expect_error 2 "kdelta run: --max-runs goes with --until-decided" \
	"$KDELTA" run "$T/job.yaml" --commits a,b --max-runs 5
expect_error 2 "kdelta run: --min-change goes with --until-decided" \
	"$KDELTA" run "$T/job.yaml" --commits a,b --min-change 2
expect_error 2 "kdelta run: --max-runs 3 is less than --runs 4" \
	"$KDELTA" run "$T/job.yaml" --commits a,b --runs 4 --until-decided --max-runs 3
# One reading of --min-change for every command (and the robot's config).
expect_error 2 "kdelta run: --min-change: expected at least 0, got '-1'" \
	"$KDELTA" run "$T/job.yaml" --commits a,b --until-decided --min-change -1
expect_error 2 "kdelta run: --min-change: expected a percentage like 1, 2.5 or 10%, got '1e3'" \
	"$KDELTA" run "$T/job.yaml" --commits a,b --until-decided --min-change 1e3
finish
