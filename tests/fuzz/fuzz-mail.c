// SPDX-License-Identifier: GPL-2.0
/*
 * The mail writer (mail_format()), on what a caller of kdelta report
 * controls: From, To, Cc, the subject (commit subjects, labels), the
 * Message-ID to reply to, the host name, the body and the attachments.
 * The input holds them in that order, separated by NUL bytes; after the
 * body come pairs of attachment file name and text.
 *
 * From, To and Cc are parsed as address lists (mail_addresses_parse()); a
 * list that does not parse is none.
 *
 * Properties (fuzz_check_mail()): only kdelta's headers, each once, no CR
 * or NUL, no whitespace-only line; one MIME part for the body and one per
 * attachment.  mail_header_value() gives the words of its argument (cut
 * at blanks and control characters) joined by one blank each.  Each
 * address header, unfolded and parsed again, gives back the addresses
 * written, each once (the first of those equal without regard to case),
 * in order, nothing more, and the names that were written as they are or
 * quoted (not those RFC 2047 encodes).
 *
 * Seeds: testdata/fuzz/mail/corpus/; dictionary: testdata/fuzz/mail.dict.
 */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "kdelta/mail.h"
#include "kdelta/util.h"

enum { FROM, TO, CC, SUBJECT, IN_REPLY_TO, HOST, BODY, ATTACHMENTS };

#define MAX_ATTACHMENTS ((FUZZ_MAX_PARTS - ATTACHMENTS) / 2)

static const char *const mail_headers[] = {
	"From", "To", "Cc", "Subject", "Date", "Message-ID", "In-Reply-To",
	"References", "MIME-Version", "Content-Type", NULL,
};

static bool is_word_char(char c)
{
	return (unsigned char)c > 0x20 && c != 0x7f;
}

/* s's words, cut at blanks and control characters, one blank between. */
static char *words(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (;;) {
		while (*s && !is_word_char(*s))
			s++;
		if (!*s)
			break;
		if (sb.len)
			strbuf_addch(&sb, ' ');
		for (; is_word_char(*s); s++)
			strbuf_addch(&sb, *s);
	}
	return strbuf_detach(&sb);
}

static void check_header_value(const char *s)
{
	char *v = mail_header_value(s), *want = words(s);

	FUZZ_CHECK(!strcmp(v, want), "mail_header_value() gave '%s', want '%s'",
		   v, want);
	free(want);
	free(v);
}

/* A list parsed from a field; none when it does not parse. */
static void parse_list(const char *text, struct mail_addresses *list)
{
	struct kd_err err = { .msg = "" };

	if (mail_addresses_parse(list, text, &err) < 0) {
		FUZZ_CHECK(err.msg[0], "refused without a message");
		mail_addresses_release(list);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mail_addresses from = MAIL_ADDRESSES_INIT,
			      to = MAIL_ADDRESSES_INIT,
			      cc = MAIL_ADDRESSES_INIT;
	struct mail_attachment att[MAX_ATTACHMENTS];
	char *field[FUZZ_MAX_PARTS] = { NULL };
	struct strbuf out = STRBUF_INIT;
	struct fuzz_parts parts;
	struct mail m;
	size_t got;

	fuzz_split(data, size, '\0', FUZZ_MAX_PARTS, &parts);
	for (size_t i = 0; i < FUZZ_MAX_PARTS; i++)
		field[i] = i < parts.n ? fuzz_strndup(parts.data[i], parts.len[i])
				       : xstrdup("");
	parse_list(field[FROM], &from);
	parse_list(field[TO], &to);
	parse_list(field[CC], &cc);
	m = (struct mail){
		.from = &from,
		.to = &to,
		.cc = &cc,
		.subject = field[SUBJECT],
		.in_reply_to = field[IN_REPLY_TO],
		.message_id_host = field[HOST],
		.body = field[BODY],
		.attachments = att,
		.date = 1796001600,
		.unique = 0x5eed,
	};
	for (size_t i = ATTACHMENTS; i + 1 < parts.n; i += 2)
		att[m.nattachments++] = (struct mail_attachment){
			field[i], parts.data[i + 1], parts.len[i + 1],
		};
	mail_format(&m, &out);
	got = fuzz_check_mail(out.buf, out.len, mail_headers);
	FUZZ_CHECK(got == m.nattachments + 1, "%zu MIME parts, want %zu",
		   got, m.nattachments + 1);
	fuzz_check_address_header(out.buf, "From", &from);
	fuzz_check_address_header(out.buf, "To", &to);
	fuzz_check_address_header(out.buf, "Cc", &cc);
	for (size_t i = 0; i < BODY; i++)
		check_header_value(field[i]);
	mail_addresses_release(&from);
	mail_addresses_release(&to);
	mail_addresses_release(&cc);
	strbuf_release(&out);
	for (size_t i = 0; i < FUZZ_MAX_PARTS; i++)
		free(field[i]);
	return 0;
}
