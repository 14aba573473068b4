/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_VM_H
#define KDELTA_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#include "kdelta/err.h"
#include "kdelta/job.h"
#include "kdelta/strbuf.h"

/*
 * Kernels in virtual machines (src/vm/, docs/design.md "Kernels in
 * virtual machines"): kdelta run --kernel LABEL=PATH boots each kernel in
 * QEMU, runs the jobs inside, and brings the runs back into the host's
 * store.  The pieces, one file each:
 *
 *   vm-kernel.c   what --kernel's PATH names: the image, its modules, its
 *                 release;
 *   vm-modules.c  a kernel's modules and what each depends on;
 *   vm-cpio.c     the initramfs format (newc);
 *   vm-guest.c    the guest's user space, built from this machine: kdelta
 *                 itself as /init, the shared libraries and tools the jobs
 *                 need, the kernel's modules they need, the jobs;
 *   vm-channel.c  the transport: checksummed records over a virtio-serial
 *                 port, and a run directory packed into one;
 *   vm-qemu.c     one boot: QEMU's command line, its accelerator (KVM
 *                 probed, TCG otherwise), the wait with its timeouts, and
 *                 why a boot failed;
 *   vm-init.c     the guest's side: kdelta as PID 1;
 *   vm-import.c   a run that came back, into the store at once or not at
 *                 all;
 *   vm-batch.c    the batch: boots interleaved in rounds, each running
 *                 some runs of every job, failures kept per boot.
 */

/* ---- kernels (vm-kernel.c) ---------------------------------------- */

/*
 * What --kernel LABEL=PATH boots.  PATH is a kernel image (bzImage), or a
 * directory holding boot/vmlinuz-<release> and lib/modules/<release>/: an
 * extracted Debian linux-image package, or the output of "make install
 * INSTALL_PATH=DIR/boot" and "make modules_install INSTALL_MOD_PATH=DIR".
 */
struct vm_kernel {
	char *label;		/* the commit label of its runs */
	char *path;		/* as given */
	char *image;		/* the image QEMU boots */
	char *modules;		/* .../lib/modules/<release>, or NULL */
	char *release;		/* from the image's header; NULL: unknown */
};

/*
 * What a kernel needs for kdelta's guests, as CONFIG_ lines for a
 * configuration fragment (a kernel tree's build, kdelta/kernel-tree.h):
 * the initramfs, the console and the channel (virtio-serial over PCI or
 * MMIO), the file systems the guest mounts (devtmpfs, proc, sysfs, tmpfs,
 * cgroup2), the system calls kdelta uses, and what jobs may ask for (brd,
 * xfs, ext4, perf events).  Everything built in: the image alone boots.
 */
extern const char vm_guest_kconfig[];

/* "LABEL=PATH": checks the label and resolves PATH (vm_kernel_resolve()). */
int vm_kernel_parse(const char *spec, struct vm_kernel *k, struct kd_err *err);
/*
 * PATH as above: "kernel cloud: /x: no boot/vmlinuz-* in it" and the like.
 * A directory with several boot/vmlinuz-* is refused (name the image).
 */
int vm_kernel_resolve(const char *label, const char *path, struct vm_kernel *k,
		      struct kd_err *err);
void vm_kernel_release(struct vm_kernel *k);

/*
 * The release of an x86 bzImage, from its setup header's version string
 * ("6.1.0-50-cloud-amd64 (debian-kernel@...) #1 SMP ..." gives the first
 * word).  Fails for what is not a bzImage: "not a Linux kernel image".
 */
int vm_image_release(const char *image, char **release, struct kd_err *err);
/*
 * The whole version string of an x86 bzImage's setup header: the release,
 * who built it, and the build's number and date ("6.1.192 (root@box) #3
 * SMP PREEMPT_DYNAMIC Tue Dec  1 ..."), which is /proc/version's without
 * the compiler: two builds of one tree differ there even when their
 * releases do not.  NULL (and 0) when the header has none.
 */
int vm_image_banner(const char *image, char **banner, struct kd_err *err);

/* ---- a kernel's modules (vm-modules.c) ---------------------------- */

