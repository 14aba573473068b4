// SPDX-License-Identifier: GPL-2.0
/*
 * kdelta run --kernel (kdelta/vm.h): the batch.  One workspace for the
 * batch holds each kernel's guest; each boot gets a workspace of its own,
 * whose cgroup QEMU runs in and whose directory holds the console log, so
 * that the end of a boot (or the next kdelta after a kill -9) leaves no
 * QEMU and no file behind.  Runs are stored as they come back; the runs a
 * failed boot did not bring back are stored as failed, with the reason
 * and the console log, and the batch goes on with the next boot.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kdelta/disk.h"
#include "kdelta/machine.h"
#include "kdelta/proc.h"
#include "kdelta/progress.h"
#include "kdelta/runner.h"
#include "kdelta/store.h"
#include "kdelta/util.h"
#include "kdelta/vm.h"
#include "kdelta/workdir.h"
#include "kdelta/workload.h"

/* A KVM guest that works says hello within this; one that spins never. */
#define KVM_PROBE_TIMEOUT 20.0
#define KVM_PROBE_FILE "kvm-probe"

struct batch {
	const struct runner_opts *o;
	const struct vm_options *vo;
	struct job *const *jobs;
	size_t n_jobs;
	struct runner_summary *summary;
	struct progress progress;
	struct machine host;
	struct vm_machine vm;
	char *qemu;
	char *host_name;		/* the guests' */
	char batch_id[17];
	struct workspace ws;		/* the guests' images */
	struct vm_guest *guests;	/* one per kernel */
	struct vm_disk_files disks;	/* --vm-disks file */
	struct boot_plan plan;
	unsigned *stored;		/* [kernel * n_jobs + job]: runs stored */
	bool store_failed;
};

/* One boot: what its records need. */
struct boot_ctx {
	struct batch *b;
	const struct boot_step *step;
	size_t index;			/* in the plan */
	struct workspace ws;
	char *console;
	unsigned *received;		/* per job */
	json_t *vm;			/* kdelta.vm of its runs */
	size_t started_job;
	bool running;
	double run_start;
	double boot_start;		/* QEMU's start, about */
	bool first_run_seen;
};

static const struct vm_kernel *kernel_of(const struct batch *b, size_t c)
{
	return &b->vo->kernels[c];
}

/*
 * The memory a guest gets: the option, or room for the largest RAM disk
 * (none for disks that are files, --vm-disks file).
 */
static uint64_t guest_memory(const struct batch *b)
{
	uint64_t largest = 0;

	if (b->vo->memory)
		return b->vo->memory;
	if (b->vo->disks == VM_DISKS_FILE)
		return VM_BASE_MEMORY;
	for (size_t j = 0; j < b->n_jobs; j++) {
		const char *disk = jnode_str(b->jobs[j]->root, "disk");
		unsigned count;
		uint64_t size;

		if (disk && *disk && !disk_brd_parse(disk, &count, &size, NULL) &&
		    size * count > largest)
			largest = size * count;
	}
	return VM_BASE_MEMORY + largest;
}

static int build_guests(struct batch *b, struct kd_err *err)
{
	struct vm_guest_spec spec = {
		.jobs = b->jobs, .n_jobs = b->n_jobs,
		.files = b->vo->files, .n_files = b->vo->n_files,
		.microvm = b->vo->clock == VM_CLOCK_INSTRUCTIONS,
	};

	if (b->vo->disks == VM_DISKS_FILE &&
	    vm_disks_create(b->ws.path, b->o->work_dir->path, b->jobs,
			    b->n_jobs, &b->disks, err) < 0)
		return -1;
	spec.disk_files = b->disks.n;
	b->guests = xcalloc(b->vo->n_kernels, sizeof(*b->guests));
	for (size_t k = 0; k < b->vo->n_kernels; k++) {
		const struct vm_kernel *kernel = kernel_of(b, k);
		char *path = xasprintf("%s/guest-%zu.cpio", b->ws.path, k);
		struct strbuf size = STRBUF_INIT;
		int ret = vm_guest_build(kernel, &spec, path, &b->guests[k], err);

		free(path);
		if (ret < 0)
			return -1;
		format_size_human(&size, b->guests[k].size);
		progress_notice(&b->progress, "kernel %s (%s): guest of %s built%s%s%s",
				kernel->label,
				kernel->release ? kernel->release : "release unknown",
				size.buf,
				b->guests[k].modules.len ? ", modules " : "",
				b->guests[k].modules.buf,
				kernel->modules ? "" : " (no modules: the image alone)");
		strbuf_release(&size);
	}
	return 0;
}

