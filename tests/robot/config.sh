#!/bin/bash
# kdelta robot's configuration is checked at load: each mistake is one line
# with the file's line and column, status 2, before anything runs.
source "$TESTLIB"
command -v git >/dev/null || skip "git is not installed"

cd "$T" || exit 1
git init -q -b main repo
git -C repo -c user.name=A -c user.email=a@example.org commit -q --allow-empty -m one
git -C repo -c user.name=A -c user.email=a@example.org commit -q --allow-empty -m two
cat >job.yaml <<EOF
testcase: robot-config
monitors: {}
exec:
  argv: [/bin/true]
EOF

# config TEXT: writes c.yaml, a good configuration's first lines then TEXT.
config() {
	printf 'repository: repo\n%b' "$1" >c.yaml
}

# Options are parsed as every command's (cmdline.h).
expect_error 2 "kdelta robot: option '--once' takes no value; see 'kdelta robot --help'" \
	"$KDELTA" robot --once=yes c.yaml
expect_error 2 "kdelta robot: unknown option '--onse'; see 'kdelta robot --help'" \
	"$KDELTA" robot --onse c.yaml

config 'branchs: [main]\njobs: [job.yaml]\nbuild: "true"\n'
expect_error 2 "kdelta robot: c.yaml:2:1: unknown key 'branchs'; did you mean 'branches'?" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: [job.yaml]\nbuild: "true"\nmystery: 1\n'
expect_error 2 "kdelta robot: c.yaml:5:1: unknown key 'mystery'; see kdelta-robot(5)" \
	"$KDELTA" robot --once c.yaml
config 'branches: [nope]\njobs: [job.yaml]\nbuild: "true"\n'
expect_error 2 "kdelta robot: c.yaml:2:12: branch 'nope' does not exist in $T/repo" \
	"$KDELTA" robot --once c.yaml
config 'branches:\n  - branch: main\n    base: nope\njobs: job.yaml\nbuild: make\n'
expect_error 2 "kdelta robot: c.yaml:4:11: base 'nope' does not exist in $T/repo" \
	"$KDELTA" robot --once c.yaml
config 'branches:\n  - branch: main\n    bsae: main\njobs: job.yaml\nbuild: make\n'
expect_error 2 "kdelta robot: c.yaml:4:5: branches: unknown key 'bsae'; did you mean 'base'?" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: [job.yaml, missing.yaml]\nbuild: "true"\n'
expect_error 2 "kdelta robot: c.yaml:3:18: jobs: $T/missing.yaml: No such file or directory" \
	"$KDELTA" robot --once c.yaml
printf 'testcase: t\nexec: {argv: [x], bogus: 1}\n' >bad-job.yaml
config 'branches: [main]\njobs: bad-job.yaml\nbuild: "true"\n'
expect_error 2 "kdelta robot: c.yaml:3:7: jobs: $T/bad-job.yaml:2:19: unknown parameter 'bogus' in exec; see kdelta-job(5)" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\n'
expect_error 2 "kdelta robot: c.yaml:1:1: missing required key 'build' (or kernel-config); see kdelta-robot(5)" \
	"$KDELTA" robot --once c.yaml
config 'branches: main\njobs: job.yaml\nbuild: make\n'
expect_error 2 "kdelta robot: c.yaml:2:11: branches: expected a list of branches" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make\nmail: {to: a@b, too: c@d}\n'
expect_error 2 "kdelta robot: c.yaml:5:17: mail: unknown key 'too'; did you mean 'to'?" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make\nmail:\n  to: [a@b, "Last, First <f@l.org>"]\n'
expect_error 2 "kdelta robot: c.yaml:6:13: mail: to: 'Last' is not an address kdelta writes (local@domain, without blanks, quotes or any of \"(),:;<>[\\]\")" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make\nmail: {from: "a@b, c@d"}\n'
expect_error 2 "kdelta robot: c.yaml:5:14: mail: from: expected one address, got 2" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make\nmail: {author: false}\n'
expect_error 2 "kdelta robot: c.yaml:5:7: mail: no recipient: give 'to', or leave 'author' true" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make\nexecutor: cloud\n'
expect_error 2 "kdelta robot: c.yaml:5:11: executor: unknown executor 'cloud'; this kdelta has 'local', 'slurm' and 'reboot'" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make\nslurm: {partition: perf}\n'
expect_error 2 "kdelta robot: c.yaml:5:8: slurm: only with 'executor: slurm'" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make\nexecutor: slurm\nslurm: {partition: perf, nodes: 4}\n'
expect_error 2 "kdelta robot: c.yaml:6:26: slurm: unknown key 'nodes'; see kdelta-robot(5)" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make\nexecutor: slurm\nslurm: {poll: often}\n'
expect_error 2 "kdelta robot: c.yaml:6:15: slurm: poll: expected a duration like 10, 300s, 5m, 1h or 0.5s, got 'often'" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make\nkey-result: {exec.ops: lowest}\n'
expect_error 2 "kdelta robot: c.yaml:5:13: key-result: exec.ops: 'lowest': expected higher or lower (which is better), or nothing" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make\nkey-result: exec.ops\n'
expect_error 2 "kdelta robot: c.yaml:5:13: key-result: expected a mapping of results to the direction that is better, like {exec.ops_per_sec: higher}" \
	"$KDELTA" robot --once c.yaml
