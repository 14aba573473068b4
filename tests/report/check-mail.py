#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Reads a kdelta report with Python's email package and checks it.

Always: it parses without defects; Date, Message-ID and MIME-Version 1.0;
only the headers kdelta writes (nothing injected); multipart/mixed with an
inline text/plain body first; every raw line at most 998 octets; every body
line at most 80 columns except in the comparison table.  Then the checks
given as options.  Prints one line per problem and exits 1 if any.
"""
import argparse
import email
import email.policy
import re
import sys

ALLOWED = {"from", "to", "cc", "subject", "date", "message-id",
           "in-reply-to", "references", "mime-version", "content-type"}
problems = []


def check(cond, what):
    if not cond:
        problems.append(what)


def table_lines(lines):
    """Indexes of the lines of render_lkp's tables, which may be wide."""
    inside, out = False, set()
    for i, line in enumerate(lines):
        if re.fullmatch(r"=+", line):
            inside = True
        elif inside and (line == "" and i > 0 and
                         ("%stddev" in lines[i - 1] or "±" in lines[i - 1]
                          or lines[i - 1].startswith("no significant"))):
            inside = False
        if inside:
            out.add(i)
    return out


def check_body(body, args):
    lines = body.split("\n")
    wide = table_lines(lines)
    for i, line in enumerate(lines):
        if i not in wide:
            check(len(line.expandtabs()) <= 80,
                  f"body line {i + 1} is wider than 80 columns: {line!r}")
    pos = 0
    for text in args.in_order:
        at = body.find(text, pos)
        check(at >= 0, f"body lacks {text!r} (after offset {pos})")
        pos = at + len(text) if at >= 0 else pos
    for text in args.body_lacks:
        check(text not in body, f"body has {text!r}")


def check_attachment(msg, args):
    atts = list(msg.iter_attachments())
    names = [a.get_filename() for a in atts]
    check(names == args.attachment,
          f"attachments {names}, want {args.attachment}")
    for a in atts:
        check(a.get_content_type() == "text/plain",
              f"{a.get_filename()}: {a.get_content_type()}, want text/plain")
        text = a.get_content()
        for want in args.attachment_has:
            check(want in text, f"{a.get_filename()} lacks {want!r}")
        for bad in args.attachment_lacks:
            check(not re.search(bad, text, re.M),
                  f"{a.get_filename()} has {bad!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mail")
    ap.add_argument("--subject")
    ap.add_argument("--header", action="append", default=[],
                    help="NAME=VALUE, exactly")
    ap.add_argument("--in-order", action="append", default=[])
    ap.add_argument("--body-lacks", action="append", default=[])
    ap.add_argument("--attachment", action="append", default=[])
    ap.add_argument("--attachment-has", action="append", default=[])
    ap.add_argument("--attachment-lacks", action="append", default=[])
    args = ap.parse_args()

    # A message as SMTP delivered it has CRLF line ends: the same message.
    raw = open(args.mail, "rb").read().replace(b"\r\n", b"\n")
    for n, line in enumerate(raw.split(b"\n")):
        check(len(line) <= 998, f"raw line {n + 1} is {len(line)} octets")
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    check(not msg.defects, f"defects: {msg.defects}")
    for name in msg.keys():
        check(name.lower() in ALLOWED, f"unexpected header {name}")
    for name in ("From", "Subject", "Date", "Message-ID"):
        check(msg[name] is not None, f"no {name} header")
    check(msg["MIME-Version"] == "1.0", "MIME-Version is not 1.0")
    check(msg.get_content_type() == "multipart/mixed",
          f"content type {msg.get_content_type()}")
    check(msg["Date"] is not None and msg["Date"].datetime is not None,
          "Date does not parse")
    if args.subject is not None:
        check(str(msg["Subject"]) == args.subject,
              f"subject {str(msg['Subject'])!r}, want {args.subject!r}")
    for spec in args.header:
        name, value = spec.split("=", 1)
        check(str(msg[name]) == value,
              f"{name}: {str(msg[name])!r}, want {value!r}")
    parts = list(msg.iter_parts())
    check(len(parts) >= 1, "no parts")
    body = parts[0]
    check(body.get_content_type() == "text/plain", "first part not text/plain")
    check(body.get_content_disposition() == "inline", "body not inline")
    for p in parts:
        check(not p.defects, f"part defects: {p.defects}")
    check_body(body.get_content(), args)
    check_attachment(msg, args)
    for p in problems:
        print(f"{args.mail}: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
