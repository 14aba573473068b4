/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_CMD_VM_ARGS_H
#define KDELTA_CMD_VM_ARGS_H

#include <getopt.h>
#include <stdio.h>

#include "kdelta/vm.h"

/*
 * The --vm-* options of kdelta run (with --kernel) and kdelta bisect (with
 * a build that makes kernels), src/cmd/vm-args.c: one parser, one help
 * text, one set of messages.  A command lists VM_ARGS_OPTIONS in its
 * option table, hands each value from VM_ARG_FIRST on to vm_args_take(),
 * and checks with vm_args_check() once all are in.
 */
enum {
	VM_ARG_FIRST = 1000,
	VM_ARG_RUNS_PER_BOOT = VM_ARG_FIRST,
	VM_ARG_CLOCK,
	VM_ARG_ACCEL,
	VM_ARG_CPUS,
	VM_ARG_MEMORY,
	VM_ARG_DISKS,
	VM_ARG_BOOT_TIMEOUT,
	VM_ARG_TIMEOUT,
	VM_ARG_APPEND,
	VM_ARG_FILE,
	VM_ARG_END,
};

#define VM_ARGS_OPTIONS							\
	{ "vm-runs-per-boot", required_argument, NULL, VM_ARG_RUNS_PER_BOOT }, \
	{ "vm-clock", required_argument, NULL, VM_ARG_CLOCK },		\
	{ "vm-accel", required_argument, NULL, VM_ARG_ACCEL },		\
	{ "vm-cpus", required_argument, NULL, VM_ARG_CPUS },		\
	{ "vm-memory", required_argument, NULL, VM_ARG_MEMORY },	\
	{ "vm-disks", required_argument, NULL, VM_ARG_DISKS },		\
	{ "vm-boot-timeout", required_argument, NULL, VM_ARG_BOOT_TIMEOUT }, \
	{ "vm-timeout", required_argument, NULL, VM_ARG_TIMEOUT },	\
	{ "vm-append", required_argument, NULL, VM_ARG_APPEND },	\
	{ "vm-file", required_argument, NULL, VM_ARG_FILE }

struct vm_args {
	struct vm_options vo;		/* kernels: the command's */
	size_t kernels_alloc;
	const char **files;		/* vo.files' storage */
	size_t files_alloc;
	const char *first;		/* the first --vm-* given, or NULL */
};

/* Whether c is one of VM_ARGS_OPTIONS' values. */
static inline int vm_args_is(int c)
{
	return c >= VM_ARG_FIRST && c < VM_ARG_END;
}

/* Takes option c's value; -1 after cmd_error(command, ...). */
int vm_args_take(struct vm_args *a, int c, const char *arg,
		 const char *command);

/*
 * The combinations the options refuse (the instruction clock with KVM or
 * with more than one CPU), then the defaults of those not given; -1 after
 * cmd_error().
 */
int vm_args_check(struct vm_args *a, const char *command);

/* The options' help, as --help lists them. */
void vm_args_usage(FILE *out);

void vm_args_release(struct vm_args *a);

#endif
