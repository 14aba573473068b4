// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's user space (kdelta/vm.h), built from this machine into one
 * initramfs: nothing is downloaded, and the guest runs the very kdelta
 * and tools the host has.  Programs keep their paths, with the shared
 * libraries ldd(1) lists at the paths it lists them (the dynamic loader
 * finds them there without a cache); scripts bring their interpreter.
 * Modules go to VM_GUEST_DIR/modules/, decompressed, and the guest's
 * configuration lists them in load order.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kdelta/disk.h"
#include "kdelta/md.h"
#include "kdelta/proc.h"
#include "kdelta/util.h"
#include "kdelta/vm.h"
#include "kdelta/workload.h"

/* What a program may take of shared libraries and interpreters. */
#define INTERPRETER_DEPTH 4

struct builder {
	struct cpio cpio;
	const struct vm_kernel *k;
	struct vm_modules *modules;	/* NULL: the image only */
	struct vm_module_list boot;	/* loaded at boot */
	struct vm_module_list brd;	/* brd and what it needs, per run */
	unsigned disk_files;		/* vm_guest_spec's: virtio disks */
	struct vm_guest *g;
};

/*
 * The name in the archive of a host path: its directory resolved (no
 * "..", no symbolic link), the file's own name kept (/bin/sh stays sh,
 * a copy of what it points at).  Relative to the root, as cpio names are.
 */
static char *archive_name(const char *path)
{
	const char *base = strrchr(path, '/');
	char *dir_part, *dir, *name;

	if (!base || !base[1])
		return NULL;
	dir_part = base == path ? xstrdup("/") : xstrndup(path, (size_t)(base - path));
	dir = realpath(dir_part, NULL);
	free(dir_part);
	if (!dir)
		return NULL;
	name = xasprintf("%s/%s", dir + 1, base + 1);
	free(dir);
	return name[0] == '/' ? memmove(name, name + 1, strlen(name)) : name;
}

/*
 * The host's symbolic links among the directories of path ("/bin" ->
 * "usr/bin" on a merged /usr), as links in the archive: the file goes
 * under its resolved directory, and the guest finds it by either path.
 */
static int add_dir_links(struct builder *b, const char *path,
			 struct kd_err *err)
{
	char *copy = xstrdup(path);
	int ret = 0;

	for (char *s = copy + 1; *s && !ret; s++) {
		char target[4096];
		ssize_t n;

		if (*s != '/')
			continue;
		*s = '\0';
		n = readlink(copy, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			ret = cpio_add_symlink(&b->cpio, copy + 1, target, err);
		}
		*s = '/';
	}
	free(copy);
	return ret;
}

static int add_file_as(struct builder *b, const char *path, const char *name,
		       struct kd_err *err)
{
	struct stat st;

	if (cpio_has(&b->cpio, name))
		return 0;
	if (stat(path, &st) < 0)
		return kd_error(err, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return kd_error(err, "%s: not a regular file", path);
	if (path[0] == '/' && add_dir_links(b, path, err) < 0)
		return -1;
	return cpio_add_file(&b->cpio, name, st.st_mode & 0755, path, err);
}

/* "=> /lib/x86_64-linux-gnu/libc.so.6 (0x...)" and "/lib64/ld-... (0x...)". */
static int add_ldd_line(struct builder *b, const char *program, char *line,
			struct kd_err *err)
{
	const char *arrow = strstr(line, "=>");
	char *path = arrow ? (char *)arrow + 2 : line, *name;
	int ret;

	path += strspn(path, " \t");
	if (!strncmp(path, "not found", 9)) {
		line += strspn(line, " \t");
		return kd_error(err, "%s needs %.*s, which ldd does not find here",
				program, (int)strcspn(line, " \t"), line);
	}
	if (*path != '/')
		return 0;		/* linux-vdso.so.1 */
	path[strcspn(path, " \t")] = '\0';
	name = archive_name(path);
	if (!name)
		return 0;
	ret = add_file_as(b, path, name, err);
	free(name);
	return ret;
}

static int add_libraries(struct builder *b, const char *program,
			 struct kd_err *err)
{
	const char *argv[] = { "ldd", program, NULL };
	struct proc p = PROC_INIT;
	char *line, *save = NULL;
	int ret = 0;

