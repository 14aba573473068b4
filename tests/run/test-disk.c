// SPDX-License-Identifier: GPL-2.0
/*
 * fs_setup() and fs_teardown() for real, in workspaces of a private work
 * directory: RAM disks with xfs, ext4 and btrfs, tmpfs, plain directories,
 * the failures that must leave nothing behind, a teardown that cannot
 * confirm, and the cleanup after a kdelta killed with its file system
 * mounted.  Mounting needs root; without it only the checks that come
 * before any mount run.  A file system whose mkfs is missing is skipped
 * with a note.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "kdelta/disk.h"
#include "kdelta/job.h"
#include "kdelta/loop.h"
#include "kdelta/mount.h"
#include "kdelta/util.h"
#include "kdelta/run-recover.h"
#include "kdelta/workdir.h"

#define XFS_MAGIC 0x58465342
#define EXT4_MAGIC 0xEF53
#define BTRFS_MAGIC 0x9123683E
#define TMPFS_MAGIC 0x01021994

static struct jnode *make_job(const char *disk, const char *fs,
			      const char *options)
{
	struct jnode *job = jnode_new_map();

	jnode_set(job, "testcase", jnode_new_scalar("disk-test"));
	if (disk)
		jnode_set(job, "disk", jnode_new_scalar(disk));
	if (fs)
		jnode_set(job, "fs", jnode_new_scalar(fs));
	if (options)
		jnode_set(job, "fs_mount_options", jnode_new_scalar(options));
	return job;
}

/* A private work directory and a workspace in it: where a run sets up. */
struct place {
	struct work_dir wd;
	struct workspace ws;
	char *base;		/* the workspace's path */
};

static void place_open(struct place *pl)
{
	char dir[] = "/tmp/kdelta-test-disk.XXXXXX";
	struct kd_err err;

	if (!mkdtemp(dir) || work_dir_open(&pl->wd, dir, &err) < 0 ||
	    workspace_create(&pl->wd, &pl->ws, NULL, &err) < 0)
		xdie("%s: %s", dir, err.msg);
	pl->base = xstrdup(pl->ws.path);
}

static char *new_dir(void)
{
	char *dir = xstrdup("/tmp/kdelta-test-disk.XXXXXX");

	if (!mkdtemp(dir))
		xdie("mkdtemp: %s", strerror(errno));
	return dir;
}

static bool file_mentions(const char *path, const char *needle)
{
	struct strbuf sb = STRBUF_INIT;
	bool found = !read_file(path, &sb, NULL) && strstr(sb.buf, needle);

	strbuf_release(&sb);
	return found;
}

static bool some_loop_device_mentions(const char *needle)
{
	glob_t g;
	bool found = false;

	if (glob("/sys/block/loop*/loop/backing_file", 0, NULL, &g))
		return false;
	for (size_t i = 0; i < g.gl_pathc && !found; i++)
		found = file_mentions(g.gl_pathv[i], needle);
	globfree(&g);
	return found;
}

static bool dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int entries = 0;

	if (!d)
		return false;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			entries++;
	closedir(d);
	return entries == 0;
}

/* Nothing of ours mounted or attached, the workspace removed. */
static void place_close(struct place *pl)
{
	char *lock = xasprintf("%s/kdelta.lock", pl->wd.path);
	struct kd_err err;

	CHECK(!file_mentions("/proc/self/mountinfo", pl->wd.path));
	CHECK(!some_loop_device_mentions(pl->wd.path));
	if (pl->ws.fd >= 0) {
		CHECK(workspace_remove(&pl->ws, &err) == 0);
		if (pl->ws.fd >= 0)
			fprintf(stderr, "workspace_remove: %s\n", err.msg);
	}
	CHECK(unlink(lock) == 0);
	CHECK(dir_is_empty(pl->wd.path));
	rmdir(pl->wd.path);
	work_dir_close(&pl->wd);
	free(pl->base);
	free(lock);
}

/* "/dev/loop12" becomes "/dev/loopN", for exact comparison. */
static char *without_loop_number(const char *msg)
{
	struct strbuf sb = STRBUF_INIT;

	while (*msg) {
		if (!strncmp(msg, "/dev/loop", 9) && isdigit((unsigned char)msg[9])) {
			strbuf_addstr(&sb, "/dev/loopN");
			msg += 9;
			while (isdigit((unsigned char)*msg))
				msg++;
		} else {
			strbuf_addch(&sb, *msg++);
		}
	}
	return strbuf_detach(&sb);
}

