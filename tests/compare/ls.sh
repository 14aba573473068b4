#!/bin/bash
# kdelta ls: the labels, jobs, run counts and dates of a store.
source "$TESTLIB"
source "$SRCDIR/tests/compare/store.sh"
export TZ=UTC KDELTA_RESULT_ROOT="$T/default-root"
R=$T/r
C=$R/punch/size=1G/box
store_commit "$C/v1" 'testcase: punch' punch.usecs=1,2,3
store_failed_run "$C/v1" 3 'punch exited with status 1'
store_commit "$C/xfs%2Ffor-next" 'testcase: punch' punch.usecs=1,2
store_incomplete_run "$C/xfs%2Ffor-next" 2
# A run kdelta was stopped or killed in: a column of its own.
store_interrupted_run "$C/xfs%2Ffor-next" 3
store_commit "$R/punch/size=2G/box/v1" 'testcase: punch' punch.usecs=4,5,6
# An lkp-tests commit directory: no marks, runs with stats are complete.
L=$R/aim9/300s/lkp-wsx02/debian.cgz/x86_64-rhel/gcc-4.9/43819159da2b77fedcf7562134d6003dccd6a068
for r in 0 1; do
	mkdir -p "$L/$r"
	echo '{"aim9.ops": 1}' >"$L/$r/stats.json"
done
mkdir -p "$L/2"
# The dates are the run directories' mtimes: first and last.
find "$R" -mindepth 1 -type d -regex '.*/[0-9]+' -exec touch -d '2025-01-02 03:04' {} +
touch -d '2025-01-05 06:07' "$C/v1/3" "$L/2"

cat >"$T/want" <<'EOT'
label                                     job                                                   ok  failed  incomplete  interrupted  first             last
43819159da2b77fedcf7562134d6003dccd6a068  aim9/300s/lkp-wsx02/debian.cgz/x86_64-rhel/gcc-4.9     2       0           1            0  2025-01-02 03:04  2025-01-05 06:07
v1                                        punch/size=1G/box                                      3       1           0            0  2025-01-02 03:04  2025-01-05 06:07
v1                                        punch/size=2G/box                                      3       0           0            0  2025-01-02 03:04  2025-01-02 03:04
xfs/for-next                              punch/size=1G/box                                      2       0           1            1  2025-01-02 03:04  2025-01-02 03:04
EOT
expect_output "$T/want" "$KDELTA" ls --result-root "$R"
# Labels resolve as compare resolves them: '/', abbreviated hashes.
"$KDELTA" ls --result-root "$R" xfs/for-next 4381 >"$T/out" || fail "ls with labels failed"
[ "$(awk '{ print $1, $2, $3, $4, $5 }' "$T/out")" = 'label job ok failed incomplete
43819159da2b77fedcf7562134d6003dccd6a068 aim9/300s/lkp-wsx02/debian.cgz/x86_64-rhel/gcc-4.9 2 0 1
xfs/for-next punch/size=1G/box 2 0 1' ] || fail "ls LABEL...: $(cat "$T/out")"
KDELTA_RESULT_ROOT=$R "$KDELTA" ls v1 >"$T/out" || fail "ls with \$KDELTA_RESULT_ROOT failed"
[ "$(wc -l <"$T/out")" = 3 ] || fail "ls v1: $(cat "$T/out")"

expect_error 2 "kdelta ls: $R: no results for 'v2'; did you mean 'v1'?" \
	"$KDELTA" ls --result-root "$R" v2
expect_error 2 "kdelta ls: $T/none: no such result root; run jobs with 'kdelta run' first, or name another root with --result-root" \
	"$KDELTA" ls --result-root "$T/none"
mkdir "$T/empty"
expect_error 2 "kdelta ls: $T/empty: the result root holds no results; run jobs with 'kdelta run' first, or name another root with --result-root" \
	"$KDELTA" ls --result-root "$T/empty"
expect_error 2 "kdelta ls: unknown option '--frob'; see 'kdelta ls --help'" \
	"$KDELTA" ls --frob
expect_error 2 "kdelta ls: option '--result-root' needs a value; see 'kdelta ls --help'" \
	"$KDELTA" ls --result-root
"$KDELTA" ls --help | grep -q '^usage: kdelta ls \[--result-root DIR\] \[LABEL...\]$' ||
	fail "ls --help"
# Both default result roots, root's and another user's.
for cmd in ls index; do
	"$KDELTA" $cmd --help | grep -q '^                     ~/.local/share/kdelta/results)$' ||
		fail "$cmd --help gives no default result root for a user other than root"
done
"$KDELTA" --help | grep -q '^   ls  ' || fail "kdelta --help lists no ls"
"$KDELTA" --help | grep -q '^   index  ' || fail "kdelta --help lists no index"
"$KDELTA" index --help >"$T/index-help" || fail "index --help failed"
grep -q '^Builds the index of the result root (RESULT_ROOT/.kdelta/index) again$' "$T/index-help" ||
	fail "index --help does not name RESULT_ROOT/.kdelta/index"
! grep -q 'kdelta-index' "$T/index-help" || fail "index --help names .kdelta-index"
expect_error 2 "kdelta index: takes no arguments, got 'x'; see 'kdelta index --help'" \
	"$KDELTA" index x
finish
