# shellcheck shell=bash
# small_robot TESTCASE ARGV0: a two-commit fixture repository in $T/repo
# (its commits in H), a job TESTCASE that runs ARGV0, and a robot config
# $T/robot.yaml for them with 2 to 3 runs at min-change 5.  Skips when the
# fixture cannot be made.  Base and head run the same bench, which varies
# by a few percent on a busy machine and now and then unevenly (-1.2%,
# interval -1.7% to -0.7%, in CI): at the default 1% that is a regression
# now and then; at 5% it rarely is.
small_robot() {
	command -v git >/dev/null || skip "git is not installed"
	command -v cc >/dev/null || skip "no C compiler (cc) to build the fixture"
	REPO=$T/repo
	mapfile -t H < <("$TESTDATA/bisect/make-repo.sh" "$REPO" --commits 2) ||
		skip "cannot make the fixture repository"
	[ "${#H[@]}" = 2 ] || skip "cannot make the fixture repository"
	cat >"$T/job.yaml" <<EOT
testcase: $1
monitors: {}
exec:
  argv: [$2]
EOT
	cat >"$T/robot.yaml" <<EOT
repository: repo
branches: [main]
jobs: [job.yaml]
build: cc -O2 -o bench bench.c
runs: 2
max-runs: 3
min-change: 5
result-root: results
work-dir: work
EOT
}

# small_robot_slurm: $T/robot.yaml on the private Slurm cluster
# (tests/robot/slurm.sh's start_slurm): the job builds in a clone on the
# node, so the build installs bench as $T/bin/bench for the job to run;
# kdelta run's work directory on the node is $T/node-work.
small_robot_slurm() {
	sed -i "s|^build: .*|build: cc -O2 -o bench bench.c \&\& mkdir -p $T/bin \&\& cp bench $T/bin/bench.new \&\& mv $T/bin/bench.new $T/bin/bench|" "$T/robot.yaml"
	cat >>"$T/robot.yaml" <<EOT
executor: slurm
slurm:
  partition: kdelta-test
  poll: 0.3s
  work-dir: $T/node-work
EOT
}

# slow_bench BENCH: $T/slow-bench, a job's program that touches
# $T/running, waits for $T/go, then runs BENCH; wait_running PID: true once
# it runs, false when process PID ended first or after 120 s.
slow_bench() {
	cat >"$T/slow-bench" <<EOT
#!/bin/sh
touch "$T/running"
while [ ! -e "$T/go" ]; do sleep 0.05; done
exec "$1"
EOT
	chmod +x "$T/slow-bench"
}
wait_running() {
	local i
	for ((i = 0; i < 1200; i++)); do
		[ -e "$T/running" ] && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
