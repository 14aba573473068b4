// SPDX-License-Identifier: GPL-2.0
/*
 * What disturbs a run: the CPU time other processes used, other kdelta
 * runs, the load average and pressure stall information
 * (Documentation/accounting/psi.rst), read before and after the workload.
 * See kdelta/disturbance.h.
 */
#include <ctype.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kdelta/disturbance.h"
#include "kdelta/job.h"
#include "kdelta/run-record.h"
#include "kdelta/strbuf.h"
#include "kdelta/util.h"

static const char *const pressure_names[PRESSURE_RESOURCES] = { "cpu", "io", "memory" };

/* A /proc file's text; false when it cannot be read. */
static bool read_proc(const char *proc, const char *name, struct strbuf *out)
{
	char *path = xasprintf("%s/%s", proc, name);
	struct kd_err err;
	bool ok;

	strbuf_reset(out);
	ok = read_file(path, out, &err) == 0;
	free(path);
	return ok;
}

/* "some avg10=1.23 avg60=... total=456": the "some" line of a PSI file. */
static bool parse_pressure(const char *text, struct pressure_reading *p)
{
	const char *some = strstr(text, "some ");
	const char *avg10, *total;
	char *end;

	if (!some || (some != text && some[-1] != '\n'))
		return false;
	avg10 = strstr(some, "avg10=");
	total = strstr(some, "total=");
	if (!avg10 || !total || memchr(some, '\n', total - some))
		return false;
	p->some_avg10 = strtod(avg10 + 6, &end);
	if (end == avg10 + 6)
		return false;
	if (!isdigit((unsigned char)total[6]))
		return false;
	p->some_total_us = strtoull(total + 6, NULL, 10);
	p->present = true;
	return true;
}

static void read_pressure(const char *proc, struct disturbance_sample *s,
			  struct strbuf *text)
{
	for (int i = 0; i < PRESSURE_RESOURCES; i++) {
		char name[32];

		snprintf(name, sizeof(name), "pressure/%s", pressure_names[i]);
		s->pressure[i].present = false;
		if (read_proc(proc, name, text))
			parse_pressure(text->buf, &s->pressure[i]);
	}
}

/* argv[0]'s base name is kdelta and argv[1] a command that runs workloads. */
static bool runs_workloads(const char *proc, const char *pid,
			   struct strbuf *text)
{
	char *name = xasprintf("%s/cmdline", pid);
	const char *argv0, *base, *command;
	bool ok = read_proc(proc, name, text);

	free(name);
	if (!ok || !text->len)
		return false;
	argv0 = text->buf;
	base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	if (strcmp(base, "kdelta"))
		return false;
	command = argv0 + strlen(argv0) + 1;
	if (command >= text->buf + text->len)
		return false;
	return !strcmp(command, "run") || !strcmp(command, "bisect");
}

static bool is_pid(const char *name)
{
	if (!*name)
		return false;
	for (; *name; name++)
		if (!isdigit((unsigned char)*name))
			return false;
	return true;
}

/* A process of the scan. */
struct process {
	long pid, ppid;
	uint64_t ticks;		/* as struct process_cpu's */
	bool has_cpu;		/* its CPU time was read */
	bool kernel_thread;
	bool runs;		/* a kdelta that runs workloads */
};

#define PF_KTHREAD 0x00200000	/* include/linux/sched.h */

/*
 * /proc/PID/stat (proc(5)): after the command's ")", the parent (field
 * 4), flags (9), utime, stime, cutime and cstime (14-17).  False when not
 * even the parent can be read.
 */
static bool parse_stat(const char *text, struct process *p)
{
	const char *close = strrchr(text, ')');
	unsigned long long utime, stime;
	long long cutime, cstime;
	unsigned flags;

	if (!close || sscanf(close + 1, " %*c %ld", &p->ppid) != 1)
		return false;
	if (sscanf(close + 1, " %*c %*d %*d %*d %*d %*d %u %*u %*u %*u %*u "
		   "%llu %llu %lld %lld",
		   &flags, &utime, &stime, &cutime, &cstime) != 5)
		return true;
	p->kernel_thread = flags & PF_KTHREAD;
	p->ticks = utime + stime + (uint64_t)(cutime > 0 ? cutime : 0) +
		       (uint64_t)(cstime > 0 ? cstime : 0);
	p->has_cpu = true;
	return true;
}

