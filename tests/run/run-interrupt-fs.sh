#!/bin/bash
# SIGINT (twice) in the middle of a run on xfs and on ext4 (a RAM disk, a
# loop device, mkfs, a mount): kdelta tears everything down before it
# exits, leaving no loop device and no mount behind.
. "$TESTLIB"
# Whatever a test forgets to say, nothing goes outside $T.
export KDELTA_RESULT_ROOT="$T/default-root"
[ "$(id -u)" = 0 ] || skip "needs root to attach loop devices and mount"

# leftovers: mounts and loop devices under $T.
leftovers() {
	grep -F " $T/" /proc/self/mountinfo
	grep -sF "$T/" /sys/block/loop*/loop/backing_file
}

tested=0
for fs in xfs ext4; do
	if ! command -v "mkfs.$fs" >/dev/null; then
		echo "no mkfs.$fs: $fs not tested"
		continue
	fi
	cat >"$T/$fs.yaml" <<EOF
testcase: intr-$fs
disk: 1BRD_512M
fs: $fs
exec:
  cmd: 'echo \$\$ >"$T/pid"; exec sleep 60'
EOF
	rm -f "$T/pid"
	"$KDELTA" run "$T/$fs.yaml" --commit k --runs 1 --result-root "$T/r" \
		--work-dir "$T/w" 2>"$T/stderr" &
	kdelta=$!
	for i in $(seq 300); do
		[ -s "$T/pid" ] && break
		kill -0 "$kdelta" 2>/dev/null || break
		sleep 0.1
	done
	if [ ! -s "$T/pid" ]; then
		wait "$kdelta"
		fail "$fs: the workload did not start: $(cat "$T/stderr")"
		continue
	fi
	grep -qF " $T/w/" /proc/self/mountinfo || fail "$fs: nothing mounted mid-run"
	# A second Ctrl-C during the cleanup must not cut the teardown short.
	kill -INT "$kdelta"
	sleep 0.05
	kill -INT "$kdelta" 2>/dev/null
	wait "$kdelta"
	status=$?
	[ "$status" = 130 ] || fail "$fs: exit status $status, want 130: $(cat "$T/stderr")"
	if leftovers >&2; then
		fail "$fs: left behind (above)"
	fi
	[ "$(cat "$T"/r/intr-$fs/*/*/k/0/complete)" = "interrupted: kdelta was stopped by SIGINT" ] ||
		fail "$fs: the interrupted run is not marked so"
	grep -q "^  fs: $fs on /dev/loop" "$T"/r/intr-$fs/*/*/k/0/job.yaml ||
		fail "$fs: job.yaml does not record the file system"
	tested=$((tested + 1))
done
[ "$(ls -A "$T/w")" = kdelta.lock ] || fail "work dir not cleaned: $(ls -A "$T/w")"
[ "$tested" = 0 ] && skip "neither mkfs.xfs (xfsprogs) nor mkfs.ext4 (e2fsprogs) is installed"
finish
