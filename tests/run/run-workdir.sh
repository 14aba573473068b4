#!/bin/bash
# The work directory is private: kdelta makes it with mode 0700, refuses one
# that is not (another user's, open to others, a symbolic link), so that an
# unprivileged user cannot reach into a run of root's; and a run's teardown
# follows what it mounted, not paths: a workspace renamed mid-run is still
# torn down, the run fails saying so, and the next kdelta removes it.
. "$TESTLIB"
# Whatever a test forgets to say, nothing goes outside $T.
export KDELTA_RESULT_ROOT="$T/default-root"

cat >"$T/job.yaml" <<'EOF'
testcase: wd
monitors: {}
exec:
  cmd: 'echo "v: 1"'
EOF
run() {
	"$KDELTA" run "$T/job.yaml" --commit c --runs 1 --result-root "$T/r" "$@"
}

run --work-dir "$T/w" 2>"$T/stderr" || fail "first run: $(cat "$T/stderr")"
[ "$(stat -c %a "$T/w")" = 700 ] || fail "work dir mode $(stat -c %a "$T/w"), want 700"

mkdir -m 755 "$T/open"
expect_error 2 "kdelta run: refusing the work directory $T/open: others may use it (mode 0755; 'chmod 700' makes it private); give a private directory of your own with --work-dir" \
	run --work-dir "$T/open"
ln -s "$T/w" "$T/link"
expect_error 2 "kdelta run: refusing the work directory $T/link: it is a symbolic link; give a private directory of your own with --work-dir" \
	run --work-dir "$T/link"
touch "$T/file"
expect_error 2 "kdelta run: refusing the work directory $T/file: it is not a directory; give a private directory of your own with --work-dir" \
	run --work-dir "$T/file"

if [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1; then
	echo "not root, or no user nobody: other users and mounts not tested"
	finish
fi
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# /tmp's case: a world-writable sticky directory, where an unprivileged
# user made the work directory first.  Before this was fixed, root's
# kdelta worked in it, and the user could rename its runs' directories.
chmod 711 "$T"
mkdir -m 1777 "$T/pub"
as_nobody mkdir -m 777 "$T/pub/w" || fail "nobody cannot make a directory"
expect_error 2 "kdelta run: refusing the work directory $T/pub/w: it belongs to uid 65534, not to uid 0 that kdelta runs as; give a private directory of your own with --work-dir" \
	run --work-dir "$T/pub/w"
# One kdelta made is closed to that user.
run --work-dir "$T/pub/mine" 2>"$T/stderr" || fail "run in pub/mine: $(cat "$T/stderr")"
as_nobody ls "$T/pub/mine" >/dev/null 2>&1 && fail "nobody can list root's work directory"
as_nobody mv "$T/pub/mine" "$T/pub/moved" 2>/dev/null && fail "nobody renamed root's work directory"

# An ordinary user's default: ${XDG_CACHE_HOME:-~/.cache}/kdelta/work,
# in a directory of theirs (their run lock is refused in one that another
# may write).
mkdir -m 755 "$T/cache"
chown 65534 "$T/cache"
# Its run lock too, without XDG_RUNTIME_DIR.
as_nobody env -u KDELTA_RUN_LOCK -u XDG_RUNTIME_DIR XDG_CACHE_HOME="$T/cache" \
	"$KDELTA" run "$T/job.yaml" --commit c \
	--runs 1 --result-root "$T/cache/r" 2>"$T/stderr" ||
	fail "nobody's run: $(cat "$T/stderr")"
[ "$(stat -c '%a %u' "$T/cache/kdelta/work")" = "700 65534" ] ||
	fail "nobody's work dir: $(stat -c '%a %u' "$T/cache/kdelta/work")"
[ "$(stat -c '%u' "$T/cache/kdelta/run.lock")" = 65534 ] ||
	fail "nobody's run lock: $(ls -la "$T/cache/kdelta")"

# A workload that renames its own workspace: the teardown by path found
# nothing at the old path and reported success, leaving the file system
# mounted and the loop device attached.  Now the teardown reaches them
# through descriptors and mount IDs, and the run fails, saying why.
if command -v mkfs.ext4 >/dev/null; then
	cat >"$T/rename.yaml" <<'EOF'
testcase: rename
monitors: {}
disk: 1BRD_128M
fs: ext4
exec:
  cmd: 'ws=$(cd ../.. && pwd -P); mv "$ws" "$ws.moved" && echo "v: 1"'
EOF
	"$KDELTA" run "$T/rename.yaml" --commit c --runs 1 --result-root "$T/r" \
		--work-dir "$T/w" 2>"$T/stderr"
	status=$?
	[ "$status" = 1 ] || fail "renamed workspace: exit status $status, want 1: $(cat "$T/stderr")"
	grep -F " $T/" /proc/self/mountinfo >&2 && fail "renamed workspace: still mounted (above)"
	grep -sF "$T/" /sys/block/loop*/loop/backing_file >&2 &&
		fail "renamed workspace: loop device still attached (above)"
	moved=$(echo "$T"/w/kdelta-run.*.moved)
	ws=${moved%.moved}
	complete=$(cat "$T"/r/rename/*/*/c/0/complete)
	[ "$complete" = "failed: $ws was moved away or replaced while it was in use; left as it is" ] ||
		fail "renamed workspace: complete says '$complete'"
	# The next kdelta removes what is left (its state file says so).
	run --work-dir "$T/w" 2>"$T/stderr" || fail "run after the rename: $(cat "$T/stderr")"
	grep -qx "kdelta run: cleaned up what kdelta (pid [0-9]*) left: $moved, removed it" "$T/stderr" ||
		fail "no cleanup line: $(cat "$T/stderr")"
	[ "$(ls -A "$T/w")" = kdelta.lock ] || fail "work dir not cleaned: $(ls -A "$T/w")"
else
	echo "no mkfs.ext4 (e2fsprogs): the rename of a mounted workspace not tested"
fi
finish
