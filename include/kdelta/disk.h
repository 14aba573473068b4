/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_DISK_H
#define KDELTA_DISK_H

#include <stdint.h>

#include "kdelta/err.h"
#include "kdelta/job.h"
#include "kdelta/strbuf.h"

/*
 * The file system a run's workload works in (job keys disk, fs,
 * fs_mount_options):
 *   disk: 1BRD_<size> and fs: xfs|ext4|btrfs
 *       a sparse backing file of <size> on a private tmpfs (a RAM disk, as
 *       LKP's brd), a loop device kdelta attaches itself, mkfs, mounted with
 *       fs_mount_options;
 *   disk: <N>BRD_<size>, md: RAID0|... and fs: xfs|ext4|btrfs
 *       N such RAM disks, an md array over them (kdelta/md.h), mkfs on it;
 *   fs: tmpfs
 *       a private tmpfs (size from disk if given);
 *   neither
 *       a directory on the file system of the work directory.
 * kdelta formats only loop devices it attached itself.
 */
struct fs_mount;
struct workspace;

/*
 * The file systems a job's "fs" may name, NULL-terminated: those made on a
 * RAM disk (xfs, ext4, btrfs) and tmpfs.  The fs parameter's choices.
 */
extern const char *const disk_fs_names[];

/* The most RAM disks of one job, N of NBRD_<size>. */
#define DISK_MAX_BRD 32

/*
 * RAM disks from their name, LKP's "<N>BRD_<size>" (1BRD_48G, 4BRD_12G): N
 * disks of size bytes each: 0, or -1 with err "expected <N>BRD_<size> ..."
 * for anything else, 0 bytes or more than DISK_MAX_BRD disks too.  Each is
 * a loop device over a sparse file on a private tmpfs.  The disk
 * parameter's check.
 */
int disk_brd_parse(const char *disk, unsigned *count, uint64_t *size,
		   struct kd_err *err);
/* disk_brd_parse()'s size of each disk. */
int disk_brd_size(const char *disk, uint64_t *size, struct kd_err *err);

/*
 * Where a job's <N>BRD_<size> disks come from.  With neither (all zero),
 * each is a loop device over a sparse file on a private tmpfs.
 */
struct fs_disks {
	/*
	 * The brd module's file (a guest's kdelta, kdelta/vm.h): the disks
	 * are its /dev/ram0..., the module loaded with their number and size
	 * for the run and unloaded after it, as LKP does.
	 */
	const char *brd_module;
	/*
	 * Block devices that are the disks, in order (a guest's virtio disks
	 * over files on the host): at least N, each of exactly the disks'
	 * size.  They outlive the run; mkfs discards what was on them.
	 */
	const char *const *devices;
	unsigned n_devices;
	const char *devices_are;	/* for the description: "virtio disks
					 * over files on the host" */
};

/*
 * Sets up the file system in the run's workspace (its mounts and loop
 * device recorded in the workspace's state before each is made; mkfs runs
 * in the workspace's cgroup) on the disks (NULL: loop devices) and creates
 * the work directory in it.  On failure, whatever was set up is undone
 * before returning.  With md, the array is made over the disks and stopped
 * by the teardown, before the disks go.
 */
int fs_setup(const struct jnode *job_root, struct workspace *ws,
	     const struct fs_disks *disks, struct fs_mount **out,
	     struct kd_err *err);

/*
 * The constraints between disk, fs and fs_mount_options (the common
 * parameters' constraints, schema.h): a disk or mount options need a file
 * system, xfs, ext4 and btrfs need a disk, mount(8)'s own options (bind,
 * loop, x-*, ...) are not the file system's.  *at: the key it is about.
 */
int fs_constraints(const struct jnode *job_root, const char **at,
		   struct kd_err *err);

/* The directory the workload runs in: its path, and a descriptor of it. */
const char *fs_work_dir(const struct fs_mount *m);
int fs_work_dir_fd(const struct fs_mount *m);

/* A one-line description for logs: "xfs on /dev/loop3 (1BRD_4G)". */
const char *fs_describe(const struct fs_mount *m);

/*
 * Undoes what fs_setup did, in reverse order, through descriptors and IDs,
 * never by path: unmounts the file system (the mount with the ID it got),
 * detaches the loop device (confirmed on its descriptor), unmounts the
 * private tmpfs; the workspace's removal removes the files.  Frees m.
 * Returns -1 if something could not be undone or confirmed (err says what
 * is left).
 */
int fs_teardown(struct fs_mount *m, struct kd_err *err);

/*
 * Undoes what the state of a killed kdelta's workspace (its "mount:" and
 * "loop:" records) says was set up and is still there: a mount recorded
 * with its ID and still mounted on its directory, a loop device still
 * bound to the recorded file (device and inode number).  Adds
 * ", unmounted N file systems" to said.
 */
int fs_recover(int ws_fd, const char *ws_path, const char *state,
	       struct strbuf *said, struct kd_err *err);

#endif
