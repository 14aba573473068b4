#!/bin/bash
# Nothing changes anywhere in the fixture: bisect says "not reproducible"
# with the table of good against bad, exits with status 3, and leaves the
# repository as it found it, here on a detached HEAD.
source "$TESTLIB"
source "$SRCDIR/tests/bisect/common.sh"

make_fixture
git -C "$REPO" checkout -q --detach main~2
# bench varies by about 1% between runs, by several percent under ASan
# beside other work: the tests' floor of $MIN_CHANGE% (common.sh) keeps
# noise out.  (At 5%, an uneven few percent between good and bad could
# be taken for a change now and then, and bisected.)
bisect --good main~19 --bad main --runs 3 --max-runs 4
# Shown the same: 3, "not reproducible"; noise that leaves it undecided at
# --max-runs: 6, "undecided" (not "do not differ").
if grep -q ' → the same: not reproducible$' "$T/err"; then
	[ "$status" = 3 ] || fail "exit status $status, want 3: $(cat "$T/err")"
	expect_line "$T/out" "not reproducible: exec.ops_per_sec does not differ significantly between --good main~19 and --bad main"
else
	[ "$status" = 6 ] || fail "exit status $status, want 6 (undecided): $(cat "$T/err")"
	grep -q '^undecided: exec.ops_per_sec is neither shown to differ between --good main~19 and --bad main nor shown the same' "$T/out" ||
		fail "no undecided line: $(cat "$T/out")"
fi
expect_line "$T/out" "  ${H[0]:0:12} (\"commit 0: patch level 0\")"
expect_line "$T/out" "  ${H[19]:0:12} (\"commit 19: patch level 19\")"
# (In parentheses: same, small or undecided; under ASan beside other
# work the noise may reach 10%.)
grep -Eq '^ +[0-9]+( +±[ 0-9]+%)? +\( *[-+][0-9]{1,2}\.[0-9]%\) +[0-9]+( +±[ 0-9]+%)? +exec\.ops_per_sec$' "$T/out" ||
	fail "no unchanged exec.ops_per_sec row in the table: $(cat "$T/out")"
# Shown the same (within $MIN_CHANGE%) at the first look, after 3 rounds, or
# undecided at --max-runs.  The line counts the rounds compared: a round
# with a run that failed, or disturbed unevenly, is not one of them, and
# never more than --max-runs ran.
rounds=$(sed -n "s/^bisect: good ${H[0]:0:12}, bad ${H[19]:0:12}: \([0-4]\) rounds, .*exec\.ops_per_sec .* → \(the same: not reproducible\|undecided at --max-runs\)$/\1/p" "$T/err")
[ -n "$rounds" ] || fail "no line saying good and bad do not differ after 3 or 4 rounds: $(cat "$T/err")"
grep -q '^bisect: testing' "$T/err" && fail "bisected although good and bad do not differ"
n_good=$rounds n_bad=$rounds
stored() { run_counts | sed -n "s/^$1 //p"; }
[ "$(run_counts | wc -l)" = 2 ] &&
	[ "$(stored "${H[0]}")" -ge "$n_good" ] && [ "$(stored "${H[0]}")" -le 4 ] &&
	[ "$(stored "${H[19]}")" -ge "$n_bad" ] && [ "$(stored "${H[19]}")" -le 4 ] ||
	fail "runs stored: $(run_counts), want at least $n_good of good and $n_bad of bad, at most 4 each, no other commit"
expect_restored "${H[17]}"
finish
