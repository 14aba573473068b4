#!/bin/bash
# What the robot promises of its mail (kdelta-robot(5), STATE; README,
# --help): once per (commit, job, metric), but a robot killed while
# sendmail runs -- here after sendmail took the mail -- sends it again on
# its next pass, the same message with the same Message-ID, never a new
# one; and its --help says so instead of "never twice" (which it said
# before, as did the README).
source "$TESTLIB"
command -v git >/dev/null || skip "git is not installed"
command -v cc >/dev/null || skip "no C compiler (cc) to build the fixture"
REPO=$T/repo
mapfile -t H < <("$TESTDATA/bisect/make-repo.sh" "$REPO" --commits 2 \
	--slow-at 1 --more-work 100) || skip "cannot make the fixture repository"
[ "${#H[@]}" = 2 ] || skip "cannot make the fixture repository"
# A sendmail that takes the mail, then waits for $T/go.
cat >"$T/sendmail" <<EOT
#!/bin/sh
cat >>"$T/mail.eml"
touch "$T/taken"
while [ ! -e "$T/go" ]; do sleep 0.05; done
EOT
chmod +x "$T/sendmail"
cat >"$T/job.yaml" <<EOT
testcase: robot-mail-kill9
monitors: {}
exec:
  argv: [$REPO/bench]
EOT
cat >"$T/robot.yaml" <<EOT
repository: repo
branches: [main]
jobs: [job.yaml]
build: cc -O2 -o bench bench.c
runs: 3
max-runs: 6
result-root: results
work-dir: work
mail:
  to: dev@example.org
  sendmail: $T/sendmail
EOT
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err" &
pid=$!
at_exit 'touch "$T/go"; kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null'
for ((i = 0; i < 1200; i++)); do
	[ -e "$T/taken" ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
[ -e "$T/taken" ] || fail "no mail taken: $(cat "$T/err")"
kill -9 "$pid"
{ wait "$pid"; } 2>/dev/null
touch "$T/go"
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err" ||
	fail "the next pass: $(cat "$T/err")"
[ "$(grep -c '^Message-ID: ' "$T/mail.eml")" = 2 ] ||
	fail "$(grep -c '^Message-ID: ' "$T/mail.eml") messages, want the one sent again"
[ "$(grep '^Message-ID: ' "$T/mail.eml" | sort -u | wc -l)" = 1 ] ||
	fail "the message sent again is another: $(grep '^Message-ID: ' "$T/mail.eml")"
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err" ||
	fail "a third pass: $(cat "$T/err")"
[ "$(grep -c '^Message-ID: ' "$T/mail.eml")" = 2 ] || fail "mailed a third time"
"$KDELTA" robot --help >"$T/help"
grep -q "mailing anything twice" "$T/help" && fail "--help promises: $(grep twice "$T/help")"
grep -q "again, with the same Message-ID" "$T/help" ||
	fail "--help does not say when a mail goes again"
finish
