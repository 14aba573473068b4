// SPDX-License-Identifier: GPL-2.0
/* parallel_for(): independent pieces of work on every processor. */
#include <pthread.h>
#include <stdbool.h>
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

struct stages_work {
	size_t n;
	void (*fn)(void *ctx, size_t stage, size_t i);
	void *ctx;
	size_t *order;		/* the k-th (stage, item) taken, as s * n + i */
	bool *done;		/* per s * n + i */
	pthread_mutex_t lock;
	pthread_cond_t ended;
};

/*
 * The order the (stage, item) pairs are taken in: by diagonals, stage s of
 * item i with stage s + 1 of item i - 1 (first stage first): R0, R1 P0,
 * R2 P1, ...  Each stage comes after the one before of its item, and
 * only about as many items as threads are between stages at a time:
 * their inflated texts are all that loading holds besides the matrices.
 */
static void stages_order(size_t n, size_t nstages, size_t *order)
{
	size_t k = 0;

	for (size_t d = 0; d < n + nstages - 1; d++)
		for (size_t s = d < n ? 0 : d - n + 1; s < nstages && s <= d;
		     s++)
			order[k++] = s * n + (d - s);
}

/*
 * Pairs are taken in that order, and each waits only for one earlier in
 * it, which a running thread has taken: no deadlock.
 */
static void run_stages(void *arg, size_t begin, size_t end)
{
	struct stages_work *w = arg;

	for (size_t k = begin; k < end; k++) {
		size_t at = w->order[k];

		pthread_mutex_lock(&w->lock);
		while (at >= w->n && !w->done[at - w->n])
			pthread_cond_wait(&w->ended, &w->lock);
		pthread_mutex_unlock(&w->lock);
		w->fn(w->ctx, at / w->n, at % w->n);
		pthread_mutex_lock(&w->lock);
		w->done[at] = true;
		pthread_cond_broadcast(&w->ended);
		pthread_mutex_unlock(&w->lock);
	}
}

void parallel_stages(size_t n, size_t nstages,
		     void (*fn)(void *ctx, size_t stage, size_t i), void *ctx)
{
	struct stages_work w = { .n = n, .fn = fn, .ctx = ctx };

	if (!n || !nstages)
		return;
	w.order = xreallocarray(NULL, n * nstages, sizeof(*w.order));
	w.done = xcalloc(n * nstages, sizeof(*w.done));
	stages_order(n, nstages, w.order);
	pthread_mutex_init(&w.lock, NULL);
	pthread_cond_init(&w.ended, NULL);
	parallel_for(n * nstages, 1, run_stages, &w);
	pthread_cond_destroy(&w.ended);
	pthread_mutex_destroy(&w.lock);
	free(w.order);
	free(w.done);
}
