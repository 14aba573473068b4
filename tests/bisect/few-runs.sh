#!/bin/bash
# With --runs 2, bisect classifies commits with 2 rounds each, fewer than
# compare needs to decide (3): the parent and the first bad commit get the
# runs the table needs, so that --report mails the regression bisect found,
# not "no significant change".  The mail is the outcome checked; before,
# its subject said "no significant change" and its table "not enough runs".
source "$TESTLIB"
source "$SRCDIR/tests/bisect/common.sh"

make_fixture --slow-at 18
# Without --install: each run checks its commit out in the repository and
# builds it first.
INSTALL=
sed -i "s|$BIN/bench|$REPO/bench|" "$JOB"
# bench prints ops_per_sec first; the job declares ops its key result.
printf 'key_result:\n  exec.ops: higher\n' >>"$JOB"
bisect --good main~3 --bad main --runs 2 --max-runs 4 --report "$T/mail"
[ "$status" = 0 ] || fail "exit status $status, want 0: $(cat "$T/err")"
expect_line "$T/out" "first bad commit: ${H[18]} (\"commit 18: bench: do 100% more work per operation\")"
expect_line "$T/out" "metric: exec.ops"
grep -Eq "^Subject: \[kdelta\] ${H[18]:0:12}: exec\.ops -(4[0-9]|5[0-9])\.[0-9]% regression$" "$T/mail" ||
	fail "--report with --runs 2: no mail about the regression: $(grep '^Subject' "$T/mail")"
grep -q 'not enough runs' "$T/mail" && fail "--report with --runs 2: the mail says 'not enough runs'"
# How many runs the commits had before depends on how soon bisect could
# classify them (more when the machine is busy): when runs were added for
# the table, the line says that they reach 3.
if grep -q "^bisect: measuring ${H[17]:0:12} and ${H[18]:0:12} for the table" "$T/err"; then
	expect_line "$T/err" "bisect: measuring ${H[17]:0:12} and ${H[18]:0:12} for the table, to 3 runs each"
fi
[ "$(ok_runs "${H[18]}")" -ge 3 ] || fail "the first bad commit has $(ok_runs "${H[18]}") runs, fewer than the table's 3"
expect_restored
finish