static int by_pid(const void *a, const void *b)
{
	long x = ((const struct process *)a)->pid;
	long y = ((const struct process *)b)->pid;

	return (x > y) - (x < y);
}

static struct process *find_process(struct process *all, size_t n, long pid)
{
	struct process key = { .pid = pid };

	return bsearch(&key, all, n, sizeof(*all), by_pid);
}

/* The processes in proc, by pid; false when proc cannot be listed. */
static bool scan_processes(const char *proc, struct process **out,
			   size_t *n_out)
{
	struct strbuf text = STRBUF_INIT;
	struct process *all = NULL;
	size_t n = 0, alloc = 0;
	DIR *dir = opendir(proc);
	struct dirent *d;

	*out = NULL;
	*n_out = 0;
	if (!dir)
		return false;
	while ((d = readdir(dir))) {
		struct process p = { 0 };
		char *name;
		bool ok;

		if (!is_pid(d->d_name))
			continue;
		p.pid = strtol(d->d_name, NULL, 10);
		name = xasprintf("%s/stat", d->d_name);
		ok = read_proc(proc, name, &text) && parse_stat(text.buf, &p);
		free(name);
		if (!ok)
			continue;	/* gone meanwhile */
		p.kernel_thread |= p.pid == 2 || p.ppid == 2;	/* kthreadd */
		p.runs = runs_workloads(proc, d->d_name, &text);
		ALLOC_GROW(all, n + 1, alloc);
		all[n++] = p;
	}
	closedir(dir);
	strbuf_release(&text);
	qsort(all, n, sizeof(*all), by_pid);
	*out = all;
	*n_out = n;
	return true;
}

/* Self, or a process self forked (at any depth). */
static bool in_tree(struct process *all, size_t n, const struct process *p,
		    pid_t self)
{
	for (int depth = 0; p && depth < 4096; depth++) {
		if (p->pid == self)
			return true;
		if (p->ppid <= 0 || p->ppid == p->pid)
			return false;
		p = find_process(all, n, p->ppid);
	}
	return false;
}

/* The kdelta runs but self, each once: not those a kdelta run forked. */
static unsigned count_other_runs(struct process *all, size_t n, pid_t self)
{
	unsigned runs = 0;

	for (size_t i = 0; i < n; i++) {
		const struct process *parent;

		if (!all[i].runs || all[i].pid == self)
			continue;
		parent = find_process(all, n, all[i].ppid);
		if (!parent || !parent->runs)
			runs++;
	}
	return runs;
}

/* The CPU times of the processes that are neither self's nor the kernel's. */
static void read_others(struct process *all, size_t n, pid_t self,
			struct disturbance_sample *s)
{
	size_t alloc = 0;

	for (size_t i = 0; i < n; i++) {
		if (!all[i].has_cpu || all[i].kernel_thread ||
		    in_tree(all, n, &all[i], self))
			continue;
		ALLOC_GROW(s->others, s->n_others + 1, alloc);
		s->others[s->n_others++] = (struct process_cpu){
			.pid = all[i].pid, .ticks = all[i].ticks };
	}
}

void disturbance_read(const char *proc, pid_t self,
		      struct disturbance_sample *s)
{
	struct strbuf text = STRBUF_INIT;
	struct process *all;
	size_t n;
	char *end;

	memset(s, 0, sizeof(*s));
	s->when = now_monotonic();
	if (read_proc(proc, "loadavg", &text)) {
		s->load_avg = strtod(text.buf, &end);
		s->has_load = end != text.buf;
	}
	read_pressure(proc, s, &text);
	if (scan_processes(proc, &all, &n)) {
		s->other_runs = count_other_runs(all, n, self);
		read_others(all, n, self, s);
		s->has_others = true;
		free(all);
	}
	strbuf_release(&text);
}

