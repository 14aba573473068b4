// SPDX-License-Identifier: GPL-2.0
/*
 * The channel between host and guest (kdelta/vm.h): checksummed records,
 * and a run directory packed into one.  Both sides are kdelta of the same
 * build (the guest runs the host's binary), so the format needs no
 * versions; it needs to catch bytes lost or damaged on the way, and a
 * record cut short by a guest that died while sending it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "kdelta/util.h"
#include "kdelta/vm.h"

#define RECORD_MAGIC "KDVM "
/* "KDVM " type " " length " " crc "\n": a header is shorter than this. */
#define HEADER_MAX 64
#define RUN_FILE_MAX (256u << 20)

static uint32_t record_crc(const char *type, const void *data, size_t len)
{
	uLong crc = crc32(0L, Z_NULL, 0);

	crc = crc32(crc, (const Bytef *)type, (uInt)strlen(type));
	while (len) {
		uInt n = len > (1u << 30) ? 1u << 30 : (uInt)len;

		crc = crc32(crc, data, n);
		data = (const char *)data + n;
		len -= n;
	}
	return (uint32_t)crc;
}

void vm_record_encode(struct strbuf *out, const char *type, const void *data,
		      size_t len)
{
	strbuf_addf(out, RECORD_MAGIC "%s %zu %08x\n", type, len,
		    record_crc(type, data, len));
	strbuf_add(out, data, len);
	strbuf_addch(out, '\n');
}

void vm_record_encode_json(struct strbuf *out, const char *type,
			   const json_t *object)
{
	char *text = json_dumps(object, JSON_COMPACT | JSON_PRESERVE_ORDER);

	vm_record_encode(out, type, text, strlen(text));
	free(text);
}

static bool valid_type(const char *type)
{
	if (!*type)
		return false;
	for (const char *s = type; *s; s++)
		if (!(*s >= 'a' && *s <= 'z'))
			return false;
	return true;
}

int vm_record_decode(const char *buf, size_t len, size_t *pos,
		     struct vm_record *r, struct kd_err *err)
{
	const char *head = buf + *pos, *nl;
	size_t left = len - *pos, size;
	char line[HEADER_MAX + 1];
	unsigned crc;
	int used = 0;

	if (left < strlen(RECORD_MAGIC))
		return memcmp(head, RECORD_MAGIC, left) ?
		       kd_error(err, "not a record: '%.*s'", (int)left, head) : 0;
	if (memcmp(head, RECORD_MAGIC, strlen(RECORD_MAGIC)))
		return kd_error(err, "not a record: '%.*s'",
				(int)(left < 40 ? left : 40), head);
	nl = memchr(head, '\n', left < HEADER_MAX ? left : HEADER_MAX);
	if (!nl)
		return left < HEADER_MAX ? 0 :
		       kd_error(err, "a record's header is too long");
	memcpy(line, head, (size_t)(nl - head));
	line[nl - head] = '\0';
	if (sscanf(line, RECORD_MAGIC "%15s %zu %8x%n", r->type, &size, &crc,
		   &used) != 3 || line[used] || !valid_type(r->type))
		return kd_error(err, "a damaged record header: '%s'", line);
	if (size > VM_RECORD_MAX)
		return kd_error(err, "a record of %zu bytes, more than kdelta sends", size);
	if ((size_t)(nl + 1 - head) + size + 1 > left)
		return 0;
	r->data = nl + 1;
	r->len = size;
	if (r->data[size] != '\n' || record_crc(r->type, r->data, size) != crc)
		return kd_error(err, "the %s record's checksum does not match: damaged on the way",
				r->type);
	*pos += (size_t)(nl + 1 - head) + size + 1;
	return 1;
}

int vm_record_json(const struct vm_record *r, json_t **out, struct kd_err *err)
{
	json_error_t jerr;

	*out = json_loadb(r->data, r->len, 0, &jerr);
	if (!*out || !json_is_object(*out)) {
		json_decref(*out);
		*out = NULL;
		return kd_error(err, "the %s record is not a JSON object%s%s",
				r->type, jerr.text[0] ? ": " : "", jerr.text);
	}
	return 0;
}

