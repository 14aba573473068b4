// SPDX-License-Identifier: GPL-2.0
/*
 * AIM9's system tests: memory from the kernel, processes, signals, shell
 * scripts and shared memory, written from what AIM9's documentation says
 * each measures ("System Memory Allocations", "Task Creations", "Program
 * Loads", "Signal Traps", "Shell Scripts", "Shared Memory Operations").
 * Child processes start through proc.h, as every child of kdelta does.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include "aim9.h"
#include "kdelta/proc.h"

#define BRK_BYTES (64 << 10)

/* System memory allocations: the break raised by 64 KiB and lowered. */
static int brk_test(void *state, uint64_t n, struct kd_err *err)
{
	(void)state;
	for (uint64_t k = 0; k < n; k++) {
		if (sbrk(BRK_BYTES) == (void *)-1)
			return kd_error(err, "sbrk: %s", strerror(errno));
		if (sbrk(-BRK_BYTES) == (void *)-1)
			return kd_error(err, "sbrk: %s", strerror(errno));
	}
	return 0;
}

#define PAGE_TEST_PAGES 16

/* System allocations & pages: 16 pages mapped, each touched, unmapped. */
static int page_test(void *state, uint64_t n, struct kd_err *err)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)page * PAGE_TEST_PAGES;

	(void)state;
	for (uint64_t k = 0; k < n; k++) {
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return kd_error(err, "mmap: %s", strerror(errno));
		for (size_t off = 0; off < len; off += (size_t)page)
			p[off] = 1;
		if (munmap(p, len) < 0)
			return kd_error(err, "munmap: %s", strerror(errno));
	}
	return 0;
}

/* Runs p (what: its name in errors) to its end, quietly; it must exit 0. */
static int run_quietly(struct proc *p, const char *what, struct kd_err *err)
{
	int ret;

	p->out = PROC_NULL;
	p->err = PROC_NULL;
	ret = proc_run(p, err);
	if (!ret && (p->end != PROC_EXITED || p->status))
		ret = kd_error(err, "%s ended with status %d", what, p->status);
	proc_clear(p);
	return ret;
}

/* Runs argv to its end; it must exit 0. */
static int run_child(const char *const *argv, struct kd_err *err)
{
	struct proc p = PROC_INIT;

	p.argv = argv;
	return run_quietly(&p, argv[0], err);
}

/* Program loads: /bin/true started, and waited for. */
static int exec_test(void *state, uint64_t n, struct kd_err *err)
{
	static const char *const argv[] = { "/bin/true", NULL };

	(void)state;
	for (uint64_t k = 0; k < n; k++)
		if (run_child(argv, err))
			return -1;
	return 0;
}

static int child_exits(void *arg)
{
	(void)arg;
	return 0;
}

/* Task creations: a child forked that exits at once, and waited for. */
static int fork_test(void *state, uint64_t n, struct kd_err *err)
{
	(void)state;
	for (uint64_t k = 0; k < n; k++) {
		struct proc p = PROC_INIT;

		p.fn = child_exits;
		if (run_quietly(&p, "the child", err))
			return -1;
	}
	return 0;
}

static volatile sig_atomic_t signals_caught;

static void catch_signal(int sig)
{
	(void)sig;
	signals_caught++;
}

static int signal_setup(void **state, struct kd_err *err)
{
	struct sigaction sa = { .sa_handler = catch_signal };

	*state = NULL;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) < 0)
		return kd_error(err, "sigaction: %s", strerror(errno));
	return 0;
}

/* Signal traps: SIGUSR1 sent to itself and caught by a handler. */
static int signal_test(void *state, uint64_t n, struct kd_err *err)
{
	(void)state;
	signals_caught = 0;
	for (uint64_t k = 0; k < n; k++)
		if (kill(getpid(), SIGUSR1) < 0)
			return kd_error(err, "kill: %s", strerror(errno));
	if ((uint64_t)signals_caught != n)
		return kd_error(err, "%d of %llu signals caught",
				(int)signals_caught, (unsigned long long)n);
	return 0;
}

