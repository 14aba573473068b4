// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include <libdeflate.h>

#include "kdelta/util.h"

/* "1 GiB", "16 MiB": limits are whole units. */
static void format_limit(char *buf, size_t size, size_t bytes)
{
	if (bytes && !(bytes % ((size_t)1 << 30)))
		snprintf(buf, size, "%zu GiB", bytes >> 30);
	else if (bytes && !(bytes % ((size_t)1 << 20)))
		snprintf(buf, size, "%zu MiB", bytes >> 20);
	else
		snprintf(buf, size, "%zu bytes", bytes);
}

struct file_reader {
	const char *path;
	int fd;
	size_t max;
	unsigned char in[65536];
	size_t in_len;
	bool eof;
};

/*
 * Refills r->in after the keep bytes already at its start; sets r->eof at
 * the end of the file.
 */
static int reader_fill(struct file_reader *r, size_t keep, struct kd_err *err)
{
	ssize_t n;

	do
		n = read(r->fd, r->in + keep, sizeof(r->in) - keep);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return kd_error(err, "%s: %s", r->path, strerror(errno));
	r->in_len = keep + (size_t)n;
	r->eof = n == 0;
	return 0;
}

static int too_large(const struct file_reader *r, bool gz, struct kd_err *err)
{
	char limit[32];

	format_limit(limit, sizeof(limit), r->max);
	return kd_error(err, "%s: too large: more than %s%s", r->path, limit,
			gz ? " decompressed" : "");
}

static int append_checked(struct file_reader *r, struct strbuf *out,
			  size_t start, const void *data, size_t len, bool gz,
			  struct kd_err *err)
{
	if (len > r->max - (out->len - start))
		return too_large(r, gz, err);
	strbuf_add(out, data, len);
	return 0;
}

static bool gzip_magic(const unsigned char *p, size_t len)
{
	return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

/* A gzip member's trailer ends in its inflated size, modulo 2^32. */
static size_t gzip_isize(const unsigned char *end)
{
	return (size_t)end[-4] | (size_t)end[-3] << 8 | (size_t)end[-2] << 16 |
	       (size_t)end[-1] << 24;
}

/* Deflate inflates at most 1032 times; a trailer may lie. */
#define DEFLATE_MAX_RATIO 1032

/*
 * Inflates one member at in into out's room, as much as the limit leaves
 * (plus one byte, to see it overstepped): 0, with *used the member's
 * compressed bytes; -1 when it is corrupt, truncated or too large.
 */
static int inflate_member(struct libdeflate_decompressor *d,
			  struct file_reader *r, const unsigned char *in,
			  size_t len, size_t start, size_t *used,
			  struct strbuf *out, struct kd_err *err)
{
	size_t left = r->max - (out->len - start);
	size_t guess = gzip_isize(in + len), got = 0;
	enum libdeflate_result res;

	if (guess > len * DEFLATE_MAX_RATIO)
		guess = len * DEFLATE_MAX_RATIO;
	for (;;) {
		size_t room = guess < left ? guess : left + 1;

		strbuf_grow(out, room);
		res = libdeflate_gzip_decompress_ex(d, in, len,
						    out->buf + out->len, room,
						    used, &got);
		if (res != LIBDEFLATE_INSUFFICIENT_SPACE || room > left)
			break;
		guess = room < 32768 ? 65536 : 2 * room;
	}
	if (res == LIBDEFLATE_INSUFFICIENT_SPACE ||
	    (res == LIBDEFLATE_SUCCESS && got > left))
		return too_large(r, true, err);
	if (res != LIBDEFLATE_SUCCESS)
		return kd_error(err, "%s: corrupt or truncated gzip data",
				r->path);
	strbuf_setlen(out, out->len + got);
	return 0;
}

/*
 * Inflates gzip members one after the other until the end of the file:
 * anything after a member that is not another member is garbage.  The
 * file is read whole and each member inflated in one call into the room
 * its trailer asks for (libdeflate: about twice zlib's speed, and reading
 * matrices is most of what compare does).
 */
static int read_gzip(struct file_reader *r, struct strbuf *out,
		     struct kd_err *err)
{
	struct strbuf in = STRBUF_INIT;
	struct libdeflate_decompressor *d;
	size_t start = out->len, at = 0;
	int ret = 0;

	/* Compressed, the limit allows for stored blocks' headers. */
	while (!ret && r->in_len) {
		if (r->in_len > r->max + r->max / 1024 + 4096 - in.len) {
			ret = too_large(r, true, err);
			break;
		}
		strbuf_add(&in, r->in, r->in_len);
		if (r->eof)
			break;
		ret = reader_fill(r, 0, err);
	}
	d = ret ? NULL : libdeflate_alloc_decompressor();
	if (!ret && !d)
		xdie_nomem("out of memory initialising libdeflate");
	while (!ret && at < in.len) {
		const unsigned char *p = (const unsigned char *)in.buf + at;
		size_t used = 0;

		if (at && !gzip_magic(p, in.len - at)) {
			ret = kd_error(err, "%s: trailing garbage after the gzip data",
				       r->path);
			break;
		}
		if (in.len - at < 18) {	/* header and trailer */
			ret = kd_error(err, "%s: corrupt or truncated gzip data",
				       r->path);
			break;
		}
		ret = inflate_member(d, r, p, in.len - at, start, &used, out,
				     err);
		at += used;
	}
	if (d)
		libdeflate_free_decompressor(d);
	strbuf_release(&in);
	return ret;
}

static int read_plain(struct file_reader *r, struct strbuf *out,
		      struct kd_err *err)
{
	size_t start = out->len;

	while (!r->eof) {
		if (append_checked(r, out, start, r->in, r->in_len, false, err) ||
		    reader_fill(r, 0, err))
			return -1;
	}
	return 0;
}

static bool has_gz_suffix(const char *path)
{
	size_t len = strlen(path);

	return len >= 3 && !strcmp(path + len - 3, ".gz");
}

/* After the first read: gzip by its magic, or plain. */
static int read_contents(struct file_reader *r, off_t size, struct strbuf *out,
			 struct kd_err *err)
{
	if (gzip_magic(r->in, r->in_len))
		return read_gzip(r, out, err);
	if (has_gz_suffix(r->path))
		return kd_error(err, "%s: %s", r->path, r->eof ?
				"empty file, not gzip data" : "not gzip data");
	if ((uintmax_t)size > r->max)	/* no need to read it */
		return too_large(r, false, err);
	return read_plain(r, out, err);
}

int read_file_max(const char *path, size_t max, struct strbuf *out,
		  struct kd_err *err)
{
	struct file_reader *r;
	struct stat st;
	int fd, ret;

	/* O_NONBLOCK: a FIFO must not block open() before fstat() sees it. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return kd_error(err, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		ret = kd_error(err, "%s: %s", path, strerror(errno));
		close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return kd_error(err, "%s: %s", path, S_ISDIR(st.st_mode) ?
				"is a directory" : "not a regular file");
	}
	/* Not zeroed: in[] is only read as far as reads filled it. */
	r = xmalloc(sizeof(*r));
	r->path = path;
	r->fd = fd;
	r->max = max;
	r->in_len = 0;
	r->eof = false;
	ret = reader_fill(r, 0, err);
	if (!ret && r->in_len == 1 && !r->eof)	/* a magic split by read() */
		ret = reader_fill(r, 1, err);
	if (!ret)
		ret = read_contents(r, st.st_size, out, err);
	close(fd);
	free(r);
	return ret;
}

int read_file(const char *path, struct strbuf *out, struct kd_err *err)
{
	return read_file_max(path, READ_FILE_MAX, out, err);
}

static int fsync_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, (size_t)(slash - path) + 1)
			  : xstrdup(".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	int ret = 0;

	free(dir);
	if (fd < 0)
		return -1;
	if (fsync(fd) < 0 && errno != EINVAL)
		ret = -1;
	close(fd);
	return ret;
}

