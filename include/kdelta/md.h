/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_MD_H
#define KDELTA_MD_H

#include <stdbool.h>

#include "kdelta/disk.h"
#include "kdelta/err.h"
#include "kdelta/strbuf.h"

/*
 * md RAID over a run's RAM disks (the job's md: RAID0 over disk:
 * 4BRD_12G, as lkp-tests' programs/md/setup makes it), through mdadm(8):
 * the array is made over devices kdelta set up itself (its loop devices,
 * or the brd module's RAM disks in a guest), stopped and its members'
 * superblocks zeroed after the run.  kdelta never stops an array whose
 * members are not its own.  disk.c drives it (kdelta/disk.h).
 */

struct cgroup;

/*
 * The md RAID levels a job's "md" may name (LKP's RAID0, RAID1, ...),
 * NULL-terminated: the md parameter's choices.
 */
extern const char *const md_levels[];

/* "raid0" for "RAID0": mdadm's --level, and the kernel's. */
const char *md_mdadm_level(const char *level);

/* The module of a level ("raid456" for RAID5 and RAID6). */
const char *md_module(const char *level);

/*
 * The constraints md puts on the job's disk (count RAM disks) and fs
 * (fs_constraints()): several RAM disks need md, md a block file system,
 * and each level its fewest disks.  level: NULL without md.  *at: the key
 * it is about.
 */
int md_disk_constraints(const char *level, const char *disk, unsigned count,
			const char *fs, const char **at, struct kd_err *err);

/*
 * How many disks' worth of data an md array of count disks holds, in
 * halves (RAID10 keeps two copies); 2 without md (one disk).
 */
unsigned md_data_halves(const char *level, unsigned count);

/* Chunk size of the striped levels, KiB: lkp-tests' raid_chunk. */
#define MD_CHUNK_KIB 256
/* Room for the options mdadm's command lines get besides the devices. */
#define MD_ARGV_FIXED 16

/* A command line of mdadm; argv points into the struct and its strings. */
struct md_command {
	const char *argv[MD_ARGV_FIXED + DISK_MAX_BRD];
	size_t argc;
	char *owned[4];
	size_t n_owned;
};

/*
 * mdadm --create DEVICE --run --quiet --force --metadata=1.2
 * --level=raidN [--chunk=256] --raid-devices=N --assume-clean MEMBERS...:
 * no question asked, no initial resync (the members are new and empty, as
 * lkp-tests assumes them clean too); no chunk for RAID1.
 */
void md_create_command(struct md_command *c, const char *mdadm,
		       const char *level, const char *device,
		       const char *const *members, unsigned n);
/* mdadm --stop DEVICE */
void md_stop_command(struct md_command *c, const char *mdadm,
		     const char *device);
/* mdadm --zero-superblock MEMBERS... */
void md_zero_command(struct md_command *c, const char *mdadm,
		     const char *const *members, unsigned n);
void md_command_release(struct md_command *c);

/*
 * What mdadm --detail printed, in one line: "raid0, 4 devices, chunk
 * 256K, 47.97 GiB, clean".  *level: the "Raid Level" it reported (into
 * level, of len bytes).  -1 with err when it names no level.
 */
int md_detail_summary(const char *detail, char *level, size_t len,
		      struct strbuf *out, struct kd_err *err);

/* An array kdelta made: /dev/mdN, and what mdadm said of it. */
struct md_array {
	int number;		/* N; -1: none */
	char path[32];		/* "/dev/mdN" */
	char *mdadm;		/* its path */
	char *members[DISK_MAX_BRD];
	unsigned n_members;
	char *report;		/* md_detail_summary() */
};

#define MD_ARRAY_INIT { .number = -1 }

/*
 * Whether md can work here: mdadm in PATH and a kernel with md (its
 * /proc/mdstat; on a host, after modprobe md_mod).  The message says
 * what is missing and that a guest with such a kernel runs the job
 * (kdelta run --kernel).  Fills md->mdadm.
 */
int md_check(struct md_array *md, const char *level, const char *disk,
	     struct kd_err *err);

/* The lowest N with no /sys/block/mdN, from from on; -1: none. */
int md_free_number(int from);

/*
 * Makes the array (md->number chosen and recorded by the caller) over
 * members with mdadm in cgroup, then reads mdadm --detail into
 * md->report and checks that it reports the level asked for.
 */
int md_create(struct md_array *md, const char *level,
	      const char *const *members, unsigned n,
	      const struct cgroup *cgroup, struct kd_err *err);

/*
 * Stops the array (retrying while something holds it for a moment) and
 * zeroes its members' superblocks, so that nothing assembles it again.
 * Frees what md holds; does nothing without an array.
 */
int md_stop(struct md_array *md, struct kd_err *err);

/*
 * A killed kdelta's array N: stopped when /sys/block/mdN is there and
 * every member is a loop device over a file in ws_path ("<ws_path>/brd/").
 * 1: stopped; 0: nothing of ours there.
 */
int md_recover(int number, const char *ws_path, struct kd_err *err);

#endif
