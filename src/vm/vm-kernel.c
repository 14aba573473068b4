// SPDX-License-Identifier: GPL-2.0
/*
 * What --kernel LABEL=PATH names (kdelta/vm.h): an image, or a directory
 * with boot/vmlinuz-<release> and lib/modules/<release>/.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kdelta/runner.h"
#include "kdelta/util.h"
#include "kdelta/vm.h"

/* The x86 boot protocol's setup header (Documentation/arch/x86/boot.rst). */
#define SETUP_MAGIC_OFFSET 0x202	/* "HdrS" */
#define SETUP_VERSION_OFFSET 0x206	/* protocol version */
#define KERNEL_VERSION_OFFSET 0x20e	/* pointer to the version string - 0x200 */
#define HEADER_READ 0x1000
#define VERSION_READ 256

const char vm_guest_kconfig[] =
	"CONFIG_64BIT=y\n"
	"CONFIG_PRINTK=y\n"
	"CONFIG_BLK_DEV_INITRD=y\n"
	"CONFIG_BINFMT_ELF=y\n"
	"CONFIG_BINFMT_SCRIPT=y\n"
	"CONFIG_TTY=y\n"
	"CONFIG_SERIAL_8250=y\n"
	"CONFIG_SERIAL_8250_CONSOLE=y\n"
	"CONFIG_PCI=y\n"
	"CONFIG_VIRTIO_MENU=y\n"
	"CONFIG_VIRTIO_PCI=y\n"
	"CONFIG_VIRTIO_MMIO=y\n"
	"CONFIG_VIRTIO_MMIO_CMDLINE_DEVICES=y\n"
	"CONFIG_VIRTIO_CONSOLE=y\n"
	"CONFIG_DEVTMPFS=y\n"
	"CONFIG_PROC_FS=y\n"
	"CONFIG_SYSFS=y\n"
	"CONFIG_TMPFS=y\n"
	"CONFIG_SHMEM=y\n"
	"CONFIG_CGROUPS=y\n"
	"CONFIG_MULTIUSER=y\n"
	"CONFIG_FUTEX=y\n"
	"CONFIG_EPOLL=y\n"
	"CONFIG_SIGNALFD=y\n"
	"CONFIG_TIMERFD=y\n"
	"CONFIG_EVENTFD=y\n"
	"CONFIG_POSIX_TIMERS=y\n"
	"CONFIG_FILE_LOCKING=y\n"
	"CONFIG_UNIX=y\n"
	"CONFIG_BLOCK=y\n"
	"CONFIG_BLK_DEV=y\n"
	"CONFIG_BLK_DEV_RAM=y\n"
	"CONFIG_XFS_FS=y\n"
	"CONFIG_EXT4_FS=y\n"
	"CONFIG_PERF_EVENTS=y\n";

int vm_image_banner(const char *image, char **banner, struct kd_err *err)
{
	unsigned char head[HEADER_READ];
	char version[VERSION_READ];
	unsigned protocol, pointer;
	int fd = open(image, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	size_t len;

	*banner = NULL;
	if (fd < 0)
		return kd_error(err, "%s: %s", image, strerror(errno));
	n = pread(fd, head, sizeof(head), 0);
	if (n < KERNEL_VERSION_OFFSET + 2 ||
	    memcmp(head + SETUP_MAGIC_OFFSET, "HdrS", 4)) {
		close(fd);
		return kd_error(err, "%s: not a Linux kernel image (no x86 boot header)",
				image);
	}
	protocol = head[SETUP_VERSION_OFFSET] |
		   head[SETUP_VERSION_OFFSET + 1] << 8;
	pointer = head[KERNEL_VERSION_OFFSET] |
		  head[KERNEL_VERSION_OFFSET + 1] << 8;
	/* The version string is there since boot protocol 2.00. */
	if (protocol < 0x200 || !pointer) {
		close(fd);
		return 0;
	}
	n = pread(fd, version, sizeof(version) - 1, pointer + 0x200);
	close(fd);
	if (n <= 0)
		return 0;
	version[n] = '\0';
	len = strcspn(version, "\n");
	if (len >= (size_t)n)
		return 0;
	version[len] = '\0';
	for (size_t i = 0; i < len; i++)
		if (is_control_char((unsigned char)version[i]))
			return 0;
	if (len && version[0] != ' ')
		*banner = xstrdup(version);
	return 0;
}

int vm_image_release(const char *image, char **release, struct kd_err *err)
{
	char *banner;

	*release = NULL;
	if (vm_image_banner(image, &banner, err) < 0)
		return -1;
	if (banner)
		*release = xstrndup(banner, strcspn(banner, " "));
	free(banner);
	return 0;
}

/* The only entry of dir whose name begins with prefix; NULL, or -1 if several. */
static int only_entry(const char *dir, const char *prefix, char **out,
		      struct strbuf *names)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int found = 0;

	*out = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		if (names)
			strbuf_addf(names, "%s%s", names->len ? ", " : "",
				    de->d_name);
		if (!found++)
			*out = xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(d);
	if (found > 1) {
		free(*out);
		*out = NULL;
		return -1;
	}
	return found;
}

