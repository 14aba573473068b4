// SPDX-License-Identifier: GPL-2.0
/*
 * The private work directory and the runs' workspaces in it: see
 * kdelta/workdir.h.
 *
 * Locks are fcntl() record locks: they belong to the process and go with
 * it, whatever killed it, and a process's children do not inherit them.
 * The work directory's lock file serializes making and removing
 * workspaces (shared) against cleaning up after killed processes
 * (exclusive), so that the cleaner never sees a workspace half made or
 * half removed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kdelta/cgroup.h"
#include "kdelta/mount.h"
#include "kdelta/util.h"
#include "kdelta/workdir.h"

#define WORK_DIR_LOCK "kdelta.lock"
#define WORKSPACE_STATE "state"
#define WORKSPACE_RANDOM 10
#define WORKSPACE_ATTEMPTS 100

char *work_dir_default(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (geteuid() == 0)
		return xstrdup(WORK_DIR_ROOT_DEFAULT);
	if (xdg && *xdg == '/')
		return xasprintf("%s/kdelta/work", xdg);
	return xasprintf("%s/.cache/kdelta/work", home && *home ? home : ".");
}

static int refuse(struct kd_err *err, const char *path, const char *why)
{
	return kd_error(err, "refusing the work directory %s: %s; give a private directory of your own with --work-dir",
			path, why);
}

/* What makes an existing directory unfit: -1 (err) or 0. */
static int check_private(int fd, const char *path, struct kd_err *err)
{
	struct stat st;
	char why[128];

	if (fstat(fd, &st) < 0)
		return kd_error(err, "%s: %s", path, strerror(errno));
	if (st.st_uid != geteuid()) {
		snprintf(why, sizeof(why), "it belongs to uid %u, not to uid %u that kdelta runs as",
			 (unsigned)st.st_uid, (unsigned)geteuid());
		return refuse(err, path, why);
	}
	if (st.st_mode & 077) {
		snprintf(why, sizeof(why), "others may use it (mode %04o; 'chmod 700' makes it private)",
			 (unsigned)(st.st_mode & 07777));
		return refuse(err, path, why);
	}
	return 0;
}

int work_dir_open(struct work_dir *wd, const char *path, struct kd_err *err)
{
	*wd = (struct work_dir){ .fd = -1 };
	if (mkdir_parent(path, err) < 0)
		return kd_err_kind(err, KD_EXIT_WRITE);
	if (mkdir(path, 0700) < 0 && errno != EEXIST) {
		kd_error(err, "cannot create the work directory %s: %s", path,
			 strerror(errno));
		return kd_err_kind(err, KD_EXIT_WRITE);
	}
	wd->fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (wd->fd < 0) {
		struct stat st;
		int e = errno;

		if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
			return refuse(err, path, "it is a symbolic link");
		return refuse(err, path, e == ENOTDIR ? "it is not a directory" :
					 strerror(e));
	}
	if (check_private(wd->fd, path, err) < 0) {
		close(wd->fd);
		wd->fd = -1;
		return -1;
	}
	wd->path = xstrdup(path);
	return 0;
}

void work_dir_close(struct work_dir *wd)
{
	if (wd->fd >= 0)
		close(wd->fd);
	free(wd->path);
	*wd = (struct work_dir){ .fd = -1 };
}

/* A lock on fd's whole file: F_RDLCK, F_WRLCK; wait, or not. */
static int lock_file(int fd, short type, bool wait)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET };
	int r;

	while ((r = fcntl(fd, wait ? F_SETLKW : F_SETLK, &fl)) < 0 &&
	       errno == EINTR)
		;
	return r;
}

