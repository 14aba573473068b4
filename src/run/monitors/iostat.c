// SPDX-License-Identifier: GPL-2.0
/*
 * iostat: what iostat -x (sysstat) reports, from /proc/diskstats as iostat
 * reads it, for the block devices of the run: the one holding the work
 * directory and the one holding /.  Over the run (the increase of each
 * counter between the first and the last sample, over the seconds between
 * them), per device, named as LKP names iostat's columns (without '%'):
 *
 *   iostat.<dev>.r/s, .rkB/s, .rrqm/s   reads, kB read, reads merged per s
 *   iostat.<dev>.rrqm                   percent of reads merged
 *   iostat.<dev>.r_await                ms per read, queueing included
 *   iostat.<dev>.rareq-sz               kB per read
 *   ... .w*, and .d* for discards        the same for writes and discards
 *   iostat.<dev>.f/s, .f_await          flushes per second, ms per flush
 *   iostat.<dev>.aqu-sz                 requests in the queue, on average
 *   iostat.<dev>.util                   percent of the time the device was
 *                                       busy
 *
 * The RAM disk kdelta makes for "disk: 1BRD_<size>" is a loop device whose
 * number changes from run to run: it is named ram0, as LKP's brd names it,
 * so that runs compare.  Each sample is /proc/diskstats after a line
 * "devices: loop3=ram0 vda" that says which devices are the run's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/sysmacros.h>

#include "kdelta/counters.h"
#include "kdelta/mount.h"
#include "kdelta/util.h"
#include "sampled.h"

#define DISKSTATS "/proc/diskstats"
#define LOOP_MAJOR 7
#define MAX_DEVICES 8
#define MAX_FIELDS 17	/* after major, minor and name */

/* /proc/diskstats' fields after the name (the kernel's iostats.rst). */
enum {
	RD_IOS, RD_MERGES, RD_SECTORS, RD_TICKS,
	WR_IOS, WR_MERGES, WR_SECTORS, WR_TICKS,
	IN_FLIGHT, IO_TICKS, TIME_IN_QUEUE,
	DC_IOS, DC_MERGES, DC_SECTORS, DC_TICKS,
	FL_IOS, FL_TICKS,
};

/* The kernel's name of a device, from /proc/diskstats; NULL: not listed. */
static char *device_name(dev_t dev)
{
	char *path = monitor_proc_path(DISKSTATS);
	FILE *f = fopen(path, "re");
	unsigned major_nr, minor_nr;
	char name[64], *found = NULL;

	while (f && !found &&
	       fscanf(f, "%u %u %63s%*[^\n]", &major_nr, &minor_nr, name) == 3)
		if (makedev(major_nr, minor_nr) == dev)
			found = xstrdup(name);
	if (f)
		fclose(f);
	free(path);
	return found;
}

static bool is_ram_disk_job(const struct jnode *job)
{
	const char *disk = job ? jnode_str(job, "disk") : NULL;

	return disk && !strncmp(disk, "1BRD_", 5);
}

static int iostat_sources(const struct monitor_context *ctx,
			  struct monitor_sources *out, struct kd_err *err)
{
	dev_t work = ctx->work_dir ? mount_device(ctx->work_dir) : 0;
	dev_t root = mount_device("/");
	char *work_name = work ? device_name(work) : NULL;
	char *root_name = root ? device_name(root) : NULL;
	struct strbuf label = STRBUF_INIT;

	strbuf_addstr(&label, "devices:");
	if (work_name) {
		strbuf_addf(&label, " %s", work_name);
		if (major(work) == LOOP_MAJOR && is_ram_disk_job(ctx->job_root))
			strbuf_addstr(&label, "=ram0");
	}
	if (root_name && root != work)
		strbuf_addf(&label, " %s", root_name);
	if (work_name || root_name)
		monitor_sources_add(out, DISKSTATS, label.buf);
	else
		kd_error(err, "no block device holds / or the work directory");
	strbuf_release(&label);
	free(root_name);
	free(work_name);
	return out->n ? 0 : MONITOR_UNAVAILABLE;
}

