// SPDX-License-Identifier: GPL-2.0
/*
 * Monitor sessions: against captured files through KDELTA_PROC_ROOT (the
 * unavailable path, latency_stats' begin and end), and against this
 * machine's /proc for two seconds at a 0.2 s interval.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "check.h"
#include "kdelta/job.h"
#include "kdelta/monitor.h"
#include "kdelta/mount.h"
#include "kdelta/util.h"

static char *tmp;

static char *tmp_path(const char *name)
{
	return xasprintf("%s/%s", tmp, name);
}

static void put(const char *name, const char *text)
{
	char *path = tmp_path(name);
	struct kd_err err;

	if (write_file_atomic(path, text, strlen(text), &err) < 0)
		xdie("%s", err.msg);
	free(path);
}

static void get(const char *name, struct strbuf *out)
{
	char *path = tmp_path(name);
	struct kd_err err;

	strbuf_reset(out);
	if (read_file(path, out, &err) < 0)
		strbuf_addstr(out, "(missing)");
	free(path);
}

static void copy_capture(const char *capture, const char *name)
{
	const char *dir = getenv("TESTDATA");
	char *src = xasprintf("%s/monitors/%s", dir ? dir : "testdata", capture);
	struct strbuf text = STRBUF_INIT;
	struct kd_err err;

	if (read_file(src, &text, &err) < 0)
		xdie("%s", err.msg);
	put(name, text.buf);
	strbuf_release(&text);
	free(src);
}

static void fill_in_place(const char *name, const char *capture)
{
	const char *dir = getenv("TESTDATA");
	char *src = xasprintf("%s/monitors/%s", dir ? dir : "testdata", capture);
	char *path = tmp_path(name);
	struct strbuf text = STRBUF_INIT;
	struct kd_err err;
	FILE *f = fopen(path, "w");

	if (!f || read_file(src, &text, &err) < 0 ||
	    fwrite(text.buf, 1, text.len, f) != text.len || fclose(f) != 0)
		xdie("cannot fill %s", path);
	strbuf_release(&text);
	free(path);
	free(src);
}

static void make_dir(const char *name)
{
	char *path = tmp_path(name);
	struct kd_err err;

	if (mkdir_p(path, &err) < 0)
		xdie("%s", err.msg);
	free(path);
}

static double stat_value(json_t *stats, const char *metric)
{
	json_t *v = json_object_get(stats, metric);

	return v ? json_number_value(v) : -1;
}

/* Every monitor at its default, on captured files; slabinfo missing. */
static void test_fake_proc(void)
{
	struct workload_usage usage = { .elapsed = 2 };
	struct strbuf text = STRBUF_INIT, want = STRBUF_INIT;
	struct monitor_session *s;
	char *root = tmp_path("fake"), *run = tmp_path("run1");
	struct kd_err err;
	json_t *stats = NULL;

	dev_t root_dev = mount_device("/");
	char *path;

	make_dir("fake/proc/sys/kernel");
	make_dir("fake/proc/pressure");
	make_dir("run1");
	copy_capture("vmstat.1", "fake/proc/vmstat");
	copy_capture("meminfo.1", "fake/proc/meminfo");
	copy_capture("stat.1", "fake/proc/stat");
	copy_capture("latency_stats", "fake/proc/latency_stats");
	copy_capture("interrupts.1", "fake/proc/interrupts");
	copy_capture("softirqs.1", "fake/proc/softirqs");
	copy_capture("pressure-cpu.1", "fake/proc/pressure/cpu");
	copy_capture("pressure-io.1", "fake/proc/pressure/io");
	copy_capture("pressure-memory.1", "fake/proc/pressure/memory");
	put("fake/proc/sys/kernel/latencytop", "0\n");
	/* iostat: the device of / (this machine's), named "rootdisk" */
	strbuf_addf(&text, "%4u %7u rootdisk 1 2 3 4 5 6 7 8 9 10 11\n",
		    major(root_dev), minor(root_dev));
	put("fake/proc/diskstats", text.buf);
	strbuf_reset(&text);
	setenv("KDELTA_PROC_ROOT", root, 1);
	/* perf-stat: no perf in PATH */
	path = xstrdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	setenv("PATH", tmp, 1);

	CHECK(monitors_start(&(struct monitor_run){ NULL, run, NULL, -1, NULL }, &s, &err) == 0);
	/* begin(): latencytop on, records cleared by a write */
	get("fake/proc/sys/kernel/latencytop", &text);
	CHECK_STR(text.buf, "1\n");
	get("fake/proc/latency_stats", &text);
	CHECK_STR(text.buf, "0\n");
	/*
	 * The records the kernel would have gathered meanwhile, written in
	 * place: the session reads the file it opened at start.
	 */
	fill_in_place("fake/proc/latency_stats", "latency_stats");
	usage.ru.ru_utime.tv_sec = 1;
	CHECK(monitors_stop(s, &usage, &err) == 0);
	get("fake/proc/sys/kernel/latencytop", &text);
	CHECK_STR(text.buf, "0\n");

	strbuf_reset(&text);
	monitor_session_unavailable(s, &text);
	strbuf_addf(&want, "slabinfo: %s/proc/slabinfo does not exist\n", root);
	/* A machine whose / is on no block device (a container) */
	if (!root_dev)
		strbuf_addstr(&want, "iostat: no block device holds / or the work directory\n");
	strbuf_addstr(&want, "perf-stat: perf not found in PATH (Debian's linux-perf has it)\n");
	CHECK_STR(text.buf, want.buf);
	setenv("PATH", path, 1);
	monitor_session_free(s);

	get("run1/slabinfo.gz", &text);
	CHECK_STR(text.buf, "(missing)");
	get("run1/iostat.gz", &text);
	if (root_dev)
		CHECK(strstr(text.buf, "\ndevices: rootdisk\n"));
	get("run1/pressure.gz", &text);
	CHECK(strstr(text.buf, "\nresource: cpu\nsome avg10="));
	CHECK(strstr(text.buf, "\nresource: memory\nsome avg10="));
	/* Not a NUMA machine: the numa monitors stay off unless named. */
	get("run1/numa-meminfo.gz", &text);
	CHECK_STR(text.buf, "(missing)");
	CHECK(run_dir_extract(run, &stats, &err) == 0);
	/* The same capture each time: counters 0, gauges the capture's. */
	CHECK(stat_value(stats, "proc-vmstat.pgfree") == 0);
	CHECK(stat_value(stats, "proc-vmstat.nr_free_pages") == 1056376);
	CHECK(stat_value(stats, "meminfo.Dirty") == 3520);
	CHECK(stat_value(stats, "vmstat.procs.r") == 1);
	CHECK(stat_value(stats, "latency_stats.hits.max") == 41);
	CHECK(stat_value(stats, "time.user_time") == 1);
	CHECK(stat_value(stats, "time.percent_of_cpu_this_job_got") == 50);
	CHECK(stat_value(stats, "interrupts.LOC:Local_timer_interrupts") == 0);
	CHECK(stat_value(stats, "softirqs.TIMER") == 0);
	CHECK(stat_value(stats, "pressure.io.some.stall%") == 0);
	if (root_dev)
		CHECK(stat_value(stats, "iostat.rootdisk.util") == 0);
	json_decref(stats);

	unsetenv("KDELTA_PROC_ROOT");
	strbuf_release(&text);
	strbuf_release(&want);
	free(path);
	free(root);
	free(run);
}

