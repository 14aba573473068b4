#!/bin/bash
# The robot's mail goes to the first bad commit's author: a hostile author
# name ("Evil, victim@example.net, x@evil.example \"q") adds no
# recipient and leaves the author's address whole.  Before the name and
# the address were kept apart, "%an <%ae>" went into To as text, and the
# comma in the name made victim@example.net a recipient.
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
GIT_AUTHOR_NAME=$evil GIT_AUTHOR_EMAIL=author@example.org \
	git -C "$REPO" -c user.name=x -c user.email=x@x commit -q --amend \
	--no-edit --reset-author || fail "cannot set the author"
[ "$(git -C "$REPO" log -1 --format=%an)" = "$evil" ] ||
	skip "git keeps no such author name: $(git -C "$REPO" log -1 --format=%an)"
head=$(git -C "$REPO" rev-parse HEAD)
cat >"$T/job.yaml" <<EOF
testcase: robot-author
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
