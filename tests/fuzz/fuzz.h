/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_TESTS_FUZZ_H
#define KDELTA_TESTS_FUZZ_H

/*
 * What the fuzz targets of tests/fuzz/ share (tests/fuzz/fuzz.c).  Each
 * target is one fuzz-<name>.c defining LLVMFuzzerTestOneInput(); it is
 * linked with libFuzzer (fuzz-<name>, clang with -Dfuzz=enabled) and, in
 * every build, with replay.c (replay-<name>), which the test suite runs on
 * testdata/fuzz/<name>/.
 *
 * A target copies each piece of its input into a buffer of exactly that
 * size, so that AddressSanitizer sees any read past what a parser was
 * given, and calls abort() through FUZZ_CHECK when a property fails, so
 * that libFuzzer and the replay driver both report it as a crash.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/*
 * Optional: called by the replay driver after the last input when it was
 * given a directory (a corpus, not a single reproducer); a target checks
 * there what its whole corpus must cover.  Returns 0, or -1 after saying
 * what is missing.
 */
int fuzz_replay_done(void) __attribute__((weak));

#define FUZZ_CHECK(cond, ...)                                                  \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: property failed: %s: ",        \
				__FILE__, __LINE__, #cond);                    \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			abort();                                               \
		}                                                              \
	} while (0)

/* Pieces of an input, cut at a separator byte. */
#define FUZZ_MAX_PARTS 64

struct fuzz_parts {
	const char *data[FUZZ_MAX_PARTS];
	size_t len[FUZZ_MAX_PARTS];
	size_t n;
};

/*
 * Cuts [data, data + size) at each sep, into at most max pieces (the last
 * one keeps the rest, separators included).  An empty input is one empty
 * piece.
 */
void fuzz_split(const void *data, size_t size, char sep, size_t max,
		struct fuzz_parts *out);

/* A copy of len bytes in a buffer of exactly len bytes (not terminated). */
char *fuzz_memdup(const void *data, size_t len);
/* A NUL-terminated copy, cut at the first NUL. */
char *fuzz_strndup(const void *data, size_t len);

/*
 * A private directory for the files a target writes, made on first use in
 * $TMPDIR (or /tmp) and removed at exit.
 */
const char *fuzz_tmpdir(void);
/* Writes a file below fuzz_tmpdir(), making its directories; aborts on error. */
char *fuzz_write(const char *rel, const void *data, size_t len);
/* Removes a file or a tree below fuzz_tmpdir(), if present. */
void fuzz_remove(const char *rel);

/*
 * The properties of every mail kdelta writes: in the header block (up to
 * the first empty line) only the header names in allowed (NULL-terminated),
 * each at most once, and continuation lines; no line that is blank but not
 * empty; nowhere a CR or a NUL; MIME parts (their headers checked alike
 * against Content-Type, Content-Transfer-Encoding, Content-Disposition)
 * between boundary lines that occur nowhere else, then the closing one.
 * Aborts when one does not hold; returns the number of parts.
 */
size_t fuzz_check_mail(const char *mail, size_t len,
		     const char *const *allowed);

/*
 * The address header name (From, To, Cc) of mail written from list:
 * unfolded and parsed again (mail_addresses_parse()), it gives back the
 * addresses of list, each once (the first of those equal without regard
 * to case), in order, nothing more, and their names as they were written
 * plain or quoted (those RFC 2047 encodes are only checked to be encoded
 * words).  Without an address, To and Cc must be absent.  Aborts when
 * that does not hold.
 */
struct mail_addresses;
void fuzz_check_address_header(const char *mail, const char *name,
			       const struct mail_addresses *list);

#endif