/*
 * The modules of one kernel: lib/modules/<release>/, its kernel/ tree
 * walked once, and modules.builtin.  Dependencies are read from each
 * module's .modinfo section ("depends=", "softdep=pre:"), so that no
 * depmod output is needed (Debian's packages ship none).  Modules may be
 * plain (.ko) or gzip-compressed (.ko.gz); xz and zstd ones are unpacked
 * with xz(1) and zstd(1) when the guest is built.
 */
struct vm_modules;

int vm_modules_open(const char *dir, struct vm_modules **out,
		    struct kd_err *err);
void vm_modules_free(struct vm_modules *m);

/* One module to load, in load order. */
struct vm_module {
	char *name;		/* "virtio_console" */
	char *path;		/* its file */
};

struct vm_module_list {
	struct vm_module *mods;
	size_t n, alloc;
};

enum vm_module_found {
	VM_MODULE_BUILTIN,	/* in the image: nothing to load */
	VM_MODULE_ADDED,	/* added, after what it depends on */
	VM_MODULE_MISSING,	/* neither a module file nor built in */
};

/*
 * Adds the module name ('-' and '_' alike) to list, after the modules it
 * depends on, each once.  Fails only when a file cannot be read.
 */
int vm_modules_need(struct vm_modules *m, const char *name,
		    struct vm_module_list *list, enum vm_module_found *found,
		    struct kd_err *err);
void vm_module_list_release(struct vm_module_list *list);

/*
 * The contents of a module file, decompressed (.ko.gz with zlib; .ko.xz
 * and .ko.zst through xz -dc and zstd -dc).
 */
int vm_module_read(const char *path, struct strbuf *out, struct kd_err *err);

/*
 * The "key=value" entries of a module's .modinfo section, NUL-separated
 * (ELF64 little-endian, as x86-64's modules are).
 */
int vm_module_info(const char *data, size_t len, const char **info,
		   size_t *info_len, struct kd_err *err);

/* ---- the initramfs (vm-cpio.c) ------------------------------------ */

/*
 * A newc cpio archive being written to a file, the format the kernel
 * unpacks into its initial root file system (uncompressed: the kernel
 * unpacks it without work under emulation).  Directories are added before
 * what they hold: cpio_add_path() adds the missing parents.
 */
struct cpio {
	int fd;
	const char *path;	/* for messages */
	uint32_t ino;
	uint64_t offset;
	struct strbuf seen;	/* "\n<name>\n" of every entry */
};

int cpio_open(struct cpio *c, const char *path, struct kd_err *err);
/* Directories (mode 0755) up to and including name's parent. */
int cpio_add_parents(struct cpio *c, const char *name, struct kd_err *err);
int cpio_add_dir(struct cpio *c, const char *name, mode_t mode,
		 struct kd_err *err);
int cpio_add_data(struct cpio *c, const char *name, mode_t mode,
		  const void *data, size_t len, struct kd_err *err);
/* A copy of the host's file (followed if a symbolic link). */
int cpio_add_file(struct cpio *c, const char *name, mode_t mode,
		  const char *host_path, struct kd_err *err);
int cpio_add_symlink(struct cpio *c, const char *name, const char *target,
		     struct kd_err *err);
/* Whether name is in the archive already. */
bool cpio_has(const struct cpio *c, const char *name);
/* The trailer; closes the file. */
int cpio_finish(struct cpio *c, struct kd_err *err);
/* Closes the file (after a failure); the caller removes it. */
void cpio_abort(struct cpio *c);

/* ---- the guest's user space (vm-guest.c) -------------------------- */

/* Where things are in the guest. */
#define VM_GUEST_DIR "/kdelta"			/* kdelta's files */
#define VM_GUEST_CONFIG VM_GUEST_DIR "/guest.json"
#define VM_GUEST_RESULTS "/results"		/* the guest's own store */
#define VM_GUEST_WORK "/var/lib/kdelta/work"
#define VM_GUEST_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/* What the guest must hold, besides kdelta. */
struct vm_guest_spec {
	struct job *const *jobs;
	size_t n_jobs;
	const char *const *files;	/* --vm-file: programs or files */
	size_t n_files;
	bool microvm;			/* QEMU's microvm machine may boot it:
					 * only with the instruction clock */
	/*
	 * The virtio disks the guest gets (VM_DISKS_FILE), which the jobs'
	 * <N>BRD_<size> use instead of the brd module; 0: brd.
	 */
	unsigned disk_files;
};

