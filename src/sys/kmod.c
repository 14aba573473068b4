// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kdelta/kmod.h"

int kmod_load(const char *path, const char *params, struct kd_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return kd_error(err, "%s: %s", path, strerror(errno));
	/* glibc has no wrapper for it. */
	ret = (int)syscall(SYS_finit_module, fd, params ? params : "", 0);
	if (ret < 0 && errno != EEXIST) {
		int e = errno;

		close(fd);
		return kd_error(err, "loading %s: %s", path, strerror(e));
	}
	close(fd);
	return 0;
}

int kmod_unload(const char *name, struct kd_err *err)
{
	if (syscall(SYS_delete_module, name, O_NONBLOCK) < 0 && errno != ENOENT)
		return kd_error(err, "unloading %s: %s", name, strerror(errno));
	return 0;
}
