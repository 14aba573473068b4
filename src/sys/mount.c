// SPDX-License-Identifier: GPL-2.0
/*
 * mount(2) and umount2(2) for a run's file systems.  See kdelta/mount.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

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

/* The file system's last complaint in the context's log ("e <text>"). */
static void context_complaint(int fs_fd, struct strbuf *out)
{
	char buf[512];
	ssize_t n;

	while ((n = read(fs_fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		if (buf[0] != 'e' || buf[1] != ' ')
			continue;
		strbuf_reset(out);
		strbuf_addstr(out, buf + 2);
		strbuf_rtrim(out);
	}
}

static int context_error(int fs_fd, const char *what, const char *option,
			 struct kd_err *err)
{
	struct strbuf said = STRBUF_INIT;
	int e = errno;

	context_complaint(fs_fd, &said);
	if (!said.len)
		strbuf_addstr(&said, strerror(e));
	if (option)
		kd_error(err, "fs: mounting %s: option '%s': %s", what, option,
			 said.buf);
	else
		kd_error(err, "fs: mounting %s failed: %s", what, said.buf);
	strbuf_release(&said);
	return -1;
}

/* The superblock's flags among the MS_* ones, as fsconfig() takes them. */
static const struct {
	unsigned long flag;
	const char *name;
} sb_flags[] = {
	{ MS_RDONLY, "ro" },
	{ MS_SYNCHRONOUS, "sync" },
	{ MS_DIRSYNC, "dirsync" },
	{ MS_LAZYTIME, "lazytime" },
};

/* The mount's flags among the MS_* ones, as fsmount() takes them. */
static unsigned int mount_attr(unsigned long flags)
{
	unsigned int attr = 0;

	if (flags & MS_RDONLY)
		attr |= MOUNT_ATTR_RDONLY;
	if (flags & MS_NOSUID)
		attr |= MOUNT_ATTR_NOSUID;
	if (flags & MS_NODEV)
		attr |= MOUNT_ATTR_NODEV;
	if (flags & MS_NOEXEC)
		attr |= MOUNT_ATTR_NOEXEC;
	if (flags & MS_NODIRATIME)
		attr |= MOUNT_ATTR_NODIRATIME;
	if (flags & MS_NOATIME)
		attr |= MOUNT_ATTR_NOATIME;
	else if (flags & MS_STRICTATIME)
		attr |= MOUNT_ATTR_STRICTATIME;
	return attr;		/* else MOUNT_ATTR_RELATIME, which is 0 */
}

/* Hands the options to the file system: "key=value" or a flag "key". */
static int configure(int fs_fd, const struct mount_spec *spec,
		     struct kd_err *err)
{
	const char *p = spec->data ? spec->data : "";

	if (fsconfig(fs_fd, FSCONFIG_SET_STRING, "source", spec->source, 0) < 0)
		return context_error(fs_fd, spec->what, NULL, err);
	for (size_t i = 0; i < ARRAY_SIZE(sb_flags); i++)
		if ((spec->flags & sb_flags[i].flag) &&
		    fsconfig(fs_fd, FSCONFIG_SET_FLAG, sb_flags[i].name, NULL, 0) < 0)
			return context_error(fs_fd, spec->what, sb_flags[i].name,
					     err);
	while (*p) {
		size_t len = strcspn(p, ",");
		char *opt = xstrndup(p, len), *eq = strchr(opt, '=');
		int r = 0;

		if (eq) {
			*eq = '\0';
			r = fsconfig(fs_fd, FSCONFIG_SET_STRING, opt, eq + 1, 0);
			*eq = '=';
		} else if (len) {
			r = fsconfig(fs_fd, FSCONFIG_SET_FLAG, opt, NULL, 0);
		}
		if (r < 0)
			context_error(fs_fd, spec->what, opt, err);
		free(opt);
		if (r < 0)
			return -1;
		p += len + (p[len] == ',');
	}
	return 0;
}

int mount_create(const struct mount_spec *spec, int *mount_fd,
		 int *mount_id, struct kd_err *err)
{
	int fs_fd = fsopen(spec->fstype, FSOPEN_CLOEXEC);
	struct statx sx;

	*mount_fd = -1;
	if (fs_fd < 0)
		return kd_error(err, "fs: mounting %s: %s%s", spec->what,
				strerror(errno),
				errno == ENOSYS ? " (kdelta needs Linux 5.2 or later)" :
				errno == ENODEV ? " (a file system this kernel does not know)" : "");
	if (configure(fs_fd, spec, err) < 0 ||
	    (fsconfig(fs_fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0 &&
	     context_error(fs_fd, spec->what, NULL, err))) {
		close(fs_fd);
		return -1;
	}
	*mount_fd = fsmount(fs_fd, FSMOUNT_CLOEXEC, mount_attr(spec->flags));
	if (*mount_fd < 0) {
		context_error(fs_fd, spec->what, NULL, err);
		close(fs_fd);
		return -1;
	}
	close(fs_fd);
	if (statx(*mount_fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &sx) < 0 ||
	    !(sx.stx_mask & STATX_MNT_ID)) {
		close(*mount_fd);
		*mount_fd = -1;
		return kd_error(err, "fs: the ID of the mount of %s: %s (kdelta needs Linux 5.8 or later)",
				spec->what, strerror(errno));
	}
	*mount_id = (int)sx.stx_mnt_id;
	return 0;
}

int mount_attach(int mount_fd, int dirfd, const char *name,
		 const char *shown, struct kd_err *err)
{
	struct mount_attr private = { .propagation = MS_PRIVATE };
	int ret = 0;

	if (move_mount(mount_fd, "", dirfd, name, MOVE_MOUNT_F_EMPTY_PATH) < 0) {
		ret = kd_error(err, "fs: mounting on %s failed: %s", shown,
			       strerror(errno));
	} else if (mount_setattr(mount_fd, "", AT_EMPTY_PATH, &private,
				 sizeof(private)) < 0) {
		/*
		 * If the parent mount is shared (systemd makes / shared), the
		 * new mount would pass on whatever happens below it to its
		 * peers in other namespaces; a private mount keeps it to us.
		 */
		char self[64];

		ret = kd_error(err, "fs: making %s private failed: %s", shown,
			       strerror(errno));
		snprintf(self, sizeof(self), "/proc/self/fd/%d", mount_fd);
		umount2(self, MNT_DETACH);
	}
	close(mount_fd);
	return ret;
}

int mount_id_at(int dirfd, const char *name, int *id, struct kd_err *err)
{
	struct statx sx;

	if (statx(dirfd, name, AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &sx) < 0 ||
	    !(sx.stx_mask & STATX_MNT_ID))
		return kd_error(err, "%s: %s", name, strerror(errno));
	*id = (int)sx.stx_mnt_id;
	return 0;
}

/* Whether the mount with ID id is on dirfd/name (the topmost there). */
static bool mounted_at(int dirfd, const char *name, int id)
{
	int now;

	return mount_id_at(dirfd, name, &now, NULL) == 0 && now == id;
}

int unmount_at(int dirfd, const char *name, int id, const char *shown,
	       struct kd_err *err)
{
	const struct timespec pause = { 0, UNMOUNT_PAUSE_NS };
	struct strbuf path = STRBUF_INIT;
	int ret = -1;

	if (!mounted_at(dirfd, name, id))
		return kd_error(err,
				"fs: the file system kdelta mounted on %s (mount ID %d) is not there any more; cannot confirm that it is unmounted (see 'findmnt -o +ID')",
				shown, id);
	/* Through the directory's descriptor: a rename changes nothing. */
	strbuf_addf(&path, "/proc/self/fd/%d/%s", dirfd, name);
	for (int attempt = 0; attempt < UNMOUNT_ATTEMPTS; attempt++) {
		if (umount2(path.buf, UMOUNT_NOFOLLOW) == 0) {
			ret = mounted_at(dirfd, name, id) ?
			      kd_error(err, "fs: %s is still mounted after unmounting it", shown) : 0;
			goto out;
		}
		if (errno != EBUSY) {
			kd_error(err, "fs: unmounting %s failed: %s", shown,
				 strerror(errno));
			goto out;
		}
		nanosleep(&pause, NULL);
	}
	if (umount2(path.buf, MNT_DETACH | UMOUNT_NOFOLLOW))
		kd_error(err, "fs: %s is busy and could not be detached either: %s; find the users with 'fuser -vm %s'",
			 shown, strerror(errno), shown);
	else
		kd_error(err, "fs: %s was still busy after a second; detached it lazily (MNT_DETACH), it goes away when its last user exits",
			 shown);
out:
	strbuf_release(&path);
	return ret;
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

/* What kdelta reads of a line of /proc/self/mountinfo. */
struct mountinfo_line {
	char *mount_point;	/* field 5, unescaped */
	char *fstype;		/* the first field after " - " */
	char *source;		/* the second, or NULL */
	unsigned dev_major, dev_minor;	/* field 3 */
};

/*
 * One line of /proc/self/mountinfo: "36 35 98:0 /mnt1 /mnt2 rw,noatime
 * master:1 - ext3 /dev/root rw,errors=continue" (proc(5)).
 */
static bool parse_mountinfo_line(char *line, struct mountinfo_line *m)
{
	char *save = NULL, *field;
	int i = 0;

	memset(m, 0, sizeof(*m));
	for (field = strtok_r(line, " ", &save); field;
	     field = strtok_r(NULL, " ", &save), i++) {
		if (i == 2 && sscanf(field, "%u:%u", &m->dev_major,
				     &m->dev_minor) != 2)
			return false;
		if (i == 4)
			m->mount_point = field;
		else if (i > 5 && !strcmp(field, "-"))
			break;
	}
	if (!field || !m->mount_point)
		return false;
	m->fstype = strtok_r(NULL, " ", &save);
	if (!m->fstype)
		return false;
	m->source = strtok_r(NULL, " ", &save);
	unescape_mountinfo(m->mount_point);
	return true;
}

int mount_find_type(const char *fstype, struct strbuf *mount_point,
		    struct kd_err *err)
{
	struct strbuf info = STRBUF_INIT;
	char *line, *save = NULL;

	if (read_file("/proc/self/mountinfo", &info, err))
		return -1;
	strbuf_reset(mount_point);
	for (line = strtok_r(info.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct mountinfo_line m;

		if (parse_mountinfo_line(line, &m) && !strcmp(m.fstype, fstype)) {
			strbuf_addstr(mount_point, m.mount_point);
			break;
		}
	}
	strbuf_release(&info);
	if (!mount_point->len)
		return kd_error(err, "no %s file system is mounted", fstype);
	return 0;
}

/*
 * The line of the mount that holds path (the longest mount point that is a
 * prefix of path's real path) into m, pointing into info.
 */
static int mount_line_of(const char *path, struct strbuf *info,
			 struct mountinfo_line *m, struct kd_err *err)
{
	char *real = realpath(path, NULL), *line, *save = NULL;
	size_t best = 0;
	bool found = false;

	if (!real)
		return kd_error(err, "%s: %s", path, strerror(errno));
	if (read_file("/proc/self/mountinfo", info, err)) {
		free(real);
		return -1;
	}
	for (line = strtok_r(info->buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct mountinfo_line this;

		if (!parse_mountinfo_line(line, &this) ||
		    !path_is_below(real, this.mount_point) ||
		    strlen(this.mount_point) < best)
			continue;
		/* Later lines are mounted over earlier ones: >= wins. */
		best = strlen(this.mount_point);
		*m = this;
		found = true;
	}
	free(real);
	if (!found)
		return kd_error(err, "%s: not below any mount in /proc/self/mountinfo",
				path);
	return 0;
}

int mount_find(const char *path, struct strbuf *mount_point,
	       struct strbuf *fstype, struct kd_err *err)
{
	struct strbuf info = STRBUF_INIT;
	struct mountinfo_line m;
	int rc = mount_line_of(path, &info, &m, err);

	strbuf_reset(mount_point);
	strbuf_reset(fstype);
	if (!rc) {
		strbuf_addstr(mount_point, m.mount_point);
		strbuf_addstr(fstype, m.fstype);
	}
	strbuf_release(&info);
	return rc;
}

dev_t mount_device(const char *path)
{
	struct strbuf info = STRBUF_INIT;
	struct mountinfo_line m;
	struct stat st;
	dev_t dev = 0;

	if (mount_line_of(path, &info, &m, NULL) < 0)
		dev = 0;
	else if (m.source && !strncmp(m.source, "/dev/", 5) &&
		 !stat(m.source, &st) && S_ISBLK(st.st_mode))
		dev = st.st_rdev;
	else if (m.dev_major)
		dev = makedev(m.dev_major, m.dev_minor);
	strbuf_release(&info);
	return dev;
}
