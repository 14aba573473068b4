/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_TESTS_JOB_SCHEMA_H
#define KDELTA_TESTS_JOB_SCHEMA_H

/*
 * A schema for the job tests, independent of the real workloads and
 * monitors: the real common parameters, workloads modelled on lkp-tests'
 * aim7 and on a hole-punch test, an argv-taking one, and two monitors.
 */
#include "kdelta/job.h"
#include "kdelta/params.h"

static const struct param_spec aim7_params[] = {
	{ .name = "test", .type = PARAM_STRING, .required = true,
	  .help = "the aim7 test" },
	{ .name = "load", .type = PARAM_INT, .def = "100", .help = "users" },
	{ NULL },
};

static const char *const prefill_choices[] = { "fallocate", "write", NULL };

static const struct param_spec punch_params[] = {
	{ .name = "file_size", .type = PARAM_SIZE, .def = "64M",
	  .help = "size of the file" },
	{ .name = "prefill", .type = PARAM_CHOICE, .def = "fallocate",
	  .choices = prefill_choices, .help = "how to fill it" },
	{ .name = "duration", .type = PARAM_DURATION, .def = "10s",
	  .help = "how long" },
	{ .name = "sync", .type = PARAM_BOOL, .def = "false", .help = "fsync" },
	{ NULL },
};

static const struct param_spec exec_params[] = {
	{ .name = "argv", .type = PARAM_LIST, .required = true,
	  .help = "the command" },
	{ .name = "env", .type = PARAM_LIST, .def = "[LC_ALL=C]",
	  .help = "environment" },
	{ NULL },
};

static const struct param_spec interval_params[] = {
	{ .name = "interval", .type = PARAM_DURATION, .def = "1s",
	  .help = "sampling interval" },
	{ NULL },
};

static const struct param_spec perf_params[] = {
	{ .name = "delay", .type = PARAM_INT, .def = "0", .help = "delay" },
	{ NULL },
};

static const struct param_section aim7_section = {
	.name = "aim7", .summary = "AIM7", .params = aim7_params,
};
static const struct param_section punch_section = {
	.name = "punch", .summary = "hole punch", .params = punch_params,
};
static const struct param_section exec_section = {
	.name = "exec", .summary = "a command", .params = exec_params,
};
static const struct param_section vmstat_section = {
	.name = "proc-vmstat", .summary = "vm counters", .params = interval_params,
};
static const struct param_section perf_section = {
	.name = "perf-profile", .summary = "profile", .params = perf_params,
};

static const struct param_section *const schema_workloads[] = {
	&aim7_section, &punch_section, &exec_section, NULL,
};
static const struct param_section *const schema_monitors[] = {
	&vmstat_section, &perf_section, NULL,
};
static const struct job_schema test_schema = {
	.common = &job_common_section,
	.workloads = schema_workloads,
	.monitors = schema_monitors,
};

#endif
