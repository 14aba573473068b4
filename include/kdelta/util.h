/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_UTIL_H
#define KDELTA_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kdelta/alloc.h"
#include "kdelta/err.h"
#include "kdelta/strbuf.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))



/* No file kdelta reads may be larger, decompressed; see kdelta(1) LIMITS. */
#define READ_FILE_MAX ((size_t)1 << 30)

/*
 * Appends a whole file to out: plain, or gzip-compressed (recognised by its
 * magic bytes; one member or several).  Refused with a one-line message:
 * what is not a regular file (a FIFO or a device is opened without
 * blocking, then refused), more than max bytes (decompressed), corrupt or
 * truncated gzip data, garbage after it, and a file named "*.gz" that is
 * empty or not gzip.
 */
int read_file_max(const char *path, size_t max, struct strbuf *out,
		  struct kd_err *err);
/* read_file_max() with READ_FILE_MAX. */
int read_file(const char *path, struct strbuf *out, struct kd_err *err);
/*
 * Writes a file atomically: temporary file in the same directory, fsync,
 * rename, fsync of the directory.  Readers see the old or the new file.
 * Errors name path, not the temporary file (which is removed).
 */
int write_file_atomic(const char *path, const void *data, size_t len,
		      struct kd_err *err);
/* The same, gzip-compressed. */
int write_file_atomic_gz(const char *path, const void *data, size_t len,
			 struct kd_err *err);
/*
 * Removes from dir the temporary files "<name>.tmp.<pid>" that
 * write_file_atomic() left behind when its process was killed (kill -9): a
 * regular file whose process is not running here and that was last written
 * STALE_TMP_AGE seconds ago or earlier (a store shared between machines may
 * be written by another one at this moment).  Returns how many it removed.
 */
#define STALE_TMP_AGE 60
size_t remove_stale_tmp_files(const char *dir);
/*
 * Removes path and everything below it, without following symbolic links
 * (nftw()); no such path is no error.
 */
int remove_tree(const char *path, struct kd_err *err);
/* mkdir -p; mode 0755. */
int mkdir_p(const char *path, struct kd_err *err);
/* mkdir -p of the directory path lies in (nothing for a bare name). */
int mkdir_parent(const char *path, struct kd_err *err);
/* The directory of path: "." for a bare name, "/" for "/name".  Caller frees. */
char *path_dirname(const char *path);
bool path_exists(const char *path);
bool is_directory(const char *path);
/*
 * The program name as the shell would run it: name itself when it holds a
 * '/', else the first executable one in $PATH (default
 * /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin), empty
 * entries ("." for the shell) skipped: not for a tool run as root.  NULL
 * when there is none.  Caller frees.
 */
char *find_program(const char *name);

/*
 * A name that is safe as one path component: [A-Za-z0-9._+=,@%-] kept, every
 * other byte becomes '_', no leading '.', never empty, at most max bytes
 * (longer names keep a prefix and gain a hash of the whole, so that distinct
 * names stay distinct).
 */
char *safe_name(const char *name, size_t max);

/*
 * The length of the UTF-8 sequence at p (at most left bytes): 1 to 4, or 0
 * when it is not one (overlong forms, surrogates and > U+10FFFF included).
 */
size_t utf8_sequence_length(const unsigned char *p, size_t left);
/*
 * A copy of s that is valid UTF-8: each byte that starts no sequence
 * becomes U+FFFD.  For text that must be UTF-8 where it goes (JSON), taken
 * from where it need not be (a directory name, a commit subject).
 */
char *utf8_repair(const char *s);

/* 64-bit FNV-1a hash, for short stable digests in names. */
uint64_t hash64(const void *data, size_t len);

/*
 * The next number of Steele, Lea and Flood's splitmix64 generator from
 * *state: a different sequence for each seed, the same for the same seed.
 * For reproducible choices (the order of runs), never for secrets.
 */
uint64_t splitmix64(uint64_t *state);

/*
 * 64 random bits (getrandom(), else the clock and the pid mixed): for
 * identifiers that must differ between batches, never for secrets.
 */
uint64_t random_u64(void);

/* Seconds since the epoch, and a monotonic clock, as doubles. */
double now_epoch(void);
double now_monotonic(void);

/*
 * path made absolute against the current directory, as given otherwise
 * (no symbolic link resolved, no "." or ".." folded but a lone ".");
 * a path the current directory cannot be found for stays as it is.
 */
char *absolute_path(const char *path);

/* Levenshtein distance. */
size_t edit_distance(const char *a, const char *b);

/*
 * "Did you mean": of the candidates offered one at a time, the nearest to
 * word that is near enough to be its misspelling -- at most two edits
 * away (three for a word of NEAREST_LONG_WORD characters or more, such as
 * a metric's name), and at most one edit in two characters of word ("pts",
 * lkp-tests' benchmark, is no misspelt "fs") -- or NULL.
 * The first of equally near candidates wins.
 *
 *	struct nearest n = NEAREST_INIT(key);
 *	for (i = 0; known[i]; i++)
 *		nearest_offer(&n, known[i]);
 *	if (n.best) ... did you mean n.best?
 */
#define NEAREST_LONG_WORD 16
struct nearest {
	const char *word;
	const char *best;	/* NULL: none near enough */
	size_t distance;
};
#define NEAREST_INIT(word) { (word), NULL, 0 }
void nearest_offer(struct nearest *n, const char *candidate);

#endif
