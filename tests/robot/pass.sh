#!/bin/bash
# kdelta robot end to end with the local executor, on the bisect fixture
# (testdata/bisect/make-repo.sh: commit 7 of 10 makes bench do twice the
# work, a difference far above the noise of a busy machine; commit 4, the
# first one git bisect proposes between 0 and 9, does not compile).  The
# robot watches main against the branch "stable" (commit 0) and the branch
# "broken" (commit 4) against its parent, and "next", the same as main:
# its bisection ends at the same commit, and is not mailed again.
#
# 1. A pass is killed (SIGKILL) in the middle of the bisection: no mail.
# 2. The next pass resumes: the bisection ends at commit 7 (the broken
#    commit skipped, and recorded as the broken branch's verdict), but
#    sendmail fails: the mail is kept, the test stays open.
# 3. The next pass sends the kept mail: exactly one is delivered (to the
#    local SMTP server, through msmtp), to the configured address and the
#    commit's author.
# 4. Another pass sends nothing.  --status tells what happened.
# 5. The loop ends cleanly on SIGTERM while it waits for the next pass.
#
# pass.sh slurm: the same with the slurm executor, on a private single-node
# Slurm cluster (tests/robot/slurm.sh); the kill -9 comes while a batch's
# Slurm job is queued or running, and the next pass waits for that job
# instead of submitting it again.
source "$TESTLIB"
EXECUTOR=${1:-local}
command -v git >/dev/null || skip "git is not installed"
command -v cc >/dev/null || skip "no C compiler (cc) to build the fixture"
source "$SRCDIR/tests/report/smtp.sh"
source "$SRCDIR/tests/robot/slurm.sh"
SLURM_DIR=

REPO=$T/repo M=$T/smtp
mapfile -t H < <("$TESTDATA/bisect/make-repo.sh" "$REPO" --commits 10 \
	--slow-at 7 --more-work 100 --broken-at 4) ||
	skip "cannot make the fixture repository"
[ "${#H[@]}" = 10 ] || skip "cannot make the fixture repository"
git -C "$REPO" branch stable "${H[0]}"
git -C "$REPO" branch broken "${H[4]}"
git -C "$REPO" branch next "${H[9]}"

start_smtp "$M"
pid=
at_exit '[ -z "$pid" ] || { kill -9 "$pid"; wait "$pid"; } 2>/dev/null; stop_slurm
[ -z "${KEEP_T:-}" ] || cp -a "$T" "$KEEP_T"'
[ "$EXECUTOR" = slurm ] && start_slurm "$T/slurm"

# The build installs what the job runs: the slurm executor builds in a
# clone of the repository on the node.
cat >"$T/job.yaml" <<EOF
testcase: robot-fixture
monitors: {}
exec:
  argv: [$T/bin/bench]
EOF
cat >"$T/robot.yaml" <<EOF
repository: repo
branches:
  - branch: main
    base: stable
  - broken
  - branch: next
    base: stable
jobs: [job.yaml]
build: cc -O2 -o bench bench.c && mkdir -p $T/bin && cp bench $T/bin/bench.new && mv $T/bin/bench.new $T/bin/bench
runs: 3
max-runs: 10
# bench varies by a few percent on a busy machine, by several under ASan
# (tests/bisect/common.sh): whether commit 6 (the parent of the slow one)
# is worse than base is decided at 15%, in a few rounds, where 5% could
# stay undecided at max-runs; the slow commit's -50% is far above it.
min-change: 15
result-root: results
work-dir: work
interval: 1h
mail:
  from: kdelta robot <robot@example.org>
  to: [dev@example.org]
  repository: $REPO
  sendmail: msmtp -C $T/msmtprc -t -i
EOF
if [ "$EXECUTOR" = slurm ]; then
	# Each commit built once a job (the build cache), and said in
	# $T/builds with the job's ID; the install puts it in place.
	build='echo "$SLURM_JOB_ID {commit}" >>'"$T"'/builds && cc -O2 -o bench bench.c'
	python3 -c 'import sys; p, b = sys.argv[1:]; t = open(p).read().split("\n")
open(p, "w").write("\n".join("build: " + b if l.startswith("build: ") else l for l in t))' \
		"$T/robot.yaml" "$build"
	cat >>"$T/robot.yaml" <<EOF
install: mkdir -p $T/bin && cp bench $T/bin/bench.new && mv $T/bin/bench.new $T/bin/bench
executor: slurm
slurm:
  partition: kdelta-test
  poll: 0.3s
  work-dir: $T/node-work
EOF
fi

mails() {
	find "$M" -name '*.eml' | wc -l
}

