#!/bin/bash
# lkp-tests' job files: the SYNOPSIS of kdelta-job(5), LKP's infrastructure
# parameters, job names as lkp-tests makes them, includes, and one clear
# line for what kdelta cannot run (tests it does not implement, the
# sections kdelta 0.1 had).  lkp-tests' own files: lkp-tests-jobs.sh.
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
[ "$(names synopsis.yaml | tr '\n' ' ')" = "1BRD_48G-btrfs-3000-disk_cp 1BRD_48G-btrfs-3000-disk_rr 1BRD_48G-ext4-3000-disk_cp 1BRD_48G-ext4-3000-disk_rr 1BRD_48G-xfs-3000-disk_cp 1BRD_48G-xfs-3000-disk_rr " ] ||
	fail "the SYNOPSIS of kdelta-job(5): $(names synopsis.yaml)"

# LKP's infrastructure parameters load; the governor is in the name (the
# robot's performance-1BRD_48G-xfs-3000-disk_rr: lkp-tests' names sort
# the parameters by key), the machine's are not.
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
[ "$(names lkp.yaml | tr '\n' ' ')" = "performance-1BRD_48G-xfs-3000-disk_rr performance-1BRD_48G-xfs-3000-disk_wrt " ] ||
	fail "LKP names: $(names lkp.yaml)"
split lkp.yaml | grep -qx '    kconfig: x86_64-rhel-9.4' || fail "kconfig is not kept"
# LKP's common options: the workload's own when it has them (aim7's
# nr_task, in the name as lkp-tests puts it), else kept and not named, as
# lkp-tests names a job by its programs' options only.
printf 'nr_threads: [50%%, 100%%]\naim9: {test: creat-clo}\n' >threads.yaml
[ "$(names threads.yaml | tr '\n' ' ')" = "creat-clo-10s creat-clo-10s-2 " ] ||
	fail "nr_threads names: $(names threads.yaml)"
printf 'nr_task: 200%%\nruntime: 300s\naim7: {test: disk_rr}\n' >task.yaml
[ "$(names task.yaml)" = "200%-disk_rr" ] || fail "nr_task names: $(names task.yaml)"
split task.yaml | grep -qx '    aim7.nr_task: 200%' || fail "nr_task is not aim7's"
split task.yaml | grep -qx '    runtime: 300s' || fail "runtime is not kept"
printf 'nr_task: 2\naim7: {test: disk_rr, nr_task: 3}\n' >twice.yaml
expect_error 2 "kdelta split: twice.yaml:1:1: 'nr_task' is given twice: at the top level and in aim7" \
	split twice.yaml

printf 'aim7:\n  test: [disk_rr, disk_foo]\n  load: 3000\n' >foo.yaml
expect_error 2 "kdelta split: foo.yaml:2:19: aim7.test: 'disk_foo' is not one of the aim7 tests kdelta implements: creat-clo, disk_cp, disk_rd, disk_rr, disk_rw, disk_src, disk_wrt, sync_disk_cp, sync_disk_rw, sync_disk_wrt" \
	split foo.yaml

# lkp-tests' includes: beside the file, with keys set; a cycle is refused.
mkdir inc
printf 'fs: xfs\ndisk: 1BRD_1G\naim7: {test: disk_rr, load: 2}\n---\naim7: {test: disk_wrt, load: 3}\n' >inc/base.yaml
printf 'fs: ext4\n<<: base.yaml\n<<: {file: more.yaml, disk: 2BRD_1G}\nmd: RAID1\n' >inc/top.yaml
printf 'cpufreq_governor: performance\n' >inc/more.yaml
[ "$(names inc/top.yaml | tr '\n' ' ')" = "1BRD_1G-xfs-2-disk_rr performance-2BRD_1G-xfs-3-RAID1-disk_wrt " ] ||
	fail "includes: $(names inc/top.yaml)"
printf '<<: b.yaml\n' >inc/a.yaml
printf 'fs: tmpfs\n<<: a.yaml\n' >inc/b.yaml
expect_error 2 "kdelta split: inc/b.yaml:2:1: '<<: a.yaml' includes $T/inc/a.yaml, which is being included already: a cycle of includes" \
	split inc/a.yaml
printf '<<: none.yaml\n' >inc/none-top.yaml
expect_error 2 "kdelta split: inc/none-top.yaml:1:1: '<<: none.yaml': inc/none.yaml is not a job file beside the file that includes it" \
	split inc/none-top.yaml
# lkp-tests' tree, written here in its layout (programs/<name>/ with a
# run, setup, daemon or monitor script; jobs/ beside it): an include that
# is not beside the file is found at the tree's top or below jobs/, and
# what a job names that kdelta does not build in is said by its kind.
mkdir -p tree/programs/bench tree/programs/prep tree/programs/srv \
	tree/programs/watch tree/jobs/sub/deeper tree/jobs/other
touch tree/programs/bench/run
for p in prep/setup srv/daemon watch/monitor; do
	printf '#!/bin/sh\n' >"tree/programs/$p" && chmod +x "tree/programs/$p"
