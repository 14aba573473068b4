#!/bin/bash
# lkp-tests' job files: the SYNOPSIS of kdelta-job(5), LKP's infrastructure
# parameters, job names like the robot's, and one clear line for what
# kdelta cannot run (tests it does not implement, embedded Ruby, the
# sections kdelta 0.1 had).
source "$TESTLIB"
cd "$T" || exit 1

split() {
	"$KDELTA" split --print "$@"
}

# names FILE: the job names of FILE, one per line.
names() {
	split "$1" 2>&1 | grep -v '^ '
}

# The SYNOPSIS of kdelta-job(5) loads: 3 file systems x 2 tests.
sed -n '/^\.SH SYNOPSIS/,/^\.fi/p' "$SRCDIR/man/kdelta-job.5.in" |
	sed '1,2d;$d' | sed 's/\\-/-/g' >synopsis.yaml
[ "$(names synopsis.yaml | tr '\n' ' ')" = "1BRD_48G-btrfs-disk_cp-3000 1BRD_48G-btrfs-disk_rr-3000 1BRD_48G-ext4-disk_cp-3000 1BRD_48G-ext4-disk_rr-3000 1BRD_48G-xfs-disk_cp-3000 1BRD_48G-xfs-disk_rr-3000 " ] ||
	fail "the SYNOPSIS of kdelta-job(5): $(names synopsis.yaml)"

# LKP's infrastructure parameters load; the governor is in the name (the
# robot's 1BRD_48G-xfs-disk_rr-3000-performance), the machine's are not.
cat >lkp.yaml <<'YAML'
suite: aim7
testcase: aim7
category: benchmark
kconfig: x86_64-rhel-9.4
compiler: gcc-12
rootfs: debian-12-x86_64-20240206.cgz
tbox_group: lkp-ivb-d04
testbox: lkp-ivb-d04
kernel_cmdline: nokaslr
need_memory: 300MB
disk: 1BRD_48G
fs: xfs
aim7:
  test: [disk_rr, disk_wrt]
  load: 3000
cpufreq_governor: performance
YAML
[ "$(names lkp.yaml | tr '\n' ' ')" = "1BRD_48G-xfs-disk_rr-3000-performance 1BRD_48G-xfs-disk_wrt-3000-performance " ] ||
	fail "LKP names: $(names lkp.yaml)"
split lkp.yaml | grep -qx '    kconfig: x86_64-rhel-9.4' || fail "kconfig is not kept"
printf 'nr_threads: [50%%, 100%%]\naim9: {test: creat-clo}\n' >threads.yaml
[ "$(names threads.yaml | tr '\n' ' ')" = "50%-creat-clo 100%-creat-clo " ] ||
	fail "nr_threads names: $(names threads.yaml)"

# lkp-tests' aim9.yaml, verbatim: its second test is the first kdelta lacks.
cp "$TESTDATA/job/lkp-tests/aim9.yaml" .
expect_error 2 "kdelta split: aim9.yaml:8:7: aim9.test: 'add_double' is not one of the aim9 tests kdelta implements: creat-clo" \
	split aim9.yaml
printf 'aim7:\n  test: [disk_rr, disk_src]\n  load: 3000\n' >src.yaml
expect_error 2 "kdelta split: src.yaml:2:19: aim7.test: 'disk_src' is not one of the aim7 tests kdelta implements: creat-clo, disk_cp, disk_rd, disk_rr, disk_rw, disk_wrt, sync_disk_cp, sync_disk_rw, sync_disk_wrt" \
	split src.yaml
# lkp-tests' aim7-fs-1brd.yaml, verbatim: Ruby for its loads.
cp "$TESTDATA/job/lkp-tests/aim7-fs-1brd.yaml" .
expect_error 2 "kdelta split: aim7-fs-1brd.yaml:23:9: '{{ ... }}' expressions (lkp-tests' embedded Ruby) are not supported; write the values out" \
	split aim7-fs-1brd.yaml

# aim7's parameters: load is required, bounded; so are sizes and times.
printf 'aim7: {test: disk_rr}\n' >noload.yaml
expect_error 2 "kdelta split: noload.yaml:1:7: aim7: missing required parameter 'load'" \
	split noload.yaml
printf 'aim7: {test: disk_rr, load: 0}\n' >load0.yaml
expect_error 2 "kdelta split: load0.yaml:1:29: aim7.load: expected at least 1, got '0'" \
	split load0.yaml
printf 'aim7: {test: disk_rr, load: 2, block_size: 128M}\n' >block.yaml
expect_error 2 "kdelta split: block.yaml:1:44: aim7.block_size: expected at most 64M, got '128M'" \
	split block.yaml
printf 'aim9: {test: creat-clo, testtime: 0s}\n' >time0.yaml
expect_error 2 "kdelta split: time0.yaml:1:35: aim9.testtime: expected at least 1ms, got '0s'" \
	split time0.yaml
printf 'cpufreq_governor: turbo\naim9: {test: creat-clo}\n' >gov.yaml
expect_error 2 "kdelta split: gov.yaml:1:19: cpufreq_governor: expected one of performance, powersave, schedutil, ondemand, conservative, userspace, got 'turbo'" \
	split gov.yaml

