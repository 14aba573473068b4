// SPDX-License-Identifier: GPL-2.0
/*
 * The plans of a batch: which run of which job on which commit comes when
 * (rounds, shuffled by the seed, or kdelta 0.1's fixed order), and, for
 * kernels booted in VMs, which boot of which kernel holds which runs.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "kdelta/runner.h"
#include "kdelta/util.h"

const char *const run_order_names[] = { "shuffled", "fixed", NULL };

static void plan_add(struct run_plan *plan, size_t job, size_t commit,
		     unsigned round, bool warmup)
{
	ALLOC_GROW(plan->steps, plan->n + 1, plan->alloc);
	plan->steps[plan->n++] = (struct run_step){
		.job = job, .commit = commit, .round = round, .warmup = warmup,
	};
}

/*
 * Shuffles the steps from first on, the batch's round number plan->rounds,
 * in the order that the seed and the round's number give: Fisher and
 * Yates' shuffle.  The order of a round depends on nothing else (not on
 * the machine's byte order either), so that --seed repeats it.
 */
static void plan_shuffle(struct run_plan *plan, size_t first)
{
	uint64_t round = plan->rounds;
	uint64_t state = plan->seed ^ splitmix64(&round);

	for (size_t i = plan->n - 1; i > first; i--) {
		size_t j = first + splitmix64(&state) % (i - first + 1);
		struct run_step t = plan->steps[i];

		plan->steps[i] = plan->steps[j];
		plan->steps[j] = t;
	}
}

/* A round: the n-th run of every job in it (those with in[j]). */
static void plan_round(struct run_plan *plan, const bool *in, bool warmup,
		       unsigned warmup_round)
{
	size_t first = plan->n;

	for (size_t j = 0; j < plan->n_jobs; j++) {
		if (!in[j])
			continue;
		for (size_t c = 0; c < plan->n_commits; c++)
			plan_add(plan, j, c,
				 warmup ? warmup_round : plan->runs[j], warmup);
		if (!warmup)
			plan->runs[j]++;
	}
	if (plan->order == RUN_ORDER_SHUFFLED && plan->n > first)
		plan_shuffle(plan, first);
	plan->rounds++;
}

/* kdelta 0.1's order: job by job, its rounds going through the commits. */
static void plan_fixed(struct run_plan *plan, const unsigned *runs,
		       unsigned warmup)
{
	for (size_t j = 0; j < plan->n_jobs; j++)
		for (unsigned r = 0; r < warmup + runs[j]; r++)
			for (size_t c = 0; c < plan->n_commits; c++)
				plan_add(plan, j, c, r < warmup ? r : r - warmup,
					 r < warmup);
	for (size_t j = 0; j < plan->n_jobs; j++)
		plan->runs[j] = runs[j];
}

void run_plan_init(struct run_plan *plan, const unsigned *runs,
		   size_t n_jobs, size_t n_commits, unsigned warmup,
		   enum run_order order, uint64_t seed)
{
	run_plan_init_from(plan, runs, n_jobs, n_commits, warmup, order, seed,
			   0);
}

void run_plan_init_from(struct run_plan *plan, const unsigned *runs,
			size_t n_jobs, size_t n_commits, unsigned warmup,
			enum run_order order, uint64_t seed,
			unsigned first_round)
{
	bool *in = xcalloc(n_jobs ? n_jobs : 1, sizeof(*in));
	unsigned most = 0;

	*plan = (struct run_plan){
		.n_jobs = n_jobs, .n_commits = n_commits, .order = order,
		.seed = seed, .runs = xcalloc(n_jobs ? n_jobs : 1, sizeof(unsigned)),
		.rounds = first_round,
	};
	for (size_t j = 0; j < n_jobs; j++)
		most = runs[j] > most ? runs[j] : most;
	if (order == RUN_ORDER_FIXED) {
		plan_fixed(plan, runs, warmup);
		plan->rounds = first_round + warmup + most;
		free(in);
		return;
	}
	for (unsigned r = 0; r < warmup; r++) {
		for (size_t j = 0; j < n_jobs; j++)
			in[j] = true;
		plan_round(plan, in, true, r);
	}
	for (unsigned r = 0; r < most; r++) {
		for (size_t j = 0; j < n_jobs; j++)
			in[j] = r < runs[j];
		plan_round(plan, in, false, 0);
	}
	free(in);
}

void run_plan_add_round(struct run_plan *plan, const bool *more)
{
	plan_round(plan, more, false, 0);
}

void run_plan_release(struct run_plan *plan)
{
	free(plan->steps);
	free(plan->runs);
	*plan = (struct run_plan){ 0 };
}

/* The boots' own stream of random numbers: not the runs' shuffles. */
#define BOOT_SEED_SALT 0x626f6f74706c616eULL	/* "bootplan" */

void boot_plan_init(struct boot_plan *plan, const unsigned *runs,
		    size_t n_jobs, size_t n_commits, unsigned runs_per_boot,
		    unsigned warmup, enum run_order order, uint64_t seed)
{
	unsigned most = 0, boots;

	*plan = (struct boot_plan){ .n_jobs = n_jobs, .n_commits = n_commits };
	for (size_t j = 0; j < n_jobs; j++)
		most = runs[j] > most ? runs[j] : most;
	boots = (most + runs_per_boot - 1) / runs_per_boot;
	plan->boots_per_commit = boots;
	plan->n = (size_t)boots * n_commits;
	plan->boots = xcalloc(plan->n ? plan->n : 1, sizeof(*plan->boots));
	plan->runs = xcalloc(plan->n && n_jobs ? plan->n * n_jobs : 1,
			     sizeof(*plan->runs));
	for (unsigned b = 0; b < boots; b++) {
		struct boot_step *round = plan->boots + (size_t)b * n_commits;
		uint64_t r = b, state = seed ^ BOOT_SEED_SALT ^ splitmix64(&r);

		for (size_t c = 0; c < n_commits; c++) {
			round[c] = (struct boot_step){
				.commit = c, .boot = b,
				.first_round = b * (warmup + runs_per_boot),
			};
		}
		for (size_t i = n_commits; order == RUN_ORDER_SHUFFLED && i > 1; i--) {
			size_t k = splitmix64(&state) % i;
			struct boot_step t = round[i - 1];

			round[i - 1] = round[k];
			round[k] = t;
		}
		for (size_t c = 0; c < n_commits; c++) {
			size_t i = (size_t)b * n_commits + c;

			round[c].runs = plan->runs + i * n_jobs;
			for (size_t j = 0; j < n_jobs; j++) {
				unsigned done = b * runs_per_boot;

				round[c].runs[j] = runs[j] <= done ? 0 :
					runs[j] - done < runs_per_boot ?
					runs[j] - done : runs_per_boot;
			}
		}
	}
}

void boot_plan_release(struct boot_plan *plan)
{
	free(plan->boots);
	free(plan->runs);
	*plan = (struct boot_plan){ 0 };
}

unsigned job_runs(const struct job *job, int runs_option)
{
	return runs_option > 0 ? (unsigned)runs_option : job->runs;
}
