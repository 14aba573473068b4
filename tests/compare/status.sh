#!/bin/bash
# What compare and report --fail-on-regression tell a robot: 0 clean, 1
# regressed (a result got worse, or runs fail where the base's do not), 6
# inconclusive, 7 no data; report's mail about failing runs.  A run kdelta
# was killed in (marked interrupted) is not the commit's failure.
source "$TESTLIB"
source "$SRCDIR/tests/compare/store.sh"
R=$T/results
G=$R/w/fs=xfs/box

job() { printf 'testcase: w\nfs: xfs\ncommit: %s\nhost: box\nruns: 5\n' "$1"; }
store() { local label=$1; shift; store_commit "$G/$label" "$(job "$label")" "$@"; }
store base w.ops_per_sec=1000,1001,999,1000,1000.5
store same w.ops_per_sec=1000.2,1000.8,999.4,1000.1,1000.3
store worse w.ops_per_sec=900,901,899,900,900.5
store better w.ops_per_sec=1100,1101,1099,1100,1100.5
store noisy w.ops_per_sec=1000,1100,900,1050,950
store few w.ops_per_sec=1000,1001
store fails w.ops_per_sec=1000.2,1000.8,999.4,1000.1
store_failed_run "$G/fails" 4 "mkfs.xfs: bad option: bind"
store same_killed w.ops_per_sec=1000.2,1000.8,999.4,1000.1,1000.3
store_interrupted_run "$G/same_killed" 5
store worse_killed w.ops_per_sec=900,901,899,900,900.5
store_interrupted_run "$G/worse_killed" 5
for label in dead dead2; do
	for i in 0 1 2; do
		store_failed_run "$G/$label" $i "mkfs.xfs: bad option: bind"
		printf '%s\n' "$(job $label)" >"$G/$label/$i/job.yaml"
	done
done

status_of() { "$KDELTA" "$@" >"$T/out" 2>"$T/err"; echo $?; }
check() {
	local want=$1 got
	shift
	got=$(status_of "$@")
	[ "$got" = "$want" ] ||
		fail "$*: status $got, want $want: $(cat "$T/err")"
}
check 0 compare --result-root "$R" --fail-on-regression base same
check 0 compare --result-root "$R" --fail-on-regression base better
check 1 compare --result-root "$R" --fail-on-regression base worse
check 6 compare --result-root "$R" --fail-on-regression base noisy
check 6 compare --result-root "$R" --fail-on-regression base few
check 1 compare --result-root "$R" --fail-on-regression base fails
check 1 compare --result-root "$R" --fail-on-regression base dead
check 7 compare --result-root "$R" --fail-on-regression dead dead2
# The worst of the variants wins: regressed over no data over inconclusive.
check 1 compare --result-root "$R" --fail-on-regression base noisy worse
check 6 compare --result-root "$R" --fail-on-regression base same noisy
# A change in a direction no rule declares better is no regression the gate
# can call: inconclusive, and the verdict line says how to declare it.
# (Before, it counted as worse: a checksum printed first failed CI.)
U=$R/u/fs=xfs/box
store_commit "$U/ubase" "$(job ubase | sed 's/^testcase: w/testcase: u/')" \
	u.widgets=100,101,99,100,100.5
store_commit "$U/uup" "$(job uup | sed 's/^testcase: w/testcase: u/')" \
	u.widgets=110,111,109,110,110.5
check 6 compare --result-root "$R" --fail-on-regression ubase uup
# (The line is wrapped at 80 columns, the rest indented.)
sed -n '/^u\.widgets, uup/{N;N;s/\n */ /g;p}' "$T/out" |
	grep -q '^u\.widgets, uup: +10\.0% (95% CI .*): changed, direction unknown: not counted as a regression (--fail-on-regression: inconclusive); declare which is better in the job: key_result: {u\.widgets: higher} (or lower)$' ||
	fail "verdict line of a change of unknown direction: $(cat "$T/out")"
# Declared (key_result: in the runs' job.yaml), the direction is the job's,
# and only the declared results gate: a checksum that changed does not.
K=$R/k/fs=xfs/box
kjob() {	# LABEL DIRECTION
	printf 'testcase: k\nfs: xfs\ncommit: %s\nhost: box\nruns: 5\nkey_result:\n  k.widgets: %s\n' "$1" "$2"
}
store_commit "$K/kbase" "$(kjob kbase lower)" k.checksum=7,7,7,7,7 \
	k.widgets=100,101,99,100,100.5
store_commit "$K/kup" "$(kjob kup lower)" k.checksum=9,9,9,9,9 \
	k.widgets=110,111,109,110,110.5