/* A device of the run: its counters at the first and the last sample. */
struct device {
	char name[64];		/* the kernel's */
	char shown[64];		/* in the metrics' names */
	double first[MAX_FIELDS], last[MAX_FIELDS];
	double first_time, last_time;
	size_t nfields;
	bool seen;
};

struct devices {
	struct device items[MAX_DEVICES];
	size_t n;
};

/* "devices: loop3=ram0 vda" */
static int parse_devices(const struct raw_sample *sample, const char *line,
			 size_t len, struct devices *devs, struct kd_err *err)
{
	const char *p = line + 8, *end = line + len, *word;
	size_t wlen;

	while (next_word(&p, end, &word, &wlen)) {
		const char *eq = memchr(word, '=', wlen);
		size_t nlen = eq ? (size_t)(eq - word) : wlen;
		size_t slen = eq ? wlen - nlen - 1 : wlen;
		struct device *d = NULL;

		for (size_t i = 0; i < devs->n && !d; i++)
			if (strlen(devs->items[i].name) == nlen &&
			    !memcmp(devs->items[i].name, word, nlen))
				d = &devs->items[i];
		if (d)
			continue;	/* the same in every sample */
		if (devs->n == MAX_DEVICES || !nlen || !slen ||
		    nlen >= sizeof(d->name) || slen >= sizeof(d->shown))
			return bad_line(err, sample, line, len,
					"expected 'devices: name[=shown]...'");
		d = &devs->items[devs->n++];
		memset(d, 0, sizeof(*d));
		memcpy(d->name, word, nlen);
		memcpy(d->shown, eq ? eq + 1 : word, slen);
	}
	return 0;
}

/* "   7       3 loop3 12098 100 91436 ..." of a device of the run. */
static int parse_diskstats(const struct raw_sample *sample, const char *line,
			   size_t len, struct devices *devs, struct kd_err *err)
{
	const char *p = line, *end = line + len, *word;
	double values[MAX_FIELDS];
	struct device *d = NULL;
	size_t wlen, n = 0;

	for (int i = 0; i < 3; i++)
		if (!next_word(&p, end, &word, &wlen))
			return bad_line(err, sample, line, len,
					"expected 'major minor name counters...'");
	for (size_t i = 0; i < devs->n && !d; i++)
		if (strlen(devs->items[i].name) == wlen &&
		    !memcmp(devs->items[i].name, word, wlen))
			d = &devs->items[i];
	if (!d)
		return 0;
	while (next_word(&p, end, &word, &wlen)) {
		if (n == MAX_FIELDS || !sampled_parse_number(word, wlen, &values[n]))
			return bad_line(err, sample, line, len,
					"expected 11 to 17 counters");
		n++;
	}
	if (n < TIME_IN_QUEUE + 1)
		return bad_line(err, sample, line, len,
				"expected 11 to 17 counters");
	if (!d->seen) {
		memcpy(d->first, values, sizeof(values));
		d->first_time = sample->time;
		d->seen = true;
	}
	memcpy(d->last, values, sizeof(values));
	d->last_time = sample->time;
	d->nfields = n;
	return 0;
}

static int parse_sample(const struct raw_sample *sample, struct devices *devs,
			struct kd_err *err)
{
	struct sample_lines l = SAMPLE_LINES(sample);

	if (!sample_next_line(&l) || l.len < 8 ||
	    memcmp(l.line, "devices:", 8))
		return kd_error(err, "sample at %.6f: expected 'devices: ...' first",
				sample->time);
	if (parse_devices(sample, l.line, l.len, devs, err) < 0)
		return -1;
	while (sample_next_line(&l))
		if (parse_diskstats(sample, l.line, l.len, devs, err) < 0)
			return -1;
	return 0;
}

static void emit(json_t *stats, const struct device *d, const char *key,
		 double value)
{
	char *metric = xasprintf("iostat.%s.%s", d->shown, key);

	metric_set(stats, metric, value);
	free(metric);
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0;
}

