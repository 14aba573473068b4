#!/bin/bash
# Interrupted runs.  kill -9 mid-run: earlier runs intact, the killed run
# never counted, the next batch marks it interrupted and continues the
# numbering.  SIGINT and SIGTERM mid-run: the workload's process group is
# killed, the run marked interrupted, exit status 130 and 143.  An
# interrupted run is not the commit's doing: compare lists it and counts
# it neither as a run nor as a failure.
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
"$KDELTA" run "${args[@]}" --runs 1 2>"$T/stderr" || fail "batch after kill -9"
[ "$(cat "$c/2/complete")" = "interrupted: kdelta (pid $kdelta) was killed; marked by the next start" ] ||
	fail "the killed run's mark: $(cat "$c/2/complete" 2>&1)"
grep -q "^kdelta run: cleaned up what kdelta (pid $kdelta) left: .*, marked run $c/2 interrupted, removed it$" "$T/stderr" ||
	fail "the cleanup does not say it marked the run: $(cat "$T/stderr")"
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
	grep -q "^kdelta: stopped by SIG$sig after cleaning up; 0 complete run(s) kept in $T/r; .* marked interrupted$" \
		"$T/stderr" || fail "SIG$sig message: $(cat "$T/stderr")"
done
[ "$(cat "$c/4/complete")" = "interrupted: kdelta was stopped by SIGINT" ] ||
	fail "run 4's mark: $(cat "$c/4/complete" 2>&1)"
[ "$(cat "$c/5/complete")" = "interrupted: kdelta was stopped by SIGTERM" ] ||
	fail "run 5's mark: $(cat "$c/5/complete" 2>&1)"
rm -f "$T/slow"
"$KDELTA" run "$T/job.yaml" --commit j --result-root "$T/r" --work-dir "$T/w" --runs 3 2>/dev/null ||
	fail "the batch of j failed"
"$KDELTA" compare --result-root "$T/r" --format json j k >"$T/json" 2>"$T/err" ||
	fail "compare: $(cat "$T/err")"
tr -d ' \n' <"$T/json" | grep -q '"runs":3,"failed":0,"incomplete":0,"interrupted":3' ||
	fail "interrupted runs counted: $(cat "$T/json")"
"$KDELTA" compare --result-root "$T/r" j k >"$T/table" 2>"$T/err" ||
	fail "compare: $(cat "$T/err")"
grep -qx "k: 3 runs interrupted (kdelta was stopped or killed in them), not counted" "$T/table" ||
	fail "the table does not list the interrupted runs: $(cat "$T/table")"
grep -q "runs.failed\|runs.incomplete" "$T/table" &&
	fail "interrupted runs shown as failed: $(cat "$T/table")"
# The work directory keeps only its lock file.
[ "$(ls -A "$T/w")" = kdelta.lock ] || fail "work dir not cleaned: $(ls -A "$T/w")"
finish
