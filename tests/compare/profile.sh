#!/bin/bash
# perf-profile rows: a function a profile lacks had fewer samples than it
# keeps, so a function absent from every base run but present in the
# variant's is compared against zeros (as lkp-tests does), with the default
# test too; runs that were not profiled have no such zeros.  Profiled and
# unprofiled runs share a result directory (a monitor is no part of a job's
# identity): compare says when the runs it compares differ in perf-profile.
source "$TESTLIB"
source "$SRCDIR/tests/compare/store.sh"
R=$T/results
G=$R/w/box
P=perf-profile.self.cycles-pp

job() { printf 'testcase: w\ncommit: %s\nhost: box\nruns: 6\n' "$1"; }
store_commit "$G/a" "$(job a)" w.ops_per_sec=1000,1001,999,1000,1000.5,1000.2 \
	$P.do_sys_openat2=12.1,12.3,11.9,12.0,12.2,12.1
store_commit "$G/b" "$(job b)" w.ops_per_sec=990,991,989,990,990.5,990.2 \
	$P.do_sys_openat2=11.1,11.3,10.9,11.0,11.2,11.1 \
	$P.vfs_statx=4.1,3.9,4.4,4.0,4.2,3.8
store_commit "$G/c" "$(job c)" w.ops_per_sec=990,991,989,990,990.5,990.2
# d: profiled in 2 of its 6 runs (a job that gained perf-profile: {}).
store_commit "$G/d" "$(job d)" w.ops_per_sec=990,991,989,990,990.5,990.2 \
	$P.do_sys_openat2=null,null,null,null,11.2,11.1

for test in welch mwu lkp; do
	"$KDELTA" compare --result-root "$R" --test $test a b >"$T/table" 2>"$T/err" ||
		fail "compare --test $test"
	[ -s "$T/err" ] && fail "--test $test: said $(cat "$T/err")"
	grep -Eq "^ +0\.00 +\+4\.1 +4\.07 ± +4%  $P\.vfs_statx$" "$T/table" ||
		fail "--test $test: vfs_statx, absent in the base, is not changed"
done
"$KDELTA" compare --result-root "$R" --format json a b >"$T/json" ||
	fail "compare --format json"
python3 - "$T/json" "$P.vfs_statx" <<'PY' || fail "JSON: the base's zeros"
import json, sys
doc = json.load(open(sys.argv[1]))
row = [m for m in doc["groups"][0]["metrics"] if m["name"] == sys.argv[2]][0]
base, b = row["variants"]
assert base["samples"] == [0] * 6 and base["mean"] == 0, base
assert b["verdict"] == "changed", b
PY
"$KDELTA" compare --result-root "$R" --explain $P.vfs_statx a b >"$T/explain" ||
	fail "compare --explain"
grep -A2 '^  a (base): 6 runs: 0 0 0 0 0 0$' "$T/explain" |
	grep -qx '    none in its runs, which had others of its source: 0 in each' ||
	fail "--explain does not say where the base's zeros come from: $(cat "$T/explain")"
# c was not profiled: its functions are absent, not zero.  Profiling
# slows the workload: compare says so when the runs it compares differ.
"$KDELTA" compare --result-root "$R" --all --format json c b >"$T/json" 2>"$T/err" ||
	fail "compare c b"
echo "kdelta compare: b ran perf-profile, c did not, and it slows the workload: the change of the workload's results includes its cost" >"$T/want"
diff -u "$T/want" "$T/err" >&2 || fail "compare c b: the notice"
"$KDELTA" compare --result-root "$R" a d c >/dev/null 2>"$T/err" || fail "compare a d c"
cat >"$T/want" <<'EOF'
kdelta compare: d: perf-profile ran in 2 of its 6 runs, and it slows the workload: its results mix runs with and without it
kdelta compare: a ran perf-profile, c did not, and it slows the workload: the change of the workload's results includes its cost
EOF
diff -u "$T/want" "$T/err" >&2 || fail "compare a d c: the notices"
python3 - "$T/json" "$P.vfs_statx" <<'PY' || fail "JSON: c was not profiled"
import json, sys
doc = json.load(open(sys.argv[1]))
row = [m for m in doc["groups"][0]["metrics"] if m["name"] == sys.argv[2]][0]
base, b = row["variants"]
assert base["samples"] is None and base["verdict"] == "base", base
assert b["verdict"] == "absent", b
PY
finish
