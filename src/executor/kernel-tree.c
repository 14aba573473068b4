// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel git tree that kdelta builds itself (kdelta/kernel-tree.h): the
 * configuration spec, the tree's directory in the cache, and the build
 * command, which is plain sh so that the build log shows every step and a
 * developer can run it by hand.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kdelta/kernel-tree.h"
#include "kdelta/proc.h"
#include "kdelta/strbuf.h"
#include "kdelta/util.h"

/* The O= directory's record of the configuration it holds. */
#define CONFIG_RECORD ".kdelta-config"

char *kernel_tree_cache_default(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (xdg && *xdg == '/')
		return xasprintf("%s/kdelta/kernels", xdg);
	return xasprintf("%s/.cache/kdelta/kernels", home && *home ? home : ".");
}

/*
 * A part of the spec: a file when it names one (a '/' in it, or it
 * exists), else a make target, which must end in "config".
 */
static int spec_part(const char *part, bool is_base, char **out, bool *is_file,
		     struct kd_err *err)
{
	struct stat st;

	*out = NULL;
	if (!*part)
		return kd_error(err, "--kernel-config: an empty part; expected BASE[+FRAGMENT...] such as tinyconfig+kvm_guest.config");
	if (strchr(part, '/') || stat(part, &st) == 0) {
		if (stat(part, &st) < 0)
			return kd_error(err, "--kernel-config: %s: %s", part,
					strerror(errno));
		if (!S_ISREG(st.st_mode))
			return kd_error(err, "--kernel-config: %s: not a file",
					part);
		*out = absolute_path(part);
		*is_file = true;
		return 0;
	}
	if (strlen(part) < 6 || strcmp(part + strlen(part) - 6, "config") ||
	    strspn(part, "abcdefghijklmnopqrstuvwxyz0123456789_.-") != strlen(part))
		return kd_error(err, "--kernel-config: '%s' is neither a file nor a %s of the tree (such as %s)",
				part, is_base ? "make target that writes .config" :
				"configuration fragment",
				is_base ? "tinyconfig or defconfig" : "kvm_guest.config");
	*out = xstrdup(part);
	*is_file = false;
	return 0;
}

static int parse_spec(struct kernel_tree *kt, struct kd_err *err)
{
	char *copy = xstrdup(kt->spec), *part;
	size_t alloc = 0, alloc2 = 0;
	int ret = 0;

	/* strtok would skip the empty parts that spec_part() refuses. */
	part = copy;
	for (bool first = true; part && !ret; first = false) {
		char *plus = strchr(part, '+');

		if (plus)
			*plus = '\0';
		if (first) {
			ret = spec_part(part, true, &kt->base,
					&kt->base_is_file, err);
		} else {
			ALLOC_GROW(kt->fragments, kt->n_fragments + 1, alloc);
			ALLOC_GROW(kt->fragment_is_file, kt->n_fragments + 1,
				   alloc2);
			ret = spec_part(part, false,
					&kt->fragments[kt->n_fragments],
					&kt->fragment_is_file[kt->n_fragments],
					err);
			if (!ret)
				kt->n_fragments++;
		}
		part = plus ? plus + 1 : NULL;
	}
	free(copy);
	return ret;
}

/* The digest of everything the configuration is made of. */
static int config_digest(const struct kernel_tree *kt, uint64_t *digest,
			 struct kd_err *err)
{
	struct strbuf all = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&all, "%s\n", kt->spec);
	if (kt->base_is_file)
		ret = read_file(kt->base, &all, err);
	for (size_t i = 0; i < kt->n_fragments && !ret; i++)
		if (kt->fragment_is_file[i])
			ret = read_file(kt->fragments[i], &all, err);
	if (kt->extra)
		strbuf_addstr(&all, kt->extra);
	if (ret < 0)
		kd_error_prefix(err, "--kernel-config");
	*digest = hash64(all.buf, all.len);
	strbuf_release(&all);
	return ret;
}

/* A regular file at repo/dir/name. */
static bool tree_has_file(const char *repo, const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s/%s", repo, dir, name);
	struct stat st;
	bool yes = stat(path, &st) == 0 && S_ISREG(st.st_mode);

	free(path);
	return yes;
}

/*
 * The repository is a kernel tree (its Makefile and scripts/kconfig/ at
 * its top), with the fragments the spec names of it: those its make
 * applies ("make kvm_guest.config"), from kernel/configs/ or
 * arch/x86/configs/ (Linux's scripts/Makefile.defconf).
 */
static int check_tree(const struct kernel_tree *kt, const char *repo,
		      struct kd_err *err)
{
	char *kconfig = xasprintf("%s/scripts/kconfig", kt->repo);
	bool tree = tree_has_file(kt->repo, ".", "Makefile") &&
		    is_directory(kconfig);

	free(kconfig);
	if (!tree)
		return kd_error(err, "--kernel-config: %s is not a kernel tree (no Makefile and scripts/kconfig/ at its top)",
				repo);
	for (size_t i = 0; i < kt->n_fragments; i++) {
		const char *name = kt->fragments[i];

		if (!kt->fragment_is_file[i] &&
		    !tree_has_file(kt->repo, "kernel/configs", name) &&
		    !tree_has_file(kt->repo, "arch/x86/configs", name))
			return kd_error(err, "--kernel-config: the tree has no fragment %s (in kernel/configs/ or arch/x86/configs/)",
					name);
	}
	return 0;
}

