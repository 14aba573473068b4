// SPDX-License-Identifier: GPL-2.0
/*
 * What monitors and workloads declare of their metrics
 * (kdelta/metric-rules.h): how a name resolves, and that every declaration
 * in the registries is well formed.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kdelta/catalogue.h"
#include "kdelta/metric-rules.h"
#include "kdelta/monitor.h"
#include "kdelta/util.h"
#include "kdelta/workload.h"

static void test_resolution(void)
{
	struct metric_info info;

	/* Declared by the source; the longest declaring pattern decides. */
	metric_describe(metric_catalogue_default(), "proc-vmstat.workingset_refault_file", &info);
	CHECK(info.kind == METRIC_COUNTER);
	metric_describe(metric_catalogue_default(), "proc-vmstat.workingset_nodes", &info);
	CHECK(info.kind == METRIC_GAUGE);
	/* Each property on its own: kind from nr_dirtied, floor from nr_*. */
	metric_describe(metric_catalogue_default(), "proc-vmstat.nr_dirtied", &info);
	CHECK(info.kind == METRIC_COUNTER);
	CHECK_STR(info.floor->rule, "proc-vmstat.nr_*: 5%, above 100, 50 apart");
	CHECK(info.better == 0);
	/* a percentage whose change is relative, as in lkp-tests */
	metric_describe(metric_catalogue_default(), "vmstat.cpu.sy", &info);
	CHECK(!info.points);
	CHECK_STR(info.floor->rule, "vmstat.cpu.sy: 5%, above 50, 25 apart");
	/* iostat's percentages too: lkp-tests shows util and rrqm in percent */
	metric_describe(metric_catalogue_default(), "iostat.vda.util", &info);
	CHECK(!info.points);
	CHECK_STR(info.floor->rule, "iostat.*.util: 5%, above 10, 5 apart");
	metric_describe(metric_catalogue_default(), "iostat.vda.rrqm", &info);
	CHECK(!info.points);
	metric_describe(metric_catalogue_default(), "iostat.vda.wrqm", &info);
	CHECK(!info.points);
	/* A workload's declarations. */
	CHECK(metric_direction(metric_catalogue_default(), "creat-clo.ops_per_sec") == 1);
	CHECK(metric_direction(metric_catalogue_default(), "truncate.usecs") == -1);
	CHECK(metric_direction(metric_catalogue_default(), "punch.punches_per_sec") == 1);
	/* Only the source's own: a name in another source says nothing. */
	CHECK(metric_kind(metric_catalogue_default(), "meminfo.pgfree") == METRIC_GAUGE);
	CHECK(metric_kind(metric_catalogue_default(), "pgfree") == METRIC_GAUGE);
	/* Undeclared: the generic rules. */
	metric_describe(metric_catalogue_default(), "fio.write_latency_99%", &info);
	CHECK(info.better == -1);
	CHECK(info.points);
	CHECK(info.kind == METRIC_GAUGE);
	CHECK_STR(info.floor->rule, "monitor counters: 5%");
	CHECK(metric_direction(metric_catalogue_default(), "mybench.files_per_sec") == 1);
	CHECK(!metric_is_percent(metric_catalogue_default(), "mybench.files"));
}

/* "<source>.<pattern>: ..." : a rule names what it is declared for. */
static void check_rule(const char *source, const struct metric_spec *spec)
{
	char *want = xasprintf("%s.%s: ", source, spec->pattern);

	if (strncmp(spec->floor->rule, want, strlen(want))) {
		fprintf(stderr, "%s: floor of '%s' says '%s'\n", source,
			spec->pattern, spec->floor->rule);
		CHECK(!"a floor's rule names its pattern");
	}
	free(want);
}

static void check_table(const char *source, const struct metric_spec *specs)
{
	for (size_t i = 0; specs && specs[i].pattern; i++) {
		const char *p = specs[i].pattern;

		CHECK(*p);
		/* Two stars in a row say nothing more than one. */
		CHECK(!strstr(p, "**"));
		CHECK(specs[i].better >= -1 && specs[i].better <= 1);
		if (specs[i].floor)
			check_rule(source, &specs[i]);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(specs[j].pattern, p)) {
				fprintf(stderr, "%s: '%s' declared twice\n",
					source, p);
				CHECK(!"a pattern is declared once");
			}
	}
}

static void test_registries(void)
{
	for (size_t i = 0; monitor_registry[i]; i++)
		check_table(monitor_registry[i]->section.name,
			    monitor_registry[i]->metrics);
	for (size_t i = 0; workload_registry[i]; i++)
		check_table(workload_registry[i]->section.name,
			    workload_registry[i]->metrics);
}

int main(void)
{
	test_resolution();
	test_registries();
	return check_done();
}
