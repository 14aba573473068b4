#!/bin/bash
# Labels as people type them: with a '/' (a branch), abbreviated hashes as
# mails print them, and git revisions (--repo); ambiguity is an error that
# lists the candidates.
source "$TESTLIB"
source "$SRCDIR/tests/compare/store.sh"
export KDELTA_RESULT_ROOT="$T/default-root"

# A label with '/': stored under a name of its own, found under the name
# given, shown as given; {commit} is the label itself.
cat >"$T/job.yaml" <<'EOT'
testcase: lbl
monitors: {}
exec:
  cmd: 'echo "v: 1"'
EOT
R=$T/r
"$KDELTA" run "$T/job.yaml" --commits xfs/for-next,xfs_for-next --runs 3 \
	--result-root "$R" --work-dir "$T/w" \
	--setup "echo {commit} >>'$T/setup'" 2>"$T/stderr" ||
	fail "run with a '/' label: $(cat "$T/stderr")"
[ -d "$R/lbl/cmd-"*"/"*"/xfs%2Ffor-next" ] || fail "xfs/for-next not stored as xfs%2Ffor-next: $(find "$R" -maxdepth 4)"
[ "$(sort -u "$T/setup")" = 'xfs/for-next
xfs_for-next' ] || fail "{commit}: $(sort -u "$T/setup")"
"$KDELTA" compare --result-root "$R" --format csv xfs/for-next xfs_for-next >"$T/csv" ||
	fail "compare xfs/for-next: $(cat "$T/csv")"
[ "$(cut -d, -f4 "$T/csv" | sed -n 2,3p)" = 'xfs/for-next
xfs_for-next' ] || fail "labels as shown: $(cut -d, -f4 "$T/csv")"
# A path needs a './' (or must exist): this one does not exist.
expect_error 2 "kdelta compare: ./xfs/for-next: no such file or directory" \
	"$KDELTA" compare --result-root "$R" ./xfs/for-next "$R/lbl"

# Abbreviated hashes resolve to the one stored label they begin.
R2=$T/r2
h1=32b88194f71d6ae7768a29f87fbba454728273ee
h2=43819159da2b77fedcf7562134d6003dccd6a068
h3=43819159ff000000000000000000000000000000
for c in $h1 $h2 $h3; do
	store_commit "$R2/t/p/box/$c" 'testcase: t' w.ops=1,2,3
done
cmp2() { "$KDELTA" compare --result-root "$R2" --format csv "$@" | cut -d, -f4 | sed -n '2,$p' | sort -u; }
[ "$(cmp2 32b8 43819159da2b)" = "$h1
$h2" ] || fail "short hashes: $(cmp2 32b8 43819159da2b)"
expect_error 2 "kdelta compare: $R2: '4381' is ambiguous: it abbreviates '$h2', '$h3'" \
	"$KDELTA" compare --result-root "$R2" 32b8 4381
expect_error 2 "kdelta compare: $R2: no results for '32b9'; see the commit directories below the result root" \
	"$KDELTA" compare --result-root "$R2" 32b9 4381

# Revisions, with --repo: the commit git names, stored under its full
# hash or an abbreviation of it (as --commits $(git rev-parse --short) does).
command -v git >/dev/null || { finish; }
G=$T/repo
git init -q -b main "$G" || fail "git init"
for i in 1 2 3; do
	git -C "$G" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "commit $i"
done
R3=$T/r3
store_commit "$R3/t/p/box/$(git -C "$G" rev-parse main~2)" 'testcase: t' w.ops=1,2,3
store_commit "$R3/t/p/box/$(git -C "$G" rev-parse --short=7 main~1)" 'testcase: t' w.ops=4,5,6
cmp3() { "$KDELTA" compare --result-root "$R3" --format csv "$@" | cut -d, -f4,6 | sed -n '2,$p'; }
[ "$(cmp3 --repo "$G" main~2 main~1)" = "$(git -C "$G" rev-parse main~2),2
$(git -C "$G" rev-parse --short=7 main~1),5" ] || fail "revisions: $(cmp3 --repo "$G" main~2 main~1)"
expect_error 2 "kdelta compare: $R3: no results for 'main~2'; name the git repository with --repo to find the commit a revision names" \
	"$KDELTA" compare --result-root "$R3" main~2 main~1
expect_error 2 "kdelta compare: $R3: no results for 'main'; see the commit directories below the result root" \
	"$KDELTA" compare --result-root "$R3" --repo "$G" main~2 main
store_commit "$R3/t/p/box/$(git -C "$G" rev-parse --short=9 main~1)" 'testcase: t' w.ops=4,5,6
expect_error 2 "kdelta compare: $R3: 'main~1' is ambiguous: it is commit $(git -C "$G" rev-parse --short=12 main~1), stored as '$(git -C "$G" rev-parse --short=9 main~1)', '$(git -C "$G" rev-parse --short=7 main~1)'" \
	"$KDELTA" compare --result-root "$R3" --repo "$G" main~2 main~1
finish
