#!/bin/bash
# kill -9 of kdelta after a run's stats.json is written and before its
# completion mark (strace kills it as it enters the mark's rename): the
# run's workspace, with its record of the run, is still there, so the next
# kdelta run marks the run interrupted and says so.  Before, the runner
# removed the workspace before writing the stats, and the run stayed
# unmarked for good (1 kill in 24 at random times).
. "$TESTLIB"
export KDELTA_RESULT_ROOT="$T/default-root"
command -v strace >/dev/null || skip "strace is not installed"
strace -f -qq -o /dev/null true 2>/dev/null || skip "strace cannot trace here"

cat >"$T/quick.yaml" <<'EOF'
testcase: quick
monitors: {}
exec:
  cmd: 'echo "v: 1"'
EOF
# A run of the same job under strace: which rename is the mark's (the
# store writes each file under a temporary name, then renames it).
renames=rename,renameat,renameat2
# LeakSanitizer cannot work under ptrace: no leak check in the traced runs.
traced_asan=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
ASAN_OPTIONS=$traced_asan strace -f -qq -o "$T/trace" -e trace=$renames \
	"$KDELTA" run "$T/quick.yaml" --commit k --runs 1 --result-root "$T/probe" \
	--work-dir "$T/w" 2>"$T/stderr" || fail "a first run: $(cat "$T/stderr")"
n=$(grep 'rename' "$T/trace" | grep -n '/k/0/complete")' | head -n 1 | cut -d: -f1)
[ -n "$n" ] || fail "no rename of the mark in: $(cat "$T/trace")"
probe=$(ls -d "$T"/probe/quick/*/*/k/0)
run=$T/r/${probe#"$T"/probe/}

# Killed (SIGKILL) as it enters that rename.
ASAN_OPTIONS=$traced_asan strace -f -qq -o /dev/null -e trace=$renames \
	-e inject=$renames:signal=KILL:when="$n" \
	"$KDELTA" run "$T/quick.yaml" --commit k --runs 1 --result-root "$T/r" \
	--work-dir "$T/w" 2>"$T/stderr"
[ -s "$run/stats.json" ] || fail "not killed after the stats: $(cat "$T/stderr")"
[ -e "$run/complete" ] && fail "not killed before the mark: $(cat "$run/complete")"
pid=$(sed -n 's/^pid: //p' "$T"/w/kdelta-run.*/state 2>/dev/null)
[ -n "$pid" ] || fail "the killed run's workspace is gone: $(ls -A "$T/w")"

"$KDELTA" run "$T/quick.yaml" --commit k --runs 1 --result-root "$T/r" \
	--work-dir "$T/w" 2>"$T/stderr" || fail "the next run: $(cat "$T/stderr")"
grep -qx "kdelta run: cleaned up what kdelta (pid $pid) left: $T/w/kdelta-run\.[A-Za-z0-9]*, marked run $run interrupted, removed it" \
	"$T/stderr" || fail "the next run did not mark it: $(cat "$T/stderr")"
[ "$(cat "$run/complete" 2>/dev/null)" = "interrupted: kdelta (pid $pid) was killed; marked by the next start" ] ||
	fail "the killed run's mark: $(cat "$run/complete" 2>&1)"
[ "$(ls -A "$T/w")" = kdelta.lock ] || fail "work dir not cleaned: $(ls -A "$T/w")"
finish
