// SPDX-License-Identifier: GPL-2.0
/* Helpers of the fuzz targets; see fuzz.h. */
#include <errno.h>
#include <ftw.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "kdelta/mail.h"
#include "kdelta/util.h"

void fuzz_split(const void *data, size_t size, char sep, size_t max,
		struct fuzz_parts *out)
{
	const char *p = data, *end = p + size;

	if (max > FUZZ_MAX_PARTS)
		max = FUZZ_MAX_PARTS;
	out->n = 0;
	for (;;) {
		const char *next = out->n + 1 < max ? memchr(p, sep, (size_t)(end - p)) : NULL;

		out->data[out->n] = p;
		out->len[out->n] = (size_t)((next ? next : end) - p);
		out->n++;
		if (!next)
			return;
		p = next + 1;
	}
}

char *fuzz_memdup(const void *data, size_t len)
{
	char *copy = xmalloc(len);

	if (len)
		memcpy(copy, data, len);
	return copy;
}

char *fuzz_strndup(const void *data, size_t len)
{
	return xstrndup(len ? data : "", len);
}

static char *tmpdir;

static int remove_entry(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	remove(path);
	return 0;
}

static void remove_tmpdir(void)
{
	nftw(tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(tmpdir);
	tmpdir = NULL;
}

const char *fuzz_tmpdir(void)
{
	const char *base = getenv("TMPDIR");

	if (tmpdir)
		return tmpdir;
	tmpdir = xasprintf("%s/kdelta-fuzz.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(tmpdir)) {
		fprintf(stderr, "fuzz: %s: %s\n", tmpdir, strerror(errno));
		abort();
	}
	atexit(remove_tmpdir);
	return tmpdir;
}

char *fuzz_write(const char *rel, const void *data, size_t len)
{
	char *path = xasprintf("%s/%s", fuzz_tmpdir(), rel);
	char *slash = strrchr(path, '/');
	struct kd_err err;
	FILE *f;

	*slash = '\0';
	if (mkdir_p(path, &err) < 0) {
		fprintf(stderr, "fuzz: %s\n", err.msg);
		abort();
	}
	*slash = '/';
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
		abort();
	}
	return path;
}

void fuzz_remove(const char *rel)
{
	char *path = xasprintf("%s/%s", fuzz_tmpdir(), rel);

	nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(path);
}

/* ---- mail ---------------------------------------------------------- */

struct line {
	const char *text;
	size_t len;
};

static bool next_line(const char **pos, const char *end, struct line *line)
{
	const char *nl;

	if (*pos >= end)
		return false;
	nl = memchr(*pos, '\n', (size_t)(end - *pos));
	line->text = *pos;
	line->len = (size_t)((nl ? nl : end) - *pos);
	*pos = nl ? nl + 1 : end;
	return true;
}

static bool is_blank(const struct line *line)
{
	for (size_t i = 0; i < line->len; i++)
		if (line->text[i] != ' ' && line->text[i] != '\t')
			return false;
	return true;
}

/*
 * Checks a header block from *pos up to its empty line (which *pos ends
 * after): every header in allowed, once.  Returns the value of the
 * header named want (its first line), or NULL.
 */
static struct line check_headers(const char **pos, const char *end,
				 const char *const *allowed, const char *want)
{
	bool seen[32] = { false };
	struct line line, found = { NULL, 0 };
	bool first = true;

	while (next_line(pos, end, &line) && line.len) {
		const char *colon = memchr(line.text, ':', line.len);
		size_t i;

		FUZZ_CHECK(!is_blank(&line), "whitespace-only header line: '%.*s'",
			   (int)line.len, line.text);
		if (line.text[0] == ' ' || line.text[0] == '\t') {
			FUZZ_CHECK(!first, "the headers start with a continuation line");
			continue;
		}
		first = false;
		FUZZ_CHECK(colon, "header line without a colon: '%.*s'",
			   (int)line.len, line.text);
		for (i = 0; allowed[i]; i++)
			if (strlen(allowed[i]) == (size_t)(colon - line.text) &&
			    !memcmp(allowed[i], line.text, (size_t)(colon - line.text)))
				break;
		FUZZ_CHECK(allowed[i], "header not kdelta's: '%.*s'",
			   (int)line.len, line.text);
		FUZZ_CHECK(i < 32 && !seen[i], "header twice: '%s'", allowed[i]);
		seen[i] = true;
		if (want && !strcmp(allowed[i], want))
			found = line;
	}
	return found;
}

static const char *const part_headers[] = {
	"Content-Type", "Content-Transfer-Encoding", "Content-Disposition",
	NULL,
};

