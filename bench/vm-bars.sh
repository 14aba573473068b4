#!/bin/bash
# The measures of kdelta run --kernel (issue 19's bars), run by hand: they
# boot dozens of guests and measure, so they are no test of the suite.
# Debian's cloud and rt kernels of one 6.1 release are fetched as the VM
# tests fetch them (tests/vm/kernels.sh, cached in $KDELTA_TEST_CACHE).
#
#   bench/vm-bars.sh overhead [BOOTS]   BOOTS boots (default 5) of the
#       cloud kernel under TCG with the real clock, each running a 1 s
#       creat-clo: from QEMU's start to the first run, by this machine's
#       clock and by the guest's, and what each boot cost in all.
#   bench/vm-bars.sh leftovers [BOOTS] [KILLS]   BOOTS boots (default 20),
#       KILLS of them (default 5) cut by kill -9 of kdelta while the guest
#       runs; then one more kdelta run cleans up, and nothing of them may
#       be left: no QEMU, no workspace, no import, no mount, no loop
#       device, no temporary file ($TMPDIR), no cgroup of a workspace.
#   bench/vm-bars.sh compare real|instructions [BOOTS]   seed 002's
#       creat-clo job and seed 001's punch jobs on the cloud and the rt
#       kernel, BOOTS boots each (default 3), interleaved, one run of each
#       job a boot; then kdelta compare's tables and the time each boot
#       cost.  The real clock wants a quiet machine: timings under TCG are
#       emulated, and a busy machine is their noise.
#
# Options before the command: -B BUILD_DIR (default build), -k keeps the
# results and the work directory and prints where, -c runs beside other
# kdelta runs of the machine (--concurrent) instead of waiting for its run
# lock: the instruction clock does not mind them; real time does.  As root (the guests'
# runs are root's; the store and work directory are a temporary one).
# Exit status 0 when the measure was made (and, for leftovers, nothing
# was left), 1 when leftovers found something, 2 when it cannot run.
set -u
cd "$(dirname "$0")/.." || exit 2
build=build keep= concurrent=()
while getopts B:kc opt; do
	case $opt in
	B) build=$OPTARG ;;
	k) keep=1 ;;
	c) concurrent=(--concurrent) ;;
	*) echo "usage: bench/vm-bars.sh [-B BUILD_DIR] [-k] [-c] overhead|leftovers|compare ..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
kdelta=$(realpath "$build")/kdelta
[ -x "$kdelta" ] || { echo "vm-bars: $kdelta not built; run: meson compile -C $build" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "vm-bars: needs root" >&2; exit 2; }
skip() { echo "vm-bars: $*" >&2; exit 2; }
. tests/vm/kernels.sh
vm_kernels

T=$(mktemp -d "${TMPDIR:-/tmp}/kdelta-vm-bars.XXXXXX") || exit 2
if [ -n "$keep" ]; then
	trap 'echo "vm-bars: kept $T"' EXIT
else
	trap 'rm -rf "$T"' EXIT
fi
root=$T/results work=$T/work
host=

# boot_costs: "boot n/N of LABEL: ... s" lines of kdelta run's stderr.
boot_costs() {
	sed -n 's/^kdelta: \(boot [0-9]*\/[0-9]* of .*\)$/  \1/p' "$1"
}

