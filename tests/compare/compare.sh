#!/bin/bash
# kdelta compare on stores written here: grouping, JSON, CSV, --explain,
# paths as arguments, exit statuses.
source "$TESTLIB"
source "$SRCDIR/tests/compare/store.sh"
want=$TESTDATA/compare
R=$T/results

job() {
	printf 'testcase: %s\nfs: xfs\n%s:\n  files: 1000\n  fs: ignored\ncommit: %s\nhost: box\nruns: 5\n' "$1" "$1" "$2"
}
# The creat-clo results are stored under kdelta 0.1's name for them and read
# under lkp-tests', aim9.creat-clo.ops_per_sec: --explain takes either.
store_commit "$R/creat-clo/fs=xfs/box/v1" "$(job creat-clo v1)" \
	creat-clo.ops_per_sec=100,101,99,100,102 \
	proc-vmstat.pgfree=5000,5100,4900,5000,5050 \
	meminfo.Dirty=10,11,12,10,11
store_commit "$R/creat-clo/fs=xfs/box/v2" "$(job creat-clo v2)" \
	creat-clo.ops_per_sec=95,96,94,95,96 \
	proc-vmstat.pgfree=5000,5100,4900,5000,5050 \
	proc-vmstat.pgmajfault=0,0,1,0,0
store_failed_run "$R/creat-clo/fs=xfs/box/v2" 5 "workload exited with status 1"
store_incomplete_run "$R/creat-clo/fs=xfs/box/v2" 6
# Two runs only: "not enough runs".
store_commit "$R/punch/size=2G/box/v1" "$(job punch v1)" punch.usecs=10,12
store_commit "$R/punch/size=2G/box/v2" "$(job punch v2)" punch.usecs=20,22
# v2 missing: no table for this group.
store_commit "$R/punch/size=1G/box/v1" "$(job punch v1)" punch.usecs=1,2,3

cmp_() { "$KDELTA" compare --result-root "$R" "$@"; }
# Paths of this run's temporary directory read as $T in the expected files.
untmp() { sed "s|$T|\$T|g"; }

cmp_ --format json v1 v2 | untmp >"$T/json" || fail "json"
diff -u "$want/two-groups.json" "$T/json" >&2 || fail "--format json differs"
cmp_ --format csv v1 v2 >"$T/csv" || fail "csv"
diff -u "$want/two-groups.csv" "$T/csv" >&2 || fail "--format csv differs"
expect_output "$want/explain.txt" cmp_ --explain creat-clo.ops_per_sec v1 v2
expect_output "$want/explain-few-runs.txt" cmp_ --explain punch.usecs v1 v2

# The same from paths: a commit directory and a matrix file.
"$KDELTA" compare --format csv "$R/creat-clo/fs=xfs/box/v1/" \
	"$R/creat-clo/fs=xfs/box/v2/matrix.json.gz" >"$T/paths" ||
	fail "paths failed"
grep -v '^punch/' "$want/two-groups.csv" |
	sed "s|^creat-clo/fs=xfs/box,|$R/creat-clo/fs=xfs/box,|" >"$T/paths-want"
diff -u "$T/paths-want" "$T/paths" >&2 || fail "paths: output differs"

# Exit statuses (tests/compare/status.sh has each): a regression of a key
# metric (ops_per_sec fell, and v2's runs failed where v1's did not) is 1
# only with --fail-on-regression; with v2 as base creat-clo improved, but
# punch's 2 runs decide nothing: 6, inconclusive, as is A/A at this noise.
cmp_ v1 v2 >/dev/null || fail "regression without --fail-on-regression: status $?"
cmp_ --fail-on-regression v1 v2 >/dev/null
[ $? -eq 1 ] || fail "regression with --fail-on-regression: want status 1"
cmp_ --fail-on-regression v2 v1 >/dev/null
[ $? -eq 6 ] || fail "improvement, too few runs: want status 6"
cmp_ --fail-on-regression v1 v1 >/dev/null
[ $? -eq 6 ] || fail "A/A of 5 runs at 1% noise: want status 6"
# From a mean of 0 the direction is the new mean's sign: a latency that
# fell below 0 improved, one that rose above 0 regressed.
mkdir -p "$T/zero/base" "$T/zero/below" "$T/zero/above"
echo '{"w.latency": [0, 0, 0, 0, 0]}' >"$T/zero/base/matrix.json"
echo '{"w.latency": [-5, -5.1, -4.9, -5, -5.2]}' >"$T/zero/below/matrix.json"
echo '{"w.latency": [5, 5.1, 4.9, 5, 5.2]}' >"$T/zero/above/matrix.json"
"$KDELTA" compare --fail-on-regression "$T/zero/base/matrix.json" \
	"$T/zero/below/matrix.json" >/dev/null ||
	fail "from 0 to below 0 of a latency: status $?"
"$KDELTA" compare --fail-on-regression "$T/zero/base/matrix.json" \
	"$T/zero/above/matrix.json" >/dev/null
