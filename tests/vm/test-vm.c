// SPDX-License-Identifier: GPL-2.0
/*
 * The pieces of kdelta/vm.h that need no QEMU: records and their
 * checksums, run directories packed and unpacked, the initramfs format,
 * a module's .modinfo, a bzImage's release, why a console says a guest
 * stopped, the plan of boots, the guests' host name.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "kdelta/runner.h"
#include "kdelta/util.h"
#include "kdelta/vm.h"

static char *tmp_dir(void)
{
	char *dir = xasprintf("%s/kdelta-test-vm.XXXXXX",
			      getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");

	if (!mkdtemp(dir))
		abort();
	return dir;
}

static void remove_flat(const char *dir)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);

	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
	free(cmd);
}

/* Records go through whole; a flipped byte or a cut is caught. */
static void test_records(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct vm_record r;
	struct kd_err err;
	size_t pos = 0;
	json_t *json = json_pack("{ss}", "release", "6.1");

	vm_record_encode(&sb, "run", "a\nb\0c", 5);
	vm_record_encode_json(&sb, "hello", json);
	json_decref(json);
	CHECK(vm_record_decode(sb.buf, sb.len, &pos, &r, &err) == 1);
	CHECK_STR(r.type, "run");
	CHECK(r.len == 5 && !memcmp(r.data, "a\nb\0c", 5));
	CHECK(vm_record_decode(sb.buf, sb.len, &pos, &r, &err) == 1);
	CHECK_STR(r.type, "hello");
	CHECK(vm_record_json(&r, &json, &err) == 0);
	CHECK_STR(json_string_value(json_object_get(json, "release")), "6.1");
	json_decref(json);
	CHECK(pos == sb.len);
	/* Nothing more: wait. */
	CHECK(vm_record_decode(sb.buf, sb.len, &pos, &r, &err) == 0);

	/* Every prefix of a record is "not yet", never a record or damage. */
	for (size_t cut = 0; cut < sb.len; cut++) {
		size_t p = 0;
		int got = vm_record_decode(sb.buf, cut, &p, &r, &err);

		CHECK(got == 0 || (got == 1 && p <= cut));
	}
	/* A byte changed in the data: the checksum says so. */
	pos = 0;
	sb.buf[strcspn(sb.buf, "\n") + 2] ^= 1;
	CHECK(vm_record_decode(sb.buf, sb.len, &pos, &r, &err) == -1);
	CHECK_STR(err.msg, "the run record's checksum does not match: damaged on the way");
	/* What is not a record at all. */
	pos = 0;
	CHECK(vm_record_decode("kernel: oops\n", 13, &pos, &r, &err) == -1);
	CHECK_STR(err.msg, "not a record: 'kernel: oops '");
	pos = 0;
	CHECK(vm_record_decode("KDVM run 99999999999 0\n", 23, &pos, &r, &err) == -1);
	strbuf_release(&sb);
}

static void write_text(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct kd_err err;

	CHECK(write_file_atomic(path, text, strlen(text), &err) == 0);
	free(path);
}

static char *read_text(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	int fd = open(path, O_RDONLY);
	char buf[4096];
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	free(path);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return xstrdup(buf);
}

