/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_KMOD_H
#define KDELTA_KMOD_H

#include "kdelta/err.h"

/*
 * Loading and unloading kernel modules by file (src/kmod.c), as a guest's
 * kdelta does: its modules are files in the initramfs, without modprobe
 * or depmod's files.  The file must be uncompressed (the guest's builder
 * unpacks them).
 */

/* finit_module() of path with params ("rd_nr=1 rd_size=4096"); loaded already is fine. */
int kmod_load(const char *path, const char *params, struct kd_err *err);

/* delete_module() of a module by name ("brd"); not loaded is fine. */
int kmod_unload(const char *name, struct kd_err *err);

#endif
