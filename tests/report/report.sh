#!/bin/bash
# kdelta report on a real two-commit store, read by Python's email package:
# headers, parts, the attachment, the body in the robot's order; no mail
# when nothing changed; nothing from a subject, a label or a parameter
# becomes a header.
source "$TESTLIB"
source "$SRCDIR/tests/report/store.sh"
check_mail() { /usr/bin/python3 "$SRCDIR/tests/report/check-mail.py" "$@"; }
a=${A:0:12} b=${B:0:12}

"$KDELTA" report --result-root "$R" --repo "$G" \
	--to 'Dev One <dev@example.org>, list@example.org' --cc cc@example.org \
	--from 'Robot <robot@example.org>' --in-reply-to orig@example.org \
	"$A" "$B" >"$T/mail" 2>"$T/err" || fail "report failed: $(cat "$T/err")"
[ -s "$T/err" ] && fail "report wrote on stderr: $(cat "$T/err")"
check_mail "$T/mail" \
	--subject "[kdelta] $b: score.jobs_per_min -10.0% regression" \
	--header 'From=Robot <robot@example.org>' \
	--header 'To=Dev One <dev@example.org>, list@example.org' \
	--header 'Cc=cc@example.org' \
	--header 'In-Reply-To=<orig@example.org>' \
	--in-order='FYI, we noticed a -10.0% regression of score.jobs_per_min due to commit:' \
	--in-order="commit: $B"$'\n        ("xfs: iomap write path Bcc: x@y")' \
	--in-order='in testcase: score' \
	--in-order='on test machine: ' \
	--in-order='with following parameters:' \
	--in-order=$'\tcmd: sh "$REPORT_TEST_DIR/score.sh"' \
	--in-order='Details are as below:' \
	--in-order='To reproduce:' \
	--in-order="kdelta run score.yaml --commits $a,$b" \
	--in-order="kdelta compare $a $b" \
	--in-order='%stddev     %change' \
	--in-order='-10.0%' \
	--in-order='score.jobs_per_min' \
	--in-order=$'\t[*] '"$a sample" \
	--in-order=$'\t[O] '"$b sample" \
	--attachment score.yaml \
	--attachment-has 'testcase: score' \
	--attachment-has 'cmd: sh "$REPORT_TEST_DIR/score.sh"' \
	--attachment-lacks '^(commit|host|machine|kdelta):' ||
	fail "the regression mail"
sed '/^$/q' "$T/mail" | grep -qi '^bcc' && fail "a Bcc header"
# The machine line comes from the runner's record of this machine.
cpus=$(grep -c '^processor' /proc/cpuinfo)
grep -q "^on test machine: $cpus threads .* with .* memory$" "$T/mail" ||
	fail "no test machine line with $cpus threads"
# The attached job runs again as it is.
/usr/bin/python3 -c '
import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
open(sys.argv[2], "w").write(next(m.iter_attachments()).get_content())' \
	"$T/mail" "$T/score.yaml" || fail "attachment"
"$KDELTA" split "$T/score.yaml" >/dev/null || fail "the attached job does not load"

# The other way round it is an improvement; -o writes a file.
"$KDELTA" report --result-root "$R" -o "$T/mail2" "$B" "$A" || fail "-o"
check_mail "$T/mail2" \
	--subject "[kdelta] $a: score.jobs_per_min +11.1% improvement" \
	--in-order='FYI, we noticed a +11.1% improvement of score.jobs_per_min due to commit:' \
	--in-order="commit: $A"$'\n' \
	--attachment score.yaml || fail "the improvement mail"

# Nothing changed: no mail, status 0, one line on stderr; --always writes one.
expect_error 0 "kdelta report: no workload result changed significantly and no runs failed; no mail written (--always writes one anyway)" \
	"$KDELTA" report --result-root "$R" "$A" "$A"
"$KDELTA" report --result-root "$R" --always --subject-prefix '[robot]' \
	"$A" "$A" >"$T/same" || fail "--always"
check_mail "$T/same" --subject "[robot] $a: score: no significant change" \
	--in-order='FYI, we noticed no significant change of the workload results' \
	--in-order='no significant change in' \
	--attachment score.yaml || fail "the --always mail"

# A label (a path's last component), the testcase and a parameter with
# CR LF: the subject and the body keep them on one line, no header appears.
evil=$'lab\r\nBcc: l@m'
S=$T/evil
for c in base "$evil"; do
	mkdir -p "$S/$c/0" "$S/$c/1" "$S/$c/2"
	for i in 0 1 2; do
		printf 'testcase: "t\\r\\nBcc: t@m"\nfs: "x\\r\\nBcc: p@q"\n' >"$S/$c/$i/job.yaml"
		v=$([ "$c" = base ] && echo 10 || echo 20)
		echo "{\"t.ops_per_sec\": $((v + i))}" >"$S/$c/$i/stats.json"
		echo ok >"$S/$c/$i/complete"
	done
done
"$KDELTA" report "$S/base" "$S/$evil" >"$T/evil.mail" || fail "report on paths"
check_mail "$T/evil.mail" \
	--subject='[kdelta] lab Bcc: l@m: t.ops_per_sec +90.9% improvement' \
	--in-order='in testcase: t  Bcc: t@m' \
	--in-order=$'\tfs: x  ...' --attachment t__Bcc__t@m.yaml ||
	fail "CR LF in a label, a testcase, a parameter"
