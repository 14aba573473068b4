// SPDX-License-Identifier: GPL-2.0
/*
 * Loop devices through ioctls (loop(4)).  See kdelta/loop.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
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
/*
 * How long loop_detach() waits for the kernel to let go of the file: udev's
 * probe of a new or changed device holds it open for a moment, which on a
 * loaded machine was seen to last over a second; 10 s at most.
 */
#define LOOP_DETACH_ATTEMPTS 200
#define LOOP_DETACH_PAUSE_NS 50000000L

/* Whether the kernel still has loop device number attached (sysfs). */
static bool still_bound(int number)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/dev/block/%d:%d/loop/backing_file",
		 LOOP_MAJOR, number);
	return access(path, F_OK) == 0;
}

/*
 * Opens /dev/loopN and checks that it is the loop block device it says.
 * Returns 0, -EBUSY when the device has gone (ENXIO, ENOENT: another
 * process removed it since it was free), or -1; err says why either way.
 */
static int open_loop_device(struct loop_dev *dev, int number,
			    struct kd_err *err)
{
	struct stat st;

	dev->number = number;
	snprintf(dev->path, sizeof(dev->path), "/dev/loop%d", number);
	dev->fd = open(dev->path, O_RDWR | O_CLOEXEC);
	if (dev->fd < 0) {
		int e = errno;

		kd_error(err, "loop: %s: %s%s", dev->path, strerror(e),
			 e == ENOENT ? " (no device node: is udev or devtmpfs missing?)" : "");
		/* Removed, or being removed, by another process meanwhile. */
		return e == ENXIO || e == ENOENT ? -EBUSY : -1;
	}
	if (fstat(dev->fd, &st) || !S_ISBLK(st.st_mode) ||
	    major(st.st_rdev) != LOOP_MAJOR ||
	    minor(st.st_rdev) != (unsigned)number) {
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
		ret = open_loop_device(dev, number, err);
		if (ret == -EBUSY)
			continue;	/* err says why, should it be the last */
		if (ret)
			return -1;
		ret = configure_loop(dev, file_fd, backing_file, err);
		if (!ret)
			return 0;
		close(dev->fd);
		dev->fd = -1;
		if (ret != -EBUSY)
			return -1;
		kd_error(err, "loop: every free loop device was taken by someone else before we could attach it; try again");
	}
	return -1;
}

int loop_attach(struct loop_dev *dev, int file_fd, const char *backing_file,
		struct kd_err *err)
{
	struct stat st;
	int control_fd, ret;

	if (fstat(file_fd, &st) < 0)
		return kd_error(err, "loop: %s: %s", backing_file,
				strerror(errno));
	control_fd = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (control_fd < 0)
		return kd_error(err,
				"loop: /dev/loop-control: %s (is the loop module loaded? 'modprobe loop')",
				strerror(errno));
	ret = attach_free_device(dev, control_fd, file_fd, backing_file, err);
	close(control_fd);
	if (ret)
		return -1;
	dev->backing_file = xstrdup(backing_file);
	dev->backing_dev = st.st_dev;
	dev->backing_ino = st.st_ino;
	return 0;
}

/* Whether the device is bound to its backing file: 1, 0, or -1 (err). */
static int backed_by_own_file(const struct loop_dev *dev, struct kd_err *err)
{
	struct loop_info64 info;

	if (ioctl(dev->fd, LOOP_GET_STATUS64, &info) < 0)
		return errno == ENXIO ? 0 :
		       kd_error(err, "loop: %s: %s", dev->path, strerror(errno));
	return info.lo_inode == dev->backing_ino &&
	       info.lo_device == (__u64)dev->backing_dev;
}

int loop_verify(const struct loop_dev *dev, struct kd_err *err)
{
	int ours = backed_by_own_file(dev, err);

	if (ours < 0)
		return -1;
	if (!ours)
		return kd_error(err,
				"loop: %s is not backed by kdelta's %s; leaving it alone",
				dev->path, dev->backing_file);
	return 0;
}

/*
 * Detaches the device through its descriptor: LOOP_CLR_FD until
 * LOOP_GET_STATUS64 says that it is not bound to the file any more (ENXIO),
 * which it does once kdelta is its only user (udev or blkid may hold it
 * open for a moment; the mounted file system holds it until unmounted).
 */
static int clear_held(struct loop_dev *dev, bool in_use, struct kd_err *err)
{
	const struct timespec pause = { 0, LOOP_DETACH_PAUSE_NS };
	/* Never LOOP_CLR_FD a device that is not (any more) bound to it. */
	int ours = backed_by_own_file(dev, err);
	bool was_ours = ours > 0;
	int attempts = in_use ? 1 : LOOP_DETACH_ATTEMPTS;

	for (int attempt = 0; attempt < attempts && ours > 0;
	     attempt++) {
		ioctl(dev->fd, LOOP_CLR_FD, 0);
		ours = backed_by_own_file(dev, err);
		if (ours > 0)
			nanosleep(&pause, NULL);
	}
	close(dev->fd);
	dev->fd = -1;
	if (ours < 0)
		return -1;
	if (ours)
		return kd_error(err,
				"loop: %s is still attached to %s (still in use?); detach it with 'losetup -d %s'",
				dev->path, dev->backing_file, dev->path);
	/* Our close was the last: wait until the kernel lets go of the file. */
	for (int attempt = 0; was_ours && attempt < LOOP_DETACH_ATTEMPTS &&
			      still_bound(dev->number); attempt++)
		nanosleep(&pause, NULL);
	return 0;
}

int loop_detach(struct loop_dev *dev, bool in_use, struct kd_err *err)
{
	int ret = 0;

	if (dev->fd < 0 && dev->number < 0)
		return 0;
	/* Without its descriptor (a killed kdelta's): open it again. */
	if (dev->fd < 0 && open_loop_device(dev, dev->number, err) < 0)
		ret = still_bound(dev->number) ? -1 : 0;
	else
		ret = clear_held(dev, in_use, err);
	free(dev->backing_file);
	dev->backing_file = NULL;
	dev->number = -1;
	return ret;
}
