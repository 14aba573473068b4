// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel's modules and their dependencies (kdelta/vm.h), from the
 * modules themselves: each module's ELF section .modinfo holds
 * "depends=a,b" (what modpost found it calls) and "softdep=pre: c" (what
 * it asks to be loaded first), which is what depmod's modules.dep is made
 * of.  Debian's linux-image packages ship no modules.dep (their postinst
 * runs depmod), and running depmod would write into the user's tree.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "kdelta/proc.h"
#include "kdelta/util.h"
#include "kdelta/vm.h"

/* Modules larger than this are not modules. */
#define MODULE_MAX (256u << 20)
/* Dependency chains longer than this are a loop. */
#define DEPTH_MAX 32

struct module_file {
	char *name;		/* normalised: '-' as '_' */
	char *path;
};

struct vm_modules {
	char *dir;
	struct module_file *files;
	size_t n, alloc;
	struct strbuf builtin;	/* "\n<name>\n..." */
};

static void normalise(char *name)
{
	for (char *s = name; *s; s++)
		if (*s == '-')
			*s = '_';
}

/* "xfs.ko", "xfs.ko.xz": the module's name, or NULL. */
static char *module_name(const char *file)
{
	static const char *const suffixes[] = {
		".ko", ".ko.gz", ".ko.xz", ".ko.zst",
	};
	size_t len = strlen(file);

	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
		size_t s = strlen(suffixes[i]);

		if (len > s && !strcmp(file + len - s, suffixes[i])) {
			char *name = xstrndup(file, len - s);

			normalise(name);
			return name;
		}
	}
	return NULL;
}

static int walk(struct vm_modules *m, const char *dir, int depth,
		struct kd_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return kd_error(err, "%s: %s", dir, strerror(errno));
	while (!ret && (de = readdir(d))) {
		char *path, *name;

		if (de->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (de->d_type == DT_DIR ||
		    (de->d_type == DT_UNKNOWN && is_directory(path))) {
			if (depth < DEPTH_MAX)
				ret = walk(m, path, depth + 1, err);
			free(path);
			continue;
		}
		name = module_name(de->d_name);
		if (!name) {
			free(path);
			continue;
		}
		ALLOC_GROW(m->files, m->n + 1, m->alloc);
		m->files[m->n++] = (struct module_file){ name, path };
	}
	closedir(d);
	return ret;
}

/* modules.builtin: "kernel/drivers/block/brd.ko" per line. */
static void read_builtin(struct vm_modules *m)
{
	char *path = xasprintf("%s/modules.builtin", m->dir);
	struct strbuf text = STRBUF_INIT;
	struct kd_err err;
	char *line, *save = NULL;

	strbuf_addch(&m->builtin, '\n');
	if (read_file(path, &text, &err) == 0) {
		for (line = strtok_r(text.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			const char *base = strrchr(line, '/');
			char *name = module_name(base ? base + 1 : line);

			if (name)
				strbuf_addf(&m->builtin, "%s\n", name);
			free(name);
		}
	}
	strbuf_release(&text);
	free(path);
}

int vm_modules_open(const char *dir, struct vm_modules **out,
		    struct kd_err *err)
{
	struct vm_modules *m = xcalloc(1, sizeof(*m));
	char *kernel = xasprintf("%s/kernel", dir);
	int ret = 0;

	m->dir = xstrdup(dir);
	strbuf_init(&m->builtin);
	read_builtin(m);
	/* Out-of-tree modules (extra/, updates/) are not the guest's business. */
	if (is_directory(kernel))
		ret = walk(m, kernel, 0, err);
	free(kernel);
	if (ret < 0) {
		vm_modules_free(m);
		return -1;
	}
	*out = m;
	return 0;
}

void vm_modules_free(struct vm_modules *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		free(m->files[i].name);
		free(m->files[i].path);
	}
	free(m->files);
	free(m->dir);
	strbuf_release(&m->builtin);
	free(m);
}

static const struct module_file *find_file(const struct vm_modules *m,
					   const char *name)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->files[i].name, name))
			return &m->files[i];
	return NULL;
}

/*
 * A soft dependency names an algorithm's alias more often than a module
 * ("softdep=pre: crc32c", which crc32c_generic or crc32c-intel provide).
 * Without depmod's modules.alias, the crypto modules, which provide such
 * aliases, are asked: the first whose .modinfo says "alias=<name>" or
 * "alias=crypto-<name>".  Only on a miss, and only those few.
 */
