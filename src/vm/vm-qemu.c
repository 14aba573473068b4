// SPDX-License-Identifier: GPL-2.0
/*
 * One boot of a guest in QEMU (kdelta/vm.h).  QEMU's stdin and stdout are
 * the guest's virtio-serial port: the order goes into a pipe that stays
 * open for as long as QEMU runs (QEMU takes the end of its stdin for the
 * port's end), and what the guest sends arrives on QEMU's stdout, which
 * proc.c collects while it waits; every tick takes the whole records out
 * of it.  The guest's console goes to a file, QEMU's own messages to
 * another: they say why a boot failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kdelta/proc.h"
#include "kdelta/progress.h"
#include "kdelta/util.h"
#include "kdelta/vm.h"

#define QEMU_PROGRAM "qemu-system-x86_64"
#define TICK_SECONDS 0.2
/* After "done", the guest powers off at once; this long at most. */
#define POWER_OFF_GRACE 15.0
/* Of the console, what is read to say why a guest stopped. */
#define CONSOLE_TAIL (1u << 20)

const char *const vm_accel_names[] = { "auto", "kvm", "tcg", NULL };
const char *const vm_clock_names[] = { "real", "instructions", NULL };
const char *const vm_disks_names[] = { "ram", "file", NULL };

int vm_qemu_find(char **path, struct kd_err *err)
{
	*path = find_program(QEMU_PROGRAM);
	if (*path)
		return 0;
	return kd_error(err, "%s not found in PATH; install Debian's qemu-system-x86 (apt-get install qemu-system-x86)",
			QEMU_PROGRAM);
}

static void add_arg(const char ***argv, size_t *n, size_t *alloc,
		    const char *arg)
{
	ALLOC_GROW(*argv, *n + 2, *alloc);
	(*argv)[(*n)++] = arg;
	(*argv)[*n] = NULL;
}

/* QEMU's command line; the strings it points at live in keep. */
static const char **qemu_argv(const struct vm_boot_config *c,
			      struct strbuf *keep)
{
	const struct vm_machine *m = c->machine;
	bool kvm = m->accel == VM_ACCEL_KVM;
	const char **argv = NULL;
	size_t n = 0, alloc = 0, at[6], *disk_at;

	/* Offsets first: keep's buffer moves as it grows. */
	at[0] = keep->len;
	strbuf_addf(keep, "%u", m->cpus);
	strbuf_addch(keep, '\0');
	at[1] = keep->len;
	strbuf_addf(keep, "%lluM", (unsigned long long)(m->memory >> 20));
	strbuf_addch(keep, '\0');
	at[2] = keep->len;
	strbuf_addf(keep, "file:%s", c->console_log);
	strbuf_addch(keep, '\0');
	at[3] = keep->len;
	strbuf_addf(keep, "%s%s%s", VM_CMDLINE, m->append ? " " : "",
		    m->append ? m->append : "");
	strbuf_addch(keep, '\0');
	at[4] = keep->len;
	strbuf_addf(keep, "virtserialport,bus=kdelta-serial.0,chardev=kdelta,name=%s",
		    VM_PORT_NAME);
	strbuf_addch(keep, '\0');
	at[5] = keep->len;
	/*
	 * The disks: scratch, so QEMU may cache and reorder as it likes
	 * (cache=unsafe); the guest's discards (mkfs's) punch holes in the
	 * files.
	 */
	disk_at = xcalloc(2 * c->n_disk_files + 1, sizeof(*disk_at));
	for (unsigned i = 0; i < c->n_disk_files; i++) {
		disk_at[2 * i] = keep->len;
		strbuf_addstr(keep, "file=");
		/* QEMU's option syntax doubles a comma in a value. */
		for (const char *p = c->disk_files[i]; *p; p++) {
			if (*p == ',')
				strbuf_addch(keep, ',');
			strbuf_addch(keep, *p);
		}
		strbuf_addf(keep, ",if=none,id=kdelta-disk%u,format=raw,cache=unsafe,discard=unmap",
			    i);
		strbuf_addch(keep, '\0');
		disk_at[2 * i + 1] = keep->len;
		strbuf_addf(keep, "%s,drive=kdelta-disk%u,serial=%s%u",
			    c->microvm ? "virtio-blk-device" : "virtio-blk-pci",
			    i, VM_DISK_SERIAL, i);
		strbuf_addch(keep, '\0');
	}

