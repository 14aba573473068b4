#!/bin/bash
# A first bad commit made by a hostile author:
# - its author's name ("Evil, victim@example.net, x@evil.example \"q")
#   adds no recipient to the robot's mail and leaves the author's address
#   whole.  Before the name and the address were kept apart, "%an <%ae>"
#   went into To as text, and the comma in the name made
#   victim@example.net a recipient;
# - its subject's escape sequences (clear the screen, set the terminal's
#   title) reach neither the robot's log nor --status: they did.
source "$TESTLIB"
source "$SRCDIR/tests/robot/small.sh"
[ -x /usr/bin/python3 ] || skip "/usr/bin/python3 is not installed"
command -v git >/dev/null || skip "git is not installed"
command -v cc >/dev/null || skip "no C compiler (cc) to build the fixture"
REPO=$T/repo
mapfile -t H < <("$TESTDATA/bisect/make-repo.sh" "$REPO" --commits 2 \
	--slow-at 1 --more-work 100) || skip "cannot make the fixture repository"
[ "${#H[@]}" = 2 ] || skip "cannot make the fixture repository"
# The slow commit, by a hostile author (git drops '<' and '>' from names).
evil='Evil, victim@example.net, x@evil.example "q'
subject=$(printf 'commit 1: evil \033[2J\033]0;pwned\007 subject')
GIT_AUTHOR_NAME=$evil GIT_AUTHOR_EMAIL=author@example.org \
	git -C "$REPO" -c user.name=x -c user.email=x@x commit -q --amend \
	-m "$subject" --reset-author || fail "cannot set the author"
[ "$(git -C "$REPO" log -1 --format=%an)" = "$evil" ] ||
	skip "git keeps no such author name: $(git -C "$REPO" log -1 --format=%an)"
head=$(git -C "$REPO" rev-parse HEAD)
cat >"$T/job.yaml" <<EOF
testcase: robot-hostile-commit
monitors: {}
exec:
  argv: [$REPO/bench]
EOF
cat >"$T/robot.yaml" <<EOF
repository: repo
branches: [main]
jobs: [job.yaml]
build: cc -O2 -o bench bench.c
runs: 3
max-runs: 6
result-root: results
work-dir: work
mail:
  from: kdelta robot <robot@example.org>
  to: ['"Dev, Team" <dev@example.org>']
  sendmail: tee -a $T/mail.eml
EOF
"$KDELTA" robot --once "$T/robot.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 0 ] || fail "exit status $status, want 0: $(cat "$T/err")"
grep -q "first bad commit ${head:0:12}" "$T/err" ||
	fail "the regression was not found: $(cat "$T/err")"
[ -s "$T/mail.eml" ] || fail "no mail: $(cat "$T/err")"
"$KDELTA" robot --status "$T/robot.yaml" >"$T/status" 2>&1 ||
	fail "--status: $(cat "$T/status")"
for f in err status; do
	LC_ALL=C grep -q "$(printf '[\033\007]')" "$T/$f" &&
		fail "escape sequences in the robot's $f: $(od -c "$T/$f" | grep -m 2 '033\|\\a')"
	grep -qF "first bad commit ${head:0:12} (commit 1: evil  [2J ]0;pwned  subject)" "$T/$f" ||
		fail "the robot's $f has not the subject: $(cat "$T/$f")"
done
/usr/bin/python3 - "$T/mail.eml" <<'PY' || fail "the mail's recipients (above)"
import email, email.policy, email.utils, sys
msg = email.message_from_binary_file(open(sys.argv[1], "rb"),
                                     policy=email.policy.compat32)
to = email.utils.getaddresses(msg.get_all("To", []))
want = [('Evil, victim@example.net, x@evil.example "q', "author@example.org"),
        ("Dev, Team", "dev@example.org")]
if to != want:
    print("To:", msg.get_all("To"), "parsed", to, "want", want, file=sys.stderr)
    sys.exit(1)
PY
finish
