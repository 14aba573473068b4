// SPDX-License-Identifier: GPL-2.0
/*
 * The file system a run works in: a RAM disk (a sparse file on a private
 * tmpfs, attached to a loop device, as LKP's 1BRD_<size> disks), formatted
 * and mounted; a private tmpfs; or a plain directory.  See kdelta/disk.h.
 *
 * Everything lives in the run's workspace (kdelta/workdir.h), reached
 * through its descriptor, never by path:
 *	<workspace>/brd/disk.img  the backing file, on a private tmpfs
 *	<workspace>/mnt		  the mounted file system
 *	<workspace>/mnt/work	  the work directory (<workspace>/work without fs)
 * Every mount and the loop device are recorded in the workspace's state
 * before they are made, and in struct fs_mount once made, so that
 * fs_teardown() undoes exactly that, whatever the step that failed or the
 * signal that interrupted, and fs_recover() what a killed kdelta left.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "kdelta/disk.h"
#include "kdelta/kmod.h"
#include "kdelta/loop.h"
#include "kdelta/md.h"
#include "kdelta/mount.h"
#include "kdelta/proc.h"
#include "kdelta/workdir.h"
#include "kdelta/schema.h"
#include "kdelta/util.h"

#include "disk-internal.h"

/* Room on the RAM disk's tmpfs beyond the backing file. */
#define BRD_TMPFS_SLACK (16ULL << 20)


/* A file system kdelta mounted on a directory of the workspace. */
struct mounted {
	const char *name;		/* "brd" or "mnt" */
	int id;				/* its mount ID; 0: not mounted */
};

struct fs_mount {
	int ws_fd;			/* the workspace (not owned) */
	char *ws_path;			/* for messages */
	const struct cgroup *cgroup;	/* the run's, for mkfs */
	struct workspace *ws;		/* NULL when recovering */
	char *work_dir;			/* for messages */
	int work_fd;			/* where the workload runs */
	char *description;
	struct mounted brd, mnt;
	struct loop_dev loops[DISK_MAX_BRD];
	unsigned nloops;		/* attached, or recorded */
	struct md_array md;		/* the array over them, with md */
	int md_recorded;		/* a killed kdelta's array N, or -1 */
	bool brd_module;		/* the brd module is loaded: /dev/ram0 */
	const char *const *devices;	/* fs_disks.devices, or NULL */
	const char *devices_are;	/* fs_disks.devices_are */
};

/* The device of the brd module's first RAM disk. */
#define BRD_DEVICE "/dev/ram0"


/* "<workspace>/name", for messages.  Caller frees. */
static char *shown(const struct fs_mount *m, const char *name)
{
	return xasprintf("%s/%s", m->ws_path, name);
}

/* Creates <workspace>/name, which must not exist yet. */
static int make_dir(struct fs_mount *m, const char *name, mode_t mode,
		    struct kd_err *err)
{
	char *path;

	if (!mkdirat(m->ws_fd, name, mode))
		return 0;
	path = shown(m, name);
	kd_error(err, "fs: creating %s: %s", path, strerror(errno));
	free(path);
	return -1;
}

/*
 * Mounts spec on <workspace>/<mnt->name>, recording its mount ID in the
 * workspace's state before attaching it, so that a kdelta killed from then
 * on leaves a mount the next one can recognise.
 */
static int mount_in_workspace(struct fs_mount *m, struct mounted *mnt,
			      const struct mount_spec *spec,
			      struct kd_err *err)
{
	char *point = shown(m, mnt->name);
	int fd, id, ret;

	ret = make_dir(m, mnt->name, 0700, err);
	if (!ret)
		ret = mount_create(spec, &fd, &id, err);
	if (!ret && workspace_record(m->ws, err, "mount", "%s %d", mnt->name,
				     id) < 0) {
		close(fd);
		ret = -1;
	}
	if (!ret)
		ret = mount_attach(fd, m->ws_fd, mnt->name, point, err);
	if (!ret)
		mnt->id = id;
	free(point);
	return ret;
}

