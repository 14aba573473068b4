#!/bin/bash
# Does perf-profile point at the kernel path that changed?  A check of
# kdelta's profile on this machine, run by hand (it measures, so it is no
# test of the suite):
#
#  1. creat-clo (aim9) with LKP's "perf-profile: {}": in each run the
#     kept perf-profile.self.cycles-pp.* values sum to about 100 (perf
#     report's hundredths of the functions at or above 0.05%), and the
#     profile names the kernel's open and close path (do_sys_openat2,
#     path_openat, __x64_sys_close, __fput, ...);
#  2. the same job for two labels, "base" and "stat", whose --setup starts,
#     for "stat" only, a loop of stat() calls beside the workload (in the
#     run's cgroup, which kdelta empties when the run ends): kdelta compare
#     base stat lists the stat() path (vfs_statx, vfs_fstatat,
#     __do_sys_newfstatat) among the perf-profile rows that changed.
#
# usage: bench/profile-check.sh [-n RUNS] [-t TESTTIME] [-T TEST] [-k] [BUILD_DIR]
#        defaults: 8 runs per label of 3s, compare's default test (-T lkp:
#        lkp-tests' rule), build; -k keeps the results and prints where.
#        As root, with perf from Debian's linux-perf.  Exit status 0 when
#        both hold, 1 when one does not, 2 when it cannot run.
set -u
cd "$(dirname "$0")/.." || exit 2
runs=8 testtime=3s test= keep=
while getopts n:t:T:k opt; do
	case $opt in
	n) runs=$OPTARG ;;
	t) testtime=$OPTARG ;;
	T) test=$OPTARG ;;
	k) keep=1 ;;
	*) echo "usage: bench/profile-check.sh [-n RUNS] [-t TESTTIME] [-T TEST] [-k] [BUILD_DIR]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
build=$(realpath "${1:-build}")
kdelta=$build/kdelta
[ -x "$kdelta" ] || { echo "profile-check: $kdelta not built; run: meson compile -C $build" >&2; exit 2; }
command -v python3 >/dev/null || { echo "profile-check: needs python3" >&2; exit 2; }
command -v perf >/dev/null || { echo "profile-check: needs perf (apt-get install linux-perf)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "profile-check: needs root (perf record -a, the runs' cgroups)" >&2; exit 2; }

B=$(mktemp -d "${TMPDIR:-/tmp}/kdelta-profile-check.XXXXXX")
cleanup() {
	# The stat loops the setup started, should a run have left one.
	local pid
	for pid in $(cat "$B/loops" 2>/dev/null); do
		kill "$pid" 2>/dev/null
	done
	if [ -n "$keep" ]; then
		rm -f "$B/loops"
		echo "profile-check: results kept in $B/r"
	else
		rm -rf "$B"
	fi
}
trap cleanup EXIT

cat >"$B/job.yaml" <<EOF
testcase: profile-check
perf-profile: {}
aim9:
  test: creat-clo
  testtime: $testtime
EOF
# The setup hook: for "stat", a stat() loop that outlives the hook (its
# own session) and lasts until kdelta empties the run's cgroup (10 minutes
# at most, should there be no cgroup); the hook returns once it loops.
touch "$B/target"
cat >"$B/setup.sh" <<EOF
case \$1 in
stat)
	rm -f "$B/looping"
	setsid python3 -c '
import os, time
end = time.monotonic() + 600
open("$B/looping", "w").close()
while time.monotonic() < end:
    for _ in range(1000):
        os.stat("$B/target")
' </dev/null >/dev/null 2>&1 &
	echo \$! >>"$B/loops"
	i=0
	while [ ! -e "$B/looping" ]; do
		i=\$((i + 1))
		[ \$i -le 300 ] || { echo "the stat loop did not start" >&2; exit 1; }
		sleep 0.1
	done
	;;
esac
EOF

echo "profile-check: creat-clo with perf-profile, labels base and stat, $runs runs of $testtime each"
"$kdelta" run "$B/job.yaml" --commits base,stat --runs "$runs" \
	--setup "sh $B/setup.sh {commit}" --result-root "$B/r" --work-dir "$B/w" \
	2>"$B/log" || { cat "$B/log" >&2; exit 2; }
# A killed loop whose new parent (init) has not reaped it yet is a zombie.
for pid in $(cat "$B/loops"); do
	state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)
	[ -z "$state" ] || [ "$state" = Z ] ||
		echo "profile-check: a stat loop outlived its run (no cgroup?)" >&2
done
"$kdelta" compare --result-root "$B/r" ${test:+--test "$test"} --format json base stat >"$B/compare.json" \
	2>"$B/log" || { cat "$B/log" >&2; exit 2; }

python3 - "$B" <<'PY'
import glob, gzip, json, os, re, sys

B = sys.argv[1]
failed = False

def fail(msg):
    global failed
    failed = True
    print("   FAIL: " + msg)

# 1. The base runs' profiles.
OPEN_CLOSE = ["do_sys_openat2", "do_filp_open", "path_openat", "__x64_sys_creat",
              "__x64_sys_close", "__fput", "do_unlinkat"]
