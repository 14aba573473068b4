/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_CGROUP_H
#define KDELTA_CGROUP_H

#include "kdelta/err.h"
#include "kdelta/strbuf.h"

/*
 * A run's cgroup (cgroup v2, src/sys/cgroup.c): every process a run starts
 * (proc.cgroup) joins it, and so do the processes those start, whatever
 * process group or session they make for themselves; killing the cgroup
 * kills them all.  It is made below the cgroup kdelta itself is in, in the
 * cgroup2 hierarchy wherever it is mounted (/sys/fs/cgroup, or
 * /sys/fs/cgroup/unified on hybrid systems).  Where there is none, or it
 * may not be written (not root, a container), cgroup_create() fails and
 * the caller falls back to process groups.
 */
struct cgroup;

/*
 * The path in the hierarchy of a cgroup "name" below kdelta's own, to be
 * recorded before it is made ("/kdelta-run.x1Y2z3", as /proc/self/cgroup
 * shows paths).  Fails saying why when there is no cgroup v2 here.
 */
int cgroup_child_path(const char *name, char **path, struct kd_err *err);

/*
 * Creates the cgroup at path in the hierarchy.  Fails saying why when
 * cgroup v2 cannot be used here (no cgroup2 file system, no permission).
 */
int cgroup_create(const char *path, struct cgroup **out, struct kd_err *err);

/*
 * Opens an existing cgroup by its path in the hierarchy ("/a/b", as
 * cgroup_path() gives it): the cgroup of a killed kdelta's run.  ENOENT in
 * *missing when it is gone (then -1 without err).
 */
int cgroup_open(const char *path, struct cgroup **out, int *missing,
		struct kd_err *err);

/* Its path in the hierarchy, "/kdelta-run.x1Y2z3" (for the record). */
const char *cgroup_path(const struct cgroup *cg);

/* The descriptor a child writes "0" to, to join it (proc.c). */
int cgroup_procs_fd(const struct cgroup *cg);

/*
 * Kills every process in it (cgroup.kill; on kernels before 5.14 SIGKILL
 * to each process listed until none is left) and waits until it is empty.
 * *killed (may be NULL) is set to the number of processes it found.
 * Fails when it is not empty after a few seconds (a process in
 * uninterruptible sleep), naming what is left.
 */
int cgroup_kill(struct cgroup *cg, size_t *killed, struct kd_err *err);

/* Kills what is left, removes the cgroup and frees cg (NULL: nothing). */
int cgroup_remove(struct cgroup *cg, struct kd_err *err);

/* Frees cg, leaving the cgroup as it is. */
void cgroup_free(struct cgroup *cg);

#endif