/* The work directory's lock, taken; close the descriptor to release it. */
static int lock_work_dir(int dir_fd, short type, struct kd_err *err)
{
	int fd = openat(dir_fd, WORK_DIR_LOCK, O_RDWR | O_CREAT | O_CLOEXEC,
			0600);

	if (fd < 0)
		return kd_error(err, "%s: %s", WORK_DIR_LOCK, strerror(errno));
	if (lock_file(fd, type, true) < 0) {
		kd_error(err, "locking %s: %s", WORK_DIR_LOCK, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* "kdelta-run." and WORKSPACE_RANDOM letters and digits. */
static char *workspace_name(void)
{
	static const char chars[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char random[WORKSPACE_RANDOM];
	char name[sizeof(WORKSPACE_PREFIX) + WORKSPACE_RANDOM];
	size_t len = strlen(WORKSPACE_PREFIX);

	if (getrandom(random, sizeof(random), 0) != sizeof(random)) {
		/* No getrandom(): the time and the pid, still unlikely twice. */
		double seed[2] = { now_epoch(), (double)getpid() };
		uint64_t h = hash64(seed, sizeof(seed));

		for (size_t i = 0; i < sizeof(random); i++, h >>= 6)
			random[i] = (unsigned char)h;
	}
	memcpy(name, WORKSPACE_PREFIX, len);
	for (size_t i = 0; i < WORKSPACE_RANDOM; i++)
		name[len + i] = chars[random[i] % (sizeof(chars) - 1)];
	name[len + WORKSPACE_RANDOM] = '\0';
	return xstrdup(name);
}

static void workspace_init(struct workspace *ws, const struct work_dir *wd)
{
	*ws = (struct workspace){ .fd = -1, .state_fd = -1, .dir_fd = wd->fd };
}

static void workspace_release(struct workspace *ws)
{
	if (ws->fd >= 0)
		close(ws->fd);
	if (ws->state_fd >= 0)
		close(ws->state_fd);
	cgroup_free(ws->cgroup);
	free(ws->name);
	free(ws->path);
	ws->fd = ws->state_fd = -1;
	ws->cgroup = NULL;
	ws->name = ws->path = NULL;
}

void workspace_leave(struct workspace *ws)
{
	workspace_release(ws);
}

/* The directory and its locked state file; the work directory is locked. */
static int make_workspace(const struct work_dir *wd, struct workspace *ws,
			  struct kd_err *err)
{
	for (int attempt = 0; !ws->name; attempt++) {
		if (attempt == WORKSPACE_ATTEMPTS)
			return kd_error(err, "%s: cannot find a free name for a workspace",
					wd->path);
		ws->name = workspace_name();
		if (mkdirat(wd->fd, ws->name, 0700) == 0)
			break;
		if (errno != EEXIST)
			return kd_error(err, "cannot create a directory in the work directory %s: %s",
					wd->path, strerror(errno));
		free(ws->name);
		ws->name = NULL;
	}
	ws->path = xasprintf("%s/%s", wd->path, ws->name);
	ws->fd = openat(wd->fd, ws->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					  O_CLOEXEC);
	if (ws->fd < 0)
		return kd_error(err, "%s: %s", ws->path, strerror(errno));
	ws->state_fd = openat(ws->fd, WORKSPACE_STATE,
			      O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC,
			      0600);
	if (ws->state_fd < 0)
		return kd_error(err, "%s/%s: %s", ws->path, WORKSPACE_STATE,
				strerror(errno));
	if (lock_file(ws->state_fd, F_WRLCK, false) < 0)
		return kd_error(err, "locking %s/%s: %s", ws->path,
				WORKSPACE_STATE, strerror(errno));
	return 0;
}

/* The workspace's cgroup, recorded before it is made. */
static int make_cgroup(struct workspace *ws, struct strbuf *no_cgroup,
		       struct kd_err *err)
{
	struct kd_err why;
	char *path;

	if (cgroup_child_path(ws->name, &path, &why) < 0) {
		if (no_cgroup)
			strbuf_addstr(no_cgroup, why.msg);
		return 0;
	}
	if (workspace_record(ws, err, "cgroup", "%s", path) < 0) {
		free(path);
		return -1;
	}
	if (cgroup_create(path, &ws->cgroup, &why) < 0 && no_cgroup)
		strbuf_addstr(no_cgroup, why.msg);
	free(path);
	return 0;
}

int workspace_create(const struct work_dir *wd, struct workspace *ws,
		     struct strbuf *no_cgroup, struct kd_err *err)
{
	int lock = lock_work_dir(wd->fd, F_RDLCK, err), ret;

	workspace_init(ws, wd);
	if (lock < 0)
		return -1;
	ret = make_workspace(wd, ws, err);
	close(lock);
	if (!ret)
		ret = workspace_record(ws, err, "pid", "%ld", (long)getpid());
	if (!ret)
		ret = make_cgroup(ws, no_cgroup, err);
	if (ret < 0) {
		struct kd_err ignored;

		if (ws->fd >= 0)
			workspace_remove(ws, &ignored);
		workspace_release(ws);
	}
	return ret;
}

int workspace_record(struct workspace *ws, struct kd_err *err,
		     const char *key, const char *fmt, ...)
{
	struct strbuf line = STRBUF_INIT;
	va_list ap;
	int ret = 0;

	strbuf_addf(&line, "%s: ", key);
	va_start(ap, fmt);
	strbuf_vaddf(&line, fmt, ap);
	va_end(ap);
	strbuf_addch(&line, '\n');
	if (write(ws->state_fd, line.buf, line.len) != (ssize_t)line.len ||
	    fsync(ws->state_fd) < 0)
		ret = kd_error(err, "%s/%s: %s", ws->path, WORKSPACE_STATE,
			       strerror(errno));
	strbuf_release(&line);
	return ret;
}

int workspace_kill(struct workspace *ws, struct kd_err *err)
{
	return ws->cgroup ? cgroup_kill(ws->cgroup, NULL, err) : 0;
}

/*
 * Removes dir_fd/name and everything below it, without following symbolic
 * links or entering another mount: mnt_id is the workspace's.
 */
static int remove_tree_at(int dir_fd, const char *name, int mnt_id,
			  const char *shown, struct kd_err *err)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd, id, ret = 0;

	if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 :
		       kd_error(err, "%s/%s: %s", shown, name, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		if (unlinkat(dir_fd, name, 0) < 0 && errno != ENOENT)
			return kd_error(err, "removing %s/%s: %s", shown, name,
					strerror(errno));
		return 0;
	}
	if (mount_id_at(dir_fd, name, &id, err) < 0)
		return -1;
	if (id != mnt_id)
		return kd_error(err, "%s/%s: a file system is still mounted there; not removed",
				shown, name);
	fd = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				  O_CLOEXEC);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (fd >= 0)
			close(fd);
		return kd_error(err, "%s/%s: %s", shown, name, strerror(errno));
	}
	while (!ret && (de = readdir(d))) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			char *below = xasprintf("%s/%s", shown, name);

			ret = remove_tree_at(dirfd(d), de->d_name, mnt_id,
					     below, err);
			free(below);
		}
	}
	closedir(d);
	if (!ret && unlinkat(dir_fd, name, AT_REMOVEDIR) < 0)
		ret = kd_error(err, "removing %s/%s: %s", shown, name,
			       strerror(errno));
	return ret;
}

