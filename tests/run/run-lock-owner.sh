#!/bin/bash
# The machine's run lock cannot be held by another user (kdelta(1), the run
# lock): the lock file is root's and private (mode 0600), so that nobody
# else can open it, let alone lock it; a lock file another may open (an
# older kdelta made them 0644) is replaced, so that a lock taken through a
# descriptor opened before counts for nothing; a lock file in a directory
# another user may write is refused (status 2), since they could put a
# file of theirs in its place.
. "$TESTLIB"
[ "$(id -u)" = 0 ] || skip "not root: the test plays another user against root"
# The system's python3: another user may not reach root's own (pyenv).
[ -x /usr/bin/python3 ] || skip "/usr/bin/python3 is not installed"
command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
id nobody >/dev/null 2>&1 || skip "no user 'nobody' to play another user"

cat >"$T/quick.yaml" <<'EOF'
testcase: quick
monitors: []
exec:
  cmd: "echo x: 1"
EOF
# kdelta run --no-wait with the lock file $1.
run_no_wait() {
	KDELTA_RUN_LOCK=$1 "$KDELTA" run "$T/quick.yaml" --commit c --runs 1 \
		--result-root "$T/r" --work-dir "$T/w" --no-wait
}
# as_nobody ARGS...: python3 ARGS as uid nobody.
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/bin/python3 "$@"
}

# Another user may reach the lock's directory, as anybody may reach /run.
chmod 0711 "$T"
mkdir -m 0755 "$T/run"
lock=$T/run/run.lock

# A lock file as an older kdelta left it, and another user who opened it
# then and holds a read lock through it until told.
(umask 022 && echo "kdelta run (an older one)" >"$lock")
chmod 0644 "$lock"
as_nobody -c '
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.lockf(fd, fcntl.LOCK_SH)
open(sys.argv[2], "w").write("held")
while not os.path.exists(sys.argv[3]):
    time.sleep(0.1)
' "$lock" "$T/run/held" "$T/run/release" 2>"$T/nobody.err" &
holder=$!
at_exit 'touch "$T/run/release"; kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null'
chmod 0777 "$T/run"	# for the holder's flag files only
wait_nonempty "$T/run/held" || fail "nobody could not lock the old file: $(cat "$T/nobody.err")"
chmod 0755 "$T/run"

run_no_wait "$lock" 2>"$T/err"
status=$?
[ "$status" = 0 ] ||
	fail "another user's read lock blocked root's run: status $status, want 0: $(cat "$T/err")"
# shellcheck disable=SC2012
[ "$(stat -c '%a %U' "$lock")" = "600 root" ] ||
	fail "the lock file is $(stat -c '%a %U' "$lock"), want 600 root"
touch "$T/run/release"
wait "$holder"

# Another user cannot open it now.
as_nobody -c '
import os, sys
try:
    os.open(sys.argv[1], os.O_RDONLY)
except PermissionError:
    sys.exit(0)
sys.exit(1)
' "$lock" || fail "another user can open the run lock"

# A lock file in a directory another user may write, or that is theirs.
mkdir -m 0777 "$T/open"
expect_error 2 "kdelta run: refusing the lock file $T/open/run.lock: another user could replace it ($T/open belongs to uid 0, mode 0777); give one in a directory that only you and root may write" \
	run_no_wait "$T/open/run.lock"
mkdir -m 0755 "$T/theirs"
chown nobody "$T/theirs"
expect_error 2 "kdelta run: refusing the lock file $T/theirs/run.lock: another user could replace it ($T/theirs belongs to uid 65534, mode 0755); give one in a directory that only you and root may write" \
	run_no_wait "$T/theirs/run.lock"
# The sticky bit keeps others from replacing root's file: as in /tmp.
mkdir -m 1777 "$T/sticky"
run_no_wait "$T/sticky/run.lock" 2>"$T/err" ||
	fail "a lock file in a sticky directory was refused: $(cat "$T/err")"
[ -e "$T/open/run.lock" ] && fail "a refused lock file was made"
finish