	add_arg(&argv, &n, &alloc, m->qemu);
	add_arg(&argv, &n, &alloc, "-machine");
	add_arg(&argv, &n, &alloc, c->microvm ? "microvm" : "q35");
	add_arg(&argv, &n, &alloc, "-accel");
	add_arg(&argv, &n, &alloc, kvm ? "kvm" : "tcg");
	add_arg(&argv, &n, &alloc, "-cpu");
	add_arg(&argv, &n, &alloc, kvm ? "host" : "max");
	add_arg(&argv, &n, &alloc, "-smp");
	add_arg(&argv, &n, &alloc, keep->buf + at[0]);
	add_arg(&argv, &n, &alloc, "-m");
	add_arg(&argv, &n, &alloc, keep->buf + at[1]);
	if (m->clock == VM_CLOCK_INSTRUCTIONS) {
		/* The guest's clock counts instructions: 1 ns each. */
		add_arg(&argv, &n, &alloc, "-icount");
		add_arg(&argv, &n, &alloc, "shift=0,sleep=off");
	}
	add_arg(&argv, &n, &alloc, "-nodefaults");
	add_arg(&argv, &n, &alloc, "-no-user-config");
	add_arg(&argv, &n, &alloc, "-display");
	add_arg(&argv, &n, &alloc, "none");
	add_arg(&argv, &n, &alloc, "-no-reboot");
	add_arg(&argv, &n, &alloc, "-serial");
	add_arg(&argv, &n, &alloc, keep->buf + at[2]);
	add_arg(&argv, &n, &alloc, "-device");
	add_arg(&argv, &n, &alloc, c->microvm ? "virtio-serial-device,id=kdelta-serial"
					     : "virtio-serial-pci,id=kdelta-serial");
	add_arg(&argv, &n, &alloc, "-chardev");
	add_arg(&argv, &n, &alloc, "stdio,id=kdelta,signal=off");
	add_arg(&argv, &n, &alloc, "-device");
	add_arg(&argv, &n, &alloc, keep->buf + at[4]);
	for (unsigned i = 0; i < c->n_disk_files; i++) {
		add_arg(&argv, &n, &alloc, "-drive");
		add_arg(&argv, &n, &alloc, keep->buf + disk_at[2 * i]);
		add_arg(&argv, &n, &alloc, "-device");
		add_arg(&argv, &n, &alloc, keep->buf + disk_at[2 * i + 1]);
	}
	free(disk_at);
	add_arg(&argv, &n, &alloc, "-kernel");
	add_arg(&argv, &n, &alloc, c->image);
	add_arg(&argv, &n, &alloc, "-initrd");
	add_arg(&argv, &n, &alloc, c->initrd);
	add_arg(&argv, &n, &alloc, "-append");
	add_arg(&argv, &n, &alloc, keep->buf + at[3]);
	return argv;
}

/* A boot in progress: what the ticks share. */
struct boot {
	const struct vm_boot_config *c;
	const struct vm_boot_events *ev;
	struct vm_boot_result *res;
	struct proc p;
	size_t used;			/* of p.out_buf, taken as records */
	bool hello, done, boot_timed_out, killed;
	double done_at;
	struct strbuf failure;		/* the channel or the guest said */
	bool refused;			/* ev->record() said stop */
	struct kd_err refusal;
};

static void stop_qemu(struct boot *b)
{
	if (!b->killed)
		proc_kill(&b->p);
	b->killed = true;
}

static int take_record(struct boot *b, const struct vm_record *r)
{
	struct kd_err jerr;
	json_t *json;

	if (!b->hello) {
		if (strcmp(r->type, "hello")) {
			strbuf_addf(&b->failure, "the guest's first word was not hello but a %s record",
				    r->type);
			return -1;
		}
		if (vm_record_json(r, &b->res->hello, &jerr) < 0) {
			strbuf_addstr(&b->failure, jerr.msg);
			return -1;
		}
		b->hello = true;
		b->res->startup = now_monotonic() - b->p.start;
		if (b->ev->hello)
			b->ev->hello(b->ev->arg, b->res->hello, b->res->startup);
		return 0;
	}
	if (!strcmp(r->type, "error")) {
		const char *msg = NULL;

		if (vm_record_json(r, &json, &jerr) == 0)
			msg = json_string_value(json_object_get(json, "message"));
		strbuf_addf(&b->failure, "%s", msg ? msg : "kdelta in the guest failed, and its message was damaged");
		json_decref(json);
		return -1;
	}
	if (!strcmp(r->type, "start") && !b->res->first_run) {
		b->res->first_run = now_monotonic() - b->p.start;
		if (vm_record_json(r, &json, &jerr) == 0)
			b->res->guest_first_run = json_real_value(
				json_object_get(json, "uptime"));
		json_decref(json);
	}
	if (!strcmp(r->type, "done")) {
		b->done = true;
		b->done_at = now_monotonic();
	}
	if (b->ev->record && b->ev->record(b->ev->arg, r, &b->refusal) < 0) {
		b->refused = true;
		return -1;
	}
	return 0;
}

