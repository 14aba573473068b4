// SPDX-License-Identifier: GPL-2.0
/*
 * What disturbs a run, read from a tree shaped like /proc: the CPU time of
 * the other processes (not this one's, not the kernel's threads), the load
 * average, pressure, and the other kdelta runs (each counted once, not the
 * processes it forks, not this one, not other kdelta commands).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "kdelta/disturbance.h"
#include "kdelta/job.h"
#include "kdelta/util.h"

#define TEXT SIZE_MAX	/* put()'s len: the text's own length */

static void put(const char *root, const char *name, const char *text,
		size_t len)
{
	char *path = xasprintf("%s/%s", root, name);
	char *dir = xstrdup(path);
	struct kd_err err;

	if (len == TEXT)
		len = strlen(text);
	*strrchr(dir, '/') = '\0';
	CHECK(mkdir_p(dir, &err) == 0);
	CHECK(write_file_atomic(path, text, len, &err) == 0);
	free(dir);
	free(path);
}

/*
 * A process: its argv (NUL-separated, as /proc/PID/cmdline), parent,
 * flags and CPU time in clock ticks (utime, stime, cutime, cstime: 1, 2,
 * 3 and ticks - 6).
 */
static void process_full(const char *root, int pid, const char *argv,
			 size_t len, int ppid, unsigned flags, int ticks)
{
	char name[64], stat[256];

	snprintf(name, sizeof(name), "%d/cmdline", pid);
	put(root, name, argv, len);
	snprintf(name, sizeof(name), "%d/stat", pid);
	/* A command with blanks and ')' in it, as the kernel writes it. */
	snprintf(stat, sizeof(stat),
		 "%d (x) y) S %d 1 1 0 -1 %u 10 0 0 0 1 2 3 %d 20 0 1 0 50 "
		 "1000 200 18446744073709551615\n",
		 pid, ppid, flags, ticks - 6);
	put(root, name, stat, strlen(stat));
}

static void remove_process(const char *root, int pid)
{
	char *cmd = xasprintf("rm -r '%s/%d'", root, pid);

	CHECK(system(cmd) == 0);
	free(cmd);
}

#define PROCESS(root, pid, argv, ppid) \
	process_full(root, pid, argv, sizeof(argv), ppid, 0x400000, 6)
#define PF_KTHREAD 0x00200000

static char *recorded(const struct disturbance_sample *a,
		      const struct disturbance_sample *b)
{
	struct jnode *map = jnode_new_map();
	struct strbuf sb = STRBUF_INIT;

	disturbance_record(a, b, map);
	job_to_yaml(map, &sb);
	jnode_free(map);
	return strbuf_detach(&sb);
}

