#!/bin/bash
# The runner's benchmarks, printed as ratios measured side by side, the two
# sides interleaved so that drift of the machine falls on both alike:
#
#  1. harness overhead: creat-clo run by kdelta (all monitors, defaults)
#     vs bench/bare-creat-clo, the same loop with no kdelta around it;
#     10 pairs; the ratio of mean ops/s (goal >= 0.98);
#  2. monitor overhead: the same creat-clo job with the monitors that are on
#     by default, at their defaults, vs "monitors: {}"; 6 pairs; % slower
#     (goal <= 1%); and raw bytes the monitors stored per minute; and
#     their own CPU time (kdelta's and perf's, with the monitors on around
#     "sleep 10" minus with none; 3 pairs): a figure load disturbs less;
#  3. perf-profile's overhead (off by default): the job with perf-profile
#     alone vs "monitors: {}"; 6 pairs; % slower, and the profile's raw
#     bytes per minute.  Needs perf (Debian's linux-perf) and root.
#  4. with --each, after those: each monitor that is on by default, alone,
#     vs "monitors: {}"; 4 pairs of 5 s each; % slower (which one costs,
#     should 2. be above its goal).
#
# usage: bench/run.sh [--each] [BUILD_DIR]   (default: build; run as root
# for the monitors root alone may read, such as slabinfo, and for perf)
set -u
cd "$(dirname "$0")/.." || exit 2
each=
if [ "${1:-}" = --each ]; then
	each=1
	shift
fi
build=$(realpath "${1:-build}")
kdelta=$build/kdelta
bare=$build/bench/bare-creat-clo
for f in "$kdelta" "$bare"; do
	[ -x "$f" ] || { echo "bench: $f not built; run: meson compile -C $build" >&2; exit 2; }
done
command -v python3 >/dev/null || { echo "bench: needs python3" >&2; exit 2; }

B=$(mktemp -d "${TMPDIR:-/tmp}/kdelta-bench.XXXXXX")
trap 'rm -rf "$B"' EXIT
mkdir -p "$B/bare"

job() {	# job NAME TESTTIME [MONITORS-LINE]
	{
		echo "testcase: $1"
		[ $# -ge 3 ] && echo "$3"
		echo "aim9:"
		echo "  test: creat-clo"
		echo "  testtime: $2"
	} >"$B/$1.yaml"
}

# kdelta_ops NAME COMMIT: one run; prints its ops/s.
kdelta_ops() {
	"$kdelta" run "$B/$1.yaml" --commit "$2" --runs 1 --result-root "$B/r" \
		--work-dir "$B/w" 2>"$B/log" || { cat "$B/log" >&2; exit 1; }
	local dir last
	dir=$(echo "$B"/r/"$1"/*/*/"$2")
	last=$(ls "$dir" | grep -x '[0-9]*' | sort -n | tail -1)
	sed -n 's/^creat-clo\.ops_per_sec: //p' "$dir/$last/aim9.log"
}

# pairs N WHAT ON-JOB ON-LABEL OFF-JOB OFF-LABEL: N runs of each side,
# interleaved, into the arrays on and off; each pair printed unless WHAT is
# empty.
pairs() {
	local n=$1 what=$2 i a b
	on=() off=()
	for i in $(seq "$n"); do
		a=$(kdelta_ops "$3" "$4") && b=$(kdelta_ops "$5" "$6") || exit 1
		on+=("$a")
		off+=("$b")
		[ -z "$what" ] ||
			printf '   pair %2d: %s %12.0f ops/s   none %12.0f ops/s\n' "$i" "$what" "$a" "$b"
	done
}

# slower WHAT [NOTE]: how much slower the runs of on were than those of off.
slower() {
	python3 - "$1" "${2:-}" "${on[*]}" "${off[*]}" <<'PY'
import statistics as s, sys
what, note = sys.argv[1], sys.argv[2]
on = [float(x) for x in sys.argv[3].split()]
off = [float(x) for x in sys.argv[4].split()]
pairs = sorted(100 * (1 - a / b) for a, b in zip(on, off))
line = f"   {what} {100 * (1 - s.mean(on) / s.mean(off)):+.2f}% slower than without"
line += f" ({note})" if note else ""
line += f"; per pair: median {s.median(pairs):+.2f}%, range {pairs[0]:+.2f}%..{pairs[-1]:+.2f}%"
if len(on) > 1:
    line += (f"; stddev on {100 * s.stdev(on) / s.mean(on):.1f}%, "
             f"off {100 * s.stdev(off) / s.mean(off):.1f}%")
print(line)
PY
}

echo "1. harness overhead: creat-clo via kdelta vs a bare loop, 10 pairs of 3 s"
job harness 3s
bare_ops=() kd_ops=()
for i in $(seq 10); do
	# In a new directory each time, on the same file system, as each of
	# kdelta's runs is: the two sides differ only by kdelta.
	dir=$(mktemp -d "$B/bare/run.XXXXXX")
	bare_ops+=("$(cd "$dir" && "$bare" 3 | sed -n 's/^ops_per_sec: //p')")
	rm -rf "$dir"
	kd_ops+=("$(kdelta_ops harness h)") || exit 1
	printf '   pair %2d: bare %12.0f ops/s   kdelta %12.0f ops/s\n' "$i" \
		"${bare_ops[-1]}" "${kd_ops[-1]}"
done
python3 - "${bare_ops[*]}" "${kd_ops[*]}" <<'PY'
import statistics as s, sys
bare = [float(x) for x in sys.argv[1].split()]
kd = [float(x) for x in sys.argv[2].split()]
r = s.mean(kd) / s.mean(bare)
pairs = sorted(k / b for k, b in zip(kd, bare))
print(f"   ratio kdelta/bare of mean ops/s: {r:.4f} (goal >= 0.98); "
      f"per pair: median {s.median(pairs):.4f}, range {pairs[0]:.4f}..{pairs[-1]:.4f}; "
      f"stddev bare {100 * s.stdev(bare) / s.mean(bare):.1f}%, kdelta {100 * s.stdev(kd) / s.mean(kd):.1f}%")
PY

echo "2. monitor overhead: the default monitors vs none, 6 pairs of 10 s"
job mon 10s
job nomon 10s 'monitors: {}'
pairs 6 monitors mon m nomon n
slower "with monitors" "goal <= 1%"
raw=$(cat "$B"/r/mon/*/*/m/*/*.gz | wc -c)
secs=$(cat "$B"/r/mon/*/*/m/*/stats.json | sed -n 's/.*"time.elapsed_time": *\([0-9.]*\).*/\1/p' |
	python3 -c 'import sys; print(sum(float(l) for l in sys.stdin))')
python3 -c 'import sys; raw, secs = int(sys.argv[1]), float(sys.argv[2]); print(
	f"   raw samples stored: {raw} bytes in {secs:.0f} s of workload = "
	f"{raw / secs * 60 / 1024:.0f} KiB per minute of monitoring")' "$raw" "$secs"

