// SPDX-License-Identifier: GPL-2.0
/*
 * What a job's disk, md, fs and fs_mount_options ask for, and whether
 * they fit together and on this machine (kdelta/disk.h): <N>BRD_<size>
 * parsed, the constraints between the parameters, the sizes mkfs and md
 * need.  disk.c sets it up.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "kdelta/md.h"
#include "kdelta/mount.h"
#include "kdelta/schema.h"
#include "kdelta/util.h"

#include "disk-internal.h"

#define BRD_INFIX "BRD_"
#define BRD_MIN_SIZE (1ULL << 20)
/* Sparse, so larger than RAM is fine -- up to a point. */
#define BRD_MAX_MEMORY_FACTOR 8

const char *const disk_fs_names[] = { "xfs", "ext4", "btrfs", "tmpfs", NULL };

static const struct block_fs block_filesystems[] = {
	/* xfsprogs 5.19 and later refuse file systems under 300 MiB. */
	{ "xfs", "mkfs.xfs", { "-f", "-q" }, "xfsprogs", 300ULL << 20 },
	{ "ext4", "mkfs.ext4", { "-q", "-F" }, "e2fsprogs", 0 },
	/* btrfs-progs 6.2 with its default profiles: 109 MiB. */
	{ "btrfs", "mkfs.btrfs", { "-q", "-f" }, "btrfs-progs", 109ULL << 20 },
};

static const char *nonempty(const char *s)
{
	return s && *s ? s : NULL;
}

static const struct block_fs *find_block_fs(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(block_filesystems); i++)
		if (!strcmp(name, block_filesystems[i].name))
			return &block_filesystems[i];
	return NULL;
}

static uint64_t memory_size(void)
{
	struct sysinfo si;

	if (sysinfo(&si))
		return 0;
	return (uint64_t)si.totalram * si.mem_unit;
}

/* "23G" or "512M", rounded down, for messages. */
static void format_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= (1ULL << 30))
		snprintf(buf, len, "%lluG", (unsigned long long)(bytes >> 30));
	else
		snprintf(buf, len, "%lluM", (unsigned long long)(bytes >> 20));
}

int disk_brd_parse(const char *disk, unsigned *count, uint64_t *size,
		   struct kd_err *err)
{
	const char *brd = strstr(disk, BRD_INFIX);
	int64_t n;
	char *digits;
	bool bad;

	if (!brd || brd == disk)
		return kd_error(err, "expected <N>BRD_<size>, like 1BRD_48G or 4BRD_12G, got '%s'",
				disk);
	digits = xstrndup(disk, (size_t)(brd - disk));
	bad = parse_int(digits, &n, NULL) || n < 1 || n > DISK_MAX_BRD ||
	      !isdigit((unsigned char)*disk);
	free(digits);
	if (bad || parse_size(brd + strlen(BRD_INFIX), size, NULL) || !*size)
		return kd_error(err, "expected <N>BRD_<size> with N from 1 to %d, like 1BRD_48G or 4BRD_12G, got '%s'",
				DISK_MAX_BRD, disk);
	*count = (unsigned)n;
	return 0;
}

int disk_brd_size(const char *disk, uint64_t *size, struct kd_err *err)
{
	unsigned count;

	return disk_brd_parse(disk, &count, size, err);
}

/* disk_brd_parse(), and sizes this machine can hold in memory. */
static int parse_brd(const char *disk, unsigned *count, uint64_t *size,
		     bool in_memory, struct kd_err *err)
{
	uint64_t memory = in_memory ? memory_size() : 0;
	char memory_text[32], limit_text[32];

	if (disk_brd_parse(disk, count, size, err))
		return kd_error_prefix(err, "disk");
	if (*size < BRD_MIN_SIZE)
		return kd_error(err, "disk: %s is too small; use at least %uBRD_1M",
				disk, *count);
	if (memory && *size / BRD_MAX_MEMORY_FACTOR > memory / *count) {
		format_size(memory, memory_text, sizeof(memory_text));
		format_size(memory * BRD_MAX_MEMORY_FACTOR / *count, limit_text,
			    sizeof(limit_text));
		return kd_error(err,
				"disk: %s is more than %d times this machine's memory (%s); use at most %uBRD_%s",
				disk, BRD_MAX_MEMORY_FACTOR, memory_text,
				*count, limit_text);
	}
	return 0;
}

/* md's, on the job's disk when it is a well-formed <N>BRD_<size>. */
static int md_constraints(const struct jnode *job, const char **at,
			  struct kd_err *err)
{
	const char *disk = jnode_str(job, "disk");
	unsigned count;
	uint64_t size;

	if (!disk || disk_brd_parse(disk, &count, &size, NULL))
		return 0;	/* fs_constraints(), or the disk's own check */
	return md_disk_constraints(nonempty(jnode_str(job, "md")), disk,
				   count, jnode_str(job, "fs"), at, err);
}

