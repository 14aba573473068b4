/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_LOOP_H
#define KDELTA_LOOP_H

#include "kdelta/err.h"

/*
 * Loop devices kdelta attaches itself, with ioctls on /dev/loop-control and
 * /dev/loopN (no losetup).  A device is attached with LO_FLAGS_AUTOCLEAR and
 * kept open until loop_detach(): should kdelta die before that, the kernel
 * detaches it by itself once nothing uses it any more.
 */
struct loop_dev {
	int fd;			/* open on path; -1 when not attached */
	int number;		/* the N of /dev/loopN */
	char path[32];		/* "/dev/loopN" */
	char *backing_file;	/* its real path */
};

#define LOOP_DEV_INIT { -1, -1, "", NULL }

/* Attaches a free loop device to backing_file (read-write). */
int loop_attach(struct loop_dev *dev, const char *backing_file,
		struct kd_err *err);

/*
 * Checks that dev is a loop device whose backing file is backing_file,
 * both by /sys/block/loopN/loop/backing_file and by device and inode
 * number, before anything is written to it.
 */
int loop_verify(const struct loop_dev *dev, const char *backing_file,
		struct kd_err *err);

/*
 * Detaches dev (LOOP_CLR_FD), closes it and waits briefly until the kernel
 * has let go of the backing file.  Does nothing when dev is not attached.
 */
int loop_detach(struct loop_dev *dev, struct kd_err *err);

#endif
