#!/bin/bash
# The reboot executor (kdelta-robot(5), executor: reboot), end to end with
# a simulated test box: its boot command stands for kexec.  It kills the
# robot's whole process tree (as a reboot does), then "boots": writes the
# kernel's release, version string and a new boot id into $T/kernel (the
# robot's $KDELTA_RUNNING_KERNEL, instead of /proc/sys/kernel) and starts
# the robot again, as a systemd unit would.  The fixture's two commits
# build fake bzImages (an x86 setup header and its version string) whose
# version strings differ ("#1 SMP fast", "#2 SMP slow"; the same release,
# as two builds of one tree have); the job reads the running "kernel" and
# prints a slower ops_per_sec in the slow one, and which kernel it ran in.
#
#   reboot.sh normal   base and head measured over boots in rounds (one
#                      boot of each a round), each run in its own commit's
#                      kernel, the k-th runs of the two paired in round k
#                      of their batch; head regressed.
#   reboot.sh wrong    head's boots come up in another kernel: none of its
#                      runs is taken, they are stored failed, saying so,
#                      and the robot goes on and ends its pass.
#   reboot.sh noreturn head's boot never comes back (the command returns,
#                      nothing reboots): after reboot: timeout its runs are
#                      stored failed and the robot goes on.
source "$TESTLIB"
mode=${1:?normal, wrong or noreturn}
command -v git >/dev/null || skip "git is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"
command -v setsid >/dev/null || skip "setsid is not installed"

repo=$T/repo
mkdir -p "$repo" "$T/kernel/random"
git -C "$repo" init -q -b main
git -C "$repo" config user.email test@example.org
git -C "$repo" config user.name test
# mkimage OUT VERSION: a file with an x86 boot header whose version string
# is "6.1.0-kdtest (test@box) VERSION", as OUT/boot/vmlinuz-6.1.0-kdtest.
cat >"$repo/mkimage" <<'PY'
#!/usr/bin/env python3
import os, sys
out, version = sys.argv[1], sys.argv[2]
image = bytearray(0x400)
image[0x202:0x206] = b"HdrS"
image[0x206:0x208] = (0x020f).to_bytes(2, "little")
image[0x20e:0x210] = (0x100).to_bytes(2, "little")
text = ("6.1.0-kdtest (test@box) %s" % version).encode() + b"\0"
image[0x300:0x300 + len(text)] = text
os.makedirs(out + "/boot", exist_ok=True)
open(out + "/boot/vmlinuz-6.1.0-kdtest", "wb").write(image)
PY
chmod +x "$repo/mkimage"
echo '1 SMP fast' >"$repo/version"
git -C "$repo" add -A && git -C "$repo" commit -q -m "commit 1: fast"
echo '2 SMP slow' >"$repo/version"
git -C "$repo" commit -q -a -m "commit 2: slow"
base=$(git -C "$repo" rev-parse main~1)
head=$(git -C "$repo" rev-parse main)

# The running kernel before the first boot: the box's own.
echo 6.1.0-host >"$T/kernel/osrelease"
echo '#1 SMP host' >"$T/kernel/version"
echo boot-0 >"$T/kernel/random/boot_id"

# The job: slower in the slow kernel; kernel_n says which one it ran in.
cat >"$T/bench" <<EOT
#!/bin/sh
version=\$(cat "$T/kernel/version")
n=\${version#\\#}; n=\${n%% *}
case \$version in
*slow*) base=800 ;;
*) base=1000 ;;
esac
echo "ops_per_sec: \$((base + \$(od -An -N1 -tu1 /dev/urandom) % 16))"
echo "kernel_n: \$n"
EOT
chmod +x "$T/bench"
cat >"$T/job.yaml" <<EOT
testcase: reboot-test
monitors: {}
exec:
  argv: [$T/bench]
EOT

