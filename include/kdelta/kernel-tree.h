/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_KERNEL_TREE_H
#define KDELTA_KERNEL_TREE_H

#include <stdbool.h>

#include "kdelta/err.h"

/*
 * A kernel git tree whose commits kdelta builds itself
 * (src/executor/kernel-tree.c): bisect's --kernel-config, the robot's
 * kernel-config.  Everything lives in one directory of the cache,
 * one per tree (its absolute path):
 *
 *   <cache>/<tree>/build/          the O= directory, kept: the next commit
 *                                  rebuilds only what it changed;
 *   <cache>/<tree>/<config>/<hash> a commit's kernel, as the build leaves
 *                                  it in {out} (boot/vmlinuz-<release>,
 *                                  boot/config-<release>, lib/modules/ when
 *                                  the configuration has modules), kept:
 *                                  a commit built before costs nothing.
 *
 * <config> is a digest of the configuration (the spec, the contents of the
 * files it names, the fragment kdelta adds), so that another configuration
 * never reuses a kernel built with this one.
 *
 * The configuration is a spec: BASE[+FRAGMENT...].  BASE is a .config file
 * or a make target of the tree that writes one (tinyconfig, defconfig,
 * allnoconfig, ...); each FRAGMENT a file of CONFIG_ lines, merged with
 * the tree's scripts/kconfig/merge_config.sh, or the name of one of the
 * tree's own fragments (kvm_guest.config: a make target).  The build
 * command writes .config from it when the O= directory has another
 * configuration, runs make olddefconfig for each commit (its Kconfig
 * files may differ), builds with ccache when it is installed, and copies
 * the image and installs the modules into {out}.  x86 only (bzImage).
 */

struct kernel_tree {
	char *repo;		/* absolute */
	char *spec;		/* as given */
	char *base;		/* a make target, or an absolute .config */
	bool base_is_file;
	char **fragments;	/* targets ("kvm_guest.config") or absolute files */
	bool *fragment_is_file;
	size_t n_fragments;
	char *extra;		/* CONFIG_ lines kdelta adds last, or NULL */
	char *dir;		/* <cache>/<tree> */
	char *build_dir;	/* <dir>/build: O= */
	char *kernels;		/* <dir>/<config>: the commits' {out} */
	char *ccache;		/* the program, or NULL */
};

/*
 * Parses spec for the tree repo, with extra (CONFIG_ lines: what kdelta's
 * guests need, NULL: nothing) merged last, its kernels under cache
 * (NULL: kernel_tree_cache_default()).  "--kernel-config: ..." errors
 * (a file that is not there, an empty part).
 */
int kernel_tree_init(struct kernel_tree *kt, const char *repo,
		     const char *spec, const char *extra, const char *cache,
		     struct kd_err *err);
void kernel_tree_release(struct kernel_tree *kt);

/* ~/.cache/kdelta/kernels, or $XDG_CACHE_HOME/kdelta/kernels. */
char *kernel_tree_cache_default(void);

/*
 * The build command (sh, run in the checked-out tree): {out} left in for
 * the executor, which replaces it with the commit's directory under
 * kt->kernels.  Caller frees.
 */
char *kernel_tree_build_command(const struct kernel_tree *kt);

#endif