int kernel_tree_init(struct kernel_tree *kt, const char *repo,
		     const char *spec, const char *extra, const char *cache,
		     struct kd_err *err)
{
	char *root = cache ? absolute_path(cache) : kernel_tree_cache_default();
	const char *base;
	char *name;
	uint64_t digest;

	memset(kt, 0, sizeof(*kt));
	kt->repo = absolute_path(repo);
	kt->spec = xstrdup(spec);
	kt->extra = extra ? xstrdup(extra) : NULL;
	if (parse_spec(kt, err) < 0 || check_tree(kt, repo, err) < 0 ||
	    config_digest(kt, &digest, err) < 0) {
		free(root);
		kernel_tree_release(kt);
		return -1;
	}
	base = strrchr(kt->repo, '/');
	name = safe_name(base && base[1] ? base + 1 : kt->repo, 40);
	kt->dir = xasprintf("%s/%s-%08" PRIx64, root, name,
			    hash64(kt->repo, strlen(kt->repo)) & 0xffffffff);
	kt->build_dir = xasprintf("%s/build", kt->dir);
	kt->kernels = xasprintf("%s/config-%016" PRIx64, kt->dir, digest);
	kt->ccache = find_program("ccache");
	free(name);
	free(root);
	return 0;
}

void kernel_tree_release(struct kernel_tree *kt)
{
	for (size_t i = 0; i < kt->n_fragments; i++)
		free(kt->fragments[i]);
	free(kt->fragments);
	free(kt->fragment_is_file);
	free(kt->repo);
	free(kt->spec);
	free(kt->base);
	free(kt->extra);
	free(kt->dir);
	free(kt->build_dir);
	free(kt->kernels);
	free(kt->ccache);
	memset(kt, 0, sizeof(*kt));
}

/* "merge_config.sh -m -O $o $o/.config FILE": a fragment into .config. */
static void add_merge(struct strbuf *sb, const char *file_expr)
{
	strbuf_addf(sb, "\tscripts/kconfig/merge_config.sh -m -O \"$o\" \"$o/.config\" %s >/dev/null\n",
		    file_expr);
}

/* The steps that write .config from the spec, when $o holds another. */
static void add_configure(const struct kernel_tree *kt, uint64_t key,
			  struct strbuf *sb)
{
	strbuf_addf(sb, "if [ \"$(cat \"$o/" CONFIG_RECORD "\" 2>/dev/null)\" != %016" PRIx64 " ]; then\n"
		    "\trm -f \"$o/" CONFIG_RECORD "\"\n", key);
	if (kt->base_is_file) {
		strbuf_addstr(sb, "\tcp ");
		shell_quote(sb, kt->base);
		strbuf_addstr(sb, " \"$o/.config\"\n");
	} else {
		strbuf_addf(sb, "\tk %s\n", kt->base);
	}
	for (size_t i = 0; i < kt->n_fragments; i++) {
		if (!kt->fragment_is_file[i]) {
			strbuf_addf(sb, "\tk %s\n", kt->fragments[i]);
			continue;
		}
		struct strbuf q = STRBUF_INIT;

		shell_quote(&q, kt->fragments[i]);
		add_merge(sb, q.buf);
		strbuf_release(&q);
	}
	if (kt->extra) {
		strbuf_addf(sb, "\tcat >\"$o/kdelta-guest.config\" <<'EOF'\n%sEOF\n",
			    kt->extra);
		add_merge(sb, "\"$o/kdelta-guest.config\"");
	}
	strbuf_addf(sb, "\tk olddefconfig\n"
		    "\techo %016" PRIx64 " >\"$o/" CONFIG_RECORD "\"\n"
		    "fi\n", key);
}

char *kernel_tree_build_command(const struct kernel_tree *kt)
{
	struct strbuf sb = STRBUF_INIT;
	const char *kernels = strrchr(kt->kernels, '-');

	strbuf_addstr(&sb, "set -e\no=");
	shell_quote(&sb, kt->build_dir);
	strbuf_addf(&sb, "\nk() { make -s O=\"$o\"%s \"$@\"; }\n",
		    kt->ccache ? " CC='ccache gcc'" : "");
	/* One build at a time in the O= directory. */
	strbuf_addstr(&sb, "mkdir -p \"$o\"\nexec 9>\"$o/../build.lock\"\nflock 9\n");
	add_configure(kt, strtoull(kernels + 1, NULL, 16), &sb);
	strbuf_addstr(&sb,
		"k olddefconfig\n"
		"k -j\"$(nproc)\"\n"
		"r=$(k kernelrelease)\n"
		"mkdir -p {out}/boot\n"
		"cp \"$o/arch/x86/boot/bzImage\" {out}/boot/vmlinuz-\"$r\"\n"
		"cp \"$o/.config\" {out}/boot/config-\"$r\"\n"
		"if grep -qx CONFIG_MODULES=y \"$o/.config\"; then\n"
		"\tk modules_install INSTALL_MOD_PATH={out}\n"
		"fi\n");
	return strbuf_detach(&sb);
}
