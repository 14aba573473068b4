// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's run lock and kdelta's other lock files; see
 * kdelta/runlock.h.
 *
 * An fcntl() lock can be taken by anybody who may open the file: a read
 * lock needs only read permission.  So a lock file is a regular file of
 * the user kdelta runs as that nobody else may open (mode 0600), and one
 * that is not (an older kdelta made them 0644) is replaced, never merely
 * chmod'ed: whoever opened it before keeps a descriptor of the old file,
 * and a lock taken through that no longer counts.  Once the lock is
 * taken, the name must still be the file locked: when another kdelta
 * replaced it meanwhile, the lock is taken again on the new file.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kdelta/runlock.h"
#include "kdelta/strbuf.h"
#include "kdelta/util.h"

/* How often a waiting kdelta tries again, in milliseconds. */
#define RUN_LOCK_POLL_MS 250
/* Opening, replacing an unfit file, losing the race to one who did. */
#define LOCK_FILE_ATTEMPTS 20

char *run_lock_path(void)
{
	const char *env = getenv("KDELTA_RUN_LOCK");
	const char *runtime = getenv("XDG_RUNTIME_DIR");
	const char *cache = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");

	if (env && *env)
		return xstrdup(env);
	if (geteuid() == 0)
		return xstrdup("/run/kdelta/run.lock");
	if (runtime && *runtime == '/')
		return xasprintf("%s/kdelta/run.lock", runtime);
	if (cache && *cache == '/')
		return xasprintf("%s/kdelta/run.lock", cache);
	return xasprintf("%s/.cache/kdelta/run.lock", home && *home ? home : "/tmp");
}

/*
 * Whether a user other than root and us could replace what a directory
 * holds: it is theirs, or they may write it and it lacks the sticky bit
 * (which keeps them from renaming or removing what is not theirs).
 */
static bool others_control(const struct stat *st)
{
	return (st->st_uid != 0 && st->st_uid != geteuid()) ||
	       ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX));
}

