#!/bin/bash
# A store that cannot be written: the run is left incomplete (no completion
# mark), the batch stops with status 4 and says so, and the commit's matrix
# stays the set of its complete runs.  The temporary files of a killed
# kdelta are removed once their process is gone.
. "$TESTLIB"
# Whatever a test forgets to say, nothing goes outside $T.
export KDELTA_RESULT_ROOT="$T/default-root"

cat >"$T/job.yaml" <<'EOF'
testcase: store
monitors: {}
exec:
  cmd: 'echo "v: 1"'
EOF

# run ROOT: one run of the job for commit c; its stderr in $T/stderr.
run() {
	"$KDELTA" run "$T/job.yaml" --commit c --runs 1 --result-root "$1" \
		--work-dir "$T/w" 2>"$T/stderr"
}

# sources DIR: the run directories the commit's matrix holds, one a line.
sources() {
	zcat "$1/matrix.json.gz" | python3 -c 'import json, sys; print("\n".join(json.load(sys.stdin)["stats_source"]))'
}

# The matrix cannot be written (a directory took its name): the run that
# was just marked complete is not complete any more.
run "$T/r" || fail "first run: $(cat "$T/stderr")"
c=$(echo "$T"/r/store/*/*/c)
rm "$c/matrix.json.gz"
mkdir "$c/matrix.json.gz"
run "$T/r"
status=$?
[ "$status" = 4 ] || fail "matrix not written: exit status $status, want 4: $(cat "$T/stderr")"
[ "$(tail -n 1 "$T/stderr")" = "kdelta run: cannot write the results: $c/matrix.json.gz: Is a directory; stopped after 0 run(s) ok, 0 failed; $c/1 left incomplete" ] ||
	fail "matrix not written: $(cat "$T/stderr")"
[ -e "$c/1/complete" ] && fail "a run whose matrix was not written is complete"
[ "$(cat "$c/0/complete")" = ok ] || fail "the earlier run changed"
ls "$c" "$c/1" | grep -q '\.tmp\.' && fail "temporary files left: $(ls "$c" "$c/1")"
rmdir "$c/matrix.json.gz"
run "$T/r" || fail "run after the repair: $(cat "$T/stderr")"
[ "$(sources "$c")" = "$c/0/stats.json
$c/2/stats.json" ] || fail "matrix: $(sources "$c")"

# Temporary files of killed writers: removed when their process is gone
# and they are a minute old; kept while it runs, or while they are new.
true &
dead=$!
wait "$dead"
touch -d '-2 min' "$c/matrix.json.gz.tmp.$dead" "$c/1/stats.json.tmp.$dead" \
	"$c/job.yaml.tmp.$$" "$c/1/x.tmp.0"
touch "$c/2/complete.tmp.$dead"
run "$T/r" || fail "run with stale files: $(cat "$T/stderr")"
[ -e "$c/matrix.json.gz.tmp.$dead" ] && fail "stale matrix temporary file kept"
[ -e "$c/1/stats.json.tmp.$dead" ] && fail "stale stats temporary file kept"
[ -e "$c/job.yaml.tmp.$$" ] || fail "a running process's temporary file removed"
[ -e "$c/2/complete.tmp.$dead" ] || fail "a new temporary file removed"
[ -e "$c/1/x.tmp.0" ] || fail "not a temporary file of ours, removed"

if [ "$(id -u)" != 0 ]; then
	echo "not root: a full and a read-only file system not tested"
	finish
fi

# A full file system (a small tmpfs of the test's own): the workload fills
# it.  Before this was fixed, the run failed with status 1.
F=$T/full
mkdir "$F"
mount -t tmpfs -o size=1m kdelta-test-full "$F" || fail "cannot mount a tmpfs"
at_exit 'umount "$F" 2>/dev/null'
cat >"$T/fill.yaml" <<EOF
testcase: full
monitors: {}
exec:
  cmd: 'echo "v: 1"; head -c 2M /dev/zero >"$F/filler" 2>/dev/null; true'
EOF
"$KDELTA" run "$T/fill.yaml" --commit c --runs 1 --result-root "$F/r" \
	--work-dir "$T/w" 2>"$T/stderr"
status=$?
[ "$status" = 4 ] || fail "full: exit status $status, want 4: $(cat "$T/stderr")"
d=$(echo "$F"/r/full/*/*/c)
tail -n 1 "$T/stderr" >"$T/last"
[ "$(cat "$T/last")" = "kdelta run: cannot write the results: $d/0/job.yaml: No space left on device; stopped after 0 run(s) ok, 0 failed; $d/0 left incomplete" ] ||
	fail "full: $(cat "$T/stderr")"
[ -e "$d/0/complete" ] && fail "full: the run is complete"
ls "$d/0" | grep -q '\.tmp\.' && fail "full: temporary files left: $(ls "$d/0")"
# The run left incomplete is marked by the next start, once it can be:
# before, it stayed unmarked for good.
rm "$F/filler"
"$KDELTA" run "$T/job.yaml" --commit c --runs 1 --result-root "$F/r" \
	--work-dir "$T/w" 2>"$T/stderr" || fail "after freeing space: $(cat "$T/stderr")"
grep -qx "kdelta run: cleaned up what kdelta (pid [0-9]*) left: $T/w/kdelta-run\.[A-Za-z0-9]*, marked run $d/0 interrupted, removed it" \
	"$T/stderr" || fail "full: the run left incomplete was not marked: $(cat "$T/stderr")"
[ "$(cat "$d/0/complete" 2>&1)" = "interrupted: the store could not be written: $d/0/job.yaml: No space left on device; marked by the next start" ] ||
	fail "full: the mark: $(cat "$d/0/complete" 2>&1)"

# A read-only file system: no run can start, status 4.
mount -o remount,ro "$F" || fail "cannot make the tmpfs read-only"
d=$(echo "$F"/r/store/*/*/c)
expect_error 4 "kdelta run: cannot write the results: $d/1: cannot create the run directory: Read-only file system; stopped after 0 run(s) ok, 0 failed" \
	"$KDELTA" run "$T/job.yaml" --commit c --runs 1 --result-root "$F/r" --work-dir "$T/w"
expect_error 4 "kdelta run: cannot write the results: cannot create directory $F/new: Read-only file system" \
	"$KDELTA" run "$T/job.yaml" --commit c --runs 1 --result-root "$F/new" --work-dir "$T/w"
umount "$F" || fail "cannot unmount the tmpfs"
finish
