// SPDX-License-Identifier: GPL-2.0
/*
 * compare-bench: how long 'kdelta compare' takes, how that grows with the
 * number of commits and of metrics, and how it stands against zcat
 * inflating the same matrices.
 *
 *	compare-bench [KDELTA [COMMITS METRICS]]
 *
 * KDELTA defaults to ./kdelta (from the build dir); COMMITS and METRICS
 * measure that one size instead of the list.
 *
 * Writes stores of N commits x 10 runs x M metrics (a few workload
 * results, the rest monitor counters with noise) into a temporary
 * directory, and for each size runs, side by side, the real binary
 * (compare of every commit, output to /dev/null) and zcat of the same
 * matrix.json.gz files, best of 5 each.  One line per size: the times,
 * their ratio, the time per commit-metric (linear growth shows as a
 * constant), and kdelta's peak memory (maximum RSS, less that of a compare
 * of a tiny store: the libraries) against the size of the inflated input.
 * Goals (issue 12): 3 commits x 5,000 metrics within 30 ms and within 3x
 * zcat; linear to 30 x 50,000; memory within 2x the inflated input.
 */
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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

/* Writes dir/matrix.json.gz; adds its inflated size to *bytes. */
static int write_matrix(const char *dir, size_t metrics, unsigned seed,
			size_t *bytes)
{
	char *path = xasprintf("%s/matrix.json.gz", dir), name[64];
	gzFile gz = gzopen(path, "wb1");
	int n;

	free(path);
	if (!gz)
		return -1;
	*bytes += (size_t)gzprintf(gz, "{");
	for (size_t i = 0; i < metrics; i++) {
		metric_name(i, name, sizeof(name));
		*bytes += (size_t)gzprintf(gz, "\"%s\": [", name);
		for (int r = 0; r < RUNS; r++)
			*bytes += (size_t)gzprintf(gz, "%s%.2f", r ? ", " : "",
						   sample(&seed, i));
		*bytes += (size_t)gzprintf(gz, "], ");
	}
	*bytes += (size_t)gzprintf(gz, "\"stats_source\": [");
	for (int r = 0; r < RUNS; r++)
		*bytes += (size_t)gzprintf(gz, "%s\"%s/%d/stats.json\"",
					   r ? ", " : "", dir, r);
	n = gzprintf(gz, "]}\n");
	*bytes += n > 0 ? (size_t)n : 0;
	return gzclose(gz) == Z_OK ? 0 : -1;
}

/* root/bench/p/host/cN: runs marked complete, a job, the matrix. */
static int write_commit(const char *root, size_t commit, size_t metrics,
			size_t *bytes)
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
		ret = write_matrix(dir, metrics, (unsigned)commit + 1, bytes);
	if (ret)
		fprintf(stderr, "compare-bench: cannot write %s\n", dir);
	free(dir);
	return ret;
}

/*
 * Seconds of one run of argv (stdout to /dev/null), or a negative on
 * failure; *maxrss_kb its peak memory.
 */
static double time_command(char **argv, long *maxrss_kb)
{
	posix_spawn_file_actions_t actions;
	double start, elapsed = -1;
	struct rusage ru;
	int status;
	pid_t pid;

	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
	start = now_monotonic();
	if (!posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ) &&
	    wait4(pid, &status, 0, &ru) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0) {
		elapsed = now_monotonic() - start;
		*maxrss_kb = ru.ru_maxrss;
	}
	posix_spawn_file_actions_destroy(&actions);
	return elapsed;
}

/* Best time of REPEAT runs, and the largest peak memory. */
static double best_of(char **argv, long *maxrss_kb)
{
	double best = -1;

	*maxrss_kb = 0;
	for (int i = 0; i < REPEAT; i++) {
		long rss = 0;
		double t = time_command(argv, &rss);

		if (t < 0)
			return -1;
		if (best < 0 || t < best)
			best = t;
		if (rss > *maxrss_kb)
			*maxrss_kb = rss;
	}
	return best;
}

/* kdelta compare --result-root=root c0 c1 ... c<commits-1> */
static char **compare_argv(const char *kdelta, const char *root,
			   size_t commits)
{
	char **argv = xcalloc(commits + 5, sizeof(*argv));

	argv[0] = xstrdup(kdelta);
	argv[1] = xstrdup("compare");
	argv[2] = xasprintf("--result-root=%s", root);
	for (size_t c = 0; c < commits; c++)
		argv[3 + c] = xasprintf("c%zu", c);
	return argv;
}

