// SPDX-License-Identifier: GPL-2.0
/*
 * The initramfs format: SVR4 "newc" cpio without checksums, as the kernel
 * reads it (Documentation/driver-api/early-userspace/buffer-format.rst):
 * each entry a 110-byte header of "070701" and thirteen 8-digit hex
 * fields, the NUL-terminated name, padding to 4 bytes, the data, padding
 * to 4 bytes; the archive ends with the entry "TRAILER!!!".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kdelta/util.h"
#include "kdelta/vm.h"

#define CPIO_HEADER_LEN 110

static int write_all(struct cpio *c, const void *data, size_t len,
		     struct kd_err *err)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(c->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return kd_error(err, "writing %s: %s", c->path,
					strerror(errno));
		p += n;
		len -= (size_t)n;
		c->offset += (uint64_t)n;
	}
	return 0;
}

static int pad(struct cpio *c, struct kd_err *err)
{
	static const char zeros[4];
	size_t n = (4 - c->offset % 4) % 4;

	return n ? write_all(c, zeros, n, err) : 0;
}

int cpio_open(struct cpio *c, const char *path, struct kd_err *err)
{
	*c = (struct cpio){ .path = path, .ino = 1 };
	strbuf_init(&c->seen);
	strbuf_addch(&c->seen, '\n');
	c->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (c->fd < 0) {
		strbuf_release(&c->seen);
		return kd_error(err, "%s: %s", path, strerror(errno));
	}
	return 0;
}

bool cpio_has(const struct cpio *c, const char *name)
{
	char *key = xasprintf("\n%s\n", name);
	bool has = strstr(c->seen.buf, key) != NULL;

	free(key);
	return has;
}

/* One entry's header and name; the caller writes size bytes of data. */
static int header(struct cpio *c, const char *name, mode_t mode,
		  uint32_t nlink, size_t size, struct kd_err *err)
{
	char head[CPIO_HEADER_LEN + 1];
	size_t name_len = strlen(name) + 1;

	if (size > UINT32_MAX)
		return kd_error(err, "%s: %s is too large for an initramfs",
				c->path, name);
	snprintf(head, sizeof(head),
		 "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 c->ino++, (unsigned)mode, 0u, 0u, nlink, 0u, (unsigned)size,
		 0u, 0u, 0u, 0u, (unsigned)name_len, 0u);
	if (strcmp(name, "TRAILER!!!"))
		strbuf_addf(&c->seen, "%s\n", name);
	if (write_all(c, head, CPIO_HEADER_LEN, err) < 0 ||
	    write_all(c, name, name_len, err) < 0)
		return -1;
	return pad(c, err);
}

int cpio_add_dir(struct cpio *c, const char *name, mode_t mode,
		 struct kd_err *err)
{
	if (cpio_has(c, name))
		return 0;
	return header(c, name, S_IFDIR | (mode & 07777), 2, 0, err);
}

int cpio_add_parents(struct cpio *c, const char *name, struct kd_err *err)
{
	char *copy = xstrdup(name);
	int ret = 0;

	for (char *s = copy + 1; *s && !ret; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		ret = cpio_add_dir(c, copy, 0755, err);
		*s = '/';
	}
	free(copy);
	return ret;
}

int cpio_add_data(struct cpio *c, const char *name, mode_t mode,
		  const void *data, size_t len, struct kd_err *err)
{
	if (cpio_add_parents(c, name, err) < 0 ||
	    header(c, name, S_IFREG | (mode & 07777), 1, len, err) < 0 ||
	    write_all(c, data, len, err) < 0)
		return -1;
	return pad(c, err);
}

int cpio_add_file(struct cpio *c, const char *name, mode_t mode,
		  const char *host_path, struct kd_err *err)
{
	int fd = open(host_path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char buf[1 << 16];
	uint64_t left;
	int ret = -1;

	if (fd < 0)
		return kd_error(err, "%s: %s", host_path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		kd_error(err, "%s: not a regular file", host_path);
		goto out;
	}
	if (cpio_add_parents(c, name, err) < 0 ||
	    header(c, name, S_IFREG | (mode & 07777), 1, (size_t)st.st_size,
		   err) < 0)
		goto out;
	for (left = (uint64_t)st.st_size; left;) {
		ssize_t n = read(fd, buf, left < sizeof(buf) ? left : sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			kd_error(err, "%s: %s", host_path,
				 n < 0 ? strerror(errno) : "shrank while copied");
			goto out;
		}
		if (write_all(c, buf, (size_t)n, err) < 0)
			goto out;
		left -= (uint64_t)n;
	}
	ret = pad(c, err);
out:
	close(fd);
	return ret;
}

int cpio_add_symlink(struct cpio *c, const char *name, const char *target,
		     struct kd_err *err)
{
	size_t len = strlen(target);

	if (cpio_has(c, name))
		return 0;
	if (cpio_add_parents(c, name, err) < 0 ||
	    header(c, name, S_IFLNK | 0777, 1, len, err) < 0 ||
	    write_all(c, target, len, err) < 0)
		return -1;
	return pad(c, err);
}

int cpio_finish(struct cpio *c, struct kd_err *err)
{
	/* No fsync: the file lives as long as the batch, in its workspace. */
	int ret = header(c, "TRAILER!!!", 0, 1, 0, err);

	if (close(c->fd) < 0 && !ret)
		ret = kd_error(err, "%s: %s", c->path, strerror(errno));
	c->fd = -1;
	strbuf_release(&c->seen);
	return ret;
}

void cpio_abort(struct cpio *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	strbuf_release(&c->seen);
}
