// SPDX-License-Identifier: GPL-2.0
/*
 * Writing mail: RFC 5322 headers (RFC 2047 encoded where not ASCII), MIME
 * multipart/mixed (RFC 2045/2046), text parts in 8bit when every line fits
 * in 998 octets, quoted-printable otherwise.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "kdelta/mail.h"
#include "kdelta/proc.h"
#include "kdelta/util.h"

char *mail_header_value(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++) {
		char c = printable_char(*s);

		/* Runs of blanks are one: folding makes no blank line. */
		if (c != ' ' || (sb.len && sb.buf[sb.len - 1] != ' '))
			strbuf_addch(&sb, c);
	}
	strbuf_rtrim(&sb);
	return strbuf_detach(&sb);
}

/* The next comma outside a quoted display name, or the end. */
static const char *next_comma(const char *s);

bool mail_has_address(const char *list)
{
	char *value = list ? mail_header_value(list) : NULL;
	bool found = false;

	for (const char *a = value; a && *a && !found;) {
		const char *end = next_comma(a);

		found = strspn(a, " ") < (size_t)(end - a);
		a = *end ? end + 1 : end;
	}
	free(value);
	return found;
}

static bool is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

static void add_unstructured(struct strbuf *out, const char *value,
			     size_t col);

/* A word longer than this cannot be folded into a line under 78 columns. */
#define LONGEST_FOLDABLE_WORD 70

static bool has_long_word(const char *s)
{
	size_t word = 0;

	for (; *s; s++)
		word = *s == ' ' ? 0 : word + 1;
	return word > LONGEST_FOLDABLE_WORD;
}

/* ASCII, folded at spaces so that lines stay under 78 columns. */
static void add_folded(struct strbuf *out, const char *value, size_t col)
{
	const char *p = value;

	while (*p) {
		const char *sp = strchr(p + 1, ' ');
		size_t word = sp ? (size_t)(sp - p) : strlen(p);

		if (col + word > 78 && p != value && *p == ' ') {
			strbuf_addch(out, '\n');
			col = 0;
		}
		strbuf_add(out, p, word);
		col += word;
		p += word;
	}
}

/*
 * RFC 2047 encoded-words ("=?UTF-8?Q?...?="), each under 76 characters,
 * never splitting a UTF-8 sequence.  In a phrase (a display name) only
 * letters and digits stay as they are (RFC 2047 5(3)).
 */
