// SPDX-License-Identifier: GPL-2.0
/*
 * The slurm executor's batch scripts (slurm-script.c), and the names of
 * the files in a batch's directory that they and executor-slurm.c share.
 * Private to src/executor/.
 */
#ifndef KDELTA_SLURM_SCRIPT_H
#define KDELTA_SLURM_SCRIPT_H

#include <stddef.h>

#include "kdelta/executor.h"
#include "kdelta/strbuf.h"

/* In a batch's directory. */
#define BATCH_SCRIPT "batch.sh"
#define BATCH_JOB "job.yaml"
#define BATCH_BEFORE "before"	/* "<commit> <ok> <failed>" at submission */
#define BATCH_FOUND "found"	/* written by the job, last */
#define BISECT_OUT "bisect.out"	/* a bisection's kdelta bisect's stdout */
#define BISECT_ERR "bisect.err"	/* and its progress lines */

/*
 * A request's script into sb: builds the commits that need runs
 * (missing[i] of commits[i]) and runs kdelta run over those that built,
 * in rounds; dir is the batch's directory.
 */
void slurm_script_measure(const struct slurm_executor_opts *o,
			  const struct measure_request *req, const char *dir,
			  const size_t *missing, struct strbuf *sb);

/* A whole bisection's script into sb: kdelta bisect on the node. */
void slurm_script_bisect(const struct slurm_executor_opts *o,
			 const struct bisect_request *req, const char *dir,
			 struct strbuf *sb);

#endif
