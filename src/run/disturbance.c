// SPDX-License-Identifier: GPL-2.0
/*
 * What disturbs a run: the load average, pressure stall information
 * (Documentation/accounting/psi.rst) and other kdelta runs, read before
 * and after the workload.  See kdelta/disturbance.h.
 */
#include <ctype.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The parent's pid from /proc/<pid>/stat, after the command's ")"; 0. */
static long parent_of(const char *proc, const char *pid, struct strbuf *text)
{
	char *name = xasprintf("%s/stat", pid);
	const char *close;
	long ppid = 0;
	bool ok = read_proc(proc, name, text);

	free(name);
	if (!ok)
		return 0;
	close = strrchr(text->buf, ')');
	if (!close || sscanf(close + 1, " %*c %ld", &ppid) != 1)
		return 0;
	return ppid;
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

unsigned disturbance_other_runs(const char *proc, pid_t self)
{
	struct strbuf text = STRBUF_INIT;
	DIR *dir = opendir(proc);
	struct dirent *d;
	unsigned n = 0;

	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		char parent[32];
		long ppid;

		if (!is_pid(d->d_name) || strtol(d->d_name, NULL, 10) == self ||
		    !runs_workloads(proc, d->d_name, &text))
			continue;
		/* A kdelta forked by a kdelta run is part of that run. */
		ppid = parent_of(proc, d->d_name, &text);
		snprintf(parent, sizeof(parent), "%ld", ppid);
		if (ppid > 0 && runs_workloads(proc, parent, &text))
			continue;
		n++;
	}
	closedir(dir);
	strbuf_release(&text);
	return n;
}

void disturbance_read(const char *proc, pid_t self,
		      struct disturbance_sample *s)
{
	struct strbuf text = STRBUF_INIT;
	char *end;

	s->when = now_monotonic();
	s->has_load = false;
	if (read_proc(proc, "loadavg", &text)) {
		s->load_avg = strtod(text.buf, &end);
		s->has_load = end != text.buf;
	}
	read_pressure(proc, s, &text);
	s->other_runs = disturbance_other_runs(proc, self);
	strbuf_release(&text);
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
	record_pressure(start, end, kdelta);
}