/* Everything in the workspace but its state file, which goes last. */
static int remove_contents(struct workspace *ws, struct kd_err *err)
{
	int fd = openat(ws->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *de;
	int mnt_id, ret = 0;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return kd_error(err, "%s: %s", ws->path, strerror(errno));
	}
	ret = mount_id_at(ws->fd, ".", &mnt_id, err);
	while (!ret && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, WORKSPACE_STATE))
			ret = remove_tree_at(ws->fd, de->d_name, mnt_id,
					     ws->path, err);
	closedir(d);
	return ret;
}

/* The workspace's name must still be its directory. */
static int check_named(struct workspace *ws, struct kd_err *err)
{
	struct stat mine, named;

	if (fstat(ws->fd, &mine) < 0 ||
	    fstatat(ws->dir_fd, ws->name, &named, AT_SYMLINK_NOFOLLOW) < 0 ||
	    mine.st_dev != named.st_dev || mine.st_ino != named.st_ino)
		return kd_error(err, "%s was moved away or replaced while it was in use; left as it is",
				ws->path);
	return 0;
}

/* Removes the workspace's directory: its name must still be it. */
static int remove_dir(struct workspace *ws, struct kd_err *err)
{
	if (check_named(ws, err) < 0)
		return -1;
	if (unlinkat(ws->fd, WORKSPACE_STATE, 0) < 0 && errno != ENOENT)
		return kd_error(err, "removing %s/%s: %s", ws->path,
				WORKSPACE_STATE, strerror(errno));
	if (unlinkat(ws->dir_fd, ws->name, AT_REMOVEDIR) < 0)
		return kd_error(err, "removing %s: %s", ws->path,
				strerror(errno));
	return 0;
}