static int check_dir(const char *lock, const char *dir, struct kd_err *err)
{
	struct stat st;

	if (stat(dir, &st) < 0)
		return kd_error(err, "%s: %s", dir, strerror(errno));
	if (!others_control(&st))
		return 0;
	kd_error(err, "refusing the lock file %s: another user could replace it (%s belongs to uid %u, mode %04o); give one in a directory that only you and root may write",
		 lock, dir, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
	return kd_err_kind(err, KD_EXIT_USAGE);
}

/*
 * The directory of the machine's run lock and every one above it (with
 * symbolic links resolved) such that no other user can put a file of
 * theirs in the lock's place: 0, or -1 on errors, of the kind
 * KD_EXIT_USAGE when one is not.
 */
static int check_trusted_dirs(const char *path, struct kd_err *err)
{
	char *dir = path_dirname(path), *real = realpath(dir, NULL);
	struct strbuf prefix = STRBUF_INIT;
	int ret;

	if (!real) {
		ret = kd_error(err, "%s: %s", dir, strerror(errno));
		free(dir);
		return ret;
	}
	ret = check_dir(path, "/", err);
	for (const char *s = real + 1; *s && !ret;) {
		size_t n = strcspn(s, "/");

		strbuf_addch(&prefix, '/');
		strbuf_add(&prefix, s, n);
		ret = check_dir(path, prefix.buf, err);
		s += n + (s[n] == '/');
	}
	strbuf_release(&prefix);
	free(real);
	free(dir);
	return ret;
}

/* A lock file nobody but us may open: ours, regular, 0600, one name. */
static bool private_file(const struct stat *st)
{
	return S_ISREG(st->st_mode) && st->st_uid == geteuid() &&
	       !(st->st_mode & 077) && st->st_nlink == 1;
}

/* A new private file in path's place (rename() replaces atomically). */
static int replace_file(const char *path, struct kd_err *err)
{
	char *tmp = xasprintf("%s.XXXXXX", path);
	int fd = mkostemp(tmp, O_CLOEXEC), ret = 0;

	if (fd < 0)
		ret = kd_error(err, "%s: %s", tmp, strerror(errno));
	else if (rename(tmp, path) < 0)
		ret = kd_error(err, "replacing %s: %s", path, strerror(errno));
	if (fd >= 0) {
		if (ret < 0)
			unlink(tmp);
		close(fd);
	}
	free(tmp);
	return ret;
}

/* The lock file, opened: private, replaced when it is not. */
static int open_private(const char *path, struct kd_err *err)
{
	for (int attempt = 0; attempt < LOCK_FILE_ATTEMPTS; attempt++) {
		int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW |
				    O_NONBLOCK, 0600);
		struct stat st;

		if (fd < 0 && errno != ELOOP && errno != ENXIO)
			return kd_error(err, "%s: %s", path, strerror(errno));
		if (fd >= 0 && fstat(fd, &st) < 0) {
			kd_error(err, "%s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		if (fd >= 0 && private_file(&st))
			return fd;
		/* A symbolic link, a FIFO, another's or a readable file. */
		if (fd >= 0)
			close(fd);
		if (replace_file(path, err) < 0)
			return -1;
	}
	return kd_error(err, "%s: replaced again and again while kdelta took it",
			path);
}

/* Whether path still names the file fd is. */
static bool still_named(int fd, const char *path)
{
	struct stat mine, named;

	return fstat(fd, &mine) == 0 && stat(path, &named) == 0 &&
	       mine.st_dev == named.st_dev && mine.st_ino == named.st_ino;
}

static int try_lock(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	return fcntl(fd, F_SETLK, &fl);
}

/* What the holder wrote about itself, or a pid from the kernel. */
static void describe_holder(int fd, struct strbuf *out)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char buf[512];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	strbuf_reset(out);
	if (n > 0) {
		buf[n] = '\0';
		strbuf_addstr(out, buf);
		strbuf_rtrim(out);
		make_printable(out->buf);
	}
	if (!out->len && fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
		strbuf_addf(out, "process %ld", (long)fl.l_pid);
	if (!out->len)
		strbuf_addstr(out, "another process");
}

/* Waits for a change: 1 when cancel_fd became readable. */
static int pause_or_cancel(int cancel_fd)
{
	struct pollfd p = { .fd = cancel_fd, .events = POLLIN };

	if (cancel_fd < 0) {
		poll(NULL, 0, RUN_LOCK_POLL_MS);
		return 0;
	}
	return poll(&p, 1, RUN_LOCK_POLL_MS) > 0;
}

struct lock_wait {
	const char *what;	/* "the machine's run lock" */
	bool wait;
	int cancel_fd;
	void (*waiting)(const char *holder, void *arg);
	void *arg;
	bool said;		/* waiting() was called */
};

static enum run_lock_result wait_for(int fd, const char *path,
				     struct lock_wait *w, struct kd_err *err)
{
	struct strbuf holder = STRBUF_INIT;
	enum run_lock_result ret = RUN_LOCK_TAKEN;

	describe_holder(fd, &holder);
	if (!w->wait) {
		kd_error(err, "%s holds %s %s", holder.buf, w->what, path);
		ret = RUN_LOCK_BUSY;
	} else if (w->waiting && !w->said) {
		w->waiting(holder.buf, w->arg);
		w->said = true;
	}
	while (ret == RUN_LOCK_TAKEN && try_lock(fd) < 0) {
		if (errno != EAGAIN && errno != EACCES && errno != EINTR) {
			kd_error(err, "locking %s: %s", path, strerror(errno));
			ret = RUN_LOCK_ERROR;
		} else if (pause_or_cancel(w->cancel_fd)) {
			ret = RUN_LOCK_CANCELLED;
		}
	}
	strbuf_release(&holder);
	return ret;
}

/* Opens and locks path: RUN_LOCK_TAKEN with *fd, or why not. */
static enum run_lock_result lock_once(const char *path, struct lock_wait *w,
				      int *fd_out, struct kd_err *err)
{
	enum run_lock_result ret = RUN_LOCK_TAKEN;
	int fd = open_private(path, err);

	if (fd < 0)
		return RUN_LOCK_ERROR;
	if (try_lock(fd) < 0) {
		if (errno != EAGAIN && errno != EACCES) {
			kd_error(err, "locking %s: %s", path, strerror(errno));
			ret = RUN_LOCK_ERROR;
		} else {
			ret = wait_for(fd, path, w, err);
		}
	}
	if (ret != RUN_LOCK_TAKEN) {
		close(fd);
		return ret;
	}
	*fd_out = fd;
	return ret;
}

static enum run_lock_result take(struct run_lock *lock, const char *path,
				 const char *who, struct lock_wait *w,
				 struct kd_err *err)
{
	enum run_lock_result ret = RUN_LOCK_ERROR;
	int fd = -1;

	lock->fd = -1;
	for (int attempt = 0; attempt < LOCK_FILE_ATTEMPTS; attempt++) {
		ret = lock_once(path, w, &fd, err);
		if (ret != RUN_LOCK_TAKEN || still_named(fd, path))
			break;
		/* Replaced by another kdelta while we waited: its file counts. */
		close(fd);
		fd = -1;
		kd_error(err, "%s: replaced again and again while kdelta took it",
			 path);
		ret = RUN_LOCK_ERROR;
	}
	if (ret != RUN_LOCK_TAKEN)
		return ret;
	/* Only for those who wait: a failure here changes nothing. */
	if (ftruncate(fd, 0) == 0 && pwrite(fd, who, strlen(who), 0) < 0) {
		/* nothing to do */
	}
	lock->fd = fd;
	return RUN_LOCK_TAKEN;
}

enum run_lock_result run_lock_take(struct run_lock *lock, const char *path,
				   const char *who, bool wait, int cancel_fd,
				   void (*waiting)(const char *holder, void *arg),
				   void *arg, struct kd_err *err)
{
	struct lock_wait w = {
		.what = "the machine's run lock", .wait = wait,
		.cancel_fd = cancel_fd, .waiting = waiting, .arg = arg,
	};

	lock->fd = -1;
	if (mkdir_parent(path, err) < 0)
		return RUN_LOCK_ERROR;
	if (check_trusted_dirs(path, err) < 0)
		return err->status == KD_EXIT_USAGE ? RUN_LOCK_REFUSED
						    : RUN_LOCK_ERROR;
	return take(lock, path, who, &w, err);
}

enum run_lock_result lock_file_try(struct run_lock *lock, const char *path,
				   const char *what, const char *who,
				   struct kd_err *err)
{
	struct lock_wait w = { .what = what, .cancel_fd = -1 };

	lock->fd = -1;
	if (mkdir_parent(path, err) < 0)
		return RUN_LOCK_ERROR;
	return take(lock, path, who, &w, err);
}

void run_lock_release(struct run_lock *lock)
{
	if (lock->fd < 0)
		return;
	/* The next holder writes its own line; ours would mislead. */
	if (ftruncate(lock->fd, 0) < 0) {
		/* nothing to do: the line is merely stale */
	}
	close(lock->fd);
	lock->fd = -1;
}
