#!/bin/bash
# An lkp-tests aim7 job file with several tests, file systems and
# documents, run at this machine's scale, and seed 004's table of it:
# every group named like the robot's, aim7.jobs-per-min in each, the
# governor applied or noted once, LKP's machine parameters noted once and
# recorded in every run's job.yaml.
source "$TESTLIB"
[ "$(id -u)" -eq 0 ] || skip "needs root (RAM disks, tmpfs)"
command -v mkfs.xfs >/dev/null || skip "mkfs.xfs (xfsprogs) is not installed"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 (e2fsprogs) is not installed"

cat >"$T/aim7.yaml" <<'YAML'
suite: aim7
testcase: aim7
category: benchmark
kconfig: x86_64-rhel-9.4
disk: 1BRD_512M
fs: [ext4, xfs]
aim7:
  test: [disk_rr, creat-clo]
  load: 2
  testtime: 0.2s
cpufreq_governor: performance
---
aim7: {test: sync_disk_rw, load: 1, testtime: 0.2s}
YAML
R=$T/results
"$KDELTA" run "$T/aim7.yaml" --commits a,b --runs 1 --result-root "$R" \
	--work-dir "$T/work" 2>"$T/stderr" || fail "run: $(cat "$T/stderr")"
grep -q '^kdelta: 12 run(s) ok, 0 failed; ' "$T/stderr" ||
	fail "not 12 runs ok: $(cat "$T/stderr")"
[ "$(grep -c '^kdelta: kconfig x86_64-rhel-9.4 not applied: ' "$T/stderr")" = 1 ] ||
	fail "kconfig's note not printed once: $(cat "$T/stderr")"
if [ -e /sys/devices/system/cpu/cpu0/cpufreq ]; then
	grep -q 'cpufreq_governor' "$T/stderr" && fail "governor: $(cat "$T/stderr")"
else
	[ "$(grep -c '^kdelta: cpufreq_governor performance not applied: the machine has no cpufreq (no /sys/devices/system/cpu/cpu\*/cpufreq)$' "$T/stderr")" = 1 ] ||
		fail "the governor's note not printed once: $(cat "$T/stderr")"
fi
host=$(hostname)
job=$(echo "$R"/aim7/1BRD_512M-xfs-disk_rr-2-0.2s-performance/*/b/0/job.yaml)
grep -q '^  not_applied:$' "$job" && grep -q '^    kconfig: kdelta runs the kernel' "$job" ||
	fail "kdelta.not_applied is not recorded in $job"

"$KDELTA" compare --result-root "$R" --summary aim7.jobs-per-min a b \
	>"$T/summary" 2>"$T/err" || fail "--summary: $(cat "$T/err")"
sed -n '5,$p' "$T/summary" | sed 's/.*  //' >"$T/groups"
h=$(sed -n 6p "$T/summary" | sed 's|.*/||')
cat >"$T/want" <<WANT
GEO-MEAN aim7.jobs-per-min
aim7/1BRD_512M-ext4-creat-clo-2-0.2s-performance/$h
aim7/1BRD_512M-ext4-disk_rr-2-0.2s-performance/$h
aim7/1BRD_512M-ext4-sync_disk_rw-1-0.2s-performance/$h
aim7/1BRD_512M-xfs-creat-clo-2-0.2s-performance/$h
aim7/1BRD_512M-xfs-disk_rr-2-0.2s-performance/$h
aim7/1BRD_512M-xfs-sync_disk_rw-1-0.2s-performance/$h
WANT
diff -u "$T/want" "$T/groups" >&2 || fail "--summary groups: $(cat "$T/summary")"
[ -n "$h" ] && [ "$h" = "$(basename "$(dirname "$(dirname "$(dirname "$job")")")")" ] ||
	fail "host directory '$h' (hostname $host)"
finish