overhead() {
	local boots=${1:-5}
	cat >"$T/creat.yaml" <<'JOB'
testcase: aim9
fs: tmpfs
aim9:
  test: creat-clo
  testtime: 1
JOB
	echo "== $boots boots of the cloud kernel under TCG, real clock: QEMU's start to the first run"
	"$kdelta" run "$T/creat.yaml" --kernel "cloud=$CLOUD" --runs "$boots" \
		--vm-accel tcg --result-root "$root" --work-dir "$work" \
		"${concurrent[@]}" 2>"$T/err" ||
		{ tail -n 5 "$T/err" >&2; return 1; }
	python3 - "$root" <<'PY'
import glob, re, sys
rows = []
for path in sorted(glob.glob(sys.argv[1] + "/aim9/*/*/cloud/*/job.yaml")):
    text = open(path).read()
    get = lambda k: float(re.search(r"^    %s: (\S+)$" % k, text, re.M).group(1))
    rows.append((get("first_run"), get("guest_first_run"), get("startup")))
for i, (host, guest, hello) in enumerate(rows):
    print("  boot %d: %.2f s to the first run (%.2f s to kdelta's hello; %.2f s by the guest's clock)" % (i + 1, host, hello, guest))
if rows:
    hs = sorted(r[0] for r in rows)
    print("  median %.2f s, min %.2f s, max %.2f s" % (hs[len(hs) // 2], hs[0], hs[-1]))
PY
	boot_costs "$T/err"
	uptime
}

leftovers() {
	local boots=${1:-20} kills=${2:-5} i pid every left=0
	every=$(( boots / (kills ? kills : 1) ))
	cat >"$T/echo.yaml" <<'JOB'
testcase: echo
runs: 1
monitors: {}
exec:
  argv: [/bin/echo, "answer: 42"]
JOB
	echo "== $boots boots, $kills of them cut by kill -9 of kdelta"
	# The workspaces' names (their cgroups' too) as they come and go, and
	# kdelta's temporary files in a directory of their own.
	mkdir -p -m 700 "$work" "$T/tmp"
	while :; do ls "$work"; sleep 0.3; done 2>/dev/null >"$T/names" &
	sampler=$!
	for i in $(seq "$boots"); do
		TMPDIR=$T/tmp "$kdelta" run "$T/echo.yaml" --kernel "cloud=$CLOUD" \
			--vm-clock instructions --result-root "$root" \
			--work-dir "$work" --concurrent >"$T/out" 2>"$T/err" &
		pid=$!
		if [ "$kills" -gt 0 ] && [ $((i % every)) = 0 ]; then
			# Once QEMU runs, the guest well under way.
			until pgrep -f "$work/" >/dev/null || ! kill -0 "$pid" 2>/dev/null; do
				sleep 0.2
			done
			sleep 2
			kill -9 "$pid" && echo "  boot $i: kdelta killed with kill -9"
			kills=$((kills - 1))
		fi
		wait "$pid" 2>/dev/null
	done
	# Whatever kdelta runs next with the work directory cleans up.
	TMPDIR=$T/tmp "$kdelta" run "$T/echo.yaml" --commits here --result-root "$T/here" \
		--work-dir "$work" --concurrent 2>&1 | grep 'cleaned up' | sed 's/^/  /'
	sleep 2
	if pgrep -af "$work/"; then echo "  LEFT: processes"; left=1; fi
	if ls "$work" | grep '^kdelta-run\.'; then echo "  LEFT: workspaces"; left=1; fi
	if find "$root" -name '.import.*' | grep .; then echo "  LEFT: imports"; left=1; fi
	kill "$sampler"
	wait "$sampler" 2>/dev/null
	if grep -F "$T" /proc/mounts; then echo "  LEFT: mounts"; left=1; fi
	if losetup -a | grep -F "$T"; then echo "  LEFT: loop devices"; left=1; fi
	if ls -A "$T/tmp" | grep .; then echo "  LEFT: temporary files"; left=1; fi
	for name in $(grep '^kdelta-run\.' "$T/names" | sort -u); do
		if find /sys/fs/cgroup -maxdepth 6 -type d -name "$name" | grep .; then
			echo "  LEFT: cgroups"; left=1
		fi
	done
	echo "  workspaces seen (each with its cgroup): $(grep -c '^kdelta-run\.' <(sort -u "$T/names"))"
	echo "  runs stored: $(find "$root" -name complete | wc -l) ($(grep -l '^ok$' $(find "$root" -name complete) | wc -l) ok)"
	[ "$left" = 0 ] && echo "  nothing left behind"
	return "$left"
}

compare() {
	local clock=${1:-instructions} boots=${2:-3} extra=()
	[ "$clock" = real ] && extra=(--vm-accel tcg)
	echo "== seed 002's creat-clo and seed 001's punch jobs, cloud against rt, $boots boots each, --vm-clock $clock"
	"$kdelta" run jobs/seed-002-creat-clo-tmpfs.yaml jobs/seed-001-punch.yaml \
		--kernel "cloud=$CLOUD" --kernel "rt=$RT" --runs "$boots" \
		--vm-clock "$clock" "${extra[@]}" --seed 19 "${concurrent[@]}" \
		--result-root "$root" --work-dir "$work" 2>"$T/err" ||
		{ tail -n 5 "$T/err" >&2; return 1; }
	"$kdelta" compare --result-root "$root" cloud rt
	echo "time each boot cost:"
	boot_costs "$T/err"
	uptime
}

case ${1:-} in
overhead) shift; overhead "$@" ;;
leftovers) shift; leftovers "$@" ;;
compare) shift; compare "$@" ;;
*) echo "usage: bench/vm-bars.sh [-B BUILD_DIR] [-k] [-c] overhead [BOOTS] | leftovers [BOOTS] [KILLS] | compare real|instructions [BOOTS]" >&2; exit 2 ;;
esac