/* The private tmpfs that holds the RAM disk's backing file. */
static int mount_brd(struct fs_mount *m, const struct fs_config *c,
		     struct kd_err *err)
{
	char data[64];
	struct mount_spec spec = {
		.what = "the RAM disk's tmpfs", .source = "kdelta-brd",
		.fstype = "tmpfs", .flags = MS_NODEV | MS_NOSUID | MS_NOEXEC,
		.data = data,
	};

	snprintf(data, sizeof(data), "size=%llu,mode=0700",
		 (unsigned long long)(c->disk_size * c->disks + BRD_TMPFS_SLACK));
	return mount_in_workspace(m, &m->brd, &spec, err);
}

/* "brd/disk.img" for the one disk of 1BRD, "brd/disk<i>.img" of NBRD. */
static void backing_name(unsigned i, unsigned n, char *buf, size_t len)
{
	if (n == 1)
		snprintf(buf, len, "brd/disk.img");
	else
		snprintf(buf, len, "brd/disk%u.img", i);
}

/*
 * The i-th sparse backing file, attached to a loop device; the device is
 * recorded, and checked to be bound to this very file, before anything
 * is written to it.
 */
static int attach_backing_file(struct fs_mount *m, const struct fs_config *c,
			       unsigned i, struct kd_err *err)
{
	struct loop_dev *loop = &m->loops[i];
	char name[32], *path;
	int fd, ret = 0;

	backing_name(i, c->disks, name, sizeof(name));
	path = shown(m, name);
	fd = openat(m->ws_fd, name,
		    O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		ret = kd_error(err, "fs: creating %s: %s", path, strerror(errno));
	else if (ftruncate(fd, (off_t)c->disk_size))
		ret = kd_error(err, "fs: making %s %s: %s", path, c->disk,
			       strerror(errno));
	else
		ret = loop_attach(loop, fd, path, err);
	if (fd >= 0)
		close(fd);
	free(path);
	if (ret < 0)
		return -1;
	m->nloops = i + 1;
	if (workspace_record(m->ws, err, "loop", "%d %llu %llu", loop->number,
			     (unsigned long long)loop->backing_dev,
			     (unsigned long long)loop->backing_ino) < 0)
		return -1;
	return loop_verify(loop, err);
}

/*
 * The line of mkfs's output that says what went wrong: its "ERROR:" lines
 * (mkfs.btrfs), else its first line (mkfs.xfs prints its usage after it).
 */
static void mkfs_complaint(const char *output, struct strbuf *out)
{
	const char *line = output, *first = NULL;
	size_t first_len = 0;

	while (*line) {
		size_t end = strcspn(line, "\n"), len = end;

		while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
			len--;
		if (len && !first) {
			first = line;
			first_len = len;
		}
		if (len && !strncmp(line, "ERROR:", 6)) {
			if (out->len)
				strbuf_addstr(out, " / ");
			strbuf_add(out, line, len);
		}
		line += end + (line[end] == '\n');
	}
	if (!out->len && first)
		strbuf_add(out, first, first_len);
	if (!out->len)
		strbuf_addstr(out, "no message");
}

static int run_mkfs(const struct fs_config *c, const char *device,
		    const struct cgroup *cgroup, struct kd_err *err)
{
	const struct block_fs *b = c->block;
	const char *argv[] = { c->mkfs_path, b->mkfs_options[0],
			       b->mkfs_options[1], device, NULL };
	struct strbuf complaint = STRBUF_INIT;
	struct proc p = PROC_INIT;
	int ret = 0;

	p.argv = argv;
	p.cgroup = cgroup;
	p.out = PROC_PIPE;
	p.err = PROC_TO_OUT;
	if (proc_run(&p, err) < 0) {
		proc_clear(&p);
		return kd_error_prefix(err, "fs");
	}
	if (p.end == PROC_EXITED && p.status == 0) {
		proc_clear(&p);
		return 0;
	}
	mkfs_complaint(p.out_buf.buf, &complaint);
	if (p.end == PROC_EXITED)
		ret = kd_error(err, "fs: %s %s %s %s failed (exit status %d): %s",
			       b->mkfs, b->mkfs_options[0], b->mkfs_options[1],
			       device, p.status, complaint.buf);
	else
		ret = kd_error(err, "fs: %s %s %s %s was killed by signal %d (%s)",
			       b->mkfs, b->mkfs_options[0], b->mkfs_options[1],
			       device, p.status, strsignal(p.status));
	strbuf_release(&complaint);
	proc_clear(&p);
	return ret;
}

/*
 * The brd module's RAM disk, as LKP makes it (a guest's kdelta, which has
 * the module): loaded for this run with the job's size, so that every run
 * starts from an empty disk, and unloaded by the teardown.
 */
static int load_brd(struct fs_mount *m, const struct fs_config *c,
		    const char *module, struct kd_err *err)
{
	char params[96];

	snprintf(params, sizeof(params), "rd_nr=%u rd_size=%llu max_part=0",
		 c->disks, (unsigned long long)((c->disk_size + 1023) >> 10));
	if (kmod_unload("brd", err) < 0 || kmod_load(module, params, err) < 0)
		return kd_error_prefix(err, "fs: the RAM disk (%s)", c->disk);
	m->brd_module = true;
	if (access(BRD_DEVICE, F_OK) < 0)
		return kd_error(err, "fs: the brd module is loaded, but %s is not there: %s",
				BRD_DEVICE, strerror(errno));
	return 0;
}

/* The device of disk i: buf, or a string of m's. */
static const char *disk_path(const struct fs_mount *m, unsigned i, char *buf,
			     size_t len)
{
	if (m->devices)
		return m->devices[i];
	if (!m->brd_module)
		return m->loops[i].path;
	snprintf(buf, len, "/dev/ram%u", i);
	return buf;
}

/*
 * The given devices as the disks: as many as the job's, each of its size
 * (a guest's virtio disks, made for the batch's jobs).
 */
static int take_devices(struct fs_mount *m, const struct fs_config *c,
			const struct fs_disks *d, struct kd_err *err)
{
	if (d->n_devices < c->disks)
		return kd_error(err, "fs: %s needs %u disks, and %u were given",
				c->disk, c->disks, d->n_devices);
	for (unsigned i = 0; i < c->disks; i++) {
		int fd = open(d->devices[i], O_RDONLY | O_CLOEXEC);
		uint64_t size = 0;
		int ret = 0;

		if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size) < 0)
			ret = kd_error(err, "fs: the disk %s: %s",
				       d->devices[i], strerror(errno));
		else if (size != c->disk_size)
			ret = kd_error(err, "fs: the disk %s has %llu bytes, not the %llu of %s",
				       d->devices[i], (unsigned long long)size,
				       (unsigned long long)c->disk_size, c->disk);
		if (fd >= 0)
			close(fd);
		if (ret < 0)
			return -1;
	}
	m->devices = d->devices;
	m->devices_are = d->devices_are ? d->devices_are : "disks given";
	return 0;
}