static const struct module_file *find_alias(const struct vm_modules *m,
					    const char *alias)
{
	char *want = xasprintf("alias=%s", alias);
	char *want_crypto = xasprintf("alias=crypto-%s", alias);
	const struct module_file *found = NULL;

	for (size_t i = 0; i < m->n && !found; i++) {
		struct strbuf data = STRBUF_INIT;
		const char *info;
		size_t len;
		struct kd_err err;

		if (!strstr(m->files[i].path, "/crypto/"))
			continue;
		if (vm_module_read(m->files[i].path, &data, &err) == 0 &&
		    vm_module_info(data.buf, data.len, &info, &len, &err) == 0) {
			for (size_t at = 0; at < len && !found;) {
				size_t n = strnlen(info + at, len - at);

				if ((n == strlen(want) && !memcmp(info + at, want, n)) ||
				    (n == strlen(want_crypto) &&
				     !memcmp(info + at, want_crypto, n)))
					found = &m->files[i];
				at += n + 1;
			}
		}
		strbuf_release(&data);
	}
	free(want);
	free(want_crypto);
	return found;
}

static bool is_builtin(const struct vm_modules *m, const char *name)
{
	char *key = xasprintf("\n%s\n", name);
	bool found = strstr(m->builtin.buf, key) != NULL;

	free(key);
	return found;
}

/* Decompresses through a program: xz -dc, zstd -dc. */
static int decompress_with(const char *program, const char *path,
			   struct strbuf *out, struct kd_err *err)
{
	const char *argv[] = { program, "-dc", path, NULL };
	struct proc p = PROC_INIT;
	int ret = 0;

	p.argv = argv;
	p.out = PROC_PIPE;
	if (proc_run(&p, err) < 0) {
		if (p.exec_errno == ENOENT)
			kd_error(err, "%s: cannot decompress it: %s not found (Debian: apt-get install %s)",
				 path, program, !strcmp(program, "xz") ? "xz-utils" : "zstd");
		proc_clear(&p);
		return -1;
	}
	if (p.end != PROC_EXITED || p.status) {
		struct strbuf how = STRBUF_INIT;

		proc_describe_end(&p, &how);
		ret = kd_error(err, "%s: %s -dc %s", path, program, how.buf);
		strbuf_release(&how);
	} else {
		strbuf_add(out, p.out_buf.buf, p.out_buf.len);
	}
	proc_clear(&p);
	return ret;
}

static int gunzip(const char *path, struct strbuf *out, struct kd_err *err)
{
	gzFile gz = gzopen(path, "rb");
	char buf[1 << 16];
	int n;

	if (!gz)
		return kd_error(err, "%s: %s", path, strerror(errno));
	while ((n = gzread(gz, buf, sizeof(buf))) > 0) {
		strbuf_add(out, buf, (size_t)n);
		if (out->len > MODULE_MAX) {
			gzclose(gz);
			return kd_error(err, "%s: larger than a module can be", path);
		}
	}
	gzclose(gz);
	if (n < 0)
		return kd_error(err, "%s: damaged gzip data", path);
	return 0;
}

int vm_module_read(const char *path, struct strbuf *out, struct kd_err *err)
{
	size_t len = strlen(path);

	if (len > 3 && !strcmp(path + len - 3, ".gz"))
		return gunzip(path, out, err);
	if (len > 3 && !strcmp(path + len - 3, ".xz"))
		return decompress_with("xz", path, out, err);
	if (len > 4 && !strcmp(path + len - 4, ".zst"))
		return decompress_with("zstd", path, out, err);
	return read_file_max(path, MODULE_MAX, out, err);
}

int vm_module_info(const char *data, size_t len, const char **info,
		   size_t *info_len, struct kd_err *err)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)data;
	const Elf64_Shdr *sh, *names;

	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB)
		return kd_error(err, "not a 64-bit little-endian ELF file");
	if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > len ||
	    (len - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum ||
	    eh->e_shstrndx >= eh->e_shnum)
		return kd_error(err, "damaged ELF section headers");
	sh = (const Elf64_Shdr *)(data + eh->e_shoff);
	names = &sh[eh->e_shstrndx];
	if (names->sh_offset > len || names->sh_size > len - names->sh_offset)
		return kd_error(err, "damaged ELF section names");
	for (size_t i = 0; i < eh->e_shnum; i++) {
		const char *name = data + names->sh_offset + sh[i].sh_name;

		if (sh[i].sh_name >= names->sh_size ||
		    strncmp(name, ".modinfo", names->sh_size - sh[i].sh_name) ||
		    strcmp(name, ".modinfo"))
			continue;
		if (sh[i].sh_offset > len || sh[i].sh_size > len - sh[i].sh_offset)
			return kd_error(err, "damaged .modinfo section");
		*info = data + sh[i].sh_offset;
		*info_len = sh[i].sh_size;
		return 0;
	}
	*info = "";
	*info_len = 0;
	return 0;
}

