// SPDX-License-Identifier: GPL-2.0
/* The machine's run lock; see kdelta/runlock.h. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kdelta/runlock.h"
#include "kdelta/strbuf.h"
#include "kdelta/util.h"

/* How often a waiting kdelta tries again, in milliseconds. */
#define RUN_LOCK_POLL_MS 250

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

/* The directory of path, made if missing (only its last component). */
static int make_parent(const char *path, struct kd_err *err)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int ret = 0;

	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir_p(dir, err) < 0)
			ret = -1;
	}
	free(dir);
	return ret;
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

static enum run_lock_result wait_for(int fd, const char *path, bool wait,
				     int cancel_fd,
				     void (*waiting)(const char *, void *),
				     void *arg, struct kd_err *err)
{
	struct strbuf holder = STRBUF_INIT;
	enum run_lock_result ret = RUN_LOCK_TAKEN;

	describe_holder(fd, &holder);
	if (!wait) {
		kd_error(err, "%s holds the machine's run lock %s", holder.buf,
			 path);
		ret = RUN_LOCK_BUSY;
	} else if (waiting) {
		waiting(holder.buf, arg);
	}
	while (ret == RUN_LOCK_TAKEN && try_lock(fd) < 0) {
		if (errno != EAGAIN && errno != EACCES && errno != EINTR) {
			kd_error(err, "locking %s: %s", path, strerror(errno));
			ret = RUN_LOCK_ERROR;
		} else if (pause_or_cancel(cancel_fd)) {
			ret = RUN_LOCK_CANCELLED;
		}
	}
	strbuf_release(&holder);
	return ret;
}

enum run_lock_result run_lock_take(struct run_lock *lock, const char *path,
				   const char *who, bool wait, int cancel_fd,
				   void (*waiting)(const char *holder, void *arg),
				   void *arg, struct kd_err *err)
{
	enum run_lock_result ret = RUN_LOCK_TAKEN;
	int fd;

	lock->fd = -1;
	if (make_parent(path, err) < 0)
		return RUN_LOCK_ERROR;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		kd_error(err, "%s: %s", path, strerror(errno));
		return RUN_LOCK_ERROR;
	}
	if (try_lock(fd) < 0) {
		if (errno != EAGAIN && errno != EACCES) {
			kd_error(err, "locking %s: %s", path, strerror(errno));
			ret = RUN_LOCK_ERROR;
		} else {
			ret = wait_for(fd, path, wait, cancel_fd, waiting, arg,
				       err);
		}
	}
	if (ret != RUN_LOCK_TAKEN) {
		close(fd);
		return ret;
	}
	/* Only for those who wait: a failure here changes nothing. */
	if (ftruncate(fd, 0) == 0 && pwrite(fd, who, strlen(who), 0) < 0) {
		/* nothing to do */
	}
	lock->fd = fd;
	return RUN_LOCK_TAKEN;
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
