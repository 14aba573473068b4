#!/bin/bash
# perf's private directory (its control FIFOs, its output) is left nowhere,
# however a run ends: it is in the run's workspace, which the run removes,
# and which after a kill -9 the next run in that work directory cleans up.
# Nothing goes to TMPDIR.
. "$TESTLIB"
export KDELTA_RESULT_ROOT="$T/default-root"
if [ "$(id -u)" != 0 ] || ! command -v perf >/dev/null; then
	skip "perf stat -a needs root and perf (Debian's linux-perf)"
fi
mkdir "$T/tmp"
export TMPDIR="$T/tmp"

cat >"$T/job.yaml" <<EOF
testcase: ends
monitors: [perf-stat]
exec:
  cmd: 'if [ -e "$T/slow" ]; then echo \$\$ >"$T/pid"; exec sleep 60; fi; [ -e "$T/fail" ] && exit 3; echo "x: 1"'
EOF
args=("$T/job.yaml" --commit k --runs 1 --result-root "$T/r" --work-dir "$T/w")

# left WHEN: nothing in TMPDIR, and the work directory keeps only its lock.
left() {
	[ -z "$(ls -A "$T/tmp")" ] || fail "$1: left in TMPDIR: $(ls -A "$T/tmp")"
	[ "$(ls -A "$T/w")" = kdelta.lock ] ||
		fail "$1: left in the work directory: $(ls -A "$T/w")"
}

"$KDELTA" run "${args[@]}" 2>"$T/stderr" || fail "a run: $(cat "$T/stderr")"
grep -q unavailable "$T/stderr" && fail "perf-stat unavailable: $(cat "$T/stderr")"
ls "$T"/r/ends/*/*/k/0/perf-stat.gz >/dev/null || fail "no perf-stat.gz"
left "a run"

touch "$T/fail"
"$KDELTA" run "${args[@]}" 2>/dev/null && fail "a failing run succeeded"
left "a failed run"
rm "$T/fail"

touch "$T/slow"
for sig in INT TERM KILL; do
	rm -f "$T/pid"
	"$KDELTA" run "${args[@]}" 2>/dev/null &
	kdelta=$!
	wait_nonempty "$T/pid" || fail "SIG$sig: timed out waiting for $T/pid"
	kill -"$sig" "$kdelta"
	{ wait "$kdelta"; } 2>/dev/null	# bash would say "Killed"
	if [ $sig = KILL ]; then
		[ -z "$(ls -A "$T/tmp")" ] ||
			fail "SIGKILL: left in TMPDIR: $(ls -A "$T/tmp")"
		ls -d "$T"/w/kdelta-run.*/kdelta-perf.* >/dev/null 2>&1 ||
			fail "SIGKILL: perf's directory is not in the workspace"
		rm "$T/slow"
		"$KDELTA" run "${args[@]}" 2>"$T/stderr" ||
			fail "the run after SIGKILL: $(cat "$T/stderr")"
		grep -q "^kdelta run: cleaned up what kdelta (pid $kdelta) left: " "$T/stderr" ||
			fail "SIGKILL: no clean-up said: $(cat "$T/stderr")"
	fi
	left "SIG$sig"
done
finish