# 1. Killed once a bisection step is classified (with Slurm: once the
# bisection's job, which makes every look on the node, is under way).
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out1" 2>"$T/err1" &
pid=$!
if [ "$EXECUTOR" = slurm ]; then
	wait_line "$T/err1" '; bisecting$' "$pid" ||
		fail "no bisection: $(cat "$T/err1")"
	# the bisection's job: the first submitted after that line
	bisection_job() {
		sed -n '/; bisecting$/,$s/^robot: Slurm job \([0-9]*\) submitted.*/\1/p' "$T/err1" | head -n 1
	}
	for ((i = 0; i < 1200; i++)); do
		[ -n "$(bisection_job)" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	job=$(bisection_job)
	case $(squeue -h --states=all -j "$job" -o %T 2>/dev/null) in
	PENDING | CONFIGURING | RUNNING) ;;
	*) fail "the bisection's Slurm job ($job) is not queued or running when the robot is killed: $(cat "$T/err1")" ;;
	esac
else
	wait_line "$T/err1" '^bisect: testing .*→ (good|bad)$' "$pid" ||
		fail "no bisection step: $(cat "$T/err1")"
fi
kill -9 "$pid"
{ wait "$pid"; } 2>/dev/null	# without bash's "Killed" line
pid=
if [ "$EXECUTOR" = slurm ]; then
	"$KDELTA" robot --status "$T/robot.yaml" >"$T/status" 2>&1 || fail "--status: $(cat "$T/status")"
	grep -Eq "^  [0-9-]+ [0-9:]+  test [0-9]+: bisect [0-9a-f]+\.\.[0-9a-f]+  ticket $job $T/results/\.kdelta/slurm/batch-[A-Za-z0-9]+$" "$T/status" ||
		fail "--status does not show Slurm job $job: $(cat "$T/status")"
	# The job goes on without the robot and ends before the next start
	# (issue 23: the restart then submitted the bisection again, under a
	# new batch, and the old one stayed "running" for good).
	for ((i = 0; i < 2000; i++)); do
		case $(squeue -h --states=all -j "$job" -o %T 2>/dev/null) in
		PENDING | CONFIGURING | RUNNING | COMPLETING) sleep 0.1 ;;
		*) break ;;
		esac
	done
	ended=$(squeue -h --states=all -j "$job" -o %T 2>/dev/null)
	case $ended in
	PENDING | CONFIGURING | RUNNING | COMPLETING)
		fail "the bisection's Slurm job $job is still $ended after 200 s" ;;
	esac
fi
grep -Eq "^robot: main ${H[9]:0:12}: robot-fixture/argv-[0-9a-f]+: regression: exec\.ops_per_sec -[0-9.]+% \(interval -[0-9.]+% to -[0-9.]+%\), [0-9]+ rounds( \([^)]*\))?; bisecting$" "$T/err1" ||
	fail "no regression found: $(cat "$T/err1")"
# state SQL: one query's rows on the robot's state (python3's sqlite3).
state() {
	python3 -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print(*r)' \
		"$T/results/.kdelta/robot.db" "$1"
}
# A commit that does not build in the bisection is recorded as such (the
# branch "broken" has not been measured yet: it is the bisection's).
if grep -q "^bisect: testing ${H[4]:0:12} .*build failed" "$T/err1"; then
	[ -n "$(state "SELECT build_failed FROM commits WHERE hash = '${H[4]}' AND build_failed IS NOT NULL")" ] ||
		fail "the bisection's failed build is not recorded: $(state 'SELECT hash, build_failed FROM commits')"
fi
[ "$(mails)" = 0 ] || fail "a mail before the bisection ended"

# 2. Resumed: the bisection ends, but sendmail fails: the mail is kept,
# the summary counts it and the --once pass exits 4 (kdelta-robot(5)).
sed -i "s|^  sendmail: .*|  sendmail: /bin/false -t|" "$T/robot.yaml"
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out2" 2>"$T/err2"
status=$?
[ "$status" = 4 ] || fail "second pass, sendmail failing: exit status $status, want 4: $(cat "$T/err2")"
grep -Eq "^robot: pass done: .*, [0-9]+ mails? not sent \(sent again on the next pass\)$" "$T/err2" ||
	fail "the summary does not count the mail not sent: $(grep 'pass done' "$T/err2")"
# (With Slurm the bisection was on the node: the robot's clone had none.)
[ "$EXECUTOR" = slurm ] ||
	grep -qxF "bisect: an interrupted kdelta bisect was left in $REPO; resetting it" "$T/err2" ||
	fail "the killed bisection was not reset: $(cat "$T/err2")"
