/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_MOUNT_H
#define KDELTA_MOUNT_H

#include "kdelta/err.h"
#include "kdelta/strbuf.h"

/*
 * mount(2) and umount2(2) for the file systems of a run (see disk.h): the
 * option parsing mount(8) does for the common flags, mounts that do not
 * propagate, and unmounting that waits a little for the last users.
 */

/*
 * Splits a comma-separated option list as mount(8) does: ro, rw, noatime,
 * atime, nodiratime, diratime, relatime, norelatime, strictatime,
 * lazytime, sync, async, dirsync, nodev, dev, nosuid, suid, noexec, exec and
 * defaults become MS_* flags; everything else goes into data, in order, for
 * the file system to parse.  mount(8)'s own options (bind, loop, user, ...)
 * are refused.  NULL or "" gives no flags and empty data.
 */
int mount_options_parse(const char *options, unsigned long *flags,
			struct strbuf *data, struct kd_err *err);

/*
 * Mounts source (of type fstype) on target and makes the new mount private,
 * so that nothing mounted or unmounted below it propagates to other mount
 * namespaces.  what names it in messages ("xfs (/dev/loop3)").
 */
int mount_private(const char *what, const char *source, const char *target,
		  const char *fstype, unsigned long flags, const char *data,
		  struct kd_err *err);

/*
 * Unmounts target.  While it is busy, retries for about a second; then
 * detaches it lazily (MNT_DETACH) and returns -1 saying so.  A target that
 * is not mounted is not an error.
 */
int unmount_patiently(const char *target, struct kd_err *err);

/*
 * The mount that holds path (the longest mount point in
 * /proc/self/mountinfo that is a prefix of path's real path): its mount
 * point and file-system type.
 */
int mount_find(const char *path, struct strbuf *mount_point,
	       struct strbuf *fstype, struct kd_err *err);

#endif
