/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_DISK_INTERNAL_H
#define KDELTA_DISK_INTERNAL_H
/*
 * Between disk-config.c (what a job's disk, md, fs and fs_mount_options
 * ask for) and disk.c (setting it up and taking it down).
 */
#include <stdbool.h>
#include <stdint.h>

#include "kdelta/disk.h"
#include "kdelta/strbuf.h"

/*
 * The file systems made on a disk; one line per file system, each also in
 * disk_fs_names.
 */
struct block_fs {
	const char *name;
	const char *mkfs;
	const char *mkfs_options[2];	/* quiet, and overwrite whatever is there */
	const char *package;		/* Debian's */
	uint64_t min_size;		/* the smallest device mkfs accepts */
};

/* What the job asks for. */
struct fs_config {
	const char *disk;		/* "1BRD_4G", or NULL */
	unsigned disks;			/* N of NBRD_<size>; 0 without disk */
	uint64_t disk_size;		/* of each; 0 without disk */
	const char *md;			/* "RAID0", or NULL */
	const char *fs;			/* NULL: a plain directory */
	const struct block_fs *block;	/* NULL unless on a disk */
	const char *options;		/* fs_mount_options, or NULL */
	unsigned long flags;		/* options parsed: MS_* */
	struct strbuf data;		/* and the rest */
	char *mkfs_path;
};

/*
 * The combination of disk, fs and fs_mount_options, checked; with
 * in_memory (RAM disks, not given devices), the disks' size against this
 * machine's memory too.
 */
int read_fs_config(const struct jnode *job, struct fs_config *c,
		   bool in_memory, struct kd_err *err);
/* What needs checking before anything is done: root, the mkfs tool. */
int check_can_set_up(struct fs_config *c, struct kd_err *err);

#endif