/* What was built: for job.yaml and the messages. */
struct vm_guest {
	char *path;			/* the initramfs */
	uint64_t size;
	bool perf;			/* perf is in it */
	/*
	 * QEMU's machine: "microvm" (virtio-mmio, no PCI, no BIOS to go
	 * through: under TCG, a boot of 0.5 s of the guest's time instead of
	 * 0.8 s, and seconds less of firmware) when the spec allows it and
	 * the kernel's modules say it has virtio_mmio, else "q35"
	 * (virtio-pci).  The instruction clock only: with real time under
	 * TCG, a microvm guest finds no timer to calibrate its TSC against
	 * (no HPET, no PM timer) and stops there.
	 */
	bool microvm;
	struct strbuf modules;		/* "virtio_pci virtio_console brd ..." */
};

/*
 * Builds the guest's initramfs for kernel k at path: /init is this kdelta
 * (/proc/self/exe) with its shared libraries; the modules of its channel
 * (virtio_mmio or virtio_pci, and virtio_console); each job's tools (mkfs.<fs>
 * for a file system on a RAM disk, the program of an exec job or /bin/sh,
 * perf when a job names perf-stat or perf-profile among its monitors and
 * perf is installed), the files of
 * spec->files, each program with the shared libraries ldd(1) lists; the
 * modules of the jobs (brd, or virtio_blk with spec->disk_files, and the
 * file system's for a RAM disk), with what they depend on, unless built
 * in; the jobs, and the guest's configuration
 * (VM_GUEST_CONFIG).  A module the guest needs that the kernel lacks
 * fails: "kernel rt: has neither a brd module nor one built in (disk:
 * 1BRD_4G needs CONFIG_BLK_DEV_RAM)".
 */
int vm_guest_build(const struct vm_kernel *k, const struct vm_guest_spec *spec,
		   const char *path, struct vm_guest *g, struct kd_err *err);
void vm_guest_release(struct vm_guest *g);

/* ---- the channel (vm-channel.c) ----------------------------------- */

/*
 * Host and guest talk through one virtio-serial port (QEMU's stdin and
 * stdout on the host's side), in records:
 *
 *	KDVM <type> <length> <crc32>\n<length bytes>\n
 *
 * crc32 (zlib's, 8 hex digits) of the type and the bytes: a record that
 * comes back damaged or cut short is refused whole.  The host sends one
 * "order" record (JSON); the guest sends "hello" once its init runs (JSON:
 * its kernel's release, command line, CPUs, memory), "start" before each
 * run, "run" after each (a packed run directory, vm_run_pack()), and
 * "done" (or "error", JSON with a message) before it powers off.
 */
#define VM_PORT_NAME "org.kdelta.0"
#define VM_RECORD_MAX (512u << 20)

struct vm_record {
	char type[16];
	const char *data;	/* into the buffer decoded */
	size_t len;
};

void vm_record_encode(struct strbuf *out, const char *type, const void *data,
		      size_t len);
/* A JSON object as a record; the object is not released. */
void vm_record_encode_json(struct strbuf *out, const char *type,
			   const json_t *object);
/*
 * The record at buf[*pos...len): 1 with *r set and *pos after it, 0 when
 * it is not all there yet, -1 when the bytes are not a record or its
 * checksum does not match (err says which).
 */
int vm_record_decode(const char *buf, size_t len, size_t *pos,
		     struct vm_record *r, struct kd_err *err);
/* A record's JSON object; -1 when it is not one. */
int vm_record_json(const struct vm_record *r, json_t **out,
		   struct kd_err *err);

/*
 * A run directory in one record's bytes: a JSON line (meta, which the
 * caller gives), then each regular file of the directory as
 *
 *	F <size> <name>\n<size bytes>
 *
 * Names are single path components.  A run directory holds no
 * subdirectories; one that does is refused.
 */
int vm_run_pack(const char *run_dir, const json_t *meta, struct strbuf *out,
		struct kd_err *err);
/*
 * The other way: the meta object (caller releases) and the files, written
 * into dir_fd (which exists and is empty).  -2 for bytes that are not a
 * packed run (names that are not plain file names, "..", "a/b",
 * ".hidden", are refused), -1 when a file cannot be written.
 */