check 1 compare --result-root "$R" --fail-on-regression kbase kup
grep -q '^k\.widgets, kup: +10\.0% (95% CI .*): changed, worse$' "$T/out" ||
	fail "a declared direction: $(cat "$T/out")"
for dir in kbase kup; do
	for i in 0 1 2 3 4; do
		sed -i 's/k.widgets: lower/k.widgets: higher/' "$K/$dir/$i/job.yaml"
	done
done
check 0 compare --result-root "$R" --fail-on-regression kbase kup
grep -q '^k\.widgets, kup: +10\.0% (95% CI .*): changed, better$' "$T/out" ||
	fail "the other declared direction: $(cat "$T/out")"
# A declared key result that no run printed (a typo: k.widget) is no
# data, never clean, though k.widgets regressed.
for dir in kbase kup; do
	for i in 0 1 2 3 4; do
		sed -i 's/k.widgets: higher/k.widget: higher/' "$K/$dir/$i/job.yaml"
	done
done
check 7 compare --result-root "$R" --fail-on-regression kbase kup
sed -n '/^k\.widget:/{N;s/\n */ /g;p}' "$T/out" |
	grep -q "^k\.widget: the job declares it a key result (key_result), but no run printed it: no data$" ||
	fail "a declared key result that no run printed: $(cat "$T/out")"
for dir in kbase kup; do
	for i in 0 1 2 3 4; do
		sed -i 's/k.widget: higher/k.widgets: higher/' "$K/$dir/$i/job.yaml"
	done
done
# report's mail is about the declared key result, not the first printed.
check 0 report --result-root "$R" --always kbase kup
grep -q '^Subject: \[kdelta\] kup: k\.widgets +10\.0% improvement$' "$T/out" ||
	fail "report: the subject is not the declared key result: $(grep '^Subject' "$T/out")"
# Without --fail-on-regression: 0.
check 0 compare --result-root "$R" base worse
check 0 compare --result-root "$R" dead dead2

# The table says what the runs did.
"$KDELTA" compare --result-root "$R" base dead >"$T/table" || fail "base dead"
grep -q '^ *:5  *[0-9]*% *3:3 *runs.failed$' "$T/table" ||
	fail "no runs.failed row: $(cat "$T/table")"
grep -q '^dead: no usable run: 3 of 3 runs failed: mkfs.xfs: bad option: bind$' "$T/table" ||
	fail "no line for the variant without runs: $(cat "$T/table")"
grep -q '^w.ops_per_sec, dead' "$T/table" &&
	fail "a verdict of a variant without runs: $(cat "$T/table")"

# report: the mail leads with the failure, its message, and exits as compare.
check 1 report --result-root "$R" --fail-on-regression base fails
grep -q '^Subject: \[kdelta\] fails: w fails in 1 of 5 runs$' "$T/out" ||
	fail "report: subject of failing runs: $(grep '^Subject' "$T/out")"
grep -q '^FYI, we noticed that the workload fails due to commit:$' "$T/out" ||
	fail "report: no failure finding"
grep -q '^		mkfs.xfs: bad option: bind$' "$T/out" ||
	fail "report: no failure message"
check 1 report --result-root "$R" --fail-on-regression base dead
grep -q 'w fails in 3 of 3 runs$' "$T/out" || fail "report: all runs failed"
check 0 report --result-root "$R" --fail-on-regression base same
[ ! -s "$T/out" ] || fail "report: a mail about nothing"
check 0 report --result-root "$R" base fails
check 7 report --result-root "$R" --fail-on-regression --always dead dead2
grep -q '^Subject: \[kdelta\] dead2: w: no usable run to compare$' "$T/out" ||
	fail "report --always without runs: $(grep '^Subject' "$T/out")"
check 6 report --result-root "$R" --fail-on-regression base noisy

# Interrupted runs: listed, neither runs nor failures.
check 0 compare --result-root "$R" --fail-on-regression base same_killed
grep -qx 'same_killed: 1 run interrupted (kdelta was stopped or killed in it), not counted' "$T/out" ||
	fail "compare does not list the interrupted run: $(cat "$T/out")"
grep -q 'runs\.failed\|runs\.incomplete' "$T/out" &&
	fail "compare counts the interrupted run as failed: $(cat "$T/out")"
check 1 report --result-root "$R" --fail-on-regression base worse_killed
grep -q '^Subject: \[kdelta\] worse_killed: w\.ops_per_sec -10\.0% regression$' "$T/out" ||
	fail "report: the subject is not the regression: $(grep '^Subject' "$T/out")"
grep -q 'fails in\|runs failed' "$T/out" &&
	fail "report: the interrupted run as a failure: $(cat "$T/out")"
finish
