/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_WORKLOADS_COMMON_H
#define KDELTA_WORKLOADS_COMMON_H

/*
 * Helpers the workloads in this directory share; not a public API.  Each
 * returns 0, or -1 with errno set (I/O) or err filled (the rest).
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "kdelta/err.h"

/* Flushes the results; a failure (disk full) fails the run. */
int wl_flush(FILE *out, const char *workload, struct kd_err *err);

/* write(2) and pwrite(2) of all len bytes, retrying short transfers. */
int wl_write_all(int fd, const void *buf, size_t len);
int wl_pwrite_all(int fd, const void *buf, size_t len, off_t offset);
/* Reads len bytes at offset; a short file is an error (errno EIO). */
int wl_pread_all(int fd, void *buf, size_t len, off_t offset);

/* creat(2) then close(2) of path. */
int wl_creat_close(const char *path, struct kd_err *err);

/*
 * Writes dirty data back and drops the clean page cache, dentries and inodes
 * (echo 3 > /proc/sys/vm/drop_caches).  Only root may.
 */
int wl_drop_caches(const char *workload, struct kd_err *err);

/* The type of the file system holding fd ("xfs", "tmpfs"), or "unknown". */
void wl_fs_type(int fd, char *buf, size_t size);

/* A size as a job file writes it: "64M" when exact, else bytes. */
const char *wl_size_str(uint64_t bytes, char buf[32]);

#endif
