/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_PARALLEL_H
#define KDELTA_PARALLEL_H

#include <stddef.h>

/*
 * Runs fn(ctx, begin, end) over [0, n) in ranges of at most grain indices,
 * on one thread per online processor (the calling one among them), and
 * returns when every range is done.  The ranges are taken in order by
 * whichever thread is free, so fn must not depend on which thread runs it
 * or in which order; it runs on the calling thread alone when threads
 * cannot be started.  For independent pieces of work of a comparison: the
 * variants' matrices, their decisions.
 */
void parallel_for(size_t n, size_t grain,
		  void (*fn)(void *ctx, size_t begin, size_t end), void *ctx);

#endif
