// SPDX-License-Identifier: GPL-2.0
/*
 * lkp-tests' own tree, for its job files: where their includes are, and
 * what a name they use is when kdelta does not build it in.
 *
 * An lkp-tests job file names programs by key ("fio:", "cgroup2:",
 * "mpstat:"), and lkp-tests tells what each is by the files of its
 * programs/<name>/ directory: a run script makes a benchmark, and there
 * are daemons, monitors and setup scripts.  kdelta does not carry that
 * list: it asks the tree the job file lies in (a directory named "jobs"
 * whose parent has "programs/"), else the one $LKP_SRC names, as lkp-tests
 * itself finds its tree.  Without one, a name kdelta does not know is
 * only "not built in".
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job-internal.h"
#include "kdelta/util.h"

/* The deepest directory below jobs/ that an include is looked for in. */
#define LKP_SEARCH_DEPTH 6
/* The most directories one search opens: a tree is a few dozen. */
#define LKP_SEARCH_DIRS 4096

static bool is_jobs_dir(const char *dir)
{
	const char *slash = strrchr(dir, '/');

	return !strcmp(slash ? slash + 1 : dir, "jobs") && is_directory(dir);
}

char *lkp_jobs_dir(const char *file)
{
	char *real = realpath(file, NULL), *dir;

	if (!real)
		return NULL;
	dir = path_dirname(real);
	free(real);
	while (dir && strcmp(dir, "/")) {
		char *up;

		if (is_jobs_dir(dir))
			return dir;
		up = path_dirname(dir);
		free(dir);
		dir = up;
	}
	free(dir);
	return NULL;
}

static bool is_tree(const char *root)
{
	char *programs = xasprintf("%s/programs", root);
	bool yes = is_directory(programs);

	free(programs);
	return yes;
}

char *lkp_tree_find(const char *job_file)
{
	char *jobs = job_file ? lkp_jobs_dir(job_file) : NULL;
	const char *env = getenv("LKP_SRC");

	if (jobs) {
		char *root = path_dirname(jobs);

		free(jobs);
		if (root && is_tree(root))
			return root;
		free(root);
	}
	if (env && *env == '/' && is_tree(env))
		return xstrdup(env);
	return NULL;
}

/* A name lkp-tests could have a program directory of: no path in it. */
static bool program_name_ok(const char *name)
{
	return *name && *name != '.' && !strchr(name, '/') &&
	       strlen(name) < NAME_MAX;
}

static bool program_has(const char *root, const char *name, const char *file,
			bool executable)
{
	char *path = xasprintf("%s/programs/%s/%s", root, name, file);
	struct stat st;
	bool yes = !stat(path, &st) && S_ISREG(st.st_mode) &&
		   (!executable || !access(path, X_OK));

	free(path);
	return yes;
}

/*
 * What lkp-tests makes of programs/<name>/: a run script is a benchmark
 * (whatever else the directory has), the others count when executable,
 * as lkp-tests counts them.
 */
enum lkp_kind lkp_program_kind(const char *root, const char *name)
{
	static const char *const monitors[] = {
		"monitor", "no-stdout-monitor", "one-shot-monitor",
		"plain-monitor",
	};

	if (!root || !program_name_ok(name))
		return LKP_NOT_A_PROGRAM;
	if (program_has(root, name, "run", false))
		return LKP_BENCHMARK;
	if (program_has(root, name, "daemon", true))
		return LKP_DAEMON;
	if (program_has(root, name, "setup", true))
		return LKP_SETUP;
	for (size_t i = 0; i < ARRAY_SIZE(monitors); i++)
		if (program_has(root, name, monitors[i], true))
			return LKP_MONITOR;
	return LKP_NOT_A_PROGRAM;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The subdirectories of dir, not hidden, not symbolic links, sorted. */
static size_t subdirectories(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;

	*out = NULL;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char *path;
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode)) {
			names = xreallocarray(names, n + 1, sizeof(*names));
			names[n++] = path;
		} else {
			free(path);
		}
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), compare_names);
	*out = names;
	return n;
}

/* dir/file, else the same below dir: depth first, in name order. */
static char *search_below(const char *dir, const char *file, unsigned depth,
			  size_t *budget)
{
	char *path = xasprintf("%s/%s", dir, file), **subdirs, *found = NULL;
	size_t n;

	if (path_exists(path) && !is_directory(path))
		return path;
	free(path);
	if (depth == LKP_SEARCH_DEPTH || !*budget)
		return NULL;
	--*budget;
	n = subdirectories(dir, &subdirs);
	for (size_t i = 0; i < n; i++) {
		if (!found)
			found = search_below(subdirs[i], file, depth + 1, budget);
		free(subdirs[i]);
	}
	free(subdirs);
	return found;
}