static void add_encoded_words(struct strbuf *out, const char *value,
			      size_t col, bool phrase)
{
	strbuf_addstr(out, "=?UTF-8?Q?");
	col += 10;
	for (const unsigned char *p = (const unsigned char *)value; *p;) {
		size_t seq = *p < 0x80 ? 1 : *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : 2;
		size_t used = 0;
		struct strbuf enc = STRBUF_INIT;

		for (; used < seq && p[used]; used++) {
			unsigned char c = p[used];

			if (c == ' ')
				strbuf_addch(&enc, '_');
			else if (c < 0x80 && c > 0x20 &&
				 (phrase ? isalnum(c) != 0
					 : c != '=' && c != '?' && c != '_'))
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
		p += used;
		strbuf_release(&enc);
	}
	strbuf_addstr(out, "?=");
}

/*
 * One address of an address header: "Name <addr>" with a display name
 * that is not ASCII gets the name encoded, never the address.
 */
static void add_address(struct strbuf *out, const char *addr, size_t col)
{
	const char *lt = strrchr(addr, '<');
	char *name;

	if (is_ascii(addr) || !lt) {
		/* an internationalised address itself is sent as it is */
		add_folded(out, addr, col);
		return;
	}
	name = xstrndup(addr, (size_t)(lt - addr));
	while (*name && name[strlen(name) - 1] == ' ')
		name[strlen(name) - 1] = '\0';
	add_encoded_words(out, name, col, true);
	strbuf_addf(out, "\n %s", lt);
	free(name);
}

/* The next comma outside a quoted display name, or the end. */
static const char *next_comma(const char *s)
{
	bool quoted = false;

	for (; *s; s++) {
		if (*s == '\\' && quoted && s[1])
			s++;
		else if (*s == '"')
			quoted = !quoted;
		else if (*s == ',' && !quoted)
			break;
	}
	return s;
}

/* The address of "Name <a@b.c>" or of "a@b.c". */
static char *address_part(const char *one)
{
	const char *lt = strrchr(one, '<'), *gt = lt ? strchr(lt, '>') : NULL;

	return gt ? xstrndup(lt + 1, (size_t)(gt - lt - 1)) : xstrdup(one);
}

/*
 * From, To, Cc: comma-separated addresses, one per line when several,
 * without the blanks around them (a blank at an address's end could be
 * folded onto a line of its own); blank ones ("a@b.c, ") are left out,
 * and so are those whose address (compared without regard to case) an
 * earlier one has: the author of a commit who is also a configured
 * recipient gets the mail once.
 */
static void add_address_list(struct strbuf *out, const char *value,
			     size_t col)
{
	char **seen = NULL;
	size_t n = 0, alloc = 0;

	for (const char *a = value; *a;) {
		const char *end = next_comma(a), *start = a;
		char *one, *address;
		bool again = false;

		a = *end ? end + 1 : end;
		while (start < end && *start == ' ')
			start++;
		while (end > start && end[-1] == ' ')
			end--;
		if (start == end)
			continue;
		one = xstrndup(start, (size_t)(end - start));
		address = address_part(one);
		for (size_t i = 0; i < n && !again; i++)
			again = !strcasecmp(seen[i], address);
		if (again) {
			free(address);
			free(one);
			continue;
		}
		if (n) {
			strbuf_addstr(out, ",\n ");
			col = 1;
		}
		ALLOC_GROW(seen, n + 1, alloc);
		seen[n++] = address;
		add_address(out, one, col);
		free(one);
	}
	for (size_t i = 0; i < n; i++)
		free(seen[i]);
	free(seen);
}

/* Subject: text, encoded when not ASCII or not foldable. */
static void add_unstructured(struct strbuf *out, const char *value,
			     size_t col)
{
	if (is_ascii(value) && !has_long_word(value))
		add_folded(out, value, col);
	else
		add_encoded_words(out, value, col, false);
}

/* A header "Name: value"; nothing in value can start another header. */
static void add_header(struct strbuf *out, const char *name, const char *raw,
		       bool addresses)
{
	char *value = mail_header_value(raw);
	size_t col = strlen(name) + 2;

	strbuf_addf(out, "%s: ", name);
	if (addresses)
		add_address_list(out, value, col);
	else
		add_unstructured(out, value, col);
	strbuf_addch(out, '\n');
	free(value);
}

enum transfer_encoding { ENCODING_7BIT, ENCODING_8BIT, ENCODING_QP };

static const char *const encoding_names[] = {
	[ENCODING_7BIT] = "7bit",
	[ENCODING_8BIT] = "8bit",
	[ENCODING_QP] = "quoted-printable",
};

/*
 * 7bit or 8bit when every line fits in 998 octets and holds no CR or NUL
 * (RFC 2045 2.7, 2.8); quoted-printable otherwise.
 */
static enum transfer_encoding choose_encoding(const char *text, size_t len)
{
	size_t line = 0;
	bool ascii = true;

	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\n') {
			line = 0;
			continue;
		}
		if (text[i] == '\r' || text[i] == '\0' || ++line > 998)
			return ENCODING_QP;
		ascii &= (unsigned char)text[i] < 0x80;
	}
	return ascii ? ENCODING_7BIT : ENCODING_8BIT;
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
	enum transfer_encoding enc = choose_encoding(text, len);

	strbuf_addf(out, "--%s\n", boundary);
	strbuf_addf(out, "Content-Type: text/plain; charset=%s\n",
		    enc == ENCODING_7BIT ? "us-ascii" : "utf-8");
	strbuf_addf(out, "Content-Transfer-Encoding: %s\n",
		    encoding_names[enc]);
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
	if (enc == ENCODING_QP)
		add_qp(out, text, len);
	else
		strbuf_add(out, text, len);
	if (len && text[len - 1] != '\n')
		strbuf_addch(out, '\n');
}

/*
 * The body is text for people: its lines stay, tabs stay, any other
 * control character becomes a blank (printable_char()).  Attachments are
 * files, carried as they are.
 */
static void add_body_part(struct strbuf *out, const char *boundary,
			  const char *body)
{
	char *text = xstrdup(body);

	for (char *p = text; *p; p++)
		if (*p != '\n' && *p != '\t')
			*p = printable_char(*p);
	add_text_part(out, boundary, text, strlen(text), NULL);
	free(text);
}

/* The right-hand side of a Message-ID: a host name's letters. */
static void add_message_id(struct strbuf *out, const struct mail *m)
{
	struct strbuf host = STRBUF_INIT;

	for (const char *p = m->message_id_host ? m->message_id_host : "";
	     *p; p++)
		if (isalnum((unsigned char)*p) || *p == '.' || *p == '-')
			strbuf_addch(&host, *p);
	strbuf_addf(out, "Message-ID: <kdelta-%lld-%llx@%s>\n",
		    (long long)m->date, m->unique,
		    host.len ? host.buf : "localhost");
	strbuf_release(&host);
}

