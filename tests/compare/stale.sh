#!/bin/bash
# A stale matrix.json.gz (kdelta killed between a run's completion mark and
# the matrix's rewrite): compare reads the runs marked ok, rewrites the
# matrix when it can and says so; a read-only store is compared from its
# runs with a clear note; a stale matrix that cannot be rebuilt is an error.
source "$TESTLIB"
source "$SRCDIR/tests/compare/store.sh"
R=$T/r
C=$R/punch/p/box
store_commit "$C/base" 'testcase: punch' punch.usecs=100,101,99
store_commit "$C/new" 'testcase: punch' punch.usecs=200,201,199

# add_run DIR N VALUE: run N of DIR marked ok, matrix.json.gz left as it was.
add_run() {
	mkdir -p "$1/$2"
	echo 'testcase: punch' >"$1/$2/job.yaml"
	echo "{\"punch.usecs\": $3}" >"$1/$2/stats.json"
	echo ok >"$1/$2/complete"
}

# mean_of VARIANT: its punch.usecs mean in compare's CSV (stderr to $T/err).
mean_of() {
	"$KDELTA" compare --result-root "$R" --format csv base new 2>"$T/err" |
		awk -F, -v v="$1" '$2 == "punch.usecs" && $4 == v { print $6 }'
}

# A current matrix: nothing said, nothing rewritten.
cp "$C/new/matrix.json.gz" "$T/before.gz"
mean=$(mean_of new)
[ "$mean" = 200 ] || fail "current matrix: mean $mean"
[ ! -s "$T/err" ] || fail "current matrix: stderr $(cat "$T/err")"
cmp -s "$C/new/matrix.json.gz" "$T/before.gz" || fail "a current matrix was rewritten"

# A run marked ok after the matrix was written: read, rebuilt, said once.
add_run "$C/new" 3 400
mean=$(mean_of new)
[ "$mean" = 250 ] || fail "run 3 not counted: mean $mean"
[ "$(cat "$T/err")" = "kdelta compare: $C/new/matrix.json.gz was stale (run 3 is complete but not in it): rebuilt it from the runs' stats.json" ] ||
	fail "stale matrix notice: $(cat "$T/err")"
zcat "$C/new/matrix.json.gz" | grep -q '^{"punch.usecs":\[200,201,199,400\],"stats_source":\[.*/new/3/stats.json"\]}$' ||
	fail "matrix not rebuilt: $(zcat "$C/new/matrix.json.gz")"
[ "$(mean_of new)" = 250 ] && [ ! -s "$T/err" ] ||
	fail "rebuilt matrix read again: $(cat "$T/err")"

# A run in the matrix that is no longer complete (marked failed, or removed).
echo 'failed: disturbed' >"$C/new/1/complete"
mean=$(mean_of new)
[ "$mean" = 266.3333333 ] || fail "failed run counted: mean $mean"
[ "$(cat "$T/err")" = "kdelta compare: $C/new/matrix.json.gz was stale (it holds run 1, which is not a complete run): rebuilt it from the runs' stats.json" ] ||
	fail "failed run notice: $(cat "$T/err")"
rm -r "$C/base/2"
mean=$(mean_of base)
[ "$mean" = 100.5 ] || fail "removed run counted: mean $mean"
grep -q "base/matrix.json.gz was stale (it holds run 2, which is not a complete run)" "$T/err" ||
	fail "removed run notice: $(cat "$T/err")"

# Older kdelta named the run directories in stats_source: still matched.
printf '{"punch.usecs": [100, 101], "stats_source": ["%s", "%s"]}\n' \
	"/elsewhere/base/0" "/elsewhere/base/1" | gzip -n >"$C/base/matrix.json.gz"
cp "$C/base/matrix.json.gz" "$T/before.gz"
[ "$(mean_of base)" = 100.5 ] && [ ! -s "$T/err" ] ||
	fail "old stats_source form: $(cat "$T/err")"
cmp -s "$C/base/matrix.json.gz" "$T/before.gz" || fail "old form rewritten"

# A store that cannot be written: compared from the runs, said clearly.
add_run "$C/new" 4 500
if [ "$(id -u)" = 0 ]; then
	id nobody >/dev/null 2>&1 || skip "root without a user nobody"
	chmod 711 "$T"
	chmod -R a+rX "$R"
	as_reader() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
else
	chmod a-w "$C/new"
	as_reader() { "$@"; }
fi
as_reader "$KDELTA" compare --result-root "$R" --format csv base new \
	>"$T/out" 2>"$T/err" || fail "read-only store: $(cat "$T/err")"
grep -q '^punch/p/box,punch.usecs,1,new,4,324.75,' "$T/out" ||
	fail "read-only store: runs not read: $(cat "$T/out")"
grep -q "^kdelta compare: $C/new/matrix.json.gz is stale (run 4 is complete but not in it): compared the runs' stats.json, but could not rewrite it: .*Permission denied" "$T/err" ||
	fail "read-only store notice: $(cat "$T/err")"
chmod u+w "$C/new"

# A stale matrix whose runs cannot be read is an error, not a silent mix.
add_run "$C/new" 5 600
echo '{"punch.usecs": ' >"$C/new/5/stats.json"
"$KDELTA" compare --result-root "$R" base new >"$T/out" 2>"$T/err" &&
	fail "unreadable stats.json of a stale matrix accepted"
grep -q "^kdelta compare: $C/new/matrix.json.gz is stale (run 4 is complete but not in it) and cannot be rebuilt: $C/new/5/stats.json:" "$T/err" ||
	fail "unrebuildable matrix: $(cat "$T/err")"

# lkp-tests' trees mark no run: their matrix is taken as it is.
L=$R/aim9/300s/box
store_commit "$L/a" 'testcase: aim9' aim9.ops=1,2,3
store_commit "$L/b" 'testcase: aim9' aim9.ops=1,2,3
rm "$L"/*/*/complete
mkdir -p "$L/b/3" && echo '{"aim9.ops": 9}' >"$L/b/3/stats.json"
"$KDELTA" compare --result-root "$R" a b >/dev/null 2>"$T/err" && [ ! -s "$T/err" ] ||
	fail "lkp-tests tree: $(cat "$T/err")"
finish
