#!/bin/bash
# scripts/lkp-oracle/agree.py, which judges scripts/lkp-oracle.sh's runs of
# kdelta against lkp-tests, stays honest: it passes what agrees and what
# kdelta(1) documents as on purpose (and only when it can see it is that),
# and fails on a real disagreement.  Its inputs written here by hand, in
# the form lkp-oracle.sh gives it (lkp-tests' rows: a 16-wide base, then a
# change of 12 and a 16-wide mean per later column).
source "$TESTLIB"
command -v python3 >/dev/null || skip "no python3"
agree=$SRCDIR/scripts/lkp-oracle/agree.py
cd "$T" || exit 1

# dir NAME: two 3-column comparisons' matrices, lkp-tests' changed sets
# (m.a in column 1) and kdelta's CSV (m.a changed in column 1).
dir() {
	mkdir "$1"
	for i in 0 1 2; do
		printf '{"m.a": [1, 2, 3], "m.b": [4, 5, 6], "stats_source": ["x", "y", "z"]}' >"$1/$i.json"
	done
	printf '1\tm.a\n' >"$1/lkp.keys"
	{
		echo group,metric,variant,verdict
		echo g,m.a,v0,base
		echo g,m.a,v1,changed
		echo g,m.a,v2,same
		echo g,m.b,v0,base
		echo g,m.b,v1,same
		echo g,m.b,v2,same
	} >"$1/kdelta.csv"
	printf '%16s%11s %16s%11s %16s  m.a\n' 2.00 +50.0% 3.00 +0.0% 2.00 >"$1/lkp.table"
	printf '%16s%11s %16s%12s%16s  m.a\n' 2.00 +50.0% 3.00 '(+0.0%)' 2.00 >"$1/kdelta.table"
}

dir same
python3 "$agree" same >out || fail "agreeing outputs: $(cat out)"
grep -q '^rows both print: 0 of 1 identical; on purpose (kdelta(1), LKP COMPATIBILITY) 1 differ only in the parentheses' out ||
	fail "the parenthesised quiet change: $(cat out)"

# A changed set that differs.
dir sets
sed -i 's/^g,m.a,v1,changed$/g,m.a,v1,same/' sets/kdelta.csv
python3 "$agree" sets >out && fail "a changed set differs, yet: $(cat out)"
grep -q "^sets: column 1: changed sets differ: lkp-tests only \['m.a'\], kdelta only \[\]$" out ||
	fail "the changed set's difference: $(cat out)"
# Each stat of each column is a decision: 2 stats x 2 columns, 1 disagrees.
grep -q '^stat x column decisions: 3 of 4 agree (75.00%), 0 differ on purpose (above), 1 disagree$' out ||
	fail "the decisions' count: $(cat out)"

# Parentheses around a change lkp-tests calls changed.
dir paren
printf '1\tm.a\n2\tm.a\n' >paren/lkp.keys
sed -i 's/^g,m.a,v2,same$/g,m.a,v2,changed/' paren/kdelta.csv
python3 "$agree" paren >out && fail "a changed change in parentheses, yet: $(cat out)"
grep -q '^paren: row differs:' out || fail "the row: $(cat out)"

# A number that differs.
dir number
sed -i 's/ 3.00/ 3.01/' number/kdelta.table
python3 "$agree" number >out && fail "a mean differs, yet: $(cat out)"
grep -q '^number: row differs:' out || fail "the mean: $(cat out)"

# A later column of a base with incomplete runs: excused only when kdelta
# agrees with lkp-tests' comparison of the two alone.
dir stripped
printf '{"m.a": [1, 2, 3], "m.b": [4, 5, 6], "dmesg.x": [0, 0, 1], "last_state.is_incomplete_run": [0, 0, 1], "stats_source": ["x", "y", "z"]}' >stripped/0.json
printf 'g,dmesg.x,v0,base\ng,dmesg.x,v1,same\ng,dmesg.x,v2,changed\n' >>stripped/kdelta.csv
: >stripped/lkp.pair2.keys
python3 "$agree" stripped >out && fail "not lkp-tests' pair, yet: $(cat out)"
printf '1\tdmesg.x\n' >stripped/lkp.pair2.keys
python3 "$agree" stripped >out ||
	fail "lkp-tests' pair: $(cat out)"
grep -q ' 1 where it compares a later column with the base stripped' out ||
	fail "the stripped base's count: $(cat out)"
grep -q '^stat x column decisions: 7 of 8 agree (87.50%), 1 differ on purpose (above), 0 disagree$' out ||
	fail "the stripped base's decisions: $(cat out)"
# The last digit of a value a few ulps from a rounding tie, where Ruby's
# rounding and kdelta's model of it part: excused only there.
mkdir tie
printf '{"m.a%%": [1.5, 1.5, 1.5], "stats_source": ["x", "y", "z"]}' >tie/0.json
printf '{"m.a%%": [1.35, 1.35, 1.35], "stats_source": ["x", "y", "z"]}' >tie/1.json
printf '1\tm.a%%\n' >tie/lkp.keys
printf 'group,metric,variant,verdict\ng,m.a%%,v0,base\ng,m.a%%,v1,changed\n' >tie/kdelta.csv
printf '%16s%11s %16s  m.a%%\n' 1.50 '-0.1 ' 1.35 >tie/lkp.table
printf '%16s%11s %16s  m.a%%\n' 1.50 '-0.2 ' 1.35 >tie/kdelta.table
python3 "$agree" tie >out || fail "a near tie: $(cat out)"
grep -q ', 1 in the last digit of a value within 1e-12 of a rounding tie$' out ||
	fail "the near tie's count: $(cat out)"
printf '%16s%11s %16s  m.a%%\n' 1.50 '-0.3 ' 1.35 >tie/kdelta.table
python3 "$agree" tie >out && fail "two units off, yet: $(cat out)"

# A parenthesised change given with one digit fewer to fit.
dir narrow
printf '%16s%11s %16s%11s %16s  m.a\n' 2.00 +50.0% 3.00 +5.5e+102% 2.00 >narrow/lkp.table
printf '%16s%11s %16s%12s%16s  m.a\n' 2.00 +50.0% 3.00 '(+6e+102%)' 2.00 >narrow/kdelta.table
python3 "$agree" narrow >out || fail "a narrowed change: $(cat out)"
printf '%16s%11s %16s%12s%16s  m.a\n' 2.00 +50.0% 3.00 '(+7e+102%)' 2.00 >narrow/kdelta.table
python3 "$agree" narrow >out && fail "another change, yet: $(cat out)"
finish