void disturbance_sample_release(struct disturbance_sample *s)
{
	free(s->others);
	s->others = NULL;
	s->n_others = 0;
}

/*
 * The clock ticks the other processes used between start and end: each
 * one's rise, all of it for one that started meanwhile.  A process that
 * ended meanwhile counts in its parent's cutime, whole, when the parent
 * waited for it: what it had used before start comes off again (a pid
 * reused meanwhile is both, one process ended and one started).
 */
static uint64_t others_ticks(const struct disturbance_sample *start,
			     const struct disturbance_sample *end)
{
	const struct process_cpu *a = start->others, *b = end->others;
	size_t i = 0, j = 0;
	int64_t ticks = 0;

	while (i < start->n_others || j < end->n_others) {
		if (i == start->n_others ||
		    (j < end->n_others && b[j].pid < a[i].pid)) {
			ticks += (int64_t)b[j++].ticks;		/* new */
		} else if (j == end->n_others || a[i].pid < b[j].pid) {
			ticks -= (int64_t)a[i++].ticks;		/* ended */
		} else {
			ticks += (int64_t)b[j++].ticks - (int64_t)a[i++].ticks;
		}
	}
	return ticks > 0 ? (uint64_t)ticks : 0;
}

static void set_number(struct jnode *map, const char *key, const char *fmt,
		       ...) __attribute__((format(printf, 3, 4)));

static void set_number(struct jnode *map, const char *key, const char *fmt,
		       ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	jnode_set(map, key, jnode_new_scalar(sb.buf));
	strbuf_release(&sb);
}

static void record_pressure(const struct disturbance_sample *start,
			    const struct disturbance_sample *end,
			    struct jnode *kdelta)
{
	double elapsed_us = (end->when - start->when) * 1e6;
	struct jnode *pressure = NULL;

	for (int i = 0; i < PRESSURE_RESOURCES; i++) {
		const struct pressure_reading *a = &start->pressure[i];
		const struct pressure_reading *b = &end->pressure[i];
		uint64_t stalled;
		struct jnode *map;

		if (!a->present || !b->present)
			continue;
		stalled = b->some_total_us >= a->some_total_us ?
			  b->some_total_us - a->some_total_us : 0;
		map = jnode_new_map();
		set_number(map, "some_avg10", "%.2f", b->some_avg10);
		set_number(map, "some_stall_us", "%" PRIu64, stalled);
		set_number(map, RUN_RECORD_STALL_PERCENT, "%.2f",
			   elapsed_us > 0 ? 100.0 * (double)stalled / elapsed_us : 0);
		if (!pressure)
			pressure = jnode_new_map();
		jnode_set(pressure, pressure_names[i], map);
	}
	if (pressure)
		jnode_set(kdelta, RUN_RECORD_PRESSURE, pressure);
}

void disturbance_record(const struct disturbance_sample *start,
			const struct disturbance_sample *end,
			struct jnode *kdelta)
{
	if (start->has_load)
		set_number(kdelta, RUN_RECORD_LOAD_START, "%.2f", start->load_avg);
	if (end->has_load)
		set_number(kdelta, RUN_RECORD_LOAD_END, "%.2f", end->load_avg);
	set_number(kdelta, RUN_RECORD_CONCURRENT, "%u",
		   start->other_runs > end->other_runs ? start->other_runs :
							 end->other_runs);
	if (start->has_others && end->has_others) {
		double seconds = (double)others_ticks(start, end) /
				 (double)sysconf(_SC_CLK_TCK);
		double elapsed = end->when - start->when;

		set_number(kdelta, RUN_RECORD_OTHERS_SECONDS, "%.2f", seconds);
		set_number(kdelta, RUN_RECORD_OTHERS_PERCENT, "%.1f",
			   elapsed > 0 ? 100 * seconds / elapsed : 0);
	}
	record_pressure(start, end, kdelta);
}
