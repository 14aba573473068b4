#!/bin/bash
# Nothing under a result root leads kdelta outside it (kdelta(1), THE
# STORE): an index (RESULT_ROOT/.kdelta/index) that names a directory
# outside the root, with "..", or through a symbolic link, makes neither
# ls nor compare read there, nor write a matrix there.  Before, both read
# the outside directory as a commit of the root, and compare wrote its
# matrix there.
source "$TESTLIB"
export KDELTA_RESULT_ROOT="$T/default-root"
command -v python3 >/dev/null || skip "python3 is not installed"
R=$T/r

# commit DIR VALUE...: a commit directory with a complete run per value.
commit() {
	local dir=$1 i=0 v
	shift
	for v in "$@"; do
		mkdir -p "$dir/$i"
		echo ok >"$dir/$i/complete"
		echo "{\"w.ops\": $v}" >"$dir/$i/stats.json"
		i=$((i + 1))
	done
}
commit "$R/t/p/box/base" 10 11 12
commit "$R/t/p/box/head" 10 11 12
# The outside: a commit directory without a matrix, which compare writes.
commit "$T/outside/t/p/box/head" 90 91 92
# Stamps older than 3 s are trusted (compare-index): the index is read as
# it is, not again from the tree.
sleep 3.5
"$KDELTA" index --result-root "$R" >/dev/null || fail "kdelta index"

# sql STATEMENT: run on the index, as a hostile tree's index would hold it.
sql() {
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()' \
		"$R/.kdelta/index" "$1" || fail "cannot change the index: $1"
}
outside_untouched() {
	[ -e "$T/outside/t/p/box/head/matrix.json.gz" ] &&
		fail "$1: a matrix written outside the root"
	rm -f "$T/outside/t/p/box/head/matrix.json.gz"
}

# 1. A commit directory of the index named with "..".
sql "UPDATE dirs SET rel = '../outside/t/p/box/head' WHERE label = 'head'"
msg="$R/.kdelta/index names '../outside/t/p/box/head', which is not a directory below the result root; 'kdelta index' builds it again"
expect_error 2 "kdelta compare: $msg" "$KDELTA" compare --result-root "$R" base head
outside_untouched "compare"
expect_error 2 "kdelta ls: $msg" "$KDELTA" ls --result-root "$R"
"$KDELTA" index --result-root "$R" >/dev/null || fail "kdelta index after '..'"
"$KDELTA" ls --result-root "$R" >"$T/ls" || fail "ls after kdelta index: $(cat "$T/ls")"
grep -q outside "$T/ls" && fail "ls lists the outside: $(cat "$T/ls")"

# 2. A directory above the commit directories named with "..": the index
# is built again without a word, from the tree.
sql "UPDATE dirs SET rel = '../outside/t' WHERE rel = 't'"
"$KDELTA" compare --result-root "$R" --format csv base head >"$T/csv" 2>"$T/err" ||
	fail "an index with '..' above: $(cat "$T/err")"
grep -q ',9[0-2]' "$T/csv" && fail "compare read the outside: $(cat "$T/csv")"
outside_untouched "compare, '..' above"

# 3. A symbolic link in the tree, to the outside, and an index whose
# stamps agree with it (as a hostile tree's would).
mv "$R/t/p/box/head" "$T/head.real"
ln -s "$T/outside/t/p/box/head" "$R/t/p/box/head"
python3 - "$R/.kdelta/index" "$R" <<'PY' || fail "cannot change the index's stamps"
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for rel, in c.execute("SELECT rel FROM dirs WHERE label IS NULL").fetchall():
    st = os.lstat(os.path.join(sys.argv[2], rel))
    c.execute("UPDATE dirs SET ino = ?, mtime = ?, ctime = ? WHERE rel = ?",
              (st.st_ino, st.st_mtime_ns, st.st_ctime_ns, rel))
c.commit()
PY
"$KDELTA" compare --result-root "$R" --format csv base head >"$T/csv" 2>"$T/err"
grep -q ',9[0-2]' "$T/csv" && fail "compare read through the link: $(cat "$T/csv")"
outside_untouched "compare, a link"
"$KDELTA" ls --result-root "$R" >"$T/ls" 2>&1
grep -q '^head ' "$T/ls" && fail "ls lists the commit behind the link: $(cat "$T/ls")"
finish
