// SPDX-License-Identifier: GPL-2.0
/*
 * md RAID over a run's RAM disks, through mdadm(8).  See kdelta/md.h.
 *
 * The array gets the lowest free /dev/mdN; disk.c records N in the
 * workspace's state before mdadm makes it, so that a kdelta killed from
 * then on leaves an array the next one can find, and stops only when its
 * members are that workspace's own loop devices.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kdelta/md.h"
#include "kdelta/proc.h"
#include "kdelta/util.h"

/*
 * How long md_stop() tries: an array that udev's probe or blkid holds
 * open for a moment refuses to stop ("Device or resource busy").
 */
#define MD_STOP_ATTEMPTS 25
#define MD_STOP_PAUSE_NS 200000000L

const char *const md_levels[] = {
	"RAID0", "RAID1", "RAID5", "RAID6", "RAID10", NULL,
};

static const struct md_level {
	const char *mdadm;
	const char *module;
	unsigned min_disks;
	bool striped;		/* takes a chunk size */
} md_level_info[] = {
	{ "raid0", "raid0", 2, true },
	{ "raid1", "raid1", 2, false },
	{ "raid5", "raid456", 3, true },
	{ "raid6", "raid456", 4, true },
	{ "raid10", "raid10", 2, true },
};

static const struct md_level *level_info(const char *level)
{
	for (size_t i = 0; md_levels[i]; i++)
		if (!strcmp(level, md_levels[i]))
			return &md_level_info[i];
	return NULL;
}

const char *md_mdadm_level(const char *level)
{
	const struct md_level *l = level_info(level);

	return l ? l->mdadm : NULL;
}

const char *md_module(const char *level)
{
	const struct md_level *l = level_info(level);

	return l ? l->module : NULL;
}

int md_disk_constraints(const char *level, const char *disk, unsigned count,
			const char *fs, const char **at, struct kd_err *err)
{
	const struct md_level *l;

	if (!level && count > 1) {
		*at = "disk";
		return kd_error(err, "disk: %s is %u RAM disks and a run has one file system: add md: RAID0 (or another level) to make one device of them, or use 1BRD_<size>",
				disk, count);
	}
	if (!level)
		return 0;
	*at = "md";
	if (fs && !strcmp(fs, "tmpfs"))
		return kd_error(err, "md: %s needs a file system made on a disk (xfs, ext4, btrfs), not tmpfs",
				level);
	l = level_info(level);
	if (l && count < l->min_disks)
		return kd_error(err, "md: %s needs at least %u disks, and disk: %s has %u",
				level, l->min_disks, disk, count);
	return 0;
}

unsigned md_data_halves(const char *level, unsigned count)
{
	if (!level || !strcmp(level, "RAID1"))
		return 2;
	if (!strcmp(level, "RAID0"))
		return 2 * count;
	if (!strcmp(level, "RAID5"))
		return count > 1 ? 2 * (count - 1) : 0;
	if (!strcmp(level, "RAID6"))
		return count > 2 ? 2 * (count - 2) : 0;
	return count;	/* RAID10: two copies of everything */
}

/* ---- command lines ------------------------------------------------ */

static void add_arg(struct md_command *c, const char *arg)
{
	if (c->argc + 1 < ARRAY_SIZE(c->argv))
		c->argv[c->argc++] = arg;
	c->argv[c->argc] = NULL;
}

static void add_owned(struct md_command *c, char *arg)
{
	c->owned[c->n_owned++] = arg;
	add_arg(c, arg);
}

static void command_init(struct md_command *c, const char *mdadm,
			 const char *action)
{
	memset(c, 0, sizeof(*c));
	add_arg(c, mdadm);
	add_arg(c, action);
}

void md_create_command(struct md_command *c, const char *mdadm,
		       const char *level, const char *device,
		       const char *const *members, unsigned n)
{
	const struct md_level *l = level_info(level);

	command_init(c, mdadm, "--create");
	add_arg(c, device);
	add_arg(c, "--run");
	add_arg(c, "--quiet");
	add_arg(c, "--force");
	add_arg(c, "--metadata=1.2");
	add_owned(c, xasprintf("--level=%s", l ? l->mdadm : level));
	if (!l || l->striped)
		add_owned(c, xasprintf("--chunk=%u", MD_CHUNK_KIB));
	add_owned(c, xasprintf("--raid-devices=%u", n));
	add_arg(c, "--assume-clean");
	for (unsigned i = 0; i < n; i++)
		add_arg(c, members[i]);
}

void md_stop_command(struct md_command *c, const char *mdadm,
		     const char *device)
{
	command_init(c, mdadm, "--stop");
	add_arg(c, device);
}

void md_zero_command(struct md_command *c, const char *mdadm,
		     const char *const *members, unsigned n)
{
	command_init(c, mdadm, "--zero-superblock");
	for (unsigned i = 0; i < n; i++)
		add_arg(c, members[i]);
}

void md_command_release(struct md_command *c)
{
	for (size_t i = 0; i < c->n_owned; i++)
		free(c->owned[i]);
	memset(c, 0, sizeof(*c));
}

