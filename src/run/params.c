// SPDX-License-Identifier: GPL-2.0
/*
 * The common job parameters, and the schema the binary checks job files
 * against: these, plus every registered workload's and monitor's section.
 */
#include <stdlib.h>
#include <string.h>

#include "kdelta/disk.h"
#include "kdelta/md.h"
#include "kdelta/job.h"
#include "kdelta/key-result.h"
#include "kdelta/monitor.h"
#include "kdelta/params.h"
#include "kdelta/run-record.h"
#include "kdelta/schema.h"
#include "kdelta/util.h"
#include "kdelta/workload.h"

/* The kernel's cpufreq governors (Documentation/admin-guide/pm/cpufreq.rst). */
static const char *const governor_choices[] = {
	"performance", "powersave", "schedutil", "ondemand", "conservative",
	"userspace", NULL,
};

/* lkp-tests' other disks: 1HDD, 4SSD, 1PMEM, ... (a count, a kind's letters). */
static bool lkp_disk(const char *value)
{
	size_t digits = strspn(value, "0123456789");

	return digits && strspn(value + digits, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") >= 2 &&
	       !strstr(value, "BRD") &&
	       !value[digits + strspn(value + digits,
				      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")];
}

static int check_disk(const char *value, struct kd_err *err)
{
	uint64_t size;
	unsigned count;

	if (lkp_disk(value))
		return kd_error(err, "'%s' is not built into kdelta, which makes RAM disks: <N>BRD_<size>, like 1BRD_48G",
				value);
	return disk_brd_parse(value, &count, &size, err);
}

/* A number as the text of a default. */
#define DEFAULT_TEXT(n) DEFAULT_TEXT_(n)
#define DEFAULT_TEXT_(n) #n

#define NOT_READ "the job's workload has no such parameter"
#define NOT_BUILT "kdelta runs the kernel the machine booted; build and install one with kdelta run --setup"

static const struct param_spec common_params[] = {
	{ .name = "testcase", .type = PARAM_STRING, .unnamed = true,
	  .help = "the store's directory for this job's results; default: the workload's name" },
	{ .name = "suite", .type = PARAM_STRING, .unnamed = true,
	  .help = "the benchmark suite the job belongs to (descriptive)" },
	{ .name = "category", .type = PARAM_STRING, .unnamed = true,
	  .help = "what kind of test it is, like benchmark or functional (descriptive)" },
	{ .name = "runs", .type = PARAM_INT,
	  .def = DEFAULT_TEXT(JOB_DEFAULT_RUNS), .min = "1",
	  .unnamed = true,
	  .help = "runs per commit, at least 1; at least 3 to decide on significance" },
	{ .name = "disk", .type = PARAM_STRING, .check = check_disk,
	  .lkp_option = true,
	  .help = "the disk to make the file system on: <N>BRD_<size>, N RAM disks of that size (loop devices over sparse files on a private tmpfs), like 1BRD_48G; needs fs, and md when N is more than 1" },
	{ .name = "md", .type = PARAM_CHOICE, .choices = md_levels,
	  .lkp_option = true, .choice_not_built_in = true,
	  .help = "LKP: an md RAID array over the disk's RAM disks, made with mdadm (chunk 256K, as lkp-tests), like RAID0 over 4BRD_12G, the file system made on it; needs a kernel with md (a guest's: kdelta run --kernel)" },
	{ .name = "fs", .type = PARAM_CHOICE, .choices = disk_fs_names,
	  .lkp_option = true, .choice_not_built_in = true,
	  .help = "the file system to make on the disk; xfs, ext4 and btrfs need a disk, tmpfs takes its size from one if given" },
	{ .name = "fs_mount_options", .type = PARAM_STRING,
	  .help = "mount options for the file system, as for mount -o, but the file system's only: not mount(8)'s own (bind, loop, x-*, ...); needs fs" },
	{ .name = KEY_RESULT_KEY, .type = PARAM_MAP, .unnamed = true,
	  .help = "the job's key results and which direction of each is better: a mapping of the workload's results to higher or lower (or nothing: kdelta's metric rules say), like {exec.ops_per_sec: higher, exec.usecs: lower}; report writes its mail about the first, bisect bisects it, and compare --fail-on-regression and the robot judge these only; one that no run prints (a misspelt name) is no data (compare's exit status 7, a failed test in the robot), never clean; without key_result, every workload result is judged in the direction the metric rules give, and report and bisect take the first the workload prints" },
	{ .name = "monitors", .type = PARAM_MAP, .unnamed = true,
	  .help = "the monitors to run: a list of names, or a mapping of names to options; default: those on by default" },
	{ .name = "cpufreq_governor", .type = PARAM_CHOICE,
	  .choices = governor_choices, .lkp_option = true,
	  .help = "the cpufreq governor of every CPU during each run, put back after it; where the machine has no cpufreq (/sys/devices/system/cpu/cpu*/cpufreq), recorded with a note" },
	/*
	 * LKP's options that its programs share, at the top level: the
	 * workload's when it takes them (job_lift_options()), else kept.
	 */
	{ .name = "nr_threads", .type = PARAM_STRING, .unnamed = true,
	  .not_applied = NOT_READ,
	  .help = "LKP: threads for the workload, like 100% of the CPUs or 8; the workload's parameter when it has one" },
	{ .name = "nr_task", .type = PARAM_STRING, .unnamed = true,
	  .not_applied = NOT_READ,
	  .help = "LKP: tasks for the workload, like 100% of the CPUs or 8; the workload's parameter when it has one (aim7's)" },
	{ .name = "runtime", .type = PARAM_STRING, .unnamed = true,
	  .not_applied = NOT_READ,
	  .help = "LKP: how long the workload runs, like 300s; the workload's parameter when it has one" },
	{ .name = "iterations", .type = PARAM_STRING, .unnamed = true,
	  .not_applied = NOT_READ,
	  .help = "LKP: how many times the workload repeats; the workload's parameter when it has one" },
	/* LKP's infrastructure: accepted so that its job files load. */
	{ .name = "kconfig", .type = PARAM_STRING, .unnamed = true,
	  .not_applied = NOT_BUILT,
	  .help = "LKP: the kernel configuration, like x86_64-rhel-9.4" },
	{ .name = "compiler", .type = PARAM_STRING, .unnamed = true,
	  .not_applied = NOT_BUILT,
	  .help = "LKP: the compiler that built the kernel, like gcc-12" },
	{ .name = "branch", .type = PARAM_STRING, .unnamed = true,
	  .not_applied = NOT_BUILT,
	  .help = "LKP: the kernel branch the commit is on, like linus/master" },
	{ .name = "kernel_cmdline", .type = PARAM_STRING, .unnamed = true,
	  .not_applied = "the kernel command line is set at boot",
	  .help = "LKP: extra kernel command line parameters" },
	{ .name = "rootfs", .type = PARAM_STRING, .unnamed = true,
	  .not_applied = "kdelta runs in the machine's own root file system",
	  .help = "LKP: the root file system image the test box boots, like debian-12-x86_64-20240206.cgz" },
	{ .name = "testbox", .type = PARAM_STRING, .unnamed = true,
	  .not_applied = "kdelta runs on this machine and records its name as host",
	  .help = "LKP: the machine to run on" },
	{ .name = "tbox_group", .type = PARAM_STRING, .unnamed = true,
	  .not_applied = "kdelta runs on this machine and records its name as host",
	  .help = "LKP: the group of like machines to run on" },
	{ .name = "need_memory", .type = PARAM_SIZE, .unnamed = true,
	  .not_applied = "LKP's scheduler picks machines by it; kdelta runs on this one",
	  .help = "LKP: the memory a test box must have, like 2G" },
	{ .name = RUN_RECORD_COMMIT, .type = PARAM_STRING, .unnamed = true,
	  .help = "recorded by the runner: the commit the job ran on" },
	{ .name = RUN_RECORD_HOST, .type = PARAM_STRING, .unnamed = true,
	  .help = "recorded by the runner: the machine's host name" },
	{ .name = RUN_RECORD_MACHINE, .type = PARAM_MAP, .unnamed = true,
	  .help = "recorded by the runner: kernel, CPUs and memory of the machine" },
	{ .name = RUN_RECORD_KDELTA, .type = PARAM_MAP, .unnamed = true,
	  .help = "recorded by the runner: the kdelta version, the run's start, the order of its batch and its seed, the setup command, what was not applied, what else the machine did meanwhile (load average, pressure, other kdelta runs)" },
	{ NULL },
};

/*
 * key_result: a mapping (key-result.h) of the workload's own results,
 * "<prefix>.<key>" where prefix is the workload's (exec's name).
 */
static int key_result_constraints(const struct jnode *job, const char **at,
				  struct kd_err *err)
{
	const struct jnode *map = jnode_get(job, KEY_RESULT_KEY);
	const struct workload *wl = NULL;
	struct key_results k;
	const char *prefix = NULL;
	int ret = 0;

	*at = KEY_RESULT_KEY;
	if (!map || (map->kind == JNODE_SCALAR && !*map->scalar))
		return 0;
	if (key_results_parse(map, &k, err) < 0)
		return kd_error_prefix(err, KEY_RESULT_KEY);
	for (size_t i = 0; workload_registry[i] && !wl; i++)
		if (jnode_get(job, workload_registry[i]->section.name))
			wl = workload_registry[i];
	if (wl)
		prefix = workload_prefix(wl, jnode_get(job, wl->section.name));
	for (size_t i = 0; prefix && i < k.n && !ret; i++) {
		size_t len = strlen(prefix);

		if (strncmp(k.at[i].metric, prefix, len) ||
		    k.at[i].metric[len] != '.')
			ret = kd_error(err, "key_result: %s is not one of the workload's results, %s.<key>",
				       k.at[i].metric, prefix);
	}
	key_results_release(&k);
	return ret;
}

static int common_constraints(const struct jnode *job, const char **at,
			      struct kd_err *err)
{
	if (fs_constraints(job, at, err) < 0)
		return -1;
	return key_result_constraints(job, at, err);
}

const struct param_section job_common_section = {
	.name = "common",
	.summary = "parameters of every job",
	.params = common_params,
	.constraints = common_constraints,
};

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
	static const struct param_section **workloads, **monitors, **defaults;
	size_t nw, nm, nd = 0;

	if (schema.common)
		return &schema;
	nw = registry_length((const void *const *)workload_registry);
	nm = registry_length((const void *const *)monitor_registry);
	workloads = xcalloc(nw + 1, sizeof(*workloads));
	monitors = xcalloc(nm + 1, sizeof(*monitors));
	defaults = xcalloc(nm + 1, sizeof(*defaults));
	for (size_t i = 0; i < nw; i++)
		workloads[i] = &workload_registry[i]->section;
	for (size_t i = 0; i < nm; i++) {
		const struct monitor *m = monitor_registry[i];

		monitors[i] = &m->section;
		if (monitor_by_default(m))
			defaults[nd++] = &m->section;
	}
	schema.workloads = workloads;
	schema.monitors = monitors;
	schema.default_monitors = defaults;
	schema.common = &job_common_section;
	return &schema;
}
