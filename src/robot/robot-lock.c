// SPDX-License-Identifier: GPL-2.0
/*
 * One robot at a time on a state and a repository, and the work tree put
 * back after each pass, also after a killed one: see kdelta/robot-lock.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kdelta/git.h"
#include "kdelta/robot-lock.h"
#include "kdelta/util.h"

/* In the git directory. */
#define REPO_LOCK_FILE "kdelta-robot.lock"
#define REPO_HEAD_FILE "kdelta-robot-head"

/* A file in the repository's git directory (a work tree has its own). */
static int git_dir_file(const struct robot_config *cfg, const char *name,
			char **out, struct kd_err *err)
{
	static const char *const args[] = { "rev-parse", "--absolute-git-dir",
					     NULL };
	char *dir = git_line(cfg->repo, args);

	*out = NULL;
	if (!dir)
		return kd_error(err, "%s: cannot find its git directory",
				cfg->repo);
	*out = xasprintf("%s/%s", dir, name);
	free(dir);
	return 0;
}

static int repo_lock_path(const struct robot_config *cfg, char **out,
			  struct kd_err *err)
{
	return git_dir_file(cfg, REPO_LOCK_FILE, out, err);
}

/* An index.lock that a git killed with an earlier robot left. */
static int remove_stale_index_lock(const struct robot_config *cfg,
				   struct strbuf *said, struct kd_err *err)
{
	char *path = NULL;
	struct stat st;
	double age;
	int ret = git_dir_file(cfg, "index.lock", &path, err);

	if (ret < 0)
		return -1;
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    (age = now_epoch() - (double)st.st_mtime) > ROBOT_STALE_INDEX_LOCK) {
		if (unlink(path) < 0 && errno != ENOENT)
			ret = kd_error(err, "removing %s: %s", path,
				       strerror(errno));
		else
			strbuf_addf(said, "removed %s, which a git killed %.0f minutes ago left\n",
				    path, age / 60);
	}
	free(path);
	return ret;
}

int robot_repo_begin(const struct robot_config *cfg, char **head,
		     struct strbuf *said, struct kd_err *err)
{
	struct strbuf saved = STRBUF_INIT;
	struct kd_err ignored;
	char *path = NULL;
	int ret;

	*head = NULL;
	ret = remove_stale_index_lock(cfg, said, err);
	if (!ret)
		ret = git_dir_file(cfg, REPO_HEAD_FILE, &path, err);
	if (!ret && read_file(path, &saved, &ignored) == 0) {
		strbuf_rtrim(&saved);
		if (saved.len) {
			*head = strbuf_detach(&saved);
			strbuf_addf(said, "the pass before did not end: the work tree goes back to %s after this one\n",
				    *head);
		}
	}
	if (!ret && !*head && (*head = git_head(cfg->repo))) {
		strbuf_reset(&saved);
		strbuf_addf(&saved, "%s\n", *head);
		ret = write_file_atomic(path, saved.buf, saved.len, err);
	}
	strbuf_release(&saved);
	free(path);
	return ret;
}

int robot_repo_end(const struct robot_config *cfg, const char *head,
		   struct kd_err *err)
{
	char *path = NULL;

	if (git_checkout(cfg->repo, head, err) < 0 ||
	    git_dir_file(cfg, REPO_HEAD_FILE, &path, err) < 0)
		return -1;
	if (unlink(path) < 0 && errno != ENOENT) {
		kd_error(err, "removing %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	free(path);
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
