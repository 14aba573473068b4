#!/bin/bash
# Issue 11's bar: an lkp-tests aim7 job file with several tests, file
# systems and documents, run at this machine's scale (RAM disks of 512M,
# loads of 1 and 2, 0.1 s per run, 3 runs of 3 commits named as seed 004's),
# and seed 004's GEO-MEAN table of it.  Every group is named like the
# robot's, the governor is applied or noted once, LKP's machine parameters
# are noted once and recorded in every run's job.yaml.  The table is the
# seed's: its header lines, the GEO-MEAN row the geometric mean of the
# groups' rows, one row per group whose columns stand where the seed's do
# (the numbers are this machine's, whatever they are).
source "$TESTLIB"
[ "$(id -u)" -eq 0 ] || skip "needs root (RAM disks, tmpfs)"
command -v mkfs.xfs >/dev/null || skip "mkfs.xfs (xfsprogs) is not installed"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 (e2fsprogs) is not installed"
[ -x /usr/bin/python3 ] || skip "/usr/bin/python3 is not installed"

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
  testtime: 0.1s
cpufreq_governor: performance
---
fs: xfs
aim7: {test: sync_disk_rw, load: 1, testtime: 0.1s}
YAML
labels=(99091700659f4df9 74a242ad94d13436a1644c0b45 bf4dc6e4ecc2a3d042029319bc)
R=$T/results
"$KDELTA" run "$T/aim7.yaml" --commits "$(IFS=,; echo "${labels[*]}")" \
	--runs 3 --result-root "$R" --work-dir "$T/work" 2>"$T/stderr" ||
	fail "run: $(cat "$T/stderr")"
grep -q '^kdelta: 45 run(s) ok, 0 failed; ' "$T/stderr" ||
	fail "not 45 runs ok: $(cat "$T/stderr")"
[ "$(grep -c '^kdelta: kconfig x86_64-rhel-9.4 not applied: ' "$T/stderr")" = 1 ] ||
	fail "kconfig's note not printed once: $(cat "$T/stderr")"
if [ -e /sys/devices/system/cpu/cpu0/cpufreq ]; then
	grep -q 'cpufreq_governor' "$T/stderr" && fail "governor: $(cat "$T/stderr")"
else
	[ "$(grep -c '^kdelta: cpufreq_governor performance not applied: the machine has no cpufreq (no /sys/devices/system/cpu/cpu\*/cpufreq)$' "$T/stderr")" = 1 ] ||
		fail "the governor's note not printed once: $(cat "$T/stderr")"