/* A run directory packed, unpacked elsewhere: the same files, bytes as they are. */
static void test_pack(void)
{
	char *from = tmp_dir(), *to = tmp_dir(), *sub, *text;
	struct strbuf packed = STRBUF_INIT, bad = STRBUF_INIT;
	json_t *meta = json_pack("{sI}", "job", (json_int_t)3), *got;
	struct kd_err err;
	int fd;

	write_text(from, "job.yaml", "testcase: aim9\n");
	write_text(from, "complete", "ok\n");
	write_text(from, "x.gz", "not really gzip");
	CHECK(vm_run_pack(from, meta, &packed, &err) == 0);
	fd = open(to, O_RDONLY | O_DIRECTORY);
	CHECK(vm_run_unpack(packed.buf, packed.len, fd, &got, &err) == 0);
	CHECK(json_integer_value(json_object_get(got, "job")) == 3);
	json_decref(got);
	text = read_text(to, "x.gz");
	CHECK_STR(text, "not really gzip");
	free(text);
	text = read_text(to, "complete");
	CHECK_STR(text, "ok\n");
	free(text);

	/* Cut short, or naming what is not a plain file: refused (-2). */
	close(fd);
	remove_flat(to);
	CHECK(mkdir(to, 0700) == 0);
	fd = open(to, O_RDONLY | O_DIRECTORY);
	CHECK(vm_run_unpack(packed.buf, packed.len - 3, fd, &got, &err) == -2);
	CHECK(strstr(err.msg, "a run record cut short in ") == err.msg);
	json_decref(got);
	strbuf_addstr(&bad, "{}\nF 2 ../x\nab");
	CHECK(vm_run_unpack(bad.buf, bad.len, fd, &got, &err) == -2);
	CHECK_STR(err.msg, "a run record names '../x', not a plain file name");
	json_decref(got);
	strbuf_reset(&bad);
	strbuf_addstr(&bad, "{}\nF 1 .hidden\na");
	CHECK(vm_run_unpack(bad.buf, bad.len, fd, &got, &err) == -2);
	json_decref(got);
	close(fd);

	/* A run directory holds files only. */
	sub = xasprintf("%s/sub", from);
	mkdir(sub, 0755);
	strbuf_reset(&packed);
	CHECK(vm_run_pack(from, meta, &packed, &err) == -1);
	CHECK(strstr(err.msg, "not a plain file") != NULL);
	free(sub);
	json_decref(meta);
	strbuf_release(&packed);
	strbuf_release(&bad);
	remove_flat(from);
	remove_flat(to);
	free(from);
	free(to);
}

/* The archive, read back by the rules the kernel applies. */
static void test_cpio(void)
{
	char *dir = tmp_dir(), *path = xasprintf("%s/a.cpio", dir);
	char *file = xasprintf("%s/f", dir);
	struct strbuf text = STRBUF_INIT;
	struct kd_err err;
	struct cpio c;
	const char *want[] = { "usr", "usr/bin", "usr/bin/x", "bin", "TRAILER!!!" };
	size_t at = 0, i = 0;
	int fd;

	write_text(dir, "f", "hello");
	CHECK(cpio_open(&c, path, &err) == 0);
	CHECK(cpio_add_file(&c, "usr/bin/x", 0755, file, &err) == 0);
	CHECK(cpio_add_symlink(&c, "bin", "usr/bin", &err) == 0);
	CHECK(cpio_has(&c, "usr/bin"));
	CHECK(!cpio_has(&c, "usr/b"));
	CHECK(cpio_finish(&c, &err) == 0);
	fd = open(path, O_RDONLY);
	{
		char buf[4096];
		ssize_t n = read(fd, buf, sizeof(buf));

		strbuf_add(&text, buf, n > 0 ? (size_t)n : 0);
	}
	close(fd);
	while (at + 110 <= text.len && i < ARRAY_SIZE(want)) {
		char field[9] = { 0 };
		unsigned long mode, size, name_len;

		CHECK(!memcmp(text.buf + at, "070701", 6));
		memcpy(field, text.buf + at + 14, 8);
		mode = strtoul(field, NULL, 16);
		memcpy(field, text.buf + at + 54, 8);
		size = strtoul(field, NULL, 16);
		memcpy(field, text.buf + at + 94, 8);
		name_len = strtoul(field, NULL, 16);
		CHECK_STR(text.buf + at + 110, want[i]);
		if (!strcmp(want[i], "usr/bin/x")) {
			CHECK(mode == (S_IFREG | 0755) && size == 5);
			CHECK(!memcmp(text.buf + ((at + 110 + name_len + 3) & ~3UL),
				      "hello", 5));
		}
		if (!strcmp(want[i], "bin"))
			CHECK(S_ISLNK(mode));
		at = (at + 110 + name_len + 3) & ~3UL;
		at = (at + size + 3) & ~3UL;
		i++;
	}
	CHECK(i == ARRAY_SIZE(want) && at == text.len);
	CHECK(text.len % 4 == 0);
	strbuf_release(&text);
	remove_flat(dir);
	free(file);
	free(path);
	free(dir);
}

