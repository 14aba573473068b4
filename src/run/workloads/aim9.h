/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_WORKLOADS_AIM9_H
#define KDELTA_WORKLOADS_AIM9_H

/*
 * AIM9's tests (src/workloads/aim9*.c), one family a file: aim9-cpu.c
 * (arithmetic, calls, numeric and memory routines), aim9-sys.c (processes,
 * memory, signals, shells), aim9-file.c (files and directories),
 * aim9-ipc.c (pipes, FIFOs, sockets).  Each is written from what AIM9's
 * documentation says the test measures, not from AIM's code; the unit of
 * an operation is in its "what".
 */
#include <stdint.h>

#include "kdelta/err.h"

struct aim9_test {
	const char *name;	/* lkp-tests' name: add_double, creat-clo */
	const char *what;	/* one operation, for the man page */
	/* Before the clock: *state for run(); NULL when not needed. */
	int (*setup)(void **state, struct kd_err *err);
	/* n operations; 0, or -1 with err. */
	int (*run)(void *state, uint64_t n, struct kd_err *err);
	/* After the clock, also after a failure; removes what setup made. */
	void (*teardown)(void *state);
};

/* Each family's tests, ended by one with a NULL name. */
extern const struct aim9_test aim9_cpu_tests[], aim9_sys_tests[],
	aim9_file_tests[], aim9_ipc_tests[];

/*
 * Keeps the compiler from computing a loop's value once, or not at all:
 * the value goes through memory, where the compiler cannot see it.
 */
#define AIM9_KEEP(x) __asm__ volatile("" : "+m"(x))

#endif
