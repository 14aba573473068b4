// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kdelta/matrix.h"
#include "kdelta/metric-rules.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

char *result_root(const char *option)
{
	const char *env = getenv("KDELTA_RESULT_ROOT");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	if (option && *option)
		return xstrdup(option);
	if (env && *env)
		return xstrdup(env);
	if (geteuid() == 0)
		return xstrdup("/var/lib/kdelta/results");
	if (xdg && *xdg)
		return xasprintf("%s/kdelta/results", xdg);
	return xasprintf("%s/.local/share/kdelta/results",
			 home && *home ? home : ".");
}

static bool label_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("._+=,@-", c));
}

char *store_label_name(const char *label)
{
	struct strbuf sb = STRBUF_INIT;
	char *name;

	for (const char *s = label; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (label_char(c) && !(s == label && c == '.'))
			strbuf_addch(&sb, (char)c);
		else
			strbuf_addf(&sb, "%%%02X", c);
	}
	/* Long: bounded as any store name, a hash keeping it distinct. */
	name = sb.len > STORE_NAME_MAX || !sb.len
		? safe_name(sb.buf, STORE_NAME_MAX) : NULL;
	if (name) {
		strbuf_release(&sb);
		return name;
	}
	return strbuf_detach(&sb);
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10
		: c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

char *store_label_from_name(const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *s = name; *s; s++) {
		int hi, lo;

		if (*s == '%' && (hi = hex_digit(s[1])) >= 0 &&
		    (lo = hex_digit(s[2])) >= 0 && (hi || lo)) {
			strbuf_addch(&sb, (char)(hi << 4 | lo));
			s += 2;
		} else {
			strbuf_addch(&sb, *s);
		}
	}
	return strbuf_detach(&sb);
}

char *store_commit_dir(const char *root, const char *testcase,
		       const char *param_dir, const char *host,
		       const char *commit)
{
	const char *parts[] = { testcase, param_dir, host };
	struct strbuf sb = STRBUF_INIT;
	char *name;

	strbuf_addstr(&sb, root);
	while (sb.len > 1 && sb.buf[sb.len - 1] == '/')
		strbuf_setlen(&sb, sb.len - 1);
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		char *safe = safe_name(parts[i] ? parts[i] : "", STORE_NAME_MAX);

		strbuf_addf(&sb, "/%s", safe);
		free(safe);
	}
	name = store_label_name(commit);
	strbuf_addf(&sb, "/%s", name);
	free(name);
	return strbuf_detach(&sb);
}

/* A run directory's name: decimal digits, no leading zero. */
static bool run_number(const char *name, unsigned *out)
{
	unsigned long v;
	char *end;

	if (!isdigit((unsigned char)name[0]) || (name[0] == '0' && name[1]))
		return false;
	errno = 0;
	v = strtoul(name, &end, 10);
	if (*end || errno || v >= UINT_MAX)
		return false;
	*out = v;
	return true;
}

static int compare_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

int store_list_runs(const char *commit_dir, unsigned **out, size_t *n,
		    struct kd_err *err)
{
	DIR *dir = opendir(commit_dir);
	struct dirent *de;
	size_t alloc = 0;
	unsigned number;

	*out = NULL;
	*n = 0;
	if (!dir)
		return kd_error(err, "%s: %s", commit_dir, strerror(errno));
	while ((de = readdir(dir))) {
		if (!run_number(de->d_name, &number))
			continue;
		ALLOC_GROW(*out, *n + 1, alloc);
		(*out)[(*n)++] = number;
	}
	closedir(dir);
	if (*n)
		qsort(*out, *n, sizeof(**out), compare_unsigned);
	return 0;
}

int store_each_run(const char *commit_dir, store_run_fn *fn, void *arg,
		   struct kd_err *err)
{
	unsigned *runs;
	size_t n;
	int ret = 0;

	if (!is_directory(commit_dir))
		return 0;
	if (store_list_runs(commit_dir, &runs, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n && !ret; i++) {
		char *run_dir = xasprintf("%s/%u", commit_dir, runs[i]);
		char *status = store_run_status(run_dir);

		ret = fn(run_dir, runs[i], status, arg);
		free(status);
		free(run_dir);
	}
	free(runs);
	return ret;
}

int store_alloc_run(const char *commit_dir, unsigned *number, char **run_dir,
		    struct kd_err *err)
{
	unsigned *runs, next;
	size_t n;

