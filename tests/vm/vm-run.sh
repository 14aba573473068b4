#!/bin/bash
# kdelta run --kernel: Debian's cloud and rt kernels booted under QEMU's
# TCG with the instruction clock, two boots each, interleaved; AIM9's
# creat-clo on tmpfs (4 runs of 1 s, 2 a boot) and a hole punch on xfs on
# the brd module's RAM disk (2 runs) inside.  The runs come back into the
# store under the guests' host name with what booted them; compare
# decides creat-clo changed between the kernels (PREEMPT_RT costs it about
# 18% in instructions).
source "$TESTLIB"
source "$SRCDIR/tests/vm/kernels.sh"
vm_kernels

cat >"$T/creat.yaml" <<'JOB'
testcase: aim9
runs: 4
fs: tmpfs
aim9:
  test: creat-clo
  testtime: 1
JOB
cat >"$T/punch.yaml" <<'JOB'
testcase: punch
runs: 2
disk: 1BRD_512M
fs: xfs
punch:
  file_size: 64M
  prefill: write
  punch_size: 4k
  stride: 64k
JOB

"$KDELTA" run "$T/creat.yaml" "$T/punch.yaml" --kernel "cloud=$CLOUD" \
	--kernel "rt=$RT" --vm-runs-per-boot 2 --vm-clock instructions \
	--seed 7 --result-root "$T/r" --work-dir "$T/w" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 0 ] || fail "kdelta run --kernel: exit status $status: $(tail -n 5 "$T/err")"
[ -s "$T/out" ] && fail "kdelta run printed on stdout"

host=vm-$(uname -n)-tcg-icount-1cpu
grep -c 'their timings are instruction time' "$T/err" | grep -qx 1 ||
	fail "the terminal does not say once that timings are instruction time"
grep -q "^kdelta: 4 boots of 2 runs a job each at most, in rounds of the order of seed 7 (--seed 7 repeats it); runs stored under host $host\$" "$T/err" ||
	fail "no line on the boots: $(grep boots "$T/err")"
grep -q "^kdelta: kernel rt ($VM_ABI-rt-amd64): guest of .* built, modules .*xfs brd" "$T/err" ||
	fail "no line on the rt kernel's guest: $(grep 'kernel rt' "$T/err")"

for label in cloud rt; do
	for job in aim9/tmpfs-creat-clo-1:4 punch/1BRD_512M-xfs-write:2; do
		dir=$T/r/${job%:*}/$host/$label
		want=${job#*:}
		n=$(ls "$dir" 2>/dev/null | grep -c '^[0-9]*$')
		[ "$n" = "$want" ] || fail "$dir: $n runs, want $want"
		for run in "$dir"/[0-9]*; do
			[ "$(cat "$run/complete")" = ok ] || fail "$run: $(cat "$run/complete")"
			grep -q "^    release: $VM_ABI-$label-amd64\$" "$run/job.yaml" ||
				fail "$run/job.yaml: not the release of kernel $label"
			for key in 'accel: tcg' 'clock: instructions' 'cpus: 1' \
				   'runs_per_boot: 2' 'cmdline: console=ttyS0 panic=-1 quiet cryptomgr.notests no_timer_check' \
				   'machine: microvm' 'memory: 1.5G'; do
				grep -q "^    $key\$" "$run/job.yaml" ||
					fail "$run/job.yaml: no kdelta.vm $key"
			done
			grep -q "^host: $host\$" "$run/job.yaml" ||
				fail "$run/job.yaml: not host $host"
		done
	done
	[ -s "$T/r/aim9/tmpfs-creat-clo-1/$host/$label/matrix.json.gz" ] ||
		fail "no matrix for $label"
done
# The punch ran on the brd module's disk, in the guest.
grep -q "^  fs: xfs on /dev/ram0 (1BRD_512M, the brd module)\$" \
	"$T/r/punch/1BRD_512M-xfs-write/$host/rt/0/job.yaml" ||
	fail "the punch did not run on the brd module's RAM disk"
# Two boots of each kernel, each its own.
boots=$(grep -h '^    boot_id:' "$T"/r/aim9/*/"$host"/*/*/job.yaml | sort -u | wc -l)
[ "$boots" = 4 ] || fail "the creat-clo runs name $boots boots, want 4"

"$KDELTA" compare --result-root "$T/r" cloud rt >"$T/cmp" 2>"$T/cmp.err" ||
	fail "compare: $(cat "$T/cmp.err")"
grep -q 'aim9.creat-clo.ops_per_sec' "$T/cmp" || fail "compare printed no creat-clo row"
grep -q '^aim9.creat-clo.ops_per_sec, rt: -1[0-9]\.[0-9]% (95% CI .*): changed, worse$' "$T/cmp" ||
	fail "creat-clo is not decided changed: $(grep -a 'creat-clo.ops_per_sec, rt' "$T/cmp")"
grep -q 'punch.usecs' "$T/cmp" || fail "compare printed no punch row"
# Nothing left behind: no workspace, no QEMU of this test.
ls "$T/w" | grep -q kdelta-run && fail "a workspace was left in $T/w"
pgrep -f "$T/w" >/dev/null && fail "a process of this test is still running"
exit $((failures > 0))