fi
job=$(echo "$R"/aim7/performance-1BRD_512M-xfs-2-disk_rr-0.1s/*/"${labels[1]}"/0/job.yaml)
grep -q '^  not_applied:$' "$job" && grep -q '^    kconfig: kdelta runs the kernel' "$job" ||
	fail "kdelta.not_applied is not recorded in $job"
h=$(basename "$(dirname "$(dirname "$(dirname "$job")")")")

"$KDELTA" compare --result-root "$R" --summary aim7.jobs-per-min "${labels[@]}" \
	>"$T/summary" 2>"$T/err" || fail "--summary: $(cat "$T/err")"
cat >"$T/groups" <<EOT
aim7/performance-1BRD_512M-ext4-2-creat-clo-0.1s/$h
aim7/performance-1BRD_512M-ext4-2-disk_rr-0.1s/$h
aim7/performance-1BRD_512M-xfs-1-sync_disk_rw-0.1s/$h
aim7/performance-1BRD_512M-xfs-2-creat-clo-0.1s/$h
aim7/performance-1BRD_512M-xfs-2-disk_rr-0.1s/$h
EOT
# The seed's lines lost their first blank to the mail's quoting, and the
# header's last "\" went onto the GEO-MEAN row (testdata/render's file
# says so); both are put back.
python3 - "$TESTDATA/render/seed004-summary.txt" "$T/summary" "$T/groups" <<'PY' ||
import math, re, sys
seed = [l[4:].rstrip("\n").replace("\u00c2", "\u00b1")
        for l in open(sys.argv[1], encoding="utf-8") if l.startswith("> > ")]
seed = [" " + l if l.startswith(" ") else l for l in seed]
got = open(sys.argv[2], encoding="utf-8").read().rstrip("\n").split("\n")
# kdelta's table ends with each group's verdict lines and the legend of
# its marks, which the seed lacks.
legend = got.pop() if got and got[-1].startswith("marks: ") else ""
# (a verdict line's continuation: four blanks, then neither a blank nor
# a digit, which the table's right-aligned means are)
verdicts = []
while got and re.match(r"^\S|^    [^\d\s]", got[-1]):
    verdicts.insert(0, got.pop())
groups = open(sys.argv[3]).read().split()
bad = []

def check(ok, what):
    if not ok:
        bad.append(what)

# One verdict line per group and later column, in words.
check(sorted(l.split(", ")[0] for l in verdicts if not l.startswith(" "))
      == sorted(groups * 2), "verdict lines: %r" % verdicts)

# The header: labels, rules and the %stddev lines, as in the seed.
check(legend.startswith("marks: -19% changed"), "no legend of the marks")
check(got[:3] == seed[:3], "header lines 1-3")
check(got[3].rstrip() == seed[3] + " " * 16 + "\\", "header line 4")

def cells(line):
    """Each token's kind and the column where it ends (the name: starts)."""
    out, pos = [], 0
    for m in re.finditer(r"± *\d+%|-?\d+%|\d+|\S.*", line):
        t = m.group()
        kind = ("stddev" if t.startswith("±") else "change" if t.endswith("%")
                else "mean" if t.isdigit() else "name")
        out.append((kind, m.start() if kind == "name" else m.end(), t))
    return out

def layout(line):
    return {(k, c) for k, c, _ in cells(line)}

# Where the seed's means and changes end and its names start; a "±"
# stands right after its mean (the seed shows them in the first column).
allowed = set()
for line in seed[6:13]:
    allowed |= layout(line)
allowed |= {("stddev", c + 6) for k, c in allowed if k == "mean"}
rows = got[5:]
check([c[-1][2] for c in map(cells, rows)] == groups,
      "groups: %s" % [c[-1][2] for c in map(cells, rows)])
means = []
for line in [got[4]] + rows:
    c = cells(line)
    check(layout(line) <= allowed, "columns not the seed's: %r" % line)
    means.append([int(t) for k, _, t in c if k == "mean"])
    check(len(means[-1]) == 3, "not 3 means: %r" % line)
check(cells(got[4])[-1][2] == "GEO-MEAN aim7.jobs-per-min", "GEO-MEAN row: %r" % got[4])
check(not any(k in ("stddev", "change") for k, _, _ in cells(got[4])),
      "GEO-MEAN row with a ± or change: %r" % got[4])
# The groups' means are printed to whole numbers (rounded or cut): each
# true mean lies within [m - 0.5, m + 1), and so does, for their geometric
# mean, the one of those bounds.
for v in range(3):
    groups = [m[v] for m in means[1:]]
    geo = math.exp(sum(math.log(max(m, 0.5)) for m in groups) / len(rows))
    low = math.exp(sum(math.log(max(m - 0.5, 0.25)) for m in groups) / len(rows))
    high = math.exp(sum(math.log(m + 1) for m in groups) / len(rows))
    check(low - 1 <= means[0][v] <= high + 1,
          "GEO-MEAN of column %d: %d, the groups' is %.1f" % (v, means[0][v], geo))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
	fail "--summary is not seed 004's table: $(cat "$T/summary")"

# md RAID over RAM disks (lkp-tests' aim7-fs-raid.yaml): on a kernel
# with md (after modprobe md_mod), the run makes a RAID0 of the two loop
# devices and leaves none of it behind; on one without, each run fails
# with one line that says so and names --kernel.  (Two of 150M: RAID0 of
# less would be too small for xfs, refused as it loads.)
printf 'monitors: {}\ndisk: 2BRD_150M\nmd: RAID0\nfs: xfs\naim9: {test: creat-clo, testtime: 0.1s}\n' >"$T/md.yaml"
"$KDELTA" run "$T/md.yaml" --commit a --runs 1 --result-root "$T/md" \
	--work-dir "$T/work" >/dev/null 2>"$T/md.err"
md_status=$?
md_run=$(ls -d "$T"/md/aim9/2BRD_150M-xfs-RAID0-creat-clo-0.1s/*/a/0)
if [ -e /proc/mdstat ]; then
	[ "$md_status" = 0 ] && [ "$(cat "$md_run/complete")" = ok ] ||
		fail "an md run on a kernel with md: $(cat "$T/md.err")"
	grep -q "^  fs: 'xfs on /dev/md[0-9]* (md RAID0 over 2BRD_150M: mdadm --detail says raid0, 2 devices, chunk 256K, " "$md_run/job.yaml" ||
		fail "the md run does not record its array: $(grep '^  fs:' "$md_run/job.yaml")"
	grep -q "$T/work" /proc/mdstat /proc/self/mountinfo && fail "the md run left its array or a mount"
	losetup -a | grep -q "$T/work" && fail "the md run left a loop device: $(losetup -a)"
else
	why="md: RAID0 over 2BRD_150M needs the kernel's md driver, and this kernel has none (no /proc/mdstat, no md_mod module); run the job in a guest of a kernel that has it: kdelta run --kernel LABEL=PATH"
	[ "$md_status" = 1 ] && [ "$(cat "$md_run/complete")" = "failed: $why" ] &&
		grep -qxF "kdelta: [1/1] 2BRD_150M-xfs-RAID0-creat-clo-0.1s/a run 1/1: failed: $why" "$T/md.err" ||
		fail "the md run's failure: $(cat "$T/md.err")"
fi
finish