static void test_sample(const char *root)
{
	struct disturbance_sample a, b;
	char *yaml;

	put(root, "loadavg", "0.52 0.58 0.59 1/234 5678\n", TEXT);
	put(root, "pressure/cpu",
	    "some avg10=1.50 avg60=0.00 avg300=0.00 total=1000\n"
	    "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", TEXT);
	put(root, "pressure/io",
	    "some avg10=0.00 avg60=0.00 avg300=0.00 total=7\n"
	    "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", TEXT);
	/* No memory pressure file: left out. */
	PROCESS(root, 100, "kdelta\0run\0a.yaml", 1);
	PROCESS(root, 101, "kdelta\0run\0a.yaml", 100);	/* its workload */
	PROCESS(root, 102, "/usr/local/bin/kdelta\0bisect\0run", 1);
	PROCESS(root, 103, "kdelta\0compare\0a\0b", 1);
	PROCESS(root, 104, "/bin/sh\0-c\0kdelta run x", 1);
	PROCESS(root, 105, "kdelta-run\0run", 1);
	PROCESS(root, 200, "./build/kdelta\0run\0b.yaml", 1);	/* self */
	PROCESS(root, 201, "kdelta\0run\0b.yaml", 200);	/* self's */
	put(root, "self", "", 0);	/* not a process */
	/* Self's workload, a kernel thread, kthreadd, a process of another. */
	process_full(root, 202, "bench", 6, 201, 0x400000, 6);
	process_full(root, 300, "", 0, 2, PF_KTHREAD, 500);
	process_full(root, 2, "", 0, 0, PF_KTHREAD, 500);
	process_full(root, 1, "init", 5, 0, 0x400000, 6);
	process_full(root, 400, "make\0-j2", 9, 1, 0x400000, 100);
	/* A process whose stat is not whole: its parent is all there is. */
	put(root, "401/stat", "401 (old) S 1 1 1", TEXT);
	disturbance_read(root, 200, &a);
	CHECK(a.has_load && a.load_avg == 0.52 && a.other_runs == 2);
	/*
	 * 1, 100-105 and make: neither self's, its workload's nor the
	 * kernel's.
	 */
	CHECK(a.has_others && a.n_others == 8);
	CHECK(a.pressure[PRESSURE_CPU].present &&
	      a.pressure[PRESSURE_CPU].some_total_us == 1000 &&
	      a.pressure[PRESSURE_CPU].some_avg10 == 1.5);
	CHECK(a.pressure[PRESSURE_IO].present &&
	      !a.pressure[PRESSURE_MEMORY].present);

	put(root, "loadavg", "2.25 0.58 0.59 1/234 5678\n", TEXT);
	put(root, "pressure/cpu",
	    "some avg10=12.00 avg60=0.00 avg300=0.00 total=251000\n"
	    "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", TEXT);
	PROCESS(root, 106, "kdelta\0run\0c.yaml", 1);
	/*
	 * Meanwhile: the workload and the kernel thread worked, which does not
	 * count; make used 40 ticks more; 105 (6 ticks) ended and its pid went
	 * to a process that used 30; 106 is new (6 ticks); 104 (6 ticks) ended
	 * and its parent, 1, waited for it: 9 ticks more in its cutime, of
	 * which it had used 6 before.  40 + 30 - 6 + 6 + 9 - 6 = 73 ticks.
	 */
	process_full(root, 202, "bench", 6, 201, 0x400000, 90);
	process_full(root, 300, "", 0, 2, PF_KTHREAD, 900);
	process_full(root, 400, "make\0-j2", 9, 1, 0x400000, 140);
	process_full(root, 105, "sh", 3, 1, 0x400000, 30);
	remove_process(root, 104);
	process_full(root, 1, "init", 5, 0, 0x400000, 15);
	disturbance_read(root, 200, &b);
	CHECK(b.other_runs == 3);
	/* One second: 250 ms of CPU stall is 25%. */
	a.when = 10;
	b.when = 11;
	yaml = recorded(&a, &b);
	CHECK(sysconf(_SC_CLK_TCK) == 100);
	CHECK_STR(yaml,
		  "load_avg_start: 0.52\n"
		  "load_avg_end: 2.25\n"
		  "concurrent_runs: 3\n"
		  "others_cpu_seconds: 0.73\n"
		  "others_cpu_percent: 73.0\n"
		  "pressure:\n"
		  "  cpu:\n"
		  "    some_avg10: 12.00\n"
		  "    some_stall_us: 250000\n"
		  "    some_stall_percent: 25.00\n"
		  "  io:\n"
		  "    some_avg10: 0.00\n"
		  "    some_stall_us: 0\n"
		  "    some_stall_percent: 0.00\n");
	free(yaml);
	disturbance_sample_release(&a);
	disturbance_sample_release(&b);
}

/* Nothing readable (no /proc/pressure, a kernel without PSI): no keys. */
static void test_nothing(const char *root)
{
	struct disturbance_sample a, b;
	char *yaml;

	disturbance_read(root, 1, &a);
	disturbance_read(root, 1, &b);
	CHECK(!a.has_load && a.other_runs == 0 && !a.has_others);
	yaml = recorded(&a, &b);
	CHECK_STR(yaml, "concurrent_runs: 0\n");
	free(yaml);
	disturbance_sample_release(&a);
	disturbance_sample_release(&b);
}

int main(void)
{
	char base[] = "/tmp/kdelta-disturbance.XXXXXX";
	char *proc, *empty, *cmd;

	CHECK(mkdtemp(base) != NULL);
	proc = xasprintf("%s/proc", base);
	empty = xasprintf("%s/empty", base);
	test_sample(proc);
	test_nothing(empty);
	cmd = xasprintf("rm -rf '%s'", base);
	CHECK(system(cmd) == 0);
	free(cmd);
	free(empty);
	free(proc);
	return check_done();
}