/* A name a run directory may hold: one component, no leading dot. */
static bool plain_name(const char *name, size_t len)
{
	if (!len || len > 255 || name[0] == '.')
		return false;
	for (size_t i = 0; i < len; i++)
		if (name[i] == '/' || is_control_char((unsigned char)name[i]))
			return false;
	return true;
}

/* A file's bytes as they are (read_file() would inflate a .gz). */
static int read_raw(const char *path, struct strbuf *out, struct kd_err *err)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	char buf[1 << 16];
	ssize_t n;

	if (fd < 0)
		return kd_error(err, "%s: %s", path, strerror(errno));
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || out->len + (size_t)n > RUN_FILE_MAX) {
			int e = n < 0 ? errno : EFBIG;

			close(fd);
			return kd_error(err, "%s: %s", path, strerror(e));
		}
		strbuf_add(out, buf, (size_t)n);
	}
	close(fd);
	return 0;
}

int vm_run_pack(const char *run_dir, const json_t *meta, struct strbuf *out,
		struct kd_err *err)
{
	char *text = json_dumps(meta, JSON_COMPACT | JSON_PRESERVE_ORDER);
	DIR *d = opendir(run_dir);
	struct dirent *de;
	int ret = 0;

	strbuf_addf(out, "%s\n", text);
	free(text);
	if (!d)
		return kd_error(err, "%s: %s", run_dir, strerror(errno));
	while (!ret && (de = readdir(d))) {
		struct strbuf data = STRBUF_INIT;
		char *path;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		path = xasprintf("%s/%s", run_dir, de->d_name);
		if (lstat(path, &st) < 0)
			ret = kd_error(err, "%s: %s", path, strerror(errno));
		else if (!S_ISREG(st.st_mode) ||
			 !plain_name(de->d_name, strlen(de->d_name)))
			ret = kd_error(err, "%s: not a plain file; a run directory holds only files",
				       path);
		else if (read_raw(path, &data, err) == 0) {
			strbuf_addf(out, "F %zu %s\n", data.len, de->d_name);
			strbuf_add(out, data.buf, data.len);
		} else {
			ret = -1;
		}
		strbuf_release(&data);
		free(path);
	}
	closedir(d);
	return ret;
}

static int write_at(int dir_fd, const char *name, const char *data,
		    size_t len, struct kd_err *err)
{
	int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL |
			O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd < 0)
		return kd_error(err, "%s: %s", name, strerror(errno));
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fd);
			return kd_error(err, "%s: %s", name, strerror(e));
		}
		data += n;
		len -= (size_t)n;
	}
	if (fsync(fd) < 0 || close(fd) < 0)
		return kd_error(err, "%s: %s", name, strerror(errno));
	return 0;
}

int vm_run_unpack(const char *data, size_t len, int dir_fd, json_t **meta,
		  struct kd_err *err)
{
	const char *end = data + len, *nl = memchr(data, '\n', len);
	json_error_t jerr;

	*meta = NULL;
	if (!nl) {
		kd_error(err, "a run record without its description");
		return -2;
	}
	*meta = json_loadb(data, (size_t)(nl - data), 0, &jerr);
	if (!*meta || !json_is_object(*meta)) {
		kd_error(err, "a run record's description is not a JSON object");
		return -2;
	}
	for (const char *p = nl + 1; p < end;) {
		char name[256];
		size_t size, name_len;
		const char *line_end = memchr(p, '\n', (size_t)(end - p));
		char *size_end;

		if (!line_end || end - p < 4 || p[0] != 'F' || p[1] != ' ')
			return kd_error(err, "a damaged run record") - 1;
		size = strtoul(p + 2, &size_end, 10);
		if (size_end == p + 2 || *size_end != ' ' || size > RUN_FILE_MAX)
			return kd_error(err, "a damaged run record") - 1;
		name_len = (size_t)(line_end - size_end - 1);
		if (!plain_name(size_end + 1, name_len) || name_len >= sizeof(name))
			return kd_error(err, "a run record names '%.*s', not a plain file name",
					(int)(name_len < 80 ? name_len : 80),
					size_end + 1) - 1;
		memcpy(name, size_end + 1, name_len);
		name[name_len] = '\0';
		p = line_end + 1;
		if ((size_t)(end - p) < size)
			return kd_error(err, "a run record cut short in %s", name) - 1;
		if (write_at(dir_fd, name, p, size, err) < 0)
			return -1;
		p += size;
	}
	return 0;
}