static int write_atomic(const char *path, const void *data, size_t len,
			bool gzip, struct kd_err *err)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd, ret = -1;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		kd_error(err, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (gzip) {
		gzFile gz = gzdopen(dup(fd), "wb6");

		if (!gz || (len && gzwrite(gz, data, (unsigned)len) != (int)len) ||
		    gzclose(gz) != Z_OK) {
			kd_error(err, "%s: %s", path, strerror(errno ? errno : EIO));
			close(fd);
			goto fail;
		}
	} else {
		const char *p = data;
		size_t left = len;

		while (left) {
			ssize_t n = write(fd, p, left);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				kd_error(err, "%s: %s", path, strerror(errno));
				close(fd);
				goto fail;
			}
			p += n;
			left -= (size_t)n;
		}
	}
	if (fsync(fd) < 0) {
		kd_error(err, "%s: %s", path, strerror(errno));
		close(fd);
		goto fail;
	}
	if (close(fd) < 0) {
		kd_error(err, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (rename(tmp, path) < 0) {
		kd_error(err, "%s: %s", path, strerror(errno));
		goto fail;
	}
	fsync_dir_of(path);
	ret = 0;
	goto out;
fail:
	unlink(tmp);
out:
	free(tmp);
	return ret;
}

int write_file_atomic(const char *path, const void *data, size_t len,
		      struct kd_err *err)
{
	return write_atomic(path, data, len, false, err);
}

int write_file_atomic_gz(const char *path, const void *data, size_t len,
			 struct kd_err *err)
{
	return write_atomic(path, data, len, true, err);
}

/* Whether name is "<file>.tmp.<pid>" as write_atomic() names them. */
static bool tmp_file_pid(const char *name, pid_t *pid)
{
	const char *tmp = strstr(name, ".tmp."), *digits;
	char *end;
	long value;

	/* The last ".tmp.": a file may be called "a.tmp.b" itself. */
	while (tmp && strstr(tmp + 1, ".tmp."))
		tmp = strstr(tmp + 1, ".tmp.");
	if (!tmp || tmp == name)
		return false;
	digits = tmp + strlen(".tmp.");
	if (*digits < '1' || *digits > '9')
		return false;
	errno = 0;
	value = strtol(digits, &end, 10);
	if (*end || errno || value > INT_MAX)
		return false;
	*pid = (pid_t)value;
	return true;
}

size_t remove_stale_tmp_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t removed = 0;
	time_t now = time(NULL);

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		struct stat st;
		pid_t pid;

		if (!tmp_file_pid(de->d_name, &pid) ||
		    (kill(pid, 0) == 0 || errno != ESRCH) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode) ||
		    now - st.st_mtime < STALE_TMP_AGE)
			continue;
		if (unlinkat(dirfd(d), de->d_name, 0) == 0)
			removed++;
	}
	closedir(d);
	return removed;
}