	p.argv = argv;
	p.out = PROC_PIPE;
	p.err = PROC_TO_OUT;
	if (proc_run(&p, err) < 0) {
		proc_clear(&p);
		return kd_error_prefix(err, "listing the shared libraries of %s", program);
	}
	/* Statically linked, or not an executable at all: nothing to add. */
	if (p.end == PROC_EXITED && !p.status)
		for (line = strtok_r(p.out_buf.buf, "\n", &save); line && !ret;
		     line = strtok_r(NULL, "\n", &save))
			ret = add_ldd_line(b, program, line, err);
	proc_clear(&p);
	return ret;
}

/* "#!/bin/sh -e": the interpreter of a script, or NULL. */
static char *script_interpreter(const char *path)
{
	FILE *f = fopen(path, "re");
	char line[256];
	size_t len;

	if (!f)
		return NULL;
	if (!fgets(line, sizeof(line), f) || strncmp(line, "#!", 2)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	len = strspn(line + 2, " \t");
	return xstrndup(line + 2 + len, strcspn(line + 2 + len, " \t\n"));
}

/* A program at its path, with its libraries or its interpreter. */
static int add_program(struct builder *b, const char *path, int depth,
		       struct kd_err *err)
{
	char *name = archive_name(path), *interpreter;
	int ret;

	if (!name)
		return kd_error(err, "%s: not found", path);
	if (cpio_has(&b->cpio, name)) {
		free(name);
		return 0;
	}
	ret = add_file_as(b, path, name, err);
	free(name);
	if (ret < 0)
		return -1;
	interpreter = script_interpreter(path);
	if (interpreter && depth < INTERPRETER_DEPTH && *interpreter == '/')
		ret = add_program(b, interpreter, depth + 1, err);
	else if (!interpreter)
		ret = add_libraries(b, path, err);
	free(interpreter);
	return ret;
}

/* A program found in PATH; "what" says who needs it. */
static int add_tool(struct builder *b, const char *tool, const char *what,
		    const char *package, struct kd_err *err)
{
	char *path = find_program(tool);
	int ret;

	if (!path)
		return kd_error(err, "%s needs %s in the guest, and this machine has none%s%s%s",
				what, tool, package ? " (Debian: apt-get install " : "",
				package ? package : "", package ? ")" : "");
	ret = add_program(b, path, 0, err);
	free(path);
	return ret;
}

/* "kernel rt: has neither a brd module nor one built in (...)". */
static int need_module(struct builder *b, struct vm_module_list *list,
		       const char *name, const char *why, struct kd_err *err)
{
	enum vm_module_found found;

	if (!b->modules)
		return 0;	/* an image alone: built in, or the guest says */
	if (vm_modules_need(b->modules, name, list, &found, err) < 0)
		return kd_error_prefix(err, "kernel %s", b->k->label);
	if (found == VM_MODULE_MISSING)
		return kd_error(err, "kernel %s: has neither a %s module in %s nor one built in (%s)",
				b->k->label, name, b->k->modules, why);
	return 0;
}

/*
 * Whether the job names the monitor.  perf and its libraries are 30M of
 * the guest, which the kernel unpacks at every boot (under TCG, seconds):
 * the guest has it when a job asks for perf-stat or perf-profile by name,
 * not for the perf-stat that runs by default.
 */
static bool job_names_monitor(const struct job *job, const char *name)
{
	const struct jnode *monitors = jnode_get(job->root, "monitors");

	return monitors && jnode_get(monitors, name) != NULL;
}

static const char *fs_module_config(const char *fs)
{
	return !strcmp(fs, "xfs") ? "CONFIG_XFS_FS" :
	       !strcmp(fs, "ext4") ? "CONFIG_EXT4_FS" : "CONFIG_BTRFS_FS";
}

/*
 * md: mdadm, and the md modules loaded at boot: md_mod and the level's
 * personality with what they depend on (raid456: async_tx, xor, raid6_pq,
 * ...), so that mdadm finds the level there.
 */
static int add_md_needs(struct builder *b, const char *md, const char *what,
			struct kd_err *err)
{
	const char *module = md_module(md);
	char config[32], *why, *why_level;
	int ret = add_tool(b, "mdadm", what, "mdadm", err);
	size_t i;

	/* CONFIG_MD_RAID0 for raid0, CONFIG_MD_RAID456 for raid456. */
	for (i = 0; module && module[i] && i + 1 < sizeof(config); i++)
		config[i] = (char)toupper((unsigned char)module[i]);
	config[i] = '\0';
	why = xasprintf("md: %s needs CONFIG_BLK_DEV_MD", md);
	why_level = xasprintf("md: %s needs CONFIG_MD_%s", md, config);
	if (!ret)
		ret = need_module(b, &b->boot, "md_mod", why, err);
	if (!ret && module)
		ret = need_module(b, &b->boot, module, why_level, err);
	free(why_level);
	free(why);
	return ret;
}

/* What one job needs in the guest: tools, modules. */
static int add_job_needs(struct builder *b, const struct job *job,
			 struct kd_err *err)
{
	const char *disk = jnode_str(job->root, "disk");
	const char *fs = jnode_str(job->root, "fs");
	const char *md = jnode_str(job->root, "md");
	const struct jnode *exec = jnode_get(job->root, "exec");
	char *what = xasprintf("job %s", job->name);
	int ret = 0;

	if (disk && *disk && !b->disk_files)
		ret = need_module(b, &b->brd, "brd",
				  "disk: 1BRD_<size> needs CONFIG_BLK_DEV_RAM", err);
	if (!ret && md && *md)
		ret = add_md_needs(b, md, what, err);
	if (!ret && fs && *fs && strcmp(fs, "tmpfs")) {
		char *mkfs = xasprintf("mkfs.%s", fs);
		char *why = xasprintf("fs: %s needs %s", fs, fs_module_config(fs));

		ret = add_tool(b, mkfs, what,
			       !strcmp(fs, "xfs") ? "xfsprogs" :
			       !strcmp(fs, "ext4") ? "e2fsprogs" : "btrfs-progs",
			       err);
		if (!ret)
			ret = need_module(b, &b->boot, fs, why, err);
		free(why);
		free(mkfs);
	}
	if (!ret && exec) {
		const struct jnode *argv = jnode_get(exec, "argv");

		if (argv && argv->kind == JNODE_LIST && argv->n &&
		    argv->values[0]->kind == JNODE_SCALAR)
			ret = add_tool(b, argv->values[0]->scalar, what, NULL, err);
		else
			ret = add_tool(b, "/bin/sh", what, NULL, err);
	}
	if (!ret && !b->g->perf && (job_names_monitor(job, "perf-stat") ||
				    job_names_monitor(job, "perf-profile"))) {
		char *perf = find_program("perf");

		/* Without perf, the guest's runs say so, as the host's would. */
		if (perf) {
			ret = add_program(b, perf, 0, err);
			b->g->perf = ret == 0;
		}
		free(perf);
	}
	free(what);
	return ret;
}

/* The modules, decompressed, as VM_GUEST_DIR/modules/<name>.ko; their paths. */
static int add_modules(struct builder *b, const struct vm_module_list *list,
		       json_t *paths, struct kd_err *err)
{
	for (size_t i = 0; i < list->n; i++) {
		struct strbuf data = STRBUF_INIT;
		char *name = xasprintf("%s/modules/%s.ko", &VM_GUEST_DIR[1],
				       list->mods[i].name);
		int ret = vm_module_read(list->mods[i].path, &data, err);

		if (!ret && !cpio_has(&b->cpio, name))
			ret = cpio_add_data(&b->cpio, name, 0644, data.buf,
					    data.len, err);
		if (!ret) {
			json_array_append_new(paths, json_sprintf("/%s", name));
			strbuf_addf(&b->g->modules, "%s%s",
				    b->g->modules.len ? " " : "", list->mods[i].name);
		}
		strbuf_release(&data);
		free(name);
		if (ret < 0)
			return -1;
	}
	return 0;
}

static int add_jobs(struct builder *b, const struct vm_guest_spec *spec,
		    json_t *config, struct kd_err *err)
{
	json_t *jobs = json_array();

	json_object_set_new(config, "jobs", jobs);
	for (size_t i = 0; i < spec->n_jobs; i++) {
		struct strbuf yaml = STRBUF_INIT;
		char *name = xasprintf("%s/job-%zu.yaml", &VM_GUEST_DIR[1], i);
		int ret;

		job_to_yaml(spec->jobs[i]->root, &yaml);
		ret = cpio_add_data(&b->cpio, name, 0644, yaml.buf, yaml.len, err);
		json_array_append_new(jobs, json_sprintf("/%s", name));
		strbuf_release(&yaml);
		free(name);
		if (ret < 0)
			return -1;
	}
	return 0;
}

static int add_config(struct builder *b, const struct vm_guest_spec *spec,
		      struct kd_err *err)
{
	json_t *config = json_object(), *boot = json_array();
	char *text;
	int ret;

	json_object_set_new(config, "modules", boot);
	ret = add_modules(b, &b->boot, boot, err);
	if (!ret && b->brd.n) {
		json_t *brd = json_array();

		json_object_set_new(config, "brd_modules", brd);
		ret = add_modules(b, &b->brd, brd, err);
	}
	if (spec->disk_files)
		json_object_set_new(config, "disks",
				    json_integer(spec->disk_files));
	if (!ret)
		ret = add_jobs(b, spec, config, err);
	if (!ret) {
		text = json_dumps(config, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
		ret = cpio_add_data(&b->cpio, &VM_GUEST_CONFIG[1], 0644, text,
				    strlen(text), err);
		free(text);
	}
	json_decref(config);
	return ret;
}

/* The directories every guest has. */
static int add_skeleton(struct builder *b, struct kd_err *err)
{
	static const char *const dirs[] = {
		"dev", "proc", "sys", "tmp", "run", "root", "mnt",
		&VM_GUEST_RESULTS[1], &VM_GUEST_WORK[1],
	};
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(dirs) && !ret; i++)
		ret = cpio_add_parents(&b->cpio, dirs[i], err) ||
		      cpio_add_dir(&b->cpio, dirs[i],
				   !strcmp(dirs[i], "tmp") ? 01777 :
				   /* kdelta takes only a private one */
				   !strcmp(dirs[i], &VM_GUEST_WORK[1]) ? 0700 : 0755,
				   err);
	return ret ? -1 : 0;
}

/*
 * The virtio transport of the channel: virtio-mmio on a microvm when the
 * kernel has it (probed in its modules: an image alone gets q35's PCI).
 */
static int add_transport(struct builder *b, bool microvm, struct kd_err *err)
{
	enum vm_module_found found = VM_MODULE_MISSING;

	if (microvm && b->modules &&
	    vm_modules_need(b->modules, "virtio_mmio", &b->boot, &found, err) < 0)
		return kd_error_prefix(err, "kernel %s", b->k->label);
	b->g->microvm = found != VM_MODULE_MISSING && b->modules;
	if (b->g->microvm)
		return 0;
	return need_module(b, &b->boot, "virtio_pci",
			   "the guest's channel needs CONFIG_VIRTIO_PCI or CONFIG_VIRTIO_MMIO",
			   err);
}

static int build_from(struct builder *b, const struct vm_guest_spec *spec,
		      const char *self, struct kd_err *err)
{
	if (add_skeleton(b, err) < 0 ||
	    cpio_add_file(&b->cpio, "init", 0755, self, err) < 0 ||
	    add_libraries(b, self, err) < 0)
		return -1;
	if (add_transport(b, spec->microvm, err) < 0 ||
	    need_module(b, &b->boot, "virtio_console",
			"the guest's channel needs CONFIG_VIRTIO_CONSOLE", err) < 0)
		return -1;
	if (spec->disk_files &&
	    need_module(b, &b->boot, "virtio_blk",
			"--vm-disks file needs CONFIG_VIRTIO_BLK", err) < 0)
		return -1;
	for (size_t i = 0; i < spec->n_jobs; i++)
		if (add_job_needs(b, spec->jobs[i], err) < 0)
			return -1;
	for (size_t i = 0; i < spec->n_files; i++) {
		struct stat st;

		if (stat(spec->files[i], &st) < 0 || !S_ISREG(st.st_mode))
			return kd_error(err, "--vm-file %s: %s", spec->files[i],
					stat(spec->files[i], &st) < 0 ?
					strerror(errno) : "not a regular file");
		if (add_program(b, spec->files[i], 0, err) < 0)
			return kd_error_prefix(err, "--vm-file %s", spec->files[i]);
	}
	return add_config(b, spec, err);
}

static int build(struct builder *b, const struct vm_guest_spec *spec,
		 struct kd_err *err)
{
	/*
	 * This very kdelta, by its /proc entry: the program file may have
	 * been replaced (a rebuild) or removed since it started.
	 */
	char *self = xasprintf("/proc/%ld/exe", (long)getpid());
	int ret = build_from(b, spec, self, err);

	free(self);
	return ret;
}

int vm_guest_build(const struct vm_kernel *k, const struct vm_guest_spec *spec,
		   const char *path, struct vm_guest *g, struct kd_err *err)
{
	struct builder b = { .k = k, .g = g, .disk_files = spec->disk_files };
	struct stat st;
	int ret;

	*g = (struct vm_guest){ .path = xstrdup(path) };
	strbuf_init(&g->modules);
	if (k->modules && vm_modules_open(k->modules, &b.modules, err) < 0) {
		vm_guest_release(g);
		return kd_error_prefix(err, "kernel %s", k->label);
	}
	if (cpio_open(&b.cpio, path, err) < 0) {
		vm_modules_free(b.modules);
		vm_guest_release(g);
		return -1;
	}
	ret = build(&b, spec, err);
	if (ret < 0)
		cpio_abort(&b.cpio);
	else
		ret = cpio_finish(&b.cpio, err);
	if (ret == 0 && stat(path, &st) == 0)
		g->size = (uint64_t)st.st_size;
	vm_module_list_release(&b.boot);
	vm_module_list_release(&b.brd);
	vm_modules_free(b.modules);
	if (ret < 0) {
		unlink(path);
		vm_guest_release(g);
	}
	return ret;
}

void vm_guest_release(struct vm_guest *g)
{
	free(g->path);
	strbuf_release(&g->modules);
	memset(g, 0, sizeof(*g));
}