static struct jnode *monitors_job(const char *interval, const char *const *names)
{
	struct jnode *root = jnode_new_map(), *monitors = jnode_new_map();

	for (size_t i = 0; names[i]; i++) {
		struct jnode *opts = jnode_new_map();

		if (interval)
			jnode_set(opts, "interval", jnode_new_scalar(interval));
		jnode_set(monitors, names[i], opts);
	}
	jnode_set(root, "monitors", monitors);
	return root;
}

/* A machine with two NUMA nodes: the numa monitors run by default. */
static void test_numa(void)
{
	static const char *const names[] = { "numa-meminfo", "numa-vmstat",
					     NULL };
	char *root = tmp_path("fake-numa"), *run = tmp_path("run-numa");
	struct strbuf text = STRBUF_INIT, node1 = STRBUF_INIT;
	struct monitor_session *s;
	const char *line, *next;
	struct jnode *job = monitors_job(NULL, names);
	struct kd_err err;
	json_t *stats = NULL;
	bool defaults = false, both = true;

	make_dir("fake-numa/sys/devices/system/node/node0");
	make_dir("fake-numa/sys/devices/system/node/node1");
	make_dir("run-numa");
	copy_capture("node0-meminfo.1",
		     "fake-numa/sys/devices/system/node/node0/meminfo");
	copy_capture("node0-vmstat.1",
		     "fake-numa/sys/devices/system/node/node0/vmstat");
	copy_capture("node0-vmstat.1",
		     "fake-numa/sys/devices/system/node/node1/vmstat");
	/* node1's meminfo: node0's, each line "Node 1 ..." */
	get("fake-numa/sys/devices/system/node/node0/meminfo", &text);
	for (line = text.buf; (next = strstr(line, "Node 0 ")); line = next + 6) {
		strbuf_add(&node1, line, (size_t)(next - line));
		strbuf_addstr(&node1, "Node 1");
	}
	strbuf_addstr(&node1, line);
	put("fake-numa/sys/devices/system/node/node1/meminfo", node1.buf);
	setenv("KDELTA_PROC_ROOT", root, 1);

	for (size_t i = 0; monitor_registry[i]; i++)
		if (!strcmp(monitor_registry[i]->section.name, names[0]))
			defaults = !monitor_registry[i]->by_default ||
				   monitor_registry[i]->by_default();
	CHECK(defaults);
	CHECK(monitors_start(&(struct monitor_run){ job, run, NULL, -1, NULL }, &s,
			     &err) == 0);
	CHECK(monitors_stop(s, NULL, &err) == 0);
	strbuf_reset(&text);
	monitor_session_unavailable(s, &text);
	CHECK_STR(text.buf, "");
	monitor_session_free(s);
	get("run-numa/numa-meminfo.gz", &text);
	CHECK(strstr(text.buf, "\nnode: 0\nNode 0 MemTotal:"));
	CHECK(strstr(text.buf, "\nnode: 1\nNode 1 MemTotal:"));
	CHECK(run_dir_extract(run, &stats, &err) == 0);
	for (int node = 0; node < 2; node++) {
		char *m = xasprintf("numa-meminfo.node%d.SReclaimable", node);
		char *v = xasprintf("numa-vmstat.node%d.nr_slab_reclaimable", node);

		both = both && stat_value(stats, m) > 0 && stat_value(stats, v) > 0;
		free(v);
		free(m);
	}
	CHECK(both);
	json_decref(stats);
	jnode_free(job);
	unsetenv("KDELTA_PROC_ROOT");
	strbuf_release(&text);
	strbuf_release(&node1);
	free(root);
	free(run);
}