	if (mkdir_p(commit_dir, err) < 0)
		return -1;
	if (store_list_runs(commit_dir, &runs, &n, err) < 0)
		return -1;
	next = n ? runs[n - 1] + 1 : 0;
	remove_stale_tmp_files(commit_dir);
	for (size_t i = 0; i < n; i++) {
		char *run_dir = xasprintf("%s/%u", commit_dir, runs[i]);

		remove_stale_tmp_files(run_dir);
		free(run_dir);
	}
	free(runs);
	for (;; next++) {
		char *path = xasprintf("%s/%u", commit_dir, next);

		if (!mkdir(path, 0755)) {
			*number = next;
			*run_dir = path;
			return 0;
		}
		free(path);
		if (errno != EEXIST)
			return kd_error(err, "%s/%u: cannot create the run directory: %s",
					commit_dir, next, strerror(errno));
	}
}

void store_import_abort(const char *tmp_dir)
{
	DIR *d = opendir(tmp_dir);
	struct dirent *de;

	if (d) {
		while ((de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				unlinkat(dirfd(d), de->d_name, 0);
		closedir(d);
	}
	rmdir(tmp_dir);
}

/* ".import.<pid>.XXXXXX" of a process that is gone, and old enough. */
static void remove_stale_imports(const char *commit_dir)
{
	DIR *d = opendir(commit_dir);
	struct dirent *de;
	time_t now = time(NULL);

	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *p = de->d_name + strlen(STORE_IMPORT_PREFIX);
		struct stat st;
		char *end, *path;
		long pid;

		if (strncmp(de->d_name, STORE_IMPORT_PREFIX,
			    strlen(STORE_IMPORT_PREFIX)))
			continue;
		pid = strtol(p, &end, 10);
		if (end == p || *end != '.' || pid <= 0 ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode) || now - st.st_mtime < STALE_TMP_AGE)
			continue;
		path = xasprintf("%s/%s", commit_dir, de->d_name);
		store_import_abort(path);
		free(path);
	}
	closedir(d);
}

int store_import_begin(const char *commit_dir, char **tmp_dir,
		       struct kd_err *err)
{
	char *path;

	*tmp_dir = NULL;
	if (mkdir_p(commit_dir, err) < 0)
		return -1;
	remove_stale_imports(commit_dir);
	path = xasprintf("%s/" STORE_IMPORT_PREFIX "%ld.XXXXXX", commit_dir,
			 (long)getpid());
	if (!mkdtemp(path)) {
		kd_error(err, "%s: cannot create a directory in it: %s",
			 commit_dir, strerror(errno));
		free(path);
		return -1;
	}
	*tmp_dir = path;
	return 0;
}

int store_import_finish(const char *commit_dir, const char *tmp_dir,
			int (*prepare)(void *arg, const char *tmp_dir,
				       unsigned number, struct kd_err *err),
			void *arg, unsigned *number, char **run_dir,
			struct kd_err *err)
{
	unsigned *runs, next;
	size_t n;

	if (store_list_runs(commit_dir, &runs, &n, err) < 0)
		return -1;
	next = n ? runs[n - 1] + 1 : 0;
	free(runs);
	for (;; next++) {
		char *path = xasprintf("%s/%u", commit_dir, next);

		if (prepare && prepare(arg, tmp_dir, next, err) < 0) {
			free(path);
			return -1;
		}
		if (!renameat2(AT_FDCWD, tmp_dir, AT_FDCWD, path,
			       RENAME_NOREPLACE)) {
			*number = next;
			*run_dir = path;
			return 0;
		}
		free(path);
		if (errno != EEXIST)
			return kd_error(err, "%s/%u: cannot move the run there: %s",
					commit_dir, next, strerror(errno));
	}
}

int store_mark_complete(const char *run_dir, const char *status,
			struct kd_err *err)
{
	char *path = xasprintf("%s/%s", run_dir, STORE_COMPLETE_FILE);
	struct strbuf sb = STRBUF_INIT;
	int ret;

