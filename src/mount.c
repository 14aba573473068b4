// SPDX-License-Identifier: GPL-2.0
/*
 * mount(2) and umount2(2) for a run's file systems.  See kdelta/mount.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>

#include "kdelta/mount.h"
#include "kdelta/util.h"

/* How long unmount_patiently() waits for a busy file system. */
#define UNMOUNT_ATTEMPTS 20
#define UNMOUNT_PAUSE_NS 50000000L

struct mount_flag {
	const char *name;
	unsigned long flag;
	bool clear;
};

/* The flags mount(8) turns into MS_* bits itself (see mount(8)). */
static const struct mount_flag mount_flags[] = {
	{ "defaults", 0, false },
	{ "ro", MS_RDONLY, false },
	{ "rw", MS_RDONLY, true },
	{ "noatime", MS_NOATIME, false },
	{ "atime", MS_NOATIME, true },
	{ "nodiratime", MS_NODIRATIME, false },
	{ "diratime", MS_NODIRATIME, true },
	{ "relatime", MS_RELATIME, false },
	{ "norelatime", MS_RELATIME, true },
	{ "strictatime", MS_STRICTATIME, false },
	{ "lazytime", MS_LAZYTIME, false },
	{ "nolazytime", MS_LAZYTIME, true },
	{ "sync", MS_SYNCHRONOUS, false },
	{ "async", MS_SYNCHRONOUS, true },
	{ "dirsync", MS_DIRSYNC, false },
	{ "nodev", MS_NODEV, false },
	{ "dev", MS_NODEV, true },
	{ "nosuid", MS_NOSUID, false },
	{ "suid", MS_NOSUID, true },
	{ "noexec", MS_NOEXEC, false },
	{ "exec", MS_NOEXEC, true },
};

/*
 * Options mount(8) interprets itself, or that change what mount(2) does
 * rather than how the file system behaves: passed to a file system they
 * would only fail with "Invalid argument".
 */
static const char *const mount8_options[] = {
	"auto", "noauto", "bind", "rbind", "move", "remount", "loop", "user",
	"nouser", "users", "owner", "group", "nofail", "_netdev", "shared",
	"rshared", "private", "rprivate", "slave", "rslave", "unbindable",
	"runbindable", "x-systemd.automount", NULL,
};

static bool is_mount8_option(const char *opt)
{
	for (size_t i = 0; mount8_options[i]; i++)
		if (!strcmp(opt, mount8_options[i]))
			return true;
	return !strncmp(opt, "x-", 2) || !strncmp(opt, "loop=", 5) ||
	       !strncmp(opt, "offset=", 7) || !strncmp(opt, "sizelimit=", 10);
}

static const struct mount_flag *find_mount_flag(const char *opt)
{
	for (size_t i = 0; i < ARRAY_SIZE(mount_flags); i++)
		if (!strcmp(opt, mount_flags[i].name))
			return &mount_flags[i];
	return NULL;
}

static int add_mount_option(const char *opt, unsigned long *flags,
			    struct strbuf *data, struct kd_err *err)
{
	const struct mount_flag *f = find_mount_flag(opt);

	if (f) {
		if (f->clear)
			*flags &= ~f->flag;
		else
			*flags |= f->flag;
		return 0;
	}
	if (is_mount8_option(opt))
		return kd_error(err,
				"fs_mount_options: '%s' is an option of mount(8), not of the file system; remove it",
				opt);
	if (data->len)
		strbuf_addch(data, ',');
	strbuf_addstr(data, opt);
	return 0;
}

int mount_options_parse(const char *options, unsigned long *flags,
			struct strbuf *data, struct kd_err *err)
{
	const char *p = options ? options : "";