size_t fuzz_check_mail(const char *mail, size_t len,
		       const char *const *allowed)
{
	const char *pos = mail, *end = mail + len, *b;
	struct line ct, line;
	char *boundary;
	size_t blen;
	bool closed = false;
	size_t parts = 0;

	FUZZ_CHECK(!memchr(mail, '\r', len), "a CR in the mail");
	FUZZ_CHECK(!memchr(mail, '\0', len), "a NUL in the mail");
	ct = check_headers(&pos, end, allowed, "Content-Type");
	FUZZ_CHECK(ct.text, "no Content-Type header");
	b = memmem(ct.text, ct.len, "boundary=\"", 10);
	FUZZ_CHECK(b, "no boundary in '%.*s'", (int)ct.len, ct.text);
	b += 10;
	boundary = xasprintf("--%.*s", (int)(ct.text + ct.len - b - 1), b);
	blen = strlen(boundary);
	/* Each part's headers; the boundary nowhere else. */
	while (next_line(&pos, end, &line)) {
		if (line.len < blen || memcmp(line.text, boundary, blen))
			continue;
		FUZZ_CHECK(!closed, "a part after the closing boundary");
		if (line.len == blen + 2 && !memcmp(line.text + blen, "--", 2)) {
			closed = true;
			continue;
		}
		FUZZ_CHECK(line.len == blen, "boundary inside a part: '%.*s'",
			   (int)line.len, line.text);
		check_headers(&pos, end, part_headers, NULL);
		parts++;
	}
	FUZZ_CHECK(closed, "no closing boundary %s--", boundary);
	free(boundary);
	return parts;
}

/* The value of header name in the header block, unfolded; NULL if none. */
static char *header_value(const char *mail, const char *name)
{
	size_t len = strlen(name);
	struct strbuf sb = STRBUF_INIT;

	for (const char *line = mail; *line && *line != '\n';
	     line = strchr(line, '\n') + 1) {
		if (strncmp(line, name, len) || strncmp(line + len, ": ", 2))
			continue;
		line += len + 2;
		for (;;) {
			size_t n = strcspn(line, "\n");

			strbuf_add(&sb, line, n);
			line += n + 1;
			if (line[-1] != '\n' || *line != ' ')
				break;
		}
		return strbuf_detach(&sb);
	}
	return NULL;
}

/* Whether s is RFC 2047 encoded-words, blank-separated. */
static bool encoded_words(const char *s)
{
	for (const char *w = s; *w; w += strspn(w, " ")) {
		size_t n = strcspn(w, " ");

		if (n < 12 || strncmp(w, "=?UTF-8?Q?", 10) ||
		    strncmp(w + n - 2, "?=", 2))
			return false;
		w += n;
	}
	return true;
}

/* The header of list, parsed back, holds exactly what was written. */
void fuzz_check_address_header(const char *mail, const char *name,
			       const struct mail_addresses *list)
{
	char *value = header_value(mail, name);
	struct mail_addresses back = MAIL_ADDRESSES_INIT;
	struct kd_err err;
	size_t k = 0;

	if (!list->n && strcmp(name, "From")) {
		FUZZ_CHECK(!value, "%s: written without an address", name);
		return;
	}
	FUZZ_CHECK(value, "no %s header", name);
	FUZZ_CHECK(mail_addresses_parse(&back, value, &err) == 0,
		   "%s: '%s' does not parse again: %s", name, value, err.msg);
	for (size_t i = 0; i < list->n; i++) {
		const struct mail_address *a = &list->v[i];
		char *clean = a->name ? mail_header_value(a->name) : NULL;
		bool again = false;

		for (size_t j = 0; j < i && !again; j++)
			again = !strcasecmp(list->v[j].addr, a->addr);
		if (again) {
			free(clean);
			continue;
		}
		FUZZ_CHECK(k < back.n, "%s: '%s' lost in '%s'", name, a->addr,
			   value);
		FUZZ_CHECK(!strcmp(back.v[k].addr, a->addr),
			   "%s: '%s' came back as '%s'", name, a->addr,
			   back.v[k].addr);
		if (!clean || !*clean)
			FUZZ_CHECK(!back.v[k].name, "%s: a name out of nothing",
				   name);
		else
			FUZZ_CHECK(back.v[k].name &&
				   (!strcmp(back.v[k].name, clean) ||
				    encoded_words(back.v[k].name)),
				   "%s: name '%s' came back as '%s'", name,
				   clean, back.v[k].name ? back.v[k].name : "");
		free(clean);
		k++;
	}
	FUZZ_CHECK(k == back.n, "%s: %zu addresses written, %zu in '%s'",
		   name, k, back.n, value);
	mail_addresses_release(&back);
	free(value);
}
