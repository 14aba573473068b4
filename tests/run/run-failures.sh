#!/bin/bash
# Failed runs: a setup hook that fails for one commit, a workload that
# exits non-zero.  Each fails its run, not the batch; the status is 1.
# And bad usage: status 2 with one line.
. "$TESTLIB"
# Whatever a test forgets to say, nothing goes outside $T.
export KDELTA_RESULT_ROOT="$T/default-root"

cat >"$T/job.yaml" <<'EOF'
testcase: hook
exec:
  cmd: 'echo "x: 1"'
EOF
"$KDELTA" run "$T/job.yaml" --commits good,bad --runs 2 \
	--result-root "$T/r" --work-dir "$T/w" \
	--setup 'if [ {commit} = bad ]; then echo "cannot install $KDELTA_COMMIT" >&2; exit 4; fi' \
	2>"$T/stderr"
status=$?
[ "$status" = 1 ] || fail "setup failure: exit status $status, want 1"
c=$(echo "$T"/r/hook/*/*)
for run in 0 1; do
	[ "$(cat "$c/good/$run/complete")" = ok ] || fail "good/$run not ok"
	[ "$(cat "$c/bad/$run/complete")" = "failed: setup exited with status 4: cannot install bad" ] ||
		fail "bad/$run: $(cat "$c/bad/$run/complete")"
done
grep -q '^kdelta: \[[12]/4\] .*/bad run 1/2: failed: setup exited with status 4: cannot install bad$' \
	"$T/stderr" || fail "no failure line: $(cat "$T/stderr")"
grep -q '^kdelta: 2 run(s) ok, 2 failed' "$T/stderr" || fail "summary"
[ -f "$c/bad/matrix.json.gz" ] || fail "no matrix for bad"
[ "$(zcat "$c/bad/matrix.json.gz")" = '{"stats_source":[]}' ] ||
	fail "bad matrix: $(zcat "$c/bad/matrix.json.gz")"

# The progress line shows the first result line, not the first line.
cat >"$T/chatty.yaml" <<'EOF'
testcase: chatty
exec:
  cmd: 'echo "starting: now"; echo "x: 1.5"'
EOF
"$KDELTA" run "$T/chatty.yaml" --commit a --runs 1 --result-root "$T/r" \
	--work-dir "$T/w" 2>"$T/stderr" || fail "chatty run failed: $(cat "$T/stderr")"
grep -q '^kdelta: \[1/1\] .* run 1/1: ok, [0-9.]*s, exec\.x: 1\.5$' "$T/stderr" ||
	fail "progress line: $(cat "$T/stderr")"

# A commit label is quoted for the shell: no injection through {commit}.
(cd "$T" && "$KDELTA" run "$T/job.yaml" --commit 'a;touch x' --runs 1 \
	--result-root "$T/r" --work-dir "$T/w" \
	--setup "echo {commit} >'$T/label'" 2>/dev/null) ||
	fail "quoted label run failed"
[ "$(cat "$T/label")" = 'a;touch x' ] || fail "label: $(cat "$T/label")"
[ -e "$T/x" ] && fail "setup hook injection"

cat >"$T/bad.yaml" <<'EOF'
testcase: crash
exec:
  cmd: 'echo "x: 1"; echo hmm >&2; echo "no space" >&2; exit 3'
EOF
"$KDELTA" run "$T/bad.yaml" --commit k --runs 1 --result-root "$T/r" \
	--work-dir "$T/w" 2>"$T/stderr"
status=$?
[ "$status" = 1 ] || fail "workload failure: exit status $status, want 1"
complete=$(cat "$T"/r/crash/*/*/k/0/complete)
# The exec workload itself exits 1 and says why, after the command's stderr.
[ "$complete" = "failed: exec exited with status 1: no space / exec: 'echo \"x: 1\"; echo hmm >&2; echo \"no space\" >&2; exit 3' exited with status 3" ] ||
	fail "workload failure: complete says '$complete'"

# exec's name names its log: never a path out of the run directory.
cat >"$T/escape.yaml" <<'EOF'
exec:
  cmd: 'echo "x: 1"'
  name: ../../../../../../escaped
EOF
expect_error 2 "kdelta run: $T/escape.yaml:3:9: exec.name: name '../../../../../../escaped' cannot name its log file in the run directory; use letters, digits and ._+=,@%- only, not a leading '.', and not 'setup'" \
	"$KDELTA" run "$T/escape.yaml" --result-root "$T/r" --work-dir "$T/w"
[ -e "$T/escaped.log" ] || [ -e "$T/r/escaped.log" ] && fail "log written outside the run directory"
sed -i 's|name: .*|name: setup|' "$T/escape.yaml"
expect_error 2 "kdelta run: $T/escape.yaml:3:9: exec.name: name 'setup' cannot name its log file in the run directory; use letters, digits and ._+=,@%- only, not a leading '.', and not 'setup'" \
	"$KDELTA" run "$T/escape.yaml" --result-root "$T/r" --work-dir "$T/w"
# Nor a monitor's name, whose metrics its own would overwrite or join.
for name in time proc-vmstat perf-stat numa-vmstat; do
	sed -i "s|name: .*|name: $name|" "$T/escape.yaml"
	expect_error 2 "kdelta run: $T/escape.yaml:3:9: exec.name: '$name' is the name of a monitor: its results would mix with that monitor's metrics; choose another name" \
		"$KDELTA" run "$T/escape.yaml" --result-root "$T/r" --work-dir "$T/w"
done

expect_error 2 "kdelta run: no job file given; usage: kdelta run JOB.yaml... (see 'kdelta run --help')" \
	"$KDELTA" run --runs 2
expect_error 2 "kdelta run: --runs expects a number of 1 or more, not '0'" \
	"$KDELTA" run "$T/job.yaml" --runs 0
expect_error 2 "kdelta run: --runs expects a number of 1 or more, not '3x'" \
	"$KDELTA" run "$T/job.yaml" --runs 3x
expect_error 2 "kdelta run: --warmup expects a number, not '99999999999999999999'" \
	"$KDELTA" run "$T/job.yaml" --warmup 99999999999999999999
expect_error 2 "kdelta run: '..' is not a valid commit label; use a name or a hash" \
	"$KDELTA" run "$T/job.yaml" --commits a,..
expect_error 2 "kdelta run: empty commit label; give names like --commits base,test" \
	"$KDELTA" run "$T/job.yaml" --commits a,,b
expect_error 2 "kdelta run: commit 'a/b' given twice (as store name 'a%2Fb')" \
	"$KDELTA" run "$T/job.yaml" --commits a/b,a_b,a/b
expect_error 2 "kdelta run: unknown option '--frobnicate'; see 'kdelta run --help'" \
	"$KDELTA" run "$T/job.yaml" --frobnicate
expect_error 2 "kdelta run: option '--setup' needs a value; see 'kdelta run --help'" \
	"$KDELTA" run "$T/job.yaml" --setup
"$KDELTA" run --help >"$T/help" || fail "run --help failed"
for w in aim7 aim9 truncate punch exec; do
	grep -q "^    $w " "$T/help" || fail "--help lists no $w"
done
finish
