// SPDX-License-Identifier: GPL-2.0
#include "kdelta/catalogue.h"
#include "kdelta/monitor.h"
#include "kdelta/util.h"
#include "kdelta/workload.h"

const struct metric_catalogue *metric_catalogue_default(void)
{
	static struct metric_catalogue cat;
	struct metric_source *sources;
	size_t n = 0, nm = 0, nw = 0;

	if (cat.sources)
		return &cat;
	while (monitor_registry[nm])
		nm++;
	while (workload_registry[nw])
		nw++;
	sources = xcalloc(nm + nw, sizeof(*sources));
	for (size_t i = 0; i < nm; i++)
		sources[n++] = (struct metric_source){
			.name = monitor_registry[i]->section.name,
			.metrics = monitor_registry[i]->metrics,
			.monitor = true,
			.perturbs = monitor_registry[i]->perturbs,
		};
	for (size_t i = 0; i < nw; i++)
		sources[n++] = (struct metric_source){
			.name = workload_registry[i]->section.name,
			.metrics = workload_registry[i]->metrics,
		};
	cat.n = n;
	cat.sources = sources;
	return &cat;
}