int workspace_empty(struct workspace *ws, struct kd_err *err)
{
	int lock, ret = 0;

	if (ws->cgroup) {
		ret = cgroup_remove(ws->cgroup, err);
		ws->cgroup = NULL;
	}
	lock = ret < 0 ? -1 : lock_work_dir(ws->dir_fd, F_RDLCK, err);
	if (lock < 0)
		ret = -1;
	if (!ret)
		ret = remove_contents(ws, err);
	if (!ret)
		ret = check_named(ws, err);
	if (lock >= 0)
		close(lock);
	return ret;
}

int workspace_remove(struct workspace *ws, struct kd_err *err)
{
	int lock, ret = workspace_empty(ws, err);

	lock = ret < 0 ? -1 : lock_work_dir(ws->dir_fd, F_RDLCK, err);
	if (lock < 0)
		ret = -1;
	if (!ret)
		ret = remove_dir(ws, err);
	if (lock >= 0)
		close(lock);
	workspace_release(ws);
	return ret;
}

char *workspace_state_value(const char *state, const char *key)
{
	size_t len = strlen(key);

	for (const char *line = state; *line;
	     line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != '\0')) {
		if (!strncmp(line, key, len) && line[len] == ':' &&
		    line[len + 1] == ' ')
			return xstrndup(line + len + 2,
					strcspn(line + len + 2, "\n"));
	}
	return NULL;
}

static void read_state(int fd, struct strbuf *out)
{
	char buf[4096];
	ssize_t n;
	off_t at = 0;

	while ((n = pread(fd, buf, sizeof(buf), at)) > 0) {
		strbuf_add(out, buf, (size_t)n);
		at += n;
	}
}

/*
 * The recorded cgroup, when it is the workspace's: its last component is
 * the workspace's name.
 */
static int recover_cgroup(struct workspace *ws, const char *state,
			  struct strbuf *said, struct kd_err *err)
{
	char *path = workspace_state_value(state, "cgroup");
	const char *base = path ? strrchr(path, '/') : NULL;
	size_t killed = 0;
	int missing, ret = 0;

	if (!base || strcmp(base + 1, ws->name)) {
		free(path);
		return 0;
	}
	if (cgroup_open(path, &ws->cgroup, &missing, err) < 0)
		ret = missing ? 0 : -1;
	else if (cgroup_kill(ws->cgroup, &killed, err) < 0)
		ret = -1;
	else if (killed)
		strbuf_addf(said, ", killed %zu process%s", killed,
			    killed == 1 ? "" : "es");
	free(path);
	return ret;
}

/* One workspace that no living kdelta holds: undo, remove, say so. */
static int clean_workspace(const struct work_dir *wd, const char *name,
			   workspace_recover_fn *recover, struct strbuf *said,
			   struct kd_err *err)
{
	struct strbuf state = STRBUF_INIT, done = STRBUF_INIT;
	char *path = xasprintf("%s/%s", wd->path, name), *pid = NULL;
	struct workspace ws;
	int ret = 0;