/*
 * The md array over the disks, its number recorded before mdadm makes it.
 * Another array made between our look and mdadm's (a kdelta run
 * --concurrent beside this one) fails the run with mdadm's message.
 */
static int make_md(struct fs_mount *m, const struct fs_config *c,
		   struct kd_err *err)
{
	char names[DISK_MAX_BRD][32];
	const char *members[DISK_MAX_BRD];
	int number = md_free_number(0);

	if (number < 0)
		return kd_error(err, "md: no free /dev/mdN");
	for (unsigned i = 0; i < c->disks; i++)
		members[i] = disk_path(m, i, names[i], sizeof(names[i]));
	if (workspace_record(m->ws, err, "md", "%d", number) < 0)
		return -1;
	m->md.number = number;
	snprintf(m->md.path, sizeof(m->md.path), "/dev/md%d", number);
	return md_create(&m->md, c->md, members, c->disks, m->cgroup, err);
}

static int set_up_block_fs(struct fs_mount *m, const struct fs_config *c,
			   const struct fs_disks *d, struct kd_err *err)
{
	char ram0[32];
	struct mount_spec spec = {
		.fstype = c->fs, .flags = c->flags,
		.data = c->data.buf,
	};
	const char *device;
	char *what;
	int ret;

	if (c->md && md_check(&m->md, c->md, c->disk, err))
		return -1;
	if (d && d->devices) {
		if (take_devices(m, c, d, err))
			return -1;
	} else if (d && d->brd_module) {
		if (load_brd(m, c, d->brd_module, err))
			return -1;
	} else {
		if (mount_brd(m, c, err))
			return -1;
		for (unsigned i = 0; i < c->disks; i++)
			if (attach_backing_file(m, c, i, err))
				return -1;
	}
	if (c->md && make_md(m, c, err))
		return -1;
	device = c->md ? m->md.path : disk_path(m, 0, ram0, sizeof(ram0));
	if (run_mkfs(c, device, m->cgroup, err))
		return -1;
	what = xasprintf("%s (%s)", c->fs, device);
	spec.what = what;
	spec.source = device;
	ret = mount_in_workspace(m, &m->mnt, &spec, err);
	free(what);
	return ret;
}

