// SPDX-License-Identifier: GPL-2.0
/*
 * Writing mail: RFC 5322 headers (RFC 2047 encoded where not ASCII), MIME
 * multipart/mixed (RFC 2045/2046), text parts in 8bit when every line fits
 * in 998 octets, quoted-printable otherwise.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kdelta/mail.h"
#include "kdelta/util.h"

char *mail_header_value(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		strbuf_addch(&sb, c < 0x20 || c == 0x7f ? ' ' : (char)c);
	}
	return strbuf_detach(&sb);
}

static bool is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

/*
 * A header "Name: value", folded; a non-ASCII value becomes RFC 2047
 * encoded-words ("=?UTF-8?Q?...?="), each under 76 characters and never
 * splitting a UTF-8 sequence.
 */
static void add_header(struct strbuf *out, const char *name, const char *raw)
{
	char *value = mail_header_value(raw);
	size_t col;

	strbuf_addf(out, "%s: ", name);
	col = strlen(name) + 2;
	if (is_ascii(value)) {
		/* Fold at spaces so that lines stay under 78 columns. */
		const char *p = value;

		while (*p) {
			const char *sp = strchr(p + 1, ' ');
			size_t word = sp ? (size_t)(sp - p) : strlen(p);

			if (col + word > 78 && p != value && *p == ' ') {
				strbuf_addstr(out, "\n");
				col = 0;
			}
			strbuf_add(out, p, word);
			col += word;
			p += word;
		}
		strbuf_addch(out, '\n');
		free(value);
		return;
	}
	strbuf_addstr(out, "=?UTF-8?Q?");
	col += 10;
	for (const unsigned char *p = (const unsigned char *)value; *p;) {
		size_t seq = *p < 0x80 ? 1 : *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : 2;
		size_t need = 0;
		struct strbuf enc = STRBUF_INIT;

		for (size_t i = 0; i < seq && p[i]; i++, need++) {
			unsigned char c = p[i];

			if (c == ' ')
				strbuf_addch(&enc, '_');
			else if (c < 0x80 && c != '=' && c != '?' && c != '_' &&
				 c > 0x20)
				strbuf_addch(&enc, (char)c);
			else
				strbuf_addf(&enc, "=%02X", c);
		}
		if (col + enc.len + 2 > 76) {
			strbuf_addstr(out, "?=\n =?UTF-8?Q?");
			col = 11;
		}
		strbuf_addstr(out, enc.buf);
		col += enc.len;
		p += need;
		strbuf_release(&enc);
	}
	strbuf_addstr(out, "?=\n");
	free(value);
}

static bool needs_qp(const char *text)
{
	size_t line = 0;

	for (const char *p = text; *p; p++) {
		if (*p == '\n') {
			line = 0;
			continue;
		}
		if (*p == '\r' || ++line > 998)
			return true;
	}
	return false;
}

/* Quoted-printable (RFC 2045 6.7), soft line breaks at 76 columns. */
static void add_qp(struct strbuf *out, const char *text, size_t len)
{
	size_t col = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		char enc[4];
		bool at_eol = i + 1 == len || text[i + 1] == '\n';

		if (c == '\n') {
			strbuf_addch(out, '\n');
			col = 0;
			continue;
		}
		if ((c >= 33 && c <= 126 && c != '=') ||
		    ((c == ' ' || c == '\t') && !at_eol))
			snprintf(enc, sizeof(enc), "%c", c);
		else
			snprintf(enc, sizeof(enc), "=%02X", c);
		if (col + strlen(enc) > 75) {
			strbuf_addstr(out, "=\n");
			col = 0;
		}
		strbuf_addstr(out, enc);
		col += strlen(enc);
	}
}

static void add_text_part(struct strbuf *out, const char *boundary,
			  const char *text, size_t len, const char *filename)
{
	bool qp = needs_qp(text);

	strbuf_addf(out, "--%s\n", boundary);
	strbuf_addstr(out, "Content-Type: text/plain; charset=utf-8\n");
	strbuf_addf(out, "Content-Transfer-Encoding: %s\n",
		    qp ? "quoted-printable" : "8bit");
	if (filename) {
		char *safe = mail_header_value(filename);

		/* A filename is a quoted-string: no quotes or backslashes. */
		for (char *p = safe; *p; p++)
			if (*p == '"' || *p == '\\')
				*p = '_';
		strbuf_addf(out, "Content-Disposition: attachment; filename=\"%s\"\n",
			    safe);
		free(safe);
	} else {
		strbuf_addstr(out, "Content-Disposition: inline\n");
	}
	strbuf_addch(out, '\n');
	if (qp)
		add_qp(out, text, len);
	else
		strbuf_add(out, text, len);
	if (len && text[len - 1] != '\n')
		strbuf_addch(out, '\n');
}

void mail_format(const struct mail *m, struct strbuf *out)
{
	char date[64], boundary[64];
	time_t t = (time_t)m->date;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S +0000", &tm);
	snprintf(boundary, sizeof(boundary), "kdelta-%016llx",
		 (unsigned long long)hash64(&m->unique, sizeof(m->unique)) ^
			 (unsigned long long)t);

	add_header(out, "From", m->from);
	if (m->to && *m->to)
		add_header(out, "To", m->to);
	if (m->cc && *m->cc)
		add_header(out, "Cc", m->cc);
	add_header(out, "Subject", m->subject);
	strbuf_addf(out, "Date: %s\n", date);
	{
		char *host = mail_header_value(m->message_id_host);

		for (char *p = host; *p; p++)
			if (*p == '<' || *p == '>' || *p == ' ' || *p == '@')
				*p = '-';
		strbuf_addf(out, "Message-ID: <kdelta-%lld-%llx@%s>\n",
			    (long long)t, m->unique, host);
		free(host);
	}
	if (m->in_reply_to && *m->in_reply_to) {
		char *id = mail_header_value(m->in_reply_to);
		const char *open = id[0] == '<' ? "" : "<";
		const char *close = id[0] == '<' ? "" : ">";

		strbuf_addf(out, "In-Reply-To: %s%s%s\n", open, id, close);
		strbuf_addf(out, "References: %s%s%s\n", open, id, close);
		free(id);
	}
	strbuf_addstr(out, "MIME-Version: 1.0\n");
	strbuf_addf(out, "Content-Type: multipart/mixed; boundary=\"%s\"\n",
		    boundary);
	strbuf_addstr(out, "\nThis is a multi-part message in MIME format.\n\n");
	add_text_part(out, boundary, m->body, strlen(m->body), NULL);
	for (size_t i = 0; i < m->nattachments; i++) {
		strbuf_addch(out, '\n');
		add_text_part(out, boundary, m->attachments[i].data,
			      m->attachments[i].len,
			      m->attachments[i].filename);
	}
	strbuf_addf(out, "\n--%s--\n", boundary);
}
