/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_DISK_H
#define KDELTA_DISK_H

#include "kdelta/err.h"
#include "kdelta/job.h"

/*
 * The file system a run's workload works in (job keys disk, fs,
 * fs_mount_options):
 *   disk: 1BRD_<size> and fs: xfs|ext4|btrfs
 *       a sparse backing file of <size> on a private tmpfs (a RAM disk, as
 *       LKP's brd), a loop device kdelta attaches itself, mkfs, mounted with
 *       fs_mount_options;
 *   fs: tmpfs
 *       a private tmpfs (size from disk if given);
 *   neither
 *       a directory on the file system of base_dir.
 * kdelta formats only loop devices it attached itself.
 */
struct fs_mount;

/*
 * Sets up the file system below base_dir (a directory kdelta created for
 * this run) and creates the work directory in it.  On failure, whatever was
 * set up is undone before returning.
 */
int fs_setup(const struct jnode *job_root, const char *base_dir,
	     struct fs_mount **out, struct kd_err *err);

/* The directory the workload runs in. */
const char *fs_work_dir(const struct fs_mount *m);

/* A one-line description for logs: "xfs on /dev/loop3 (1BRD_4G)". */
const char *fs_describe(const struct fs_mount *m);

/*
 * Undoes everything fs_setup did, in reverse order (unmount, detach the
 * loop device, remove the backing file and the private tmpfs), and frees m.
 * Returns -1 if something could not be undone (err says what is left).
 */
int fs_teardown(struct fs_mount *m, struct kd_err *err);

#endif
