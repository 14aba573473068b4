# shellcheck shell=bash
# Reading a mail as its reader does, for the tests that run its "To
# reproduce" commands as they are; sourced after "$TESTLIB".

# kdelta_in_path: the mails' commands say "kdelta"; make that $KDELTA.
kdelta_in_path() {
	mkdir -p "$T/bin" && ln -sf "$(realpath "$KDELTA")" "$T/bin/kdelta" &&
		export PATH=$T/bin:$PATH
}

# mail_file MAIL OUTDIR: writes the attachments to OUTDIR, the commands
# of "To reproduce" (continuation lines joined, comments left out) to
# OUTDIR/commands, to compare, and the same lines as a reader pastes them
# into a shell (continuations kept: a line broken inside quotes breaks
# the command) to OUTDIR/commands.sh, to run.
mail_file() {
	mkdir -p "$2"
	/usr/bin/python3 - "$1" "$2" <<'PY'
import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"),
                                   policy=email.policy.default)
for a in m.iter_attachments():
    open(sys.argv[2] + "/" + a.get_filename(), "w").write(a.get_content())
body = m.get_body().get_content()
block = body.split("To reproduce:\n\n", 1)[-1].split("\n\n", 1)[0]
text = block.replace(" \\\n\t    ", " ")
cmds = [l[1:] for l in text.split("\n") if l.startswith("\t") and not l.startswith("\t#")]
open(sys.argv[2] + "/commands", "w").write("\n".join(cmds) + "\n")
raw = [l[1:] for l in block.split("\n") if l.startswith("\t") and not l.startswith("\t#")]
open(sys.argv[2] + "/commands.sh", "w").write("\n".join(raw) + "\n")
PY
}