/* A directory of boot/vmlinuz-* and lib/modules/<release>. */
static int resolve_dir(struct vm_kernel *k, struct kd_err *err)
{
	char *boot = xasprintf("%s/boot", k->path);
	struct strbuf names = STRBUF_INIT;
	int found = only_entry(boot, "vmlinuz-", &k->image, &names);
	int ret = 0;

	if (found < 0)
		ret = kd_error(err, "kernel %s: %s has several kernels (%s); give the image itself as PATH",
			       k->label, boot, names.buf);
	else if (!found)
		ret = kd_error(err, "kernel %s: %s holds no boot/vmlinuz-*; give a kernel image, or a directory made by 'make install INSTALL_PATH=DIR/boot' and 'make modules_install INSTALL_MOD_PATH=DIR'",
			       k->label, k->path);
	strbuf_release(&names);
	free(boot);
	return ret;
}

/* lib/modules/<release> next to the image's directory, when there is one. */
static void find_modules(struct vm_kernel *k, const char *root)
{
	char *dir;

	if (!k->release)
		return;
	dir = xasprintf("%s/lib/modules/%s", root, k->release);
	if (is_directory(dir))
		k->modules = dir;
	else
		free(dir);
}

int vm_kernel_resolve(const char *label, const char *path, struct vm_kernel *k,
		      struct kd_err *err)
{
	struct stat st;

	*k = (struct vm_kernel){ .label = xstrdup(label), .path = xstrdup(path) };
	if (stat(path, &st) < 0) {
		kd_error(err, "kernel %s: %s: %s", label, path, strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		if (resolve_dir(k, err) < 0)
			goto fail;
	} else if (S_ISREG(st.st_mode)) {
		k->image = xstrdup(path);
	} else {
		kd_error(err, "kernel %s: %s is neither a kernel image nor a directory",
			 label, path);
		goto fail;
	}
	if (vm_image_release(k->image, &k->release, err) < 0) {
		kd_error_prefix(err, "kernel %s", label);
		goto fail;
	}
	if (S_ISDIR(st.st_mode))
		find_modules(k, path);
	return 0;
fail:
	vm_kernel_release(k);
	return -1;
}

int vm_kernel_parse(const char *spec, struct vm_kernel *k, struct kd_err *err)
{
	const char *eq = strchr(spec, '=');
	char *label;
	int ret;

	if (!eq || eq == spec || !eq[1])
		return kd_error(err, "--kernel expects LABEL=PATH (a kernel image, or a directory with boot/vmlinuz-* and lib/modules/), not '%s'",
				spec);
	label = xstrndup(spec, (size_t)(eq - spec));
	ret = commit_label_check(label, err);
	if (!ret)
		ret = vm_kernel_resolve(label, eq + 1, k, err);
	free(label);
	return ret;
}

void vm_kernel_release(struct vm_kernel *k)
{
	free(k->label);
	free(k->path);
	free(k->image);
	free(k->modules);
	free(k->release);
	memset(k, 0, sizeof(*k));
}
