// SPDX-License-Identifier: GPL-2.0
/*
 * A run's cgroup, cgroup v2: see kdelta/cgroup.h and the kernel's
 * Documentation/admin-guide/cgroup-v2.rst.  No controller is enabled: the
 * cgroup only holds the run's processes, so that they can be killed all at
 * once and found again after kdelta itself was killed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kdelta/cgroup.h"
#include "kdelta/mount.h"
#include "kdelta/util.h"

/* How long cgroup_kill() waits for the killed processes to go. */
#define CGROUP_KILL_WAIT 5.0
/* Processes named in the error of a cgroup that does not empty. */
#define CGROUP_SHOWN_PIDS 5

struct cgroup {
	char *path;		/* in the hierarchy: "/kdelta-run.x1Y2z3" */
	char *dir;		/* in the file system */
	int dir_fd;
	int procs_fd;		/* cgroup.procs, for writing */
};

/* kdelta's own cgroup in the v2 hierarchy: "0::<path>" of /proc/self/cgroup. */
static int own_cgroup(struct strbuf *out, struct kd_err *err)
{
	struct strbuf text = STRBUF_INIT;
	char *line, *save = NULL;

	if (read_file("/proc/self/cgroup", &text, err) < 0)
		return -1;
	for (line = strtok_r(text.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "0::", 3))
			continue;
		strbuf_addstr(out, line + 3);
		break;
	}
	strbuf_release(&text);
	if (!out->len || out->buf[0] != '/')
		return kd_error(err, "no cgroup v2 in /proc/self/cgroup");
	return 0;
}

/* The directory of the cgroup at path in the hierarchy. */
static char *cgroup_dir(const char *path, struct kd_err *err)
{
	struct strbuf mount_point = STRBUF_INIT;
	char *dir;

	if (mount_find_type("cgroup2", &mount_point, err) < 0) {
		strbuf_release(&mount_point);
		return NULL;
	}
	dir = xasprintf("%s%s", mount_point.buf, path);
	strbuf_release(&mount_point);
	return dir;
}

static struct cgroup *cgroup_new(const char *path, char *dir)
{
	struct cgroup *cg = xcalloc(1, sizeof(*cg));

	cg->path = xstrdup(path);
	cg->dir = dir;
	cg->dir_fd = cg->procs_fd = -1;
	return cg;
}

static int cgroup_open_fds(struct cgroup *cg, struct kd_err *err)
{
	cg->dir_fd = open(cg->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				   O_CLOEXEC);
	if (cg->dir_fd < 0)
		return kd_error(err, "%s: %s", cg->dir, strerror(errno));
	cg->procs_fd = openat(cg->dir_fd, "cgroup.procs", O_WRONLY | O_CLOEXEC);
	if (cg->procs_fd < 0)
		return kd_error(err, "%s/cgroup.procs: %s", cg->dir,
				strerror(errno));
	return 0;
}

int cgroup_child_path(const char *name, char **path, struct kd_err *err)
{
	struct strbuf own = STRBUF_INIT;

	*path = NULL;
	if (own_cgroup(&own, err) < 0) {
		strbuf_release(&own);
		return -1;
	}
	if (own.len > 1)
		strbuf_addch(&own, '/');
	strbuf_addstr(&own, name);
	*path = strbuf_detach(&own);
	return 0;
}

int cgroup_create(const char *path, struct cgroup **out, struct kd_err *err)
{
	char *dir = cgroup_dir(path, err);
	struct cgroup *cg;

	*out = NULL;
	if (!dir)
		return -1;
	if (mkdir(dir, 0755) < 0) {
		kd_error(err, "cannot create the cgroup %s: %s", dir,
			 strerror(errno));
		free(dir);
		return -1;
	}
	cg = cgroup_new(path, dir);
	if (cgroup_open_fds(cg, err) < 0) {
		rmdir(cg->dir);
		cgroup_free(cg);
		return -1;
	}
	*out = cg;
	return 0;
}

int cgroup_open(const char *path, struct cgroup **out, int *missing,
		struct kd_err *err)
{
	char *dir = cgroup_dir(path, err);
	struct cgroup *cg;

	*out = NULL;
	*missing = 0;
	if (!dir)
		return -1;
	cg = cgroup_new(path, dir);
	if (cgroup_open_fds(cg, err) < 0) {
		if (access(cg->dir, F_OK) < 0 && errno == ENOENT)
			*missing = ENOENT;
		cgroup_free(cg);
		return -1;
	}
	*out = cg;
	return 0;
}

const char *cgroup_path(const struct cgroup *cg)
{
	return cg->path;
}

int cgroup_procs_fd(const struct cgroup *cg)
{
	return cg->procs_fd;
}