static void write_and_read_back(const char *dir)
{
	char *path = xasprintf("%s/hello", dir);
	struct strbuf sb = STRBUF_INIT;
	struct kd_err err;

	CHECK(!write_file_atomic(path, "hello, disk\n", 12, &err));
	CHECK(!read_file(path, &sb, &err));
	CHECK_STR(sb.buf, "hello, disk\n");
	strbuf_release(&sb);
	free(path);
}

static long fs_magic(const char *dir)
{
	struct statfs st;

	return statfs(dir, &st) ? -1 : (long)st.f_type;
}

/* want with every "BASE" replaced by base. */
static char *with_base(const char *want, const char *base)
{
	struct strbuf sb = STRBUF_INIT;
	const char *hit;

	while ((hit = strstr(want, "BASE"))) {
		strbuf_add(&sb, want, (size_t)(hit - want));
		strbuf_addstr(&sb, base);
		want = hit + 4;
	}
	strbuf_addstr(&sb, want);
	return strbuf_detach(&sb);
}

/* Expects fs_setup() to fail with want (loop numbers as N, BASE). */
static void expect_setup_error(const char *disk, const char *fs,
			       const char *options, const char *want)
{
	struct jnode *job = make_job(disk, fs, options);
	struct fs_mount *m = (struct fs_mount *)&m;
	struct place pl;
	struct kd_err err;
	char *want_full, *got;

	place_open(&pl);
	want_full = with_base(want, pl.base);
	CHECK(fs_setup(job, &pl.ws, NULL, &m, &err) == -1);
	CHECK(m == NULL);
	got = without_loop_number(err.msg);
	CHECK_STR(got, want_full);
	free(got);
	free(want_full);
	jnode_free(job);
	place_close(&pl);
}

static void test_mount_options(void)
{
	struct strbuf data = STRBUF_INIT;
	unsigned long flags = 1;
	struct kd_err err;

	CHECK(!mount_options_parse(NULL, &flags, &data, &err));
	CHECK(flags == 0);
	CHECK_STR(data.buf, "");
	CHECK(!mount_options_parse("noatime,inode64,,nodev,ro,rw,logbsize=256k",
				   &flags, &data, &err));
	CHECK(flags == (MS_NOATIME | MS_NODEV));
	CHECK_STR(data.buf, "inode64,logbsize=256k");
	CHECK(!mount_options_parse("defaults,relatime,sync,dirsync,nosuid,noexec,nodiratime",
				   &flags, &data, &err));
	CHECK(flags == (MS_RELATIME | MS_SYNCHRONOUS | MS_DIRSYNC |
			MS_NOSUID | MS_NOEXEC | MS_NODIRATIME));
	CHECK_STR(data.buf, "");
	CHECK(mount_options_parse("noatime,bind", &flags, &data, &err) == -1);
	CHECK_STR(err.msg,
		  "fs_mount_options: 'bind' is an option of mount(8), not of the file system; remove it");
	CHECK(mount_options_parse("x-systemd.device-timeout=1", &flags, &data,
				  &err) == -1);
	strbuf_release(&data);
}