print("1. the profile of creat-clo (label base)")
run_dirs = sorted(d for d in glob.glob(B + "/r/profile-check/*/*/base/*")
                  if os.path.basename(d).isdigit())
if not run_dirs:
    fail("no run of base")
for d in run_dirs:
    stats = json.load(open(d + "/stats.json"))
    # perf report's own self column, every function: what the kept sum
    # leaves out is the functions below 0.05 each.
    event, raw_self = None, {}
    entry = re.compile(r"^\s*\d+\.\d+%\s+(\d+\.\d+)%\s+\S+\s+\S+\s+(\S+)(\s+\S+\s+\S+)?\s*$")
    with gzip.open(d + "/perf-profile.gz", "rt", errors="replace") as f:
        for line in f:
            m = re.match(r"^# Samples: .* of event '([^']*)'", line)
            if m:
                event = m.group(1)
            m = entry.match(line)
            if m and event:
                name = re.sub(r"\.(isra|constprop|part)\.[0-9]+", "", m.group(2))
                raw_self[name] = raw_self.get(name, 0) + float(m.group(1))
    raw_total = sum(raw_self.values())
    not_kept = sum(v for v in raw_self.values() if v < 0.05)
    selfs = {k: v for k, v in stats.items() if k.startswith("perf-profile.self.cycles-pp.")}
    total = sum(selfs.values())
    top = sorted(selfs.items(), key=lambda kv: -kv[1])[:3]
    print(f"   run {os.path.basename(d)}: event {event}; perf-profile.self.cycles-pp.* sum to "
          f"{total:.2f} over the {len(selfs)} functions kept "
          f"(+ {not_kept:.2f} in {sum(v < 0.05 for v in raw_self.values())} below 0.05 = "
          f"{raw_total:.2f}, perf report's)")
    print("      most self: " + ", ".join(f"{k[len('perf-profile.self.cycles-pp.'):]} {v}" for k, v in top))
    path = [(f, stats.get("perf-profile.children.cycles-pp." + f, 0)) for f in OPEN_CLOSE]
    print("      open/close path (children): " + ", ".join(f"{f} {v}" for f, v in path))
    if event is None:
        fail("perf-profile.gz names no event")
    # "About 100": perf report's hundredths may add up a little past 100;
    # what is not kept is the many functions below 0.05 each, more of them
    # on a busy machine than on a quiet one (and, as in lkp-tests, lines
    # whose function has blanks: C++'s).
    if abs(total + not_kept - raw_total) > 0.5:
        fail(f"kept {total:.2f} + not kept {not_kept:.2f} is not perf report's {raw_total:.2f}")
    if not 75 <= total <= 102:
        fail(f"the kept self values sum to {total:.2f}, not about 100")
    if stats.get("perf-profile.children.cycles-pp.do_sys_openat2", 0) < 1:
        fail("do_sys_openat2 below 1% of the samples: not the open path")
    if not any(stats.get("perf-profile.children.cycles-pp." + f, 0) > 0
               for f in ("__x64_sys_close", "__fput", "filp_close")):
        fail("no close path (__x64_sys_close, __fput, filp_close)")

# 2. What kdelta compare base stat says changed.
STAT_PATH = re.compile(r"^perf-profile\.(children|self)\.cycles-pp\."
                       r"(vfs_statx|vfs_fstatat|__do_sys_newfstatat|__x64_sys_newfstatat|do_statx)$")
cmp = json.load(open(B + "/compare.json"))
print(f"2. kdelta compare --test {cmp['test']} base stat: the perf-profile rows that changed")
changed = []
key = None
for g in cmp["groups"]:
    for m in g["metrics"]:
        cell = next((c for c in m["variants"] if c["variant"] == "stat"), None)
        if cell is None:
            continue
        if m["key"]:
            key = (m["name"], cell["change"], cell["verdict"])
        if cell["verdict"] == "changed" and m["name"].startswith("perf-profile."):
            base = next(c for c in m["variants"] if c["variant"] == "base")
            # A function that no profile of the base kept had none of
            # the samples there (kdelta compares it with zeros; an older
            # kdelta left its mean null).
            changed.append((m["name"], base["mean"] or 0.0, cell["mean"]))
if key:
    print(f"   {key[0]}: {key[1]:+.1f}% ({key[2]})" if key[1] is not None
          else f"   {key[0]}: {key[2]}")
changed.sort(key=lambda r: -abs(r[2] - r[1]))
for name, b, s in changed[:12]:
    print(f"   {b:8.2f} {s - b:+8.2f} {s:8.2f}  {name}{'   <- stat()' if STAT_PATH.match(name) else ''}")
if len(changed) > 12:
    print(f"   ... {len(changed) - 12} more")
hits = [n for n, _, _ in changed if STAT_PATH.match(n)]
if not hits:
    fail("the stat() path is not among the changed rows")
elif not all(s > b for n, b, s in changed if STAT_PATH.match(n)):
    fail("the stat() path changed, but not up")
print("profile-check: " + ("FAILED" if failed else "ok"))
sys.exit(1 if failed else 0)
PY
