#!/bin/bash
# The cost of a robot's bisection on Slurm, two kdeltas side by side: how
# many Slurm jobs the bisection submitted, how many builds it made, and
# its wall time.  The same bisection each time: the robot test's fixture
# (testdata/bisect/make-repo.sh, 10 commits, commit 7 does twice the work,
# commit 4 does not compile), main against the branch stable, on a
# private single-node Slurm cluster (tests/robot/slurm.sh).  The new
# kdelta gets the build cache (install:); an old one, which has none, a
# build that installs.  The two alternate, RUNS times each.
#
# usage: bench/slurm-bisect.sh OLD_KDELTA NEW_KDELTA [RUNS]   (root; munge
# and slurm-wlm installed; RUNS defaults to 1)
set -u
old=$1 new=$2 runs=${3:-1}
src=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/kdelta-slurm-bench.XXXXXX)
skip() { echo "slurm-bisect: $*" >&2; exit 77; }
source "$src/tests/robot/slurm.sh"
SLURM_DIR=
trap 'stop_slurm; rm -rf "$T"' EXIT
start_slurm "$T/slurm"

# one KDELTA NAME: a fresh fixture and store, one robot pass; prints
# "<jobs> <builds> <seconds>" of the bisection (from the robot's
# "bisecting" line to the end of the pass).
one() {
	local kdelta=$1 name=$2 d=$T/$2 pid t0= t1 jobs builds
	rm -rf "$d"
	mkdir -p "$d"
	"$src/testdata/bisect/make-repo.sh" "$d/repo" --commits 10 --slow-at 7 \
		--more-work 100 --broken-at 4 >/dev/null
	git -C "$d/repo" branch stable main~9
	printf 'testcase: bench\nmonitors: {}\nexec:\n  argv: [%s/bin/bench]\n' "$d" >"$d/job.yaml"
	{
		printf 'repository: repo\nbranches:\n  - branch: main\n    base: stable\n'
		printf 'jobs: [job.yaml]\nruns: 3\nmax-runs: 10\nmin-change: 5\n'
		printf 'result-root: results\nwork-dir: work\nexecutor: slurm\n'
		printf 'slurm:\n  partition: kdelta-test\n  poll: 0.3s\n'
		if [ "$name" = new ]; then
			printf 'build: echo "$SLURM_JOB_ID {commit}" >>%s/builds && cc -O2 -o bench bench.c\n' "$d"
			printf 'install: mkdir -p %s/bin && cp bench %s/bin/bench.new && mv %s/bin/bench.new %s/bin/bench\n' "$d" "$d" "$d" "$d"
		else
			printf 'build: echo "$SLURM_JOB_ID {commit}" >>%s/builds && cc -O2 -o bench bench.c && mkdir -p %s/bin && cp bench %s/bin/bench.new && mv %s/bin/bench.new %s/bin/bench\n' "$d" "$d" "$d" "$d" "$d"
		fi
	} >"$d/robot.yaml"
	"$kdelta" robot --once "$d/robot.yaml" >"$d/out" 2>"$d/err" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		[ -z "$t0" ] && grep -q '; bisecting$' "$d/err" && t0=$(date +%s.%N)
		sleep 0.2
	done
	t1=$(date +%s.%N)
	wait "$pid" ||
		{ echo "$name: the pass failed: $(tail -3 "$d/err")" >&2; return 1; }
	grep -q '^robot: main .*: first bad commit ' "$d/err" ||
		{ echo "$name: no first bad commit: $(tail -3 "$d/err")" >&2; return 1; }
	# The bisection's jobs: those submitted after "bisecting".
	sed -n '/; bisecting$/,$s/^robot: Slurm job \([0-9]*\) submitted.*/\1/p' "$d/err" >"$d/jobs"
	jobs=$(wc -l <"$d/jobs")
	builds=$(while read -r id; do grep -c "^$id " "$d/builds"; done <"$d/jobs" |
		awk '{ s += $1 } END { print s + 0 }')
	echo "$jobs $builds $(echo "$t1 - ${t0:-$t1}" | bc)"
}

echo "the fixture's bisection, $runs time(s) each, alternating (timings are noisy on a shared machine)"
printf '%-4s %-4s %5s %7s %8s\n' side run jobs builds seconds
for ((r = 1; r <= runs; r++)); do
	for side in old new; do
		kdelta=$old
		[ "$side" = new ] && kdelta=$new
		out=$(one "$kdelta" "$side") || exit 1
		read -r jobs builds seconds <<<"$out"
		printf '%-4s %-4s %5s %7s %8.0f\n' "$side" "$r" "$jobs" "$builds" "$seconds"
	done
done
