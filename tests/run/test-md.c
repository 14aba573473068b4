// SPDX-License-Identifier: GPL-2.0
/*
 * md RAID's pieces that need no md driver (src/sys/md.c): mdadm's command
 * lines, the levels' modules and constraints, and what kdelta reads of
 * mdadm --detail, on the output mdadm 4.2 printed in a guest of Debian's
 * 6.1 cloud kernel
 * (testdata/md/detail-*.txt: RAID0, RAID1 and RAID5 over 4 brd disks of
 * 64M, captured by an exec job running mdadm --detail /dev/md0 there).
 * The arrays themselves are made in guests: tests/vm/vm-md.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kdelta/md.h"
#include "kdelta/strbuf.h"
#include "kdelta/util.h"

static const char *const rams[] = {
	"/dev/ram0", "/dev/ram1", "/dev/ram2", "/dev/ram3",
};

/* The command line as one string, words separated by blanks. */
static char *joined(const struct md_command *c)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; c->argv[i]; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", c->argv[i]);
	CHECK(c->argv[c->argc] == NULL);
	return strbuf_detach(&sb);
}

static void check_create(const char *level, unsigned n, const char *want)
{
	struct md_command c;
	char *got;

	md_create_command(&c, "/usr/sbin/mdadm", level, "/dev/md0", rams, n);
	got = joined(&c);
	CHECK_STR(got, want);
	free(got);
	md_command_release(&c);
}

static void test_commands(void)
{
	struct md_command c;
	char *got;

	check_create("RAID0", 4,
		     "/usr/sbin/mdadm --create /dev/md0 --run --quiet --force --metadata=1.2 --level=raid0 --chunk=256 --raid-devices=4 --assume-clean /dev/ram0 /dev/ram1 /dev/ram2 /dev/ram3");
	/* RAID1 mirrors: no chunk. */
	check_create("RAID1", 2,
		     "/usr/sbin/mdadm --create /dev/md0 --run --quiet --force --metadata=1.2 --level=raid1 --raid-devices=2 --assume-clean /dev/ram0 /dev/ram1");
	check_create("RAID5", 3,
		     "/usr/sbin/mdadm --create /dev/md0 --run --quiet --force --metadata=1.2 --level=raid5 --chunk=256 --raid-devices=3 --assume-clean /dev/ram0 /dev/ram1 /dev/ram2");
	check_create("RAID6", 4,
		     "/usr/sbin/mdadm --create /dev/md0 --run --quiet --force --metadata=1.2 --level=raid6 --chunk=256 --raid-devices=4 --assume-clean /dev/ram0 /dev/ram1 /dev/ram2 /dev/ram3");
	check_create("RAID10", 4,
		     "/usr/sbin/mdadm --create /dev/md0 --run --quiet --force --metadata=1.2 --level=raid10 --chunk=256 --raid-devices=4 --assume-clean /dev/ram0 /dev/ram1 /dev/ram2 /dev/ram3");

	md_stop_command(&c, "mdadm", "/dev/md12");
	got = joined(&c);
	CHECK_STR(got, "mdadm --stop /dev/md12");
	free(got);
	md_command_release(&c);

	md_zero_command(&c, "mdadm", rams, 3);
	got = joined(&c);
	CHECK_STR(got, "mdadm --zero-superblock /dev/ram0 /dev/ram1 /dev/ram2");
	free(got);
	md_command_release(&c);
}

static void test_levels(void)
{
	static const char *const want[][3] = {
		{ "RAID0", "raid0", "raid0" },
		{ "RAID1", "raid1", "raid1" },
		{ "RAID5", "raid5", "raid456" },
		{ "RAID6", "raid6", "raid456" },
		{ "RAID10", "raid10", "raid10" },
	};
	size_t n = 0;

	for (size_t i = 0; md_levels[i]; i++, n++) {
		CHECK(i < ARRAY_SIZE(want));
		if (i >= ARRAY_SIZE(want))
			break;
		CHECK_STR(md_levels[i], want[i][0]);
		CHECK_STR(md_mdadm_level(md_levels[i]), want[i][1]);
		CHECK_STR(md_module(md_levels[i]), want[i][2]);
	}
	CHECK(n == ARRAY_SIZE(want));
	CHECK(md_mdadm_level("JBOD") == NULL);
	CHECK(md_module("raid0") == NULL);	/* the job's spelling only */

	/* Data disks, in halves: RAID10 keeps two copies. */
	CHECK(md_data_halves(NULL, 1) == 2);
	CHECK(md_data_halves("RAID0", 4) == 8);
	CHECK(md_data_halves("RAID1", 4) == 2);
	CHECK(md_data_halves("RAID5", 4) == 6);
	CHECK(md_data_halves("RAID6", 4) == 4);
	CHECK(md_data_halves("RAID10", 4) == 4);
}