/* Mistakes found before anything is done, as any user. */
static void test_job_errors(void)
{
	struct sysinfo si;
	unsigned long long memory;
	char *want;

	expect_setup_error("1BRD_512M", NULL, NULL,
			   "disk: 1BRD_512M needs a file system: add fs: xfs, ext4, btrfs or tmpfs");
	expect_setup_error(NULL, "xfs", NULL,
			   "fs: xfs needs a disk: add disk: 1BRD_<size> (a RAM disk), e.g. 1BRD_4G");
	expect_setup_error(NULL, NULL, "noatime",
			   "fs_mount_options: 'noatime' needs a file system: add fs: xfs, ext4, btrfs or tmpfs");
	expect_setup_error("/dev/sda", "ext4", NULL,
			   "disk: expected <N>BRD_<size>, like 1BRD_48G or 4BRD_12G, got '/dev/sda'");
	expect_setup_error("1BRD_4Q", "ext4", NULL,
			   "disk: expected <N>BRD_<size> with N from 1 to 32, like 1BRD_48G or 4BRD_12G, got '1BRD_4Q'");
	expect_setup_error("1BRD_64k", "tmpfs", NULL,
			   "disk: 1BRD_64k is too small; use at least 1BRD_1M");
	expect_setup_error("1BRD_1G", "f2fs", NULL,
			   "fs: 'f2fs' is not supported; use xfs, ext4, btrfs or tmpfs");
	expect_setup_error("1BRD_1G", "ext4", "noatime,loop",
			   "fs_mount_options: 'loop' is an option of mount(8), not of the file system; remove it");
	/* Smaller than mkfs accepts: refused with the job, not at mkfs. */
	expect_setup_error("1BRD_100M", "xfs", NULL,
			   "disk: 1BRD_100M is too small for xfs: mkfs.xfs needs at least 300M; use 1BRD_300M or more");
	expect_setup_error("1BRD_100M", "btrfs", NULL,
			   "disk: 1BRD_100M is too small for btrfs: mkfs.btrfs needs at least 109M; use 1BRD_109M or more");
	expect_setup_error("1BRD_300M", "xfs", "noatime,loop",
			   "fs_mount_options: 'loop' is an option of mount(8), not of the file system; remove it");
	CHECK(!sysinfo(&si));
	memory = (unsigned long long)si.totalram * si.mem_unit;
	want = memory >= (1ULL << 30) ?
	       xasprintf("disk: 1BRD_1000T is more than 8 times this machine's memory (%lluG); use at most 1BRD_%lluG",
			 memory >> 30, (memory * 8) >> 30) :
	       xasprintf("disk: 1BRD_1000T is more than 8 times this machine's memory (%lluM); use at most 1BRD_%lluG",
			 memory >> 20, (memory * 8) >> 30);
	expect_setup_error("1BRD_1000T", "xfs", NULL, want);
	free(want);
}

