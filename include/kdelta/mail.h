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

struct mail {
	const char *from;
	const char *to;		/* comma-separated, may be NULL */
	const char *cc;		/* comma-separated, may be NULL */
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
 * when they hold an address; in the body, control characters other than
 * LF and tab become blanks.
 */
void mail_format(const struct mail *m, struct strbuf *out);

/*
 * The header-safe form of s: control characters become blanks
 * (printable_char()), runs of blanks one, none at either end.
 */
char *mail_header_value(const char *s);
/* Whether a comma-separated list (may be NULL) holds an address. */
bool mail_has_address(const char *list);

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
