// SPDX-License-Identifier: GPL-2.0
/* One robot at a time on a state and a repository: see kdelta/robot-lock.h. */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "kdelta/git.h"
#include "kdelta/robot-lock.h"
#include "kdelta/util.h"

#define REPO_LOCK_FILE "kdelta-robot.lock"	/* in the git directory */

/* The repository's git directory: a work tree of its own has its own. */
static int repo_lock_path(const struct robot_config *cfg, char **out,
			  struct kd_err *err)
{
	static const char *const args[] = { "rev-parse", "--absolute-git-dir",
					     NULL };
	char *dir = git_line(cfg->repo, args);

	if (!dir)
		return kd_error(err, "%s: cannot find its git directory",
				cfg->repo);
	*out = xasprintf("%s/%s", dir, REPO_LOCK_FILE);
	free(dir);
	return 0;
}

/* 0 taken, 1 busy, -1 error, as robot_lock_take(). */
static int take_one(struct run_lock *lock, const char *path, const char *what,
		    const char *who, struct kd_err *err)
{
	switch (lock_file_try(lock, path, what, who, err)) {
	case RUN_LOCK_TAKEN:
		return 0;
	case RUN_LOCK_BUSY:
		return 1;
	default:
		return -1;
	}
}

int robot_lock_take(const struct robot_config *cfg, struct robot_lock *lock,
		    struct kd_err *err)
{
	char *state = xasprintf("%s.lock", cfg->state), *repo = NULL, date[64];
	time_t now = time(NULL);
	struct tm tm;
	char *config = realpath(cfg->path, NULL), *who;
	int ret;

	lock->state.fd = lock->repo.fd = -1;
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S %z",
		 localtime_r(&now, &tm));
	who = xasprintf("kdelta robot (pid %ld, since %s, config %s)",
			(long)getpid(), date, config ? config : cfg->path);
	/* The repository's first: a refused robot makes no directory. */
	ret = repo_lock_path(cfg, &repo, err);
	if (!ret)
		ret = take_one(&lock->repo, repo, "the lock of the repository",
			       who, err);
	if (!ret)
		ret = take_one(&lock->state, state,
			       "the lock of the robot's state", who, err);
	if (ret)
		robot_lock_release(lock);
	free(who);
	free(config);
	free(repo);
	free(state);
	return ret;
}

void robot_lock_release(struct robot_lock *lock)
{
	run_lock_release(&lock->repo);
	run_lock_release(&lock->state);
}
