// SPDX-License-Identifier: GPL-2.0
/*
 * The --vm-* options of kdelta run and kdelta bisect (vm-args.h): the
 * boots of kernels in virtual machines (kdelta/vm.h).
 */
#include <stdlib.h>
#include <string.h>

#include "kdelta/cmdline.h"
#include "kdelta/util.h"

#include "vm-args.h"

static const char *const names[] = {
	"vm-runs-per-boot", "vm-clock", "vm-accel", "vm-cpus", "vm-memory",
	"vm-disks", "vm-boot-timeout", "vm-timeout", "vm-append", "vm-file",
};

static int choice(const char *command, const char *opt, const char *arg,
		  const char *const *choices, int *out)
{
	for (int i = 0; choices[i]; i++)
		if (!strcmp(arg, choices[i])) {
			*out = i;
			return 0;
		}
	cmd_error(command, "--%s expects %s or %s%s%s, not '%s'", opt,
		  choices[0], choices[1], choices[2] ? " or " : "",
		  choices[2] ? choices[2] : "", arg);
	return -1;
}

static int count(const char *command, const char *opt, const char *arg,
		 unsigned *out)
{
	int64_t value = 0;

	if (parse_int(arg, &value, NULL) < 0 || value < 1 || value > 100000) {
		cmd_error(command, "--%s expects a number of 1 or more, not '%s'",
			  opt, arg);
		return -1;
	}
	*out = (unsigned)value;
	return 0;
}

int vm_args_take(struct vm_args *a, int c, const char *arg,
		 const char *command)
{
	const char *opt = names[c - VM_ARG_FIRST];
	struct kd_err err;
	double *d;
	int pick;

	if (!a->first)
		a->first = opt;
	switch (c) {
	case VM_ARG_RUNS_PER_BOOT:
		return count(command, opt, arg, &a->vo.runs_per_boot);
	case VM_ARG_CPUS:
		return count(command, opt, arg, &a->vo.cpus);
	case VM_ARG_CLOCK:
		if (choice(command, opt, arg, vm_clock_names, &pick) < 0)
			return -1;
		a->vo.clock = (enum vm_clock)pick;
		return 0;
	case VM_ARG_ACCEL:
		if (choice(command, opt, arg, vm_accel_names, &pick) < 0)
			return -1;
		a->vo.accel = (enum vm_accel)pick;
		return 0;
	case VM_ARG_DISKS:
		if (choice(command, opt, arg, vm_disks_names, &pick) < 0)
			return -1;
		a->vo.disks = (enum vm_disks)pick;
		return 0;
	case VM_ARG_MEMORY:
		if (parse_size(arg, &a->vo.memory, &err) < 0 ||
		    a->vo.memory < (64ULL << 20)) {
			cmd_error(command, "--vm-memory expects a size of 64M or more, like 2G, not '%s'",
				  arg);
			return -1;
		}
		return 0;
	case VM_ARG_BOOT_TIMEOUT:
	case VM_ARG_TIMEOUT:
		d = c == VM_ARG_BOOT_TIMEOUT ? &a->vo.boot_timeout : &a->vo.timeout;
		if (parse_duration(arg, d, &err) < 0 || !(*d > 0)) {
			cmd_error(command, "--%s expects a duration, like 90s or 10m, not '%s'",
				  opt, arg);
			return -1;
		}
		return 0;
	case VM_ARG_APPEND:
		a->vo.append = arg;
		return 0;
	default:
		ALLOC_GROW(a->files, a->vo.n_files + 1, a->files_alloc);
		a->files[a->vo.n_files++] = arg;
		a->vo.files = a->files;
		return 0;
	}
}

int vm_args_check(struct vm_args *a, const char *command)
{
	if (a->vo.clock == VM_CLOCK_INSTRUCTIONS && a->vo.accel == VM_ACCEL_KVM) {
		cmd_error(command, "--vm-clock instructions is QEMU's emulation (TCG), not KVM");
		return -1;
	}
	if (a->vo.clock == VM_CLOCK_INSTRUCTIONS && a->vo.cpus > 1) {
		cmd_error(command, "--vm-clock instructions runs one guest CPU (QEMU's instruction counting brings up no second one)");
		return -1;
	}
	if (!a->vo.runs_per_boot)
		a->vo.runs_per_boot = VM_DEFAULT_RUNS_PER_BOOT;
	if (!a->vo.boot_timeout)
		a->vo.boot_timeout = VM_DEFAULT_BOOT_TIMEOUT;
	if (!a->vo.timeout)
		a->vo.timeout = VM_DEFAULT_TIMEOUT;
	return 0;
}

void vm_args_usage(FILE *out)
{
	fprintf(out,
		"    --vm-runs-per-boot N  runs of each job in one boot (default %d)\n"
		"    --vm-clock real|instructions  the guest's clock: real time (default),\n"
		"                        or executed instructions (QEMU's TCG, -icount:\n"
		"                        1 ns an instruction, one CPU; nearly noise-free,\n"
		"                        but no caches, I/O latency or contention)\n"
		"    --vm-accel auto|kvm|tcg  KVM where it boots a guest (probed once,\n"
		"                        default), else QEMU's emulation (TCG)\n"
		"    --vm-cpus N         guest CPUs (default %d; 1 with instructions)\n"
		"    --vm-memory SIZE    guest memory (default 1G plus the largest\n"
		"                        <N>BRD_<size> of the jobs, all N disks; 1G with\n"
		"                        --vm-disks file)\n"
		"    --vm-disks ram|file  the jobs' <N>BRD_<size> disks: the brd module's\n"
		"                        RAM disks in the guest's memory (default), or\n"
		"                        virtio disks over sparse files in the work\n"
		"                        directory, for disks larger than this machine's\n"
		"                        memory (not brd's timings); the jobs' disks of\n"
		"                        one size, the work directory with room for all\n"
		"                        of them written full\n"
		"    --vm-boot-timeout DURATION  from QEMU's start to kdelta in the\n"
		"                        guest saying hello (default %.0fs)\n"
		"    --vm-timeout DURATION  the longest one boot may take (default %.0fm)\n"
		"    --vm-append ARGS    more of the guest kernel's command line\n"
		"    --vm-file PATH      a program or file the guest needs besides the\n"
		"                        job's own tools, with its libraries (repeatable)\n",
		VM_DEFAULT_RUNS_PER_BOOT, VM_DEFAULT_CPUS, VM_DEFAULT_BOOT_TIMEOUT,
		VM_DEFAULT_TIMEOUT / 60);
}

void vm_args_release(struct vm_args *a)
{
	for (size_t i = 0; i < a->vo.n_kernels; i++)
		vm_kernel_release(&a->vo.kernels[i]);
	free(a->vo.kernels);
	free(a->files);
	memset(a, 0, sizeof(*a));
}