char *lkp_include_search(const char *from, const char *file, char **jobs_dir)
{
	char *jobs = lkp_jobs_dir(from), *root, *found = NULL;
	size_t budget = LKP_SEARCH_DIRS;

	*jobs_dir = jobs;
	if (!jobs || strstr(file, "..") || file[0] == '/')
		return NULL;
	/* lkp-tests' own root first: "<<: jobs/cgroup2.yaml". */
	root = path_dirname(jobs);
	if (root && is_tree(root)) {
		found = xasprintf("%s/%s", root, file);
		if (!path_exists(found) || is_directory(found)) {
			free(found);
			found = NULL;
		}
	}
	free(root);
	if (!found)
		found = search_below(jobs, file, 0, &budget);
	return found;
}

/* A key kdelta takes at the top level of a job document. */
static bool kdelta_knows(const struct job_loader *ld, const char *key)
{
	return !strcmp(key, "monitors") ||
	       param_find(ld->schema->common->params, key) ||
	       schema_workload(ld->schema, key) ||
	       schema_monitor(ld->schema, key);
}

/* What a document asks for that kdelta does not build in: the worst. */
struct lkp_finding {
	enum lkp_kind kind;
	const char *key;
	const struct jnode *value;
	struct jnode_mark mark;
};

/* lkp-tests' multi-machine jobs: "cluster: cs-localhost", "if role server:". */
static bool is_cluster_key(const char *key)
{
	return !strcmp(key, "cluster") || !strncmp(key, "if role ", 8);
}

/*
 * The keys of map that kdelta does not know, and the programs they name,
 * also in the mappings under them (lkp-tests finds its programs at any
 * depth: "if role client: {iperf: ...}").
 */
static void find_programs(const struct job_loader *ld, const struct jnode *map,
			  unsigned depth, struct lkp_finding *worst)
{
	for (size_t i = 0; i < map->n; i++) {
		const char *key = map->keys[i];
		enum lkp_kind kind;

		if (kdelta_knows(ld, key))
			continue;
		kind = is_cluster_key(key) ? LKP_CLUSTER :
			lkp_program_kind(ld->lkp_tree, key);
		if (kind == LKP_NOT_A_PROGRAM && !depth &&
		    job_key_unknown_section(ld, map, i))
			kind = LKP_SECTION;
		if (kind > worst->kind)
			*worst = (struct lkp_finding){ kind, key, map->values[i],
						       map->key_marks[i] };
		if (map->values[i]->kind == JNODE_MAP && depth < JOB_MAX_DEPTH)
			find_programs(ld, map->values[i], depth + 1, worst);
	}
}

int job_lkp_not_built_in(const struct job_loader *ld, const struct jnode *doc)
{
	struct lkp_finding worst = { .kind = LKP_NOT_A_PROGRAM };
	const struct jnode *v;

	if (doc->kind != JNODE_MAP)
		return 0;
	find_programs(ld, doc, 0, &worst);
	v = worst.value;
	switch (worst.kind) {
	case LKP_CLUSTER:
		if (v->kind == JNODE_SCALAR && *v->scalar && !v->expr)
			return kd_error(ld->err, "%s:%d:%d: a cluster job ('%s: %s') is not built into kdelta, which runs each job on one machine",
					MARK_AT(ld, &worst.mark), worst.key,
					v->scalar);
		return kd_error(ld->err, "%s:%d:%d: a cluster job ('%s') is not built into kdelta, which runs each job on one machine",
				MARK_AT(ld, &worst.mark), worst.key);
	case LKP_BENCHMARK:
		return kd_error(ld->err, "%s:%d:%d: benchmark '%s' is not built into kdelta; an 'exec' job can run it, see kdelta-job(5)",
				MARK_AT(ld, &worst.mark), worst.key);
	case LKP_DAEMON:
		return kd_error(ld->err, "%s:%d:%d: daemon '%s' is not built into kdelta; an 'exec' job's command can start it beside its benchmark, see kdelta-job(5)",
				MARK_AT(ld, &worst.mark), worst.key);
	case LKP_SETUP:
		return kd_error(ld->err, "%s:%d:%d: setup '%s' is not built into kdelta; kdelta run --setup runs a command before each run, see kdelta(1)",
				MARK_AT(ld, &worst.mark), worst.key);
	case LKP_MONITOR:
		return kd_error(ld->err, "%s:%d:%d: monitor '%s' is not built into kdelta; see kdelta-job(5) for those it has",
				MARK_AT(ld, &worst.mark), worst.key);
	case LKP_SECTION:
		return kd_error(ld->err, "%s:%d:%d: " JOB_UNKNOWN_SECTION,
				MARK_AT(ld, &worst.mark), worst.key);
	case LKP_NOT_A_PROGRAM:
		break;
	}
	return 0;
}