static void test_constraints(void)
{
	const char *at = NULL;
	struct kd_err err;

	CHECK(md_disk_constraints(NULL, "1BRD_4G", 1, "xfs", &at, &err) == 0);
	CHECK(md_disk_constraints("RAID0", "4BRD_12G", 4, "xfs", &at, &err) == 0);
	CHECK(md_disk_constraints(NULL, "4BRD_12G", 4, "xfs", &at, &err) == -1);
	CHECK_STR(at, "disk");
	CHECK_STR(err.msg, "disk: 4BRD_12G is 4 RAM disks and a run has one file system: add md: RAID0 (or another level) to make one device of them, or use 1BRD_<size>");
	CHECK(md_disk_constraints("RAID5", "2BRD_1G", 2, "ext4", &at, &err) == -1);
	CHECK_STR(at, "md");
	CHECK_STR(err.msg, "md: RAID5 needs at least 3 disks, and disk: 2BRD_1G has 2");
	CHECK(md_disk_constraints("RAID6", "3BRD_1G", 3, "ext4", &at, &err) == -1);
	CHECK_STR(err.msg, "md: RAID6 needs at least 4 disks, and disk: 3BRD_1G has 3");
	CHECK(md_disk_constraints("RAID0", "2BRD_1G", 2, "tmpfs", &at, &err) == -1);
	CHECK_STR(err.msg, "md: RAID0 needs a file system made on a disk (xfs, ext4, btrfs), not tmpfs");
}

static void check_detail(const char *file, const char *want_level,
			 const char *want)
{
	const char *dir = getenv("TESTDATA");
	char *path = xasprintf("%s/md/%s", dir ? dir : "testdata", file);
	struct strbuf text = STRBUF_INIT, summary = STRBUF_INIT;
	char level[32] = "";
	struct kd_err err;

	CHECK(read_file(path, &text, &err) == 0);
	CHECK(md_detail_summary(text.buf ? text.buf : "", level, sizeof(level),
				&summary, &err) == 0);
	CHECK_STR(level, want_level);
	CHECK_STR(summary.buf, want);
	strbuf_release(&summary);
	strbuf_release(&text);
	free(path);
}

static void test_detail(void)
{
	struct strbuf summary = STRBUF_INIT;
	char level[32];
	struct kd_err err;

	check_detail("detail-raid0.txt", "raid0",
		     "raid0, 4 devices, chunk 256K, 252.00 MiB, clean");
	check_detail("detail-raid1.txt", "raid1",
		     "raid1, 4 devices, 63.00 MiB, active");
	check_detail("detail-raid5.txt", "raid5",
		     "raid5, 4 devices, chunk 256K, 189.00 MiB, active");
	/* Not mdadm's: no level, no summary. */
	CHECK(md_detail_summary("/dev/md0:\n  State : clean\n", level,
				sizeof(level), &summary, &err) == -1);
	CHECK_STR(err.msg, "md: mdadm --detail names no Raid Level");
	CHECK(summary.len == 0);
	/* Sizes without units, words with blanks around the colon. */
	CHECK(md_detail_summary("  Raid Level :raid1\nArray Size   : 1024\n",
				level, sizeof(level), &summary, &err) == 0);
	CHECK_STR(summary.buf, "raid1, 1024 KiB");
	strbuf_release(&summary);
}

int main(void)
{
	test_commands();
	test_levels();
	test_constraints();
	test_detail();
	return check_done();
}