int vm_run_unpack(const char *data, size_t len, int dir_fd, json_t **meta,
		  struct kd_err *err);

/* ---- QEMU: one boot (vm-qemu.c) ----------------------------------- */

enum vm_accel { VM_ACCEL_AUTO, VM_ACCEL_KVM, VM_ACCEL_TCG };
enum vm_clock { VM_CLOCK_REAL, VM_CLOCK_INSTRUCTIONS };
/*
 * Where a guest's <N>BRD_<size> disks are: the brd module's RAM disks in
 * its memory, as LKP makes them (ram), or virtio disks over sparse files
 * in the batch's workspace on this machine (file): for disks larger than
 * this machine's memory, at the price of brd's timings.
 */
enum vm_disks { VM_DISKS_RAM, VM_DISKS_FILE };

/* "auto" "kvm" "tcg", then NULL; "real" "instructions", then NULL;
 * "ram" "file", then NULL. */
extern const char *const vm_accel_names[];
extern const char *const vm_clock_names[];
extern const char *const vm_disks_names[];

/*
 * The virtio disk i of a guest (VM_DISKS_FILE) has this serial number,
 * "kdelta-disk<i>": the guest finds its device by it
 * (/sys/block/vd*\/serial).
 */
#define VM_DISK_SERIAL "kdelta-disk"

/* The virtual machine every boot of a batch gets. */
struct vm_machine {
	const char *qemu;		/* the program */
	enum vm_accel accel;		/* KVM or TCG by now */
	enum vm_clock clock;
	unsigned cpus;
	uint64_t memory;		/* bytes */
	const char *append;		/* more of the kernel's command line */
};

/*
 * The kernel command line kdelta gives every guest, before --vm-append:
 * the console on the first serial port, a panic ends the boot at once
 * (QEMU runs with -no-reboot), no crypto self-tests, which take most of an
 * emulated boot (0.75 s of 1.6 s under TCG) and test nothing a job
 * measures, and no check that the IO-APIC's timer ticks in time: a guest
 * of QEMU's pc machine under TCG on an overloaded host fails it ("IO-APIC
 * + timer doesn't work!", a panic; seen here at a load of 1400).
 */
#define VM_CMDLINE "console=ttyS0 panic=-1 quiet cryptomgr.notests no_timer_check"

/* The QEMU program in PATH: "qemu-system-x86_64 not found; ..." */
int vm_qemu_find(char **path, struct kd_err *err);

struct cgroup;

struct vm_boot_config {
	const struct vm_machine *machine;
	const char *image;		/* the kernel */
	const char *initrd;		/* the guest (vm_guest_build()) */
	bool microvm;			/* vm_guest.microvm */
	const char *console_log;	/* the guest's console goes here */
	const char *qemu_log;		/* QEMU's own stderr */
	const struct cgroup *cgroup;	/* QEMU runs in it; NULL: none */
	const char *order;		/* the encoded order record */
	size_t order_len;
	/* Files QEMU attaches as the virtio disks VM_DISK_SERIAL<i>. */
	const char *const *disk_files;
	unsigned n_disk_files;
	int cancel_fd;			/* readable: stop (a signal) */
	double boot_timeout;		/* QEMU start to hello, seconds */
	double timeout;			/* QEMU start to its end; 0: none */
};

/* What the batch hears as records arrive. */
struct vm_boot_events {
	void *arg;
	/* The guest's hello (kept in the result too), and the time to it. */
	void (*hello)(void *arg, const json_t *hello, double startup);
	/* Each record after hello; -1 stops the boot (err set). */
	int (*record)(void *arg, const struct vm_record *r,
		      struct kd_err *err);
	void (*tick)(void *arg);	/* about every 0.2 s */
};

enum vm_boot_end {
	VM_BOOT_DONE,		/* the guest said done and powered off */
	VM_BOOT_NO_BOOT,	/* ended, or timed out, before hello */
	VM_BOOT_DIED,		/* hello, then ended without done */
	VM_BOOT_TIMEOUT,	/* hello, then ran out of time */
	VM_BOOT_CANCELLED,	/* cancel_fd */
	VM_BOOT_REFUSED,	/* the events' record() said stop */
};

