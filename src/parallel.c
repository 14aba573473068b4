// SPDX-License-Identifier: GPL-2.0
/* parallel_for(): independent pieces of work on every processor. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "kdelta/parallel.h"
#include "kdelta/util.h"

struct parallel_work {
	size_t n, grain;
	size_t next;		/* the next range's start, taken atomically */
	void (*fn)(void *ctx, size_t begin, size_t end);
	void *ctx;
};

static void *parallel_worker(void *arg)
{
	struct parallel_work *w = arg;
	size_t begin;

	while ((begin = __atomic_fetch_add(&w->next, w->grain,
					   __ATOMIC_RELAXED)) < w->n) {
		size_t end = w->n - begin < w->grain ? w->n : begin + w->grain;

		w->fn(w->ctx, begin, end);
	}
	return NULL;
}

void parallel_for(size_t n, size_t grain,
		  void (*fn)(void *ctx, size_t begin, size_t end), void *ctx)
{
	struct parallel_work w = { n, grain ? grain : 1, 0, fn, ctx };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t ranges = n / w.grain + (n % w.grain != 0);
	size_t nthreads = cpus > 1 ? (size_t)cpus : 1, started = 0;
	pthread_t *threads;

	if (nthreads > ranges)
		nthreads = ranges;
	if (nthreads <= 1) {
		parallel_worker(&w);
		return;
	}
	threads = xcalloc(nthreads, sizeof(*threads));
	for (size_t t = 1; t < nthreads; t++)
		if (!pthread_create(&threads[started], NULL, parallel_worker,
				    &w))
			started++;
	parallel_worker(&w);
	for (size_t t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
	free(threads);
}
