#!/bin/bash
# Out of memory: one line and exit status 5 (KD_EXIT_NOMEM, documented in
# kdelta(1)), not 1, the status of a failed run or a regression.  A 300 MB
# matrix.json (sparse zeros) is read in a 100 MiB address space; ASan and
# TSan builds reserve terabytes of address space and cannot run under a
# limit.
source "$TESTLIB"
source "$SRCDIR/tests/compare/store.sh"
address_space_sanitizer && skip "ASan or TSan build: no address-space limit"
R=$T/results
C=$R/punch/size=1G/box
store_commit "$C/v1" 'testcase: punch' punch.usecs=1,2,3
store_commit "$C/v2" 'testcase: punch' punch.usecs=1,2,3
rm "$C/v2/matrix.json.gz"
truncate -s 300M "$C/v2/matrix.json"
status=0
(ulimit -v 102400 && exec "$KDELTA" compare --result-root "$R" v1 v2) \
	>"$T/out" 2>"$T/err" || status=$?
[ $status = 5 ] || fail "status $status, want 5: $(cat "$T/err")"
grep -qxE 'kdelta: fatal: out of memory allocating [0-9]+ bytes' "$T/err" ||
	fail "stderr: $(cat "$T/err")"
[ -s "$T/out" ] && fail "printed on stdout"
finish
