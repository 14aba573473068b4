#!/bin/bash
# kdelta robot over kernels with the slurm executor, on a private
# single-node Slurm cluster (tests/robot/slurm.sh): the branch main (its
# build puts Debian's rt kernel into {out}) against stable, its parent (the
# cloud kernel).  One Slurm job builds both commits on the node and boots
# them there, in rounds, with AIM9's creat-clo inside; the robot finds
# creat-clo worse and bisects in a second job (kdelta bisect on the node,
# its own look at good and bad), and names main's commit.  Four boots of
# three runs.  The runs are stored under the guests' host, which the jobs
# read from what kdelta said on the node.
source "$TESTLIB"
source "$SRCDIR/tests/vm/kernels.sh"
source "$SRCDIR/tests/robot/slurm.sh"
SLURM_DIR=
vm_kernels
command -v git >/dev/null || skip "git is not installed"
at_exit 'stop_slurm'
start_slurm "$T/slurm"

repo=$T/repo
mkdir -p "$repo"
git -C "$repo" init -q -b main
git -C "$repo" config user.email test@example.org
git -C "$repo" config user.name test
printf '%s\n' '#!/bin/sh' 'set -e' \
	'case $(cat flavour) in' "cloud) from=$CLOUD ;;" "rt) from=$RT ;;" 'esac' \
	'mkdir -p "$1/boot" "$1/lib/modules"' \
	'ln -s "$from"/boot/vmlinuz-* "$1/boot/"' \
	'ln -s "$from"/lib/modules/* "$1/lib/modules/"' >"$repo/build.sh"
for flavour in cloud rt; do
	echo "$flavour" >"$repo/flavour"
	git -C "$repo" add -A
	git -C "$repo" commit -q -m "kernel: $flavour"
done
git -C "$repo" branch stable main~1
head=$(git -C "$repo" rev-parse main)
base=$(git -C "$repo" rev-parse stable)

printf '%s\n' 'testcase: aim9' 'fs: tmpfs' 'monitors: {}' 'aim9:' \
	'  test: creat-clo' '  testtime: 100ms' >"$T/creat.yaml"
printf '%s\n' 'repository: repo' 'branches:' '  - branch: main' \
	'    base: stable' 'jobs: [creat.yaml]' 'build: sh build.sh {out}' \
	'runs: 3' 'max-runs: 6' 'result-root: results' 'work-dir: work' \
	'interval: 1h' 'executor: slurm' 'slurm:' '  partition: kdelta-test' \
	'  poll: 0.3s' "  work-dir: $T/node-work" 'vm:' '  clock: instructions' \
	'  runs-per-boot: 3' '  boot-timeout: 10m' >"$T/robot.yaml"

"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 0 ] || fail "kdelta robot: exit status $status: $(tail -n 5 "$T/err")"
grep -Eqx "robot: main ${head:0:12}: aim9/tmpfs-creat-clo-100ms: first bad commit ${head:0:12} \(kernel: rt\): aim9\.creat-clo\.ops_per_sec" "$T/err" ||
	fail "the robot did not name main's commit: $(grep -v '^robot: Slurm' "$T/err" | tail -n 8)"
# A job (or more: a look that needs another round) for base and head,
# then one for the bisection.
[ "$(grep -c '^robot: Slurm job [0-9]* submitted' "$T/err")" -ge 2 ] ||
	fail "not two Slurm jobs (base and head, then the bisection): $(grep 'submitted' "$T/err")"
host=vm-$(uname -n)-tcg-icount-1cpu
for c in "$head" "$base"; do
	dir=$T/results/aim9/tmpfs-creat-clo-100ms/$host/$c
	# the robot's look, and the bisection's own at good and bad: 3 each
	# at least, each run tagged with its look
	for tag in "robot" "bisect ${base:0:12}..${head:0:12}"; do
		n=$(grep -l "^  tag: $tag" "$dir"/[0-9]*/job.yaml 2>/dev/null | wc -l)
		[ "$n" -ge 3 ] || fail "$dir: $n runs tagged '$tag', want 3 or more: $(grep -h '^  tag:' "$dir"/[0-9]*/job.yaml | sort | uniq -c)"
	done
done
grep -q "^    release: $VM_ABI-rt-amd64\$" "$T/results/aim9/tmpfs-creat-clo-100ms/$host/$head/0/job.yaml" ||
	fail "main's runs did not boot the rt kernel"
pgrep -f "$T/node-work" >/dev/null && fail "a process of this test is still running"
exit $((failures > 0))
