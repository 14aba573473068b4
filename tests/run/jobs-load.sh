#!/bin/bash
# Every job file in jobs/ loads ("kdelta split --print" succeeds on it).
. "$TESTLIB"
n=0
for job in "$SRCDIR"/jobs/*.yaml; do
	"$KDELTA" split --print "$job" >"$T/out" 2>"$T/err" ||
		fail "$job: $(cat "$T/err")"
	n=$((n + 1))
done
[ "$n" -ge 9 ] || fail "only $n job files in jobs/"
finish
