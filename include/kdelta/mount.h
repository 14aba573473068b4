/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_MOUNT_H
#define KDELTA_MOUNT_H

#include <sys/types.h>

#include "kdelta/err.h"
#include "kdelta/strbuf.h"

/*
 * Mounting and unmounting the file systems of a run (see disk.h), with the
 * mount API of Linux 5.2 (fsopen, fsmount, move_mount) and by descriptor:
 * the option parsing mount(8) does for the common flags, mounts that do
 * not propagate, are known by their mount ID and are unmounted through the
 * descriptor of the directory they are on, waiting a little for the last
 * users.
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

/* A file system to mount. */
struct mount_spec {
	const char *what;	/* in messages: "xfs (/dev/loop3)" */
	const char *source;	/* "/dev/loop3", "kdelta-tmpfs" */
	const char *fstype;
	unsigned long flags;	/* MS_* from mount_options_parse() */
	const char *data;	/* the file system's options, comma-separated */
};

/*
 * Creates the file system and a mount of it that is not attached anywhere
 * yet (fsopen, fsconfig, fsmount): *mount_fd refers to it, *mount_id is
 * its ID, the one /proc/self/mountinfo will show, known before it is
 * attached so that it can be recorded first.  An option the file system
 * refuses fails with its own words: "fs: mounting ext4 (/dev/loop3):
 * option 'nosuch': ext4: Unknown parameter 'nosuch'".
 */
int mount_create(const struct mount_spec *spec, int *mount_fd,
		 int *mount_id, struct kd_err *err);

/*
 * Attaches the mount on dirfd/name (move_mount) and makes it private, so
 * that nothing mounted or unmounted below it propagates to other mount
 * namespaces.  Closes mount_fd.  shown names dirfd/name in messages.
 */
int mount_attach(int mount_fd, int dirfd, const char *name,
		 const char *shown, struct kd_err *err);

/* The ID of the mount dirfd/name is on: its own when it is a mount point. */
int mount_id_at(int dirfd, const char *name, int *id, struct kd_err *err);

/*
 * Unmounts the mount with ID id from dirfd/name, reached through the
 * directory's descriptor, so that renaming the path changes nothing, and
 * confirms that it went.  It must be there: one that is not (moved away,
 * mounted over) is an error, never taken for "already unmounted".  While
 * it is busy, retries for about a second; then detaches it lazily
 * (MNT_DETACH) and fails saying so.
 */
int unmount_at(int dirfd, const char *name, int id, const char *shown,
	       struct kd_err *err);

/* The mount point of the first mount of type fstype ("cgroup2"). */
int mount_find_type(const char *fstype, struct strbuf *mount_point,
		    struct kd_err *err);

/*
 * The mount that holds path (the longest mount point in
 * /proc/self/mountinfo that is a prefix of path's real path): its mount
 * point and file-system type.
 */
int mount_find(const char *path, struct strbuf *mount_point,
	       struct strbuf *fstype, struct kd_err *err);

/*
 * The block device the mount that holds path is on: its source's, when
 * that is a device node (btrfs shows an anonymous device number in
 * mountinfo), else mountinfo's; 0 when it is on none (tmpfs, overlay).
 */
dev_t mount_device(const char *path);

#endif
