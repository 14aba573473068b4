// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * The runs the killed kdelta was importing from a guest (kdelta/vm.h
 * records "import: <dir>" before it makes each): what is left of them.
 */
static void remove_imports(const char *state, struct strbuf *said)
{
	size_t removed = 0;

	for (const char *line = state; *line;) {
		size_t len = strcspn(line, "\n");

		if (!strncmp(line, "import: ", 8)) {
			char *dir = xstrndup(line + 8, len - 8);
			const char *base = strrchr(dir, '/');

			if (base && !strncmp(base + 1, STORE_IMPORT_PREFIX,
					     strlen(STORE_IMPORT_PREFIX)) &&
			    is_directory(dir)) {
				store_import_abort(dir);
				removed++;
			}
			free(dir);
		}
		line += len + (line[len] == '\n');
	}
	if (removed)
		strbuf_addf(said, ", removed %zu run%s it was importing", removed,
			    removed == 1 ? "" : "s");
}

int run_workspace_recover(int ws_fd, const char *ws_path, const char *state,
			  const char *pid, struct strbuf *said,
			  struct kd_err *err)
{
	if (fs_recover(ws_fd, ws_path, state, said, err) < 0 ||
	    mark_run(state, pid, said, err) < 0)
		return -1;
	remove_imports(state, said);
	return 0;
}

int run_work_dir_prepare(struct work_dir *wd, const char *option,
			 const char *command, struct strbuf *notes,
			 struct kd_err *err)
{
	return work_dir_prepare(wd, option, command, run_workspace_recover,
				notes, err);
}