/* The pids in cgroup.procs; -1 when it cannot be read. */
static int read_pids(const struct cgroup *cg, pid_t **pids, size_t *n)
{
	struct strbuf text = STRBUF_INIT;
	char *path = xasprintf("%s/cgroup.procs", cg->dir);
	char *line, *save = NULL;
	size_t alloc = 0;
	int ret = read_file(path, &text, NULL);

	*pids = NULL;
	*n = 0;
	for (line = ret ? NULL : strtok_r(text.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		ALLOC_GROW(*pids, *n + 1, alloc);
		(*pids)[(*n)++] = (pid_t)atol(line);
	}
	strbuf_release(&text);
	free(path);
	return ret;
}

/* SIGKILL to each process listed; how many there were. */
static size_t kill_listed(const struct cgroup *cg)
{
	pid_t *pids;
	size_t n;

	if (read_pids(cg, &pids, &n) < 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	free(pids);
	return n;
}

/* "populated 0" in cgroup.events: nothing in it or below it any more. */
static bool cgroup_empty(int events_fd)
{
	char buf[256];
	ssize_t n = pread(events_fd, buf, sizeof(buf) - 1, 0);
	const char *p;

	if (n <= 0)
		return false;
	buf[n] = '\0';
	p = strstr(buf, "populated ");
	return p && p[strlen("populated ")] == '0';
}

/* "pid 123 (sleep), pid 124 (sh)" for what is left. */
static void describe_left(const struct cgroup *cg, struct strbuf *out)
{
	pid_t *pids;
	size_t n;

	if (read_pids(cg, &pids, &n) < 0)
		return;
	for (size_t i = 0; i < n && i < CGROUP_SHOWN_PIDS; i++) {
		struct strbuf comm = STRBUF_INIT;
		char *path = xasprintf("/proc/%ld/comm", (long)pids[i]);

		if (read_file(path, &comm, NULL) == 0)
			strbuf_rtrim(&comm);
		strbuf_addf(out, "%spid %ld (%s)", i ? ", " : "",
			    (long)pids[i], comm.len ? comm.buf : "?");
		strbuf_release(&comm);
		free(path);
	}
	if (n > CGROUP_SHOWN_PIDS)
		strbuf_addf(out, " and %zu more", n - CGROUP_SHOWN_PIDS);
	free(pids);
}

/* Waits until the cgroup is empty, killing again without cgroup.kill. */
static int wait_empty(const struct cgroup *cg, bool again,
		      struct kd_err *err)
{
	int fd = openat(cg->dir_fd, "cgroup.events", O_RDONLY | O_CLOEXEC);
	double deadline = now_monotonic() + CGROUP_KILL_WAIT;
	struct strbuf left = STRBUF_INIT;

	if (fd < 0)
		return kd_error(err, "%s/cgroup.events: %s", cg->dir,
				strerror(errno));
	while (!cgroup_empty(fd) && now_monotonic() < deadline) {
		struct pollfd pfd = { .fd = fd, .events = POLLPRI };

		if (again)
			kill_listed(cg);
		/* The file signals a change; the timeout is for safety. */
		poll(&pfd, 1, 50);
	}
	if (cgroup_empty(fd)) {
		close(fd);
		return 0;
	}
	close(fd);
	describe_left(cg, &left);
	kd_error(err, "cgroup %s: processes still there %.0fs after SIGKILL: %s",
		 cg->dir, CGROUP_KILL_WAIT, left.len ? left.buf : "?");
	strbuf_release(&left);
	return -1;
}

int cgroup_kill(struct cgroup *cg, size_t *killed, struct kd_err *err)
{
	int fd = openat(cg->dir_fd, "cgroup.kill", O_WRONLY | O_CLOEXEC);
	pid_t *pids;
	size_t n = 0;
	bool fallback = fd < 0 && errno == ENOENT;

	if (read_pids(cg, &pids, &n) == 0)
		free(pids);
	if (killed)
		*killed = n;
	if (fd < 0 && !fallback)
		return kd_error(err, "%s/cgroup.kill: %s", cg->dir,
				strerror(errno));
	if (fd >= 0) {
		ssize_t w = write(fd, "1", 1);
		int e = errno;

		close(fd);
		if (w != 1)
			return kd_error(err, "%s/cgroup.kill: %s", cg->dir,
					strerror(e));
	}
	return wait_empty(cg, fallback, err);
}

int cgroup_remove(struct cgroup *cg, struct kd_err *err)
{
	int ret = 0;

	if (!cg)
		return 0;
	if (cgroup_kill(cg, NULL, err) < 0)
		ret = -1;
	else if (rmdir(cg->dir) < 0 && errno != ENOENT)
		ret = kd_error(err, "cannot remove the cgroup %s: %s", cg->dir,
			       strerror(errno));
	cgroup_free(cg);
	return ret;
}

void cgroup_free(struct cgroup *cg)
{
	if (!cg)
		return;
	if (cg->dir_fd >= 0)
		close(cg->dir_fd);
	if (cg->procs_fd >= 0)
		close(cg->procs_fd);
	free(cg->path);
	free(cg->dir);
	free(cg);
}
