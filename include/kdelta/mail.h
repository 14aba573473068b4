/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_MAIL_H
#define KDELTA_MAIL_H

#include <stdbool.h>
#include <stddef.h>

#include "kdelta/err.h"
#include "kdelta/strbuf.h"

/*
 * An RFC 5322 message with a MIME multipart/mixed body: a plain-text part
 * and text attachments.  Everything that goes into a header passes through
 * one function that neutralises CR, LF and other control characters, so
 * nothing taken from a commit subject, a parameter or a label can add a
 * header.
 */
struct mail_attachment {
	const char *filename;
	const char *data;	/* UTF-8 text */
	size_t len;
};

/*
 * A mailbox: a display name and an address, kept apart from the moment
 * they are known (a commit's author from git, a list a user typed, parsed
 * once), and joined only when the header is written, the name quoted as
 * RFC 5322 requires: so that no name, whatever it holds (commas, '<',
 * quotes), can add a recipient or change an address.
 */
struct mail_address {
	char *name;	/* UTF-8, or NULL */
	char *addr;	/* local@domain */
};

struct mail_addresses {
	struct mail_address *v;
	size_t n, alloc;
};
#define MAIL_ADDRESSES_INIT { NULL, 0, 0 }

/*
 * Adds the mailbox (name, addr) as it is (name may be NULL or empty):
 * -1 when addr is not local@domain without blanks, control characters,
 * quotes or any of "(),:;<>[\]" ("'x' is not an address kdelta writes
 * ...").
 */
int mail_addresses_add(struct mail_addresses *list, const char *name,
		       const char *addr, struct kd_err *err);
/*
 * Adds the addresses of a comma-separated list as people type it:
 * "a@b.c", "<a@b.c>", "Name <a@b.c>", "\"Last, First\" <a@b.c>"; blank
 * elements are skipped.  -1 at the first that is none of these ("'x' is
 * not an address (a@b.c, or Name <a@b.c>; ...)"), or whose address
 * mail_addresses_add() refuses.
 */
int mail_addresses_parse(struct mail_addresses *list, const char *text,
			 struct kd_err *err);
void mail_addresses_release(struct mail_addresses *list);

struct mail {
	const struct mail_addresses *from;	/* one mailbox */
	const struct mail_addresses *to;	/* may be NULL or empty */
	const struct mail_addresses *cc;	/* may be NULL or empty */
	const char *subject;	/* UTF-8 */
	const char *in_reply_to;	/* a Message-ID, with or without <> */
	const char *body;	/* UTF-8 text, '\n' line ends */
	const struct mail_attachment *attachments;
	size_t nattachments;
	double date;		/* seconds since the epoch */
	const char *message_id_host;	/* right-hand side of Message-ID */
	unsigned long long unique;	/* mixed into Message-ID and boundary */
};

/*
 * Writes the message with CRLF-free '\n' line ends, as sendmail -t takes:
 * only kdelta's headers, each once, no line of blanks; To and Cc only
 * when they hold an address, each address once in a header; in the body,
 * control characters other than LF and tab become blanks.
 */
void mail_format(const struct mail *m, struct strbuf *out);

/*
 * The header-safe form of s: control characters become blanks
 * (printable_char()), runs of blanks one, none at either end.
 */
char *mail_header_value(const char *s);

#define MAIL_DEFAULT_SENDMAIL "/usr/sbin/sendmail -t -i"

/* $KDELTA_SENDMAIL when set and not empty, else MAIL_DEFAULT_SENDMAIL. */
const char *mail_sendmail_command(void);

/*
 * Pipes a message (as mail_format() writes it) to cmd, split at blanks
 * (no shell), and waits for it: -1 when it cannot be started, fails, or
 * does not take the whole message ("... the mail was not sent").
 */
int mail_send(const char *cmd, const char *text, size_t len,
	      struct kd_err *err);

#endif
