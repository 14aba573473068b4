#!/bin/bash
# kdelta report --sendmail through a real sendmail (msmtp -t -i) to a local
# SMTP server (python3-aiosmtpd): the delivered message is the one kdelta
# wrote, the envelope holds the To and Cc addresses and nothing else.
source "$TESTLIB"
source "$SRCDIR/tests/report/smtp.sh"
source "$SRCDIR/tests/report/store.sh"

M=$T/smtp
start_smtp "$M"

# wait_for FILE: true once FILE exists, false after 10 seconds.
wait_for() {
	local i
	for ((i = 0; i < 100; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# The wrapper keeps a copy of what kdelta writes, then hands it to msmtp.
cat >"$T/sendmail" <<EOF
#!/bin/bash
set -o pipefail
tee "$T/written" | msmtp -C "$T/msmtprc" "\$@"
EOF
chmod +x "$T/sendmail"

# Headers an MTA may add in front; the rest must be byte for byte the same.
strip_mta() {
	tr -d '\r' <"$1" | awk 'NR == 1, /^$/ { if (/^(Received|X-Peer|X-MailFrom|X-RcptTo|Return-Path):/) { skip = 1; next } if (skip && /^[ \t]/) next; skip = 0 } { print }'
}

"$KDELTA" report --result-root "$R" --repo "$G" \
	--to 'Dev <dev@example.org>, list@example.org' --cc cc@example.org \
	--sendmail-cmd "$T/sendmail -t -i" "$A" "$B" 2>"$T/err" ||
	fail "--sendmail-cmd: $(cat "$T/err")"
if wait_for "$M/1.eml"; then
	diff -u "$T/written" <(strip_mta "$M/1.eml") >&2 ||
		fail "the delivered message differs from the one written"
	printf 'dev@example.org\nlist@example.org\ncc@example.org\n' >"$T/rcpt"
	diff -u "$T/rcpt" "$M/1.rcpt" >&2 || fail "envelope recipients differ"
	/usr/bin/python3 "$SRCDIR/tests/report/check-mail.py" "$M/1.eml" \
		--subject "[kdelta] ${B:0:12}: score.jobs_per_min -10.0% regression" \
		--attachment score.yaml || fail "the delivered message"
else
	fail "no message delivered"
fi

# $KDELTA_SENDMAIL is the default command of --sendmail.
rm -f "$T/written"
KDELTA_SENDMAIL="$T/sendmail -t -i" "$KDELTA" report --result-root "$R" \
	--to dev@example.org --sendmail "$A" "$B" || fail "\$KDELTA_SENDMAIL"
wait_for "$M/2.eml" || fail "\$KDELTA_SENDMAIL: no message delivered"
[ -s "$T/written" ] || fail "\$KDELTA_SENDMAIL was not used"

# A sendmail that fails: status 4 (the mail could not be written), the
# message says so.
expect_error 4 "kdelta report: /bin/false -t failed (exit status 1); the mail was not sent" \
	"$KDELTA" report --result-root "$R" --to d@e --sendmail-cmd "/bin/false -t" "$A" "$B"
expect_error 4 "kdelta report: cannot run '$T/none': No such file or directory" \
	"$KDELTA" report --result-root "$R" --to d@e --sendmail-cmd "$T/none -t" "$A" "$B"
finish