# start_robot: the robot in a session of its own (its process group is
# what a reboot kills), its group written to $T/robot.pgid.
cat >"$T/start-robot" <<EOT
#!/bin/bash
cd "$T" || exit 1
exec setsid bash -c 'echo \$\$ >"$T/robot.pgid.new" && mv "$T/robot.pgid.new" "$T/robot.pgid" &&
	exec env KDELTA_RUNNING_KERNEL="$T/kernel" "$KDELTA" robot --once robot.yaml >>"$T/out" 2>>"$T/err"' </dev/null &
EOT
# restart IMAGE COMMIT PID: the reboot, detached from what it kills: the
# robot's process group and the boot command (PID).
cat >"$T/restart" <<EOT
#!/bin/bash
pgid=\$(cat "$T/robot.pgid")
kill -KILL -- "-\$pgid" "\$3"
while kill -0 -- "-\$pgid" 2>/dev/null; do sleep 0.05; done
banner=\$(python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); print(d[0x300:d.index(b"\\0", 0x300)].decode())' "\$1")
if [ "\$(cat "$T/mode")" = "wrong \$2" ]; then
	banner="6.1.0-kdtest (test@box) #99 SMP wrong"
fi
echo "\${banner%% *}" >"$T/kernel/osrelease"
echo "#\${banner#*#}" >"$T/kernel/version"
echo "boot-\$(date +%s%N)" >"$T/kernel/random/boot_id"
echo "\$2 \$(cat "$T/kernel/version")" >>"$T/boots"
"$T/start-robot"
EOT
# The boot command, as kexec -e would be: the machine goes down.
cat >"$T/boot" <<EOT
#!/bin/bash
if [ "\$(cat "$T/mode")" = "noreturn \$2" ]; then
	echo "\$2 (no return)" >>"$T/boots"
	exit 0
fi
setsid -f "$T/restart" "\$1" "\$2" \$\$ </dev/null >/dev/null 2>&1
exec sleep 60
EOT
chmod +x "$T/start-robot" "$T/restart" "$T/boot"

case $mode in
normal) echo none >"$T/mode" ;;
wrong) echo "wrong $head" >"$T/mode" ;;
noreturn) echo "noreturn $head" >"$T/mode" ;;
*) echo "reboot.sh: unknown mode $mode" >&2; exit 2 ;;
esac
cat >"$T/robot.yaml" <<EOT
repository: repo
branches: [main]
jobs: [job.yaml]
build: ./mkimage {out} "#\$(cat version)"
runs: 2
max-runs: 3
result-root: results
work-dir: work
executor: reboot
reboot:
  command: $T/boot {image} {commit}
  modules: $T/modules
  timeout: 3s
EOT
at_exit '[ -s "$T/robot.pgid" ] && kill -KILL -- "-$(cat "$T/robot.pgid")" 2>/dev/null'
[ -n "${KEEP_T:-}" ] && at_exit "cp -a $T $KEEP_T"
"$T/start-robot"

# The pass ends in the robot's last life: "robot: pass done: ...".
for ((i = 0; i < 1200; i++)); do
	grep -q '^robot: pass done: ' "$T/err" 2>/dev/null && break
	sleep 0.1
done
grep -q '^robot: pass done: ' "$T/err" ||
	fail "the pass did not end: $(tail -n 5 "$T/err")"
[ -s "$T/robot.pgid" ] && for ((i = 0; i < 100; i++)); do
	kill -0 -- "-$(cat "$T/robot.pgid")" 2>/dev/null || break
	sleep 0.1
done