/* ---- KVM or TCG ---------------------------------------------------- */

/* What the probe's answer depends on: this kernel, this QEMU. */
static char *probe_key(const struct batch *b)
{
	struct strbuf text = STRBUF_INIT;
	struct kd_err err;
	struct stat st;
	char *key;

	strbuf_addf(&text, "%s\n%s\n", b->host.kernel_version, b->qemu);
	if (stat(b->qemu, &st) == 0)
		strbuf_addf(&text, "%lld %lld\n", (long long)st.st_size,
			    (long long)st.st_mtime);
	read_file("/proc/cpuinfo", &text, &err);
	key = xasprintf("%016" PRIx64, hash64(text.buf, text.len));
	strbuf_release(&text);
	return key;
}

/* 1 works, 0 does not, -1 unknown: the work directory's memory of it. */
static int probe_cached(const struct batch *b, const char *key,
			struct strbuf *why)
{
	int fd = openat(b->o->work_dir->fd, KVM_PROBE_FILE,
			O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	char buf[1024];
	ssize_t n;
	size_t klen = strlen(key);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (strncmp(buf, key, klen) || buf[klen] != ' ')
		return -1;
	strbuf_addstr(why, buf + klen + 1 + strcspn(buf + klen + 1, " ") + 1);
	strbuf_rtrim(why);
	return !strncmp(buf + klen + 1, "works", 5);
}

static void probe_remember(const struct batch *b, const char *key, bool works,
			   const char *why)
{
	char *text = xasprintf("%s %s %s\n", key, works ? "works" : "fails", why);
	char *path = xasprintf("%s/%s", b->o->work_dir->path, KVM_PROBE_FILE);
	struct kd_err err;

	/* Not remembered: the next batch probes again. */
	write_file_atomic(path, text, strlen(text), &err);
	free(path);
	free(text);
}

/* Boots the first kernel's guest under KVM: does it say hello? */
static int probe_kvm(struct batch *b, bool *works, struct strbuf *why,
		     struct kd_err *err)
{
	struct vm_machine m = b->vm;
	struct strbuf order = STRBUF_INIT;
	struct vm_boot_result res;
	struct vm_boot_events ev = { 0 };
	struct vm_boot_config c = {
		.machine = &m, .image = kernel_of(b, 0)->image,
		.initrd = b->guests[0].path, .microvm = b->guests[0].microvm,
		.disk_files = (const char *const *)b->disks.files,
		.n_disk_files = b->disks.n,
		.cgroup = b->ws.cgroup,
		.cancel_fd = b->o->cancel_fd,
		.boot_timeout = KVM_PROBE_TIMEOUT, .timeout = 2 * KVM_PROBE_TIMEOUT,
	};
	json_t *probe = json_pack("{sb}", "probe", 1);
	char *console = xasprintf("%s/kvm-probe-console.log", b->ws.path);
	char *qlog = xasprintf("%s/kvm-probe-qemu.log", b->ws.path);
	int ret;

	m.accel = VM_ACCEL_KVM;
	m.cpus = 1;
	c.console_log = console;
	c.qemu_log = qlog;
	vm_record_encode_json(&order, "order", probe);
	json_decref(probe);
	c.order = order.buf;
	c.order_len = order.len;
	ret = vm_boot(&c, &ev, &res, err);
	if (ret == 0) {
		*works = res.end == VM_BOOT_DONE;
		strbuf_addstr(why, *works ? "a guest booted" : res.reason.buf);
		if (res.end == VM_BOOT_CANCELLED)
			ret = 1;
		vm_boot_result_release(&res);
	}
	unlink(console);
	unlink(qlog);
	free(console);
	free(qlog);
	strbuf_release(&order);
	return ret;
}

/*
 * The accelerator when it is known without a boot: given, TCG for the
 * instruction clock or without a /dev/kvm to use, or what the work
 * directory remembers of a probe here; VM_ACCEL_AUTO when only a probe
 * boot can tell.  *why: why KVM is not used, when it is remembered.
 */
static enum vm_accel known_accel(const struct batch *b, struct strbuf *why)
{
	char *key;
	int cached;

