#!/bin/bash
# A commit that does not build is skipped.  Far from the slow commit, the
# first bad commit is still found; right before it, git bisect can only
# name the range, which bisect prints with exit status 1.
source "$TESTLIB"
source "$SRCDIR/tests/bisect/common.sh"

# Commit 9 is the first one git bisect proposes, and it does not compile.
make_fixture --slow-at 13 --broken-at 9
bisect --good main~19 --bad main --runs 3 --max-runs 12
[ "$status" = 0 ] || fail "exit status $status, want 0: $(cat "$T/err")"
grep -Eq "^bisect: testing ${H[9]:0:12} \([0-9]+ steps? left\): build failed \(exited with status 1: .*error.*\) → skip$" "$T/err" ||
	fail "commit 9 not skipped for its failed build: $(cat "$T/err")"
expect_line "$T/out" "first bad commit: ${H[13]} (\"commit 13: bench: do 100% more work per operation\")"
expect_line "$T/out" "git bisect skip ${H[9]}"
[ -e "$WORK/build-${H[9]:0:12}.log" ] || fail "no build log of commit 9 in $WORK"
# Nothing of the failed build is in the store.
[ ! -e "$RESULTS/bisect-fixture/"*/*/"${H[9]}" ] || fail "commit 9 has runs in the store"
expect_restored

# Commit 12, the parent of the slow one, does not compile.
rm -rf "$REPO" "$RESULTS"
make_fixture --slow-at 13 --broken-at 12
bisect --good main~19 --bad main --runs 3 --max-runs 12
[ "$status" = 1 ] || fail "exit status $status, want 1: $(cat "$T/err")"
expect_line "$T/out" "first bad commit: undecided: one of these 2, which could not all be tested or decided:"
expect_line "$T/out" "  ${H[12]} (\"commit 12: bench: a change that does not compile\")"
expect_line "$T/out" "  ${H[13]} (\"commit 13: bench: do 100% more work per operation\")"
expect_line "$T/out" "git bisect skip ${H[12]}"
expect_restored
finish
