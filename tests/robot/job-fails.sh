#!/bin/bash
# A job that fails (its exec command is relative, but jobs run in the
# private work directory, not in the repository) ends the test with that
# failure, and the pass's line counts it as failed.
source "$TESTLIB"
command -v git >/dev/null || skip "git is not installed"
command -v cc >/dev/null || skip "no C compiler (cc) to build the fixture"

REPO=$T/repo
mapfile -t H < <("$TESTDATA/bisect/make-repo.sh" "$REPO" --commits 2) ||
	skip "cannot make the fixture repository"
[ "${#H[@]}" = 2 ] || skip "cannot make the fixture repository"
cat >"$T/job.yaml" <<EOF
testcase: robot-fails
monitors: {}
exec:
  argv: [./bench]
EOF
cat >"$T/robot.yaml" <<EOF
repository: repo
branches: [main]
jobs: [job.yaml]
build: cc -O2 -o bench bench.c
runs: 2
max-runs: 3
result-root: results
work-dir: work
EOF
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 0 ] || fail "exit status $status, want 0: $(cat "$T/err")"
grep -Eq "^robot: main ${H[1]:0:12}: robot-fails/[^:]*: base ${H[0]:0:12}: " "$T/err" ||
	fail "no line about the failed job: $(cat "$T/err")"
grep -qxF "robot: pass done: 0 compared, 0 bisected, 0 mailed, 1 failed" "$T/err" ||
	fail "the pass's line does not count the failed test: $(grep 'pass done' "$T/err")"
finish
