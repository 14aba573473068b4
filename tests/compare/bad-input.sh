#!/bin/bash
# Bad input: one line naming the file and the problem, status 2, no crash.
source "$TESTLIB"
source "$SRCDIR/tests/compare/store.sh"
R=$T/results
C=$R/punch/size=1G/box
store_commit "$C/v1" 'testcase: punch' punch.usecs=1,2,3 meminfo.Dirty=4,5,6
store_commit "$C/v2" 'testcase: punch' punch.usecs=1,2,3 meminfo.Dirty=4,5,6
cmp_() { "$KDELTA" compare --result-root "$R" "$@"; }

# bad_matrix TEXT: v2's matrix.json.gz holds TEXT.
bad_matrix() { printf '%s' "$1" | gzip -n >"$C/v2/matrix.json.gz"; }
M=$C/v2/matrix.json.gz

bad_matrix '{"punch.usecs": [1, 2, 3'
expect_error 2 "kdelta compare: $M: invalid JSON at line 1, column 25: expected ',' or ']', got the end of the input" cmp_ v1 v2
bad_matrix '{"punch.usecs": [1, "fast", 3]}'
expect_error 2 "kdelta compare: $M: metric 'punch.usecs', run 1: expected a number, got a string" cmp_ v1 v2
bad_matrix '{"punch.usecs": [1, NaN, 3]}'
expect_error 2 "kdelta compare: $M: invalid JSON at line 1, column 21: expected a number, got 'N'" cmp_ v1 v2
bad_matrix '{"punch.usecs": [1, 1e999, 3]}'
expect_error 2 "kdelta compare: $M: invalid JSON at line 1, column 21: number out of range: 1e999" cmp_ v1 v2
bad_matrix '{"punch.usecs": [1, 2, 3], "stats_source": ["0", "1"]}'
expect_error 2 "kdelta compare: $M: ragged matrix: 'punch.usecs' has 3 values, 'stats_source' has 2" cmp_ v1 v2
# A truncated gzip stream.
printf '{"punch.usecs": [1, 2, 3], "meminfo.Dirty": [4, 5, 6]}' | gzip -n |
	head -c 30 >"$M"
expect_error 2 "kdelta compare: $M: corrupt or truncated gzip data" cmp_ v1 v2

# Files that are not what their names say: refused at once, not read.
rm "$M"
mkfifo "$M"
expect_error 2 "kdelta compare: $M: not a regular file" cmp_ v1 v2
rm "$M"
ln -s /dev/zero "$M"
expect_error 2 "kdelta compare: $M: not a regular file" cmp_ v1 v2
rm "$M"
ln -sf /dev/zero "$C/v1/0/job.yaml"
expect_error 2 "kdelta compare: $C/v1/0/job.yaml: not a regular file" cmp_ v1 v2
rm "$C/v1/0/job.yaml"
echo 'testcase: punch' >"$C/v1/0/job.yaml"
# A completion mark that is not "ok" is a failed run, not a counted one.
printf 'ok\0junk\n' >"$C/v2/1/complete"
cmp_ v1 v2 >"$T/out" 2>&1 || fail "a malformed completion mark: status $?"
grep -qE '^ +:3 +[0-9]+% +1:3 +runs.failed$' "$T/out" ||
	fail "a malformed completion mark is not a failed run: $(cat "$T/out")"
echo ok >"$C/v2/1/complete"

# Without a matrix, the runs' stats.json are read.
rm "$M"
echo '{"punch.usecs": "slow"}' >"$C/v2/1/stats.json"
expect_error 2 "kdelta compare: $C/v2/1/stats.json: metric 'punch.usecs', run 1: expected a number, got a string" cmp_ v1 v2
echo '{"punch.usecs": 2' >"$C/v2/1/stats.json"
expect_error 2 "kdelta compare: $C/v2/1/stats.json: invalid JSON at line 2, column 1: expected ',' or '}', got the end of the input" cmp_ v1 v2
echo '{"punch.usecs": 2}' >"$C/v2/1/stats.json"
printf 'testcase: [punch\n' >"$C/v1/0/job.yaml"
expect_error 2 "kdelta compare: $C/v1/0/job.yaml:2:1: YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 11)" cmp_ v1 v2
echo 'testcase: punch' >"$C/v1/0/job.yaml"
cmp_ v1 v2 >/dev/null || fail "stats.json without a matrix: status $?"