/* "mdadm --stop /dev/md0", for messages. */
static void command_text(const struct md_command *c, struct strbuf *out)
{
	const char *base = strrchr(c->argv[0], '/');

	strbuf_addstr(out, base ? base + 1 : c->argv[0]);
	for (size_t i = 1; i < c->argc; i++)
		strbuf_addf(out, " %s", c->argv[i]);
}

/*
 * Runs the command; its output (stdout and stderr) into output when
 * given.  -1 with "md: <command> failed (...): <its last lines>".
 */
static int run_command(const struct md_command *c,
		       const struct cgroup *cgroup, struct strbuf *output,
		       struct kd_err *err)
{
	struct proc p = PROC_INIT;
	struct strbuf text = STRBUF_INIT, how = STRBUF_INIT;
	int ret = 0;

	p.argv = c->argv;
	p.cgroup = cgroup;
	p.out = PROC_PIPE;
	p.err = PROC_TO_OUT;
	command_text(c, &text);
	if (proc_run(&p, err) < 0) {
		ret = kd_error_prefix(err, "md: %s", text.buf);
	} else if (p.end != PROC_EXITED || p.status) {
		proc_describe_failure(&p, p.out_buf.buf, p.out_buf.len, &how);
		ret = kd_error(err, "md: %s %s", text.buf, how.buf);
	} else if (output) {
		strbuf_add(output, p.out_buf.buf, p.out_buf.len);
	}
	proc_clear(&p);
	strbuf_release(&how);
	strbuf_release(&text);
	return ret;
}

/* ---- mdadm --detail ----------------------------------------------- */

/* The value of "   Raid Level : raid0" in detail, or NULL.  Caller frees. */
static char *detail_value(const char *detail, const char *key)
{
	size_t key_len = strlen(key);

	for (const char *line = detail; *line;) {
		size_t len = strcspn(line, "\n");
		const char *s = line + strspn(line, " \t");

		if (!strncmp(s, key, key_len)) {
			const char *colon = s + key_len;

			colon += strspn(colon, " \t");
			if (*colon == ':') {
				const char *v = colon + 1 + strspn(colon + 1, " \t");
				size_t n = (size_t)(line + len - v);

				while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
					n--;
				return xstrndup(v, n);
			}
		}
		line += len + (line[len] == '\n');
	}
	return NULL;
}

int md_detail_summary(const char *detail, char *level, size_t len,
		      struct strbuf *out, struct kd_err *err)
{
	char *raid = detail_value(detail, "Raid Level");
	char *devices = detail_value(detail, "Raid Devices");
	char *chunk = detail_value(detail, "Chunk Size");
	char *size = detail_value(detail, "Array Size");
	char *state = detail_value(detail, "State");

	if (!raid || !*raid) {
		free(raid);
		free(devices);
		free(chunk);
		free(size);
		free(state);
		return kd_error(err, "md: mdadm --detail names no Raid Level");
	}
	snprintf(level, len, "%s", raid);
	strbuf_addstr(out, raid);
	if (devices)
		strbuf_addf(out, ", %s device%s", devices,
			    strcmp(devices, "1") ? "s" : "");
	if (chunk)
		strbuf_addf(out, ", chunk %s", chunk);
	/* "50298880 (47.97 GiB 51.51 GB)": the binary unit's. */
	if (size && strchr(size, '(')) {
		const char *open = strchr(size, '(') + 1;
		size_t number = strcspn(open, " )");
		size_t unit = open[number] == ' ' ?
			      1 + strcspn(open + number + 1, " )") : 0;

		strbuf_addf(out, ", %.*s", (int)(number + unit), open);
	} else if (size) {
		strbuf_addf(out, ", %s KiB", size);
	}
	if (state)
		strbuf_addf(out, ", %s", state);
	free(raid);
	free(devices);
	free(chunk);
	free(size);
	free(state);
	return 0;
}

/* ---- the array ---------------------------------------------------- */

int md_check(struct md_array *md, const char *level, const char *disk,
	     struct kd_err *err)
{
	md->mdadm = find_program("mdadm");
	if (!md->mdadm)
		return kd_error(err, "md: %s over %s needs mdadm, which is not in PATH; install the Debian package mdadm (apt-get install mdadm)",
				level, disk);
	if (access("/proc/mdstat", F_OK)) {
		char *modprobe = find_program("modprobe");

		/* A host whose md is a module: load it as mdadm would. */
		if (modprobe) {
			const char *argv[] = { modprobe, "-q", "md_mod", NULL };
			struct proc p = PROC_INIT;
			struct kd_err ignored;

			p.argv = argv;
			proc_run(&p, &ignored);
			proc_clear(&p);
			free(modprobe);
		}
	}
	if (access("/proc/mdstat", F_OK))
		return kd_error(err, "md: %s over %s needs the kernel's md driver, and this kernel has none (no /proc/mdstat, no md_mod module); run the job in a guest of a kernel that has it: kdelta run --kernel LABEL=PATH",
				level, disk);
	return 0;
}

