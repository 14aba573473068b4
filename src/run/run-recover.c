// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdlib.h>

#include "kdelta/disk.h"
#include "kdelta/run-recover.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

/*
 * The run the killed kdelta was making (the runner records "run: <dir>"),
 * marked interrupted; "interrupted: <why>" in the records says why when
 * kdelta knew it (the store could not be written: runner.c).
 */
static int mark_run(const char *state, const char *pid, struct strbuf *said,
		    struct kd_err *err)
{
	char *run = workspace_state_value(state, "run");
	char *why = workspace_state_value(state, "interrupted");
	char *how = why ? xasprintf("%s; marked by the next start", why) :
		    xasprintf("kdelta (pid %s) was killed; marked by the next start",
			      pid ? pid : "?");
	bool marked = false;
	int ret = run ? store_mark_interrupted(run, how, &marked, err) : 0;

	if (marked)
		strbuf_addf(said, ", marked run %s interrupted", run);
	free(how);
	free(why);
	free(run);
	return ret;
}

int run_workspace_recover(int ws_fd, const char *ws_path, const char *state,
			  const char *pid, struct strbuf *said,
			  struct kd_err *err)
{
	if (fs_recover(ws_fd, ws_path, state, said, err) < 0)
		return -1;
	return mark_run(state, pid, said, err);
}

int run_work_dir_prepare(struct work_dir *wd, const char *option,
			 const char *command, struct strbuf *notes,
			 struct kd_err *err)
{
	return work_dir_prepare(wd, option, command, run_workspace_recover,
				notes, err);
}
