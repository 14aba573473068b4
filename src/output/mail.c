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

/* atext (RFC 5322 3.2.3): a word of a display name that needs no quotes. */
static bool is_atext(unsigned char c)
{
	return isalnum(c) || (c && strchr("!#$%&'*+-/=?^_`{|}~", c));
}

/*
 * A display name as RFC 5322 writes it: its words as they are when each
 * is atoms, else the whole name one quoted-string, with '"' and '\'
 * escaped.  Commas, '<', '@' and the like are then inside quotes: nothing
 * in a name can end the address or start another.
 */
static void add_phrase(struct strbuf *out, const char *name)
{
	bool plain = true;

	for (const char *p = name; *p && plain; p++)
		plain = *p == ' ' || is_atext((unsigned char)*p);
	if (plain) {
		strbuf_addstr(out, name);
		return;
	}
	strbuf_addch(out, '"');
	for (const char *p = name; *p; p++) {
		if (*p == '"' || *p == '\\')
			strbuf_addch(out, '\\');
		strbuf_addch(out, *p);
	}
	strbuf_addch(out, '"');
}

/*
 * One mailbox: "addr", or "Name <addr>" with the name quoted as needed,
 * or RFC 2047 encoded when it is not ASCII or has a word too long to fold
 * (encoded-words, in a phrase, leave only letters and digits as they are).
 */
static void add_mailbox(struct strbuf *out, const struct mail_address *a,
			size_t col)
{
	char *name = a->name ? mail_header_value(a->name) : NULL;
	struct strbuf phrase = STRBUF_INIT;

	if (!name || !*name) {
		add_folded(out, a->addr, col);
	} else if (!is_ascii(name) || has_long_word(name)) {
		add_encoded_words(out, name, col, true);
		strbuf_addf(out, "\n <%s>", a->addr);
	} else {
		add_phrase(&phrase, name);
		strbuf_addf(&phrase, " <%s>", a->addr);
		add_folded(out, phrase.buf, col);
	}
	strbuf_release(&phrase);
	free(name);
}

/*
 * From, To, Cc: the mailboxes, one per line when several; those whose
 * address (compared without regard to case) an earlier one has are left
 * out: the author of a commit who is also a configured recipient gets the
 * mail once.
 */
static void add_address_header(struct strbuf *out, const char *header,
			       const struct mail_addresses *list)
{
	size_t col = strlen(header) + 2, written = 0;

	strbuf_addf(out, "%s: ", header);
	for (size_t i = 0; list && i < list->n; i++) {
		bool again = false;

		for (size_t j = 0; j < i && !again; j++)
			again = !strcasecmp(list->v[j].addr, list->v[i].addr);
		if (again)
			continue;
		if (written++) {
			strbuf_addstr(out, ",\n ");
			col = 1;
		}
		add_mailbox(out, &list->v[i], col);
	}
	strbuf_addch(out, '\n');
}

/*
 * An address kdelta writes: local@domain, each part not empty, without
 * blanks, control characters, quotes or the characters that delimit
 * addresses and comments ("(),:;<>@[\]" but the one '@').  Bytes of UTF-8
 * (RFC 6531) are kept.
 */
static bool valid_addr(const char *addr)
{
	const char *at = strchr(addr, '@');

	if (!at || at == addr || !at[1] || strchr(at + 1, '@'))
		return false;
	for (const unsigned char *p = (const unsigned char *)addr; *p; p++)
		if (*p <= ' ' || *p == 0x7f || (*p != '@' && strchr("\"(),:;<>[\\]", *p)))
			return false;
	return true;
}

int mail_addresses_add(struct mail_addresses *list, const char *name,
		       const char *addr, struct kd_err *err)
{
	char *shown;

	if (!valid_addr(addr)) {
		shown = xstrdup(addr);
		make_printable(shown);
		kd_error(err, "'%s' is not an address kdelta writes (local@domain, without blanks, quotes or any of \"(),:;<>[\\]\")",
			 shown);
		free(shown);
		return -1;
	}
	ALLOC_GROW(list->v, list->n + 1, list->alloc);
	list->v[list->n++] = (struct mail_address){
		.name = name && *name ? xstrdup(name) : NULL,
		.addr = xstrdup(addr),
	};
	return 0;
}

/*
 * One element of an address list, s[0..len): "addr", "<addr>",
 * "Name <addr>" or "\"Name, quoted\" <addr>".
 */
static int parse_one(struct mail_addresses *list, const char *s, size_t len,
		     struct kd_err *err)
{
	struct strbuf name = STRBUF_INIT, addr = STRBUF_INIT;
	bool quoted = false, angle = false, closed = false, was_quoted = false;
	int ret = 0;

	for (size_t i = 0; i < len && !ret; i++) {
		char c = s[i];

		if (closed && c != ' ' && c != '\t')
			ret = -1;	/* text after '>' */
		else if (closed)
			continue;
		else if (quoted && c == '\\' && i + 1 < len)
			strbuf_addch(&name, s[++i]);
		else if (c == '"' && !angle)
			quoted = !quoted, was_quoted = true;
		else if (quoted)
			strbuf_addch(&name, c);
		else if (c == '<' && !angle)
			angle = true;
		else if (c == '>' && angle)
			closed = true;
		else if (c == '<' || c == '>')
			ret = -1;
		else
			strbuf_addch(angle ? &addr : &name, c);
	}
	if (quoted || (angle && !closed) || (!angle && was_quoted))
		ret = -1;
	if (!ret) {
		/* "a@b.c": what was read as a name is the address. */
		const char *raw = angle ? addr.buf : name.buf;
		size_t lead = strspn(raw, " \t"), n = strlen(raw + lead);
		char *bare, *clean = mail_header_value(angle ? name.buf : "");

		while (n && (raw[lead + n - 1] == ' ' || raw[lead + n - 1] == '\t'))
			n--;
		bare = xstrndup(raw + lead, n);
		ret = mail_addresses_add(list, clean, bare, err);
		free(bare);
		free(clean);
	} else {
		char *shown = xstrndup(s, len);

		make_printable(shown);
		kd_error(err, "'%s' is not an address (a@b.c, or Name <a@b.c>; a name with a comma in quotes)",
			 shown);
		free(shown);
	}
	strbuf_release(&name);
	strbuf_release(&addr);
	return ret < 0 ? -1 : 0;
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

int mail_addresses_parse(struct mail_addresses *list, const char *text,
			 struct kd_err *err)
{
	for (const char *a = text; *a;) {
		const char *end = next_comma(a);
		size_t blank = strspn(a, " \t");

		if (a + blank < end && parse_one(list, a, end - a, err) < 0)
			return -1;
		a = *end ? end + 1 : end;
	}
	return 0;
}

void mail_addresses_release(struct mail_addresses *list)
{
	for (size_t i = 0; i < list->n; i++) {
		free(list->v[i].name);
		free(list->v[i].addr);
	}
	free(list->v);
	*list = (struct mail_addresses)MAIL_ADDRESSES_INIT;
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
static void add_header(struct strbuf *out, const char *name, const char *raw)
{
	char *value = mail_header_value(raw);

	strbuf_addf(out, "%s: ", name);
	add_unstructured(out, value, strlen(name) + 2);
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

	add_address_header(out, "From", m->from);
	if (m->to && m->to->n)
		add_address_header(out, "To", m->to);
	if (m->cc && m->cc->n)
		add_address_header(out, "Cc", m->cc);
	add_header(out, "Subject", m->subject);
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