static int set_up_tmpfs(struct fs_mount *m, const struct fs_config *c,
			struct kd_err *err)
{
	struct strbuf data = STRBUF_INIT;
	struct mount_spec spec = {
		.what = "tmpfs", .source = "kdelta-tmpfs", .fstype = "tmpfs",
		.flags = c->flags,
	};
	int ret;

	/* Without a size, the kernel's default: half of the memory. */
	if (c->disk_size)
		strbuf_addf(&data, "size=%llu",
			    (unsigned long long)c->disk_size);
	if (c->data.len)
		strbuf_addf(&data, "%s%s", data.len ? "," : "", c->data.buf);
	spec.data = data.buf;
	ret = mount_in_workspace(m, &m->mnt, &spec, err);
	strbuf_release(&data);
	return ret;
}

static char *describe(const struct fs_mount *m, const struct fs_config *c)
{
	struct strbuf sb = STRBUF_INIT, mount_point = STRBUF_INIT,
		      fstype = STRBUF_INIT;
	const char *kind = m->brd_module ? "the brd module" : m->devices_are;
	char ram0[32];

	if (c->block && c->md)
		strbuf_addf(&sb, "%s on %s (md %s over %s%s%s: mdadm --detail says %s)",
			    c->fs, m->md.path, c->md, c->disk, kind ? ", " : "",
			    kind ? kind : "", m->md.report);
	else if (c->block)
		strbuf_addf(&sb, "%s on %s (%s%s%s)", c->fs,
			    disk_path(m, 0, ram0, sizeof(ram0)), c->disk,
			    kind ? ", " : "", kind ? kind : "");
	else if (c->fs && c->disk)
		strbuf_addf(&sb, "tmpfs (%s)", c->disk);
	else if (c->fs)
		strbuf_addstr(&sb, "tmpfs (default size: half of the memory)");
	else if (!mount_find(m->ws_path, &mount_point, &fstype, NULL))
		strbuf_addf(&sb, "a directory on %s at %s (no disk or fs in the job)",
			    fstype.buf, mount_point.buf);
	else
		strbuf_addf(&sb, "a directory in %s (no disk or fs in the job)",
			    m->ws_path);
	if (c->options)
		strbuf_addf(&sb, ", mounted with %s", c->options);
	strbuf_release(&mount_point);
	strbuf_release(&fstype);
	return strbuf_detach(&sb);
}