	if (b->vm.accel != VM_ACCEL_AUTO)
		return b->vm.accel;
	if (b->vm.clock == VM_CLOCK_INSTRUCTIONS || access("/dev/kvm", R_OK | W_OK))
		return VM_ACCEL_TCG;
	key = probe_key(b);
	cached = probe_cached(b, key, why);
	free(key);
	return cached < 0 ? VM_ACCEL_AUTO : cached ? VM_ACCEL_KVM : VM_ACCEL_TCG;
}

/*
 * KVM where it works (probed once per machine), TCG otherwise.  1: a
 * signal stopped the probe.
 */
static int choose_accel(struct batch *b, struct kd_err *err)
{
	struct strbuf why = STRBUF_INIT;
	enum vm_accel known = known_accel(b, &why);
	bool works = false;
	char *key;
	int ret = 0;

	if (b->vm.accel != VM_ACCEL_AUTO) {
		strbuf_release(&why);
		return 0;
	}
	if (known != VM_ACCEL_AUTO) {
		if (known == VM_ACCEL_TCG && why.len)
			progress_notice(&b->progress, "KVM does not work here (%s, as %s/%s remembers); the guests run under QEMU's TCG",
					why.buf, b->o->work_dir->path, KVM_PROBE_FILE);
		b->vm.accel = known;
		strbuf_release(&why);
		return 0;
	}
	key = probe_key(b);
	progress_notice(&b->progress, "probing KVM: booting kernel %s under KVM (at most %.0f s; the answer is kept in %s/%s)",
			kernel_of(b, 0)->label, KVM_PROBE_TIMEOUT,
			b->o->work_dir->path, KVM_PROBE_FILE);
	ret = probe_kvm(b, &works, &why, err);
	if (ret == 0)
		probe_remember(b, key, works, why.buf);
	if (ret == 0 && !works)
		progress_notice(&b->progress, "KVM does not work here (%s); the guests run under QEMU's TCG",
				why.buf);
	b->vm.accel = works ? VM_ACCEL_KVM : VM_ACCEL_TCG;
	strbuf_release(&why);
	free(key);
	return ret;
}

static void say_emulated(struct batch *b)
{
	if (b->vm.accel != VM_ACCEL_TCG)
		return;
	if (b->vm.clock == VM_CLOCK_INSTRUCTIONS)
		progress_notice(&b->progress, "the guests run under QEMU's TCG with --vm-clock instructions: their timings are instruction time (1 ns an instruction: no caches, no I/O latency, no contention), not this machine's");
	else
		progress_notice(&b->progress, "the guests run under QEMU's TCG: their timings are emulated, several times slower than this machine and not its CPU's");
}

/* ---- one boot ------------------------------------------------------ */

static void run_title(struct boot_ctx *x, size_t job, struct strbuf *out)
{
	const struct batch *b = x->b;
	size_t c = x->step->commit;

	if (b->o->live && b->n_jobs > 1)
		strbuf_addf(out, "job %zu/%zu ", job + 1, b->n_jobs);
	strbuf_addf(out, "%s/%s run %u/%u (boot %u/%u)", b->jobs[job]->name,
		    kernel_of(b, c)->label, b->stored[c * b->n_jobs + job] + 1,
		    b->jobs[job]->runs, x->step->boot + 1,
		    b->plan.boots_per_commit);
}

/* "ok, 6.1s, aim9.creat-clo.ops_per_sec: 12001": as the runner's lines. */
static void result_line(const struct batch *b, size_t job, const char *run_dir,
			const char *status, double took, struct strbuf *out)
{
	const struct workload *wl = workload_of_job(b->jobs[job]);
	const char *prefix = workload_prefix(wl, jnode_get(b->jobs[job]->root,
							    wl->section.name));
	char *log = xasprintf("%s/%s.log", run_dir, prefix);
	struct strbuf text = STRBUF_INIT;
	struct kd_err err;
	const char *pos;
	char *key;
	double value;

	if (!status || strcmp(status, "ok")) {
		strbuf_addstr(out, status ? status : "incomplete");
	} else {
		strbuf_addf(out, "ok, %.1fs", took);
		pos = read_file(log, &text, &err) == 0 ? text.buf : "";
		if (store_result_next(&pos, &key, &value)) {
			strbuf_addf(out, ", %s.%s: %.9g", prefix, key, value);
			free(key);
		}
	}
	strbuf_release(&text);
	free(log);
}

static struct vm_import import_of(struct boot_ctx *x, size_t job)
{
	return (struct vm_import){
		.result_root = x->b->o->result_root, .job = x->b->jobs[job],
		.label = kernel_of(x->b, x->step->commit)->label,
		.host = x->b->host_name, .vm = x->vm, .ws = &x->ws,
		.batch = x->b->batch_id, .tag = x->b->o->tag,
		.round_base = x->step->boot * x->b->vo->runs_per_boot,
	};
}

/* One run stored as failed: a line, the counts. */
static int store_failed_run(struct boot_ctx *x, size_t job, const char *reason,
			    struct kd_err *err)
{
	struct batch *b = x->b;
	struct vm_import im = import_of(x, job);
	struct strbuf line = STRBUF_INIT;
	char *run_dir;