sed '/^$/q' "$T/evil.mail" | grep -qi '^bcc' && fail "CR LF: a Bcc header"

# A metric name with a bell and a terminal escape is the finding: the
# subject, the body and the CSV have blanks there, the JSON its escapes.
for c in base "$evil"; do
	for i in 0 1 2; do
		v=$([ "$c" = base ] && echo 100 || echo 300)
		echo "{\"t.ops_per_sec\": $((v / 10 + i)), \"t.bell\\u0007\\u001b[2J\": $((v + i))}" \
			>"$S/$c/$i/stats.json"
	done
done
"$KDELTA" report "$S/base" "$S/$evil" >"$T/esc.mail" || fail "report: an escape in a metric"
check_mail "$T/esc.mail" \
	--subject='[kdelta] lab Bcc: l@m: t.bell [2J +198.0% change' \
	--in-order='FYI, we noticed a +198.0% change of t.bell  [2J due to commit:' \
	--body-lacks=$'\a' --body-lacks=$'\e' --attachment t__Bcc__t@m.yaml ||
	fail "an escape in a metric name"
"$KDELTA" compare --format csv "$S/base" "$S/$evil" >"$T/esc.csv" || fail "csv"
grep -q $'[\a\e\r]' "$T/esc.csv" && fail "csv: a control character"
"$KDELTA" compare --format json "$S/base" "$S/$evil" >"$T/esc.json" || fail "json"
python3 - "$T/esc.json" <<'PY' || fail "json: the name is not kept exactly"
import json, sys
names = {m["name"] for m in json.load(open(sys.argv[1]))["groups"][0]["metrics"]}
assert "t.bell\x07\x1b[2J" in names, names
PY
python3 - "$T/esc.csv" <<'PY' || fail "csv: does not read back"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert {r["metric"] for r in rows} == {"t.ops_per_sec", "t.bell  [2J"}, rows
assert {r["variant"] for r in rows} == {"base", "lab  Bcc: l@m"}, rows
PY

# Blank addresses are left out: no header line of blanks, no empty Cc.
"$KDELTA" report --to 'a@b.c, ' --cc ' , ' "$S/base" "$S/$evil" >"$T/to.mail" ||
	fail "report --to 'a@b.c, '"
check_mail "$T/to.mail" --header 'To=a@b.c' --attachment t__Bcc__t@m.yaml ||
	fail "--to 'a@b.c, '"
sed '/^$/q' "$T/to.mail" | grep -q '^[[:space:]]\+$' && fail "a header line of blanks"
sed '/^$/q' "$T/to.mail" | grep -qi '^cc:' && fail "an empty Cc header"
expect_error 2 "kdelta report: --sendmail needs --to, the recipients of the mail" \
	"$KDELTA" report --sendmail --to ' , ' "$S/base" "$S/$evil"

# An address list with a name that is not quoted but holds a comma, an
# address with a blank: refused, not guessed at.
expect_error 2 "kdelta report: --to: 'Last' is not an address kdelta writes (local@domain, without blanks, quotes or any of \"(),:;<>[\\]\")" \
	"$KDELTA" report --result-root "$R" --to 'Last, First <f@l.org>' "$A" "$B"
expect_error 2 "kdelta report: --from: expected one address, got 2" \
	"$KDELTA" report --result-root "$R" --from 'a@b, c@d' "$A" "$B"
"$KDELTA" report --result-root "$R" --always --to '"Last, First" <f@l.org>' "$A" "$B" \
	>"$T/quoted.mail" 2>"$T/err" || fail "a quoted name: $(cat "$T/err")"
grep -qx 'To: "Last, First" <f@l.org>' "$T/quoted.mail" ||
	fail "a quoted name: $(grep -A1 '^To:' "$T/quoted.mail")"

# Usage errors.
expect_error 2 "kdelta report: --sendmail needs --to, the recipients of the mail" \
	"$KDELTA" report --result-root "$R" --sendmail "$A" "$B"
expect_error 2 "kdelta report: -o and --sendmail exclude each other; write the mail or send it" \
	"$KDELTA" report --result-root "$R" --sendmail --to a@b -o x "$A" "$B"
# A file that cannot be written is named as given, not as its temporary file.
expect_error 4 "kdelta report: $T/no-such-dir/mail: No such file or directory" \
	"$KDELTA" report --result-root "$R" -o "$T/no-such-dir/mail" "$A" "$B"
expect_error 2 "kdelta report: unknown option '--format'; see 'kdelta report --help'" \
	"$KDELTA" report --result-root "$R" --format json "$A" "$B"
expect_error 2 "kdelta report: needs a base and at least one variant to compare with it; see 'kdelta report --help'" \
	"$KDELTA" report --result-root "$R" "$A"
"$KDELTA" report --help | grep -q '^usage: kdelta report' || fail "--help"
"$KDELTA" help report | grep -q -- '--sendmail-cmd' || fail "help report"
# $KDELTA_SENDMAIL is what --sendmail pipes to, as kdelta(1) says.
"$KDELTA" report --help | grep -q -- '--sendmail            send it: pipe it to \$KDELTA_SENDMAIL if set, else$' ||
	fail "report --help: \$KDELTA_SENDMAIL is --sendmail's"
"$KDELTA" report --help | grep -q -- 'default: \$KDELTA_SENDMAIL' &&
	fail "report --help: \$KDELTA_SENDMAIL as --sendmail-cmd's default"
finish