/* <workspace>/mnt/work, or <workspace>/work without a file system. */
static int make_work_dir(struct fs_mount *m, struct kd_err *err)
{
	const char *name = m->mnt.id ? "mnt/work" : "work";

	if (make_dir(m, name, 0755, err) < 0)
		return -1;
	m->work_dir = shown(m, name);
	m->work_fd = openat(m->ws_fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW |
					    O_CLOEXEC);
	if (m->work_fd < 0)
		return kd_error(err, "fs: %s: %s", m->work_dir, strerror(errno));
	return 0;
}

static int set_up(struct fs_mount *m, struct fs_config *c,
		  const struct fs_disks *d, struct kd_err *err)
{
	if (c->fs && check_can_set_up(c, err))
		return -1;
	if (c->block && set_up_block_fs(m, c, d, err))
		return -1;
	if (c->fs && !c->block && set_up_tmpfs(m, c, err))
		return -1;
	if (make_work_dir(m, err))
		return -1;
	m->description = describe(m, c);
	return 0;
}

static struct fs_mount *fs_mount_new(int ws_fd, const char *ws_path)
{
	struct fs_mount *m = xcalloc(1, sizeof(*m));
	struct loop_dev no_loop = LOOP_DEV_INIT;

	m->ws_fd = ws_fd;
	m->ws_path = xstrdup(ws_path);
	m->work_fd = -1;
	for (unsigned i = 0; i < DISK_MAX_BRD; i++)
		m->loops[i] = no_loop;
	m->brd.name = "brd";
	m->mnt.name = "mnt";
	m->md = (struct md_array)MD_ARRAY_INIT;
	m->md_recorded = -1;
	return m;
}

int fs_setup(const struct jnode *job_root, struct workspace *ws,
	     const struct fs_disks *disks, struct fs_mount **out,
	     struct kd_err *err)
{
	struct fs_config config = { .data = STRBUF_INIT };
	struct fs_mount *m = fs_mount_new(ws->fd, ws->path);
	int ret;

	m->ws = ws;
	m->cgroup = ws->cgroup;
	*out = NULL;
	ret = read_fs_config(job_root, &config, !(disks && disks->devices), err);
	if (!ret)
		ret = set_up(m, &config, disks, err);
	strbuf_release(&config.data);
	free(config.mkfs_path);
	if (ret) {
		struct kd_err cleanup;

		if (fs_teardown(m, &cleanup) && err) {
			char *first = xstrdup(err->msg);

			kd_error(err, "%s; undoing the setup failed too: %s",
				 first, cleanup.msg);
			free(first);
		}
		return -1;
	}
	*out = m;
	return 0;
}

const char *fs_work_dir(const struct fs_mount *m)
{
	return m->work_dir;
}

int fs_work_dir_fd(const struct fs_mount *m)
{
	return m->work_fd;
}

const char *fs_describe(const struct fs_mount *m)
{
	return m->description;
}

static void note_problem(struct strbuf *problems, const struct kd_err *e)
{
	if (problems->len)
		strbuf_addstr(problems, "; ");
	strbuf_addstr(problems, e->msg);
}

/* Unmounts one of the workspace's mounts; *count counts it. */
static void unmount_one(struct fs_mount *m, struct mounted *mnt,
			struct strbuf *problems, int *count)
{
	char *point = shown(m, mnt->name);
	struct kd_err e;

	if (unmount_at(m->ws_fd, mnt->name, mnt->id, point, &e) < 0)
		note_problem(problems, &e);
	else if (count)
		(*count)++;
	mnt->id = 0;
	free(point);
}

static void fs_mount_free(struct fs_mount *m)
{
	if (m->work_fd >= 0)
		close(m->work_fd);
	free(m->work_dir);
	free(m->description);
	free(m->ws_path);
	free(m);
}

/* Stops the md array, ours or a killed kdelta's. */
static void stop_md(struct fs_mount *m, struct strbuf *problems)
{
	struct kd_err e;

	if (md_stop(&m->md, &e) < 0)
		note_problem(problems, &e);
	if (m->md_recorded >= 0 &&
	    md_recover(m->md_recorded, m->ws_path, &e) < 0)
		note_problem(problems, &e);
	m->md_recorded = -1;
}

