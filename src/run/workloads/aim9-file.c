// SPDX-License-Identifier: GPL-2.0
/*
 * AIM9's file tests, in the current directory (the job's file system),
 * written from what AIM9's documentation says each measures: "File
 * Creations and Closes", the disk tests on a file of lkp-tests' FILESIZE
 * (5 MiB) in 4 KiB transfers, each operation a KiB moved as AIM9 counts
 * them ("Random Disk Reads (K)"), "Directory Searches", "Directory
 * Operations", "Link/Unlink Pairs".  The files a test reads are written
 * and synced before the clock starts.
 *
 *   creat-clo  creat() then close() one file; every creat() but the first
 *              truncates an existing empty file (O_TRUNC on a 0-length
 *              file: the path seed 002's tmpfs regression was in)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aim9.h"
#include "common.h"

#define CREAT_CLO_FILE "creat-clo.tmp"
#define DISK_FILE "aim9-disk.tmp"
#define DISK_COPY "aim9-disk.copy"
#define DISK_FILE_SIZE (5 << 20)	/* lkp-tests' s9workfile: FILESIZE 5M */
#define DISK_BLOCK 4096
#define DISK_BLOCKS (DISK_FILE_SIZE / DISK_BLOCK)
#define KIB_PER_BLOCK (DISK_BLOCK / 1024)
#define DIR_NAME "aim9-dir.tmp"
#define DIR_FILES 64
#define LINK_FILE "aim9-link.tmp"
#define LINK_NAME "aim9-link.new"

static int creat_clo_setup(void **state, struct kd_err *err)
{
	*state = NULL;
	/* The file exists before the clock starts: every timed creat truncates. */
	return wl_creat_close(CREAT_CLO_FILE, err);
}

static int creat_clo(void *state, uint64_t n, struct kd_err *err)
{
	(void)state;
	for (uint64_t k = 0; k < n; k++)
		if (wl_creat_close(CREAT_CLO_FILE, err) < 0)
			return -1;
	return 0;
}

static void creat_clo_teardown(void *state)
{
	(void)state;
	unlink(CREAT_CLO_FILE);
}

/* The disk tests' state: the file, its descriptor, a block, a position. */
struct disk {
	int fd;
	int out;		/* disk_cp's copy */
	uint64_t block, random;
	bool sync;
	char buf[DISK_BLOCK];
};

static int write_file(int fd, const char *buf, struct kd_err *err)
{
	for (int b = 0; b < DISK_BLOCKS; b++)
		if (wl_pwrite_all(fd, buf, DISK_BLOCK, (off_t)b * DISK_BLOCK) < 0)
			return kd_error(err, "write %s: %s", DISK_FILE,
					strerror(errno));
	return 0;
}