/* Takes the whole records that arrived; stops QEMU on a bad one. */
static void take_records(struct boot *b)
{
	struct strbuf *out = &b->p.out_buf;
	struct vm_record r;
	struct kd_err err;
	int got;

	if (b->failure.len || b->refused)
		return;
	while ((got = vm_record_decode(out->buf, out->len, &b->used, &r,
				       &err)) == 1)
		if (take_record(b, &r) < 0) {
			stop_qemu(b);
			return;
		}
	if (got < 0) {
		strbuf_addf(&b->failure, "what the guest sent came back damaged: %s",
			    err.msg);
		stop_qemu(b);
		return;
	}
	/* What was taken goes; p.out_buf keeps growing from the rest. */
	if (b->used) {
		memmove(out->buf, out->buf + b->used, out->len - b->used);
		strbuf_setlen(out, out->len - b->used);
		b->used = 0;
	}
}

static void boot_tick(void *arg)
{
	struct boot *b = arg;
	double now = now_monotonic();

	take_records(b);
	if (!b->hello && !b->killed && now - b->p.start >= b->c->boot_timeout) {
		b->boot_timed_out = true;
		stop_qemu(b);
	}
	if (b->done && !b->killed && now - b->done_at >= POWER_OFF_GRACE)
		stop_qemu(b);
	if (b->ev->tick)
		b->ev->tick(b->ev->arg);
}

/* The tail of a file, for messages; empty when it cannot be read. */
static void read_tail(const char *path, size_t max, struct strbuf *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t size;
	char buf[1 << 16];
	ssize_t n;

	if (fd < 0)
		return;
	size = lseek(fd, 0, SEEK_END);
	lseek(fd, size > (off_t)max ? size - (off_t)max : 0, SEEK_SET);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		strbuf_add(out, buf, (size_t)n);
	close(fd);
}

/* The last line of text that is not blank, trimmed; "" if none. */
static void last_line(const char *text, size_t len, struct strbuf *out)
{
	size_t end = len, start;

	while (end) {
		while (end && (text[end - 1] == '\n' || text[end - 1] == '\r' ||
			       text[end - 1] == ' '))
			end--;
		start = end;
		while (start && text[start - 1] != '\n')
			start--;
		if (end > start) {
			strbuf_add(out, text + start, end - start);
			make_printable(out->buf);
			return;
		}
		end = start;
	}
}

/* The line of text from the last occurrence of what on, or false. */
static bool line_after(const char *text, size_t len, const char *what,
		       struct strbuf *out)
{
	const char *hit = NULL, *p = text;
	size_t wl = strlen(what);

	while ((p = memmem(p, len - (size_t)(p - text), what, wl))) {
		hit = p;
		p += wl;
	}
	if (!hit)
		return false;
	hit += wl;
	strbuf_add(out, hit, strcspn(hit, "\r\n"));
	make_printable(out->buf);
	strbuf_rtrim(out);
	return true;
}

void vm_console_reason(const char *console, size_t len, struct strbuf *out)
{
	struct strbuf line = STRBUF_INIT;
	char *text = xmalloc(len + 1);

	/* A console may hold NUL bytes (a guest's garbage): blanks here. */
	for (size_t i = 0; i < len; i++)
		text[i] = console[i] ? console[i] : ' ';
	text[len] = '\0';
	if (line_after(text, len, "Kernel panic - not syncing: ", &line)) {
		strbuf_addf(out, "kernel panic: %s", line.buf);
	} else if (line_after(text, len, "kdelta guest: ", &line)) {
		strbuf_addf(out, "%s", line.buf);
	} else {
		last_line(text, len, &line);
		if (line.len)
			strbuf_addf(out, "its console's last line: %s", line.buf);
	}
	strbuf_release(&line);
	free(text);
}

static void console_reason(const struct vm_boot_config *c, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;

	read_tail(c->console_log, CONSOLE_TAIL, &text);
	vm_console_reason(text.buf, text.len, out);
	if (!text.len)
		strbuf_addstr(out, "nothing on its console");
	strbuf_release(&text);
}

/* Why QEMU itself failed: its exit, and the last line it printed. */
static void qemu_reason(const struct boot *b, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT, line = STRBUF_INIT;

	strbuf_addstr(out, "QEMU ");
	proc_describe_end(&b->p, out);
	read_tail(b->c->qemu_log, 8192, &text);
	last_line(text.buf, text.len, &line);
	if (line.len)
		strbuf_addf(out, ": %s", line.buf);
	strbuf_release(&line);
	strbuf_release(&text);
}

