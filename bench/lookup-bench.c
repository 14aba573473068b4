// SPDX-License-Identifier: GPL-2.0
/*
 * lookup-bench: how long 'kdelta compare c00010 c00011' takes to find its
 * two labels in a store of 1,000, 10,000 and 100,000 commit directories
 * (10 jobs, 3 runs each), through the store's index and by a walk of the
 * whole root.
 *
 *	lookup-bench [--cold] [KDELTA]	(default: ./kdelta, from the build dir)
 *
 * For each size, in a temporary directory: the first compare (which
 * builds the index), the compare with the index up to date (best of 5),
 * the compare right after a new commit directory appeared in one job
 * (that job's directory is read again; best of 3), and the compare with
 * no index (the root walked; best of 3).  Lookup time should not grow with
 * the store; the walk's does.  --cold drops the page cache before each
 * timed compare (as root; it slows the whole machine down: on a quiet
 * machine only).
 */
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kdelta/util.h"

#define JOBS 10
#define RUNS 3
/* The index trusts a directory's stamp once it is this old. */
#define SETTLE_SECONDS 4

extern char **environ;

static bool cold;

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* root/bench/p<job>/host/c<commit>/<run>/{complete,stats.json} */
static int write_commit(const char *root, size_t job, size_t commit)
{
	char path[4096];
	int ret = 0;

	for (int r = 0; r < RUNS && !ret; r++) {
		int n = snprintf(path, sizeof(path), "%s/bench/p%zu/host/c%05zu/%d",
				 root, job, commit, r);
		struct kd_err err;

		ret = mkdir_p(path, &err);
		snprintf(path + n, sizeof(path) - (size_t)n, "/complete");
		if (!ret)
			ret = write_text(path, "ok\n");
		snprintf(path + n, sizeof(path) - (size_t)n, "/stats.json");
		if (!ret)
			ret = write_text(path, r ? "{\"bench.ops\": 101}\n"
						 : "{\"bench.ops\": 100}\n");
	}
	return ret;
}

static void drop_caches(void)
{
	sync();
	if (write_text("/proc/sys/vm/drop_caches", "3\n") < 0)
		fprintf(stderr, "lookup-bench: --cold: cannot drop the page cache (not root?)\n");
}

/* Seconds of one 'kdelta compare c00010 c00011', or a negative. */
static double time_compare(const char *kdelta, const char *root)
{
	char *root_option = xasprintf("--result-root=%s", root);
	char *argv[] = { (char *)kdelta, "compare", root_option, "c00010",
			 "c00011", NULL };
	posix_spawn_file_actions_t actions;
	double start, elapsed = -1;
	int status;
	pid_t pid;

	if (cold)
		drop_caches();
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
	start = now_monotonic();
	if (!posix_spawn(&pid, kdelta, &actions, NULL, argv, environ) &&
	    waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0)
		elapsed = now_monotonic() - start;
	posix_spawn_file_actions_destroy(&actions);
	free(root_option);
	return elapsed;
}

static double best_of(const char *kdelta, const char *root, int n)
{
	double best = -1;

	for (int i = 0; i < n; i++) {
		double t = time_compare(kdelta, root);

		if (t < 0)
			return -1;
		if (best < 0 || t < best)
			best = t;
	}
	return best;
}

/* Best of n compares, each right after a new commit directory. */
static double after_new_commit(const char *kdelta, const char *root,
			       size_t *next, int n)
{
	double best = -1;

	for (int i = 0; i < n; i++) {
		double t;

		if (write_commit(root, 0, (*next)++) < 0)
			return -1;
		t = time_compare(kdelta, root);
		if (t < 0)
			return -1;
		if (best < 0 || t < best)
			best = t;
	}
	return best;
}

/* With the index made impossible (a file where its directory goes). */
static double walked(const char *kdelta, const char *root)
{
	char *dir = xasprintf("%s/.kdelta", root);
	char *aside = xasprintf("%s/.kdelta-aside", root);
	double t = -1;

	if (!rename(dir, aside) && !write_text(dir, "")) {
		t = best_of(kdelta, root, 3);
		unlink(dir);
		if (rename(aside, dir) < 0)
			t = -1;
	}
	free(dir);
	free(aside);
	return t;
}

static int measure(const char *kdelta, const char *tmp, size_t commits)
{
	char *root = xasprintf("%s/r-%zu", tmp, commits);
	size_t per_job = commits / JOBS, next = per_job;
	double start = now_monotonic(), first, lookup, fresh, walk;
	int ret = 0;

	for (size_t j = 0; j < JOBS && !ret; j++)
		for (size_t c = 0; c < per_job && !ret; c++)
			ret = write_commit(root, j, c);
	if (ret) {
		fprintf(stderr, "lookup-bench: cannot write %s\n", root);
		free(root);
		return -1;
	}
	/* Stamps younger than a few seconds are read again: let them age. */
	while (now_monotonic() - start < SETTLE_SECONDS)
		sleep(1);
	first = time_compare(kdelta, root);
	lookup = best_of(kdelta, root, 5);
	fresh = after_new_commit(kdelta, root, &next, 3);
	walk = walked(kdelta, root);
	free(root);
	if (first < 0 || lookup < 0 || fresh < 0 || walk < 0) {
		fprintf(stderr, "lookup-bench: kdelta compare failed at %zu commit directories\n",
			commits);
		return -1;
	}
	printf("%9zu %10.1f %10.1f %10.1f %10.1f %8.1f\n", commits,
	       first * 1e3, lookup * 1e3, fresh * 1e3, walk * 1e3,
	       walk / lookup);
	fflush(stdout);
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 1000, 10000, 100000 };
	const char *kdelta = "./kdelta";
	char tmp[] = "/tmp/kdelta-lookup-bench.XXXXXX";
	int ret = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cold"))
			cold = true;
		else
			kdelta = argv[i];
	}
	if (access(kdelta, X_OK) || !mkdtemp(tmp)) {
		fprintf(stderr, "usage: lookup-bench [--cold] [path/to/kdelta]\n");
		return 2;
	}
	printf("kdelta compare c00010 c00011: %d jobs, %d runs per commit%s\n",
	       JOBS, RUNS, cold ? ", page cache dropped before each" : "");
	printf("%9s %10s %10s %10s %10s %8s\n", "commits", "build/ms",
	       "lookup/ms", "new/ms", "walk/ms", "walk/lk");
	for (size_t i = 0; i < ARRAY_SIZE(sizes) && !ret; i++)
		ret = measure(kdelta, tmp, sizes[i]);
	if (nftw(tmp, remove_entry, 64, FTW_DEPTH | FTW_PHYS))
		fprintf(stderr, "lookup-bench: could not remove %s\n", tmp);
	return ret ? 1 : 0;
}
