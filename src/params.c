// SPDX-License-Identifier: GPL-2.0
/*
 * The common job parameters, and the schema the binary checks job files
 * against: these, plus every registered workload's and monitor's section.
 */
#include <stdlib.h>
#include <string.h>

#include "job-internal.h"
#include "kdelta/monitor.h"
#include "kdelta/util.h"
#include "kdelta/workload.h"

static const char *const fs_choices[] = { "xfs", "ext4", "btrfs", "tmpfs", NULL };

static const struct param_spec common_params[] = {
	{ .name = "testcase", .type = PARAM_STRING,
	  .help = "the store's directory for this job's results; default: the workload's name" },
	{ .name = "suite", .type = PARAM_STRING,
	  .help = "the benchmark suite the job belongs to (descriptive)" },
	{ .name = "category", .type = PARAM_STRING,
	  .help = "what kind of test it is, like benchmark or functional (descriptive)" },
	{ .name = "runs", .type = PARAM_INT, .def = "3",
	  .help = "runs per commit, at least 1; at least 3 to decide on significance" },
	{ .name = "disk", .type = PARAM_STRING,
	  .help = "the disk to make the file system on: 1BRD_<size>, one RAM disk of that size, like 1BRD_48G" },
	{ .name = "fs", .type = PARAM_CHOICE, .choices = fs_choices,
	  .help = "the file system to make on the disk" },
	{ .name = "fs_mount_options", .type = PARAM_STRING,
	  .help = "mount options for the file system, as for mount -o" },
	{ .name = "monitors", .type = PARAM_MAP,
	  .help = "the monitors to run: a list of names, or a mapping of names to options; default: all" },
	{ .name = "commit", .type = PARAM_STRING,
	  .help = "recorded by the runner: the commit the job ran on" },
	{ .name = "host", .type = PARAM_STRING,
	  .help = "recorded by the runner: the machine's host name" },
	{ .name = "machine", .type = PARAM_MAP,
	  .help = "recorded by the runner: kernel, CPUs and memory of the machine" },
	{ .name = "kdelta", .type = PARAM_MAP,
	  .help = "recorded by the runner: the kdelta version and command" },
	{ NULL },
};

const struct param_section job_common_section = {
	.name = "common",
	.summary = "parameters of every job",
	.params = common_params,
};

/* Descriptive, or recorded by the runner: not part of a job's name. */
static const char *const unnamed_params[] = {
	"testcase", "suite", "category", "runs", "monitors",
	"commit", "host", "machine", "kdelta",
};

bool param_in_job_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(unnamed_params); i++)
		if (!strcmp(unnamed_params[i], name))
			return false;
	return true;
}

static int check_runs(const char *value, struct kd_err *err)
{
	int64_t runs;

	if (!parse_int(value, &runs, NULL) && runs < 1)
		return kd_error(err, "expected at least 1 run, got '%s'", value);
	return 0;
}

static int check_disk(const char *value, struct kd_err *err)
{
	uint64_t size;

	if (strncmp(value, "1BRD_", 5) || parse_size(value + 5, &size, NULL) ||
	    !size)
		return kd_error(err, "expected 1BRD_<size>, like 1BRD_48G, got '%s'",
				value);
	return 0;
}

/* The checks some common parameters have beyond their type. */
int common_param_check(const struct param_spec *spec, const char *value,
		       struct kd_err *err)
{
	if (spec == param_find(common_params, "runs"))
		return check_runs(value, err);
	if (spec == param_find(common_params, "disk"))
		return check_disk(value, err);
	return 0;
}

static size_t registry_length(const void *const *registry)
{
	size_t n = 0;

	while (registry[n])
		n++;
	return n;
}

/*
 * Built once, from registries that are constant: the only state of this
 * module, and never freed (like the registries themselves).
 */
const struct job_schema *job_schema_default(void)
{
	static struct job_schema schema;
	static const struct param_section **workloads, **monitors;
	size_t nw, nm;

	if (schema.common)
		return &schema;
	nw = registry_length((const void *const *)workload_registry);
	nm = registry_length((const void *const *)monitor_registry);
	workloads = xcalloc(nw + 1, sizeof(*workloads));
	monitors = xcalloc(nm + 1, sizeof(*monitors));
	for (size_t i = 0; i < nw; i++)
		workloads[i] = &workload_registry[i]->section;
	for (size_t i = 0; i < nm; i++)
		monitors[i] = &monitor_registry[i]->section;
	schema.workloads = workloads;
	schema.monitors = monitors;
	schema.common = &job_common_section;
	return &schema;
}
