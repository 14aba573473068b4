#!/bin/bash
# kill -9 of kdelta mid-run, while the workload (sh -c) has a child of its
# own, a sleep whose current directory is in the run's tmpfs.  The sleep
# and the mount survive kdelta; the next kdelta run (with the same work
# directory) kills the sleep (it is in the run's cgroup), unmounts the
# tmpfs and removes the workspace, and says so.  Before this was fixed the
# sleep ran on, keeping the mount busy.  Without cgroup v2 (as an ordinary
# user here) kdelta says that it stops a run's processes by process group
# only.
. "$TESTLIB"
# Whatever a test forgets to say, nothing goes outside $T.
export KDELTA_RESULT_ROOT="$T/default-root"

# start_and_kill JOB ARGS...: runs kdelta, kills it (SIGKILL) once the
# workload's grandchild wrote its pid into $T/bg.
start_and_kill() {
	rm -f "$T/bg"
	"$KDELTA" run "$@" --commit k --runs 1 --result-root "$T/r" 2>"$T/stderr" &
	kdelta=$!
	wait_nonempty "$T/bg" || fail "the workload did not start: $(cat "$T/stderr")"
	kill -9 "$kdelta"
	{ wait "$kdelta"; } 2>/dev/null	# bash would say "Killed"
	bg=$(cat "$T/bg")
}

cat >"$T/quick.yaml" <<'EOF'
testcase: quick
monitors: {}
exec:
  cmd: 'echo "v: 1"'
EOF

if [ "$(id -u)" = 0 ]; then
	cat >"$T/kill.yaml" <<EOF
testcase: kill
monitors: {}
fs: tmpfs
exec:
  cmd: 'sh -c "echo \\\$\\\$ >$T/bg; exec sleep 300" & sleep 300'
EOF
	start_and_kill "$T/kill.yaml" --work-dir "$T/w"
	gone "$bg" && fail "the grandchild died with kdelta: nothing to clean up"
	grep -qF " $T/w/" /proc/self/mountinfo || fail "no mount left behind"
	"$KDELTA" run "$T/quick.yaml" --commit k --runs 1 --result-root "$T/r" \
		--work-dir "$T/w" 2>"$T/stderr" || fail "the next run: $(cat "$T/stderr")"
	if grep -q "^kdelta: no cgroup for the runs" "$T/stderr"; then
		echo "no cgroup v2 here: $(grep '^kdelta: no cgroup' "$T/stderr")"
		kill -9 "$bg"
		gone "$bg"
		"$KDELTA" run "$T/quick.yaml" --commit k --runs 1 \
			--result-root "$T/r" --work-dir "$T/w" 2>/dev/null
	else
		grep -qx "kdelta run: cleaned up what kdelta (pid $kdelta) left: $T/w/kdelta-run\.[A-Za-z0-9]*, killed [12] process\(es\)\?, unmounted 1 file system, marked run $T/r/kill/[^ ]*/k/0 interrupted, removed it" \
			"$T/stderr" || fail "no cleanup line: $(cat "$T/stderr")"
		gone "$bg" || { fail "the grandchild survived the next run"; kill -9 "$bg"; }
	fi
	grep -F " $T/" /proc/self/mountinfo >&2 && fail "still mounted (above)"
	[ "$(ls -A "$T/w")" = kdelta.lock ] || fail "work dir not cleaned: $(ls -A "$T/w")"
fi

# An ordinary user has no cgroup here (the hierarchy is root's): kdelta
# says so once, and the runs go on with process groups.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	chmod 711 "$T"
	mkdir -m 755 "$T/nobody"
	chown 65534 "$T/nobody"
	KDELTA_RUN_LOCK="$T/nobody/run.lock" \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$KDELTA" run \
		"$T/quick.yaml" --commit k --runs 2 --result-root "$T/nobody/r" \
		--work-dir "$T/nobody/w" 2>"$T/stderr" ||
		fail "nobody's runs: $(cat "$T/stderr")"
	[ "$(grep -c '^kdelta: no cgroup for the runs (cannot create the cgroup .*: Permission denied): a run.s processes are stopped by process group only (see kdelta(1))$' "$T/stderr")" = 1 ] ||
		fail "no notice, or more than one: $(cat "$T/stderr")"
fi
finish