store=$T/results/reboot-test
host_dir=$(ls -d "$store"/*/* 2>/dev/null | head -n 1)
[ -n "$host_dir" ] || fail "no runs stored: $(tail -n 5 "$T/err")"
# runs_of COMMIT STATUS: how many of its runs have that completion mark.
runs_of() {
	local n=0 d
	for d in "$host_dir/$1"/[0-9]*; do
		grep -qs "^$2" "$d/complete" && n=$((n + 1))
	done
	echo "$n"
}
# Every run that counts ran in its own commit's kernel.
check_kernel() {
	local d want=$2
	for d in "$host_dir/$1"/[0-9]*; do
		grep -qs '^ok' "$d/complete" || continue
		grep -qs "kernel_n: $want\$" -r "$d" ||
			fail "run $d of ${1:0:12} was not taken in kernel #$want"
	done
}
check_kernel "$base" 1
[ "$(runs_of "$base" ok)" -ge 2 ] || fail "base has $(runs_of "$base" ok) runs, want 2: $(tail -n 5 "$T/err")"
case $mode in
normal)
	check_kernel "$head" 2
	[ "$(runs_of "$head" ok)" -ge 2 ] || fail "head has $(runs_of "$head" ok) runs, want 2"
	# In rounds: each of the first two pairs of boots boots both commits.
	for k in 1 3; do
		[ "$(sed -n "${k},$((k + 1))p" "$T/boots" | cut -c1-40 | sort -u | wc -l)" = 2 ] ||
			fail "boots $k and $((k + 1)) are not a round of both: $(cut -c1-12 "$T/boots" | tr '\n' ' ')"
	done
	# Every run of head is paired with one of base: the same batch and round.
	for d in "$host_dir/$head"/[0-9]*; do
		grep -qs '^ok' "$d/complete" || continue
		place=$(grep -E '^  (batch|round):' "$d/job.yaml" | sort | tr -d ' \n')
		found=
		for e in "$host_dir/$base"/[0-9]*; do
			[ "$(grep -E '^  (batch|round):' "$e/job.yaml" | sort | tr -d ' \n')" = "$place" ] && found=1
		done
		[ -n "$found" ] || fail "run $d of head ($place) has no run of base in its round"
	done
	grep -Eq "^robot: main ${head:0:12}: reboot-test/[^:]*: .*(regress|changed|-[0-9])" "$T/err" ||
		fail "no regression of head said: $(grep '^robot: main' "$T/err")"
	;;
wrong)
	[ "$(runs_of "$head" ok)" = 0 ] || fail "a run of head was taken in the wrong kernel"
	[ "$(runs_of "$head" failed)" -ge 1 ] || fail "head's runs are not stored failed"
	grep -q "^robot: ${head:0:12}: booted 6.1.0-kdtest (#99 SMP wrong), not its kernel 6.1.0-kdtest (#2 SMP slow)" "$T/err" ||
		fail "the wrong kernel is not said: $(grep "${head:0:12}" "$T/err" | tail -n 3)"
	grep -rqs "failed: booted 6.1.0-kdtest (#99 SMP wrong), not its kernel" "$host_dir/$head" ||
		fail "head's failed run does not say why"
	;;
noreturn)
	[ "$(runs_of "$head" ok)" = 0 ] || fail "a run of head was taken without its boot"
	grep -q "^robot: ${head:0:12}: did not boot its kernel 6.1.0-kdtest within 3 s of the boot command" "$T/err" ||
		fail "the boot that did not come back is not said: $(grep "${head:0:12}" "$T/err" | tail -n 3)"
	grep -rqs "failed: did not boot its kernel" "$host_dir/$head" ||
		fail "head's runs are not stored failed with the reason"
	;;
esac
# No life of the robot met a sanitizer's error (the last one exits, and
# LeakSanitizer looks at it).
grep -E 'Sanitizer|runtime error:' "$T/err" && fail "a sanitizer's error, above"
# No boot command or robot is left.
pgrep -f "$T/(boot|restart)" >/dev/null && fail "a boot command is still running"
kill -0 -- "-$(cat "$T/robot.pgid")" 2>/dev/null && fail "the robot is still running"
[ "$failures" = 0 ] || { echo "--- boots"; cat "$T/boots"; echo "--- robot"; tail -n 40 "$T/err"; } >&2
exit $((failures > 0))