struct vm_boot_result {
	enum vm_boot_end end;
	/*
	 * One line, for every end but done and cancelled: "did not boot:
	 * kernel panic: VFS: Unable to mount root fs on unknown-block(0,0)",
	 * "the guest's kernel panicked: ...", "timed out after 10m (the
	 * boot's limit, --vm-timeout)".  Without the console log's path,
	 * which the caller adds where it keeps the log.
	 */
	struct strbuf reason;
	json_t *hello;		/* the guest's hello, or NULL */
	double startup;		/* QEMU start to hello, seconds */
	double first_run;	/* QEMU start to the first "start"; 0: none */
	double guest_first_run;	/* the guest's own clock then (its uptime) */
	double elapsed;		/* QEMU start to its end */
};

/*
 * Boots: starts QEMU in the cgroup, hands it the order, waits for hello
 * within boot_timeout, then passes each record to events until the guest
 * says done and QEMU ends (or time runs out, or cancel_fd).  QEMU is
 * killed, whatever happened, before this returns.  -1 only when QEMU
 * could not be started or waited for.
 */
int vm_boot(const struct vm_boot_config *c, const struct vm_boot_events *ev,
	    struct vm_boot_result *res, struct kd_err *err);
void vm_boot_result_release(struct vm_boot_result *res);

/*
 * Why a guest stopped, from its console: "kernel panic: <message>" when
 * it panicked, else its last line from kdelta ("kdelta guest: ..."), else
 * the console's last line; empty when the console is empty.
 */
void vm_console_reason(const char *console, size_t len, struct strbuf *out);

/* ---- the guest's init (vm-init.c) --------------------------------- */

/*
 * kdelta as the guest's PID 1 (main() calls it when it runs as PID 1
 * with VM_GUEST_CONFIG present): mounts /proc, /sys, /dev, /tmp and
 * cgroup2, loads the modules, names the host, finds the port, says hello,
 * reads the order, runs it with the runner into VM_GUEST_RESULTS, sends
 * each run back as it ends, says done and powers off.  Whatever fails is
 * said on the console ("kdelta guest: ...") and in an "error" record,
 * and the guest powers off.  Never returns.
 */
_Noreturn void vm_guest_init(void);

/* ---- into the store (vm-import.c) --------------------------------- */

/*
 * One run of a boot, as the host puts it into its store: what came back
 * (a "run" record), or, for a run that did not come back, a failed run
 * made here with the reason and the console log.
 */
struct vm_import {
	const char *result_root;
	const struct job *job;
	const char *label;
	const char *host;		/* the guest's host name */
	json_t *vm;			/* recorded as kdelta.vm: merged in */
	struct workspace *ws;		/* records the temporary directory */
	/*
	 * The host's batch, recorded as kdelta.batch over the guest's own
	 * (each boot is a batch of the guest's runner, but runs of one round
	 * of the host's boots ran alongside each other), and runner_opts.tag
	 * as kdelta.tag (NULL: none): bisect and the robot pair the runs of
	 * one batch and round, and count those with their tag.  The guest
	 * numbers its rounds from 0 in each boot: round_base (the rounds of
	 * the commit's boots before this one) is added to its kdelta.round.
	 */
	const char *batch;
	const char *tag;
	unsigned round_base;
};

/*
 * Unpacks a "run" record into a temporary directory of the commit
 * directory, sets its job.yaml's kdelta.run to the number it gets and
 * adds kdelta.vm, then renames it to that number (renameat2() with
 * RENAME_NOREPLACE: never over another run, the next number instead);
 * then rebuilds the commit's matrix.  *run_dir (caller frees) is where it
 * went; *status its completion mark.  -2 (nothing stored) when the bytes
 * are not a run the guest could send (the caller stores it failed), -1
 * when the store cannot be written.
 */
int vm_import_run(const struct vm_import *im, const char *data, size_t len,
		  char **run_dir, char **status, struct kd_err *err);

/*
 * A run that did not come back: job.yaml (the job, commit, host,
 * kdelta.vm, the batch, its round and tag), the console log, and "failed: <reason> (console log:
 * <its path in the run directory>)", in place at once in the same way.
 */
int vm_import_failed(const struct vm_import *im, unsigned round,
		     const char *reason, const char *console_log,
		     char **run_dir, struct kd_err *err);

