// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common.h"
#include "kdelta/metric-rules.h"
#include "kdelta/monitor.h"
#include "kdelta/store.h"
#include "kdelta/strbuf.h"
#include "kdelta/util.h"
#include "kdelta/workload.h"

int wl_flush(FILE *out, const char *workload, struct kd_err *err)
{
	if (fflush(out) == EOF || ferror(out))
		return kd_error(err, "%s: writing the results: %s", workload,
				strerror(errno));
	return 0;
}

int wl_creat_close(const char *path, struct kd_err *err)
{
	int fd = creat(path, 0644);

	if (fd < 0)
		return kd_error(err, "creat %s: %s", path, strerror(errno));
	if (close(fd) < 0)
		return kd_error(err, "close %s: %s", path, strerror(errno));
	return 0;
}

/* At the file position (write(2)) when offset is negative, else pwrite(2). */
static int write_all_at(int fd, const void *buf, size_t len, off_t offset)
{
	const char *p = buf;

	while (len) {
		ssize_t n = offset < 0 ? write(fd, p, len)
				       : pwrite(fd, p, len, offset);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			return -1;
		}
		p += n;
		len -= (size_t)n;
		if (offset >= 0)
			offset += n;
	}
	return 0;
}

int wl_write_all(int fd, const void *buf, size_t len)
{
	return write_all_at(fd, buf, len, -1);
}

int wl_pwrite_all(int fd, const void *buf, size_t len, off_t offset)
{
	return write_all_at(fd, buf, len, offset);
}

int wl_pread_all(int fd, void *buf, size_t len, off_t offset)
{
	char *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, offset);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;	/* the file is shorter than it was made */
			return -1;
		}
		p += n;
		len -= (size_t)n;
		offset += n;
	}
	return 0;
}

int wl_drop_caches(const char *workload, struct kd_err *err)
{
	static const char path[] = "/proc/sys/vm/drop_caches";
	int fd, ret = 0;

	/* drop_caches drops clean pages only: write everything back first. */
	sync();
	fd = open(path, O_WRONLY);
	if (fd < 0 && (errno == EACCES || errno == EPERM || errno == EROFS))
		return kd_error(err,
				"%s: drop_caches: writing %s needs root; run kdelta as root or set drop_caches: false",
				workload, path);
	if (fd < 0)
		return kd_error(err, "%s: drop_caches: %s: %s", workload, path,
				strerror(errno));
	if (wl_write_all(fd, "3\n", 2) < 0)
		ret = kd_error(err, "%s: drop_caches: writing %s: %s", workload,
			       path, strerror(errno));
	close(fd);
	return ret;
}

/* The mount whose device is dev, in /proc/self/mountinfo; 0 if found. */
static int mountinfo_fs_type(dev_t dev, char *buf, size_t size)
{
	struct strbuf info = STRBUF_INIT;
	char want[64];
	int ret = -1;

	if (read_file("/proc/self/mountinfo", &info, NULL) < 0)
		return -1;
	snprintf(want, sizeof(want), " %u:%u ", major(dev), minor(dev));
	/* "36 35 98:0 /root /mnt opts - ext4 /dev/sda1 rw" */
	for (char *line = info.buf; line && *line; ) {
		char *eol = strchr(line, '\n');
		char *sep;

		if (eol)
			*eol = '\0';
		sep = strstr(line, " - ");
		if (sep && strstr(line, want) && strstr(line, want) < sep) {
			size_t len = strcspn(sep + 3, " ");

			snprintf(buf, size, "%.*s", (int)len, sep + 3);
			ret = 0;
			break;
		}
		line = eol ? eol + 1 : NULL;
	}
	strbuf_release(&info);
	return ret;
}

void wl_fs_type(int fd, char *buf, size_t size)
{
	static const struct { long magic; const char *name; } magics[] = {
		{ EXT4_SUPER_MAGIC, "ext2/ext3/ext4" },
		{ XFS_SUPER_MAGIC, "xfs" },
		{ BTRFS_SUPER_MAGIC, "btrfs" },
		{ TMPFS_MAGIC, "tmpfs" },
		{ RAMFS_MAGIC, "ramfs" },
		{ NFS_SUPER_MAGIC, "nfs" },
		{ OVERLAYFS_SUPER_MAGIC, "overlay" },
		{ F2FS_SUPER_MAGIC, "f2fs" },
	};
	struct statfs sfs;
	struct stat st;

	if (!fstat(fd, &st) && !mountinfo_fs_type(st.st_dev, buf, size))
		return;
	snprintf(buf, size, "unknown");
	if (fstatfs(fd, &sfs) < 0)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(magics); i++)
		if (sfs.f_type == magics[i].magic)
			snprintf(buf, size, "%s", magics[i].name);
}

const char *wl_size_str(uint64_t bytes, char buf[32])
{
	static const char units[] = "kMGTPE";
	int unit = -1;

	while (bytes && !(bytes & 1023) && unit + 1 < (int)sizeof(units) - 1) {
		bytes >>= 10;
		unit++;
	}
	if (unit < 0)
		snprintf(buf, 32, "%" PRIu64, bytes);
	else
		snprintf(buf, 32, "%" PRIu64 "%c", bytes, units[unit]);
	return buf;
}

int workload_name_check(const char *name, struct kd_err *err)
{
	char *safe, *log;
	int ret = 0;

	if (!*name)	/* the workload's own name */
		return 0;
	safe = safe_name(name, STORE_NAME_MAX);
	log = xasprintf("%s.log", name);
	/* "../x" would put the log outside the run directory. */
	if (strcmp(safe, name) || !strcmp(log, STORE_SETUP_LOG))
		ret = kd_error(err, "name '%s' cannot name its log file in the run directory; use letters, digits and ._+=,@%%- only, not a leading '.', and not 'setup'",
			       name);
	/*
	 * "time" would overwrite the time monitor's metrics; "dmesg" would
	 * read as lkp-tests' monitor of that name.
	 */
	else if (monitor_find(name) || !metric_is_key(NULL, name))
		ret = kd_error(err, "'%s' is the name of a monitor: its results would mix with that monitor's metrics; choose another name",
			       name);
	free(log);
	free(safe);
	return ret;
}