/*
 * What a module wants loaded before it, as lists of names separated by
 * blanks: its "depends=" (comma-separated) into hard, its "softdep=pre:
 * ..." (blank-separated, up to "post:") into soft.
 */
static void module_wants(const char *info, size_t len, struct strbuf *hard,
			 struct strbuf *soft)
{
	for (size_t at = 0; at < len;) {
		const char *entry = info + at;
		size_t n = strnlen(entry, len - at);

		if (n > 8 && !strncmp(entry, "depends=", 8)) {
			for (size_t i = 8; i < n; i++)
				strbuf_addch(hard, entry[i] == ',' ? ' ' : entry[i]);
			strbuf_addch(hard, ' ');
		} else if (n > 8 && !strncmp(entry, "softdep=", 8)) {
			char *text = xstrndup(entry + 8, n - 8), *word, *save;
			bool pre = false;

			for (word = strtok_r(text, " ", &save); word;
			     word = strtok_r(NULL, " ", &save)) {
				if (!strcmp(word, "pre:"))
					pre = true;
				else if (!strcmp(word, "post:"))
					pre = false;
				else if (pre)
					strbuf_addf(soft, "%s ", word);
			}
			free(text);
		}
		at += n + 1;
	}
}

static bool listed(const struct vm_module_list *list, const char *name)
{
	for (size_t i = 0; i < list->n; i++)
		if (!strcmp(list->mods[i].name, name))
			return true;
	return false;
}

static int need(struct vm_modules *m, const char *name, bool soft, int depth,
		struct vm_module_list *list, enum vm_module_found *found,
		struct kd_err *err)
{
	const struct module_file *f = find_file(m, name);
	struct strbuf data = STRBUF_INIT, wants[2] = { STRBUF_INIT, STRBUF_INIT };
	const char *info;
	size_t info_len;
	char *word, *save;
	int ret = 0;

	if (listed(list, name)) {
		*found = VM_MODULE_ADDED;
		return 0;
	}
	if (!f && is_builtin(m, name)) {
		*found = VM_MODULE_BUILTIN;
		return 0;
	}
	if (!f && soft)
		f = find_alias(m, name);
	if (!f) {
		/* An alias that no crypto module has: built in, or optional. */
		*found = soft ? VM_MODULE_BUILTIN : VM_MODULE_MISSING;
		return 0;
	}
	name = f->name;
	if (listed(list, name)) {
		*found = VM_MODULE_ADDED;
		return 0;
	}
	if (depth > DEPTH_MAX)
		return kd_error(err, "%s: dependencies deeper than %d (a loop?)",
				f->path, DEPTH_MAX);
	if (vm_module_read(f->path, &data, err) < 0 ||
	    vm_module_info(data.buf, data.len, &info, &info_len, err) < 0) {
		strbuf_release(&data);
		return kd_error_prefix(err, "%s", f->path);
	}
	module_wants(info, info_len, &wants[0], &wants[1]);
	strbuf_release(&data);
	/* Soft dependencies first: they are asked to come before. */
	for (int w = 1; w >= 0; w--) {
		for (word = strtok_r(wants[w].buf, " ", &save); word && !ret;
		     word = strtok_r(NULL, " ", &save)) {
			enum vm_module_found dep;

			normalise(word);
			ret = need(m, word, w == 1, depth + 1, list, &dep, err);
			if (!ret && dep == VM_MODULE_MISSING)
				ret = kd_error(err, "%s depends on %s, which is neither in %s nor built in",
					       f->path, word, m->dir);
		}
		strbuf_release(&wants[w]);
	}
	if (ret < 0)
		return -1;
	if (!listed(list, name)) {
		ALLOC_GROW(list->mods, list->n + 1, list->alloc);
		list->mods[list->n++] = (struct vm_module){
			xstrdup(name), xstrdup(f->path),
		};
	}
	*found = VM_MODULE_ADDED;
	return 0;
}

int vm_modules_need(struct vm_modules *m, const char *name,
		    struct vm_module_list *list, enum vm_module_found *found,
		    struct kd_err *err)
{
	char *normal = xstrdup(name);
	int ret;

	normalise(normal);
	ret = need(m, normal, false, 0, list, found, err);
	free(normal);
	return ret;
}

void vm_module_list_release(struct vm_module_list *list)
{
	for (size_t i = 0; i < list->n; i++) {
		free(list->mods[i].name);
		free(list->mods[i].path);
	}
	free(list->mods);
	memset(list, 0, sizeof(*list));
}