# vm: only with kernels; its values checked; no install.
config 'branches: [main]\njobs: job.yaml\nbuild: make\nvm: {clock: instructions}\n'
expect_error 2 "kdelta robot: c.yaml:5:5: vm: only with kernels: kernel-config, or a build that makes them (one that names {out})" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make O={out}\nvm: {clock: fast}\n'
expect_error 2 "kdelta robot: c.yaml:5:13: vm: clock: expected real or instructions, got 'fast'" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make O={out}\nvm: {clock: instructions, accel: kvm}\n'
expect_error 2 "kdelta robot: c.yaml:5:5: vm: clock: instructions is QEMU's emulation (TCG), not KVM" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make O={out}\nvm: {memory: 1k}\n'
expect_error 2 "kdelta robot: c.yaml:5:14: vm: memory: expected at least 64M, got '1k'" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make O={out}\nvm: {disk: file}\n'
expect_error 2 "kdelta robot: c.yaml:5:6: vm: unknown key 'disk'; did you mean 'disks'?" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make O={out}\nvm: {disks: 2}\n'
expect_error 2 "kdelta robot: c.yaml:5:13: vm: disks: expected ram or file, got '2'" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make O={out}\ninstall: cp x y\n'
expect_error 2 "kdelta robot: c.yaml:5:10: install: not with a build that makes kernels (one that names {out}): each commit's kernel is built once into {out} and booted from there" \
	"$KDELTA" robot --once c.yaml

# kernel-config instead of build, kernel-cache with it.
config 'branches: [main]\njobs: job.yaml\nbuild: make\nkernel-config: tinyconfig\n'
expect_error 2 "kdelta robot: c.yaml:4:8: build: not with kernel-config, with which kdelta builds the kernels" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make\nkernel-cache: cache\n'
expect_error 2 "kdelta robot: c.yaml:5:15: kernel-cache: only with kernel-config" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nkernel-config: tinyconfig+\n'
expect_error 2 "kdelta robot: c.yaml:4:16: kernel-config: an empty part; expected BASE[+FRAGMENT...] such as tinyconfig+kvm_guest.config" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nkernel-config: tinyconfig\n'
expect_error 2 "kdelta robot: c.yaml:4:16: kernel-config: $T/repo is not a kernel tree (no Makefile and scripts/kconfig/ at its top)" \
	"$KDELTA" robot --once c.yaml
# (What kdelta looks for at the top of a kernel tree.)
mkdir -p repo/scripts/kconfig && touch repo/Makefile
config 'branches: [main]\njobs: job.yaml\nkernel-config: tinyconfig\nkernel-cache: cache\nvm: {clock: instructions}\nresult-root: results\n'
"$KDELTA" robot --status c.yaml >out 2>err || fail "kernel-config: $(cat err)"
rm -r repo/scripts repo/Makefile

# An empty slurm: is every key at its default (issue 23: it was refused).
config 'branches: [main]\njobs: job.yaml\nbuild: "true"\nexecutor: slurm\nslurm:\nresult-root: results\n'
"$KDELTA" robot --status c.yaml >out 2>err || fail "an empty slurm: $(cat err)"
config 'branches: [main]\njobs: job.yaml\nbuild: make\nruns: 1\n'
expect_error 2 "kdelta robot: c.yaml:5:7: runs: expected at least 2, got '1'" \
	"$KDELTA" robot --once c.yaml
# interval: 0 was taken, and the loop never waited.
config 'branches: [main]\njobs: job.yaml\nbuild: make\ninterval: 0\n'
expect_error 2 "kdelta robot: c.yaml:5:11: interval: expected at least 1s, got '0'" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: job.yaml\nbuild: make\ninterval: soon\n'
expect_error 2 "kdelta robot: c.yaml:5:11: interval: expected a duration like 10, 300s, 5m, 1h or 0.5s, got 'soon'" \
	"$KDELTA" robot --once c.yaml
printf 'repository: nodir\nbranches: [main]\njobs: job.yaml\nbuild: make\n' >c.yaml
expect_error 2 "kdelta robot: c.yaml:1:13: repository: $T/nodir: no such directory" \
	"$KDELTA" robot --once c.yaml
mkdir plain
printf 'repository: plain\nbranches: [main]\njobs: job.yaml\nbuild: make\n' >c.yaml
expect_error 2 "kdelta robot: c.yaml:1:13: repository: $T/plain is not a git work tree" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\n  jobs: job.yaml\n'
expect_error 2 "kdelta robot: c.yaml:3:3: YAML syntax error: did not find expected key (while parsing a block mapping at line 1, column 1)" \
	"$KDELTA" robot --once c.yaml