/* As nobody, in a child: the root check comes before any mount. */
static void test_not_root(void)
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(2);
		expect_setup_error("1BRD_512M", "xfs", NULL,
				   "fs: xfs needs root (mount and loop devices); run kdelta as root, or remove fs and disk from the job");
		expect_setup_error(NULL, "tmpfs", NULL,
				   "fs: tmpfs needs root (mount); run kdelta as root, or remove fs and disk from the job");
		_exit(check_failures ? 1 : 0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_missing_mkfs(void)
{
	char *path = xstrdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	char *empty = new_dir();

	setenv("PATH", empty, 1);
	expect_setup_error("1BRD_512M", "btrfs", NULL,
			   "fs: mkfs.btrfs not found in PATH; install the Debian package btrfs-progs (apt-get install btrfs-progs)");
	setenv("PATH", path, 1);
	rmdir(empty);
	free(empty);
	free(path);
}

static bool have_program(const char *name)
{
	char *cmd = xasprintf("command -v %s >/dev/null", name);
	bool found = !system(cmd);

	free(cmd);
	return found;
}

/* A mkfs that fails: its status and last words in the message. */
static void test_mkfs_fails(void)
{
	char *path = xstrdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	char *dir = new_dir();
	char *mkfs = xasprintf("%s/mkfs.ext4", dir);
	char *new_path = xasprintf("%s:%s", dir, path);
	FILE *f = fopen(mkfs, "w");

	CHECK(f != NULL);
	fputs("#!/bin/sh\necho 'Filesystem too small.' >&2\nexit 1\n", f);
	CHECK(!fclose(f) && !chmod(mkfs, 0755));
	setenv("PATH", new_path, 1);
	expect_setup_error("1BRD_64M", "ext4", NULL,
			   "fs: mkfs.ext4 -q -F /dev/loopN failed (exit status 1): Filesystem too small.");
	setenv("PATH", path, 1);
	unlink(mkfs);
	rmdir(dir);
	free(new_path);
	free(mkfs);
	free(dir);
	free(path);
}

/* One RAM disk, set up, used, checked and torn down. */
static void test_block_fs(const char *fs, long magic, const char *options,
			  const char *mount_flag, const char *super_option)
{
	char *mkfs = xasprintf("mkfs.%s", fs);
	struct jnode *job = make_job("1BRD_512M", fs, options);
	char *base, *want, *got, *line, *mnt, *work;
	struct fs_mount *m;
	struct strbuf mountinfo = STRBUF_INIT;
	struct place pl;
	struct kd_err err;

	place_open(&pl);
	base = pl.base;
	if (!have_program(mkfs)) {
		printf("SKIP %s: %s not installed\n", fs, mkfs);
		goto out;
	}
	CHECK(!fs_setup(job, &pl.ws, NULL, &m, &err));
	if (!m) {
		fprintf(stderr, "%s: %s\n", fs, err.msg);
		goto out;
	}
	mnt = xasprintf("%s/mnt", base);
	work = xasprintf("%s/work", mnt);
	CHECK_STR(fs_work_dir(m), work);
	got = without_loop_number(fs_describe(m));
	want = xasprintf("%s on /dev/loopN (1BRD_512M), mounted with %s", fs,
			 options);
	CHECK_STR(got, want);
	CHECK(fs_magic(fs_work_dir(m)) == magic);
	write_and_read_back(fs_work_dir(m));
	CHECK(some_loop_device_mentions(base));
	CHECK(!read_file("/proc/self/mountinfo", &mountinfo, &err));
	line = strstr(mountinfo.buf, mnt);
	CHECK(line != NULL);
	if (line) {
		*strchrnul(line, '\n') = '\0';
		CHECK(strstr(line, mount_flag) != NULL);
		CHECK(strstr(line, super_option) != NULL);
	}
	CHECK(!fs_teardown(m, &err));
	free(got);
	free(want);
	free(mnt);
	free(work);
out:
	strbuf_release(&mountinfo);
	jnode_free(job);
	free(mkfs);
	place_close(&pl);
}

static void test_tmpfs(const char *disk, unsigned long long want_size,
		       const char *want_description)
{
	struct jnode *job = make_job(disk, "tmpfs", "noexec");
	struct fs_mount *m;
	struct statvfs st;
	struct place pl;
	struct kd_err err;

	place_open(&pl);
	CHECK(!fs_setup(job, &pl.ws, NULL, &m, &err));
	if (m) {
		CHECK_STR(fs_describe(m), want_description);
		CHECK(fs_magic(fs_work_dir(m)) == TMPFS_MAGIC);
		CHECK(!statvfs(fs_work_dir(m), &st));
		if (want_size)
			CHECK((unsigned long long)st.f_blocks * st.f_frsize ==
			      want_size);
		CHECK((st.f_flag & ST_NOEXEC) != 0);
		write_and_read_back(fs_work_dir(m));
		CHECK(!fs_teardown(m, &err));
	}
	jnode_free(job);
	place_close(&pl);
}

static void test_plain(void)
{
	struct jnode *job = make_job(NULL, NULL, NULL);
	struct place pl;
	struct fs_mount *m;
	struct kd_err err;
	char *work, *sub;

	place_open(&pl);
	work = xasprintf("%s/work", pl.base);
	sub = xasprintf("%s/work/sub", pl.base);
	CHECK(!fs_setup(job, &pl.ws, NULL, &m, &err));
	if (m) {
		CHECK_STR(fs_work_dir(m), work);
		CHECK(!strncmp(fs_describe(m), "a directory on ", 15));
		CHECK(strstr(fs_describe(m), "(no disk or fs in the job)"));
		write_and_read_back(fs_work_dir(m));
		CHECK(!mkdir(sub, 0755));
		write_and_read_back(sub);
		CHECK(!fs_teardown(m, &err));
	}
	CHECK(fs_teardown(NULL, &err) == 0);
	free(sub);
	free(work);
	jnode_free(job);
	place_close(&pl);
}

static bool wait_child_ok(void)
{
	int status = 0;

	return wait(&status) > 0 && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

/* Cleans up the place's work directory as the next kdelta would. */
static void clean_as_next_kdelta(struct place *pl, const char *want_said)
{
	struct strbuf said = STRBUF_INIT;
	struct kd_err err;
	char *want = with_base(want_said, pl->base), *got;

	CHECK(work_dir_clean(&pl->wd, run_workspace_recover, &said, &err) == 0);
	got = without_loop_number(said.buf);
	CHECK_STR(got, want);
	free(got);
	free(want);
	strbuf_release(&said);
}

/*
 * A process still in the work directory: teardown says what it could not
 * do or confirm, and leaves the workspace with its record; once the
 * process lets go, the next kdelta cleans up what is left.
 */
static void test_busy_teardown(void)
{
	const struct timespec pause = { 0, 50000000L };
	struct jnode *job = make_job("1BRD_128M", "ext4", NULL);
	char *path, *want, *said;
	struct fs_mount *m;
	struct place pl;
	struct kd_err err;
	int fd;

	place_open(&pl);
	CHECK(!fs_setup(job, &pl.ws, NULL, &m, &err));
	if (!m)
		goto out;
	path = xasprintf("%s/busy", fs_work_dir(m));
	fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0644);
	CHECK(fd >= 0);
	CHECK(fs_teardown(m, &err) == -1);
	want = with_base("fs: BASE/mnt was still busy after a second; detached it lazily (MNT_DETACH), it goes away when its last user exits; "
			 "loop: /dev/loopN is still attached to BASE/brd/disk.img (still in use?); detach it with 'losetup -d /dev/loopN'",
			 pl.base);
	free(path);
	path = without_loop_number(err.msg);
	CHECK_STR(path, want);
	workspace_leave(&pl.ws);
	close(fd);
	/* The autoclear flag detaches the loop device once the fs is gone. */
	for (int i = 0; i < 100 && some_loop_device_mentions(pl.base); i++)
		nanosleep(&pause, NULL);
	said = xasprintf("cleaned up what kdelta (pid %ld) left: BASE, unmounted 1 file system, removed it\n",
			 (long)getpid());
	/* Not while this process holds it; it is its own anyway. */
	clean_as_next_kdelta(&pl, "");
	CHECK(path_exists(pl.base));
	/* As another process: the one that made it is "gone". */
	if (fork() == 0) {
		int before = check_failures;

		clean_as_next_kdelta(&pl, said);
		_exit(check_failures > before ? 1 : 0);
	}
	CHECK(wait_child_ok());
	free(said);
	free(want);
	free(path);
out:
	jnode_free(job);
	place_close(&pl);
}

/*
 * kdelta killed with its RAM disk mounted (here: a child that sets up and
 * exits): the next one recognises its mounts by ID and its loop device by
 * the backing file's inode, kills what runs in its cgroup, unmounts,
 * detaches and removes the workspace; nothing is left.
 */
static void test_recover(void)
{
	struct jnode *job = make_job("1BRD_128M", "ext4", NULL);
	struct strbuf said = STRBUF_INIT;
	struct place pl;
	struct kd_err err;

	place_open(&pl);
	if (fork() == 0) {
		struct workspace ws;
		struct fs_mount *m;

		if (workspace_create(&pl.wd, &ws, NULL, &err) < 0 ||
		    fs_setup(job, &ws, NULL, &m, &err) < 0) {
			fprintf(stderr, "%s\n", err.msg);
			_exit(1);
		}
		_exit(0);	/* as if killed: nothing undone */
	}
	CHECK(wait_child_ok());
	CHECK(file_mentions("/proc/self/mountinfo", pl.wd.path));
	CHECK(some_loop_device_mentions(pl.wd.path));
	/* This process's own workspace stays; the child's goes. */
	CHECK(work_dir_clean(&pl.wd, run_workspace_recover, &said, &err) == 0);
	CHECK(!strncmp(said.buf, "cleaned up what kdelta (pid ", 28));
	CHECK(strstr(said.buf, ") left: ") && strstr(said.buf, "/kdelta-run."));
	CHECK(strstr(said.buf, ", unmounted 2 file systems, removed it\n") &&
	      !strchr(said.buf, '\n')[1]);
	CHECK(path_exists(pl.base));
	strbuf_release(&said);
	jnode_free(job);
	place_close(&pl);
}

/* The mountinfo line of mount point dir (its first field), or NULL. */
static char *mountinfo_line(const char *dir)
{
	struct strbuf info = STRBUF_INIT;
	char *needle = xasprintf(" %s ", dir), *hit, *line = NULL;

	if (!read_file("/proc/self/mountinfo", &info, NULL) &&
	    (hit = strstr(info.buf, needle))) {
		while (hit > info.buf && hit[-1] != '\n')
			hit--;
		line = xstrndup(hit, strcspn(hit, "\n"));
	}
	strbuf_release(&info);
	free(needle);
	return line;
}

/*
 * Below a shared mount (as / is under systemd), a new mount is shared too:
 * fs_setup() must make its mounts private.  In a mount namespace of its
 * own, so that the shared bind mount stays in this test.
 */
static void test_private_mounts(void)
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		struct jnode *job = make_job("1BRD_16M", "tmpfs", NULL);
		char *base_line, *mnt_line = NULL, *mnt;
		struct fs_mount *m = NULL;
		struct place pl;
		struct kd_err err;

		CHECK(!unshare(CLONE_NEWNS));
		CHECK(!mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
		place_open(&pl);
		mnt = xasprintf("%s/mnt", pl.base);
		CHECK(!mount(pl.base, pl.base, NULL, MS_BIND, NULL));
		CHECK(!mount(NULL, pl.base, NULL, MS_SHARED, NULL));
		base_line = mountinfo_line(pl.base);
		CHECK(base_line && strstr(base_line, " shared:"));
		/* The bind mount is another directory: open it again. */
		close(pl.ws.fd);
		pl.ws.fd = open(pl.base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		CHECK(!fs_setup(job, &pl.ws, NULL, &m, &err));
		if (m) {
			mnt_line = mountinfo_line(mnt);
			CHECK(mnt_line && !strstr(mnt_line, " shared:"));
			CHECK(!fs_teardown(m, &err));
		}
		close(pl.ws.fd);
		CHECK(!umount(pl.base));
		pl.ws.fd = open(pl.base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		free(base_line);
		free(mnt_line);
		free(mnt);
		jnode_free(job);
		place_close(&pl);
		_exit(check_failures ? 1 : 0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static char *make_file(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	int fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);

	CHECK(fd >= 0 && !ftruncate(fd, 1 << 20));
	if (fd >= 0)
		close(fd);
	return path;
}

/* The check before mkfs: a device bound to another file is refused. */
static void test_loop_verify(void)
{
	struct loop_dev dev = LOOP_DEV_INIT, other;
	char *base = new_dir();
	char *a = make_file(base, "a.img"), *b = make_file(base, "b.img");
	char *want = xasprintf("loop: /dev/loopN is not backed by kdelta's %s; leaving it alone",
			       b);
	int fd = open(a, O_RDWR | O_CLOEXEC);
	struct stat st;
	struct kd_err err;
	char *got;

	CHECK(fd >= 0 && !loop_attach(&dev, fd, a, &err));
	close(fd);
	CHECK(!loop_verify(&dev, &err));
	CHECK(!stat(b, &st));
	other = dev;
	other.backing_file = b;
	other.backing_ino = st.st_ino;
	CHECK(loop_verify(&other, &err) == -1);
	got = without_loop_number(err.msg);
	CHECK_STR(got, want);
	CHECK(!loop_detach(&dev, false, &err));
	CHECK(dev.fd == -1);
	CHECK(!loop_detach(&dev, false, &err));
	CHECK(!some_loop_device_mentions(base));
	unlink(a);
	unlink(b);
	free(got);
	free(want);
	free(a);
	free(b);
	CHECK(dir_is_empty(base));
	rmdir(base);
	free(base);
}

int main(void)
{
	test_mount_options();
	test_job_errors();
	if (geteuid() != 0) {
		if (check_done())
			return 1;
		printf("SKIP: loop devices and mounts need root\n");
		return 77;
	}
	test_not_root();
	test_loop_verify();
	test_private_mounts();
	test_missing_mkfs();
	test_block_fs("ext4", EXT4_MAGIC, "noatime,nodiratime,data=journal",
		      " rw,noatime,nodiratime ", "data=journal");
	test_block_fs("xfs", XFS_MAGIC, "noatime,logbsize=64k",
		      " rw,noatime ", "logbsize=64k");
	test_block_fs("btrfs", BTRFS_MAGIC, "nodev,commit=5",
		      " rw,nodev,", "commit=5");
	test_tmpfs("1BRD_64M", 64ULL << 20, "tmpfs (1BRD_64M), mounted with noexec");
	test_tmpfs(NULL, 0,
		   "tmpfs (default size: half of the memory), mounted with noexec");
	test_plain();
	test_mkfs_fails();
	if (have_program("mkfs.ext4")) {
		expect_setup_error("1BRD_64M", "ext4", "nosuchoption",
				   "fs: mounting ext4 (/dev/loopN): option 'nosuchoption': ext4: Unknown parameter 'nosuchoption'");
		test_busy_teardown();
		test_recover();
	}
	return check_done();
}
