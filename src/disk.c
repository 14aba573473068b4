// SPDX-License-Identifier: GPL-2.0
/*
 * The file system a run works in: a RAM disk (a sparse file on a private
 * tmpfs, attached to a loop device, as LKP's 1BRD_<size> disks), formatted
 * and mounted; a private tmpfs; or a plain directory.  See kdelta/disk.h.
 *
 * Everything lives below the run's base directory:
 *	<base>/brd/disk.img	the backing file, on a private tmpfs
 *	<base>/mnt		the mounted file system
 *	<base>/mnt/work		the work directory (<base>/work without fs)
 * and every step records what it did, so that fs_teardown() undoes exactly
 * that, whatever the step that failed or the signal that interrupted.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "kdelta/disk.h"
#include "kdelta/loop.h"
#include "kdelta/mount.h"
#include "kdelta/proc.h"
#include "kdelta/schema.h"
#include "kdelta/util.h"

#define BRD_PREFIX "1BRD_"
#define BRD_MIN_SIZE (1ULL << 20)
/* Sparse, so larger than RAM is fine -- up to a point. */
#define BRD_MAX_MEMORY_FACTOR 8
/* Room on the RAM disk's tmpfs beyond the backing file. */
#define BRD_TMPFS_SLACK (16ULL << 20)

/* The file systems made on a loop device; one line per file system. */
static const struct block_fs {
	const char *name;
	const char *mkfs;
	const char *mkfs_options[2];	/* quiet, and overwrite whatever is there */
	const char *package;		/* Debian's */
} block_filesystems[] = {
	{ "xfs", "mkfs.xfs", { "-f", "-q" }, "xfsprogs" },
	{ "ext4", "mkfs.ext4", { "-q", "-F" }, "e2fsprogs" },
	{ "btrfs", "mkfs.btrfs", { "-q", "-f" }, "btrfs-progs" },
};

/* What the job asks for. */
struct fs_config {
	const char *disk;		/* "1BRD_4G", or NULL */
	uint64_t disk_size;		/* 0 without disk */
	const char *fs;			/* NULL: a plain directory */
	const struct block_fs *block;	/* NULL unless on a loop device */
	const char *options;		/* fs_mount_options, or NULL */
	unsigned long flags;		/* options parsed: MS_* */
	struct strbuf data;		/* and the rest */
	char *mkfs_path;
};

struct fs_mount {
	char *work_dir;
	bool work_dir_created;		/* a plain directory to remove */
	char *description;
	char *brd_dir;			/* the RAM disk's tmpfs, once created */
	bool brd_mounted;
	char *backing_file;		/* once created */
	struct loop_dev loop;
	char *mnt_dir;			/* the mount point, once created */
	bool mnt_mounted;
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

static int parse_brd(const char *disk, uint64_t *size, struct kd_err *err)
{
	uint64_t memory = memory_size();
	char memory_text[32], limit_text[32];
	struct kd_err size_err;

	if (strncmp(disk, BRD_PREFIX, strlen(BRD_PREFIX)))
		return kd_error(err,
				"disk: '%s' is not supported; use a RAM disk 1BRD_<size>, e.g. 1BRD_4G",
				disk);
	if (parse_size(disk + strlen(BRD_PREFIX), size, &size_err))
		return kd_error(err, "disk: %s: %s", disk, size_err.msg);
	if (*size < BRD_MIN_SIZE)
		return kd_error(err, "disk: %s is too small; use at least 1BRD_1M",
				disk);
	if (memory && *size / BRD_MAX_MEMORY_FACTOR > memory) {
		format_size(memory, memory_text, sizeof(memory_text));
		format_size(memory * BRD_MAX_MEMORY_FACTOR, limit_text,
			    sizeof(limit_text));
		return kd_error(err,
				"disk: %s is more than %d times this machine's memory (%s); use at most 1BRD_%s",
				disk, BRD_MAX_MEMORY_FACTOR, memory_text,
				limit_text);
	}
	return 0;
}

/* Checks the combination of disk, fs and fs_mount_options. */
static int read_fs_config(const struct jnode *job, struct fs_config *c,
			  struct kd_err *err)
{
	c->disk = nonempty(jnode_str(job, "disk"));
	c->fs = nonempty(jnode_str(job, "fs"));
	c->options = nonempty(jnode_str(job, "fs_mount_options"));
	if (c->disk && parse_brd(c->disk, &c->disk_size, err))
		return -1;
	if (!c->fs && c->disk)
		return kd_error(err,
				"disk: %s needs a file system: add fs: xfs, ext4, btrfs or tmpfs",
				c->disk);
	if (!c->fs && c->options)
		return kd_error(err,
				"fs_mount_options: '%s' needs a file system: add fs: xfs, ext4, btrfs or tmpfs",
				c->options);
	if (!c->fs)
		return 0;
	if (strcmp(c->fs, "tmpfs")) {
		c->block = find_block_fs(c->fs);
		if (!c->block)
			return kd_error(err,
					"fs: '%s' is not supported; use xfs, ext4, btrfs or tmpfs",
					c->fs);
		if (!c->disk)
			return kd_error(err,
					"fs: %s needs a disk: add disk: 1BRD_<size> (a RAM disk), e.g. 1BRD_4G",
					c->fs);
	}
	return mount_options_parse(c->options, &c->flags, &c->data, err);
}

/* The program's path in $PATH, or NULL.  Caller frees. */
static char *find_program(const char *name)
{
	const char *path = getenv("PATH");

	if (!path)
		path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	for (;;) {
		size_t len = strcspn(path, ":");

		/* An empty entry means ".": not for a tool run as root. */
		if (len) {
			char *candidate = xasprintf("%.*s/%s", (int)len, path,
						    name);

			if (!access(candidate, X_OK))
				return candidate;
			free(candidate);
		}
		if (!path[len])
			return NULL;
		path += len + 1;
	}
}

/* What needs checking before anything is done: root, the mkfs tool. */
static int check_can_set_up(struct fs_config *c, struct kd_err *err)
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

/* Creates base_dir/name, which must not exist yet.  Caller frees. */
static char *make_dir(const char *base_dir, const char *name, mode_t mode,
		      struct kd_err *err)
{
	char *dir = xasprintf("%s/%s", base_dir, name);