	/* Its round: the boot's first, and the runs before it in the boot. */
	if (vm_import_failed(&im, im.round_base + x->received[job], reason,
			     x->console, &run_dir, err) < 0) {
		b->store_failed = true;
		return -1;
	}
	strbuf_addf(&line, "failed: %s (console log: %s/console.log)", reason,
		    run_dir);
	progress_end(&b->progress, line.buf, true);
	b->summary->failed++;
	x->received[job]++;
	b->stored[x->step->commit * b->n_jobs + job]++;
	x->running = false;
	free(run_dir);
	strbuf_release(&line);
	return 0;
}

static int take_run(struct boot_ctx *x, const struct vm_record *r,
		    struct kd_err *err)
{
	struct batch *b = x->b;
	const char *nl = memchr(r->data, '\n', r->len);
	json_t *meta = nl ? json_loadb(r->data, (size_t)(nl - r->data), 0, NULL) : NULL;
	json_int_t job = json_integer_value(json_object_get(meta, "job"));
	struct strbuf title = STRBUF_INIT, line = STRBUF_INIT;
	char *run_dir = NULL, *status = NULL, *reason;
	double took = x->running ? now_monotonic() - x->run_start : 0;
	struct vm_import im;
	bool failed;
	int ret;

	json_decref(meta);
	if (!meta || job < 0 || (size_t)job >= b->n_jobs ||
	    x->received[job] >= x->step->runs[job])
		return kd_error(err, "the guest sent a run nobody asked for");
	if (!x->running || x->started_job != (size_t)job) {
		run_title(x, (size_t)job, &title);
		progress_begin(&b->progress, title.buf);
		strbuf_release(&title);
	}
	im = import_of(x, (size_t)job);
	ret = vm_import_run(&im, r->data, r->len, &run_dir, &status, err);
	if (ret == -1) {
		b->store_failed = true;	/* the batch stops, as the runner's */
		return -1;
	}
	if (ret == -2) {
		reason = xasprintf("what came back of it was damaged: %s", err->msg);
		ret = store_failed_run(x, (size_t)job, reason, err);
		free(reason);
		return ret;
	}
	x->received[job]++;
	b->stored[x->step->commit * b->n_jobs + job]++;
	failed = !status || strcmp(status, "ok");
	if (failed)
		b->summary->failed++;
	else
		b->summary->ok++;
	result_line(b, (size_t)job, run_dir, status, took, &line);
	progress_end(&b->progress, line.buf, failed);
	x->running = false;
	free(run_dir);
	free(status);
	strbuf_release(&line);
	return 0;
}

static int boot_record(void *arg, const struct vm_record *r, struct kd_err *err)
{
	struct boot_ctx *x = arg;

	if (!strcmp(r->type, "start")) {
		json_t *json;
		struct strbuf title = STRBUF_INIT;
		json_int_t job;

		if (vm_record_json(r, &json, err) < 0)
			return -1;
		job = json_integer_value(json_object_get(json, "job"));
		if (job < 0 || (size_t)job >= x->b->n_jobs) {
			json_decref(json);
			return kd_error(err, "the guest started a run nobody asked for");
		}
		x->started_job = (size_t)job;
		x->running = true;
		/* The boot's overhead, in the runs' record from here on. */
		if (!x->first_run_seen) {
			x->first_run_seen = true;
			json_object_set_new(x->vm, "first_run",
					    json_real(now_monotonic() - x->boot_start));
			json_object_set(x->vm, "guest_first_run",
					json_object_get(json, "uptime"));
		}
		json_decref(json);
		x->run_start = now_monotonic();
		run_title(x, (size_t)job, &title);
		progress_begin(&x->b->progress, title.buf);
		strbuf_release(&title);
		return 0;
	}
	if (!strcmp(r->type, "run"))
		return take_run(x, r, err);
	return 0;	/* done */
}

static void boot_tick(void *arg)
{
	struct boot_ctx *x = arg;

	progress_tick(&x->b->progress);
}

/* kdelta.vm of the boot's runs: the machine, the boot, the guest's word. */
static json_t *vm_record_of(struct batch *b, const struct boot_ctx *x,
			    const json_t *hello, double startup)
{
	const struct vm_kernel *k = kernel_of(b, x->step->commit);
	struct strbuf memory = STRBUF_INIT;
	json_t *vm;

	format_size_human(&memory, b->vm.memory);
	vm = json_pack("{ss ss ss ss ss sI ss sI}",
		       "machine", b->guests[x->step->commit].microvm ? "microvm" : "q35",
		       "accel", vm_accel_names[b->vm.accel],
		       "clock", vm_clock_names[b->vm.clock],
		       "kernel", k->path,
		       "image", k->image,
		       "cpus", (json_int_t)b->vm.cpus,
		       "memory", memory.buf,
		       "runs_per_boot", (json_int_t)b->vo->runs_per_boot);
	if (b->vm.append)
		json_object_set_new(vm, "append", json_string(b->vm.append));
	if (b->disks.n) {
		struct strbuf size = STRBUF_INIT;

		format_size_human(&size, b->disks.size);
		json_object_set_new(vm, "disks", json_string(vm_disks_names[VM_DISKS_FILE]));
		json_object_set_new(vm, "disk_count", json_integer(b->disks.n));
		json_object_set_new(vm, "disk_size", json_string(size.buf));
		strbuf_release(&size);
	}
	json_object_set_new(vm, "boot", json_sprintf("%u/%u", x->step->boot + 1,
						     b->plan.boots_per_commit));
	json_object_set_new(vm, "boot_id", json_sprintf("%s-%zu", b->batch_id,
							x->index + 1));
	if (hello) {
		json_object_set(vm, "release", json_object_get(hello, "release"));
		json_object_set(vm, "cmdline", json_object_get(hello, "cmdline"));
		json_object_set(vm, "guest_cpus", json_object_get(hello, "cpus"));
		json_object_set_new(vm, "startup", json_real(startup));
		json_object_set(vm, "guest_boot", json_object_get(hello, "uptime"));
	}
	strbuf_release(&memory);
	return vm;
}

/* The runs the boot did not bring back: failed, with the reason and the log. */
static int fail_missing(struct boot_ctx *x, const char *reason,
			struct kd_err *err)
{
	struct batch *b = x->b;