done
printf 'fs: tmpfs\n' >tree/jobs/common.yaml
printf 'runs: 2\n' >tree/jobs/other/deep.yaml
printf '<<: common.yaml\n<<: deep.yaml\n<<: jobs/common.yaml\naim9: {test: creat-clo}\n' >tree/jobs/sub/deeper/inc.yaml
split tree/jobs/sub/deeper/inc.yaml >tree-inc.out 2>&1 &&
	grep -qx '    fs: tmpfs' tree-inc.out && grep -qx '    runs: 2' tree-inc.out ||
	fail "includes from lkp-tests' tree: $(cat tree-inc.out)"
printf '<<: ./common.yaml\naim9: {test: creat-clo}\n' >tree/jobs/sub/dot.yaml
expect_error 2 "kdelta split: tree/jobs/sub/dot.yaml:1:1: '<<: ./common.yaml': tree/jobs/sub/./common.yaml is not a job file beside the file that includes it" \
	split tree/jobs/sub/dot.yaml
printf '<<: missing.yaml\naim9: {test: creat-clo}\n' >tree/jobs/sub/nowhere.yaml
expect_error 2 "kdelta split: tree/jobs/sub/nowhere.yaml:1:1: '<<: missing.yaml': no job file tree/jobs/sub/missing.yaml beside the file that includes it, nor below $(realpath tree/jobs)" \
	split tree/jobs/sub/nowhere.yaml
# The worst of what a file asks for: a cluster, then a benchmark, a
# daemon, a setup script, a monitor, a section of nothing lkp-tests has.
printf 'runtime: 300s\nwatch:\nprep: {x: 1}\nsrv:\nbench: {test: a}\n' >tree/jobs/kinds.yaml
expect_error 2 "kdelta split: tree/jobs/kinds.yaml:5:1: benchmark 'bench' is not built into kdelta; an 'exec' job can run it, see kdelta-job(5)" \
	split tree/jobs/kinds.yaml
printf 'watch:\nprep: {x: 1}\nsrv:\naim9: {test: creat-clo}\n' >tree/jobs/daemon.yaml
expect_error 2 "kdelta split: tree/jobs/daemon.yaml:3:1: daemon 'srv' is not built into kdelta; an 'exec' job's command can start it beside its benchmark, see kdelta-job(5)" \
	split tree/jobs/daemon.yaml
printf 'watch:\nprep: {x: 1}\naim9: {test: creat-clo}\n' >tree/jobs/setup.yaml
expect_error 2 "kdelta split: tree/jobs/setup.yaml:2:1: setup 'prep' is not built into kdelta; kdelta run --setup runs a command before each run, see kdelta(1)" \
	split tree/jobs/setup.yaml
printf 'cpufreq_governor: performance\nwatch: {interval: 1}\naim9: {test: creat-clo}\n' >tree/jobs/monitor.yaml
expect_error 2 "kdelta split: tree/jobs/monitor.yaml:2:1: monitor 'watch' is not built into kdelta; see kdelta-job(5) for those it has" \
	split tree/jobs/monitor.yaml
printf 'cluster: cs-localhost\nif role server:\n  srv:\nif role client:\n  bench:\n' >tree/jobs/cluster.yaml
expect_error 2 "kdelta split: tree/jobs/cluster.yaml:1:1: a cluster job ('cluster: cs-localhost') is not built into kdelta, which runs each job on one machine" \
	split tree/jobs/cluster.yaml
printf 'nothing-here:\n  a: 1\nwatch:\n' >tree/jobs/section.yaml
expect_error 2 "kdelta split: tree/jobs/section.yaml:3:1: monitor 'watch' is not built into kdelta; see kdelta-job(5) for those it has" \
	split tree/jobs/section.yaml
printf 'nothing-here:\n  a: 1\n' >tree/jobs/section.yaml
expect_error 2 "kdelta split: tree/jobs/section.yaml:1:1: section 'nothing-here' is not built into kdelta: no workload or monitor of kdelta has that name; an 'exec' job can run a benchmark, see kdelta-job(5)" \
	split tree/jobs/section.yaml
# A file outside the tree: LKP_SRC names it, as for lkp-tests.
cp tree/jobs/kinds.yaml outside.yaml
expect_error 2 "kdelta split: outside.yaml:5:1: benchmark 'bench' is not built into kdelta; an 'exec' job can run it, see kdelta-job(5)" \
	env LKP_SRC="$T/tree" "$KDELTA" split --print outside.yaml
expect_error 2 "kdelta split: outside.yaml:2:1: section 'watch' is not built into kdelta: no workload or monitor of kdelta has that name; an 'exec' job can run a benchmark, see kdelta-job(5)" \
	split outside.yaml
# lkp-tests' disks, file systems and md levels that kdelta does not make.
printf 'disk: 1SSD\nfs: xfs\naim9: {test: creat-clo}\n' >ssd.yaml
expect_error 2 "kdelta split: ssd.yaml:1:7: disk: '1SSD' is not built into kdelta, which makes RAM disks: <N>BRD_<size>, like 1BRD_48G" \
	split ssd.yaml
