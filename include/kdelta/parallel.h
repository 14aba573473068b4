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

/*
 * A pipeline: runs fn(ctx, stage, i) for every item i < n and stage <
 * nstages, like parallel_for(), but stage s of item i only after stage
 * s - 1 of item i has returned.  The pairs are taken in diagonal order
 * (item 0's first stage; item 1's first and item 0's second; ...), so
 * while one item is in its second stage the next can be in its first --
 * 3 matrices on 2 processors load in the time of 2 (one parsed while
 * another is inflated), not of 3 whole ones -- and only about one item
 * per thread is between stages at a time.
 */
void parallel_stages(size_t n, size_t nstages,
		     void (*fn)(void *ctx, size_t stage, size_t i), void *ctx);

#endif
