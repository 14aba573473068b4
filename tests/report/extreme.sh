#!/bin/bash
# Samples at the ends of double precision, in every command that decides
# and draws: a constant 5e-324 or +-DBL_MAX (whose 5% axis padding
# vanishes or overflows) plots with sensible ticks; samples whose variance
# overflows (1e308, -1e308, 0) get the verdict "not-finite" in every
# format, never GSL's abort().
source "$TESTLIB"
source "$SRCDIR/tests/compare/store.sh"
R=$T/results
max=1.7976931348623157e308
store_commit "$R/aim9/p/box/a" 'testcase: aim9' aim9.tiny=5e-324,5e-324,5e-324 \
	aim9.big=$max,$max,$max aim9.neg=-$max,-$max,-$max aim9.wild=1e308,-1e308,0
store_commit "$R/aim9/p/box/b" 'testcase: aim9' aim9.tiny=5e-324,5e-324,5e-324 \
	aim9.big=$max,$max,$max aim9.neg=-$max,-$max,-$max aim9.wild=0,0,0
cmp_() { "$KDELTA" compare --result-root "$R" "$@" a b; }
plot_() { "$KDELTA" plot --result-root "$R" "$@" a b; }

ok() {
	local status=0
	"$@" >"$T/out" 2>"$T/err" || status=$?
	[ $status = 0 ] || fail "$*: status $status: $(head -c 300 "$T/err")"
	[ -s "$T/err" ] && fail "$*: wrote on stderr: $(head -c 300 "$T/err")"
}

verdict='statistics not finite: the samples exceed double precision; not decided'
ok cmp_
grep -q '^      0.00       not finite       0.00        aim9.wild$' "$T/out" ||
	fail "compare: no 'not finite' row: $(cat "$T/out")"
ok cmp_ --format csv
grep -qxF "aim9/p/box,aim9.wild,1,b,3,0,0,0,0,0,0,,,,,,,,not-finite,$verdict,0 0 0," "$T/out" ||
	fail "csv: $(grep wild "$T/out")"
ok cmp_ --format json
python3 - "$T/out" "$verdict" <<'PY' || fail "json"
import json, sys
d = json.load(open(sys.argv[1]))
m = {m["name"]: m for m in d["groups"][0]["metrics"]}
b = m["aim9.wild"]["variants"][1]
assert (b["verdict"], b["rule"], b["p"], b["q"]) == ("not-finite", sys.argv[2], None, None), b
assert m["aim9.wild"]["variants"][0]["stddev"] is None
PY
ok cmp_ --format mmtests
grep -qE '^Amean +aim9.wild +0.00 \(   0.00%\) +0.00 \(     n/a\)$' "$T/out" ||
	fail "mmtests: $(grep wild "$T/out")"
ok cmp_ --summary aim9.wild
grep -q 'not finite.*aim9/p/box$' "$T/out" || fail "summary: $(cat "$T/out")"
ok cmp_ --explain aim9.wild
grep -qxF "    verdict: not-finite: $verdict" "$T/out" || fail "explain: $(cat "$T/out")"

for m in tiny big neg wild; do
	ok plot_ --metric aim9.$m
	grep -qE '^ *-?[0-9.e+-]+ \+ .*\+$' "$T/out" || fail "plot $m: no tick: $(cat "$T/out")"
	grep -qE 'nan|inf' "$T/out" && fail "plot $m: $(cat "$T/out")"
	ok plot_ --metric aim9.$m --svg "$T/$m.svg"
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$T/$m.svg" ||
		fail "plot $m: the SVG does not parse"
	grep -qE '"(-?nan|-?inf)"' "$T/$m.svg" && fail "plot $m: a coordinate is not finite"
done
grep -q '>statistics not finite<' "$T/wild.svg" || fail "plot: no verdict under the column"

ok "$KDELTA" report --always --result-root "$R" a b
grep -q 'not finite       0.00        aim9.wild$' "$T/out" || fail "report: no 'not finite' row"
finish