	/* One line, whatever the reason contained. */
	for (const char *s = status; *s; s++)
		strbuf_addch(&sb, *s == '\n' ? ' ' : *s);
	strbuf_addch(&sb, '\n');
	ret = write_file_atomic(path, sb.buf, sb.len, err);
	strbuf_release(&sb);
	free(path);
	return ret;
}

int store_mark_interrupted(const char *run_dir, const char *how,
			   bool *marked, struct kd_err *err)
{
	char *path = xasprintf("%s/%s", run_dir, STORE_COMPLETE_FILE);
	char *status;
	int ret = 0;

	*marked = false;
	if (is_directory(run_dir) && !path_exists(path)) {
		status = xasprintf(STORE_INTERRUPTED ": %s", how);
		ret = store_mark_complete(run_dir, status, err);
		*marked = ret == 0;
		free(status);
	}
	free(path);
	return ret;
}

/* "word" or "word: reason" */
static bool is_mark(const char *mark, const char *word)
{
	size_t n = strlen(word);

	return !strncmp(mark, word, n) &&
	       (!mark[n] || (mark[n] == ':' && mark[n + 1] == ' '));
}

bool store_status_interrupted(const char *status)
{
	return status && is_mark(status, STORE_INTERRUPTED);
}

/*
 * What store_mark_complete() writes: "ok", "failed[: reason]" or
 * "interrupted[: how]", a line.
 */
static bool well_formed_mark(const struct strbuf *mark)
{
	if (strlen(mark->buf) != mark->len || strchr(mark->buf, '\n'))
		return false;
	return !strcmp(mark->buf, "ok") || is_mark(mark->buf, "failed") ||
	       is_mark(mark->buf, STORE_INTERRUPTED);
}

char *store_run_status(const char *run_dir)
{
	char *path = xasprintf("%s/%s", run_dir, STORE_COMPLETE_FILE);
	struct strbuf sb = STRBUF_INIT;
	struct kd_err err;

	if (read_file(path, &sb, &err) < 0) {
		free(path);
		strbuf_release(&sb);
		return NULL;
	}
	free(path);
	strbuf_rtrim(&sb);
	if (!well_formed_mark(&sb)) {
		strbuf_release(&sb);
		return xstrdup(STORE_MALFORMED_MARK);
	}
	return strbuf_detach(&sb);
}

struct run_counts {
	size_t *ok, *failed;
	char **last_failure;
};

static int count_run(const char *run_dir, unsigned number, const char *status,
		     void *arg)
{
	struct run_counts *c = arg;

	(void)run_dir;
	(void)number;
	if (status && !strcmp(status, "ok")) {
		++*c->ok;
	} else if (status && !strncmp(status, "failed: ", 8)) {
		++*c->failed;
		if (c->last_failure) {
			free(*c->last_failure);
			*c->last_failure = xstrdup(status + 8);
		}
	}
	return 0;
}

int store_count_runs(const char *commit_dir, size_t *ok, size_t *failed,
		     char **last_failure, struct kd_err *err)
{
	struct run_counts c = { ok, failed, last_failure };

	*ok = *failed = 0;
	if (last_failure)
		*last_failure = NULL;
	return store_each_run(commit_dir, count_run, &c, err);
}

struct ok_stats {
	char **paths;
	size_t n, alloc;
};

static int add_ok_stats(const char *run_dir, unsigned number,
			const char *status, void *arg)
{
	struct ok_stats *o = arg;

	(void)number;
	if (status && !strcmp(status, "ok")) {
		ALLOC_GROW(o->paths, o->n + 1, o->alloc);
		o->paths[o->n++] = xasprintf("%s/%s", run_dir, STORE_STATS_FILE);
	}
	return 0;
}

/* The stats.json of every "ok" run of commit_dir, in run order. */
static int ok_stats_files(const char *commit_dir, char ***out, size_t *n,
			  struct kd_err *err)
{
	struct ok_stats o = { 0 };
	int ret = store_each_run(commit_dir, add_ok_stats, &o, err);

	*out = o.paths;
	*n = o.n;
	return ret;
}

int store_write_matrix(const char *commit_dir, const struct matrix *m,
		       struct kd_err *err)
{
	struct strbuf text = STRBUF_INIT;
	char *path = xasprintf("%s/%s", commit_dir, STORE_MATRIX_FILE);
	int ret;

	matrix_to_json(m, &text);
	ret = write_file_atomic_gz(path, text.buf, text.len, err);
	free(path);
	strbuf_release(&text);
	return ret;
}

int store_rebuild_matrix(const char *commit_dir, size_t *n_runs,
			 struct kd_err *err)
{
	struct matrix m;
	char **stats;
	size_t n;
	int ret;