/*
 * Unmounts the file system, stops the md array, detaches the loop
 * devices, unmounts the RAM disk's tmpfs, in this order, each confirmed;
 * the workspace's removal removes the directories and the backing files.
 * The brd tmpfs is not unmounted while a loop device may still hold its
 * file.
 */
static int teardown(struct fs_mount *m, int *unmounted, struct kd_err *err)
{
	struct strbuf problems = STRBUF_INIT;
	bool loop_left = false;
	struct kd_err e;

	if (m->work_fd >= 0)
		close(m->work_fd);
	m->work_fd = -1;
	if (m->mnt.id)
		unmount_one(m, &m->mnt, &problems, unmounted);
	/* A file system left mounted lazily holds the array. */
	if (!problems.len)
		stop_md(m, &problems);
	/* Or the loop devices, as an array left does. */
	for (unsigned i = 0, busy = problems.len > 0; i < m->nloops; i++) {
		if (loop_detach(&m->loops[i], busy, &e) < 0) {
			note_problem(&problems, &e);
			loop_left = true;
		}
		free(m->loops[i].backing_file);
		m->loops[i].backing_file = NULL;
	}
	if (m->brd.id && !loop_left)
		unmount_one(m, &m->brd, &problems, unmounted);
	if (m->brd_module && !problems.len && kmod_unload("brd", &e) < 0)
		note_problem(&problems, &e);
	fs_mount_free(m);
	if (problems.len) {
		kd_error(err, "%s", problems.buf);
		strbuf_release(&problems);
		return -1;
	}
	return 0;
}

int fs_teardown(struct fs_mount *m, struct kd_err *err)
{
	return m ? teardown(m, NULL, err) : 0;
}

/* "name id" of a "mount:" record, when it is still mounted there. */
static void recover_mount(struct fs_mount *m, const char *record)
{
	struct mounted *mnt = !strncmp(record, "mnt ", 4) ? &m->mnt :
			      !strncmp(record, "brd ", 4) ? &m->brd : NULL;
	int id, now;

	if (!mnt)
		return;
	id = atoi(record + 4);
	/* Never attached (killed before), or not ours: leave it. */
	if (id > 0 && mount_id_at(m->ws_fd, mnt->name, &now, NULL) == 0 &&
	    now == id)
		mnt->id = id;
}

/* "N dev ino" of a "loop:" record. */
static void recover_loop(struct fs_mount *m, const char *record)
{
	unsigned long long dev, ino;
	int number;

	struct loop_dev *loop = &m->loops[m->nloops];

	if (sscanf(record, "%d %llu %llu", &number, &dev, &ino) != 3 ||
	    number < 0 || m->nloops == DISK_MAX_BRD)
		return;
	m->nloops++;
	loop->number = number;
	snprintf(loop->path, sizeof(loop->path), "/dev/loop%d", number);
	loop->backing_file = xasprintf("%s/brd (loop%d)", m->ws_path, number);
	loop->backing_dev = (dev_t)dev;
	loop->backing_ino = (ino_t)ino;
}

int fs_recover(int ws_fd, const char *ws_path, const char *state,
	       struct strbuf *said, struct kd_err *err)
{
	struct fs_mount *m = fs_mount_new(ws_fd, ws_path);
	int unmounted = 0, ret;

	for (const char *line = state; *line;) {
		size_t len = strcspn(line, "\n");
		char *record = xstrndup(line, len);

		if (!strncmp(record, "mount: ", 7))
			recover_mount(m, record + 7);
		else if (!strncmp(record, "loop: ", 6))
			recover_loop(m, record + 6);
		else if (!strncmp(record, "md: ", 4))
			m->md_recorded = atoi(record + 4);
		free(record);
		line += len + (line[len] == '\n');
	}
	ret = teardown(m, &unmounted, err);
	if (unmounted)
		strbuf_addf(said, ", unmounted %d file system%s", unmounted,
			    unmounted == 1 ? "" : "s");
	return ret;
}