/*
 * The device mkfs gets is large enough for the file system, checked with
 * the job rather than found at mkfs once the run has started.  An md
 * array's own metadata is not counted: a size within a few MiB of the
 * minimum may still fail at mkfs.
 */
static int size_constraints(const struct jnode *job, const char **at,
			    struct kd_err *err)
{
	const char *disk = jnode_str(job, "disk");
	const char *md = nonempty(jnode_str(job, "md"));
	const struct block_fs *block = find_block_fs(jnode_str(job, "fs"));
	unsigned count, halves;
	uint64_t size, need;

	if (!block || !block->min_size || !disk ||
	    disk_brd_parse(disk, &count, &size, NULL))
		return 0;
	halves = md_data_halves(md, count);
	if (!halves || size / 2 * halves >= block->min_size)
		return 0;
	*at = "disk";
	/* Each disk's size for the minimum, rounded up to a MiB. */
	need = (block->min_size * 2 + halves - 1) / halves;
	need = (need + (1ULL << 20) - 1) >> 20;
	if (!md)
		return kd_error(err, "disk: %s is too small for %s: %s needs at least %lluM; use %uBRD_%lluM or more",
				disk, block->name, block->mkfs,
				(unsigned long long)(block->min_size >> 20),
				count, (unsigned long long)need);
	return kd_error(err, "disk: %s with md: %s makes a device of %lluM, too small for %s: %s needs at least %lluM; use %uBRD_%lluM or more",
			disk, md,
			(unsigned long long)((size / 2 * halves) >> 20),
			block->name, block->mkfs,
			(unsigned long long)(block->min_size >> 20), count,
			(unsigned long long)need);
}

int fs_constraints(const struct jnode *job, const char **at,
		   struct kd_err *err)
{
	const char *disk = nonempty(jnode_str(job, "disk"));
	const char *fs = nonempty(jnode_str(job, "fs"));
	const char *options = nonempty(jnode_str(job, "fs_mount_options"));
	struct strbuf data = STRBUF_INIT;
	unsigned long flags;
	int ret;

	*at = disk ? "disk" : "fs_mount_options";
	if (!fs && disk)
		return kd_error(err,
				"disk: %s needs a file system: add fs: xfs, ext4, btrfs or tmpfs",
				disk);
	if (!disk && nonempty(jnode_str(job, "md"))) {
		*at = "md";
		return kd_error(err, "md: %s needs disks: add disk: <N>BRD_<size>, like 4BRD_12G",
				jnode_str(job, "md"));
	}
	if (!fs && options)
		return kd_error(err,
				"fs_mount_options: '%s' needs a file system: add fs: xfs, ext4, btrfs or tmpfs",
				options);
	if (!fs)
		return 0;
	*at = "fs";
	if (strcmp(fs, "tmpfs") && !find_block_fs(fs))
		return kd_error(err,
				"fs: '%s' is not supported; use xfs, ext4, btrfs or tmpfs",
				fs);
	if (strcmp(fs, "tmpfs") && !disk)
		return kd_error(err,
				"fs: %s needs a disk: add disk: 1BRD_<size> (a RAM disk), e.g. 1BRD_4G",
				fs);
	if (md_constraints(job, at, err) || size_constraints(job, at, err))
		return -1;
	*at = "fs_mount_options";
	ret = mount_options_parse(options, &flags, &data, err);
	strbuf_release(&data);
	return ret;
}

int read_fs_config(const struct jnode *job, struct fs_config *c,
		   bool in_memory, struct kd_err *err)
{
	const char *at;

	c->disk = nonempty(jnode_str(job, "disk"));
	c->fs = nonempty(jnode_str(job, "fs"));
	c->options = nonempty(jnode_str(job, "fs_mount_options"));
	if (fs_constraints(job, &at, err) < 0)
		return -1;
	c->md = nonempty(jnode_str(job, "md"));
	if (c->disk && parse_brd(c->disk, &c->disks, &c->disk_size, in_memory,
				 err))
		return -1;
	if (!c->fs)
		return 0;
	if (strcmp(c->fs, "tmpfs"))
		c->block = find_block_fs(c->fs);
	return mount_options_parse(c->options, &c->flags, &c->data, err);
}

int check_can_set_up(struct fs_config *c, struct kd_err *err)
{
	if (geteuid() != 0)
		return kd_error(err,
				c->block ? "fs: %s needs root (mount and loop devices); run kdelta as root, or remove fs and disk from the job" :
					   "fs: %s needs root (mount); run kdelta as root, or remove fs and disk from the job",
				c->fs);
	if (!c->block)
		return 0;
	c->mkfs_path = find_program(c->block->mkfs);
	if (!c->mkfs_path)
		return kd_error(err,
				"fs: %s not found in PATH; install the Debian package %s (apt-get install %s)",
				c->block->mkfs, c->block->package,
				c->block->package);
	return 0;
}