/* ---- the guests' disks (vm-disks.c) ------------------------------- */

/* With --vm-disks file: the files of the guests' virtio disks. */
struct vm_disk_files {
	char **files;		/* "<dir>/disk<i>.img" */
	unsigned n;		/* the largest N of the jobs' <N>BRD_<size> */
	uint64_t size;		/* their one size */
};

/*
 * Makes the sparse files in dir (the batch's workspace in work_dir), as
 * many as the jobs' largest N, each of their size; n is 0 when no job has
 * a disk.  A job with fewer disks uses the first.  Refused (KD_EXIT_USAGE)
 * when the jobs' disks differ in size (the guest's disks are the same for
 * all its jobs) or when dir's file system has less room than all of them
 * written full (QEMU would stop the guest at the first write that finds
 * none).  On failure, the files made so far are in d, for the caller's
 * cleanup.
 */
int vm_disks_create(const char *dir, const char *work_dir,
		    struct job *const *jobs, size_t n_jobs,
		    struct vm_disk_files *d, struct kd_err *err);
/* Frees d; the files are the workspace's to remove. */
void vm_disks_release(struct vm_disk_files *d);

/* ---- the batch (vm-batch.c) --------------------------------------- */

struct runner_opts;
struct runner_summary;

#define VM_DEFAULT_RUNS_PER_BOOT 1
#define VM_DEFAULT_CPUS 2
#define VM_DEFAULT_BOOT_TIMEOUT 120.0
#define VM_DEFAULT_TIMEOUT 3600.0
/*
 * Memory of a guest: this, plus the largest <N>BRD_<size> of the jobs (all
 * N) when the disks are RAM disks.
 */
#define VM_BASE_MEMORY (1ULL << 30)

struct vm_options {
	struct vm_kernel *kernels;	/* labels: runner_opts.commits */
	size_t n_kernels;
	enum vm_accel accel;
	enum vm_clock clock;
	unsigned cpus;			/* 0: the default */
	uint64_t memory;		/* 0: VM_BASE_MEMORY + the jobs' RAM disks */
	enum vm_disks disks;
	unsigned runs_per_boot;
	double boot_timeout, timeout;
	const char *append;		/* --vm-append, or NULL */
	const char *const *files;	/* --vm-file */
	size_t n_files;
};

/*
 * The batch (kdelta run --kernel): boots planned in rounds (run_boot_plan,
 * runner.h), each kernel once a round, in the seed's order; each boot
 * runs up to runs_per_boot runs of every job, its warmups first, in an
 * order of its own.  Runs come back into the store as they end; a boot
 * that fails fails the runs it did not bring back, with the reason and
 * its console log, and the batch goes on.  The runner's options give the
 * rest (labels, runs, warmup, store, work directory, seed, cancel_fd,
 * progress, tag).  Returns as runner_run() does.
 */
int vm_batch_run(struct job *const *jobs, size_t n_jobs,
		 const struct runner_opts *o, const struct vm_options *vo,
		 struct runner_summary *summary, struct kd_err *err);

/*
 * " --vm-clock instructions --vm-runs-per-boot 2 ...": the options that
 * give vo again on kdelta run's command line, quoted for sh (those at
 * their defaults left out; kernels are the caller's).
 */
void vm_options_args(const struct vm_options *vo, struct strbuf *out);

/*
 * The host a batch of vo stores its runs under (vm_host_name()), for the
 * executors, which count the runs there: known without a boot when the
 * accelerator is (--vm-accel given, TCG for the instruction clock or
 * without a /dev/kvm to use, what the work directory remembers of a
 * probe here); else, with probe, found by booting vo's first kernel
 * under KVM as vm_batch_run() would; else *host is NULL.
 */
int vm_batch_host(struct job *const *jobs, size_t n_jobs,
		  const struct runner_opts *o, const struct vm_options *vo,
		  bool probe, char **host, struct kd_err *err);

/*
 * The guest's host name, which its runs are stored under: this machine's,
 * marked as a VM with what makes its timings comparable,
 * "vm-<host>-<accel>[-icount]-<cpus>cpu" ("vm-box-tcg-icount-1cpu").
 */
char *vm_host_name(const char *hostname, const struct vm_machine *m);

#endif