int mkdir_p(const char *path, struct kd_err *err)
{
	char *p = xstrdup(path);
	int ret = 0;

	for (char *s = p + 1;; s++) {
		char c = *s;

		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			ret = kd_error(err, "cannot create directory %s: %s", p,
				       strerror(errno));
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	if (!ret && !is_directory(path))
		ret = kd_error(err, "%s: not a directory", path);
	free(p);
	return ret;
}

char *path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	return slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}

int mkdir_parent(const char *path, struct kd_err *err)
{
	char *dir;
	int ret;

	if (!strchr(path, '/'))
		return 0;
	dir = path_dirname(path);
	ret = mkdir_p(dir, err);
	free(dir);
	return ret;
}

bool path_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

bool is_directory(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *find_program(const char *name)
{
	const char *path = getenv("PATH");

	if (strchr(name, '/'))
		return access(name, X_OK) ? NULL : xstrdup(name);
	if (!path || !*path)
		path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	for (;;) {
		size_t len = strcspn(path, ":");

		if (len) {
			char *candidate = xasprintf("%.*s/%s", (int)len, path,
						    name);

			if (!access(candidate, X_OK))
				return candidate;
			free(candidate);
		}
		if (!path[len])
			return NULL;
		path += len + 1;
	}
}

size_t utf8_sequence_length(const unsigned char *p, size_t left)
{
	size_t n = *p < 0x80 ? 1 : *p >= 0xc2 && *p < 0xe0 ? 2 :
		   *p >= 0xe0 && *p < 0xf0 ? 3 : *p >= 0xf0 && *p < 0xf5 ? 4 : 0;

	if (!n || n > left)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	/* Overlong three- and four-byte forms, surrogates, > U+10FFFF. */
	if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
	    (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
		return 0;
	return n;
}

char *utf8_repair(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < len;) {
		size_t n = utf8_sequence_length(p + i, len - i);

		if (n)
			strbuf_add(&sb, p + i, n);
		else
			strbuf_addstr(&sb, "\xef\xbf\xbd");
		i += n ? n : 1;
	}
	return strbuf_detach(&sb);
}

uint64_t hash64(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t random_u64(void)
{
	uint64_t value;

	if (getrandom(&value, sizeof(value), 0) != sizeof(value)) {
		uint64_t state = (uint64_t)(now_epoch() * 1e6) ^
				 ((uint64_t)getpid() << 32);

		value = splitmix64(&state);
	}
	return value;
}

uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static bool safe_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("._+=,@%-", c);
}

char *safe_name(const char *name, size_t max)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(name);

	if (max < 24)
		max = 24;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		strbuf_addch(&sb, safe_char(c) && c ? (char)c : '_');
	}
	if (!sb.len)
		strbuf_addch(&sb, '_');
	if (sb.buf[0] == '.')
		sb.buf[0] = '_';
	if (sb.len > max) {
		char digest[20];

		snprintf(digest, sizeof(digest), "-%016llx",
			 (unsigned long long)hash64(name, len));
		strbuf_setlen(&sb, max - strlen(digest));
		strbuf_addstr(&sb, digest);
	}
	return strbuf_detach(&sb);
}

double now_epoch(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double now_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = xcalloc(lb + 1, sizeof(*row));
	size_t res;

	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	res = row[lb];
	free(row);
	return res;
}

void nearest_offer(struct nearest *n, const char *candidate)
{
	size_t len = strlen(n->word);
	size_t limit = len >= NEAREST_LONG_WORD ? 3 : 2;
	size_t d = edit_distance(n->word, candidate);

	if (d <= limit && 2 * d <= len && (!n->best || d < n->distance)) {
		n->best = candidate;
		n->distance = d;
	}
}

char *absolute_path(const char *path)
{
	char cwd[4096];

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	if (!strcmp(path, "."))
		return xstrdup(cwd);
	return xasprintf("%s/%s", cwd, path);
}

/* nftw() callback of remove_tree(): the entry, children first. */
static int remove_entry(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (type == FTW_DP ? rmdir(path) : unlink(path)) < 0 &&
	       errno != ENOENT ? -1 : 0;
}

int remove_tree(const char *path, struct kd_err *err)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0
			: kd_error(err, "%s: %s", path, strerror(errno));
	if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) < 0)
		return kd_error(err, "%s: cannot remove: %s", path,
				strerror(errno));
	return 0;
}