/* Only the selected monitors; latency_stats absent, with the reason. */
static void test_selection(void)
{
	static const char *const names[] = { "latency_stats", "meminfo", NULL };
	static const char *const bad[] = { "meminfo", "frob", NULL };
	struct jnode *job = monitors_job(NULL, names);
	struct jnode *bad_job = monitors_job(NULL, bad);
	struct jnode *fast_job = monitors_job("1ms", names + 1);
	char *root = tmp_path("fake2"), *run = tmp_path("run2");
	struct strbuf text = STRBUF_INIT, want = STRBUF_INIT;
	struct monitor_session *s;
	struct kd_err err;

	make_dir("fake2/proc");
	make_dir("run2");
	copy_capture("meminfo.2", "fake2/proc/meminfo");
	setenv("KDELTA_PROC_ROOT", root, 1);
	CHECK(monitors_start(&(struct monitor_run){ job, run, NULL, -1, NULL }, &s, &err) == 0);
	CHECK(monitors_stop(s, NULL, &err) == 0);
	monitor_session_unavailable(s, &text);
	strbuf_addf(&want, "latency_stats: %s/proc/latency_stats does not exist (kernel without CONFIG_LATENCYTOP)\n",
		    root);
	CHECK_STR(text.buf, want.buf);
	monitor_session_free(s);
	get("run2/meminfo.gz", &text);
	CHECK(!strncmp(text.buf, "time: ", 6));
	get("run2/proc-vmstat.gz", &text);
	CHECK_STR(text.buf, "(missing)");

	CHECK(monitors_start(&(struct monitor_run){ bad_job, run, NULL, -1, NULL }, &s, &err) == -1);
	CHECK_STR(err.msg, "monitors: unknown monitor 'frob'");
	CHECK(monitors_start(&(struct monitor_run){ fast_job, run, NULL, -1, NULL }, &s, &err) == -1);
	CHECK_STR(err.msg, "monitors: meminfo: interval 0.001s is too short: the least is 0.01s");
	unsetenv("KDELTA_PROC_ROOT");

	jnode_free(job);
	jnode_free(bad_job);
	jnode_free(fast_job);
	strbuf_release(&text);
	strbuf_release(&want);
	free(root);
	free(run);
}

