// SPDX-License-Identifier: GPL-2.0
/*
 * compare-bench: how long 'kdelta compare' takes, and how that grows with
 * the number of commits and of metrics.
 *
 *	compare-bench [KDELTA]		(default: ./kdelta, from the build dir)
 *
 * Writes stores of N commits x 10 runs x M metrics (a few workload
 * results, the rest monitor counters with noise) into a temporary
 * directory, runs the real binary on each (best of 5, output to
 * /dev/null), and prints one line per size with the time per
 * commit-metric, so that linear growth shows as a constant last column.
 * Goal: under 100 ms for 3 commits x 5,000 metrics.
 */
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <zlib.h>

#include "kdelta/util.h"

#define RUNS 10
#define KEY_METRICS 5
#define REPEAT 5

extern char **environ;

static const char *const sources[] = {
	"proc-vmstat", "slabinfo", "meminfo", "latency_stats", "vmstat",
};

/* A sample: mean scaled by the metric, 2% noise, reproducible. */
static double sample(unsigned *seed, size_t metric)
{
	double mean = 1000.0 * (double)(metric % 97 + 1);

	return mean * (1 + 0.02 * ((double)rand_r(seed) / RAND_MAX - 0.5));
}

static void metric_name(size_t i, char *buf, size_t size)
{
	if (i < KEY_METRICS)
		snprintf(buf, size, "bench.ops_per_sec_%zu", i);
	else
		snprintf(buf, size, "%s.counter_%zu",
			 sources[i % ARRAY_SIZE(sources)], i);
}

static int write_matrix(const char *dir, size_t metrics, unsigned seed)
{
	char *path = xasprintf("%s/matrix.json.gz", dir), name[64];
	gzFile gz = gzopen(path, "wb1");

	free(path);
	if (!gz)
		return -1;
	gzputs(gz, "{");
	for (size_t i = 0; i < metrics; i++) {
		metric_name(i, name, sizeof(name));
		gzprintf(gz, "\"%s\": [", name);
		for (int r = 0; r < RUNS; r++)
			gzprintf(gz, "%s%.2f", r ? ", " : "", sample(&seed, i));
		gzputs(gz, "], ");
	}
	gzputs(gz, "\"stats_source\": [");
	for (int r = 0; r < RUNS; r++)
		gzprintf(gz, "%s\"%s/%d/stats.json\"", r ? ", " : "", dir, r);
	gzputs(gz, "]}\n");
	return gzclose(gz) == Z_OK ? 0 : -1;
}

/* root/bench/p/host/cN: runs marked complete, a job, the matrix. */
static int write_commit(const char *root, size_t commit, size_t metrics)
{
	char *dir = xasprintf("%s/bench/p/host/c%zu", root, commit);
	struct kd_err err;
	int ret = 0;

	for (int r = 0; r < RUNS && !ret; r++) {
		char *run = xasprintf("%s/%d", dir, r);
		char *complete = xasprintf("%s/complete", run);
		char *job = xasprintf("%s/job.yaml", run);
		static const char job_text[] = "testcase: bench\nbench:\n  x: 1\n";

		ret = mkdir_p(run, &err);
		if (!ret)
			ret = write_file_atomic(complete, "ok\n", 3, &err);
		if (!ret)
			ret = write_file_atomic(job, job_text, sizeof(job_text) - 1,
						&err);
		free(run);
		free(complete);
		free(job);
	}
	if (!ret)
		ret = write_matrix(dir, metrics, (unsigned)commit + 1);
	if (ret)
		fprintf(stderr, "compare-bench: cannot write %s\n", dir);
	free(dir);
	return ret;
}

/* Seconds of one 'kdelta compare c0 c1 ...', or a negative on failure. */
static double time_compare(const char *kdelta, const char *root,
			   size_t commits)
{
	char **argv = xcalloc(commits + 5, sizeof(*argv));
	posix_spawn_file_actions_t actions;
	double start, elapsed = -1;
	int status;
	pid_t pid;

	argv[0] = (char *)kdelta;
	argv[1] = "compare";
	argv[2] = xasprintf("--result-root=%s", root);
	for (size_t c = 0; c < commits; c++)
		argv[3 + c] = xasprintf("c%zu", c);
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
	start = now_monotonic();
	if (!posix_spawn(&pid, kdelta, &actions, NULL, argv, environ) &&
	    waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0)
		elapsed = now_monotonic() - start;
	posix_spawn_file_actions_destroy(&actions);
	for (size_t c = 2; c < commits + 3; c++)
		free(argv[c]);
	free(argv);
	return elapsed;
}

static double best_of(const char *kdelta, const char *root, size_t commits)
{
	double best = -1;

	for (int i = 0; i < REPEAT; i++) {
		double t = time_compare(kdelta, root, commits);

		if (t < 0)
			return -1;
		if (best < 0 || t < best)
			best = t;
	}
	return best;
}

static int measure(const char *kdelta, const char *tmp, size_t commits,
		   size_t metrics, double *base_per_cell)
{
	char *root = xasprintf("%s/r-%zu-%zu", tmp, commits, metrics);
	double t, per_cell;
	int ret = 0;

	for (size_t c = 0; c < commits && !ret; c++)
		ret = write_commit(root, c, metrics);
	t = ret ? -1 : best_of(kdelta, root, commits);
	free(root);
	if (t < 0) {
		fprintf(stderr, "compare-bench: kdelta compare failed at %zu x %zu\n",
			commits, metrics);
		return -1;
	}
	per_cell = t / (double)(commits * metrics);
	if (*base_per_cell == 0)
		*base_per_cell = per_cell;
	printf("%7zu %8zu %10.1f %12.3f %8.2f\n", commits, metrics, t * 1e3,
	       per_cell * 1e6, per_cell / *base_per_cell);
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
	static const size_t sizes[][2] = {
		{ 3, 5000 }, { 10, 5000 }, { 30, 5000 },
		{ 3, 20000 }, { 3, 50000 }, { 30, 50000 },
	};
	const char *kdelta = argc > 1 ? argv[1] : "./kdelta";
	char tmp[] = "/tmp/kdelta-bench.XXXXXX";
	double base = 0;
	int ret = 0;

	if (access(kdelta, X_OK) || !mkdtemp(tmp)) {
		fprintf(stderr, "usage: compare-bench [path/to/kdelta]\n");
		return 2;
	}
	printf("kdelta compare, %d runs per commit, best of %d\n", RUNS, REPEAT);
	printf("commits  metrics    time/ms  us/(commit*metric)  ratio\n");
	for (size_t i = 0; i < ARRAY_SIZE(sizes) && !ret; i++)
		ret = measure(kdelta, tmp, sizes[i][0], sizes[i][1], &base);
	if (nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS))
		fprintf(stderr, "compare-bench: could not remove %s\n", tmp);
	return ret ? 1 : 0;
}