# The command line.
expect_error 2 "kdelta robot: no configuration file given; usage: kdelta robot [--once|--status|--cancel] CONFIG.yaml" \
	"$KDELTA" robot
expect_error 2 "kdelta robot: unknown option '--bogus'; see 'kdelta robot --help'" \
	"$KDELTA" robot --bogus c.yaml
expect_error 2 "kdelta robot: --once, --status and --cancel exclude each other" \
	"$KDELTA" robot --once --status c.yaml
"$KDELTA" robot --help | grep -q '^usage: kdelta robot' || fail "--help"
"$KDELTA" robot --help | grep -q '^2 bad usage or a bad configuration, 4 the result root, the store, the$' ||
	fail "robot --help leaves out exit status 4"
"$KDELTA" robot --help | grep -q '^state or the work directory could not be written (disk full, read-only),$' ||
	fail "robot --help leaves out the state's exit status 4"
"$KDELTA" robot --help | grep -q '^8 another robot is at work on the same state or repository, 128+N a$' ||
	fail "robot --help leaves out exit status 8"

# A good configuration: --status before the first pass.
config 'branches: [main]\njobs: job.yaml\nbuild: "true"\nresult-root: results\n'
"$KDELTA" robot --status c.yaml >out 2>err || fail "--status: $(cat err)"
[ "$(cat out)" = "state: $T/results/.kdelta/robot.db (none yet: the robot has not run)" ] ||
	fail "--status before a pass: $(cat out)"

# kdelta-robot(5) renders without warnings.
if command -v man >/dev/null; then
	out=$(man --warnings -E UTF-8 -l -Tutf8 -Z "$SRCDIR/man/kdelta-robot.5" 2>&1 >/dev/null)
	[ -z "$out" ] || fail "kdelta-robot.5 renders with warnings: $out"
fi
# executor: reboot: a build that makes kernels, its own section only.
config 'branches: [main]\njobs: [job.yaml]\nbuild: make\nexecutor: reboot\n'
expect_error 2 "kdelta robot: c.yaml:4:8: build: the reboot executor boots kernels: the build must name {out}, where it leaves the commit's kernel" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: [job.yaml]\nbuild: make {out}\nreboot: {timeout: 1m}\n'
expect_error 2 "kdelta robot: c.yaml:5:9: reboot: only with 'executor: reboot'" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: [job.yaml]\nbuild: make {out}\nexecutor: reboot\nreboot: {timeout: soon}\n'
expect_error 2 "kdelta robot: c.yaml:6:19: reboot: timeout: expected a duration like 10, 300s, 5m, 1h or 0.5s, got 'soon'" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: [job.yaml]\nbuild: make {out}\nexecutor: reboot\nreboot: {kexec: yes}\n'
expect_error 2 "kdelta robot: c.yaml:6:10: reboot: unknown key 'kexec'; see kdelta-robot(5)" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: [job.yaml]\nbuild: make {out}\nexecutor: reboot\nreboot: {runs-per-boot: 0}\n'
expect_error 2 "kdelta robot: c.yaml:6:25: reboot: runs-per-boot: expected at least 1, got '0'" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: [job.yaml]\nbuild: make {out}\ninstall: cp x /y\nexecutor: reboot\n'
expect_error 2 "kdelta robot: c.yaml:5:10: install: not with 'executor: reboot', which keeps each commit's kernel as its build left it" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: [job.yaml]\nbuild: make {out}\nexecutor: reboot\nvm: {cpus: 2}\n'
expect_error 2 "kdelta robot: c.yaml:6:5: vm: not with 'executor: reboot', which boots the kernels on this machine, not in virtual machines" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: [job.yaml]\nexecutor: reboot\n'
expect_error 2 "kdelta robot: c.yaml:1:1: missing required key 'build' (one that names {out}, with executor: reboot); see kdelta-robot(5)" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: [job.yaml]\nbuild: make {out}\nkernel-config: defconfig\nexecutor: reboot\n'
expect_error 2 "kdelta robot: c.yaml:5:16: kernel-config: not with 'executor: reboot', which boots the kernels on this machine: a build that names {out} makes them, with the box's own configuration" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: [job.yaml]\nkernel-config: defconfig\nexecutor: reboot\n'
expect_error 2 "kdelta robot: c.yaml:4:16: kernel-config: not with 'executor: reboot', which boots the kernels on this machine: a build that names {out} makes them, with the box's own configuration" \
	"$KDELTA" robot --once c.yaml
config 'branches: [main]\njobs: [job.yaml]\nbuild: make {out}\nexecutor: reboot\nslurm: {partition: perf}\n'
expect_error 2 "kdelta robot: c.yaml:6:8: slurm: only with 'executor: slurm'" \
	"$KDELTA" robot --once c.yaml
finish
