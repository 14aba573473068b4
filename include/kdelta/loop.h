/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_LOOP_H
#define KDELTA_LOOP_H

#include <stdbool.h>
#include <sys/types.h>

#include "kdelta/err.h"

/*
 * Loop devices kdelta attaches itself, with ioctls on /dev/loop-control and
 * /dev/loopN (no losetup).  A device is attached with LO_FLAGS_AUTOCLEAR and
 * kept open until loop_detach(): should kdelta die before that, the kernel
 * detaches it by itself once nothing uses it any more.
 */
struct loop_dev {
	int fd;			/* open on path; -1 when not attached */
	int number;		/* the N of /dev/loopN; -1: none */
	char path[32];		/* "/dev/loopN" */
	char *backing_file;	/* its path, for messages */
	dev_t backing_dev;	/* the backing file's device and inode */
	ino_t backing_ino;
};

#define LOOP_DEV_INIT { -1, -1, "", NULL, 0, 0 }

/*
 * Attaches a free loop device to the file open on file_fd (read-write);
 * backing_file is its path, for messages and the device's lo_file_name.
 */
int loop_attach(struct loop_dev *dev, int file_fd, const char *backing_file,
		struct kd_err *err);

/*
 * Checks, on the device's descriptor (LOOP_GET_STATUS64), that dev is
 * bound to the very file it was attached to (its device and inode number),
 * before anything is written to it.
 */
int loop_verify(const struct loop_dev *dev, struct kd_err *err);

/*
 * Detaches dev through its descriptor (LOOP_CLR_FD) and confirms it there:
 * LOOP_GET_STATUS64 says it is not bound any more; fails when it stays
 * bound (still in use).  Then closes it and waits briefly until the kernel
 * has let go of the backing file.  Without a descriptor (fd -1: the device
 * of a killed kdelta, number and backing_dev/backing_ino as it recorded
 * them), /dev/loopN is opened again and detached only when it is still
 * bound to that file.  Does nothing when dev was never attached.
 * in_use: the caller knows that something still holds the device (a file
 * system it had to unmount lazily): one LOOP_CLR_FD (autoclear), no waiting
 * for a release that will not come soon.
 */
int loop_detach(struct loop_dev *dev, bool in_use, struct kd_err *err);

#endif
