#!/bin/bash
# md RAID in a guest (kdelta run --kernel): this machine's kernel may have
# no md, Debian's cloud kernel has it as modules.  One boot, three runs in
# file order: an md job whose file system then fails to mount (the array
# made, then stopped by the teardown), and an aim7 job shaped as
# lkp-tests' aim7-fs-raid.yaml's (its disk, md and fs lists, at this
# test's scale) over RAID0 and RAID5 of 4 brd disks.  The runs name the
# array mdadm --detail described, of the level asked for, on /dev/md0
# each time (the failed run's array was stopped), and bring aim7's result
# back; nothing is left behind.  Then --vm-disks file: RAID1 over 4 virtio
# disks over sparse files instead of brd, said and recorded, the files
# gone with the batch; and jobs whose disks differ in size refused.
source "$TESTLIB"
source "$SRCDIR/tests/vm/kernels.sh"
vm_kernels

cat >"$T/bad.yaml" <<'JOB'
testcase: md-bad
monitors: {}
disk: 4BRD_64M
md: RAID0
fs: ext4
fs_mount_options: no_such_option
aim7: {test: disk_rr, load: 2, testtime: 1s}
JOB
cat >"$T/raid.yaml" <<'JOB'
suite: aim7
testcase: aim7
category: benchmark
monitors: {}
disk:
  - 4BRD_64M
md:
  - RAID0
  - RAID5
fs:
  - ext4
aim7:
  test:
    - disk_rr
  load: 8
  testtime: 2s
JOB

"$KDELTA" run "$T/bad.yaml" "$T/raid.yaml" --kernel "cloud=$CLOUD" \
	--vm-clock instructions --order fixed --runs 1 --seed 5 \
	--result-root "$T/r" --work-dir "$T/w" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 1 ] || fail "kdelta run --kernel: exit status $status, want 1 (one run failed): $(tail -n 5 "$T/err")"
[ -s "$T/out" ] && fail "kdelta run printed on stdout"

host=vm-$(uname -n)-tcg-icount-1cpu
grep -q "^kdelta: kernel cloud ($VM_ABI-cloud-amd64): guest of .* built, modules .* md_mod raid0 .* raid456 brd\$" "$T/err" ||
	fail "the guest has not md_mod, raid0, raid456 and brd: $(grep 'kernel cloud' "$T/err")"
grep -q '^kdelta: 1 boot of 1 run a job each at most' "$T/err" ||
	fail "not one boot: $(grep boot "$T/err")"

