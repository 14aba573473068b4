#!/bin/bash
# An interrupted bisect resumes without measuring again what it measured:
# SIGINT puts the repository back at once; after SIGKILL, the next bisect
# resets what the killed one left.  Every commit already classified gets
# no new runs, and good and bad are not measured again to show they differ:
# the looks are made again from the stored rounds, to the same verdicts.
source "$TESTLIB"
source "$SRCDIR/tests/bisect/common.sh"

# decided_counts FILE: the run counts of the commits FILE says were
# classified.  (Good and bad may get more runs when a commit needs them.)
decided_counts() {
	local c

	for c in $(sed -n 's/^bisect: testing \([0-9a-f]*\) .*→ \(good\|bad\)$/\1/p' "$1"); do
		run_counts | grep "^$c"
	done | sort
}

make_fixture --slow-at 13
args=(--repo "$REPO" --build "$BUILD" --install "$INSTALL" --min-change "$MIN_CHANGE"
      --result-root "$RESULTS" --work-dir "$WORK" --good main~19 --bad main
      --runs 3 --max-runs 12 "$JOB")

# 1. SIGINT after two classified commits.
"$KDELTA" bisect "${args[@]}" >"$T/out1" 2>"$T/err1" &
pid=$!
wait_line "$T/err1" '^bisect: testing .*→ (good|bad)$' "$pid" &&
	until [ "$(grep -c '^bisect: testing' "$T/err1")" -ge 2 ]; do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
kill -INT "$pid"
wait "$pid"
status=$?
[ "$status" = 130 ] || fail "after SIGINT: exit status $status, want 130: $(cat "$T/err1")"
expect_line "$T/err1" "kdelta bisect: stopped by SIGINT; the repository is back where it was, and the runs so far count when bisecting again"
expect_restored
decided1=$(decided_counts "$T/err1")
differ=$(grep -m 1 '^bisect: good ' "$T/err1")

# 2. Resumed, then SIGKILL once it measures something new.
"$KDELTA" bisect "${args[@]}" >"$T/out2" 2>"$T/err2" &
pid=$!
wait_line "$T/err2" '^bisect: testing .*\([1-9][0-9]* new\)' "$pid" ||
	fail "the resumed bisect measured nothing new: $(cat "$T/err2")"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
git_dir=$(git -C "$REPO" rev-parse --absolute-git-dir)
[ -e "$git_dir/KDELTA_BISECT" ] || fail "no bisect marker left by the killed bisect"
while read -r line; do
	grep -qxF -- "$line" <(decided_counts "$T/err2") ||
		fail "measured again after SIGINT: $line became $(run_counts | grep "^${line%% *}")"
done <<<"$decided1"
grep -q "(0 new)" "$T/err2" || fail "the resumed bisect reused no stored runs: $(cat "$T/err2")"
[ "$(grep -m 1 '^bisect: good ' "$T/err2")" = "$differ" ] ||
	fail "good and bad measured again: '$(grep -m 1 '^bisect: good ' "$T/err2")', before: '$differ'"
# The parent of the first bad commit gets runs beside good's when the
# search looks for an earlier change: not a classification measured again.
decided2=$(decided_counts "$T/err2" | grep -v "^${H[12]} ")

# A kill -9 while git made a build cache's work tree leaves it missing
# but locked: the next bisect makes it again (it skipped the commit as
# one that does not build).  The killed bisect may have made that work
# tree itself, whole: then it is taken away first.
git -C "$REPO" worktree remove -f -f "$WORK/builds/${H[13]}" 2>/dev/null
rm -rf "$WORK/builds/${H[13]}"
git -C "$REPO" worktree prune
git -C "$REPO" worktree add -q --detach "$WORK/builds/${H[13]}" "${H[13]}" &&
	git -C "$REPO" worktree lock "$WORK/builds/${H[13]}" &&
	rm -rf "$WORK/builds/${H[13]}" || fail "cannot lock a work tree"

# 3. The next bisect resets the killed one's and finishes.
"$KDELTA" bisect "${args[@]}" >"$T/out3" 2>"$T/err3"
status=$?
[ "$status" = 0 ] || fail "final bisect: exit status $status, want 0: $(cat "$T/err3")"
expect_line "$T/err3" "bisect: an interrupted kdelta bisect was left in $REPO; resetting it"
expect_line "$T/out3" "first bad commit: ${H[13]} (\"commit 13: bench: do 100% more work per operation\")"
while read -r line; do
	grep -qxF -- "$line" <(run_counts) ||
		fail "measured again after SIGKILL: $line became $(run_counts | grep "^${line%% *}")"
done <<<"$decided2"
expect_restored
finish