	if (mkdir(dir, mode)) {
		kd_error(err, "fs: creating %s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

/* The private tmpfs that holds the RAM disk's backing file. */
static int mount_brd(struct fs_mount *m, const struct fs_config *c,
		     const char *base_dir, struct kd_err *err)
{
	char data[64];

	m->brd_dir = make_dir(base_dir, "brd", 0700, err);
	if (!m->brd_dir)
		return -1;
	snprintf(data, sizeof(data), "size=%llu,mode=0700",
		 (unsigned long long)(c->disk_size + BRD_TMPFS_SLACK));
	if (mount_private("the RAM disk's tmpfs", "kdelta-brd", m->brd_dir,
			  "tmpfs", MS_NODEV | MS_NOSUID | MS_NOEXEC, data, err))
		return -1;
	m->brd_mounted = true;
	return 0;
}

static int create_backing_file(struct fs_mount *m, const struct fs_config *c,
			       struct kd_err *err)
{
	char *path = xasprintf("%s/disk.img", m->brd_dir);
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0) {
		kd_error(err, "fs: creating %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	m->backing_file = path;
	if (ftruncate(fd, (off_t)c->disk_size)) {
		int e = errno;

		close(fd);
		return kd_error(err, "fs: making %s %s: %s", path, c->disk,
				strerror(e));
	}
	close(fd);
	return 0;
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
		    struct kd_err *err)
{
	const struct block_fs *b = c->block;
	const char *argv[] = { c->mkfs_path, b->mkfs_options[0],
			       b->mkfs_options[1], device, NULL };
	struct strbuf complaint = STRBUF_INIT;
	struct proc p = PROC_INIT;
	int ret = 0;

	p.argv = argv;
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

/* Mounts the work file system on <base>/mnt. */
static int mount_work_fs(struct fs_mount *m, const char *base_dir,
			 const char *what, const char *source,
			 const char *fstype, unsigned long flags,
			 const char *data, struct kd_err *err)
{
	m->mnt_dir = make_dir(base_dir, "mnt", 0755, err);
	if (!m->mnt_dir)
		return -1;
	if (mount_private(what, source, m->mnt_dir, fstype, flags, data, err))
		return -1;
	m->mnt_mounted = true;
	return 0;
}

static int set_up_block_fs(struct fs_mount *m, const struct fs_config *c,
			   const char *base_dir, struct kd_err *err)
{
	char *what;
	int ret;

	if (mount_brd(m, c, base_dir, err) ||
	    create_backing_file(m, c, err) ||
	    loop_attach(&m->loop, m->backing_file, err))
		return -1;
	/* Never format a device that is not the one just attached. */
	if (loop_verify(&m->loop, m->backing_file, err) ||
	    run_mkfs(c, m->loop.path, err))
		return -1;
	what = xasprintf("%s (%s)", c->fs, m->loop.path);
	ret = mount_work_fs(m, base_dir, what, m->loop.path, c->fs, c->flags,
			    c->data.buf, err);
	free(what);
	return ret;
}

static int set_up_tmpfs(struct fs_mount *m, const struct fs_config *c,
			const char *base_dir, struct kd_err *err)
{
	struct strbuf data = STRBUF_INIT;
	int ret;

	/* Without a size, the kernel's default: half of the memory. */
	if (c->disk_size)
		strbuf_addf(&data, "size=%llu",
			    (unsigned long long)c->disk_size);
	if (c->data.len)
		strbuf_addf(&data, "%s%s", data.len ? "," : "", c->data.buf);
	ret = mount_work_fs(m, base_dir, "tmpfs", "kdelta-tmpfs", "tmpfs",
			    c->flags, data.buf, err);
	strbuf_release(&data);
	return ret;
}

static char *describe(const struct fs_mount *m, const struct fs_config *c,
		      const char *base_dir)
{
	struct strbuf sb = STRBUF_INIT, mount_point = STRBUF_INIT,
		      fstype = STRBUF_INIT;

	if (c->block)
		strbuf_addf(&sb, "%s on %s (%s)", c->fs, m->loop.path, c->disk);
	else if (c->fs && c->disk)
		strbuf_addf(&sb, "tmpfs (%s)", c->disk);
	else if (c->fs)
		strbuf_addstr(&sb, "tmpfs (default size: half of the memory)");
	else if (!mount_find(base_dir, &mount_point, &fstype, NULL))
		strbuf_addf(&sb, "a directory on %s at %s (no disk or fs in the job)",
			    fstype.buf, mount_point.buf);
	else
		strbuf_addf(&sb, "a directory in %s (no disk or fs in the job)",
			    base_dir);
	if (c->options)
		strbuf_addf(&sb, ", mounted with %s", c->options);
	strbuf_release(&mount_point);
	strbuf_release(&fstype);
	return strbuf_detach(&sb);
}

static int make_work_dir(struct fs_mount *m, const char *base_dir,
			 struct kd_err *err)
{
	m->work_dir = make_dir(m->mnt_dir ? m->mnt_dir : base_dir, "work",
			       0755, err);
	if (!m->work_dir)
		return -1;
	m->work_dir_created = !m->mnt_dir;
	return 0;
}

static int set_up(struct fs_mount *m, struct fs_config *c,
		  const char *base_dir, struct kd_err *err)
{
	if (c->fs && check_can_set_up(c, err))
		return -1;
	if (c->block && set_up_block_fs(m, c, base_dir, err))
		return -1;
	if (c->fs && !c->block && set_up_tmpfs(m, c, base_dir, err))
		return -1;
	if (make_work_dir(m, base_dir, err))
		return -1;
	m->description = describe(m, c, base_dir);
	return 0;
}

int fs_setup(const struct jnode *job_root, const char *base_dir,
	     struct fs_mount **out, struct kd_err *err)
{
	struct fs_config config = { .data = STRBUF_INIT };
	struct fs_mount *m = xcalloc(1, sizeof(*m));
	struct loop_dev no_loop = LOOP_DEV_INIT;
	int ret;

	m->loop = no_loop;
	*out = NULL;
	ret = read_fs_config(job_root, &config, err);
	if (!ret)
		ret = set_up(m, &config, base_dir, err);
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

const char *fs_describe(const struct fs_mount *m)
{
	return m->description;
}

/* rm -rf of a plain work directory, staying on its file system. */
static int remove_entry(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		return rmdir(path);
	return unlink(path);
}

static void note_problem(struct strbuf *problems, const char *msg)
{
	if (problems->len)
		strbuf_addstr(problems, "; ");
	strbuf_addstr(problems, msg);
}

static void remove_dir(const char *dir, bool tree, struct strbuf *problems)
{
	struct kd_err e;
	int ret = tree ? nftw(dir, remove_entry, 16,
			      FTW_DEPTH | FTW_PHYS | FTW_MOUNT) :
			 rmdir(dir);

	if (ret && errno != ENOENT) {
		kd_error(&e, "fs: removing %s: %s", dir, strerror(errno));
		note_problem(problems, e.msg);
	}
}

static void unmount_dir(const char *dir, struct strbuf *problems)
{
	struct kd_err e;

	if (unmount_patiently(dir, &e))
		note_problem(problems, e.msg);
}

int fs_teardown(struct fs_mount *m, struct kd_err *err)
{
	struct strbuf problems = STRBUF_INIT;
	struct kd_err e;

	if (!m)
		return 0;
	if (m->work_dir_created)
		remove_dir(m->work_dir, true, &problems);
	if (m->mnt_mounted)
		unmount_dir(m->mnt_dir, &problems);
	if (m->mnt_dir)
		remove_dir(m->mnt_dir, false, &problems);
	if (loop_detach(&m->loop, &e))
		note_problem(&problems, e.msg);
	if (m->backing_file && unlink(m->backing_file) && errno != ENOENT) {
		kd_error(&e, "fs: removing %s: %s", m->backing_file,
			 strerror(errno));
		note_problem(&problems, e.msg);
	}
	if (m->brd_mounted)
		unmount_dir(m->brd_dir, &problems);
	if (m->brd_dir)
		remove_dir(m->brd_dir, false, &problems);
	free(m->work_dir);
	free(m->description);
	free(m->brd_dir);
	free(m->backing_file);
	free(m->mnt_dir);
	free(m);
	if (problems.len) {
		kd_error(err, "%s", problems.buf);
		strbuf_release(&problems);
		return -1;
	}
	return 0;
}