# kdelta 0.1's workload sections are aim7's and aim9's tests now; other
# tests at the top level are most likely meant as such too.
# kdelta 0.1's defaults that aim7 and aim9 do not share are named, to be
# written out.  Every 0.1 section, in each form it took: a mapping, empty,
# a list of mappings, in a later document.
for old in disk_wrt disk_rd disk_rr disk_rw; do
	printf 'fs: xfs\n%s:\n' "$old" >old-disk.yaml
	expect_error 2 "kdelta split: old-disk.yaml:2:1: '$old' is now 'aim7: {test: $old}', with the same parameters; write out those left to kdelta 0.1's defaults (load: 2, testtime: 1s)" \
		split old-disk.yaml
done
# Only the defaults the file left: one that gives testtime is not told to
# write testtime: 1s; one that gives them all is told nothing more.
printf 'creat-clo:\n  testtime: 0.2s\n' >old-creat.yaml
expect_error 2 "kdelta split: old-creat.yaml:1:1: 'creat-clo' is now 'aim9: {test: creat-clo}', with the same parameters" \
	split old-creat.yaml
printf 'runs: 3\ncreat-clo:\n' >old-empty.yaml
expect_error 2 "kdelta run: old-empty.yaml:2:1: 'creat-clo' is now 'aim9: {test: creat-clo}', with the same parameters; write out those left to kdelta 0.1's defaults (testtime: 1s)" \
	"$KDELTA" run old-empty.yaml --commits a,b --result-root results
printf 'fs: xfs\ndisk_wrt: {load: 4}\n' >old-load.yaml
expect_error 2 "kdelta split: old-load.yaml:2:1: 'disk_wrt' is now 'aim7: {test: disk_wrt}', with the same parameters; write out those left to kdelta 0.1's defaults (testtime: 1s)" \
	split old-load.yaml
printf 'fs: xfs\ndisk_rd: {load: 4, testtime: 2s}\n' >old-both.yaml
expect_error 2 "kdelta split: old-both.yaml:2:1: 'disk_rd' is now 'aim7: {test: disk_rd}', with the same parameters" \
	split old-both.yaml
# A list: what any of its items left.
printf 'fs: xfs\ndisk_rr:\n  - {load: 2}\n  - {testtime: 2s}\n' >old-list.yaml
expect_error 2 "kdelta split: old-list.yaml:2:1: 'disk_rr' is now 'aim7: {test: disk_rr}', with the same parameters; write out those left to kdelta 0.1's defaults (load: 2, testtime: 1s)" \
	split old-list.yaml
printf 'aim9: {test: creat-clo}\n---\nfs: ext4\ndisk_rw: {load: 3}\n' >old-doc.yaml
expect_error 2 "kdelta split: old-doc.yaml:4:1: 'disk_rw' is now 'aim7: {test: disk_rw}', with the same parameters; write out those left to kdelta 0.1's defaults (testtime: 1s)" \
	split old-doc.yaml
printf 'disk_cp: {load: 2}\n' >top-test.yaml
expect_error 2 "kdelta split: top-test.yaml:1:1: unknown parameter 'disk_cp'; did you mean 'aim7: {test: disk_cp}'?" \
	split top-test.yaml

# LKP's top-level monitor key: the monitors that are on by default, and
# perf-profile (opt-in) with LKP's delay; not in the job's name.
printf 'perf-profile:\n  delay: 15\naim9: {test: creat-clo}\n' >profile.yaml
split profile.yaml >profile.out 2>&1 || fail "perf-profile: $(cat profile.out)"
[ "$(head -1 profile.out)" = creat-clo ] || fail "perf-profile named: $(head -1 profile.out)"
for line in monitors.perf-profile.delay:\ 15 monitors.proc-vmstat.interval:\ 1s \
	monitors.time:\ {}; do
	grep -qxF "    $line" profile.out || fail "no '$line' in: $(cat profile.out)"
done
printf 'perf-profile: {}\nmonitors: [time]\naim9: {test: creat-clo}\n' >named.yaml
split named.yaml >named.out 2>&1 || fail "perf-profile and monitors: $(cat named.out)"
[ "$(grep -c '^    monitors\.' named.out)" = 2 ] && grep -q '^    monitors\.perf-profile\.' named.out ||
	fail "perf-profile beside a monitors key: $(cat named.out)"

# The seed jobs of jobs/ are named like the robot's.
names "$SRCDIR/jobs/seed-004-aim7.yaml" >seed-004
grep -qx '1BRD_1G-xfs-disk_rr-3-1s-performance' seed-004 &&
	[ "$(wc -l <seed-004)" -eq 18 ] || fail "seed-004-aim7.yaml: $(cat seed-004)"
[ "$(names "$SRCDIR/jobs/seed-002-creat-clo-tmpfs.yaml")" = tmpfs-creat-clo-3s-performance ] ||
	fail "seed-002: $(names "$SRCDIR/jobs/seed-002-creat-clo-tmpfs.yaml")"
finish