/* The end of the boot and its reason, once QEMU has ended. */
static void classify(struct boot *b)
{
	struct vm_boot_result *res = b->res;
	struct strbuf *why = &res->reason;
	bool qemu_failed = b->p.end != PROC_EXITED || b->p.status;

	if (b->refused) {
		res->end = VM_BOOT_REFUSED;
	} else if (b->p.end == PROC_CANCELLED) {
		res->end = VM_BOOT_CANCELLED;
	} else if (b->done) {
		res->end = VM_BOOT_DONE;
	} else if (!b->hello) {
		res->end = VM_BOOT_NO_BOOT;
		strbuf_addstr(why, "did not boot: ");
		if (b->failure.len) {
			strbuf_add(why, b->failure.buf, b->failure.len);
		} else if (b->boot_timed_out) {
			strbuf_addf(why, "no word from kdelta's init after %.0f s (--vm-boot-timeout); ",
				    b->c->boot_timeout);
			console_reason(b->c, why);
		} else if (b->p.end == PROC_TIMED_OUT) {
			strbuf_addstr(why, "timed out (--vm-timeout); ");
			console_reason(b->c, why);
		} else if (qemu_failed && !b->killed) {
			qemu_reason(b, why);
		} else {
			/* A panic (panic=-1), or a reset or power-off. */
			struct strbuf said = STRBUF_INIT;

			console_reason(b->c, &said);
			if (strncmp(said.buf, "kernel panic: ", 14))
				strbuf_addstr(why, "the guest stopped before kdelta's init started; ");
			strbuf_add(why, said.buf, said.len);
			strbuf_release(&said);
		}
	} else if (b->p.end == PROC_TIMED_OUT) {
		res->end = VM_BOOT_TIMEOUT;
		strbuf_addf(why, "the boot timed out after %.0f s (--vm-timeout); ",
			    b->c->timeout);
		console_reason(b->c, why);
	} else {
		res->end = VM_BOOT_DIED;
		strbuf_addstr(why, "the guest stopped before its runs were done: ");
		if (b->failure.len)
			strbuf_add(why, b->failure.buf, b->failure.len);
		else if (qemu_failed && !b->killed)
			qemu_reason(b, why);
		else
			console_reason(b->c, why);
	}
}

/* The pipe that is QEMU's stdin, with the order in it; -1 on failure. */
static int order_pipe(const struct vm_boot_config *c, int fds[2],
		      struct kd_err *err)
{
	size_t done = 0;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return kd_error(err, "cannot create a pipe: %s", strerror(errno));
	if (c->order_len >= 65536 &&
	    fcntl(fds[1], F_SETPIPE_SZ, (int)c->order_len + 1) < 0) {
		close(fds[0]);
		close(fds[1]);
		return kd_error(err, "the order for the guest (%zu bytes) does not fit into a pipe: %s",
				c->order_len, strerror(errno));
	}
	while (done < c->order_len) {
		ssize_t n = write(fds[1], c->order + done, c->order_len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fds[0]);
			close(fds[1]);
			return kd_error(err, "writing the order for the guest: %s",
					strerror(e));
		}
		done += (size_t)n;
	}
	return 0;
}

int vm_boot(const struct vm_boot_config *c, const struct vm_boot_events *ev,
	    struct vm_boot_result *res, struct kd_err *err)
{
	struct strbuf keep = STRBUF_INIT;
	struct boot b = { .c = c, .ev = ev, .res = res, .p = PROC_INIT };
	const char **argv;
	int fds[2], ret;

	memset(res, 0, sizeof(*res));
	strbuf_init(&res->reason);
	strbuf_init(&b.failure);
	if (order_pipe(c, fds, err) < 0)
		return -1;
	argv = qemu_argv(c, &keep);
	b.p.argv = argv;
	b.p.in = fds[0];
	b.p.out = PROC_PIPE;
	b.p.err_path = c->qemu_log;
	b.p.cgroup = c->cgroup;
	b.p.cancel_fd = c->cancel_fd;
	b.p.timeout = c->timeout;
	b.p.tick = boot_tick;
	b.p.tick_arg = &b;
	b.p.tick_interval = TICK_SECONDS;
	ret = proc_start(&b.p, err);
	close(fds[0]);
	if (ret == 0) {
		ret = proc_wait(&b.p, err);
		take_records(&b);
		res->elapsed = now_monotonic() - b.p.start;
		if (ret == 0)
			classify(&b);
	}
	/* The write end held the port open; QEMU is gone now. */
	close(fds[1]);
	if (ret == 0 && b.refused) {
		memcpy(err, &b.refusal, sizeof(*err));
		ret = -1;
	}
	proc_clear(&b.p);
	strbuf_release(&b.failure);
	strbuf_release(&keep);
	free(argv);
	return ret;
}

void vm_boot_result_release(struct vm_boot_result *res)
{
	strbuf_release(&res->reason);
	json_decref(res->hello);
	res->hello = NULL;
}

char *vm_host_name(const char *hostname, const struct vm_machine *m)
{
	return xasprintf("vm-%s-%s%s-%ucpu", hostname,
			 vm_accel_names[m->accel],
			 m->clock == VM_CLOCK_INSTRUCTIONS ? "-icount" : "",
			 m->cpus);
}