/* In-Reply-To and References: one msg-id, "<...>", without blanks. */
static void add_in_reply_to(struct strbuf *out, const char *raw)
{
	char *id = mail_header_value(raw);
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = id; *p; p++)
		if (*p != ' ' && *p != '<' && *p != '>')
			strbuf_addch(&sb, *p);
	if (sb.len) {
		strbuf_addf(out, "In-Reply-To: <%s>\n", sb.buf);
		strbuf_addf(out, "References: <%s>\n", sb.buf);
	}
	strbuf_release(&sb);
	free(id);
}

static bool contains(const char *text, size_t len, const char *s)
{
	return memmem(text, len, s, strlen(s)) != NULL;
}

/* A boundary that occurs in no part (RFC 2046 5.1.1). */
static void choose_boundary(const struct mail *m, char *buf, size_t size)
{
	unsigned long long seed = m->unique ^ (unsigned long long)m->date;
	bool taken;

	do {
		seed = hash64(&seed, sizeof(seed));
		snprintf(buf, size, "kdelta-%016llx", seed);
		taken = contains(m->body, strlen(m->body), buf);
		for (size_t i = 0; i < m->nattachments && !taken; i++)
			taken = contains(m->attachments[i].data,
					 m->attachments[i].len, buf);
	} while (taken);
}

void mail_format(const struct mail *m, struct strbuf *out)
{
	char date[64], boundary[64];
	time_t t = (time_t)m->date;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S +0000", &tm);
	choose_boundary(m, boundary, sizeof(boundary));

	add_header(out, "From", m->from, true);
	if (mail_has_address(m->to))
		add_header(out, "To", m->to, true);
	if (mail_has_address(m->cc))
		add_header(out, "Cc", m->cc, true);
	add_header(out, "Subject", m->subject, false);
	strbuf_addf(out, "Date: %s\n", date);
	add_message_id(out, m);
	if (m->in_reply_to && *m->in_reply_to)
		add_in_reply_to(out, m->in_reply_to);
	strbuf_addstr(out, "MIME-Version: 1.0\n");
	strbuf_addf(out, "Content-Type: multipart/mixed; boundary=\"%s\"\n",
		    boundary);
	strbuf_addstr(out, "\nThis is a multi-part message in MIME format.\n\n");
	add_body_part(out, boundary, m->body);
	for (size_t i = 0; i < m->nattachments; i++) {
		strbuf_addch(out, '\n');
		add_text_part(out, boundary, m->attachments[i].data,
			      m->attachments[i].len,
			      m->attachments[i].filename);
	}
	strbuf_addf(out, "\n--%s--\n", boundary);
}

const char *mail_sendmail_command(void)
{
	const char *env = getenv("KDELTA_SENDMAIL");

	return env && *env ? env : MAIL_DEFAULT_SENDMAIL;
}

/* CMD split at blanks into a NULL-terminated argv; caller frees both. */
static char **split_command(const char *cmd, char **copy)
{
	char **argv = NULL, *save = NULL;
	size_t n = 0, alloc = 0;

	*copy = xstrdup(cmd);
	for (char *word = strtok_r(*copy, " \t", &save); word;
	     word = strtok_r(NULL, " \t", &save)) {
		ALLOC_GROW(argv, n + 2, alloc);
		argv[n++] = word;
	}
	ALLOC_GROW(argv, n + 1, alloc);
	argv[n] = NULL;
	return argv;
}

int mail_send(const char *cmd, const char *text, size_t len,
	      struct kd_err *err)
{
	char *copy, **argv = split_command(cmd, &copy);
	struct proc p = PROC_INIT;
	int ret = -1;

	if (!argv[0]) {
		kd_error(err, "the sendmail command is empty");
		goto out;
	}
	p.argv = (const char *const *)argv;
	p.in = PROC_PIPE;
	p.in_buf = text;
	p.in_len = len;
	p.out = PROC_INHERIT;
	p.err = PROC_INHERIT;
	if (proc_run(&p, err) < 0)
		;
	else if (p.end != PROC_EXITED || p.status)
		kd_error(err, "%s failed (%s %d); the mail was not sent",
			 cmd, p.end == PROC_EXITED ? "exit status" : "signal",
			 p.status);
	else if (p.in_errno)
		kd_error(err, "writing to %s: %s", argv[0],
			 strerror(p.in_errno));
	else
		ret = 0;
	proc_clear(&p);
out:
	free(argv);
	free(copy);
	return ret;
}