/* A minimal ELF64 with a .modinfo section, as a module has. */
static void make_module(struct strbuf *out, const char *info, size_t info_len)
{
	static const char names[] = "\0.shstrtab\0.modinfo";
	Elf64_Ehdr eh = { 0 };
	Elf64_Shdr sh[3] = { { 0 } };
	size_t data_at = sizeof(eh), names_at = data_at + info_len;
	size_t sh_at = (names_at + sizeof(names) + 7) & ~7UL;

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_shoff = sh_at;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 3;
	eh.e_shstrndx = 1;
	sh[1] = (Elf64_Shdr){ .sh_name = 1, .sh_offset = names_at,
			      .sh_size = sizeof(names) };
	sh[2] = (Elf64_Shdr){ .sh_name = 11, .sh_offset = data_at,
			      .sh_size = info_len };
	strbuf_add(out, &eh, sizeof(eh));
	strbuf_add(out, info, info_len);
	strbuf_add(out, names, sizeof(names));
	while (out->len < sh_at)
		strbuf_addch(out, '\0');
	strbuf_add(out, sh, sizeof(sh));
}

static void write_module(const char *path, const char *info, size_t len)
{
	struct strbuf m = STRBUF_INIT;
	struct kd_err err;

	make_module(&m, info, len);
	CHECK(write_file_atomic(path, m.buf, m.len, &err) == 0);
	strbuf_release(&m);
}

/* Dependencies from .modinfo, soft ones through a crypto module's alias. */
static void test_modules(void)
{
	static const char xfs[] = "license=GPL\0depends=libcrc32c\0softdep=pre: crc32c\0";
	static const char lib[] = "depends=\0softdep=pre: crc32c\0";
	static const char crc[] = "alias=crypto-crc32c\0alias=crc32c\0";
	static const char brd[] = "depends=nothere\0";
	char *dir = tmp_dir(), *cmd;
	struct vm_module_list list = { 0 };
	enum vm_module_found found;
	struct vm_modules *m;
	struct strbuf names = STRBUF_INIT;
	struct kd_err err;
	const char *info;
	size_t len;

	cmd = xasprintf("mkdir -p %s/kernel/fs/xfs %s/kernel/lib %s/kernel/crypto %s/kernel/drivers/block",
			dir, dir, dir, dir);
	CHECK(system(cmd) == 0);
	free(cmd);
	cmd = xasprintf("%s/kernel/fs/xfs/xfs.ko", dir);
	write_module(cmd, xfs, sizeof(xfs) - 1);
	free(cmd);
	cmd = xasprintf("%s/kernel/lib/libcrc32c.ko", dir);
	write_module(cmd, lib, sizeof(lib) - 1);
	free(cmd);
	cmd = xasprintf("%s/kernel/crypto/crc32c-generic.ko", dir);
	write_module(cmd, crc, sizeof(crc) - 1);
	free(cmd);
	cmd = xasprintf("%s/kernel/drivers/block/brd.ko", dir);
	write_module(cmd, brd, sizeof(brd) - 1);
	free(cmd);
	write_text(dir, "modules.builtin", "kernel/drivers/virtio/virtio.ko\n");

	CHECK(vm_modules_open(dir, &m, &err) == 0);
	CHECK(vm_modules_need(m, "xfs", &list, &found, &err) == 0);
	CHECK(found == VM_MODULE_ADDED);
	for (size_t i = 0; i < list.n; i++)
		strbuf_addf(&names, "%s%s", i ? " " : "", list.mods[i].name);
	CHECK_STR(names.buf, "crc32c_generic libcrc32c xfs");
	CHECK(vm_modules_need(m, "virtio", &list, &found, &err) == 0);
	CHECK(found == VM_MODULE_BUILTIN);
	CHECK(vm_modules_need(m, "virtio-console", &list, &found, &err) == 0);
	CHECK(found == VM_MODULE_MISSING);
	CHECK(vm_modules_need(m, "brd", &list, &found, &err) == -1);
	CHECK(strstr(err.msg, "depends on nothere, which is neither in") != NULL);
	CHECK(list.n == 3);
	vm_module_list_release(&list);
	vm_modules_free(m);

	CHECK(vm_module_info("garbage", 7, &info, &len, &err) == -1);
	CHECK_STR(err.msg, "not a 64-bit little-endian ELF file");
	strbuf_release(&names);
	remove_flat(dir);
	free(dir);
}

