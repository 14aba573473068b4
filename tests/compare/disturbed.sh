#!/bin/bash
# compare names the runs the machine disturbed (the runner's record in
# job.yaml: other processes' CPU time, other kdelta runs; an older record's
# load average and pressure) and the runs far from the others, with their
# user time, and keeps them all.
source "$TESTLIB"
source "$SRCDIR/tests/compare/store.sh"
R=$T/results
G=$R/w/fs=xfs/box

job() { printf 'testcase: w\nfs: xfs\ncommit: %s\nhost: box\nruns: 6\n' "$1"; }
store_commit "$G/a" "$(job a)" w.ops_per_sec=1000,1001,999,1000,1000.5,1000.2
store_commit "$G/b" "$(job b)" w.ops_per_sec=1000,1001,999,700,1000.5,1000.2 \
	time.user_time=0.56,0.57,0.56,0.8,0.55,0.56
# Run 3 of c is an outlier by its modified z-score (4.9) but only 0.4% from
# the median, less than --min-change: nothing to look at.
store_commit "$G/c" "$(job c)" w.ops_per_sec=1000,1001,999,1004,1000.5,1000.2
# Run 3 of b ran beside another batch and a CPU hog; run 1 had others use
# a whole CPU, but for 50 ms only; run 4 beside others using 24% of a CPU.
# Run 5's record is an older kdelta's, without others_cpu_seconds: its
# load average and pressure decide.
kd() { printf '%s\nmachine:\n  nr_cpu: 2\nkdelta:\n' "$(job b)"; printf '  %s\n' "$@"; }
kd 'load_avg_start: 0.50' 'load_avg_end: 5.25' 'concurrent_runs: 1' \
	'others_cpu_seconds: 2.50' 'others_cpu_percent: 85.0' >"$G/b/3/job.yaml"
kd 'concurrent_runs: 0' 'others_cpu_seconds: 0.05' 'others_cpu_percent: 100.0' >"$G/b/1/job.yaml"
kd 'concurrent_runs: 0' 'others_cpu_seconds: 0.70' 'others_cpu_percent: 24.0' \
	'load_avg_end: 4.00' >"$G/b/4/job.yaml"
kd 'load_avg_start: 0.50' 'load_avg_end: 5.25' 'concurrent_runs: 0' 'pressure:' \
	'  cpu:' '    some_avg10: 12.00' '    some_stall_us: 250000' \
	'    some_stall_percent: 25.00' '  io:' '    some_avg10: 1.00' \
	'    some_stall_us: 1000' '    some_stall_percent: 2.00' >"$G/b/5/job.yaml"

"$KDELTA" compare --result-root "$R" a b >"$T/table" || fail "compare"
sed -n '/^runs to look at/,/^marks:/p' "$T/table" >"$T/notes"
cat >"$T/want" <<'WANT'
runs to look at (kept in the statistics):
  b run 3: other processes used 85% of a CPU beside it; 1 other kdelta run
      beside it
  b run 5: load average 5.25 above its 2 CPUs; cpu pressure: tasks stalled 25%
      of its time
  b run 3: w.ops_per_sec 700, far from the others (median 1000.1);
      time.user_time 0.8 (median 0.56)
no significant change in 1 monitor metric (--all lists them)
marks: +1.0% changed, (+1.0%) same, small or undecided, ±N% stddev, - no value
WANT
diff -u "$T/want" "$T/notes" >&2 || fail "the runs to look at"
# Kept: the mean of b counts run 3's 700.
grep -q '950.12 ± 11%  w.ops_per_sec$' "$T/table" || fail "run 3 left out"
"$KDELTA" compare --result-root "$R" --format json a b | tr -d ' \n' >"$T/json"
grep -q '"disturbed":\[{"run":"3","why":"otherprocessesused85%ofaCPUbesideit;1otherkdeltarunbesideit"},{"run":"5","why":"loadaverage5.25aboveits2CPUs;cpupressure:tasksstalled25%ofitstime"}\]' "$T/json" ||
	fail "JSON: disturbed runs"
# A quiet pair: nothing to look at.
"$KDELTA" compare --result-root "$R" a a >"$T/quiet" || fail "a a"
grep -q '^runs to look at' "$T/quiet" && fail "notes on quiet runs"
"$KDELTA" compare --result-root "$R" a c >"$T/near" || fail "a c"
grep -q '^runs to look at' "$T/near" && fail "a run 0.4% from the median named: $(cat "$T/near")"
finish