static size_t count_prefix(json_t *stats, const char *prefix)
{
	const char *key;
	json_t *v;
	size_t n = 0;

	json_object_foreach(stats, key, v)
		if (!strncmp(key, prefix, strlen(prefix)))
			n++;
	return n;
}

static size_t count_samples(const char *name)
{
	struct strbuf raw = STRBUF_INIT;
	struct raw_sample sample;
	size_t pos = 0, n = 0;

	get(name, &raw);
	while (raw_next_sample(raw.buf, raw.len, &pos, &sample, NULL) > 0)
		n++;
	strbuf_release(&raw);
	return n;
}

/* This machine's /proc for two seconds, every 0.2 s. */
static void test_real(void)
{
	static const char *const names[] = {
		"proc-vmstat", "slabinfo", "meminfo", "vmstat", "latency_stats",
		"time", NULL,
	};
	struct jnode *job = monitors_job("0.2s", names);
	struct workload_usage usage = { .elapsed = 2 };
	char *run = tmp_path("run3");
	struct monitor_session *s;
	struct kd_err err;
	json_t *stats = NULL;
	bool root = access("/proc/slabinfo", R_OK) == 0;

	make_dir("run3");
	CHECK(monitors_start(&(struct monitor_run){ job, run, NULL, -1, NULL }, &s, &err) == 0);
	sleep(2);
	CHECK(monitors_stop(s, &usage, &err) == 0);
	monitor_session_free(s);
	CHECK(run_dir_extract(run, &stats, &err) == 0);
	/* At start, at stop, and (a tenth of the time asks for) some between. */
	CHECK(count_samples("run3/proc-vmstat.gz") > 2);
	CHECK(count_prefix(stats, "proc-vmstat.") >= 100);
	CHECK(count_prefix(stats, "meminfo.") >= 30);
	CHECK(count_prefix(stats, "vmstat.") >= 9);
	CHECK(count_prefix(stats, "time.") >= 11);
	if (root)
		CHECK(count_prefix(stats, "slabinfo.") >= 50);
	else
		printf("SKIP slabinfo check: /proc/slabinfo is readable by root only\n");
	json_decref(stats);
	jnode_free(job);
	free(run);
}

int main(void)
{
	char template[] = "/tmp/kdelta-test-session.XXXXXX";
	char *cmd;

	tmp = mkdtemp(template);
	if (!tmp)
		xdie("mkdtemp failed");
	test_fake_proc();
	test_selection();
	test_numa();
	test_real();
	cmd = xasprintf("rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", tmp);
	free(cmd);
	return check_done();
}
