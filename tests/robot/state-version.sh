#!/bin/bash
# A robot state written by a newer kdelta (a state version this one does
# not know) is refused, by a pass and by --status, and left as it is.
# Before, it was silently marked as this kdelta's version.
source "$TESTLIB"
source "$SRCDIR/tests/robot/small.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
small_robot robot-state "$T/repo/bench"
db=$T/results/.kdelta/robot.db
mkdir -p "$T/results/.kdelta"
python3 -c '
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("CREATE TABLE future (x TEXT)")
c.execute("PRAGMA user_version = 99")
c.commit()
' "$db" || fail "cannot write the state of a newer kdelta"
msg="kdelta robot: $db: written by a newer kdelta (state version 99; this one knows up to [0-9]*): left as it is"
for option in --once --status; do
	"$KDELTA" robot "$option" "$T/robot.yaml" >"$T/out" 2>"$T/err"
	status=$?
	[ "$status" = 1 ] || fail "$option: exit status $status, want 1: $(cat "$T/err")"
	grep -qx "$msg" "$T/err" || fail "$option: $(cat "$T/err")"
	version=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA user_version").fetchone()[0])' "$db")
	[ "$version" = 99 ] || fail "$option: the state's version is now $version"
done
[ -e "$T/repo/bench" ] && fail "a refused robot built"
finish
