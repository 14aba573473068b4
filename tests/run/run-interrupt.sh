#!/bin/bash
# Interrupted runs.  kill -9 mid-run: earlier runs intact, the killed run
# never counted, the next batch continues the numbering.  SIGINT and
# SIGTERM mid-run: the workload's process group is killed, the run left
# incomplete, exit status 130 and 143.
. "$TESTLIB"
# Whatever a test forgets to say, nothing goes outside $T.
export KDELTA_RESULT_ROOT="$T/default-root"

cat >"$T/job.yaml" <<EOF
testcase: intr
exec:
  cmd: 'if [ -e "$T/slow" ]; then echo \$\$ >"$T/pid"; exec sleep 60; fi; echo "x: 1"'
EOF
args=("$T/job.yaml" --commit k --result-root "$T/r" --work-dir "$T/w")

"$KDELTA" run "${args[@]}" --runs 2 2>/dev/null || fail "first batch failed"
c=$(echo "$T"/r/intr/*/*/k)

touch "$T/slow"
"$KDELTA" run "${args[@]}" --runs 1 2>/dev/null &
kdelta=$!
wait_nonempty "$T/pid" || fail "timed out waiting for $T/pid"
kill -9 "$kdelta"
{ wait "$kdelta"; } 2>/dev/null	# bash would say "Killed"
[ -d "$c/2" ] || fail "no run directory 2 for the killed run"
[ -e "$c/2/complete" ] && fail "the killed run has a completion mark"
for run in 0 1; do
	[ "$(cat "$c/$run/complete")" = ok ] || fail "run $run damaged"
done
zcat "$c/matrix.json.gz" | grep -q "\"stats_source\":\[\"$c/0/stats.json\",\"$c/1/stats.json\"\]" ||
	fail "matrix after kill -9: $(zcat "$c/matrix.json.gz")"

rm -f "$T/slow" "$T/pid"
"$KDELTA" run "${args[@]}" --runs 1 2>/dev/null || fail "batch after kill -9"
[ "$(cat "$c/3/complete")" = ok ] || fail "numbering did not continue at 3"
zcat "$c/matrix.json.gz" | grep -q "\"stats_source\":\[\"$c/0/stats.json\",\"$c/1/stats.json\",\"$c/3/stats.json\"\]" ||
	fail "matrix after rerun: $(zcat "$c/matrix.json.gz")"

touch "$T/slow"
for sig in INT TERM; do
	rm -f "$T/pid"
	"$KDELTA" run "${args[@]}" --runs 1 2>"$T/stderr" &
	kdelta=$!
	wait_nonempty "$T/pid" || fail "timed out waiting for $T/pid"
	pid=$(cat "$T/pid")
	kill -"$sig" "$kdelta"
	wait "$kdelta"
	status=$?
	want=$([ $sig = INT ] && echo 130 || echo 143)
	[ "$status" = "$want" ] || fail "SIG$sig: exit status $status, want $want"
	gone "$pid" || { fail "SIG$sig: workload still running"; kill -9 "$pid"; }
	grep -q "^kdelta: stopped by SIG$sig after cleaning up; 0 complete run(s) kept in $T/r; .* left incomplete$" \
		"$T/stderr" || fail "SIG$sig message: $(cat "$T/stderr")"
done
[ -e "$c/4/complete" ] || [ -e "$c/5/complete" ] && fail "an interrupted run is complete"
# The work directory keeps only its lock file.
[ "$(ls -A "$T/w")" = kdelta.lock ] || fail "work dir not cleaned: $(ls -A "$T/w")"
finish
