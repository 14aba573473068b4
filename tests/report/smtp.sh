# shellcheck shell=bash
# A local SMTP server for the tests that deliver mail (smtp-sink.py, on
# python3-aiosmtpd) and an msmtp configuration for it; sourced after
# "$TESTLIB".  Skips the test when either is missing.
command -v msmtp >/dev/null || skip "msmtp is not installed"
/usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null ||
	skip "python3-aiosmtpd is not installed"

# start_smtp DIR: starts the server, which writes each message it receives
# to DIR/N.eml and its envelope recipients to DIR/N.rcpt; $smtp_pid is its
# process (killed on exit), $T/msmtprc msmtp's configuration for it.
start_smtp() {
	mkdir -p "$1"
	/usr/bin/python3 "$SRCDIR/tests/report/smtp-sink.py" "$1" >"$T/smtp.log" 2>&1 &
	smtp_pid=$!
	at_exit 'kill "$smtp_pid" 2>/dev/null; wait "$smtp_pid" 2>/dev/null'
	if ! wait_nonempty "$1/port"; then
		cat "$T/smtp.log" >&2
		fail "the SMTP server did not start"
		finish
	fi
	cat >"$T/msmtprc" <<EOF
account default
host 127.0.0.1
port $(cat "$1/port")
from robot@example.org
auth off
tls off
timeout 10
EOF
	chmod 600 "$T/msmtprc"
}