[ $? -eq 1 ] || fail "from 0 to above 0 of a latency: want status 1"
# Only changes above --min-change count: -5% is the same within 10%.
mkdir -p "$T/mc/base" "$T/mc/lower"
echo '{"w.ops_per_sec": [100, 101, 99, 100, 102]}' >"$T/mc/base/matrix.json"
echo '{"w.ops_per_sec": [95, 96, 94, 95, 96]}' >"$T/mc/lower/matrix.json"
"$KDELTA" compare --fail-on-regression "$T/mc/base/matrix.json" \
	"$T/mc/lower/matrix.json" >/dev/null
[ $? -eq 1 ] || fail "-5%: want status 1"
"$KDELTA" compare --fail-on-regression --min-change 10 "$T/mc/base/matrix.json" \
	"$T/mc/lower/matrix.json" >/dev/null || fail "--min-change 10: status $?"
# --test and --fdr reach the decision.
cmp_ --format json --test mwu --fdr 0 v1 v2 >"$T/mwu" || fail "mwu"
grep -q '"test": "mwu"' "$T/mwu" || fail "--test mwu not in the JSON"
grep -q '"fdr": 0.0' "$T/mwu" || fail "--fdr 0 not in the JSON"

# --metric: globs, repeatable; the rows they match and no others.
cmp_ --format csv --metric 'proc-vmstat.*' --metric '*.Dirty' v1 v2 |
	cut -d, -f2 | sed 1d | sort -u >"$T/focus"
printf '%s\n' meminfo.Dirty proc-vmstat.pgfree proc-vmstat.pgmajfault |
	diff -u - "$T/focus" >&2 || fail "--metric: other rows"
cmp_ --metric 'proc-vmstat.pg*' --all v1 v2 >"$T/focus" || fail "--metric table"
grep -q 'proc-vmstat.pgfree$' "$T/focus" && ! grep -q 'ops_per_sec' "$T/focus" ||
	fail "--metric: the table holds other metrics: $(cat "$T/focus")"
# A group with no metric the patterns match is left out, in every format.
cmp_ --metric 'punch.*' --all v1 v2 >"$T/focus" || fail "--metric punch.*"
! grep -q 'creat-clo' "$T/focus" || fail "--metric punch.*: a group without punch.*: $(cat "$T/focus")"
grep -q 'punch.usecs$' "$T/focus" || fail "--metric punch.*: no punch.usecs"
cmp_ --format json --metric 'punch.*' v1 v2 | grep '^   "name": ' >"$T/focus" || fail "--metric json"
echo '   "name": "punch/size=2G/box",' | diff -u - "$T/focus" >&2 ||
	fail "--metric punch.*: the JSON holds other groups"
cmp_ --format mmtests --metric 'punch.*' v1 v2 >"$T/focus" || fail "--metric mmtests"
grep -q '^creat-clo' "$T/focus" && fail "--metric punch.*: mmtests holds creat-clo"
"$KDELTA" report --result-root "$R" --always --metric 'punch.*' v1 v2 >"$T/mail" ||
	fail "report --metric punch.*"
! grep -q 'creat-clo' "$T/mail" || fail "report --metric punch.*: a group without punch.*"
# A pattern that matches nothing is an error; a misspelt name gets the
# nearest; the old name of a result is taken as today's.
expect_error 2 "kdelta compare: --metric nosuch.*: no metric of these results matches" \
	cmp_ --metric 'nosuch.*' v1 v2
expect_error 2 "kdelta compare: --metric: no metric 'proc-vmstat.pgfre' in these results; did you mean 'proc-vmstat.pgfree'?" \
	cmp_ --metric proc-vmstat.pgfre v1 v2
cmp_ --format csv --metric creat-clo.ops_per_sec v1 v2 | cut -d, -f2 | sed 1d |
	sort -u | grep -qx aim9.creat-clo.ops_per_sec || fail "--metric: old name"
# report focuses its table the same way.
"$KDELTA" report --result-root "$R" --metric 'aim9.*' v1 v2 >"$T/mail" ||
	fail "report --metric"
grep -q 'aim9.creat-clo.ops_per_sec$' "$T/mail" && ! grep -q 'proc-vmstat' "$T/mail" ||
	fail "report --metric: the table holds other metrics"

"$KDELTA" compare --help >"$T/help" || fail "--help"
grep -q '^usage: kdelta compare' "$T/help" || fail "--help: no usage line"
# The defaults it states are the ones compare_options_init() sets.
grep -qF "LKP's %stddev %change table" "$T/help" || fail "--help: table name"
grep -qF 'welch, mwu or lkp (default welch)' "$T/help" || fail "--help: --test default"
grep -qF 'correction (default 0.05; 0: no correction)' "$T/help" || fail "--help: --fdr default"
grep -qF 'reporting, in percent (default 1)' "$T/help" || fail "--help: --min-change default"
finish
