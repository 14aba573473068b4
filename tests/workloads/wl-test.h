/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_TESTS_WL_TEST_H
#define KDELTA_TESTS_WL_TEST_H

/*
 * Runs a workload as the runner does: in a forked child whose current
 * directory is a fresh work directory, with the job's parameters (every
 * declared default, then the test's values), and collects what it printed,
 * its error, and what it left in the directory.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "kdelta/strbuf.h"
#include "kdelta/util.h"
#include "kdelta/workload.h"

struct wl_outcome {
	int status;		/* 0: run() returned 0; 1: it failed; -1: other */
	char err[2048];		/* its message when it failed */
	struct strbuf out;	/* what it wrote to out */
	struct strbuf stderr_text;	/* what it wrote to stderr */
	struct strbuf left;	/* files left in the work directory, sorted */
};

/*
 * The child's exit statuses: none is 1, the status the sanitizers exit with
 * when they find a leak.
 */
#define WL_CHILD_RUN_OK 10
#define WL_CHILD_RUN_FAILED 11
#define WL_CHILD_SETUP_FAILED 12
#define WL_CHILD_LEFT_CHILDREN 13

/*
 * Setups for wl_run(): the workload runs as an ordinary user (nobody when
 * the test runs as root), in its directory or in one it may not write to.
 */
static inline void wl_as_user(void)
{
	if (geteuid() != 0)
		return;
	if (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
	    setresuid(65534, 65534, 65534) < 0)
		exit(WL_CHILD_SETUP_FAILED);
	/* Changing uid made the process undumpable; LeakSanitizer needs it. */
	prctl(PR_SET_DUMPABLE, 1);
}

static inline void wl_as_user_readonly_dir(void)
{
	if (chmod(".", 0555) < 0)
		exit(WL_CHILD_SETUP_FAILED);
	wl_as_user();
}

/* A parameter map: every default the workload declares, then key, value... */
static inline struct jnode *wl_params(const struct workload *wl, ...)
{
	struct jnode *map = jnode_new_map();
	const char *key;
	va_list ap;

	for (const struct param_spec *p = wl->section.params; p->name; p++) {
		struct kd_err err;

		if (!p->def)
			continue;
		CHECK(param_check(p, p->def, &err) == 0);
		jnode_set(map, p->name, jnode_new_scalar(p->def));
	}
	va_start(ap, wl);
	while ((key = va_arg(ap, const char *)))
		jnode_set(map, key, jnode_new_scalar(va_arg(ap, const char *)));
	va_end(ap);
	return map;
}

/* A list of scalars, as the job loader makes for PARAM_LIST values. */
static inline struct jnode *wl_list(const char *const *items, size_t n)
{
	struct jnode *list = jnode_new_map();

	list->kind = JNODE_LIST;
	list->values = xcalloc(n, sizeof(*list->values));
	for (list->n = 0; list->n < n; list->n++)
		list->values[list->n] = jnode_new_scalar(items[list->n]);
	return list;
}

static inline int wl_compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir, sorted, one per line; removes them (not recursive). */
static inline void wl_list_and_clean(const char *dir, struct strbuf *left)
{
	char **names = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *de;
	DIR *d = opendir(dir);

	CHECK(d != NULL);
	while (d && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = xstrdup(de->d_name);
	}
	if (d)
		closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), wl_compare_names);
	for (size_t i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);

		strbuf_addf(left, "%s\n", names[i]);
		unlink(path);
		free(path);
		free(names[i]);
	}
	free(names);
}

/* In the child: runs the workload in dir; never returns. */
static inline _Noreturn void wl_child(const struct workload *wl, struct jnode *params,
			       const char *dir, const char *base, void (*setup)(void))
{
	char *out_path = xasprintf("%s/%s.log", base, wl->section.name);
	char *stderr_path = xasprintf("%s/%s.stderr", base, wl->section.name);
	char *err_path = xasprintf("%s/%s.err", base, wl->section.name);
	struct kd_err err = { .msg = "" };
	FILE *out = fopen(out_path, "w");
	int ret, fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int stderr_fd = open(stderr_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	free(out_path);
	free(stderr_path);
	free(err_path);
	/* As the runner does: stderr goes to a file of its own. */
	if (!out || fd < 0 || stderr_fd < 0 ||
	    dup2(stderr_fd, STDERR_FILENO) < 0 || chdir(dir) < 0)
		exit(WL_CHILD_SETUP_FAILED);
	close(stderr_fd);
	if (setup)
		setup();
	ret = wl->run(params, out, &err);
	fclose(out);
	jnode_free(params);
	if (write(fd, err.msg, strlen(err.msg)) < 0)
		exit(WL_CHILD_SETUP_FAILED);
	close(fd);
	/* run() must have reaped every process it started. */
	if (waitpid(-1, NULL, WNOHANG) != -1 || errno != ECHILD)
		exit(WL_CHILD_LEFT_CHILDREN);
	/* exit(), not _exit(): the leak check runs in the child too. */
	exit(ret == 0 ? WL_CHILD_RUN_OK : WL_CHILD_RUN_FAILED);
}

/* Reads what the child left in base (and removes it): its files, the work dir. */
static inline void wl_collect(const char *base, const char *name,
			      struct wl_outcome *o)
{
	static const char *const kinds[] = { "log", "err", "stderr" };
	struct strbuf *into[] = { &o->out, NULL, &o->stderr_text };
	struct strbuf err = STRBUF_INIT;
	char *dir = xasprintf("%s/work", base);

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		char *path = xasprintf("%s/%s.%s", base, name, kinds[i]);

		CHECK(read_file(path, into[i] ? into[i] : &err, NULL) == 0);
		unlink(path);
		free(path);
	}
	snprintf(o->err, sizeof(o->err), "%s", err.buf);
	strbuf_release(&err);
	if (o->status < 0)	/* a sanitizer's report, say */
		fprintf(stderr, "%s: the child's stderr:\n%s", name,
			o->stderr_text.buf);
	wl_list_and_clean(dir, &o->left);
	CHECK(rmdir(dir) == 0);
	CHECK(rmdir(base) == 0);
	free(dir);
}

