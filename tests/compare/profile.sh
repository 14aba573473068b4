#!/bin/bash
# perf-profile rows: a function a profile lacks had fewer samples than it
# keeps, so a function absent from every base run but present in the
# variant's is compared against zeros (as lkp-tests does), with the default
# test too; runs that were not profiled have no such zeros.
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

for test in welch mwu lkp; do
	"$KDELTA" compare --result-root "$R" --test $test a b >"$T/table" ||
		fail "compare --test $test"
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
# c was not profiled: its functions are absent, not zero.
"$KDELTA" compare --result-root "$R" --all --format json c b >"$T/json" ||
	fail "compare c b"
python3 - "$T/json" "$P.vfs_statx" <<'PY' || fail "JSON: c was not profiled"
import json, sys
doc = json.load(open(sys.argv[1]))
row = [m for m in doc["groups"][0]["metrics"] if m["name"] == sys.argv[2]][0]
base, b = row["variants"]
assert base["samples"] is None and base["verdict"] == "base", base
assert b["verdict"] == "absent", b
PY
finish
