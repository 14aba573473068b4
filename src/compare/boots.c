// SPDX-License-Identifier: GPL-2.0
/*
 * Runs that share a boot (kdelta run --kernel --vm-runs-per-boot N, with
 * their kdelta.vm.boot_id: struct variant's boots) are not independent
 * samples of their kernel: what a boot settles (where the kernel's data
 * landed, what the boot's timing happened to be) is shared by its runs, so
 * the variance between boots is not seen in the runs of one, and a test
 * over runs would take a boot's luck for the kernel's effect.  The kernel
 * is a fixed factor, the boot a random one nested in it, the run nested in
 * the boot; the textbook test of the kernel's effect in such a nested
 * design uses the boots' variation as its error, which is a t-test on the
 * per-boot means (exactly so when every boot has as many runs, and
 * unbiased otherwise).  So when a side has a boot of two runs or more,
 * both sides are tested on their per-boot means, the test's degrees of
 * freedom being the boots': the interval, the verdict and the boots that
 * would decide it all come from the boots.  It needs 3 runs a side, as
 * every test here, and 2 boots a side, the fewest that show a variance
 * between boots; the t-distribution of so few degrees of freedom (12.7 at
 * the 2.5% point for one) asks a change far beyond the boots' spread, so
 * it decides few but the clearest changes, as with a deterministic clock.
 * The table's means and spreads stay those of the runs.
 */
#include <stdlib.h>
#include <string.h>

#include "kdelta/util.h"

#include "boots.h"

static void boot_groups_init(struct boot_groups *g, const struct variant *var)
{
	memset(g, 0, sizeof(*g));
	if (!var->boots || !var->runs)
		return;
	g->nruns = var->runs;
	g->of_run = xcalloc(var->runs, sizeof(*g->of_run));
	for (size_t i = 0; i < var->runs; i++) {
		size_t b = 0;

		while (b < i && strcmp(var->boots[b], var->boots[i]))
			b++;
		if (b < i) {
			g->of_run[i] = g->of_run[b];
			g->shared = true;
		} else {
			g->of_run[i] = g->nboots++;
		}
	}
}



static void boot_means(const struct boot_groups *g, const double *samples,
		       double *means, size_t *count)
{
	memset(count, 0, g->nboots * sizeof(*count));
	memset(means, 0, g->nboots * sizeof(*means));
	for (size_t i = 0; i < g->nruns; i++) {
		means[g->of_run[i]] += samples[i];
		count[g->of_run[i]]++;
	}
	for (size_t b = 0; b < g->nboots; b++)
		means[b] /= (double)count[b];
}

/*
 * The samples of the test: the boots' means when either side's runs share
 * boots and both sides' samples are their runs (a side without boots is
 * its runs, each its own boot); else the runs.
 */
void test_samples_of(const struct boot_groups *groups, size_t v,
			    const struct metric_cell *base,
			    const struct metric_cell *cell,
			    struct boot_scratch *scratch,
			    struct test_samples *t)
{
	const struct boot_groups *gb = &groups[0], *gv = &groups[v];

	*t = (struct test_samples){ base->samples, cell->samples, base->sum.n,
				    cell->sum.n, false };
	if (!groups || !base->samples || !cell->samples ||
	    !(gb->shared || gv->shared))
		return;
	if ((gb->nruns && gb->nruns != base->sum.n) ||
	    (gv->nruns && gv->nruns != cell->sum.n))
		return;		/* the samples are not the runs the boots are of */
	t->by_boots = true;
	if (gb->nruns) {
		boot_means(gb, base->samples, scratch->base, scratch->count);
		t->base = scratch->base;
		t->nb = gb->nboots;
	}
	if (gv->nruns) {
		boot_means(gv, cell->samples, scratch->cell, scratch->count);
		t->cell = scratch->cell;
		t->nv = gv->nboots;
	}
}

struct boot_groups *boot_groups_new(const struct comparison *cmp)
{
	struct boot_groups *groups = xcalloc(cmp->nvariants ? cmp->nvariants : 1,
					     sizeof(*groups));

	for (size_t v = 0; v < cmp->nvariants; v++)
		boot_groups_init(&groups[v], &cmp->variants[v]);
	return groups;
}

void boot_groups_free(struct boot_groups *groups, size_t nvariants)
{
	for (size_t v = 0; v < nvariants; v++)
		free(groups[v].of_run);
	free(groups);
}

void boot_scratch_init(struct boot_scratch *scratch,
		       const struct boot_groups *groups, size_t first,
		       size_t last)
{
	size_t most = groups[0].nboots;

	for (size_t v = first; v <= last; v++)
		most = groups[v].nboots > most ? groups[v].nboots : most;
	scratch->base = xcalloc(most + 1, sizeof(*scratch->base));
	scratch->cell = xcalloc(most + 1, sizeof(*scratch->cell));
	scratch->count = xcalloc(most + 1, sizeof(*scratch->count));
	scratch->n = most + 1;
}

void boot_scratch_release(struct boot_scratch *scratch)
{
	free(scratch->base);
	free(scratch->cell);
	free(scratch->count);
	*scratch = (struct boot_scratch){ 0 };
}
