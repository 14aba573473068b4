// SPDX-License-Identifier: GPL-2.0
/*
 * The robot's configuration file (robot.h, kdelta-robot(5)): read with the
 * job files' YAML parser, so that every error has its file:line:col, and
 * checked in full at load, the repository and its branches included, so
 * that a mistake shows when the robot starts, not hours later.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kdelta/compare.h"
#include "kdelta/executor.h"
#include "kdelta/git.h"
#include "kdelta/kernel-tree.h"
#include "kdelta/mail.h"
#include "kdelta/params.h"
#include "kdelta/robot.h"
#include "kdelta/schema.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

/* The largest configuration file. */
#define ROBOT_CONFIG_MAX_SIZE ((size_t)1 << 20)

static const char *const top_keys[] = {
	"repository", "branches", "jobs", "build", "install", "runs",
	"max-runs", "min-change", "key-result", "result-root", "work-dir",
	"state", "interval", "mail", "executor", "slurm", "reboot", "vm",
	"kernel-config", "kernel-cache", NULL,
};
static const char *const reboot_keys[] = {
	"command", "modules", "timeout", "runs-per-boot", NULL,
};
static const char *const vm_keys[] = {
	"clock", "accel", "runs-per-boot", "cpus", "memory", "disks",
	"boot-timeout", "timeout", "append", "files", NULL,
};
static const char *const slurm_keys[] = {
	"partition", "account", "constraint", "kdelta", "job-dir", "work-dir",
	"poll", "timeout", NULL,
};
static const char *const branch_keys[] = { "branch", "base", NULL };
static const char *const mail_keys[] = {
	"from", "to", "cc", "author", "sendmail", "repository", NULL,
};
/* The executors this kdelta has. */
static const char *const executors[] = { "local", "slurm", "reboot", NULL };

struct loader {
	const char *name;	/* the file, for messages */
	char *dir;		/* its directory: relative paths start there */
	struct robot_config *cfg;
	struct kd_err *err;
	bool offline;		/* robot_config_parse(): no look at the world */
};