	for (size_t j = 0; j < b->n_jobs; j++) {
		while (x->received[j] < x->step->runs[j]) {
			struct strbuf title = STRBUF_INIT;

			run_title(x, j, &title);
			progress_begin(&b->progress, title.buf);
			strbuf_release(&title);
			if (store_failed_run(x, j, reason, err) < 0)
				return -1;
		}
	}
	return 0;
}

static int make_order(const struct batch *b, const struct boot_ctx *x,
		      struct strbuf *out)
{
	json_t *runs = json_array();
	json_t *order;

	for (size_t j = 0; j < b->n_jobs; j++)
		json_array_append_new(runs, json_integer(x->step->runs[j]));
	order = json_pack("{ss ss so sI sI sI sb}",
			  "label", kernel_of(b, x->step->commit)->label,
			  "hostname", b->host_name,
			  "runs", runs,
			  "warmup", (json_int_t)b->o->warmup,
			  "seed", (json_int_t)b->o->seed,
			  "first_round", (json_int_t)x->step->first_round,
			  "fixed", b->o->order == RUN_ORDER_FIXED);
	vm_record_encode_json(out, "order", order);
	json_decref(order);
	return 0;
}

static void boot_hello(void *arg, const json_t *hello, double startup)
{
	struct boot_ctx *x = arg;
	struct strbuf title = STRBUF_INIT;

	json_decref(x->vm);
	x->vm = vm_record_of(x->b, x, hello, startup);
	strbuf_addf(&title, "boot %u/%u of %s: %s is up",
		    x->step->boot + 1, x->b->plan.boots_per_commit,
		    kernel_of(x->b, x->step->commit)->label,
		    json_string_value(json_object_get(hello, "release")));
	progress_begin(&x->b->progress, title.buf);
	strbuf_release(&title);
}

static int boot_in_workspace(struct boot_ctx *x, struct kd_err *err)
{
	struct batch *b = x->b;
	const struct vm_kernel *k = kernel_of(b, x->step->commit);
	struct strbuf order = STRBUF_INIT, title = STRBUF_INIT;
	char *qlog = xasprintf("%s/qemu.log", x->ws.path);
	struct vm_boot_events ev = {
		.arg = x, .hello = boot_hello, .record = boot_record,
		.tick = boot_tick,
	};
	struct vm_boot_config c = {
		.machine = &b->vm, .image = k->image,
		.initrd = b->guests[x->step->commit].path,
		.microvm = b->guests[x->step->commit].microvm,
		.console_log = x->console, .qemu_log = qlog,
		.disk_files = (const char *const *)b->disks.files,
		.n_disk_files = b->disks.n,
		.cgroup = x->ws.cgroup, .cancel_fd = b->o->cancel_fd,
		.boot_timeout = b->vo->boot_timeout, .timeout = b->vo->timeout,
	};
	struct vm_boot_result res;
	int ret;

	make_order(b, x, &order);
	c.order = order.buf;
	c.order_len = order.len;
	/* Until hello, the runs record what is known without the guest. */
	x->vm = vm_record_of(b, x, NULL, 0);
	strbuf_addf(&title, "boot %u/%u of %s: booting", x->step->boot + 1,
		    b->plan.boots_per_commit, k->label);
	progress_begin(&b->progress, title.buf);
	x->boot_start = now_monotonic();
	ret = vm_boot(&c, &ev, &res, err);
	strbuf_release(&title);
	strbuf_release(&order);
	free(qlog);
	if (ret < 0) {
		vm_boot_result_release(&res);
		return -1;
	}
	if (res.end == VM_BOOT_CANCELLED)
		b->summary->signal = proc_caught_signal(b->o->cancel_fd);
	else if (res.end != VM_BOOT_DONE)
		ret = fail_missing(x, res.reason.buf, err);
	else
		ret = fail_missing(x, "the guest said it was done, but did not send this run back", err);
	if (ret == 0 && !b->summary->signal && res.first_run > 0)
		progress_notice(&b->progress, "boot %u/%u of %s: %s%.1f s, %.1f s from QEMU's start to its first run (%.2f s by the guest's clock)",
				x->step->boot + 1, b->plan.boots_per_commit,
				k->label, res.end == VM_BOOT_DONE ? "" : "failed after ",
				res.elapsed, res.first_run, res.guest_first_run);
	else if (ret == 0 && !b->summary->signal)
		progress_notice(&b->progress, "boot %u/%u of %s: %s%.1f s, no run started",
				x->step->boot + 1, b->plan.boots_per_commit,
				k->label, res.end == VM_BOOT_DONE ? "" : "failed after ",
				res.elapsed);
	vm_boot_result_release(&res);
	return ret;
}

/* One boot, in a workspace of its own that goes with it. */
static int run_boot(struct batch *b, size_t index, struct kd_err *err)
{
	struct boot_ctx x = {
		.b = b, .step = &b->plan.boots[index], .index = index,
		.ws = { .fd = -1, .state_fd = -1 },
	};
	struct kd_err rerr;
	int ret;

	if (workspace_create(b->o->work_dir, &x.ws, NULL, err) < 0) {
		b->store_failed = true;
		return -1;
	}
	x.console = xasprintf("%s/console.log", x.ws.path);
	x.received = xcalloc(b->n_jobs, sizeof(*x.received));
	ret = boot_in_workspace(&x, err);
	if (workspace_remove(&x.ws, &rerr) < 0)
		progress_notice(&b->progress, "%s", rerr.msg);
	json_decref(x.vm);
	free(x.received);
	free(x.console);
	return ret;
}

/* ---- the batch ----------------------------------------------------- */

static void make_batch_id(struct batch *b)
{
	uint64_t id;

	if (getrandom(&id, sizeof(id), 0) != sizeof(id)) {
		double now = now_epoch();

		id = hash64(&now, sizeof(now)) ^ (uint64_t)getpid();
	}
	snprintf(b->batch_id, sizeof(b->batch_id), "%08" PRIx32, (uint32_t)id);
}

/* This machine, QEMU, the guests' machine; the batch's workspace. */
static int prepare_machine(struct batch *b, struct kd_err *err)
{
	if (machine_read(&b->host, err) < 0 || vm_qemu_find(&b->qemu, err) < 0)
		return -1;
	b->vm = (struct vm_machine){
		.qemu = b->qemu, .accel = b->vo->accel, .clock = b->vo->clock,
		.cpus = b->vo->cpus ? b->vo->cpus :
			b->vo->clock == VM_CLOCK_INSTRUCTIONS ? 1 : VM_DEFAULT_CPUS,
		.memory = guest_memory(b), .append = b->vo->append,
	};
	return workspace_create(b->o->work_dir, &b->ws, NULL, err);
}

/* The plan of boots, the progress, the batch's name. */
static void prepare_plan(struct batch *b)
{
	unsigned *runs = xcalloc(b->n_jobs ? b->n_jobs : 1, sizeof(*runs));
	size_t total = 0;

	for (size_t j = 0; j < b->n_jobs; j++) {
		runs[j] = job_runs(b->jobs[j], b->o->runs);
		/* what its runs' job.yaml says: the batch's runs of the job */
		b->jobs[j]->runs = runs[j];
		total += runs[j];
	}
	boot_plan_init(&b->plan, runs, b->n_jobs, b->vo->n_kernels,
		       b->vo->runs_per_boot, b->o->warmup, b->o->order, b->o->seed);
	free(runs);
	b->stored = xcalloc(b->vo->n_kernels * (b->n_jobs ? b->n_jobs : 1),
			    sizeof(*b->stored));
	progress_init(&b->progress, b->o->log, b->o->live,
		      total * b->vo->n_kernels);
	make_batch_id(b);
}

static void batch_release(struct batch *b)
{
	struct kd_err rerr;

	if (b->ws.fd >= 0 && workspace_remove(&b->ws, &rerr) < 0)
		progress_notice(&b->progress, "%s", rerr.msg);
	for (size_t k = 0; b->guests && k < b->vo->n_kernels; k++)
		vm_guest_release(&b->guests[k]);
	vm_disks_release(&b->disks);
	free(b->guests);
	free(b->stored);
	free(b->qemu);
	free(b->host_name);
	boot_plan_release(&b->plan);
	machine_release(&b->host);
	progress_release(&b->progress);
}

int vm_batch_host(struct job *const *jobs, size_t n_jobs,
		  const struct runner_opts *o, const struct vm_options *vo,
		  bool probe, char **host, struct kd_err *err)
{
	struct batch b = {
		.o = o, .vo = vo, .jobs = jobs, .n_jobs = n_jobs,
		.ws = { .fd = -1, .state_fd = -1 },
	};
	struct strbuf why = STRBUF_INIT;
	int ret;

	*host = NULL;
	progress_init(&b.progress, o->log, false, 0);
	ret = prepare_machine(&b, err);
	if (!ret && known_accel(&b, &why) != VM_ACCEL_AUTO)
		b.vm.accel = known_accel(&b, &why);
	if (!ret && b.vm.accel == VM_ACCEL_AUTO && probe && vo->n_kernels) {
		ret = build_guests(&b, err);
		if (!ret)
			ret = choose_accel(&b, err);
	}
	if (!ret && b.vm.accel != VM_ACCEL_AUTO)
		*host = vm_host_name(b.host.hostname, &b.vm);
	strbuf_release(&why);
	batch_release(&b);
	return ret < 0 ? -1 : 0;
}

int vm_batch_run(struct job *const *jobs, size_t n_jobs,
		 const struct runner_opts *o, const struct vm_options *vo,
		 struct runner_summary *summary, struct kd_err *err)
{
	struct batch b = {
		.o = o, .vo = vo, .jobs = jobs, .n_jobs = n_jobs,
		.summary = summary, .ws = { .fd = -1, .state_fd = -1 },
	};
	int ret;