/* zcat root/bench/p/host/c<i>/matrix.json.gz ... */
static char **zcat_argv(const char *root, size_t commits)
{
	char **argv = xcalloc(commits + 2, sizeof(*argv));

	argv[0] = xstrdup("zcat");
	for (size_t c = 0; c < commits; c++)
		argv[1 + c] = xasprintf("%s/bench/p/host/c%zu/matrix.json.gz",
					root, c);
	return argv;
}

static void free_argv(char **argv)
{
	for (size_t i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

struct size {
	size_t commits, metrics;
};

/* The peak memory of a compare of 2 commits x 10 metrics: libraries. */
static int baseline_rss(const char *kdelta, const char *tmp, long *kb)
{
	char *root = xasprintf("%s/baseline", tmp);
	size_t bytes = 0;
	char **argv = compare_argv(kdelta, root, 2);
	int ret = write_commit(root, 0, 10, &bytes) ||
		  write_commit(root, 1, 10, &bytes) ||
		  best_of(argv, kb) < 0 ? -1 : 0;

	free_argv(argv);
	free(root);
	return ret;
}

static int measure(const char *kdelta, const char *tmp, struct size s,
		   long base_kb, double *base_per_cell)
{
	char *root = xasprintf("%s/r-%zu-%zu", tmp, s.commits, s.metrics);
	char **cmp = compare_argv(kdelta, root, s.commits);
	char **zcat = zcat_argv(root, s.commits);
	size_t bytes = 0;
	double t = -1, tz = -1, per_cell;
	long rss = 0, zrss = 0;
	int ret = 0;

	for (size_t c = 0; c < s.commits && !ret; c++)
		ret = write_commit(root, c, s.metrics, &bytes);
	if (!ret) {
		/* Side by side: the machine's drift falls on both alike. */
		t = best_of(cmp, &rss);
		tz = best_of(zcat, &zrss);
	}
	free_argv(cmp);
	free_argv(zcat);
	free(root);
	if (t < 0 || tz < 0) {
		fprintf(stderr, "compare-bench: kdelta compare or zcat failed at %zu x %zu\n",
			s.commits, s.metrics);
		return -1;
	}
	per_cell = t / (double)(s.commits * s.metrics);
	if (*base_per_cell == 0)
		*base_per_cell = per_cell;
	printf("%7zu %8zu %9.1f %9.1f %6.2f %9.3f %6.2f %9.1f %9.1f %6.2f\n",
	       s.commits, s.metrics, t * 1e3, tz * 1e3, t / tz, per_cell * 1e6,
	       per_cell / *base_per_cell, (double)(rss - base_kb) / 1024,
	       (double)bytes / (1 << 20),
	       (double)(rss - base_kb) * 1024 / (double)bytes);
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
	static const struct size sizes[] = {
		{ 3, 5000 }, { 10, 5000 }, { 30, 5000 },
		{ 3, 20000 }, { 3, 50000 }, { 30, 50000 },
	};
	const char *kdelta = argc > 1 ? argv[1] : "./kdelta";
	const struct size *list = sizes;
	size_t nsizes = ARRAY_SIZE(sizes);
	struct size one;
	char tmp[] = "/tmp/kdelta-bench.XXXXXX", *end1, *end2;
	double base = 0;
	long base_kb = 0;
	int ret = 0;

	if (argc == 4) {
		one.commits = strtoul(argv[2], &end1, 10);
		one.metrics = strtoul(argv[3], &end2, 10);
		list = &one;
		nsizes = 1;
	}
	if (argc == 3 || argc > 4 || access(kdelta, X_OK) ||
	    (argc == 4 && (*end1 || *end2 || one.commits < 2 ||
			   one.metrics < 1)) ||
	    !mkdtemp(tmp)) {
		fprintf(stderr, "usage: compare-bench [path/to/kdelta [COMMITS METRICS]]  (COMMITS >= 2)\n");
		return 2;
	}
	if (baseline_rss(kdelta, tmp, &base_kb) < 0) {
		fprintf(stderr, "compare-bench: kdelta compare failed on a tiny store\n");
		ret = 1;
	}
	printf("kdelta compare vs zcat of the same matrices, %d runs per commit, best of %d\n",
	       RUNS, REPEAT);
	printf("memory: peak RSS less %.1f MB (a compare of a tiny store), against the inflated matrices\n",
	       (double)base_kb / 1024);
	printf("%7s %8s %9s %9s %6s %9s %6s %9s %9s %6s\n", "commits",
	       "metrics", "kdelta/ms", "zcat/ms", "ratio", "us/cell", "growth",
	       "mem/MB", "input/MB", "mem/in");
	for (size_t i = 0; i < nsizes && !ret; i++)
		ret = measure(kdelta, tmp, list[i], base_kb, &base);
	if (nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS))
		fprintf(stderr, "compare-bench: could not remove %s\n", tmp);
	return ret ? 1 : 0;
}