static void signal_teardown(void *state)
{
	(void)state;
	signal(SIGUSR1, SIG_DFL);
}

/*
 * Shell scripts, three of them: the shell's own arithmetic in a loop; a
 * pipeline of programs; files made, read and removed in the current
 * directory.
 */
static int shell(const char *script, uint64_t n, struct kd_err *err)
{
	const char *const argv[] = { "/bin/sh", "-c", script, NULL };

	for (uint64_t k = 0; k < n; k++)
		if (run_child(argv, err))
			return -1;
	return 0;
}

static int shell_rtns_1(void *state, uint64_t n, struct kd_err *err)
{
	(void)state;
	return shell("i=0; while [ $i -lt 20 ]; do i=$((i + 1)); done", n, err);
}

static int shell_rtns_2(void *state, uint64_t n, struct kd_err *err)
{
	(void)state;
	return shell("echo aim9 shell | tr a-z A-Z | wc -c >/dev/null", n, err);
}

static int shell_rtns_3(void *state, uint64_t n, struct kd_err *err)
{
	(void)state;
	return shell("for f in a b c; do echo $f >aim9-sh.$f; done; "
		     "cat aim9-sh.a aim9-sh.b aim9-sh.c >/dev/null; "
		     "rm aim9-sh.a aim9-sh.b aim9-sh.c", n, err);
}

#define SHM_BYTES 4096

struct shm_state {
	int id;
};

static int shm_setup(void **state, struct kd_err *err)
{
	struct shm_state *s = calloc(1, sizeof(*s));

	if (!s)
		return kd_error(err, "out of memory");
	s->id = shmget(IPC_PRIVATE, SHM_BYTES, IPC_CREAT | 0600);
	if (s->id < 0) {
		free(s);
		return kd_error(err, "shmget: %s", strerror(errno));
	}
	*state = s;
	return 0;
}

/*
 * Shared memory operations: a System V segment attached, written, read
 * and detached.
 */
static int shared_memory(void *state, uint64_t n, struct kd_err *err)
{
	struct shm_state *s = state;

	for (uint64_t k = 0; k < n; k++) {
		volatile uint64_t *p = shmat(s->id, NULL, 0);

		if (p == (void *)-1)
			return kd_error(err, "shmat: %s", strerror(errno));
		p[0] = k;
		if (p[0] != k)
			return kd_error(err, "shared memory lost a write");
		if (shmdt((const void *)p) < 0)
			return kd_error(err, "shmdt: %s", strerror(errno));
	}
	return 0;
}

static void shm_teardown(void *state)
{
	struct shm_state *s = state;

	if (!s)
		return;
	shmctl(s->id, IPC_RMID, NULL);
	free(s);
}

const struct aim9_test aim9_sys_tests[] = {
	{ "brk_test", "the break raised by 64 KiB and lowered again (sbrk)",
	  NULL, brk_test, NULL },
	{ "exec_test", "/bin/true started and waited for (fork, exec, wait)",
	  NULL, exec_test, NULL },
	{ "fork_test", "a child forked that exits at once, waited for", NULL,
	  fork_test, NULL },
	{ "page_test", "16 pages mapped, each touched, unmapped", NULL,
	  page_test, NULL },
	{ "shared_memory", "a System V shared memory segment attached, written, read and detached",
	  shm_setup, shared_memory, shm_teardown },
	{ "shell_rtns_1", "a /bin/sh script counting to 20 in a loop", NULL,
	  shell_rtns_1, NULL },
	{ "shell_rtns_2", "a /bin/sh pipeline of echo, tr and wc", NULL,
	  shell_rtns_2, NULL },
	{ "shell_rtns_3", "a /bin/sh script that writes, reads and removes 3 files",
	  NULL, shell_rtns_3, NULL },
	{ "signal_test", "SIGUSR1 sent to itself and caught", signal_setup,
	  signal_test, signal_teardown },
	{ NULL },
};