bad=$(ls -d "$T"/r/md-bad/*/"$host"/cloud/0)
case $(cat "$bad/complete" 2>/dev/null) in
"failed: fs: "*"/dev/md0"*) ;;
*) fail "the run whose mount fails: $(cat "$bad/complete" 2>/dev/null) ($(cat "$T/err"))" ;;
esac

for level in RAID0:raid0:'chunk 256K, 252.00 MiB' RAID5:raid5:'chunk 256K, 189.00 MiB'; do
	IFS=: read -r md mdadm size <<<"$level"
	run=$T/r/aim7/4BRD_64M-ext4-8-$md-disk_rr-2s/$host/cloud/0
	[ "$(cat "$run/complete" 2>/dev/null)" = ok ] ||
		fail "$md: $(cat "$run/complete" 2>/dev/null) ($(grep "$md" "$T/err"))"
	want="  fs: 'ext4 on /dev/md0 (md $md over 4BRD_64M, the brd module: mdadm --detail says $mdadm, 4 devices, $size, clean)'"
	grep -qxF "$want" "$run/job.yaml" ||
		fail "$md: the run does not record the array mdadm described: $(grep '^  fs:' "$run/job.yaml")"
	grep -q '"aim7.jobs-per-min": [1-9]' "$run/stats.json" ||
		fail "$md: no aim7.jobs-per-min came back: $(head -c 300 "$run/stats.json")"
done

# Nothing left behind: no workspace, no QEMU of this test.
ls "$T/w" | grep -q kdelta-run && fail "a workspace was left in $T/w"
pgrep -f "$T/w/" >/dev/null && fail "a process of this test is still running"

# --vm-disks file: the same job at RAID1 over virtio disks, each 4G:
# more than 8 times the guest's 1G a disk would be refused in its memory.
sed -i 's/  - RAID5/  - RAID1/; /  - RAID0/d; s/4BRD_64M/4BRD_4G/' "$T/raid.yaml"
"$KDELTA" run "$T/raid.yaml" --kernel "cloud=$CLOUD" --vm-disks file \
	--vm-clock instructions --runs 1 --seed 5 \
	--result-root "$T/f" --work-dir "$T/w" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 0 ] || fail "--vm-disks file: exit status $status, want 0: $(tail -n 5 "$T/err")"
grep -q "^kdelta: kernel cloud ($VM_ABI-cloud-amd64): guest of .* built, modules .* virtio_blk .*raid1" "$T/err" ||
	fail "--vm-disks file: the guest has not virtio_blk and raid1: $(grep 'kernel cloud' "$T/err")"
grep -q "modules .* brd" "$T/err" && fail "--vm-disks file: the guest has brd: $(grep 'kernel cloud' "$T/err")"
grep -q "^kdelta: the jobs' RAM disks are 4 virtio disks of 4G over sparse files in $T/w/kdelta-run\.[^ ]* (--vm-disks file), not the brd module's: their timings are not LKP's\$" "$T/err" ||
	fail "--vm-disks file: not said: $(cat "$T/err")"
run=$T/f/aim7/4BRD_4G-ext4-8-RAID1-disk_rr-2s/$host/cloud/0
[ "$(cat "$run/complete" 2>/dev/null)" = ok ] ||
	fail "--vm-disks file: $(cat "$run/complete" 2>/dev/null) ($(tail -n 5 "$T/err"))"
grep -qxF "  fs: 'ext4 on /dev/md0 (md RAID1 over 4BRD_4G, virtio disks over files on the host: mdadm --detail says raid1, 4 devices, 4.00 GiB, clean)'" "$run/job.yaml" ||
	fail "--vm-disks file: the run does not record the array over the disks given: $(grep '^  fs:' "$run/job.yaml")"
grep -A2 -x "    disks: file" "$run/job.yaml" | paste -sd' ' |
	grep -qx "    disks: file     disk_count: 4     disk_size: 4G" ||
	fail "--vm-disks file: kdelta.vm.disks not recorded: $(grep -A20 '^  vm:' "$run/job.yaml")"
grep -q '"aim7.jobs-per-min": [1-9]' "$run/stats.json" ||
	fail "--vm-disks file: no aim7.jobs-per-min came back: $(head -c 300 "$run/stats.json")"
ls "$T/w" | grep -q kdelta-run && fail "--vm-disks file: a workspace (with its disk files) was left in $T/w"

# A guest's disks are the same for all its jobs: one size.
sed 's/4BRD_4G/2BRD_32M/' "$T/raid.yaml" >"$T/small.yaml"
expect_error 2 "kdelta run: --vm-disks file: the jobs' disks differ in size (4BRD_4G of job 4BRD_4G-ext4-8-RAID1-disk_rr-2s, 2BRD_32M of job 2BRD_32M-ext4-8-RAID1-disk_rr-2s), and a guest's disks are the same for all its jobs; run them in batches of one size" \
	"$KDELTA" run "$T/raid.yaml" "$T/small.yaml" --kernel "cloud=$CLOUD" \
	--vm-disks file --vm-clock instructions --runs 1 \
	--result-root "$T/f" --work-dir "$T/w"
ls "$T/w" | grep -q kdelta-run && fail "a refused batch left a workspace in $T/w"
pgrep -f "$T/w/" >/dev/null && fail "a process of this test is still running"
exit $((failures > 0))
