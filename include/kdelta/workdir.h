/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_WORKDIR_H
#define KDELTA_WORKDIR_H

#include <stdio.h>

#include "kdelta/err.h"
#include "kdelta/strbuf.h"

/*
 * The work directory of kdelta run and kdelta bisect (src/sys/workdir.c), and
 * the workspaces of the runs in it.
 *
 * The work directory is private: kdelta creates it with mode 0700, or
 * takes an existing one only when it is a directory (not a symbolic link)
 * owned by the user kdelta runs as and closed to everybody else.  It is
 * opened once; everything below it is reached through that descriptor, so
 * that nothing another user does to a path can redirect kdelta.
 *
 * Each run works in a workspace of its own, <work dir>/kdelta-run.<random>.
 * Its state file is locked (fcntl) for as long as the kdelta that made it
 * lives, and records, before each is made, what must be undone: the run's
 * cgroup, its mounts (by mount ID), its loop device (by number and the
 * backing file's device and inode).  A workspace whose state file nobody
 * locks belongs to a kdelta that was killed: work_dir_clean() undoes what
 * it records and removes it.
 */
#define WORK_DIR_ROOT_DEFAULT "/var/lib/kdelta/work"
#define WORKSPACE_PREFIX "kdelta-run."

struct cgroup;

struct work_dir {
	char *path;		/* absolute, for messages and programs */
	int fd;			/* the directory, opened once */
};

/*
 * The default work directory: /var/lib/kdelta/work for root, else
 * ${XDG_CACHE_HOME:-$HOME/.cache}/kdelta/work.  Caller frees.
 */
char *work_dir_default(void);

/*
 * Opens the work directory path (absolute), creating it with mode 0700
 * (missing parents with 0755) if it does not exist.  Refuses one that is a
 * symbolic link or not a directory, that belongs to another user, or that
 * others may enter or write (group or other permission bits): "refusing
 * the work directory /tmp/w: it belongs to uid 65534, not to uid 0; ...".
 */
int work_dir_open(struct work_dir *wd, const char *path, struct kd_err *err);
void work_dir_close(struct work_dir *wd);

/*
 * Undoes what a killed kdelta's workspace records beyond its cgroup, for
 * the layer that made it (the runner: the file system's mounts and loop
 * device, the run to mark interrupted): the workspace's directory, the
 * text of its state file ("key: value" lines, workspace_state_value()),
 * the pid of the kdelta that made it (NULL: not recorded).  Adds what it
 * did to said (", unmounted 2 file systems").  The work directory owns the
 * state file; each record's maker undoes it.
 */
typedef int workspace_recover_fn(int ws_fd, const char *ws_path,
				 const char *state, const char *pid,
				 struct strbuf *said, struct kd_err *err);

/* The value of "key: value" in a workspace's state text, or NULL. */
char *workspace_state_value(const char *state, const char *key);

/*
 * Cleans up after kdelta processes that were killed (SIGKILL): for every
 * workspace of wd that no living kdelta holds, kills the processes left in
 * its cgroup, has recover undo the rest of what it records, and removes
 * it.  Adds one line per workspace to said: "cleaned up what kdelta (pid
 * 123) left: <path>, killed 2 processes, unmounted 2 file systems, removed
 * it".  Returns -1 when one could not be cleaned up entirely (err says
 * why; it stays for the next time), after trying all.
 */
int work_dir_clean(const struct work_dir *wd, workspace_recover_fn *recover,
		   struct strbuf *said, struct kd_err *err);

/*
 * For kdelta run and bisect: opens the work directory option (relative
 * to the current directory; NULL: the default) as work_dir_open() does,
 * then cleans up after killed kdelta processes in it (work_dir_clean(),
 * with recover).
 * Lines for the command to print go to notes, "kdelta <command>: ...":
 * one per workspace cleaned up, or why one could not be.  Returns -1 when
 * the directory was refused, -2 when it could not be created (a write
 * failure).
 */
int work_dir_prepare(struct work_dir *wd, const char *option,
		     const char *command, workspace_recover_fn *recover,
		     struct strbuf *notes, struct kd_err *err);

/*
 * Opens <work dir>/<name> for appending: a log of the command's (bisect's
 * and the robot's runs).  NULL, with err set, when it cannot.
 */
FILE *work_dir_open_log(const struct work_dir *wd, const char *name,
			struct kd_err *err);

struct workspace {
	char *name;		/* "kdelta-run.x1Y2z3a4B5" */
	char *path;		/* for messages and programs */
	int fd;			/* the directory */
	int dir_fd;		/* the work directory's (not owned) */
	int state_fd;		/* the state file, locked */
	struct cgroup *cgroup;	/* NULL: none (no_cgroup says why) */
};

/*
 * Creates a workspace in wd: its directory (mode 0700), its state file,
 * locked, and, where cgroup v2 can be used, its cgroup; where it cannot,
 * ws->cgroup is NULL and no_cgroup (may be NULL) says why.
 */
int workspace_create(const struct work_dir *wd, struct workspace *ws,
		     struct strbuf *no_cgroup, struct kd_err *err);

/*
 * Records "key: value" in the state file, on disk before it returns: call
 * it before making what the record describes.
 */
int workspace_record(struct workspace *ws, struct kd_err *err,
		     const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Kills every process in the workspace's cgroup and waits until they are
 * gone (nothing without a cgroup).
 */
int workspace_kill(struct workspace *ws, struct kd_err *err);

/*
 * Leaves the workspace as it is, for work_dir_clean(): releases its lock
 * and what ws holds.
 */
void workspace_leave(struct workspace *ws);

/*
 * Kills what is left in the cgroup and removes it, then everything in the
 * directory but the state file, never crossing into a file system still
 * mounted in it; fails when the workspace's name is not its directory
 * any more (moved away or replaced while in use).  The workspace stays, locked, with its records: until
 * workspace_remove(), a kill -9 leaves them to work_dir_clean() (the
 * runner empties a run's workspace before it writes the run's stats and
 * its mark, and removes it after, so that a run killed in between is
 * marked by the next start).
 */
int workspace_empty(struct workspace *ws, struct kd_err *err);

/*
 * workspace_empty(), then the directory itself.  On failure what is left
 * stays, with its state file, for work_dir_clean().  Releases ws either
 * way.
 */
int workspace_remove(struct workspace *ws, struct kd_err *err);

#endif