grep -q "^robot: main .*; bisecting" "$T/err2" &&
	fail "base and head compared again after the kill: $(cat "$T/err2")"
if [ "$EXECUTOR" = slurm ]; then
	grep -q "^robot: Slurm job $job: waiting for it again " "$T/err2" ||
		fail "the killed robot's Slurm job $job was not waited for: $(cat "$T/err2")"
	# It had ended: collected, whatever state it reached, and every
	# batch ended (none left "running" for --status and --cancel).
	grep -q "^robot: Slurm job $job: ended ${ended:-(Slurm forgot it)}$" "$T/err2" ||
		fail "the killed robot's ended Slurm job $job was not collected: $(cat "$T/err2")"
	[ "$(state "SELECT count(*) FROM batches WHERE state = 'running'")" = 0 ] ||
		fail "batches left running: $(state 'SELECT purpose, state, ticket FROM batches')"
	# The bisection is one Slurm job (its purpose is line 4 of its
	# script), at most 5 with the kill, and builds each commit once.
	jobs=$(for s in "$T"/results/.kdelta/slurm/batch-*/batch.sh; do sed -n 4p "$s"; done | grep -c "^# test 1: bisect ")
	[ "$jobs" -ge 1 ] && [ "$jobs" -le 5 ] || fail "$jobs Slurm jobs for the bisection, want 1 to 5"
	bjob=$(grep -l "^# test 1: bisect " "$T"/results/.kdelta/slurm/batch-*/batch.sh | head -1)
	bjob=$(sed -n 's/.*slurm-\([0-9]*\)\.out$/\1/p' < <(ls "$(dirname "$bjob")"/slurm-*.out))
	built=$(grep -c "^$bjob " "$T/builds")
	[ "$built" -ge 3 ] || fail "the bisection's job built $built commits: $(cat "$T/builds")"
	dup=$(grep "^$bjob " "$T/builds" | sort | uniq -d)
	[ -z "$dup" ] || fail "the bisection's job built a commit twice: $dup"
	echo "bisection: $jobs Slurm job(s), job $bjob built $built commits once each" >&2
	# One Slurm job per purpose, ever (the purpose is line 4 of its script).
	dups=$(for s in "$T"/results/.kdelta/slurm/batch-*/batch.sh; do sed -n 4p "$s"; done | sort | uniq -d)
	[ -z "$dups" ] || fail "submitted twice: $dups"
	# The node is the runs' host.
	ls -d "$T"/results/robot-fixture/*/"$(uname -n)" >/dev/null 2>&1 ||
		fail "no runs under the node's name: $(ls "$T"/results/robot-fixture/*)"
fi
id=$(sed -n 's/^robot: mail \(<kdelta-[^>]*>\): \/bin\/false -t failed (exit status 1); the mail was not sent; trying again on the next pass$/\1/p' "$T/err2" | sort -u)
# Both main and next tried to send it: the same message.
[ -n "$id" ] && [ "$(echo "$id" | wc -l)" = 1 ] || fail "no failed mail, or two: $(cat "$T/err2")"
[ "$(mails)" = 0 ] || fail "a mail delivered through /bin/false"
"$KDELTA" robot --status "$T/robot.yaml" >"$T/status" 2>&1 || fail "--status: $(cat "$T/status")"
grep -Eq "^  test 1  main  robot-fixture/argv-[0-9a-f]+  ${H[0]:0:12}\.\.${H[9]:0:12}  bisect exec\.ops_per_sec$" "$T/status" ||
	fail "--status: the test is not open: $(cat "$T/status")"
grep -Eq "^  \(not sent\)  +${H[7]:0:12}  robot-fixture/argv-[0-9a-f]+  exec\.ops_per_sec  $id sending$" "$T/status" ||
	fail "--status: the mail is not pending: $(cat "$T/status")"

# 3. The next pass sends the same message; there is one mail.
sed -i "s|^  sendmail: .*|  sendmail: msmtp -C $T/msmtprc -t -i|" "$T/robot.yaml"
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out2" 2>>"$T/err2"
status=$?
[ "$status" = 0 ] || fail "third pass: exit status $status: $(cat "$T/err2")"
grep -qxF "robot: mail $id sent" "$T/err2" || fail "the kept mail was not sent: $(cat "$T/err2")"
grep -Eqx "robot: ${H[7]:0:12}: robot-fixture/argv-[0-9a-f]+: exec\.ops_per_sec: mailed before \($id\)" "$T/err2" ||
	fail "the branch next was mailed again: $(cat "$T/err2")"
# Each step of the bisection recorded once, also across the kill.
[ "$(state "SELECT count(*) = count(DISTINCT commit_hash || verdict) FROM bisect_steps WHERE test = 1")" = 1 ] ||
	fail "bisect steps recorded again: $(state 'SELECT test, commit_hash, verdict FROM bisect_steps')"
grep -Eq "^bisect: testing ${H[4]:0:12} .*: build failed \(.*\) → skip$" "$T/err1" "$T/err2" ||
	fail "the broken commit was not skipped: $(cat "$T/err1" "$T/err2")"
grep -Eqx "robot: main ${H[9]:0:12}: robot-fixture/argv-[0-9a-f]+: first bad commit ${H[7]:0:12} \(commit 7: bench: do 100% more work per operation\): exec.ops_per_sec" "$T/err2" ||
	fail "no first bad commit: $(cat "$T/err2")"
grep -Eq "^robot: broken ${H[4]:0:12}: robot-fixture/argv-[0-9a-f]+: head ${H[4]:0:12} does not build: exited with status 1: .*error" "$T/err1" "$T/err2" ||
	fail "the broken head is not recorded as such: $(cat "$T/err1" "$T/err2")"
wait_nonempty "$M/1.eml" || fail "no mail delivered"
sleep 0.5
[ "$(mails)" = 1 ] || fail "$(mails) mails delivered, want 1"
printf 'fixture@kdelta.invalid\ndev@example.org\n' >"$T/rcpt"
diff -u "$T/rcpt" "$M/1.rcpt" >&2 || fail "envelope recipients differ"
tr -d '\r' <"$M/1.eml" >"$T/mail"
grep -q 'filename="robot-fixture.yaml"' "$T/mail" || fail "the job file is not attached"
# The run that kill -9 cut short is marked interrupted by the next start,
# not counted as a failure of the commit it measured: the mail leads with
# the regression.
grep -Eq "^Subject: \[kdelta\] ${H[7]:0:12}: exec\.ops_per_sec -[0-9.]+% regression$" "$T/mail" ||
	fail "the mail's subject: $(grep '^Subject' "$T/mail")"
grep -qxF "Message-ID: $id" "$T/mail" || fail "the mail sent is not the one kept"
# Its "To reproduce" works on a recipient's machine: a clone of the
# repository the configuration names, never the robot's own work tree.
source "$SRCDIR/tests/report/mail.sh"
mail_file "$T/mail" "$T/again"
[ "$(sed -n 1p "$T/again/commands")" = "git clone -q '$REPO' kdelta-repro" ] ||
	fail "the mail does not clone the repository: $(cat "$T/again/commands")"
grep -qF -- "--setup 'cd '\\''kdelta-repro'\\'' && git checkout -q {commit} && " "$T/again/commands" ||
	fail "the mail's setup is not in the clone: $(cat "$T/again/commands")"
if [ "$EXECUTOR" = local ]; then
	kdelta_in_path
	(cd "$T/again" && KDELTA_RESULT_ROOT=$T/again/results sh -e commands.sh) \
		>"$T/again/out" 2>"$T/again/err" || fail "the mail's commands failed: $(cat "$T/again/err")"
	grep -Eq ' -(4[0-9]|5[0-9])\.[0-9]% .*exec\.ops_per_sec$' "$T/again/out" ||
		fail "the mail's commands did not reproduce the regression: $(cat "$T/again/out")"
fi

# 4. Nothing new: nothing sent.
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out3" 2>"$T/err3" ||
	fail "fourth pass: $(cat "$T/err3")"
sleep 0.5
[ "$(mails)" = 1 ] || fail "the fourth pass mailed again"
grep -q "mail .* sent" "$T/err3" && fail "the fourth pass sent: $(cat "$T/err3")"

"$KDELTA" robot --status "$T/robot.yaml" >"$T/status" 2>&1 || fail "--status: $(cat "$T/status")"
grep -Eq "^  [0-9-]+ [0-9:]+  main  robot-fixture/argv-[0-9a-f]+  ${H[0]:0:12}\.\.${H[9]:0:12}  first bad commit ${H[7]:0:12} " "$T/status" ||
	fail "--status has no verdict of main: $(cat "$T/status")"
grep -Eq "^  [0-9-]+ [0-9:]+  broken  robot-fixture/argv-[0-9a-f]+  ${H[3]:0:12}\.\.${H[4]:0:12}  head ${H[4]:0:12} does not build" "$T/status" ||
	fail "--status has no verdict of broken: $(cat "$T/status")"
grep -Eq "^  [0-9-]+ [0-9:]+  ${H[7]:0:12}  robot-fixture/argv-[0-9a-f]+  exec\.ops_per_sec  <kdelta-.*> sent$" "$T/status" ||
	fail "--status has no mail: $(cat "$T/status")"
sed -n '/^queue:/,/^recent/p' "$T/status" | grep -qx '  (none)' ||
	fail "--status: tests left in the queue: $(cat "$T/status")"

# 5. The loop: SIGTERM while it waits ends it, status 0.
"$KDELTA" robot "$T/robot.yaml" >"$T/out4" 2>"$T/err4" &
pid=$!
wait_line "$T/err4" '^robot: next pass in 3600s$' "$pid" || fail "the loop did not wait: $(cat "$T/err4")"
kill -TERM "$pid"
wait "$pid"
status=$?
pid=
[ "$status" = 0 ] || fail "after SIGTERM: exit status $status, want 0"
grep -qxF "kdelta robot: stopped by SIGTERM; the next start resumes where it was" "$T/err4" ||
	fail "after SIGTERM: $(cat "$T/err4")"
[ "$(mails)" = 1 ] || fail "the loop mailed again"

# 6. Slurm: SIGTERM stops the robot, not its job; --cancel (for good)
# cancels it, and the batch forgets it.
if [ "$EXECUTOR" = slurm ]; then
	new=$(git -C "$REPO" commit-tree -p next -m "commit 10: nothing" "next^{tree}")
	git -C "$REPO" update-ref refs/heads/next "$new"
	# A long build: the job is still running when it is cancelled.
	sed -i 's|^build: |build: sleep 60; |' "$T/robot.yaml"
	"$KDELTA" robot --once "$T/robot.yaml" >"$T/out5" 2>"$T/err5" &
	pid=$!
	wait_line "$T/err5" '^robot: Slurm job [0-9]+ submitted' "$pid" ||
		fail "no job submitted for the new head: $(cat "$T/err5")"
	job=$(sed -n 's/^robot: Slurm job \([0-9]*\) submitted.*/\1/p' "$T/err5")
	wait_line "$T/err5" "^robot: Slurm job $job: RUNNING" "$pid" ||
		fail "Slurm job $job does not run: $(cat "$T/err5")"
	kill -TERM "$pid"
	wait "$pid"
	pid=
	state=$(squeue -h --states=all -j "$job" -o %T 2>/dev/null)
	[ "$state" = RUNNING ] || fail "after SIGTERM, Slurm job $job is '$state', not running"
	batch=$(sed -n 's/^robot: Slurm job [0-9]* submitted (.*\/\(batch-[A-Za-z0-9]*\))$/\1/p' "$T/err5")
	[ -n "$batch" ] || fail "no batch directory in: $(cat "$T/err5")"
	# The clone's directory is mktemp's; the job says which in its batch.
	clone=
	for ((i = 0; i < 200; i++)); do
		clone=$(sed -n 's/^clone //p' "$T/results/.kdelta/slurm/$batch/found.tmp" 2>/dev/null)
		[ -n "$clone" ] && [ -e "$clone" ] && break
		sleep 0.1
	done
	[ -n "$clone" ] && [ -e "$clone" ] || fail "the running job has no clone"
	"$KDELTA" robot --cancel "$T/robot.yaml" >"$T/out6" 2>"$T/err6" ||
		fail "--cancel: $(cat "$T/err6")"
	grep -qx "robot: Slurm job $job cancelled" "$T/err6" &&
		grep -qx "robot: 1 batch cancelled" "$T/err6" ||
		fail "--cancel: $(cat "$T/err6")"
	# COMPLETING until the node said every process of the job ended: on a
	# busy machine (load 800) that took more than 10 s.
	for ((i = 0; i < 1200; i++)); do
		state=$(squeue -h --states=all -j "$job" -o %T 2>/dev/null)
		[ "$state" = CANCELLED ] && break
		sleep 0.1
	done
	[ "$state" = CANCELLED ] || fail "Slurm job $job is '$state' after --cancel"
	# The job's clone on the node went with it, before the job ended.
	# (It did not when something still wrote into it as the job's exit
	# handler removed it: 'Directory not empty', 1 run in 4 under load.)
	[ -e "$clone" ] && fail "the cancelled job left $clone"
	"$KDELTA" robot --cancel "$T/robot.yaml" >"$T/out6" 2>"$T/err6" ||
		fail "--cancel again: $(cat "$T/err6")"
	grep -qx "robot: 0 batches cancelled" "$T/err6" ||
		fail "a second --cancel: $(cat "$T/err6")"
fi
finish
