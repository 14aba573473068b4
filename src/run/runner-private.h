// SPDX-License-Identifier: GPL-2.0
/*
 * What runner.c and run-notes.c share: the batch, one run, and the few
 * helpers both use.  Private to src/run/.
 */
#ifndef KDELTA_RUN_RUNNER_PRIVATE_H
#define KDELTA_RUN_RUNNER_PRIVATE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "kdelta/cpufreq.h"
#include "kdelta/disk.h"
#include "kdelta/job.h"
#include "kdelta/machine.h"
#include "kdelta/monitor.h"
#include "kdelta/progress.h"
#include "kdelta/run-decide.h"
#include "kdelta/runner.h"
#include "kdelta/util.h"
#include "kdelta/workdir.h"
#include "kdelta/workload.h"

/* The batch: what every run shares. */
struct batch {
	const struct runner_opts *opts;
	struct job *const *jobs;
	size_t n_jobs;
	struct machine machine;
	struct run_plan plan;
	struct run_decider *decider;	/* --until-decided, else NULL */
	bool *more;			/* the jobs of the latest round */
	struct progress progress;
	struct strbuf noticed;	/* "\n<name>\n" of monitors already noticed */
	bool no_cgroup_noticed;
	struct runner_summary *summary;
	char batch_id[17];		/* kdelta.batch: 16 hex digits */
};

/* One run: what its steps pass each other. */
struct run {
	struct batch *b;
	const struct job *job;
	const struct run_step *step;
	unsigned runs;			/* of this job and commit */
	const char *commit;
	const struct workload *wl;
	const char *prefix;
	char *commit_dir;		/* NULL for a warmup */
	char *run_dir;
	unsigned number;
	struct workspace ws;		/* ws.fd < 0: none */
	struct fs_mount *mount;
	struct cpufreq_saved cpufreq;	/* the governors to put back */
	struct monitor_session *monitors;
	struct jnode *record;
	struct jnode *kdelta;		/* record's "kdelta" map */
	struct jnode *not_applied;	/* its "not_applied" map, or NULL */
	struct strbuf failure;		/* empty while the run is ok */
	bool interrupted;
	double start;
};

/* The run's first failure is its reason; later ones are dropped. */
static inline void run_fail(struct run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline void run_fail(struct run *r, const char *fmt, ...)
{
	va_list ap;

	if (r->failure.len)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&r->failure, fmt, ap);
	va_end(ap);
}

/* map[key] = value, a scalar. */
static inline void set_scalar(struct jnode *map, const char *key,
			      const char *value)
{
	jnode_set(map, key, jnode_new_scalar(value));
}

/* run-notes.c: what a run notes of the machine in its record. */
void note_unavailable(struct run *r);
void run_machine_settings(struct run *r);

#endif