/* The release and version string in a bzImage's setup header; what is none is said. */
static void test_image_release(void)
{
	char *dir = tmp_dir(), *path = xasprintf("%s/vmlinuz", dir), *release;
	unsigned char image[0x1200] = { 0 };
	struct kd_err err;

	memcpy(image + 0x202, "HdrS", 4);
	image[0x206] = 0x0f;
	image[0x207] = 0x02;
	image[0x20e] = 0x00;		/* the string at 0x1000 + 0x200 */
	image[0x20f] = 0x0e;
	strcpy((char *)image + 0x1000, "6.1.0-50-cloud-amd64 (debian-kernel@lists.debian.org) #1 SMP");
	CHECK(write_file_atomic(path, image, sizeof(image), &err) == 0);
	CHECK(vm_image_release(path, &release, &err) == 0);
	CHECK_STR(release, "6.1.0-50-cloud-amd64");
	free(release);
	CHECK(vm_image_banner(path, &release, &err) == 0);
	CHECK_STR(release, "6.1.0-50-cloud-amd64 (debian-kernel@lists.debian.org) #1 SMP");
	free(release);
	/* A string that begins with a blank names no release. */
	image[0x1000] = ' ';
	CHECK(write_file_atomic(path, image, sizeof(image), &err) == 0);
	CHECK(vm_image_banner(path, &release, &err) == 0);
	CHECK(release == NULL);
	CHECK(vm_image_release(path, &release, &err) == 0);
	CHECK(release == NULL);
	memset(image + 0x202, 0, 4);
	CHECK(write_file_atomic(path, image, sizeof(image), &err) == 0);
	CHECK(vm_image_release(path, &release, &err) == -1);
	CHECK(strstr(err.msg, "not a Linux kernel image (no x86 boot header)") != NULL);
	remove_flat(dir);
	free(path);
	free(dir);
}

static void check_reason(const char *console, const char *want)
{
	struct strbuf out = STRBUF_INIT;

	vm_console_reason(console, strlen(console), &out);
	CHECK_STR(out.buf, want);
	strbuf_release(&out);
}

static void test_console_reason(void)
{
	check_reason("[    0.5] Run /init\n[    0.6] Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)\n[    0.6] CPU: 0 PID: 1\n",
		     "kernel panic: VFS: Unable to mount root fs on unknown-block(0,0)");
	check_reason("boot\nkdelta guest: no virtio-serial port named org.kdelta.0\n\n",
		     "no virtio-serial port named org.kdelta.0");
	check_reason("a\r\nlast one  \r\n\n", "its console's last line: last one");
	check_reason("", "");
}

/* Boots in rounds, each kernel once a round; the runs shared out. */
static void test_boot_plan(void)
{
	unsigned runs[] = { 5, 2 };
	struct boot_plan plan;
	unsigned seen[2] = { 0 }, total[2][2] = { { 0 } };

	boot_plan_init(&plan, runs, 2, 2, 2, 1, RUN_ORDER_SHUFFLED, 7);
	CHECK(plan.boots_per_commit == 3 && plan.n == 6);
	for (size_t i = 0; i < plan.n; i++) {
		const struct boot_step *s = &plan.boots[i];

		/* Round i / 2 holds boot i / 2 of both kernels. */
		CHECK(s->boot == i / 2);
		CHECK(s->first_round == s->boot * 3);
		seen[s->commit]++;
		for (size_t j = 0; j < 2; j++) {
			CHECK(s->runs[j] <= 2);
			total[s->commit][j] += s->runs[j];
		}
	}
	CHECK(seen[0] == 3 && seen[1] == 3);
	CHECK(total[0][0] == 5 && total[0][1] == 2 && total[1][0] == 5 &&
	      total[1][1] == 2);
	boot_plan_release(&plan);

	boot_plan_init(&plan, runs, 2, 3, 5, 0, RUN_ORDER_FIXED, 7);
	CHECK(plan.n == 3);
	for (size_t i = 0; i < plan.n; i++)
		CHECK(plan.boots[i].commit == i && plan.boots[i].runs[0] == 5 &&
		      plan.boots[i].runs[1] == 2);
	boot_plan_release(&plan);
}

static void test_host_name(void)
{
	struct vm_machine m = { .accel = VM_ACCEL_TCG, .clock = VM_CLOCK_INSTRUCTIONS,
				.cpus = 1 };
	char *name = vm_host_name("box", &m);

	CHECK_STR(name, "vm-box-tcg-icount-1cpu");
	free(name);
	m = (struct vm_machine){ .accel = VM_ACCEL_KVM, .cpus = 4 };
	name = vm_host_name("box", &m);
	CHECK_STR(name, "vm-box-kvm-4cpu");
	free(name);
}

int main(void)
{
	test_records();
	test_pack();
	test_cpio();
	test_modules();
	test_image_release();
	test_console_reason();
	test_boot_plan();
	test_host_name();
	return check_done();
}
