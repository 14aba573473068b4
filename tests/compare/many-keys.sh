#!/bin/bash
# An lkp-tests job.yaml with 100,000 keys in one section: the group's
# parameters are found by hashing, not by comparing every key with every
# other (that took minutes).  Bounded by CPU time (ulimit -t), which a
# loaded machine does not stretch the way it stretches wall-clock time.
source "$TESTLIB"
source "$SRCDIR/tests/compare/store.sh"
R=$T/results
C=$R/punch/size=1G/box
store_commit "$C/v1" 'testcase: punch' punch.usecs=1,2,3
store_commit "$C/v2" 'testcase: punch' punch.usecs=1,2,3
# k7 is also a top-level key: the section's one is "sec.k7".
python3 -c '
import sys
w = sys.stdout.write
w("testcase: punch\nk7: top\nsec:\n")
for i in range(100000):
    w("  k%d: v%d\n" % (i, i))' >"$C/v1/0/job.yaml"

(ulimit -t 20 && exec "$KDELTA" compare --result-root "$R" --format json v1 v2) \
	>"$T/out" 2>"$T/err" || fail "compare: status $?: $(cat "$T/err")"
python3 - "$T/out" <<'PY' || fail "the parameters of 100,000 keys"
import json, sys
params = json.load(open(sys.argv[1]))["groups"][0]["params"]
assert len(params) == 100002, len(params)
assert params["k7"] == "top" and params["sec.k7"] == "v7", params.get("sec.k7")
assert params["k8"] == "v8" and "sec.k8" not in params
PY
finish
