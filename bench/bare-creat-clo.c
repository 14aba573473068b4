// SPDX-License-Identifier: GPL-2.0
/*
 * The harness benchmark's baseline: creat() then close() of one file in
 * the current directory for SECONDS, with no kdelta around it -- the loop
 * of aim9's creat-clo in src/workloads/aim9.c (same file name, same clock
 * batching), its result printed as
 *
 *	bare-creat-clo SECONDS  ->  "ops_per_sec: 512345.678"
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define FILE_NAME "creat-clo.tmp"
#define BATCH 256

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int creat_close(void)
{
	int fd = creat(FILE_NAME, 0644);

	if (fd < 0) {
		perror("creat " FILE_NAME);
		return -1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	double seconds = argc == 2 ? atof(argv[1]) : 0, start, t;
	unsigned long long ops = 0;

	if (!(seconds > 0)) {
		fprintf(stderr, "usage: bare-creat-clo SECONDS\n");
		return 2;
	}
	if (creat_close() < 0)
		return 1;
	start = now();
	do {
		for (int i = 0; i < BATCH; i++)
			if (creat_close() < 0)
				return 1;
		ops += BATCH;
		t = now();
	} while (t - start < seconds);
	unlink(FILE_NAME);
	printf("ops_per_sec: %.3f\n", ops / (t - start));
	return 0;
}