/*
 * Runs workload name with params (which it frees) in a fresh directory;
 * setup, if not NULL, runs in the child in that directory first.
 */
static inline void wl_run(const char *name, struct jnode *params,
			  void (*setup)(void), struct wl_outcome *o)
{
	const struct workload *wl = workload_find(name);
	char base[] = "/tmp/kdelta-wl.XXXXXX";
	int status = -1;
	char *dir;
	pid_t pid;

	memset(o, 0, sizeof(*o));
	strbuf_init(&o->out);
	strbuf_init(&o->left);
	strbuf_init(&o->stderr_text);
	CHECK(wl != NULL && mkdtemp(base) != NULL);
	if (!wl) {
		jnode_free(params);
		return;
	}
	dir = xasprintf("%s/work", base);
	CHECK(mkdir(dir, 0777) == 0 && chmod(dir, 0777) == 0);
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		wl_child(wl, params, dir, base, setup);
	free(dir);
	jnode_free(params);
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == WL_CHILD_RUN_OK)
		o->status = 0;
	else if (WIFEXITED(status) && WEXITSTATUS(status) == WL_CHILD_RUN_FAILED)
		o->status = 1;
	else
		o->status = -1;
	CHECK(o->status >= 0);
	wl_collect(base, name, o);
}

static inline void wl_outcome_release(struct wl_outcome *o)
{
	strbuf_release(&o->out);
	strbuf_release(&o->left);
	strbuf_release(&o->stderr_text);
}

/* The value of result key in out; NAN when absent or not a number. */
static inline double wl_value(const struct wl_outcome *o, const char *key)
{
	size_t klen = strlen(key);

	for (const char *line = o->out.buf; *line; ) {
		const char *eol = strchrnul(line, '\n');

		if (!strncmp(line, key, klen) && !strncmp(line + klen, ": ", 2)) {
			char *end;
			double v = strtod(line + klen + 2, &end);

			return end > line + klen + 2 && end == eol ? v : NAN;
		}
		line = *eol ? eol + 1 : eol;
	}
	return NAN;
}

/* Number of result lines in out. */
static inline size_t wl_nr_lines(const struct wl_outcome *o)
{
	size_t n = 0;

	for (const char *p = o->out.buf; *p; p++)
		n += *p == '\n';
	return n;
}

/* Result key exists and is a finite number above 0. */
#define CHECK_POSITIVE(o, key)                                                 \
	do {                                                                   \
		double v_ = wl_value((o), (key));                              \
		CHECK(isfinite(v_) && v_ > 0);                                 \
		if (!(isfinite(v_) && v_ > 0))                                 \
			fprintf(stderr, "  %s in:\n%s\n", (key), (o)->out.buf); \
	} while (0)

/*
 * run() succeeded, printed exactly "usecs", per_op and rate, consistent with
 * n operations that moved amount units (per_op = usecs / n, rate = amount
 * per second), and left nothing.
 */
#define CHECK_TIMED_RESULTS(o, per_op, n, rate, amount)                        \
	do {                                                                   \
		double usecs_ = wl_value((o), "usecs");                        \
		CHECK((o)->status == 0);                                       \
		CHECK_STR((o)->err, "");                                       \
		CHECK_POSITIVE((o), "usecs");                                  \
		CHECK_POSITIVE((o), (per_op));                                 \
		CHECK_POSITIVE((o), (rate));                                   \
		CHECK(wl_nr_lines(o) == 3);                                    \
		CHECK_NEAR(wl_value((o), (per_op)) * (n), usecs_, 1e-6);       \
		CHECK_NEAR(wl_value((o), (rate)), (amount) / (usecs_ / 1e6),   \
			   1e-6);                                              \
		CHECK_STR((o)->left.buf, "");                                  \
	} while (0)

/* run() failed with exactly msg, printed nothing, and left nothing. */
#define CHECK_FAILS_WITH(o, msg)                                               \
	do {                                                                   \
		CHECK((o)->status == 1);                                       \
		CHECK_STR((o)->err, (msg));                                    \
		CHECK_STR((o)->out.buf, "");                                   \
		CHECK_STR((o)->left.buf, "");                                  \
	} while (0)

#endif
