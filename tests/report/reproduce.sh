#!/bin/bash
# What a mail says is what happened, and its "To reproduce" reproduces:
# the headline is the job's key result (the first its workload prints),
# not a larger change of another result; the kdelta run command has the
# --setup that made the commits differ; an --axis mail names the parameter
# that changed, and its attached job runs every value.  The commands of
# each mail are run as they are, on its attachment, into a new store, and
# must show the same change.
source "$TESTLIB"
[ -x /usr/bin/python3 ] || skip "/usr/bin/python3 is not installed"
cd "$T" || exit 1
export KDELTA_RESULT_ROOT=$T/results
source "$SRCDIR/tests/report/mail.sh"
kdelta_in_path

# The workload prints its key result first: ops_per_sec falls 10%; then
# errors, which rises 50% -- a larger change, but not the job's key result.
cat >bench.yaml <<YAML
testcase: bench
monitors: {}
runs: 3
exec:
  name: bench
  cmd: |
    c=\$(cat "$T/commit")
    n=\$(( \$(cat "$T/count-\$c" 2>/dev/null || echo 0) + 1 ))
    echo \$n >"$T/count-\$c"
    if [ "\$c" = slow ]; then echo "ops_per_sec: \$((900 + n))"; echo "errors: \$((150 + n))"
    else echo "ops_per_sec: \$((1000 + n))"; echo "errors: \$((100 + n))"; fi
YAML
# A quoted path with a blank in the --setup: the mail's line breaks fall
# between words of the shell, never inside one ('\'' is a quote within
# a word).
mkdir -p "$T/a dir"
setup="cd '$T/a dir' && echo {commit} >'$T/commit'"
"$KDELTA" run bench.yaml --commits fast,slow --setup "$setup" \
	--work-dir "$T/work" 2>run.log || fail "run: $(cat run.log)"
"$KDELTA" report fast slow >commit.eml 2>err || fail "report: $(cat err)"
grep -qx 'Subject: \[kdelta\] slow: bench.ops_per_sec -10.0% regression' commit.eml ||
	fail "the headline is not the key result: $(grep '^Subject' commit.eml)"
grep -q "^FYI, we noticed a -10.0% regression of bench.ops_per_sec due to commit:$" commit.eml ||
	fail "the finding is not the key result"
mail_file commit.eml again
[ "$(head -1 again/commands)" = "kdelta run bench.yaml --commits fast,slow --setup 'cd '\\''$T/a dir'\\'' && echo {commit} >'\\''$T/commit'\\'''" ] ||
	fail "the run command lacks the --setup: $(head -1 again/commands)"
# Run the mail's commands into a new store: the same change comes out.
rm -f "$T"/count-* && export KDELTA_RESULT_ROOT=$T/again-results
(cd again && sh -e commands.sh >out 2>err) || fail "the mail's commands failed: $(cat again/err)"
grep -q '^ *1002 .* -10\.0% .*bench\.ops_per_sec$' again/out ||
	fail "the mail's commands did not reproduce: $(cat again/out)"

# --axis: a program run with two arguments (its rate halves), compared
# within one commit.
export KDELTA_RESULT_ROOT=$T/axis-results
cat >bin/ops <<'SH'
#!/bin/sh
n=$(( $(cat "$0.$1" 2>/dev/null || echo 0) + 1 ))
echo $n >"$0.$1"
echo "ops_per_sec: $(($1 + n))"
SH
chmod +x bin/ops
cat >axis.yaml <<YAML
testcase: axis
monitors: {}
runs: 3
exec:
  name: bench
  cmd: [ops 1000, ops 500]
YAML
"$KDELTA" run axis.yaml --commit k --work-dir "$T/work" 2>run.log ||
	fail "run: $(cat run.log)"
"$KDELTA" report --axis cmd 'ops 1000' 'ops 500' >axis.eml 2>err ||
	fail "report --axis: $(cat err)"
grep -qx 'Subject: \[kdelta\] cmd=ops 500: bench.ops_per_sec -49.9% regression' axis.eml ||
	fail "--axis subject: $(grep '^Subject' axis.eml) $(cat err)"
grep -qx 'FYI, we noticed a -49.9% regression of bench.ops_per_sec due to changing cmd:' axis.eml ||
	fail "--axis finding"
grep -qx 'cmd: ops 500 (compared with ops 1000)' axis.eml ||
	fail "--axis: no 'cmd: ops 500 (compared with ops 1000)'"
grep -q '^commit: ops' axis.eml && fail "--axis: 'commit: ops 500'"
mail_file axis.eml axis
[ "$(cat axis/commands)" = "kdelta run axis.yaml
kdelta compare --axis cmd 'ops 1000' 'ops 500'" ] ||
	fail "--axis commands: $(cat axis/commands)"
export KDELTA_RESULT_ROOT=$T/axis-again
(cd axis && sh -e commands.sh >out 2>err) || fail "the --axis mail's commands failed: $(cat axis/err)"
grep -q ' -49\.[0-9]% .*bench\.ops_per_sec$' axis/out ||
	fail "the --axis mail's commands did not reproduce: $(cat axis/out)"
finish