	workspace_init(&ws, wd);
	ws.name = xstrdup(name);
	ws.path = xstrdup(path);
	ws.fd = openat(wd->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				     O_CLOEXEC);
	if (ws.fd >= 0)
		ws.state_fd = openat(ws.fd, WORKSPACE_STATE, O_RDWR | O_CLOEXEC);
	if (ws.fd < 0 || (ws.state_fd >= 0 &&
			  lock_file(ws.state_fd, F_WRLCK, false) < 0)) {
		workspace_release(&ws);		/* not a directory, or alive */
		free(path);
		return 0;
	}
	if (ws.state_fd >= 0)
		read_state(ws.state_fd, &state);
	pid = workspace_state_value(state.buf, "pid");
	if (pid && atol(pid) == (long)getpid()) {
		workspace_release(&ws);		/* our own */
		free(pid);
		free(path);
		strbuf_release(&state);
		return 0;
	}
	if (recover_cgroup(&ws, state.buf, &done, err) < 0 ||
	    recover(ws.fd, ws.path, state.buf, pid, &done, err) < 0) {
		ret = kd_error_prefix(err, "%s", ws.path);
		workspace_release(&ws);
	} else if (workspace_remove(&ws, err) < 0) {
		ret = -1;
	} else {
		strbuf_addf(said, "cleaned up what kdelta (pid %s) left: %s%s, removed it\n",
			    pid ? pid : "?", path, done.buf);
	}
	free(path);
	free(pid);
	strbuf_release(&done);
	strbuf_release(&state);
	return ret;
}

int work_dir_clean(const struct work_dir *wd, workspace_recover_fn *recover,
		   struct strbuf *said, struct kd_err *err)
{
	int lock = lock_work_dir(wd->fd, F_WRLCK, err);
	int fd = lock < 0 ? -1 : openat(wd->fd, ".", O_RDONLY | O_DIRECTORY |
							O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *de;
	struct kd_err one;
	int ret = 0;

	if (!d) {
		if (fd >= 0)
			close(fd);
		if (lock >= 0)
			close(lock);
		return lock < 0 ? -1 : kd_error(err, "%s: %s", wd->path,
						strerror(errno));
	}
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, WORKSPACE_PREFIX,
			    strlen(WORKSPACE_PREFIX)))
			continue;
		if (clean_workspace(wd, de->d_name, recover, said, &one) < 0 &&
		    !ret) {
			*err = one;
			ret = -1;
		}
	}
	closedir(d);
	close(lock);
	return ret;
}

int work_dir_prepare(struct work_dir *wd, const char *option,
		     const char *command, workspace_recover_fn *recover,
		     struct strbuf *notes, struct kd_err *err)
{
	char *path = option ? xstrdup(option) : work_dir_default(), *absolute;
	struct strbuf cleaned = STRBUF_INIT;
	struct kd_err clean_err;
	int ret;

	absolute = absolute_path(path);
	free(path);
	path = absolute;
	ret = work_dir_open(wd, path, err);
	free(path);
	if (ret < 0)
		return ret;
	if (work_dir_clean(wd, recover, &cleaned, &clean_err) < 0)
		strbuf_addf(&cleaned, "could not clean up what an earlier kdelta left: %s\n",
			    clean_err.msg);
	for (const char *line = cleaned.buf; *line;) {
		size_t len = strcspn(line, "\n");

		strbuf_addf(notes, "kdelta %s: %.*s\n", command, (int)len, line);
		line += len + (line[len] == '\n');
	}
	strbuf_release(&cleaned);
	return 0;
}

FILE *work_dir_open_log(const struct work_dir *wd, const char *name,
			struct kd_err *err)
{
	char *path = xasprintf("%s/%s", wd->path, name);
	FILE *f = fopen(path, "a");

	if (!f)
		kd_error(err, "%s: %s", path, strerror(errno));
	free(path);
	return f;
}