	if (ok_stats_files(commit_dir, &stats, &n, err) < 0)
		return -1;
	ret = matrix_from_stats((const char *const *)stats, n, &m, err);
	if (ret < 0) {
		struct kd_err why = *err;

		kd_error(err, "%s; extract it again with 'kdelta stats' on its run directory",
			 why.msg);
	} else {
		ret = store_write_matrix(commit_dir, &m, err);
		matrix_release(&m);
	}
	if (!ret && n_runs)
		*n_runs = n;
	for (size_t i = 0; i < n; i++)
		free(stats[i]);
	free(stats);
	return ret;
}

void store_result_write(FILE *out, const char *key, double value)
{
	/* Nine significant digits: more than any measurement here carries. */
	fprintf(out, "%s: %.9g\n", key, value);
}

/*
 * Whether s is a decimal number, blanks around it: an optional sign,
 * digits with an optional fraction (or a fraction alone), an optional
 * exponent.
 * strtod() takes hexadecimal ("0x10" is 16), "inf" and "nan" too, which
 * no benchmark means as a result.
 */
static bool decimal_number(const char *s)
{
	size_t digits = 0;

	s += strspn(s, " \t");
	s += *s == '+' || *s == '-';
	for (; isdigit((unsigned char)*s); s++)
		digits++;
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++)
			digits++;
	if (!digits)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		s += *s == '+' || *s == '-';
		if (!isdigit((unsigned char)*s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
	}
	s += strspn(s, " \t\r");
	return !*s;
}

bool store_result_line(const char *line, size_t len, char **key,
		       double *value)
{
	const char *colon = memchr(line, ':', len);
	char *text, *end;
	bool ok;

	if (!colon || colon == line || (size_t)(colon - line) + 1 >= len ||
	    colon[1] != ' ' || memchr(line, ' ', (size_t)(colon - line)))
		return false;
	text = xstrndup(colon + 2, len - (size_t)(colon - line) - 2);
	*value = strtod(text, &end);
	while (*end == ' ' || *end == '\t' || *end == '\r')
		end++;
	ok = end != text && !*end && decimal_number(text);
	free(text);
	if (ok)
		*key = xstrndup(line, (size_t)(colon - line));
	return ok;
}

bool store_result_next(const char **pos, char **key, double *value)
{
	while (**pos) {
		const char *line = *pos, *eol = strchrnul(line, '\n');

		*pos = *eol ? eol + 1 : eol;
		if (store_result_line(line, (size_t)(eol - line), key, value))
			return true;
	}
	return false;
}

/* The first result line of text, as "<prefix>.<key>", or NULL. */
static char *first_result(const char *prefix, const char *text)
{
	char *key, *name;
	double value;

	if (!store_result_next(&text, &key, &value))
		return NULL;
	name = xasprintf("%s.%s", prefix, key);
	free(key);
	return name;
}

/* The workload's log of a run: its one *.log but the setup hook's. */
static char *workload_log(const char *run_dir)
{
	struct dirent **names;
	int n = scandir(run_dir, &names, NULL, alphasort);
	char *path = NULL;

	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name);

		if (!path && name[0] != '.' && len > 4 &&
		    !strcmp(name + len - 4, ".log") && strcmp(name, STORE_SETUP_LOG))
			path = xasprintf("%s/%s", run_dir, name);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return path;
}

/* The key result of one run directory, or NULL. */
static char *run_key_result(const char *run_dir)
{
	char *log = workload_log(run_dir), *prefix, *name = NULL;
	struct strbuf text = STRBUF_INIT;

	if (!log)
		return NULL;
	prefix = xstrndup(strrchr(log, '/') + 1, strlen(strrchr(log, '/') + 1) - 4);
	if (read_file(log, &text, NULL) == 0)
		name = first_result(prefix, text.buf);
	strbuf_release(&text);
	free(prefix);
	free(log);
	return name;
}

static int first_key_result(const char *run_dir, unsigned number,
			    const char *status, void *arg)
{
	char **name = arg;

	(void)number;
	if (status && !strcmp(status, "ok"))
		*name = run_key_result(run_dir);
	return *name != NULL;
}

char *store_key_result(const char *commit_dir)
{
	char *name = NULL;

	store_each_run(commit_dir, first_key_result, &name, NULL);
	if (name && metric_current_name(name) != name) {
		char *now = xstrdup(metric_current_name(name));

		free(name);
		name = now;
	}
	return name;
}