/* The file, written and synced, open with O_SYNC for the sync_ tests. */
static int disk_open(void **state, bool sync, struct kd_err *err)
{
	struct disk *d = calloc(1, sizeof(*d));
	int fd;

	if (!d)
		return kd_error(err, "out of memory");
	*state = d;
	d->fd = -1;
	d->out = -1;
	d->sync = sync;
	d->random = 0x9e3779b97f4a7c15ULL;
	memset(d->buf, 'a', sizeof(d->buf));
	fd = open(DISK_FILE, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return kd_error(err, "create %s: %s", DISK_FILE, strerror(errno));
	if (write_file(fd, d->buf, err)) {
		close(fd);
		return -1;
	}
	if (fsync(fd) < 0) {
		kd_error(err, "sync %s: %s", DISK_FILE, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	d->fd = open(DISK_FILE, O_RDWR | O_CLOEXEC | (sync ? O_SYNC : 0));
	if (d->fd < 0)
		return kd_error(err, "open %s: %s", DISK_FILE, strerror(errno));
	return 0;
}

static int disk_setup(void **state, struct kd_err *err)
{
	return disk_open(state, false, err);
}

static int sync_disk_setup(void **state, struct kd_err *err)
{
	return disk_open(state, true, err);
}

static void disk_teardown(void *state)
{
	struct disk *d = state;

	if (d && d->fd >= 0)
		close(d->fd);
	if (d && d->out >= 0)
		close(d->out);
	free(d);
	unlink(DISK_FILE);
	unlink(DISK_COPY);
}

static uint64_t disk_random_block(struct disk *d)
{
	d->random ^= d->random << 13;
	d->random ^= d->random >> 7;
	d->random ^= d->random << 17;
	return d->random % DISK_BLOCKS;
}

/* n KiB in whole blocks: at least one. */
static uint64_t blocks_of(uint64_t kib)
{
	return (kib + KIB_PER_BLOCK - 1) / KIB_PER_BLOCK;
}

/* Sequential disk reads: the file's blocks in order, again and again. */
static int disk_rd(void *state, uint64_t n, struct kd_err *err)
{
	struct disk *d = state;

	for (uint64_t k = 0; k < blocks_of(n); k++) {
		if (wl_pread_all(d->fd, d->buf, DISK_BLOCK,
				 (off_t)d->block * DISK_BLOCK) < 0)
			return kd_error(err, "read %s: %s", DISK_FILE,
					strerror(errno));
		d->block = (d->block + 1) % DISK_BLOCKS;
	}
	return 0;
}

/* Random disk reads: blocks at random offsets. */
static int disk_rr(void *state, uint64_t n, struct kd_err *err)
{
	struct disk *d = state;

	for (uint64_t k = 0; k < blocks_of(n); k++)
		if (wl_pread_all(d->fd, d->buf, DISK_BLOCK,
				 (off_t)disk_random_block(d) * DISK_BLOCK) < 0)
			return kd_error(err, "read %s: %s", DISK_FILE,
					strerror(errno));
	return 0;
}

/* Random disk writes (sync_disk_rw: each with O_SYNC). */
static int disk_rw(void *state, uint64_t n, struct kd_err *err)
{
	struct disk *d = state;

	for (uint64_t k = 0; k < blocks_of(n); k++)
		if (wl_pwrite_all(d->fd, d->buf, DISK_BLOCK,
				  (off_t)disk_random_block(d) * DISK_BLOCK) < 0)
			return kd_error(err, "write %s: %s", DISK_FILE,
					strerror(errno));
	return 0;
}

/*
 * Sequential disk writes: a new file written from its start; at its end,
 * closed and unlinked, and a new one begun (sync_disk_wrt: O_SYNC).
 */
static int disk_wrt(void *state, uint64_t n, struct kd_err *err)
{
	struct disk *d = state;

	for (uint64_t k = 0; k < blocks_of(n); k++) {
		if (!d->block) {
			if (d->fd >= 0)
				close(d->fd);
			d->fd = open(DISK_COPY, O_WRONLY | O_CREAT | O_TRUNC |
					 O_CLOEXEC | (d->sync ? O_SYNC : 0), 0644);
			if (d->fd < 0)
				return kd_error(err, "create %s: %s", DISK_COPY,
						strerror(errno));
		}
		if (wl_write_all(d->fd, d->buf, DISK_BLOCK) < 0)
			return kd_error(err, "write %s: %s", DISK_COPY,
					strerror(errno));
		d->block = (d->block + 1) % DISK_BLOCKS;
		if (!d->block && unlink(DISK_COPY) < 0)
			return kd_error(err, "unlink %s: %s", DISK_COPY,
					strerror(errno));
	}
	return 0;
}

/* disk_wrt's state: no file to read, a file to write. */
static int wrt_open(void **state, bool sync, struct kd_err *err)
{
	struct disk *d = calloc(1, sizeof(*d));

	if (!d)
		return kd_error(err, "out of memory");
	d->fd = -1;
	d->out = -1;
	d->sync = sync;
	memset(d->buf, 'w', sizeof(d->buf));
	*state = d;
	return 0;
}

static int disk_wrt_setup(void **state, struct kd_err *err)
{
	return wrt_open(state, false, err);
}

static int sync_disk_wrt_setup(void **state, struct kd_err *err)
{
	return wrt_open(state, true, err);
}

/* Disk copies: the file read and written to a copy, a block at a time. */
static int disk_cp(void *state, uint64_t n, struct kd_err *err)
{
	struct disk *d = state;

	for (uint64_t k = 0; k < blocks_of(n); k++) {
		if (!d->block) {
			if (d->out >= 0)
				close(d->out);
			d->out = open(DISK_COPY, O_WRONLY | O_CREAT | O_TRUNC |
					O_CLOEXEC | (d->sync ? O_SYNC : 0), 0644);
			if (d->out < 0)
				return kd_error(err, "create %s: %s", DISK_COPY,
						strerror(errno));
		}
		if (wl_pread_all(d->fd, d->buf, DISK_BLOCK,
				 (off_t)d->block * DISK_BLOCK) < 0 ||
		    wl_write_all(d->out, d->buf, DISK_BLOCK) < 0)
			return kd_error(err, "copy %s: %s", DISK_FILE,
					strerror(errno));
		d->block = (d->block + 1) % DISK_BLOCKS;
	}
	return 0;
}

static void dir_remove(void)
{
	char name[64];

	for (int i = 0; i < DIR_FILES; i++) {
		snprintf(name, sizeof(name), "%s/f%d", DIR_NAME, i);
		unlink(name);
	}
	rmdir(DIR_NAME);
}

/* A directory of 64 empty files, f0 to f63. */
static int dir_setup(void **state, struct kd_err *err)
{
	char name[64];

	*state = NULL;
	if (mkdir(DIR_NAME, 0755) < 0)
		return kd_error(err, "mkdir %s: %s", DIR_NAME, strerror(errno));
	for (int i = 0; i < DIR_FILES; i++) {
		snprintf(name, sizeof(name), "%s/f%d", DIR_NAME, i);
		if (wl_creat_close(name, err) < 0)
			return -1;
	}
	return 0;
}

static void dir_teardown(void *state)
{
	(void)state;
	dir_remove();
}

/*
 * Directory searches: a name looked up (stat()), half of them names that
 * are not there; every 64th, the directory read through (readdir()) too.
 */
static int disk_src(void *state, uint64_t n, struct kd_err *err)
{
	char name[64];
	struct stat st;

	(void)state;
	for (uint64_t k = 0; k < n; k++) {
		int f = (int)((k * 37) % (2 * DIR_FILES));
		bool there;

		snprintf(name, sizeof(name), "%s/f%d", DIR_NAME, f);
		there = !stat(name, &st);
		if (there != (f < DIR_FILES))
			return kd_error(err, "stat %s: %s", name,
					there ? "there, but not made" :
						strerror(errno));
		if (k % DIR_FILES == 0) {
			DIR *dir = opendir(DIR_NAME);

			if (!dir)
				return kd_error(err, "opendir %s: %s", DIR_NAME,
						strerror(errno));
			while (readdir(dir))
				;
			closedir(dir);
		}
	}
	return 0;
}

/* Directory operations: a directory made (mkdir) and removed (rmdir). */
static int dir_rtns_1(void *state, uint64_t n, struct kd_err *err)
{
	(void)state;
	for (uint64_t k = 0; k < n; k++) {
		if (mkdir(DIR_NAME, 0755) < 0)
			return kd_error(err, "mkdir %s: %s", DIR_NAME,
					strerror(errno));
		if (rmdir(DIR_NAME) < 0)
			return kd_error(err, "rmdir %s: %s", DIR_NAME,
					strerror(errno));
	}
	return 0;
}

static int link_setup(void **state, struct kd_err *err)
{
	*state = NULL;
	return wl_creat_close(LINK_FILE, err);
}

/* Link/unlink pairs: a second name made for a file (link) and removed. */
static int link_test(void *state, uint64_t n, struct kd_err *err)
{
	(void)state;
	for (uint64_t k = 0; k < n; k++) {
		if (link(LINK_FILE, LINK_NAME) < 0)
			return kd_error(err, "link %s: %s", LINK_FILE,
					strerror(errno));
		if (unlink(LINK_NAME) < 0)
			return kd_error(err, "unlink %s: %s", LINK_NAME,
					strerror(errno));
	}
	return 0;
}

static void link_teardown(void *state)
{
	(void)state;
	unlink(LINK_NAME);
	unlink(LINK_FILE);
}

const struct aim9_test aim9_file_tests[] = {
	{ "creat-clo", "creat() and close() of one empty file", creat_clo_setup,
	  creat_clo, creat_clo_teardown },
	{ "dir_rtns_1", "a directory made and removed (mkdir, rmdir)", NULL,
	  dir_rtns_1, dir_teardown },
	{ "disk_cp", "a KiB copied from a 5 MiB file to another, in 4 KiB blocks",
	  disk_setup, disk_cp, disk_teardown },
	{ "disk_rd", "a KiB read from a 5 MiB file in order, in 4 KiB blocks",
	  disk_setup, disk_rd, disk_teardown },
	{ "disk_rr", "a KiB read from a 5 MiB file at random 4 KiB blocks",
	  disk_setup, disk_rr, disk_teardown },
	{ "disk_rw", "a KiB written to a 5 MiB file at random 4 KiB blocks",
	  disk_setup, disk_rw, disk_teardown },
	{ "disk_src", "a name looked up in a directory of 64 files, half of them missing, and every 64th a readdir of it",
	  dir_setup, disk_src, dir_teardown },
	{ "disk_wrt", "a KiB written to new 5 MiB files in order, in 4 KiB blocks",
	  disk_wrt_setup, disk_wrt, disk_teardown },
	{ "link_test", "a link() of a file and the unlink() of the new name",
	  link_setup, link_test, link_teardown },
	{ "sync_disk_cp", "disk_cp with the copy opened O_SYNC",
	  sync_disk_setup, disk_cp, disk_teardown },
	{ "sync_disk_rw", "disk_rw with the file opened O_SYNC",
	  sync_disk_setup, disk_rw, disk_teardown },
	{ "sync_disk_wrt", "disk_wrt with the files opened O_SYNC",
	  sync_disk_wrt_setup, disk_wrt, disk_teardown },
	{ NULL },
};
