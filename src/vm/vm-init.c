// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's side (kdelta/vm.h): kdelta as PID 1 of the initramfs that
 * vm-guest.c built.  PID 1 sets the system up, then forks the worker that
 * runs the order and stays behind to reap what the runs leave orphaned;
 * when the worker has ended, it powers the machine off.  Everything the
 * guest says goes through the port; what cannot (no port) goes to the
 * console, where the host reads it after the guest stopped.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kdelta/job.h"
#include "kdelta/kmod.h"
#include "kdelta/params.h"
#include "kdelta/proc.h"
#include "kdelta/runner.h"
#include "kdelta/util.h"
#include "kdelta/vm.h"
#include "kdelta/workdir.h"

/*
 * How long the port or a disk may take to appear once its module
 * (virtio_console, virtio_blk) is loaded.
 */
#define DEVICE_WAIT_SECONDS 20

struct guest {
	json_t *config;
	int port;			/* the virtio-serial port, or -1 */
	struct strbuf modules;		/* loaded, for hello */
	/* The virtio disks VM_DISK_SERIAL<i>, for the jobs' RAM disks. */
	char **disks;
	unsigned n_disks;
};

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* On the console: the host reads the last such line when nothing else came. */
static void say(const char *fmt, ...)
{
	va_list ap;

	fputs("kdelta guest: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

static int write_port(int fd, const struct strbuf *sb)
{
	const char *p = sb->buf;
	size_t left = sb->len;

	while (left) {
		ssize_t n = write(fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		left -= (size_t)n;
	}
	return 0;
}

static int send_json(int fd, const char *type, json_t *object)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	vm_record_encode_json(&sb, type, object);
	ret = write_port(fd, &sb);
	strbuf_release(&sb);
	json_decref(object);
	return ret;
}

static _Noreturn void power_off(void)
{
	sync();
	reboot(RB_POWER_OFF);
	/* Not allowed?  Then the host's timeout ends it. */
	for (;;)
		pause();
}

/* Says what went wrong, on the port when there is one, and powers off. */
static _Noreturn void fail(struct guest *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static _Noreturn void fail(struct guest *g, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	say("%s", msg.buf);
	if (g->port >= 0)
		send_json(g->port, "error", json_pack("{ss}", "message", msg.buf));
	power_off();
}

static void mount_one(struct guest *g, const char *source, const char *target,
		      const char *type, unsigned long flags, const char *data)
{
	mkdir(target, 0755);
	if (mount(source, target, type, flags, data) < 0 && errno != EBUSY)
		fail(g, "mounting %s on %s: %s", type, target, strerror(errno));
}

static void set_up_system(struct guest *g)
{
	mount_one(g, "devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
	mount_one(g, "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	mount_one(g, "sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	mount_one(g, "tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
	mount_one(g, "tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755");
	mount_one(g, "cgroup2", "/sys/fs/cgroup", "cgroup2",
		  MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	/* perf finds its tracepoints there; not every kernel has them. */
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
	setenv("PATH", VM_GUEST_PATH, 1);
	setenv("HOME", "/root", 1);
	setenv("TERM", "dumb", 1);
	/* A controller for the runs' cgroups: the root's own are enough. */
	if (chdir("/") < 0)
		fail(g, "chdir /: %s", strerror(errno));
}

static void load_config(struct guest *g)
{
	json_error_t jerr;

	g->config = json_load_file(VM_GUEST_CONFIG, 0, &jerr);
	if (!g->config || !json_is_object(g->config))
		fail(g, "%s: %s", VM_GUEST_CONFIG, jerr.text);
}

static void load_modules(struct guest *g)
{
	json_t *list = json_object_get(g->config, "modules"), *path;
	struct kd_err err;
	size_t i;

	json_array_foreach(list, i, path) {
		const char *file = json_string_value(path);
		const char *base;

		if (!file)
			continue;
		if (kmod_load(file, NULL, &err) < 0)
			fail(g, "%s", err.msg);
		base = strrchr(file, '/');
		strbuf_addf(&g->modules, "%s%.*s", g->modules.len ? " " : "",
			    (int)strcspn(base ? base + 1 : file, "."),
			    base ? base + 1 : file);
	}
}

/*
 * The /dev node of the device of class (a /sys directory) whose attribute
 * attr says value: "/dev/vportNpM" of the port named VM_PORT_NAME in
 * /sys/class/virtio-ports, "/dev/vdb" of the disk with serial
 * "kdelta-disk1" in /sys/block.  NULL when there is none.
 */
static char *find_device(const char *class, const char *attr,
			 const char *value)
{
	DIR *d = opendir(class);
	struct dirent *de;
	char *found = NULL;

	if (!d)
		return NULL;
	while (!found && (de = readdir(d))) {
		struct strbuf text = STRBUF_INIT;
		char *path;
		struct kd_err err;

		if (de->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s/%s", class, de->d_name, attr);
		if (read_file(path, &text, &err) == 0) {
			strbuf_rtrim(&text);
			if (!strcmp(text.buf, value))
				found = xasprintf("/dev/%s", de->d_name);
		}
		strbuf_release(&text);
		free(path);
	}
	closedir(d);
	return found;
}

/* find_device(), waiting for the device to appear (a module probing it). */
static char *wait_device(const char *class, const char *attr,
			 const char *value)
{
	char *dev = NULL;

	for (int i = 0; i < DEVICE_WAIT_SECONDS * 100 && !dev; i++) {
		dev = find_device(class, attr, value);
		if (!dev)
			usleep(10000);
	}
	return dev;
}

static void open_port(struct guest *g)
{
	char *dev = wait_device("/sys/class/virtio-ports", "name", VM_PORT_NAME);

	if (!dev)
		fail(g, "no virtio-serial port named %s (the kernel needs CONFIG_VIRTIO_PCI and CONFIG_VIRTIO_CONSOLE)",
		     VM_PORT_NAME);
	g->port = open(dev, O_RDWR | O_CLOEXEC);
	if (g->port < 0)
		fail(g, "%s: %s", dev, strerror(errno));
	free(dev);
}

/* Seconds since the guest's kernel started: its own clock. */
static double uptime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void say_hello(struct guest *g)
{
	struct strbuf cmdline = STRBUF_INIT;
	struct utsname u;
	struct sysinfo si;
	struct kd_err err;

	uname(&u);
	sysinfo(&si);
	if (read_file("/proc/cmdline", &cmdline, &err) == 0)
		strbuf_rtrim(&cmdline);
	if (send_json(g->port, "hello",
		      json_pack("{ss ss ss sI sI ss sf}", "release", u.release,
				"version", u.version, "cmdline", cmdline.buf,
				"cpus", (json_int_t)sysconf(_SC_NPROCESSORS_ONLN),
				"memory", (json_int_t)si.totalram * si.mem_unit,
				"modules", g->modules.buf, "uptime", uptime())) < 0)
		fail(g, "writing to the port: %s", strerror(errno));
	strbuf_release(&cmdline);
}

static json_t *read_order(struct guest *g)
{
	struct strbuf in = STRBUF_INIT;
	struct vm_record r;
	struct kd_err err;
	size_t pos = 0;
	json_t *order;
	int got;

	while ((got = vm_record_decode(in.buf, in.len, &pos, &r, &err)) == 0) {
		char buf[4096];
		ssize_t n = read(g->port, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			fail(g, "the port closed before the order came");
		strbuf_add(&in, buf, (size_t)n);
	}
	if (got < 0 || strcmp(r.type, "order") ||
	    vm_record_json(&r, &order, &err) < 0)
		fail(g, "a bad order: %s", got < 0 ? err.msg : r.type);
	strbuf_release(&in);
	return order;
}

/* What the worker's runner tells the port. */
struct worker {
	struct guest *g;
	int failed;			/* errno of a failed write */
};

static void run_started(void *arg, size_t job, unsigned round)
{
	struct worker *w = arg;

	if (!w->failed && send_json(w->g->port, "start",
				    json_pack("{sI sI sf}", "job", (json_int_t)job,
					      "round", (json_int_t)round,
					      "uptime", uptime())) < 0)
		w->failed = errno;
}

/* A run directory, flat (vm_run_pack() sends only such). */
static void remove_run_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	rmdir(path);
}

/*
 * Sends the run, then removes it: the guest's memory is its disk.  A run
 * that cannot be packed goes as its description with the reason.
 */
static void run_stored(void *arg, size_t job, unsigned round,
		       const char *run_dir)
{
	struct worker *w = arg;
	struct strbuf packed = STRBUF_INIT, rec = STRBUF_INIT;
	json_t *meta = json_pack("{sI sI}", "job", (json_int_t)job,
				 "round", (json_int_t)round);
	struct kd_err err;

	if (vm_run_pack(run_dir, meta, &packed, &err) < 0) {
		char *text;

		say("%s", err.msg);
		json_object_set_new(meta, "error", json_string(err.msg));
		text = json_dumps(meta, JSON_COMPACT);
		strbuf_reset(&packed);
		strbuf_addf(&packed, "%s\n", text);
		free(text);
	}
	json_decref(meta);
	vm_record_encode(&rec, "run", packed.buf, packed.len);
	if (!w->failed && write_port(w->g->port, &rec) < 0)
		w->failed = errno;
	strbuf_release(&rec);
	strbuf_release(&packed);
	remove_run_dir(run_dir);
}

static void load_jobs(struct guest *g, struct job_set *set, struct job ***jobs,
		      size_t *n_jobs)
{
	json_t *files = json_object_get(g->config, "jobs"), *file;
	struct kd_err err;
	size_t i;

	*n_jobs = json_array_size(files);
	*jobs = xcalloc(*n_jobs ? *n_jobs : 1, sizeof(**jobs));
	json_array_foreach(files, i, file) {
		if (job_load_file(json_string_value(file), job_schema_default(),
				  &set[i], &err) < 0)
			fail(g, "%s", err.msg);
		if (set[i].n != 1)
			fail(g, "%s holds %zu jobs, not one",
			     json_string_value(file), set[i].n);
		(*jobs)[i] = &set[i].jobs[0];
	}
}

/* The /dev nodes of the config's "disks" (VM_DISKS_FILE), in order. */
static void find_disks(struct guest *g)
{
	json_int_t n = json_integer_value(json_object_get(g->config, "disks"));

	if (n <= 0)
		return;
	g->disks = xcalloc((size_t)n, sizeof(*g->disks));
	for (json_int_t i = 0; i < n; i++) {
		char serial[32];

		snprintf(serial, sizeof(serial), "%s%lld", VM_DISK_SERIAL,
			 (long long)i);
		g->disks[i] = wait_device("/sys/block", "serial", serial);
		if (!g->disks[i])
			fail(g, "no virtio disk with serial %s (the kernel needs CONFIG_VIRTIO_BLK)",
			     serial);
		g->n_disks++;
	}
}

/* The worker: the order's runs, then done. */
static int work(struct guest *g, json_t *order)
{
	json_t *runs = json_object_get(order, "runs");
	const char *label = json_string_value(json_object_get(order, "label"));
	const char *commits[] = { label, NULL };
	const char *brd = json_string_value(json_array_get(
		json_object_get(g->config, "brd_modules"), 0));
	struct job_set *sets = xcalloc(json_array_size(json_object_get(g->config, "jobs")) + 1,
				       sizeof(*sets));
	struct worker w = { .g = g };
	struct work_dir wd = { .fd = -1 };
	struct runner_summary summary;
	struct kd_err err;
	struct job **jobs;
	size_t n_jobs;
	int ret;

	load_jobs(g, sets, &jobs, &n_jobs);
	if (!label || json_array_size(runs) != n_jobs)
		fail(g, "the order does not match the jobs (%zu)", n_jobs);
	/* This boot's share of each job's runs. */
	for (size_t j = 0; j < n_jobs; j++)
		jobs[j]->runs = (unsigned)json_integer_value(json_array_get(runs, j));
	if (work_dir_open(&wd, VM_GUEST_WORK, &err) < 0)
		fail(g, "%s", err.msg);
	{
		struct runner_opts o = {
			.commits = commits, .n_commits = 1,
			.warmup = (unsigned)json_integer_value(json_object_get(order, "warmup")),
			.result_root = VM_GUEST_RESULTS, .work_dir = &wd,
			.order = json_is_true(json_object_get(order, "fixed")) ?
				 RUN_ORDER_FIXED : RUN_ORDER_SHUFFLED,
			.seed = (uint64_t)json_integer_value(json_object_get(order, "seed")),
			.first_round = (unsigned)json_integer_value(json_object_get(order, "first_round")),
			.cancel_fd = -1, .log = stderr, .live = false,
			.run_started = run_started, .run_stored = run_stored,
			.run_arg = &w, .no_matrix = true,
			.disks = {
				.brd_module = brd,
				.devices = (const char *const *)g->disks,
				.n_devices = g->n_disks,
				.devices_are = "virtio disks over files on the host",
			},
		};

		ret = runner_run(jobs, n_jobs, &o, &summary, &err);
		if (ret < 0)
			fail(g, "%s", err.msg);
		if (w.failed)
			fail(g, "writing to the port: %s", strerror(w.failed));
		send_json(g->port, "done", json_pack("{sI sI}",
			  "ok", (json_int_t)summary.ok,
			  "failed", (json_int_t)summary.failed));
		runner_summary_release(&summary);
	}
	work_dir_close(&wd);
	return 0;
}

/* PID 1 reaps every orphan until the worker ends. */
static int reap_until(pid_t worker)
{
	int status;
	pid_t pid;

	for (;;) {
		pid = wait(&status);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0 || pid == worker)
			return pid < 0 ? -1 : status;
	}
}

_Noreturn void vm_guest_init(void)
{
	struct guest g = { .port = -1, .modules = STRBUF_INIT };
	const char *hostname;
	json_t *order;
	pid_t worker;
	int status;

	set_up_system(&g);
	load_config(&g);
	load_modules(&g);
	open_port(&g);
	find_disks(&g);
	say_hello(&g);
	order = read_order(&g);
	if (json_is_true(json_object_get(order, "probe"))) {
		send_json(g.port, "done", json_object());
		power_off();
	}
	/* The runs' host: this machine's name, marked as a VM (vm_host_name()). */
	hostname = json_string_value(json_object_get(order, "hostname"));
	if (!hostname || sethostname(hostname, strlen(hostname)) < 0)
		fail(&g, "cannot take the host name the order gives: %s",
		     hostname ? strerror(errno) : "none");
	fflush(NULL);
	worker = fork();
	if (worker < 0)
		fail(&g, "fork: %s", strerror(errno));
	if (worker == 0)
		_exit(work(&g, order));
	status = reap_until(worker);
	if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		fail(&g, "kdelta's runner in the guest %s",
		     status >= 0 && WIFSIGNALED(status) ? strsignal(WTERMSIG(status))
							: "failed");
	power_off();
}