static bool md_exists(int number)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/block/md%d", number);
	return access(path, F_OK) == 0;
}

int md_free_number(int from)
{
	for (int n = from < 0 ? 0 : from; n < (1 << 20); n++)
		if (!md_exists(n))
			return n;
	return -1;
}

static int read_detail(struct md_array *md, const char *level,
		       const struct cgroup *cgroup, struct kd_err *err)
{
	struct md_command c;
	struct strbuf detail = STRBUF_INIT, summary = STRBUF_INIT;
	char reported[32];
	int ret;

	command_init(&c, md->mdadm, "--detail");
	add_arg(&c, md->path);
	ret = run_command(&c, cgroup, &detail, err);
	if (!ret)
		ret = md_detail_summary(detail.buf, reported, sizeof(reported),
					&summary, err);
	if (!ret && strcmp(reported, md_mdadm_level(level)))
		ret = kd_error(err, "md: asked for %s, and mdadm --detail %s reports %s",
			       md_mdadm_level(level), md->path, reported);
	if (!ret)
		md->report = strbuf_detach(&summary);
	strbuf_release(&summary);
	strbuf_release(&detail);
	md_command_release(&c);
	return ret;
}

int md_create(struct md_array *md, const char *level,
	      const char *const *members, unsigned n,
	      const struct cgroup *cgroup, struct kd_err *err)
{
	struct md_command c;
	int ret;

	for (unsigned i = 0; i < n && i < DISK_MAX_BRD; i++)
		md->members[md->n_members++] = xstrdup(members[i]);
	md_create_command(&c, md->mdadm, level, md->path, members, n);
	ret = run_command(&c, cgroup, NULL, err);
	md_command_release(&c);
	if (ret)
		return -1;
	return read_detail(md, level, cgroup, err);
}

static void pause_a_moment(void)
{
	const struct timespec pause = { 0, MD_STOP_PAUSE_NS };

	nanosleep(&pause, NULL);
}

static int stop_and_zero(const char *mdadm, const char *path,
			 const char *const *members, unsigned n,
			 struct kd_err *err)
{
	struct md_command c;
	int ret = -1;

	md_stop_command(&c, mdadm, path);
	for (int attempt = 0; attempt < MD_STOP_ATTEMPTS && ret; attempt++) {
		if (attempt)
			pause_a_moment();
		ret = run_command(&c, NULL, NULL, err);
	}
	md_command_release(&c);
	if (ret || !n)
		return ret;
	md_zero_command(&c, mdadm, members, n);
	ret = run_command(&c, NULL, NULL, err);
	md_command_release(&c);
	return ret;
}

int md_stop(struct md_array *md, struct kd_err *err)
{
	int ret = 0;

	if (md->number >= 0 && md_exists(md->number) && md->mdadm)
		ret = stop_and_zero(md->mdadm, md->path,
				    (const char *const *)md->members,
				    md->n_members, err);
	for (unsigned i = 0; i < md->n_members; i++)
		free(md->members[i]);
	free(md->mdadm);
	free(md->report);
	*md = (struct md_array)MD_ARRAY_INIT;
	return ret;
}

/* Whether /sys/block/<member> is a loop device over a file below brd_dir. */
static bool own_loop(const char *member, const char *brd_dir)
{
	char *path = xasprintf("/sys/block/%s/loop/backing_file", member);
	struct strbuf file = STRBUF_INIT;
	struct kd_err err;
	bool ours = false;

	if (!strncmp(member, "loop", 4) && read_file(path, &file, &err) == 0) {
		strbuf_rtrim(&file);
		ours = !strncmp(file.buf, brd_dir, strlen(brd_dir));
	}
	strbuf_release(&file);
	free(path);
	return ours;
}

int md_recover(int number, const char *ws_path, struct kd_err *err)
{
	char *slaves = xasprintf("/sys/block/md%d/slaves", number);
	char *brd_dir = xasprintf("%s/brd/", ws_path);
	char *members[DISK_MAX_BRD];
	unsigned n = 0;
	bool ours = true;
	struct dirent *de;
	DIR *d = opendir(slaves);
	int ret = 0;

	if (!d) {
		free(slaves);
		free(brd_dir);
		return 0;	/* never made, or stopped */
	}
	while ((de = readdir(d)) && ours) {
		if (de->d_name[0] == '.')
			continue;
		ours = n < DISK_MAX_BRD && own_loop(de->d_name, brd_dir);
		if (ours)
			members[n++] = xasprintf("/dev/%s", de->d_name);
	}
	closedir(d);
	if (ours && n) {
		char *mdadm = find_program("mdadm");
		char path[32];

		snprintf(path, sizeof(path), "/dev/md%d", number);
		if (!mdadm)
			ret = kd_error(err, "md: %s is left, and mdadm is not in PATH to stop it",
				       path);
		else
			ret = stop_and_zero(mdadm, path,
					    (const char *const *)members, n,
					    err) < 0 ? -1 : 1;
		free(mdadm);
	}
	for (unsigned i = 0; i < n; i++)
		free(members[i]);
	free(slaves);
	free(brd_dir);
	return ret;
}