# Labels.
expect_error 2 "kdelta compare: $R: no results for 'v3'; did you mean 'v1'?" cmp_ v1 v3
expect_error 2 "kdelta compare: $R: no results for 'master'; see the commit directories below the result root" cmp_ v1 master
# Messages are one line, whatever a label holds.
expect_error 2 "kdelta compare: $R: no results for 'v1 x'; did you mean 'v1'?" cmp_ $'v1\nx' v2
expect_error 2 "kdelta compare: $R: no results for 'v [2J'; see the commit directories below the result root" cmp_ $'v\e[2J' v2
store_commit "$R/truncate/size=1G/box/v3" 'testcase: truncate' truncate.usecs=1,2,3
expect_error 2 "kdelta compare: $R: no directory holds results of all of 'v1', 'v3'; they were run with different jobs or hosts" cmp_ v1 v3
expect_error 2 "kdelta compare: needs a base and at least one variant to compare with it; see 'kdelta compare --help'" cmp_ v1
expect_error 2 "kdelta compare: give either commit labels or paths (beginning with '/', './' or '../'), not both" cmp_ v1 "$C/v2"
expect_error 2 "kdelta compare: $T/nothing/v2: no such file or directory" cmp_ "$C/v1" "$T/nothing/v2"

# Result roots.
expect_error 2 "kdelta compare: $T/none: no such result root; run jobs with 'kdelta run' first, or name another root with --result-root" \
	"$KDELTA" compare --result-root "$T/none" v1 v2
mkdir "$T/empty"
expect_error 2 "kdelta compare: $T/empty: the result root holds no results; run jobs with 'kdelta run' first, or name another root with --result-root" \
	"$KDELTA" compare --result-root "$T/empty" v1 v2
KDELTA_RESULT_ROOT=$T/empty expect_error 2 "kdelta compare: $T/empty: the result root holds no results; run jobs with 'kdelta run' first, or name another root with --result-root" \
	"$KDELTA" compare v1 v2

# Options.
expect_error 2 "kdelta compare: --test: expected welch, mwu or lkp, got 'student'" cmp_ --test student v1 v2
expect_error 2 "kdelta compare: --format: expected lkp, mmtests, json or csv, got 'xml'" cmp_ --format=xml v1 v2
expect_error 2 "kdelta compare: --fdr: expected a number from 0 to 0.5, got '5%'" cmp_ --fdr 5% v1 v2
expect_error 2 "kdelta compare: --min-change: expected at least 0, got '-1'" cmp_ --min-change -1 v1 v2
expect_error 2 "kdelta compare: --min-change: expected at most 1000000, got '2000000'" cmp_ --min-change 2000000 v1 v2
expect_error 2 "kdelta compare: unknown option '--frob'; see 'kdelta compare --help'" cmp_ --frob v1 v2
expect_error 2 "kdelta compare: option '--all' takes no value; see 'kdelta compare --help'" cmp_ --all=yes v1 v2
expect_error 2 "kdelta compare: option '--explain' needs a value; see 'kdelta compare --help'" cmp_ v1 v2 --explain
expect_error 2 "kdelta compare: --commit goes with --axis; without it, name the commits as arguments" cmp_ --commit v1 v1 v2
expect_error 2 "kdelta compare: --explain: no metric 'punch.usec' in these results; did you mean 'punch.usecs'?" cmp_ --explain punch.usec v1 v2
expect_error 2 "kdelta compare: --summary: no metric 'nothing.at.all' in these results" cmp_ --summary nothing.at.all v1 v2
expect_error 2 "kdelta compare: $T/none: no such directory (--repo)" cmp_ --repo "$T/none" v1 v2
finish