static int node_error(const struct loader *ld, const struct jnode *node,
		      const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* "FILE:LINE:COL: ..." at node (made nodes have no place: "FILE: ..."). */
static int node_error(const struct loader *ld, const struct jnode *node,
		      const char *fmt, ...)
{
	char msg[sizeof(ld->err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (node && node->line)
		return kd_error(ld->err, "%s:%d:%d: %s", ld->name, node->line,
				node->col, msg);
	return kd_error(ld->err, "%s: %s", ld->name, msg);
}

static const char *nearest(const char *key, const char *const *known)
{
	struct nearest n = NEAREST_INIT(key);

	for (size_t i = 0; known[i]; i++)
		nearest_offer(&n, known[i]);
	return n.best;
}

/* Every key of map is one of known; where: "" or "mail: " and the like. */
static int check_keys(const struct loader *ld, const struct jnode *map,
		      const char *const *known, const char *where)
{
	for (size_t i = 0; i < map->n; i++) {
		const char *near;
		size_t k;

		for (k = 0; known[k] && strcmp(known[k], map->keys[i]); k++)
			;
		if (known[k])
			continue;
		near = nearest(map->keys[i], known);
		return kd_error(ld->err, "%s:%d:%d: %sunknown key '%s'%s%s%s",
				ld->name, map->key_marks[i].line,
				map->key_marks[i].col, where, map->keys[i],
				near ? "; did you mean '" : "; see kdelta-robot(5)",
				near ? near : "", near ? "'?" : "");
	}
	return 0;
}

static int expect_map(const struct loader *ld, const struct jnode *node,
		      const char *what)
{
	if (node->kind != JNODE_MAP)
		return node_error(ld, node, "%s: expected a mapping", what);
	return 0;
}

/* A scalar's text; NULL (an error said) for lists and maps. */
static const char *scalar(const struct loader *ld, const struct jnode *node,
			  const char *what)
{
	if (node->kind != JNODE_SCALAR) {
		node_error(ld, node, "%s: expected a single value", what);
		return NULL;
	}
	return node->scalar;
}

/* A non-empty scalar, copied into *out. */
static int string(const struct loader *ld, const struct jnode *node,
		  const char *what, char **out)
{
	const char *s = scalar(ld, node, what);

	if (!s)
		return -1;
	if (!*s)
		return node_error(ld, node, "%s: empty value", what);
	free(*out);
	*out = xstrdup(s);
	return 0;
}

static char *resolve_path(const struct loader *ld, const char *path)
{
	return path[0] == '/' ? xstrdup(path)
			      : xasprintf("%s/%s", ld->dir, path);
}

static int path_value(const struct loader *ld, const struct jnode *node,
		      const char *what, char **out)
{
	char *s = NULL;

	if (string(ld, node, what, &s) < 0)
		return -1;
	free(*out);
	*out = resolve_path(ld, s);
	free(s);
	return 0;
}

/*
 * The robot's numbers, as param_specs: their types, bounds and messages
 * are those of every other value kdelta reads (param_number()).
 */
static const struct param_spec robot_numbers[] = {
	/* 2 at least, to tell a change from noise */
	{ .name = "runs", .type = PARAM_INT, .min = "2", .max = "1000" },
	{ .name = "max-runs", .type = PARAM_INT, .min = "3", .max = "1000" },
	/* 0 would make the loop a busy one */
	{ .name = "interval", .type = PARAM_DURATION, .min = "1s" },
	{ .name = "slurm: poll", .type = PARAM_DURATION, .min = "0.1s" },
	{ .name = "slurm: timeout", .type = PARAM_DURATION, .min = "1s" },
	{ .name = "reboot: runs-per-boot", .type = PARAM_INT, .min = "1", .max = "1000" },
	{ .name = "reboot: timeout", .type = PARAM_DURATION, .min = "1s" },
	{ .name = "vm: runs-per-boot", .type = PARAM_INT, .min = "1", .max = "1000" },
	{ .name = "vm: cpus", .type = PARAM_INT, .min = "1", .max = "1000" },
	{ .name = "vm: boot-timeout", .type = PARAM_DURATION, .min = "1s" },
	{ .name = "vm: timeout", .type = PARAM_DURATION, .min = "1s" },
	{ .name = "vm: memory", .type = PARAM_SIZE, .min = "64M" },
	{ NULL }
};

/*
 * The number at key of map (under "slurm: " for those of that section),
 * when there is one, into *out; the error at its place.
 */
static int number_value(const struct loader *ld, const struct jnode *map,
			const char *name, double *out)
{
	const struct param_spec *spec = param_find(robot_numbers, name);
	const char *key = strrchr(name, ' ');
	const struct jnode *node = map ? jnode_get(map, key ? key + 1 : name)
				       : NULL;
	struct kd_err e;

	if (!node)
		return 0;
	if (!scalar(ld, node, name))
		return -1;
	if (param_number(spec, node->scalar, out, &e) < 0)
		return node_error(ld, node, "%s: %s", name, e.msg);
	return 0;
}

/* number_value() of a count (runs, CPUs). */
static int count_number(const struct loader *ld, const struct jnode *map,
			const char *name, unsigned *out)
{
	double n = *out;

	if (number_value(ld, map, name, &n) < 0)
		return -1;
	*out = (unsigned)n;
	return 0;
}

/* One scalar's addresses, parsed; the error at its place. */
static int addresses_of(const struct loader *ld, const struct jnode *node,
			const char *what, struct mail_addresses *out)
{
	const char *s = scalar(ld, node, what);
	struct kd_err e;

	if (!s)
		return -1;
	if (mail_addresses_parse(out, s, &e) < 0)
		return node_error(ld, node, "%s: %s", what, e.msg);
	return 0;
}

/* A scalar or a list of scalars: comma-separated addresses each. */
static int address_list(const struct loader *ld, const struct jnode *node,
			const char *what, struct mail_addresses *out)
{
	if (node->kind == JNODE_MAP)
		return node_error(ld, node, "%s: expected an address or a list of addresses",
				  what);
	if (node->kind == JNODE_SCALAR)
		return addresses_of(ld, node, what, out);
	for (size_t i = 0; i < node->n; i++)
		if (addresses_of(ld, node->values[i], what, out) < 0)
			return -1;
	return 0;
}

static int repository(const struct loader *ld, const struct jnode *node)
{
	static const char *const args[] = { "rev-parse", "--show-toplevel",
					     NULL };
	struct robot_config *cfg = ld->cfg;
	char *top;

	if (path_value(ld, node, "repository", &cfg->repo) < 0)
		return -1;
	if (ld->offline)
		return 0;
	if (!is_directory(cfg->repo))
		return node_error(ld, node, "repository: %s: no such directory",
				  cfg->repo);
	top = git_line(cfg->repo, args);
	if (!top)
		return node_error(ld, node, "repository: %s is not a git work tree",
				  cfg->repo);
	free(top);
	return 0;
}

static int revision(const struct loader *ld, const struct jnode *node,
		    const char *what, char **out)
{
	char *hash;

	if (string(ld, node, what, out) < 0)
		return -1;
	if (ld->offline)
		return 0;
	hash = git_commit_hash(ld->cfg->repo, *out);
	if (!hash)
		return node_error(ld, node, "%s '%s' does not exist in %s",
				  what, *out, ld->cfg->repo);
	free(hash);
	return 0;
}

/* "- for-next" or "- {branch: for-next, base: master}". */
static int branch(const struct loader *ld, const struct jnode *node,
		  struct robot_branch *b)
{
	const struct jnode *name, *base;

	if (node->kind == JNODE_SCALAR)
		return revision(ld, node, "branch", &b->name);
	if (expect_map(ld, node, "branches") < 0 ||
	    check_keys(ld, node, branch_keys, "branches: ") < 0)
		return -1;
	name = jnode_get(node, "branch");
	base = jnode_get(node, "base");
	if (!name)
		return node_error(ld, node, "branches: missing key 'branch'");
	if (revision(ld, name, "branch", &b->name) < 0)
		return -1;
	if (base && base->kind == JNODE_SCALAR && !strcmp(base->scalar, "parent"))
		return 0;
	return base ? revision(ld, base, "base", &b->base) : 0;
}

static int branches(const struct loader *ld, const struct jnode *node)
{
	struct robot_config *cfg = ld->cfg;

	if (node->kind != JNODE_LIST || !node->n)
		return node_error(ld, node, "branches: expected a list of branches");
	cfg->branches = xcalloc(node->n, sizeof(*cfg->branches));
	cfg->n_branches = node->n;
	for (size_t i = 0; i < node->n; i++)
		if (branch(ld, node->values[i], &cfg->branches[i]) < 0)
			return -1;
	return 0;
}

static int job_file(const struct loader *ld, const struct jnode *node,
		    struct job_set *set)
{
	char *path = NULL;
	int ret;

	if (path_value(ld, node, "jobs", &path) < 0)
		return -1;
	if (ld->offline) {
		free(path);
		return 0;
	}
	ret = job_load_file(path, job_schema_default(), set, ld->err);
	if (ret < 0)
		kd_error_prefix(ld->err, "%s:%d:%d: jobs", ld->name, node->line,
				node->col);
	for (size_t i = 0; !ret && i < set->n; i++)
		if (!job_workload(&set->jobs[i]))
			ret = node_error(ld, node, "jobs: %s: a job has no workload section",
					 path);
	free(path);
	return ret;
}

static int jobs(const struct loader *ld, const struct jnode *node)
{
	struct robot_config *cfg = ld->cfg;

	if (node->kind == JNODE_SCALAR) {
		cfg->job_files = xcalloc(1, sizeof(*cfg->job_files));
		cfg->n_job_files = 1;
		return job_file(ld, node, &cfg->job_files[0]);
	}
	if (node->kind != JNODE_LIST || !node->n)
		return node_error(ld, node, "jobs: expected a job file or a list of them");
	cfg->job_files = xcalloc(node->n, sizeof(*cfg->job_files));
	cfg->n_job_files = node->n;
	for (size_t i = 0; i < node->n; i++)
		if (job_file(ld, node->values[i], &cfg->job_files[i]) < 0)
			return -1;
	return 0;
}

static int mail(const struct loader *ld, const struct jnode *node)
{
	struct robot_mail *m = &ld->cfg->mail;
	const struct jnode *v;
	struct kd_err e;

	if (expect_map(ld, node, "mail") < 0 ||
	    check_keys(ld, node, mail_keys, "mail: ") < 0)
		return -1;
	m->enabled = true;
	m->author = true;
	if ((v = jnode_get(node, "from")) &&
	    (addresses_of(ld, v, "mail: from", &m->from) < 0 ||
	     (m->from.n != 1 && node_error(ld, v, "mail: from: expected one address, got %zu",
					   m->from.n) < 0)))
		return -1;
	if ((v = jnode_get(node, "to")) && address_list(ld, v, "mail: to", &m->to) < 0)
		return -1;
	if ((v = jnode_get(node, "cc")) && address_list(ld, v, "mail: cc", &m->cc) < 0)
		return -1;
	if ((v = jnode_get(node, "sendmail")) &&
	    string(ld, v, "mail: sendmail", &m->sendmail) < 0)
		return -1;
	if ((v = jnode_get(node, "repository")) &&
	    string(ld, v, "mail: repository", &m->repository) < 0)
		return -1;
	if ((v = jnode_get(node, "author")) &&
	    (!scalar(ld, v, "mail: author") ||
	     parse_bool(v->scalar, &m->author, &e) < 0))
		return node_error(ld, v, "mail: author: expected true or false");
	if (!m->to.n && !m->author)
		return node_error(ld, node, "mail: no recipient: give 'to', or leave 'author' true");
	return 0;
}

static int executor(const struct loader *ld, const struct jnode *node)
{
	const char *s = scalar(ld, node, "executor");

	if (!s)
		return -1;
	for (size_t i = 0; executors[i]; i++)
		if (!strcmp(s, executors[i])) {
			ld->cfg->executor = xstrdup(s);
			return 0;
		}
	return node_error(ld, node, "executor: unknown executor '%s'; this kdelta has 'local', 'slurm' and 'reboot'",
			  s);
}

/* The program that runs on the nodes: by default this one. */
static char *this_program(void)
{
	char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	if (n <= 0)
		return xstrdup("kdelta");
	path[n] = '\0';
	return xstrdup(path);
}

static int slurm(const struct loader *ld, const struct jnode *node)
{
	struct robot_slurm *s = &ld->cfg->slurm;
	const struct jnode *v;

	if (node && strcmp(ld->cfg->executor, "slurm"))
		return node_error(ld, node, "slurm: only with 'executor: slurm'");
	/* "slurm:" with nothing under it: every key at its default */
	if (node && node->kind == JNODE_SCALAR && !*node->scalar)
		node = NULL;
	if (node && (expect_map(ld, node, "slurm") < 0 ||
		     check_keys(ld, node, slurm_keys, "slurm: ") < 0))
		return -1;
	const struct { const char *key; char **value; bool path; } keys[] = {
		{ "slurm: partition", &s->partition, false },
		{ "slurm: account", &s->account, false },
		{ "slurm: constraint", &s->constraint, false },
		{ "slurm: kdelta", &s->kdelta, true },
		{ "slurm: job-dir", &s->job_dir, true },
		{ "slurm: work-dir", &s->work_dir, true },
	};

	s->poll = ROBOT_SLURM_POLL;
	s->timeout = ROBOT_SLURM_TIMEOUT;
	for (size_t i = 0; node && i < ARRAY_SIZE(keys); i++) {
		v = jnode_get(node, keys[i].key + strlen("slurm: "));
		if (v && (keys[i].path ? path_value(ld, v, keys[i].key,
						    keys[i].value)
				       : string(ld, v, keys[i].key,
						keys[i].value)) < 0)
			return -1;
	}
	if (number_value(ld, node, "slurm: poll", &s->poll) < 0 ||
	    number_value(ld, node, "slurm: timeout", &s->timeout) < 0)
		return -1;
	if (!s->kdelta)
		s->kdelta = this_program();
	if (!s->job_dir)
		s->job_dir = xasprintf("%s/%s", ld->cfg->result_root,
				       ROBOT_SLURM_DIR);
	return 0;
}

/* "reboot": the test box that boots each commit's kernel itself. */
static int reboot(const struct loader *ld, const struct jnode *root,
		  const struct jnode *node)
{
	struct robot_reboot *r = &ld->cfg->reboot;
	const struct jnode *v;

	if (node && strcmp(ld->cfg->executor, "reboot"))
		return node_error(ld, node, "reboot: only with 'executor: reboot'");
	if ((v = jnode_get(root, "vm")))
		return node_error(ld, v, "vm: not with 'executor: reboot', which boots the kernels on this machine, not in virtual machines");
	if (!executor_builds_kernels(ld->cfg->build))
		return node_error(ld, jnode_get(root, "build"),
				  "build: the reboot executor boots kernels: the build must name {out}, where it leaves the commit's kernel");
	if ((v = jnode_get(root, "install")))
		return node_error(ld, v, "install: not with 'executor: reboot', which keeps each commit's kernel as its build left it");
	/* "reboot:" with nothing under it: every key at its default */
	if (node && node->kind == JNODE_SCALAR && !*node->scalar)
		node = NULL;
	if (node && (expect_map(ld, node, "reboot") < 0 ||
		     check_keys(ld, node, reboot_keys, "reboot: ") < 0))
		return -1;
	r->timeout = REBOOT_DEFAULT_TIMEOUT;
	r->runs_per_boot = REBOOT_DEFAULT_RUNS_PER_BOOT;
	r->state_dir = xasprintf("%s/%s", ld->cfg->result_root,
				 ROBOT_REBOOT_DIR);
	if (node && (((v = jnode_get(node, "command")) &&
		      string(ld, v, "reboot: command", &r->command) < 0) ||
		     ((v = jnode_get(node, "modules")) &&
		      path_value(ld, v, "reboot: modules", &r->modules) < 0) ||
		     count_number(ld, node, "reboot: runs-per-boot",
				  &r->runs_per_boot) < 0 ||
		     number_value(ld, node, "reboot: timeout", &r->timeout) < 0))
		return -1;
	if (!r->command)
		r->command = xstrdup(REBOOT_DEFAULT_COMMAND);
	if (!r->modules)
		r->modules = xstrdup(REBOOT_DEFAULT_MODULES);
	return 0;
}

/* A choice of a NULL-terminated list, its index in *out. */
static int choice_value(const struct loader *ld, const struct jnode *node,
			const char *what, const char *const *choices, int *out)
{
	const char *s = scalar(ld, node, what);

	if (!s)
		return -1;
	for (int i = 0; choices[i]; i++)
		if (!strcmp(s, choices[i])) {
			*out = i;
			return 0;
		}
	return node_error(ld, node, "%s: expected %s or %s%s%s, got '%s'", what,
			  choices[0], choices[1], choices[2] ? " or " : "",
			  choices[2] ? choices[2] : "", s);
}

/* "vm: files": programs or files the guests need. */
static int vm_files(const struct loader *ld, const struct jnode *v)
{
	struct vm_options *vo = &ld->cfg->vm;
	const char **files;

	if (v->kind != JNODE_LIST)
		return node_error(ld, v, "vm: files: expected a list of paths");
	files = xcalloc(v->n + 1, sizeof(*files));
	vo->files = files;
	for (size_t i = 0; i < v->n; i++) {
		char *path = NULL;

		if (path_value(ld, v->values[i], "vm: files", &path) < 0)
			return -1;
		files[vo->n_files++] = path;
	}
	return 0;
}

/* "vm": the boots of a build of kernels (kdelta run --kernel's --vm-*). */
static int vm(const struct loader *ld, const struct jnode *node)
{
	struct vm_options *vo = &ld->cfg->vm;
	const struct jnode *v;
	double memory;
	int pick;

	if (node && !strstr(ld->cfg->build, "{out}"))
		return node_error(ld, node, "vm: only with kernels: kernel-config, or a build that makes them (one that names {out})");
	vo->runs_per_boot = VM_DEFAULT_RUNS_PER_BOOT;
	vo->boot_timeout = VM_DEFAULT_BOOT_TIMEOUT;
	vo->timeout = VM_DEFAULT_TIMEOUT;
	if (!node)
		return 0;
	if (expect_map(ld, node, "vm") < 0 ||
	    check_keys(ld, node, vm_keys, "vm: ") < 0)
		return -1;
	if ((v = jnode_get(node, "clock"))) {
		if (choice_value(ld, v, "vm: clock", vm_clock_names, &pick) < 0)
			return -1;
		vo->clock = (enum vm_clock)pick;
	}
	if ((v = jnode_get(node, "accel"))) {
		if (choice_value(ld, v, "vm: accel", vm_accel_names, &pick) < 0)
			return -1;
		vo->accel = (enum vm_accel)pick;
	}
	if ((v = jnode_get(node, "disks"))) {
		if (choice_value(ld, v, "vm: disks", vm_disks_names, &pick) < 0)
			return -1;
		vo->disks = (enum vm_disks)pick;
	}
	memory = (double)vo->memory;
	if (count_number(ld, node, "vm: runs-per-boot", &vo->runs_per_boot) < 0 ||
	    count_number(ld, node, "vm: cpus", &vo->cpus) < 0 ||
	    number_value(ld, node, "vm: boot-timeout", &vo->boot_timeout) < 0 ||
	    number_value(ld, node, "vm: timeout", &vo->timeout) < 0 ||
	    number_value(ld, node, "vm: memory", &memory) < 0)
		return -1;
	vo->memory = (uint64_t)memory;
	if ((v = jnode_get(node, "append"))) {
		char *append = NULL;

		if (string(ld, v, "vm: append", &append) < 0)
			return -1;
		vo->append = append;
	}
	if ((v = jnode_get(node, "files")) && vm_files(ld, v) < 0)
		return -1;
	if (vo->clock == VM_CLOCK_INSTRUCTIONS && vo->accel == VM_ACCEL_KVM)
		return node_error(ld, node, "vm: clock: instructions is QEMU's emulation (TCG), not KVM");
	if (vo->clock == VM_CLOCK_INSTRUCTIONS && vo->cpus > 1)
		return node_error(ld, node, "vm: cpus: the instruction clock runs one guest CPU");
	return 0;
}

/* "executor: reboot": a test box, which kernel-config is not for. */
static bool test_box(const struct jnode *root)
{
	const struct jnode *ex = jnode_get(root, "executor");

	return ex && ex->kind == JNODE_SCALAR && !strcmp(ex->scalar, "reboot");
}

/*
 * "build", or "kernel-config": the repository is a kernel tree that
 * kdelta builds itself (kdelta/kernel-tree.h), its guests' needs added.
 */
static int build(const struct loader *ld, const struct jnode *root)
{
	struct robot_config *cfg = ld->cfg;
	const struct jnode *v = jnode_get(root, "kernel-config");
	const struct jnode *cache = jnode_get(root, "kernel-cache");
	struct kernel_tree kt;
	char *spec = NULL, *dir = NULL;
	int ret;

	if (!v) {
		if (cache)
			return node_error(ld, cache, "kernel-cache: only with kernel-config");
		return string(ld, jnode_get(root, "build"), "build", &cfg->build);
	}
	/* It adds what kdelta's guests need: not a test box's. */
	if (test_box(root))
		return node_error(ld, v, "kernel-config: not with 'executor: reboot', which boots the kernels on this machine: a build that names {out} makes them, with the box's own configuration");
	if (jnode_get(root, "build"))
		return node_error(ld, jnode_get(root, "build"),
				  "build: not with kernel-config, with which kdelta builds the kernels");
	if (string(ld, v, "kernel-config", &spec) < 0 ||
	    (cache && path_value(ld, cache, "kernel-cache", &dir) < 0)) {
		free(spec);
		return -1;
	}
	if (ld->offline) {
		/* No look at the files the spec names: a build of kernels. */
		cfg->build = xstrdup("{out}");
		free(spec);
		free(dir);
		return 0;
	}
	ret = kernel_tree_init(&kt, cfg->repo, spec, vm_guest_kconfig, dir,
			       ld->err);
	free(spec);
	free(dir);
	/* kernel_tree_init() says "--kernel-config: ...", bisect's option. */
	if (ret < 0)
		return node_error(ld, v, "%s", ld->err->msg +
				  (strncmp(ld->err->msg, "--", 2) ? 0 : 2));
	cfg->build = kernel_tree_build_command(&kt);
	cfg->kernel_cache = xstrdup(kt.kernels);
	kernel_tree_release(&kt);
	return 0;
}

static int numbers(const struct loader *ld, const struct jnode *root)
{
	struct robot_config *cfg = ld->cfg;
	const struct jnode *v;
	double runs = cfg->runs, max_runs = cfg->max_runs;
	struct kd_err e;

	if (number_value(ld, root, "runs", &runs) < 0 ||
	    number_value(ld, root, "max-runs", &max_runs) < 0 ||
	    number_value(ld, root, "interval", &cfg->interval) < 0)
		return -1;
	cfg->runs = (unsigned)runs;
	cfg->max_runs = (unsigned)max_runs;
	if (cfg->max_runs < cfg->runs)
		return node_error(ld, jnode_get(root, "max-runs") ? jnode_get(root, "max-runs") : root,
				  "max-runs %u must be at least runs (%u)",
				  cfg->max_runs, cfg->runs);
	if ((v = jnode_get(root, "min-change"))) {
		if (!scalar(ld, v, "min-change"))
			return -1;
		if (param_number(&compare_min_change_param, v->scalar,
				 &cfg->min_change, &e) < 0)
			return node_error(ld, v, "min-change: %s", e.msg);
	}
	return 0;
}

static int required(const struct loader *ld, const struct jnode *root)
{
	static const char *const keys[] = { "repository", "branches", "jobs",
					     "build", NULL };

	for (size_t i = 0; keys[i]; i++)
		if (!jnode_get(root, keys[i]) &&
		    (strcmp(keys[i], "build") || !jnode_get(root, "kernel-config")))
			return node_error(ld, root, "missing required key '%s'%s; see kdelta-robot(5)",
					  keys[i], strcmp(keys[i], "build") ? "" :
					  test_box(root) ? " (one that names {out}, with executor: reboot)" :
					  " (or kernel-config)");
	return 0;
}

static int paths(const struct loader *ld, const struct jnode *root)
{
	struct robot_config *cfg = ld->cfg;
	const struct jnode *v;

	if ((v = jnode_get(root, "result-root"))) {
		if (path_value(ld, v, "result-root", &cfg->result_root) < 0)
			return -1;
	} else {
		char *root = result_root(NULL);

		cfg->result_root = resolve_path(ld, root);
		free(root);
	}
	if ((v = jnode_get(root, "work-dir")) &&
	    path_value(ld, v, "work-dir", &cfg->work_dir) < 0)
		return -1;
	if ((v = jnode_get(root, "state")))
		return path_value(ld, v, "state", &cfg->state);
	cfg->state = xasprintf("%s/%s", cfg->result_root, ROBOT_STATE_FILE);
	return 0;
}

static int load_root(const struct loader *ld, const struct jnode *root)
{
	struct robot_config *cfg = ld->cfg;
	const struct jnode *v;

	if (expect_map(ld, root, "the configuration") < 0 ||
	    check_keys(ld, root, top_keys, "") < 0 || required(ld, root) < 0 ||
	    repository(ld, jnode_get(root, "repository")) < 0 ||
	    branches(ld, jnode_get(root, "branches")) < 0 ||
	    jobs(ld, jnode_get(root, "jobs")) < 0 ||
	    build(ld, root) < 0 ||
	    numbers(ld, root) < 0 || paths(ld, root) < 0)
		return -1;
	if ((v = jnode_get(root, "install")) &&
	    string(ld, v, "install", &cfg->install) < 0)
		return -1;
	if ((v = jnode_get(root, "key-result")) &&
	    key_results_parse(v, &cfg->key_results, ld->err) < 0)
		return node_error(ld, v, "key-result: %s", ld->err->msg);
	if ((v = jnode_get(root, "mail")) && mail(ld, v) < 0)
		return -1;
	if ((v = jnode_get(root, "executor")) && executor(ld, v) < 0)
		return -1;
	if (!cfg->executor)
		cfg->executor = xstrdup("local");
	if ((!strcmp(cfg->executor, "reboot") || jnode_get(root, "reboot")) &&
	    reboot(ld, root, jnode_get(root, "reboot")) < 0)
		return -1;
	if ((v = jnode_get(root, "install")) && strstr(cfg->build, "{out}"))
		return node_error(ld, v, "install: not with a build that makes kernels (one that names {out}): each commit's kernel is built once into {out} and booted from there");
	if (vm(ld, jnode_get(root, "vm")) < 0)
		return -1;
	if (!strcmp(cfg->executor, "slurm") || jnode_get(root, "slurm"))
		return slurm(ld, jnode_get(root, "slurm"));
	return 0;
}

static char *directory_of(const char *path)
{
	char *dir = path_dirname(path), *abs;

	abs = absolute_path(dir);
	free(dir);
	return abs;
}

/* The configuration in text, as path's. */
static int load_text(struct loader *ld, const char *text, size_t len)
{
	struct robot_config *cfg = ld->cfg;
	struct jnode **docs = NULL;
	size_t ndocs = 0;
	int ret;

	ret = job_parse_documents(text, len, ld->name, &docs, &ndocs, ld->err);
	if (!ret && ndocs != 1)
		ret = kd_error(ld->err, "%s: expected one YAML document, found %zu",
			       ld->name, ndocs);
	if (!ret)
		ret = load_root(ld, docs[0]);
	if (!ret && !cfg->mail.sendmail)
		cfg->mail.sendmail = xstrdup(mail_sendmail_command());
	for (size_t i = 0; i < ndocs; i++)
		jnode_free(docs[i]);
	free(docs);
	return ret;
}

static void config_init(struct robot_config *cfg, const char *path)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->path = xstrdup(path);
	cfg->runs = ROBOT_DEFAULT_RUNS;
	cfg->max_runs = ROBOT_DEFAULT_MAX_RUNS;
	cfg->min_change = COMPARE_DEFAULT_MIN_CHANGE;
	cfg->interval = ROBOT_DEFAULT_INTERVAL;
}

int robot_config_load(const char *path, struct robot_config *cfg,
		      struct kd_err *err)
{
	struct loader ld = { .name = path, .cfg = cfg, .err = err };
	struct strbuf text = STRBUF_INIT;
	int ret;

	config_init(cfg, path);
	ld.dir = directory_of(path);
	ret = read_file_max(path, ROBOT_CONFIG_MAX_SIZE, &text, err);
	if (!ret)
		ret = load_text(&ld, text.buf, text.len);
	free(ld.dir);
	strbuf_release(&text);
	return ret;
}

int robot_config_parse(const char *text, size_t len, const char *path,
		       struct robot_config *cfg, struct kd_err *err)
{
	struct loader ld = { .name = path, .cfg = cfg, .err = err,
			     .offline = true };
	int ret;

	config_init(cfg, path);
	ld.dir = directory_of(path);
	ret = len > ROBOT_CONFIG_MAX_SIZE ?
	      kd_error(err, "%s: larger than %zu bytes", path,
		       ROBOT_CONFIG_MAX_SIZE) :
	      load_text(&ld, text, len);
	free(ld.dir);
	return ret;
}

void robot_config_release(struct robot_config *cfg)
{
	free(cfg->kernel_cache);
	for (size_t i = 0; i < cfg->vm.n_files; i++)
		free((char *)cfg->vm.files[i]);
	free((char **)cfg->vm.files);
	free((char *)cfg->vm.append);
	free(cfg->path);
	free(cfg->repo);
	for (size_t i = 0; i < cfg->n_branches; i++) {
		free(cfg->branches[i].name);
		free(cfg->branches[i].base);
	}
	free(cfg->branches);
	for (size_t i = 0; i < cfg->n_job_files; i++)
		job_set_release(&cfg->job_files[i]);
	free(cfg->job_files);
	free(cfg->build);
	free(cfg->install);
	free(cfg->mail.repository);
	key_results_release(&cfg->key_results);
	free(cfg->result_root);
	free(cfg->work_dir);
	free(cfg->state);
	free(cfg->executor);
	free(cfg->slurm.partition);
	free(cfg->slurm.account);
	free(cfg->slurm.constraint);
	free(cfg->slurm.kdelta);
	free(cfg->slurm.job_dir);
	free(cfg->slurm.work_dir);
	free(cfg->reboot.command);
	free(cfg->reboot.modules);
	free(cfg->reboot.state_dir);
	mail_addresses_release(&cfg->mail.from);
	mail_addresses_release(&cfg->mail.to);
	mail_addresses_release(&cfg->mail.cc);
	free(cfg->mail.sendmail);
	memset(cfg, 0, sizeof(*cfg));
}

void robot_mail_to(const struct robot_mail *m, const char *author_name,
		   const char *author_addr, struct mail_addresses *to,
		   struct strbuf *note)
{
	struct kd_err err;

	if (m->author && author_addr &&
	    mail_addresses_add(to, author_name, author_addr, &err) < 0)
		strbuf_addf(note, "the author's address is left out of To: %s",
			    err.msg);
	for (size_t i = 0; i < m->to.n; i++)
		mail_addresses_add(to, m->to.v[i].name, m->to.v[i].addr, &err);
}