# cpu_ms NAME COMMIT: CPU time (ms) of one run of kdelta, with its
# children (perf stat, the workload), as getrusage(RUSAGE_CHILDREN) sees it.
cpu_ms() {
	python3 - "$kdelta" "$B" "$1" "$2" <<'PY'
import resource, subprocess, sys
kdelta, B, name, commit = sys.argv[1:]
subprocess.run([kdelta, "run", f"{B}/{name}.yaml", "--commit", commit, "--runs", "1",
                "--result-root", f"{B}/r", "--work-dir", f"{B}/w"],
               check=True, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(round((r.ru_utime + r.ru_stime) * 1000))
PY
}
printf 'testcase: sleep\nexec:\n  argv: [sleep, "10"]\n' >"$B/sleep.yaml"
printf 'testcase: sleep0\nmonitors: {}\nexec:\n  argv: [sleep, "10"]\n' >"$B/sleep0.yaml"
on=() off=()
for i in $(seq 3); do
	on+=("$(cpu_ms sleep s)") || exit 1
	off+=("$(cpu_ms sleep0 s0)") || exit 1
done
python3 - "${on[*]}" "${off[*]}" <<'PY'
import statistics as s, sys
on = [float(x) for x in sys.argv[1].split()]
off = [float(x) for x in sys.argv[2].split()]
ms = (s.mean(on) - s.mean(off)) / 10
print(f"   the monitors' own CPU time: {ms:.1f} ms per second of run = {ms / 10:.2f}% of one CPU "
      f"(around sleep 10: {s.mean(on):.0f} ms with them, {s.mean(off):.0f} ms without)")
PY

echo "3. perf-profile overhead: perf-profile alone vs none, 6 pairs of 10 s"
if ! command -v perf >/dev/null || [ "$(id -u)" != 0 ]; then
	echo "   skipped: needs perf (apt-get install linux-perf) and root"
else
	job prof 10s 'monitors: {perf-profile: {}}'
	pairs 6 perf-profile prof p nomon n
	slower "with perf-profile" "off by default"
	raw=$(cat "$B"/r/prof/*/*/p/*/perf-profile.gz | wc -c)
	# 6 runs of 10 s: a minute of profile
	echo "   perf report text stored: $raw bytes for 6 runs of 10 s =" \
		"$((raw / 1024)) KiB per minute of profile"
fi

[ -n "$each" ] || exit 0
echo "4. each monitor that is on by default, alone vs none, 4 pairs of 5 s"
# The default monitors: those a job gets beside LKP's perf-profile key.
printf 'perf-profile: {}\naim9: {test: creat-clo}\n' >"$B/defaults.yaml"
defaults=$("$kdelta" split --print "$B/defaults.yaml" |
	sed -n 's/^    monitors\.\([^.:]*\)[.:].*/\1/p' | uniq | grep -vx perf-profile)
job nomon5 5s 'monitors: {}'
for m in $defaults; do
	job "one-$m" 5s "monitors: [$m]"
	pairs 4 "" "one-$m" o nomon5 n5
	slower "$(printf '%-14s' "$m")"
done
