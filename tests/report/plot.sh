#!/bin/bash
# kdelta plot: the ASCII plot of fixed samples, exactly; which metrics it
# chooses; the SVG and HTML files are well-formed and self-contained.
source "$TESTLIB"
source "$SRCDIR/tests/compare/store.sh"
R=$T/results
job='testcase: aim9'
# Seed 002's creat-clo samples: the second commit is 12.5% slower.
store_commit "$R/aim9/p/box/c435a390574d" "$job" \
	aim9.ops_per_sec=563556,561002,566120,559870,564890 \
	aim9.files=100,100,100,100,100 proc-vmstat.pgfree=10,11,12,10,11
store_commit "$R/aim9/p/box/afa2db2fb6f1" "$job" \
	aim9.ops_per_sec=493033,470115,512440,489900,498760 \
	aim9.files=100,100,100,100,100 proc-vmstat.pgfree=10,11,12,10,11
plot_() { "$KDELTA" plot --result-root "$R" "$@"; }

# Default: the changed workload results only (not aim9.files).
expect_output "$TESTDATA/report/plot-cli.txt" plot_ c435a390574d afa2db2fb6f1
awk 'length > 80 { bad = 1 } END { exit bad }' "$T/out" || fail "a line over 80 columns"
# --metric: any metric, in the order given.
plot_ --metric proc-vmstat.pgfree --metric aim9.files c435a390574d afa2db2fb6f1 >"$T/two" ||
	fail "--metric"
[ "$(grep -E '^ +(proc-vmstat.pgfree|aim9.files)$' "$T/two" | tr -d ' ')" = \
  "$(printf 'proc-vmstat.pgfree\naim9.files')" ] || fail "--metric: not the metrics asked for"
# Nothing changed: every workload result.
plot_ c435a390574d c435a390574d >"$T/same" || fail "A/A"
[ "$(grep -cE '^ +aim9\.(files|ops_per_sec)$' "$T/same")" = 2 ] || fail "A/A: not every workload result"

# SVG and HTML: parse as XML; nothing fetched, no scripts.
plot_ --svg "$T/p.svg" c435a390574d afa2db2fb6f1 || fail "--svg"
plot_ --html "$T/p.html" --metric aim9.ops_per_sec --metric aim9.files \
	c435a390574d afa2db2fb6f1 || fail "--html"
# The words under each column are compare's verdicts (changed, same, ...).
if [ -x /usr/bin/python3 ]; then
	/usr/bin/python3 - "$T/p.svg" <<'PY' || fail "the SVG"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
assert root.tag == ns + "svg", root.tag
texts = [t.text for t in root.iter(ns + "text")]
for want in ("aim9.ops_per_sec", "c435a390574d", "afa2db2fb6f1",
             "-12.5%, changed", "base"):
    assert want in texts, (want, texts)
PY
fi
grep -qiE '<script|https?://[^"]*\.(js|css|woff)|@import|url\(' "$T/p.svg" "$T/p.html" &&
	fail "the SVG or HTML fetches something or has a script"
[ "$(grep -c '<svg' "$T/p.html")" = 2 ] || fail "--html: want two inline panels"

expect_error 2 "kdelta plot: --metric: no metric 'aim9.ops_per_sek' in these results; did you mean 'aim9.ops_per_sec'?" \
	plot_ --metric aim9.ops_per_sek c435a390574d afa2db2fb6f1
# plot takes exact names, not compare's globs: the error says so.
expect_error 2 "kdelta plot: --metric aim9.*: plot takes one exact metric name per --metric, not a pattern, such as 'aim9.ops_per_sec'" \
	plot_ --metric 'aim9.*' c435a390574d afa2db2fb6f1
expect_error 2 "kdelta plot: --metric nosuch.*: plot takes one exact metric name per --metric, not a pattern" \
	plot_ --metric 'nosuch.*' c435a390574d afa2db2fb6f1
"$KDELTA" plot --help | grep -q -- '--metric METRIC       plot METRIC, one exact name, not a glob$' ||
	fail "plot --help: --metric takes exact names"
expect_error 2 "kdelta plot: --svg and --html exclude each other; write one file at a time" \
	plot_ --svg a --html b c435a390574d afa2db2fb6f1
"$KDELTA" plot --help | grep -q '^usage: kdelta plot' || fail "--help"
"$KDELTA" plot --help | grep -q -- '(--svg and --html exclude each other)$' ||
	fail "plot --help does not say --svg and --html exclude each other"
finish