printf 'disk: 1BRD_1G\nfs: f2fs\naim9: {test: creat-clo}\n' >f2fs.yaml
expect_error 2 "kdelta split: f2fs.yaml:2:5: fs: 'f2fs' is not built into kdelta, which has xfs, ext4, btrfs, tmpfs" \
	split f2fs.yaml
# A misspelt test's name gets the nearest; a short other name (f2fs) not.
printf 'aim9: {test: creat_clo}\n' >creat_clo.yaml
"$KDELTA" split --print creat_clo.yaml 2>&1 | grep -q "aim9.test: 'creat_clo' is not one of the .*; did you mean 'creat-clo'?$" ||
	fail "no 'did you mean' for creat_clo: $("$KDELTA" split --print creat_clo.yaml 2>&1)"
printf 'disk: 4BRD_1G\nmd: BRAID0\nfs: xfs\naim9: {test: creat-clo}\n' >braid.yaml
expect_error 2 "kdelta split: braid.yaml:2:5: md: 'BRAID0' is not built into kdelta, which has RAID0, RAID1, RAID5, RAID6, RAID10; did you mean 'RAID0'?" \
	split braid.yaml

# Several RAM disks make one device with md, which the runner does not build.
printf 'fs: xfs\ndisk: 4BRD_1G\naim9: {test: creat-clo}\n' >nomd.yaml
expect_error 2 "kdelta split: nomd.yaml:2:7: disk: 4BRD_1G is 4 RAM disks and a run has one file system: add md: RAID0 (or another level) to make one device of them, or use 1BRD_<size>" \
	split nomd.yaml
printf 'fs: xfs\ndisk: 3BRD_1G\nmd: RAID6\naim9: {test: creat-clo}\n' >raid6.yaml
expect_error 2 "kdelta split: raid6.yaml:3:5: md: RAID6 needs at least 4 disks, and disk: 3BRD_1G has 3" \
	split raid6.yaml

# aim7's parameters: load is required, bounded; so are sizes and times.
printf 'aim7: {test: disk_rr}\n' >noload.yaml
expect_error 2 "kdelta split: noload.yaml:1:7: aim7: give load (the worker processes) or nr_task" \
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
expect_error 2 "kdelta split: top-test.yaml:1:1: unknown parameter 'disk_cp'; did you mean 'aim7: {test: disk_cp}' or 'aim9: {test: disk_cp}'?" \
	split top-test.yaml

# LKP's top-level monitor key: the monitors that are on by default, and
# perf-profile (opt-in) with LKP's delay; not in the job's name.
printf 'perf-profile:\n  delay: 15\naim9: {test: creat-clo}\n' >profile.yaml
split profile.yaml >profile.out 2>&1 || fail "perf-profile: $(cat profile.out)"
[ "$(head -1 profile.out)" = creat-clo-10s ] || fail "perf-profile named: $(head -1 profile.out)"
for line in monitors.perf-profile.delay:\ 15 monitors.proc-vmstat.interval:\ 1s \
	monitors.time:\ {}; do
	grep -qxF "    $line" profile.out || fail "no '$line' in: $(cat profile.out)"
done
printf 'perf-profile: {}\nmonitors: [time]\naim9: {test: creat-clo}\n' >named.yaml
split named.yaml >named.out 2>&1 || fail "perf-profile and monitors: $(cat named.out)"
[ "$(grep -c '^    monitors\.' named.out)" = 2 ] && grep -q '^    monitors\.perf-profile\.' named.out ||
	fail "perf-profile beside a monitors key: $(cat named.out)"

# A store written by earlier kdelta has a job under the name it gave (the
# values in file order, defaults left out): runs go on there.
printf 'monitors: {}\naim9: {testtime: 0.05s, test: creat-clo}\n' >old-store.yaml
mkdir -m 700 w && mkdir -p old/aim9/0.05s-creat-clo
"$KDELTA" run old-store.yaml --commit a --runs 1 --result-root old \
	--work-dir w >/dev/null 2>run.err || fail "run into an old store: $(cat run.err)"
[ -f old/aim9/0.05s-creat-clo/*/a/0/complete ] && [ ! -e old/aim9/creat-clo-0.05s ] ||
	fail "the run did not go to the old store's directory: $(find old)"
"$KDELTA" run old-store.yaml --commit a --runs 1 --result-root new \
	--work-dir w >/dev/null 2>run.err || fail "run into a new store: $(cat run.err)"
[ -f new/aim9/creat-clo-0.05s/*/a/0/complete ] ||
	fail "the run did not go to lkp-tests' name: $(find new)"

# The seed jobs of jobs/ are named like the robot's.
names "$SRCDIR/jobs/seed-004-aim7.yaml" >seed-004
grep -qx 'performance-1BRD_1G-xfs-3-disk_rr-1s' seed-004 &&
	[ "$(wc -l <seed-004)" -eq 18 ] || fail "seed-004-aim7.yaml: $(cat seed-004)"
[ "$(names "$SRCDIR/jobs/seed-002-creat-clo-tmpfs.yaml")" = performance-tmpfs-creat-clo-3s ] ||
	fail "seed-002: $(names "$SRCDIR/jobs/seed-002-creat-clo-tmpfs.yaml")"
finish
