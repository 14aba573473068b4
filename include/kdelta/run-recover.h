/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_RUN_RECOVER_H
#define KDELTA_RUN_RECOVER_H

#include "kdelta/strbuf.h"
#include "kdelta/workdir.h"

/*
 * What a killed kdelta left of a run, undone by the next start: the work
 * directory kills what is left in the workspace's cgroup; this undoes the
 * rest of what the runner recorded there -- the file system (its mounts
 * and loop device, fs_recover()) and the run it was making, marked
 * interrupted (store_mark_interrupted(): kdelta's death is not the
 * commit's doing).  A workspace_recover_fn.
 */
int run_workspace_recover(int ws_fd, const char *ws_path, const char *state,
			  const char *pid, struct strbuf *said,
			  struct kd_err *err);

/* work_dir_prepare() for the commands that run jobs: run, bisect, robot. */
int run_work_dir_prepare(struct work_dir *wd, const char *option,
			 const char *command, struct strbuf *notes,
			 struct kd_err *err);

#endif