	memset(summary, 0, sizeof(*summary));
	prepare_plan(&b);
	ret = prepare_machine(&b, err);
	if (!ret)
		ret = build_guests(&b, err);
	if (!ret)
		ret = choose_accel(&b, err);
	if (ret > 0) {
		summary->signal = proc_caught_signal(o->cancel_fd);
		ret = 0;
	}
	if (!ret && !summary->signal) {
		b.host_name = vm_host_name(b.host.hostname, &b.vm);
		say_emulated(&b);
		if (b.disks.n) {
			struct strbuf size = STRBUF_INIT;

			format_size_human(&size, b.disks.size);
			progress_notice(&b.progress, "the jobs' RAM disks are %u virtio disk%s of %s over sparse files in %s (--vm-disks file), not the brd module's: their timings are not LKP's",
					b.disks.n, b.disks.n == 1 ? "" : "s",
					size.buf, b.ws.path);
			strbuf_release(&size);
		}
		progress_notice(&b.progress, "%zu boot%s of %u run%s a job each at most, in rounds of the order of seed %" PRIu64 " (--seed %" PRIu64 " repeats it); runs stored under host %s",
				b.plan.n, b.plan.n == 1 ? "" : "s",
				vo->runs_per_boot, vo->runs_per_boot == 1 ? "" : "s",
				o->seed, o->seed, b.host_name);
	}
	for (size_t i = 0; !ret && !summary->signal && i < b.plan.n; i++) {
		ret = run_boot(&b, i, err);
		if (!ret && !summary->signal)
			summary->signal = proc_caught_signal(o->cancel_fd);
	}
	if (ret < 0 && b.store_failed)
		summary->store_failed = true;
	batch_release(&b);
	return ret;
}

void vm_options_args(const struct vm_options *vo, struct strbuf *out)
{
	if (vo->clock != VM_CLOCK_REAL)
		strbuf_addf(out, " --vm-clock %s", vm_clock_names[vo->clock]);
	if (vo->accel != VM_ACCEL_AUTO)
		strbuf_addf(out, " --vm-accel %s", vm_accel_names[vo->accel]);
	if (vo->runs_per_boot && vo->runs_per_boot != VM_DEFAULT_RUNS_PER_BOOT)
		strbuf_addf(out, " --vm-runs-per-boot %u", vo->runs_per_boot);
	if (vo->cpus)
		strbuf_addf(out, " --vm-cpus %u", vo->cpus);
	if (vo->memory)
		strbuf_addf(out, " --vm-memory %lluM",
			    (unsigned long long)(vo->memory >> 20));
	if (vo->boot_timeout && vo->boot_timeout != VM_DEFAULT_BOOT_TIMEOUT)
		strbuf_addf(out, " --vm-boot-timeout %.0fs", vo->boot_timeout);
	if (vo->timeout && vo->timeout != VM_DEFAULT_TIMEOUT)
		strbuf_addf(out, " --vm-timeout %.0fs", vo->timeout);
	if (vo->disks != VM_DISKS_RAM)
		strbuf_addf(out, " --vm-disks %s", vm_disks_names[vo->disks]);
	if (vo->append) {
		strbuf_addstr(out, " --vm-append ");
		shell_quote(out, vo->append);
	}
	for (size_t i = 0; i < vo->n_files; i++) {
		strbuf_addstr(out, " --vm-file ");
		shell_quote(out, vo->files[i]);
	}
}