	*flags = 0;
	strbuf_reset(data);
	while (*p) {
		size_t len = strcspn(p, ",");
		char *opt = xstrndup(p, len);
		int ret = len ? add_mount_option(opt, flags, data, err) : 0;

		free(opt);
		if (ret)
			return -1;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

int mount_private(const char *what, const char *source, const char *target,
		  const char *fstype, unsigned long flags, const char *data,
		  struct kd_err *err)
{
	if (mount(source, target, fstype, flags, data)) {
		int e = errno;

		if (e == EINVAL && data && *data)
			return kd_error(err,
					"fs: mounting %s on %s with options '%s' failed: %s (dmesg says which option)",
					what, target, data, strerror(e));
		return kd_error(err, "fs: mounting %s on %s failed: %s", what,
				target, strerror(e));
	}
	/*
	 * If the parent mount is shared (systemd makes / shared), the new
	 * mount would pass on whatever happens below it to its peers in
	 * other namespaces; a private mount keeps it to ourselves.
	 */
	if (mount(NULL, target, NULL, MS_PRIVATE, NULL)) {
		int e = errno;

		umount2(target, MNT_DETACH);
		return kd_error(err, "fs: making %s private failed: %s", target,
				strerror(e));
	}
	return 0;
}

int unmount_patiently(const char *target, struct kd_err *err)
{
	const struct timespec pause = { 0, UNMOUNT_PAUSE_NS };

	for (int attempt = 0; attempt < UNMOUNT_ATTEMPTS; attempt++) {
		if (!umount2(target, UMOUNT_NOFOLLOW))
			return 0;
		if (errno == EINVAL || errno == ENOENT)
			return 0;	/* not mounted (any more) */
		if (errno != EBUSY)
			return kd_error(err, "fs: unmounting %s failed: %s",
					target, strerror(errno));
		nanosleep(&pause, NULL);
	}
	if (umount2(target, MNT_DETACH | UMOUNT_NOFOLLOW))
		return kd_error(err,
				"fs: %s is busy and could not be detached either: %s; find the users with 'fuser -vm %s'",
				target, strerror(errno), target);
	return kd_error(err,
			"fs: %s was still busy after a second; detached it lazily (MNT_DETACH), it goes away when its last user exits",
			target);
}

/* Undoes mountinfo's octal escapes (\040 for a space) in place. */
static void unescape_mountinfo(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
					(s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

static bool path_is_below(const char *path, const char *dir)
{
	size_t len = strlen(dir);

	if (!strcmp(dir, "/"))
		return true;
	return !strncmp(path, dir, len) && (!path[len] || path[len] == '/');
}

/*
 * One line of /proc/self/mountinfo: "36 35 98:0 /mnt1 /mnt2 rw,noatime
 * master:1 - ext3 /dev/root rw,errors=continue" (proc(5)).  Fills the mount
 * point (field 5) and the type (the first field after " - ").
 */
static bool parse_mountinfo_line(char *line, char **mount_point,
				 char **fstype)
{
	char *save = NULL, *field;
	int i = 0;

	*mount_point = *fstype = NULL;
	for (field = strtok_r(line, " ", &save); field;
	     field = strtok_r(NULL, " ", &save), i++) {
		if (i == 4)
			*mount_point = field;
		else if (i > 5 && !strcmp(field, "-"))
			break;
	}
	if (!field || !*mount_point)
		return false;
	*fstype = strtok_r(NULL, " ", &save);
	if (!*fstype)
		return false;
	unescape_mountinfo(*mount_point);
	return true;
}

int mount_find(const char *path, struct strbuf *mount_point,
	       struct strbuf *fstype, struct kd_err *err)
{
	struct strbuf info = STRBUF_INIT;
	char *real = realpath(path, NULL), *line, *save = NULL;
	size_t best = 0;

	if (!real)
		return kd_error(err, "%s: %s", path, strerror(errno));
	if (read_file("/proc/self/mountinfo", &info, err)) {
		free(real);
		return -1;
	}
	strbuf_reset(mount_point);
	strbuf_reset(fstype);
	for (line = strtok_r(info.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *mp, *type;

		if (!parse_mountinfo_line(line, &mp, &type) ||
		    !path_is_below(real, mp) || strlen(mp) < best)
			continue;
		/* Later lines are mounted over earlier ones: >= wins. */
		best = strlen(mp);
		strbuf_reset(mount_point);
		strbuf_addstr(mount_point, mp);
		strbuf_reset(fstype);
		strbuf_addstr(fstype, type);
	}
	strbuf_release(&info);
	free(real);
	if (!mount_point->len)
		return kd_error(err, "%s: not below any mount in /proc/self/mountinfo",
				path);
	return 0;
}
