// SPDX-License-Identifier: GPL-2.0
/*
 * Loop devices through ioctls (loop(4)).  See kdelta/loop.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "kdelta/loop.h"
#include "kdelta/util.h"

#define LOOP_MAJOR 7
/* Another process may take the free device we were given: try again. */
#define LOOP_ATTACH_ATTEMPTS 16
/* How long loop_detach() waits for the kernel to let go of the file. */
#define LOOP_DETACH_ATTEMPTS 20
#define LOOP_DETACH_PAUSE_NS 50000000L

/*
 * What /sys/block/loopN/loop/backing_file says: 1 and the path when the
 * device is attached, 0 when it is not.
 */
static int loop_backing_file(int number, struct strbuf *out)
{
	char path[64];
	char buf[PATH_MAX + 32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/block/loop%d/loop/backing_file",
		 number);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	strbuf_reset(out);
	strbuf_add(out, buf, (size_t)n);
	strbuf_rtrim(out);
	return 1;
}

/* Opens /dev/loopN and checks that it is the loop block device it says. */
static int open_loop_device(struct loop_dev *dev, int number,
			    struct kd_err *err)
{
	struct stat st;

	dev->number = number;
	snprintf(dev->path, sizeof(dev->path), "/dev/loop%d", number);
	dev->fd = open(dev->path, O_RDWR | O_CLOEXEC);
	if (dev->fd < 0)
		return kd_error(err, "loop: %s: %s%s", dev->path,
				strerror(errno),
				errno == ENOENT ? " (no device node: is udev or devtmpfs missing?)" : "");
	if (fstat(dev->fd, &st) || !S_ISBLK(st.st_mode) ||
	    major(st.st_rdev) != LOOP_MAJOR) {
		close(dev->fd);
		dev->fd = -1;
		return kd_error(err, "loop: %s is not a loop block device",
				dev->path);
	}
	return 0;
}

/* Binds the open device to file_fd; returns 0, -EBUSY, or -1 with err. */
static int configure_loop(struct loop_dev *dev, int file_fd,
			  const char *backing_file, struct kd_err *err)
{
	struct loop_config config = { .fd = (__u32)file_fd };

	config.info.lo_flags = LO_FLAGS_AUTOCLEAR;
	snprintf((char *)config.info.lo_file_name, LO_NAME_SIZE, "%s",
		 backing_file);
	if (!ioctl(dev->fd, LOOP_CONFIGURE, &config))
		return 0;
	if (errno == EBUSY)
		return -EBUSY;
	if (errno != EINVAL && errno != ENOTTY)
		return kd_error(err, "loop: attaching %s to %s: %s", dev->path,
				backing_file, strerror(errno));
	/* Kernels before 5.8 lack LOOP_CONFIGURE: the two-step way. */
	if (ioctl(dev->fd, LOOP_SET_FD, file_fd))
		return errno == EBUSY ? -EBUSY :
		       kd_error(err, "loop: attaching %s to %s: %s", dev->path,
				backing_file, strerror(errno));
	if (ioctl(dev->fd, LOOP_SET_STATUS64, &config.info)) {
		int e = errno;

		ioctl(dev->fd, LOOP_CLR_FD, 0);
		return kd_error(err, "loop: setting up %s: %s", dev->path,
				strerror(e));
	}
	return 0;
}

static int attach_free_device(struct loop_dev *dev, int control_fd,
			      int file_fd, const char *backing_file,
			      struct kd_err *err)
{
	for (int attempt = 0; attempt < LOOP_ATTACH_ATTEMPTS; attempt++) {
		int number = ioctl(control_fd, LOOP_CTL_GET_FREE);
		int ret;

		if (number < 0)
			return kd_error(err, "loop: no free loop device: %s",
					strerror(errno));
		if (open_loop_device(dev, number, err))
			return -1;
		ret = configure_loop(dev, file_fd, backing_file, err);
		if (!ret)
			return 0;
		close(dev->fd);
		dev->fd = -1;
		if (ret != -EBUSY)
			return -1;
	}
	return kd_error(err,
			"loop: every free loop device was taken by someone else before we could attach it; try again");
}

int loop_attach(struct loop_dev *dev, const char *backing_file,
		struct kd_err *err)
{
	char *real = realpath(backing_file, NULL);
	int control_fd, file_fd, ret;

	if (!real)
		return kd_error(err, "loop: %s: %s", backing_file,
				strerror(errno));
	file_fd = open(real, O_RDWR | O_CLOEXEC);
	if (file_fd < 0) {
		ret = kd_error(err, "loop: %s: %s", real, strerror(errno));
		free(real);
		return ret;
	}
	control_fd = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (control_fd < 0) {
		ret = kd_error(err,
			       "loop: /dev/loop-control: %s (is the loop module loaded? 'modprobe loop')",
			       strerror(errno));
	} else {
		ret = attach_free_device(dev, control_fd, file_fd, real, err);
		close(control_fd);
	}
	close(file_fd);
	if (ret) {
		free(real);
		return -1;
	}
	dev->backing_file = real;
	return 0;
}

int loop_verify(const struct loop_dev *dev, const char *backing_file,
		struct kd_err *err)
{
	struct strbuf sysfs = STRBUF_INIT;
	char *real = realpath(backing_file, NULL);
	struct loop_info64 info;
	struct stat st;
	int ret = 0;

	if (!real || stat(real, &st)) {
		ret = kd_error(err, "loop: %s: %s", backing_file,
			       strerror(errno));
	} else if (!loop_backing_file(dev->number, &sysfs) ||
		   strcmp(sysfs.buf, real)) {
		ret = kd_error(err,
			       "loop: %s is backed by '%s', not by kdelta's %s; leaving it alone",
			       dev->path, sysfs.len ? sysfs.buf : "nothing",
			       real);
	} else if (ioctl(dev->fd, LOOP_GET_STATUS64, &info)) {
		ret = kd_error(err, "loop: %s: %s", dev->path, strerror(errno));
	} else if (info.lo_inode != st.st_ino ||
		   info.lo_device != (__u64)st.st_dev) {
		ret = kd_error(err,
			       "loop: %s is backed by another file than kdelta's %s; leaving it alone",
			       dev->path, real);
	}
	strbuf_release(&sysfs);
	free(real);
	return ret;
}

/* Whether the kernel still has dev's backing file attached to it. */
static bool still_attached(const struct loop_dev *dev)
{
	struct strbuf sysfs = STRBUF_INIT;
	bool attached = loop_backing_file(dev->number, &sysfs) &&
			!strcmp(sysfs.buf, dev->backing_file);

	strbuf_release(&sysfs);
	return attached;
}

int loop_detach(struct loop_dev *dev, struct kd_err *err)
{
	const struct timespec pause = { 0, LOOP_DETACH_PAUSE_NS };
	bool attached = true;
	int ret = 0;

	if (dev->fd < 0)
		return 0;
	/*
	 * While somebody else (blkid, udev) has the device open, LOOP_CLR_FD
	 * only marks it for autoclear; the last close detaches it.
	 */
	ioctl(dev->fd, LOOP_CLR_FD, 0);
	close(dev->fd);
	dev->fd = -1;
	for (int attempt = 0; attempt < LOOP_DETACH_ATTEMPTS; attempt++) {
		attached = still_attached(dev);
		if (!attached)
			break;
		nanosleep(&pause, NULL);
	}
	if (attached)
		ret = kd_error(err,
			       "loop: %s is still attached to %s (still in use?); detach it with 'losetup -d %s'",
			       dev->path, dev->backing_file, dev->path);
	free(dev->backing_file);
	dev->backing_file = NULL;
	return ret;
}
