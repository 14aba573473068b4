// SPDX-License-Identifier: GPL-2.0
/*
 * The robot's mail header path: the first bad commit's author, as git
 * gives the name and the address (%an, %ae: anything a commit holds but a
 * newline), and the configured to, cc and from (parsed as the robot's
 * configuration parses them; one that does not parse is none), through
 * robot_mail_to() and mail_format().  The input holds author name, author
 * address, to, cc, from and subject, in that order, separated by NUL
 * bytes.
 *
 * Properties: those of every mail (fuzz_check_mail()); To holds exactly
 * the author's address (when it is one kdelta writes; else robot_mail_to()
 * said why it left it out) and then the configured ones, each once,
 * whatever the author's name holds: no name adds a recipient or changes
 * an address (fuzz_check_address_header()); so do Cc and From.
 *
 * Seeds: testdata/fuzz/robot-mail/corpus/; dictionary:
 * testdata/fuzz/robot-mail.dict.
 */
#include <string.h>

#include "fuzz.h"
#include "kdelta/mail.h"
#include "kdelta/robot.h"
#include "kdelta/util.h"

enum { AUTHOR_NAME, AUTHOR_ADDR, TO, CC, FROM, SUBJECT, FIELDS };

static const char *const mail_headers[] = {
	"From", "To", "Cc", "Subject", "Date", "Message-ID", "MIME-Version",
	"Content-Type", NULL,
};

/* As robot-config.c's addresses_of(): a list, or none when it fails. */
static void parse_list(const char *text, struct mail_addresses *list)
{
	struct kd_err err = { .msg = "" };

	if (mail_addresses_parse(list, text, &err) < 0) {
		FUZZ_CHECK(err.msg[0], "refused without a message");
		mail_addresses_release(list);
	}
}

/* What robot_mail_to() must give: the author (if fit), then m's to. */
static void expected_to(const struct robot_mail *m, const char *name,
			const char *addr, struct mail_addresses *want,
			const struct strbuf *note)
{
	struct kd_err err;
	bool fit = mail_addresses_add(want, name, addr, &err) == 0;

	FUZZ_CHECK(fit == !note->len, "author '%s': added %d, note '%s'",
		   addr, !note->len, note->buf);
	for (size_t i = 0; i < m->to.n; i++)
		FUZZ_CHECK(!mail_addresses_add(want, m->to.v[i].name,
					       m->to.v[i].addr, &err),
			   "a configured address refused: %s", err.msg);
}

static void check_same_list(const struct mail_addresses *got,
			    const struct mail_addresses *want)
{
	FUZZ_CHECK(got->n == want->n, "To has %zu mailboxes, want %zu",
		   got->n, want->n);
	for (size_t i = 0; i < got->n; i++) {
		const char *gn = got->v[i].name, *wn = want->v[i].name;

		FUZZ_CHECK(!strcmp(got->v[i].addr, want->v[i].addr),
			   "To %zu: '%s', want '%s'", i, got->v[i].addr,
			   want->v[i].addr);
		FUZZ_CHECK((!gn && !wn) || (gn && wn && !strcmp(gn, wn)),
			   "To %zu: name '%s', want '%s'", i, gn ? gn : "",
			   wn ? wn : "");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct robot_mail m = { .enabled = true, .author = true };
	struct mail_addresses to = MAIL_ADDRESSES_INIT,
			      want = MAIL_ADDRESSES_INIT;
	struct strbuf out = STRBUF_INIT, note = STRBUF_INIT;
	char *field[FIELDS];
	struct fuzz_parts parts;
	struct mail mail;

	fuzz_split(data, size, '\0', FIELDS, &parts);
	for (size_t i = 0; i < FIELDS; i++)
		field[i] = i < parts.n ? fuzz_strndup(parts.data[i], parts.len[i])
				       : xstrdup("");
	/* git's %an and %ae end at a newline; git_line() keeps the first line. */
	field[AUTHOR_NAME][strcspn(field[AUTHOR_NAME], "\n")] = '\0';
	field[AUTHOR_ADDR][strcspn(field[AUTHOR_ADDR], "\n")] = '\0';
	parse_list(field[TO], &m.to);
	parse_list(field[CC], &m.cc);
	parse_list(field[FROM], &m.from);

	robot_mail_to(&m, field[AUTHOR_NAME], field[AUTHOR_ADDR], &to, &note);
	expected_to(&m, field[AUTHOR_NAME], field[AUTHOR_ADDR], &want, &note);
	check_same_list(&to, &want);

	mail = (struct mail){
		.from = &m.from, .to = &to, .cc = &m.cc,
		.subject = field[SUBJECT], .body = "body\n",
		.date = 1796001600, .message_id_host = "robot",
		.unique = 0x5eed,
	};
	mail_format(&mail, &out);
	fuzz_check_mail(out.buf, out.len, mail_headers);
	fuzz_check_address_header(out.buf, "From", &m.from);
	fuzz_check_address_header(out.buf, "To", &to);
	fuzz_check_address_header(out.buf, "Cc", &m.cc);

	mail_addresses_release(&to);
	mail_addresses_release(&want);
	mail_addresses_release(&m.to);
	mail_addresses_release(&m.cc);
	mail_addresses_release(&m.from);
	strbuf_release(&note);
	strbuf_release(&out);
	for (size_t i = 0; i < FIELDS; i++)
		free(field[i]);
	return 0;
}
