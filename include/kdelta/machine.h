/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_MACHINE_H
#define KDELTA_MACHINE_H

#include <stdint.h>

#include "kdelta/err.h"
#include "kdelta/job.h"
#include "kdelta/strbuf.h"

/*
 * The test machine, recorded in every run's job.yaml under "machine", so
 * that a report can say "test machine: 2 threads AMD EPYC with 24G memory".
 */
struct machine {
	char *hostname;
	char *cpu_model;
	long nr_cpu;
	uint64_t memory;	/* bytes, MemTotal */
	char *kernel_release;	/* uname -r */
	char *kernel_version;	/* /proc/version */
};

int machine_read(struct machine *m, struct kd_err *err);
void machine_release(struct machine *m);

/* Parsers of /proc/cpuinfo and /proc/meminfo text, for machine_read(). */
char *cpuinfo_model(const char *cpuinfo);
long cpuinfo_nr_cpu(const char *cpuinfo);
uint64_t meminfo_total(const char *meminfo);

/* { hostname, cpu_model, nr_cpu, memory, memory_human, kernel_release,
 *   kernel_version } */
struct jnode *machine_to_jnode(const struct machine *m);

/* 24G, 512M, 1.5T: powers of 1024, at most one decimal. */
void format_size_human(struct strbuf *out, uint64_t bytes);

/*
 * The commit label of the running kernel: its release and a short hash of
 * /proc/version, "6.18.44-fc-v669-1a2b3c4d", so that two builds of the same
 * release differ.
 */
char *kernel_commit_label(const struct machine *m);

#endif
