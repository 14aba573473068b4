// SPDX-License-Identifier: GPL-2.0
/*
 * The guests' disks with --vm-disks file (kdelta/vm.h): the jobs'
 * <N>BRD_<size> as virtio disks over sparse files on this machine, for
 * disks that do not fit in its memory.  The files live in the batch's
 * workspace, so that its removal (or the next kdelta's, after a kill -9)
 * takes them away.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "kdelta/disk.h"
#include "kdelta/machine.h"
#include "kdelta/util.h"
#include "kdelta/vm.h"

/* The largest N of the jobs' disks, and their one size. */
static int disks_of(struct job *const *jobs, size_t n_jobs, unsigned *n,
		    uint64_t *size, struct kd_err *err)
{
	const char *first = NULL;
	size_t first_job = 0;

	*n = 0;
	*size = 0;
	for (size_t j = 0; j < n_jobs; j++) {
		const char *disk = jnode_str(jobs[j]->root, "disk");
		unsigned count;
		uint64_t each;

		if (!disk || !*disk || disk_brd_parse(disk, &count, &each, NULL))
			continue;
		if (first && each != *size) {
			kd_error(err, "--vm-disks file: the jobs' disks differ in size (%s of job %s, %s of job %s), and a guest's disks are the same for all its jobs; run them in batches of one size",
				 first, jobs[first_job]->name, disk, jobs[j]->name);
			return kd_err_kind(err, KD_EXIT_USAGE);
		}
		if (!first) {
			first = disk;
			first_job = j;
		}
		*size = each;
		if (count > *n)
			*n = count;
	}
	return 0;
}

/*
 * Refused when dir's file system cannot hold all of them, written full;
 * work_dir names it.
 */
static int check_room(const char *dir, const char *work_dir, unsigned n,
		      uint64_t size, struct kd_err *err)
{
	struct statvfs st;
	uint64_t room;

	if (statvfs(dir, &st) < 0)
		return kd_error(err, "--vm-disks file: %s: %s", dir, strerror(errno));
	room = (uint64_t)st.f_bavail * st.f_frsize;
	if (room / n < size) {
		struct strbuf need = STRBUF_INIT, have = STRBUF_INIT;

		format_size_human(&need, size * n);
		format_size_human(&have, room);
		kd_error(err, "--vm-disks file: the guests' %u disk%s take up to %s, and the work directory %s has %s free; use a --work-dir with more room",
			 n, n == 1 ? "" : "s", need.buf, work_dir, have.buf);
		strbuf_release(&need);
		strbuf_release(&have);
		return kd_err_kind(err, KD_EXIT_USAGE);
	}
	return 0;
}

int vm_disks_create(const char *dir, const char *work_dir,
		    struct job *const *jobs, size_t n_jobs,
		    struct vm_disk_files *d, struct kd_err *err)
{
	memset(d, 0, sizeof(*d));
	if (disks_of(jobs, n_jobs, &d->n, &d->size, err) < 0)
		return -1;
	if (!d->n)
		return 0;
	if (check_room(dir, work_dir, d->n, d->size, err) < 0)
		return -1;
	d->files = xcalloc(d->n, sizeof(*d->files));
	for (unsigned i = 0; i < d->n; i++) {
		char *path = xasprintf("%s/disk%u.img", dir, i);
		int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			      0600);

		d->files[i] = path;
		if (fd < 0 || ftruncate(fd, (off_t)d->size) < 0) {
			kd_error(err, "--vm-disks file: %s: %s", path, strerror(errno));
			if (fd >= 0)
				close(fd);
			d->n = i + 1;
			return -1;
		}
		close(fd);
	}
	return 0;
}

void vm_disks_release(struct vm_disk_files *d)
{
	for (unsigned i = 0; d->files && i < d->n; i++)
		free(d->files[i]);
	free(d->files);
	memset(d, 0, sizeof(*d));
}
