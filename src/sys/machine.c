// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kdelta/machine.h"
#include "kdelta/util.h"

/* The value of the first "key<blanks>: value" line of text, or NULL. */
static char *colon_value(const char *text, const char *key)
{
	size_t klen = strlen(key);

	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		const char *end = nl ? nl : line + strlen(line);

		if (!strncmp(line, key, klen) && strchr(" \t:", line[klen])) {
			const char *v = line + klen;

			while (v < end && (*v == ' ' || *v == '\t'))
				v++;
			if (v < end && *v == ':') {
				v++;
				while (v < end && (*v == ' ' || *v == '\t'))
					v++;
				while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
					end--;
				return xstrndup(v, end - v);
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	return NULL;
}

char *cpuinfo_model(const char *cpuinfo)
{
	/* x86 says "model name"; arm64 has no model, "CPU part" is a number. */
	static const char *const keys[] = { "model name", "Model", "cpu model",
					    "cpu", "Processor" };

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		char *v = colon_value(cpuinfo, keys[i]);

		if (v && *v)
			return v;
		free(v);
	}
	return xstrdup("unknown");
}

long cpuinfo_nr_cpu(const char *cpuinfo)
{
	long n = 0;

	for (const char *line = cpuinfo; line && *line;) {
		if (!strncmp(line, "processor", 9) && strchr(" \t:", line[9]))
			n++;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return n;
}

uint64_t meminfo_total(const char *meminfo)
{
	char *v = colon_value(meminfo, "MemTotal");
	uint64_t kb = v ? strtoull(v, NULL, 10) : 0;

	free(v);
	return kb * 1024;
}

static int read_proc_text(const char *path, struct strbuf *sb,
			  struct kd_err *err)
{
	strbuf_reset(sb);
	return read_file(path, sb, err);
}

int machine_read(struct machine *m, struct kd_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct utsname u;

	memset(m, 0, sizeof(*m));
	if (uname(&u) < 0)
		return kd_error(err, "uname: %s", strerror(errno));
	m->hostname = xstrdup(u.nodename);
	m->kernel_release = xstrdup(u.release);
	if (read_proc_text("/proc/cpuinfo", &sb, err) < 0)
		goto fail;
	m->cpu_model = cpuinfo_model(sb.buf);
	m->nr_cpu = cpuinfo_nr_cpu(sb.buf);
	if (m->nr_cpu <= 0)
		m->nr_cpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (read_proc_text("/proc/meminfo", &sb, err) < 0)
		goto fail;
	m->memory = meminfo_total(sb.buf);
	if (read_proc_text("/proc/version", &sb, err) < 0)
		goto fail;
	strbuf_rtrim(&sb);
	m->kernel_version = strbuf_detach(&sb);
	return 0;
fail:
	strbuf_release(&sb);
	machine_release(m);
	return -1;
}

void machine_release(struct machine *m)
{
	free(m->hostname);
	free(m->cpu_model);
	free(m->kernel_release);
	free(m->kernel_version);
	memset(m, 0, sizeof(*m));
}

void format_size_human(struct strbuf *out, uint64_t bytes)
{
	static const char units[] = "KMGTPE";
	double v = bytes;
	int u = -1;

	while (v >= 1024 && u < (int)sizeof(units) - 2) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		strbuf_addf(out, "%" PRIu64, bytes);
	else if (v >= 10 || v == (double)(uint64_t)v)
		strbuf_addf(out, "%.0f%c", v, units[u]);
	else
		strbuf_addf(out, "%.1f%c", v, units[u]);
}

static void set_str(struct jnode *map, const char *key, const char *value)
{
	jnode_set(map, key, jnode_new_scalar(value));
}

struct jnode *machine_to_jnode(const struct machine *m)
{
	struct jnode *map = jnode_new_map();
	struct strbuf sb = STRBUF_INIT;

	set_str(map, "hostname", m->hostname);
	set_str(map, "cpu_model", m->cpu_model);
	strbuf_addf(&sb, "%ld", m->nr_cpu);
	set_str(map, "nr_cpu", sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%" PRIu64, m->memory);
	set_str(map, "memory", sb.buf);
	strbuf_reset(&sb);
	format_size_human(&sb, m->memory);
	set_str(map, "memory_human", sb.buf);
	set_str(map, "kernel_release", m->kernel_release);
	set_str(map, "kernel_version", m->kernel_version);
	strbuf_release(&sb);
	return map;
}

char *kernel_commit_label(const struct machine *m)
{
	const char *v = m->kernel_version ? m->kernel_version : "";
	char *label = xasprintf("%s-%08" PRIx64, m->kernel_release,
				hash64(v, strlen(v)) & 0xffffffffu);
	char *safe = safe_name(label, 100);

	free(label);
	return safe;
}