/* r, w or d: requests, merges, sectors, ticks from field 'at'. */
static void emit_direction(json_t *stats, const struct device *d,
			   const double *delta, int at, char c, double seconds)
{
	double ios = delta[at], merges = delta[at + 1];
	double kb = delta[at + 2] / 2, ticks = delta[at + 3];
	char key[16];

	snprintf(key, sizeof(key), "%c/s", c);
	emit(stats, d, key, ios / seconds);
	snprintf(key, sizeof(key), "%ckB/s", c);
	emit(stats, d, key, kb / seconds);
	snprintf(key, sizeof(key), "%crqm/s", c);
	emit(stats, d, key, merges / seconds);
	snprintf(key, sizeof(key), "%crqm", c);
	emit(stats, d, key, 100 * ratio(merges, merges + ios));
	snprintf(key, sizeof(key), "%c_await", c);
	emit(stats, d, key, ratio(ticks, ios));
	snprintf(key, sizeof(key), "%careq-sz", c);
	emit(stats, d, key, ratio(kb, ios));
}

static void emit_device(json_t *stats, const struct device *d)
{
	double seconds = d->last_time - d->first_time, delta[MAX_FIELDS];

	if (!(seconds > 0))
		return;
	for (size_t i = 0; i < d->nfields; i++)
		delta[i] = d->last[i] - d->first[i];
	emit_direction(stats, d, delta, RD_IOS, 'r', seconds);
	emit_direction(stats, d, delta, WR_IOS, 'w', seconds);
	if (d->nfields > DC_TICKS)
		emit_direction(stats, d, delta, DC_IOS, 'd', seconds);
	if (d->nfields > FL_TICKS) {
		emit(stats, d, "f/s", delta[FL_IOS] / seconds);
		emit(stats, d, "f_await", ratio(delta[FL_TICKS], delta[FL_IOS]));
	}
	emit(stats, d, "aqu-sz", delta[TIME_IN_QUEUE] / (seconds * 1000));
	emit(stats, d, "util", 100 * delta[IO_TICKS] / (seconds * 1000));
}

static int iostat_extract(const char *raw, size_t len, json_t *stats,
			  struct kd_err *err)
{
	struct devices devs = { .n = 0 };
	struct raw_sample sample;
	size_t pos = 0;
	int rc;

	while ((rc = raw_next_sample(raw, len, &pos, &sample, err)) > 0)
		if (parse_sample(&sample, &devs, err) < 0)
			return -1;
	if (rc < 0)
		return -1;
	for (size_t i = 0; i < devs.n; i++)
		if (devs.items[i].seen)
			emit_device(stats, &devs.items[i]);
	return 0;
}

/*
 * lkp-tests' floors: etc/perf-metrics-threshold.yaml for reads, writes,
 * their waits and the utilisation ("NAME: v": above v, v / 2 apart; its
 * avgrq-sz, sysstat's old column, for the request sizes), lib/stats.rb
 * reasonable_perf_change? (a value above 1) for the rest.  The
 * percentages (util, rrqm, ...) change in percent, as in lkp-tests: their
 * names do not end in '%'.
 */
#define FLOOR(key, v, half) METRIC_FLOOR(5, v, half, 0,                        \
	"iostat.*." key ": 5%, above " #v ", " #half " apart")

static const struct metric_spec iostat_metrics[] = {
	{ "*", .floor = METRIC_FLOOR(5, 1, 0, 0, "iostat.*: 5%, above 1") },
	{ "*.r/s", .floor = FLOOR("r/s", 50, 25) },
	{ "*.w/s", .floor = FLOOR("w/s", 50, 25) },
	{ "*.rkB/s", .floor = FLOOR("rkB/s", 100, 50) },
	{ "*.wkB/s", .floor = FLOOR("wkB/s", 100, 50) },
	{ "*.r_await", .floor = FLOOR("r_await", 50, 25) },
	{ "*.w_await", .floor = FLOOR("w_await", 50, 25) },
	{ "*.rareq-sz", .floor = FLOOR("rareq-sz", 200, 100) },
	{ "*.wareq-sz", .floor = FLOOR("wareq-sz", 200, 100) },
	{ "*.util", .floor = FLOOR("util", 10, 5) },
	{ NULL },
};

const struct monitor monitor_iostat = {
	.section = {
		.name = "iostat",
		.summary = "I/O of the block devices holding the work directory and / (iostat -x)",
		.params = sampled_interval_params,
	},
	.metrics = iostat_metrics,
	.sources = iostat_sources,
	.extract = iostat_extract,
};
