// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "kdelta/monitor.h"

extern const struct monitor monitor_proc_vmstat;
extern const struct monitor monitor_slabinfo;
extern const struct monitor monitor_meminfo;
extern const struct monitor monitor_vmstat;
extern const struct monitor monitor_numa_meminfo;
extern const struct monitor monitor_numa_vmstat;
extern const struct monitor monitor_interrupts;
extern const struct monitor monitor_softirqs;
extern const struct monitor monitor_iostat;
extern const struct monitor monitor_pressure;
extern const struct monitor monitor_latency_stats;
extern const struct monitor monitor_time;
extern const struct monitor monitor_perf_stat;
extern const struct monitor monitor_perf_profile;

/* Adding a monitor: one file in this directory, one line here. */
const struct monitor *const monitor_registry[] = {
	&monitor_proc_vmstat,
	&monitor_slabinfo,
	&monitor_meminfo,
	&monitor_vmstat,
	&monitor_numa_meminfo,
	&monitor_numa_vmstat,
	&monitor_interrupts,
	&monitor_softirqs,
	&monitor_iostat,
	&monitor_pressure,
	&monitor_latency_stats,
	&monitor_time,
	/* Last: their stop() and finish() are the slowest. */
	&monitor_perf_stat,
	&monitor_perf_profile,
	NULL,
};

const struct monitor *monitor_find(const char *name)
{
	for (size_t i = 0; monitor_registry[i]; i++)
		if (!strcmp(monitor_registry[i]->section.name, name))
			return monitor_registry[i];
	return NULL;
}

bool monitor_by_default(const struct monitor *m)
{
	return !m->by_default || m->by_default();
}
