#!/bin/bash
# The result root's index (RESULT_ROOT/.kdelta/index): lookups through it
# find what a walk of the whole root finds, whatever changed the tree and
# when; concurrent lookups and kill -9 leave it right; a damaged one is
# built again.
source "$TESTLIB"
export KDELTA_RESULT_ROOT="$T/default-root"
R=$T/r

# commit DIR VALUE: a commit directory with one complete run.
commit() {
	mkdir -p "$1/0"
	echo ok >"$1/0/complete"
	echo "{\"w.ops\": $2}" >"$1/0/stats.json"
}
for j in 1 2 3; do
	for c in 1 2 3 4 5 6 7 8; do
		commit "$R/t/p$j/box/c$c" "$c"
	done
done
# rows ROOT: the commit directories ls lists, label and job, sorted.
rows() { "$KDELTA" ls --result-root "$1" | awk 'NR > 1 { print $1, $2 }' | sort; }
# walked ROOT: the same, found by find(1): the directories above runs.
walked() {
	find "$1" -path "$1/.kdelta" -prune -o -name complete -printf '%h\n' |
		sed "s|^$1/||; s|/[0-9]*$||" | sort -u |
		awk '{ n = split($0, p, "/"); job = p[1]; for (i = 2; i < n; i++) job = job "/" p[i]; print p[n], job }' |
		sort
}
same_as_walk() {
	[ "$(rows "$R")" = "$(walked "$R")" ] || fail "$1: the index and a walk differ"
}

[ "$("$KDELTA" index --result-root "$R")" = "$R: 24 commit directories indexed" ] ||
	fail "kdelta index: $("$KDELTA" index --result-root "$R")"
[ -f "$R/.kdelta/index" ] || fail "no index"
[ "$(rows "$R" | wc -l)" = 24 ] || fail "ls: $(rows "$R")"
same_as_walk "built"

# A run started, its results not written yet: not a commit directory.
mkdir -p "$R/t/p1/box/c10/0"

# Stamps younger than the file system's timestamps can be trusted are read
# again; these are trusted (older than 3 s), and still see every change.
sleep 3.5
"$KDELTA" ls --result-root "$R" >/dev/null
commit "$R/t/p1/box/c9" 9			# a new commit, out of band
commit "$R/t/p4/box/c1" 1			# a new job
commit "$R/u/q/box/c1" 1			# a new testcase
rm -rf "$R/t/p2/box/c8"				# a commit removed
rm -rf "$R/t/p3"				# a job removed
mv "$R/t/p2/box/c7" "$R/t/p2/box/c17"		# renamed
"$KDELTA" compare --result-root "$R" --format csv c1 c9 >"$T/csv" ||
	fail "a commit added out of band is not found"
"$KDELTA" ls --result-root "$R" c7 c8 c17 >"$T/ls" || fail "ls c7 c8 c17"
[ "$(awk 'NR > 1 { print $1, $2 }' "$T/ls")" = 'c17 t/p2/box
c7 t/p1/box
c8 t/p1/box' ] || fail "after the changes: $(cat "$T/ls")"
[ "$(rows "$R" | wc -l)" = 18 ] || fail "after the changes: $(rows "$R")"
same_as_walk "after changes to trusted directories"

# A run's first results make a commit directory of a directory seen before
# they were there (only its run directory changed).
rows "$R" | grep -q '^c10 ' && fail "a run without results makes a commit directory"
commit "$R/t/p1/box/c10" 10
rows "$R" | grep -qx 'c10 t/p1/box' || fail "a run that finished later is not found"
same_as_walk "a run finished"

# Damaged: built again.
echo 'not a database' >"$R/.kdelta/index"
same_as_walk "damaged index"

# kill -9 while it is built: the index is as before or complete.
mkdir -p "$R/big/p/box/c"{100..499}/0
for c in {100..499}; do
	echo ok >"$R/big/p/box/c$c/0/complete"
done
"$KDELTA" index --result-root "$R" >/dev/null &
pid=$!
sleep 0.1
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
same_as_walk "after kill -9"

# Concurrent lookups while commits appear: each one right, all of them.
for i in 1 2 3 4; do
	( for c in 1 2 3; do commit "$R/t/p$i/box/n$i-$c" "$c"; rows "$R" >/dev/null || exit 1; done ) &
done
ok=0
for job in $(jobs -p); do
	wait "$job" && ok=$((ok + 1))
done
[ "$ok" = 4 ] || fail "concurrent lookups failed"
[ "$(rows "$R" | grep -c ' t/p[1-4]/box$')" = "$((10 + 7 + 1 + 12))" ] ||
	fail "concurrent: $(rows "$R" | grep ' t/p[1-4]/box$')"
same_as_walk "concurrent updates"

# kdelta run brings the index up to date itself, after each run.
cat >"$T/job.yaml" <<'EOT'
testcase: idx
monitors: {}
exec:
  cmd: 'echo "v: 1"'
EOT
"$KDELTA" run "$T/job.yaml" --commit fresh --runs 1 --result-root "$R" \
	--work-dir "$T/w" 2>"$T/stderr" || fail "run: $(cat "$T/stderr")"
python3 - "$R/.kdelta/index" <<'EOT' || fail "kdelta run did not update the index"
import sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute(
    "SELECT rel FROM dirs WHERE label = 'fresh'").fetchall()
sys.exit(0 if len(rows) == 1 and rows[0][0].startswith('idx/') else 1)
EOT
finish
