// SPDX-License-Identifier: GPL-2.0
/*
 * Extraction on captures of this machine's /proc files (testdata/monitors/,
 * see its README): raw text made of three captures sampled 1.5 s and 1.75 s
 * apart, run through each monitor's extract().  The expected values in the
 * comments are worked out by hand from the captures; tests/monitors/stats.sh
 * compares every metric against testdata/monitors/expected-stats.txt, which
 * an independent Python script computed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "kdelta/catalogue.h"
#include "kdelta/counters.h"
#include "kdelta/metric-rules.h"
#include "kdelta/monitor.h"
#include "kdelta/util.h"

static const double sample_times[] = {
	1796001600.0, 1796001601.5, 1796001603.25,
};

static void read_capture(const char *name, struct strbuf *out)
{
	const char *dir = getenv("TESTDATA");
	char *path = xasprintf("%s/monitors/%s", dir ? dir : "testdata", name);
	struct kd_err err;

	if (read_file(path, out, &err) < 0)
		xdie("%s", err.msg);
	free(path);
}

/* "time: <t>\n<capture>" for capture.1, .2, .3 */
static void raw_of(const char *capture, struct strbuf *raw)
{
	for (int i = 0; i < 3; i++) {
		char *name = xasprintf("%s.%d", capture, i + 1);

		strbuf_addf(raw, "time: %.6f\n", sample_times[i]);
		read_capture(name, raw);
		free(name);
	}
}

static json_t *extract(const char *monitor, const char *raw, size_t len,
		       struct kd_err *err)
{
	json_t *stats = json_object();

	if (monitor_extract(monitor_find(monitor), raw, len, stats, err) < 0) {
		json_decref(stats);
		return NULL;
	}
	return stats;
}

static json_t *extract_capture(const char *monitor, const char *capture)
{
	struct strbuf raw = STRBUF_INIT;
	struct kd_err err = { .msg = "" };
	json_t *stats;

	raw_of(capture, &raw);
	stats = extract(monitor, raw.buf, raw.len, &err);
	CHECK_STR(err.msg, "");
	strbuf_release(&raw);
	return stats ? stats : json_object();
}

static double value(json_t *stats, const char *metric)
{
	json_t *v = json_object_get(stats, metric);

	if (!v)
		fprintf(stderr, "no metric %s\n", metric);
	return v ? json_number_value(v) : NAN;
}

static size_t count_prefix(json_t *stats, const char *prefix)
{
	const char *key;
	json_t *v;
	size_t n = 0;

	json_object_foreach(stats, key, v)
		if (!strncmp(key, prefix, strlen(prefix)))
			n++;
	return n;
}

static void test_metric_kind(void)
{
	CHECK(metric_kind(metric_catalogue_default(), "proc-vmstat.pgfree") == METRIC_COUNTER);
	CHECK(metric_kind(metric_catalogue_default(), "proc-vmstat.numa_hit") == METRIC_COUNTER);
	CHECK(metric_kind(metric_catalogue_default(), "proc-vmstat.thp_fault_alloc") == METRIC_COUNTER);
	CHECK(metric_kind(metric_catalogue_default(), "proc-vmstat.nr_free_pages") == METRIC_GAUGE);
	CHECK(metric_kind(metric_catalogue_default(), "proc-vmstat.nr_dirtied") == METRIC_COUNTER);
	CHECK(metric_kind(metric_catalogue_default(), "proc-vmstat.workingset_refault_file") == METRIC_COUNTER);
	CHECK(metric_kind(metric_catalogue_default(), "proc-vmstat.workingset_nodes") == METRIC_GAUGE);
	CHECK(metric_kind(metric_catalogue_default(), "slabinfo.pgfree.num_objs") == METRIC_GAUGE);
	CHECK(metric_kind(metric_catalogue_default(), "meminfo.Dirty") == METRIC_GAUGE);
	CHECK(metric_kind(metric_catalogue_default(), "vmstat.system.cs") == METRIC_RATE);
	CHECK(metric_kind(metric_catalogue_default(), "vmstat.procs.r") == METRIC_GAUGE);
}

/* Declarations for test_series(), as a monitor's own (after its source). */
static const struct metric_spec series_specs[] = {
	{ "pgfree", .kind = METRIC_COUNTER },
	{ "system.*", .kind = METRIC_RATE },
	{ NULL },
};

static void test_series(void)
{
	struct series_set set = SERIES_SET_INIT;
	json_t *stats = json_object();
	char name[32];

	/* Enough series to rehash a few times. */
	for (int i = 0; i < 500; i++) {
		snprintf(name, sizeof(name), "meminfo.f%d", i);
		series_add(&set, name, 10, i);
		series_add(&set, name, 12, i + 3);
	}
	series_add(&set, "proc-vmstat.pgfree", 10, 100);
	series_add(&set, "proc-vmstat.pgfree", 11, 250);
	series_add(&set, "proc-vmstat.pgfree", 14, 1100);
	series_add(&set, "vmstat.system.cs", 10, 100);
	series_add(&set, "vmstat.system.cs", 14, 1100);
	series_add(&set, "vmstat.system.in", 10, 7);	/* one sample: no rate */
	series_aggregate(&set, series_specs, stats);
	CHECK(set.n == 503);
	CHECK(json_object_size(stats) == 502);
	CHECK(value(stats, "meminfo.f0") == 1.5);	/* (0 + 3) / 2 */
	CHECK(value(stats, "meminfo.f499") == 500.5);
	CHECK(json_is_integer(json_object_get(stats, "proc-vmstat.pgfree")));
	CHECK(value(stats, "proc-vmstat.pgfree") == 1000);
	CHECK(value(stats, "vmstat.system.cs") == 250);	/* 1000 / 4 s */
	CHECK(!json_object_get(stats, "vmstat.system.in"));
	series_release(&set);
	json_decref(stats);
}

static void test_raw_samples(void)
{
	static const char raw[] =
		"time: 1.5\na 1\ntime: x\n"
		"time: 2.000001\nb 2\n";
	struct raw_sample s;
	struct kd_err err;
	size_t pos = 0;

	CHECK(raw_next_sample(raw, strlen(raw), &pos, &s, &err) == 1);
	CHECK(s.time == 1.5 && s.len == 4 && !memcmp(s.text, "a 1\n", 4));
	CHECK(raw_next_sample(raw, strlen(raw), &pos, &s, &err) == -1);
	CHECK_STR(err.msg, "bad 'time:' line at byte 14: expected an epoch like 1764466000.123456");
	pos = 0;
	CHECK(raw_next_sample("a 1\n", 4, &pos, &s, &err) == -1);
	CHECK_STR(err.msg, "not a raw sample file: expected 'time: <epoch>' at byte 0");
	pos = 0;
	CHECK(raw_next_sample("", 0, &pos, &s, &err) == 0);
	CHECK(raw_next_sample(NULL, 0, &pos, &s, &err) == 0);
}

/* Epochs are plain decimal numbers: strtod's other forms are refused. */
static void test_raw_epochs(void)
{
	static const char *const bad[] = {
		"time: nan\n", "time: -1\n", "time: 0x10\n", "time: 1e9\n",
		"time: inf\n", "time: +5\n", "time: 1.\n", "time: .5\n",
		"time: 1..5\n", "time: 1.5.2\n", "time: 12 \n", "time: \n",
	};
	struct raw_sample s;
	struct kd_err err;
	size_t pos;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		pos = 0;
		err.msg[0] = '\0';
		CHECK(raw_next_sample(bad[i], strlen(bad[i]), &pos, &s, &err) == -1);
		CHECK_STR(err.msg, "bad 'time:' line at byte 0: expected an epoch like 1764466000.123456");
	}
	pos = 0;
	CHECK(raw_next_sample("time: 17\n", 9, &pos, &s, &err) == 1 && s.time == 17);
}

/*
 * A copy of s that ends where the page ends, before a page that may not
 * be read: reading past it is a segmentation fault in every build.
 */
static char *guarded_copy(const char *s, size_t len, void **map)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || len > page ||
	    mprotect(p + page, page, PROT_NONE) < 0)
		xdie("guarded_copy: %s", strerror(errno));
	*map = p;
	memcpy(p + page - len, s, len);
	return p + page - len;
}

/*
 * Every monitor's extract() reads only the len bytes it is given: inputs
 * end at a page that cannot be read, without a terminator, and the empty
 * raw file is NULL, 0.
 */
static void test_unterminated(void)
{
	static const char *const inputs[] = {
		"time: 1796001600",
		"time: 1796001600.5",
		"time: 1796001600\nnr_free_pages 12",
		"time: 1796001600\nLatency Top version : v0.1\n1 2 3 a b",
		"time: 1796001600\nslabinfo - version: 2.1\nxfs_inode 1 2 3 4 5",
		"time: 1796001600\nMemFree: 12",
		"\tUser time (seconds): 2.5",
		"\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:02",
		"time: 1796001600\nnode: 0\nNode 0 MemFree: 12",
		"time: 1796001600\nresource: cpu\nsome avg10=1.5 total=12",
		"time: 1796001600\ndevices: sda\n 8 0 sda 1 2 3 4 5 6 7 8 9 10 11",
		"time: 1796001600\n CPU0 CPU1\n 24: 1 2 IO-APIC 5-edge",
		"perf stat -a\n 1.000000000,12,,context-switches",
		"# Samples: 1K of event 'cpu-clock'\n 1.00%  1.00%  [k] x",
		"# Samples: 1K of event 'cpu-clock'\n1.00% a;b",
	};

	for (size_t m = 0; monitor_registry[m]; m++) {
		struct kd_err err;
		json_t *stats = json_object();

		CHECK(monitor_extract(monitor_registry[m], NULL, 0, stats, &err) == 0);
		CHECK(json_object_size(stats) == 0);
		for (size_t i = 0; i < ARRAY_SIZE(inputs); i++) {
			size_t len = strlen(inputs[i]);
			void *map;
			char *raw = guarded_copy(inputs[i], len, &map);

			monitor_extract(monitor_registry[m], raw, len, stats, &err);
			munmap(map, 2 * (size_t)sysconf(_SC_PAGESIZE));
		}
		json_decref(stats);
	}
}

static void test_proc_vmstat(void)
{
	json_t *stats = extract_capture("proc-vmstat", "vmstat");

	CHECK(count_prefix(stats, "proc-vmstat.") == 192);
	/* 5404045 - 5360709 */
	CHECK(value(stats, "proc-vmstat.pgfree") == 43336);
	/* 237380 - 204533: a counter although nr_ */
	CHECK(value(stats, "proc-vmstat.nr_dirtied") == 32847);
	/* (1056376 + 1060773 + 1061562) / 3 */
	CHECK_NEAR(value(stats, "proc-vmstat.nr_free_pages"), 3178711.0 / 3, 1e-15);
	/* a gauge, although workingset_ */
	CHECK(value(stats, "proc-vmstat.workingset_nodes") == 11840);
	json_decref(stats);
}

static void test_slabinfo(void)
{
	json_t *stats = extract_capture("slabinfo", "slabinfo");
	struct kd_err err;
	static const char v20[] =
		"time: 1.0\nslabinfo - version: 2.0\n";
	static const char cut[] =
		"time: 1.0\nslabinfo - version: 2.1\n"
		"# name            <active_objs> <num_objs>\n"
		"dentry 1 2 192 21 1 : tunables 0 0 0\n";

	/* 236 caches, four gauges each */
	CHECK(count_prefix(stats, "slabinfo.") == 4 * 236);
	/* (89817 + 89817 + 89859) / 3 */
	CHECK(value(stats, "slabinfo.dentry.active_objs") == 89831);
	/* (4277 + 4277 + 4279) / 3 */
	CHECK_NEAR(value(stats, "slabinfo.dentry.num_slabs"), 12833.0 / 3, 1e-15);
	json_decref(stats);

	CHECK(!extract("slabinfo", v20, strlen(v20), &err));
	CHECK_STR(err.msg, "slabinfo version 2.0 is not supported: kdelta reads version 2.1");
	CHECK(!extract("slabinfo", cut, strlen(cut), &err));
	CHECK_STR(err.msg, "sample at 1.000000: bad line 'dentry 1 2 192 21 1 : tunables 0 0 0': expected a version 2.1 cache line");
}

static void test_meminfo(void)
{
	json_t *stats = extract_capture("meminfo", "meminfo");

	CHECK(count_prefix(stats, "meminfo.") == 54);
	CHECK(value(stats, "meminfo.Dirty") == 1212);	/* (3520 + 28 + 88) / 3 */
	CHECK(value(stats, "meminfo.HugePages_Total") == 0);
	json_decref(stats);
}

static void test_vmstat(void)
{
	static const char lone[] = "time: 1.0\nprocs_running 5\nctxt\n";
	json_t *stats = extract_capture("vmstat", "stat");
	struct kd_err err;

	CHECK(json_object_size(stats) == 9);
	/* (526785 - 525983) / 3.25 s */
	CHECK_NEAR(value(stats, "vmstat.system.cs"), 802 / 3.25, 1e-15);
	CHECK_NEAR(value(stats, "vmstat.procs.r"), 5.0 / 3, 1e-15);
	/*
	 * cpu deltas: user 17, nice 0, system 57, idle 441, iowait 11, irq 0,
	 * softirq 0, steal 0; 526 in all.
	 */
	CHECK_NEAR(value(stats, "vmstat.cpu.us"), 1700.0 / 526, 1e-14);
	CHECK_NEAR(value(stats, "vmstat.cpu.sy"), 5700.0 / 526, 1e-14);
	CHECK_NEAR(value(stats, "vmstat.cpu.id"), 44100.0 / 526, 1e-14);
	CHECK_NEAR(value(stats, "vmstat.cpu.wa"), 1100.0 / 526, 1e-14);
	CHECK(value(stats, "vmstat.cpu.st") == 0);
	json_decref(stats);

	/* A key without its number, after a line that had one. */
	stats = extract("vmstat", lone, strlen(lone), &err);
	CHECK(!stats);
	CHECK_STR(err.msg, "sample at 1.000000: bad line 'ctxt': expected a number");
	json_decref(stats);
}

/* The metrics as "name value" lines, sorted. */
static void dump(json_t *stats, struct strbuf *out)
{
	char *text = json_dumps(stats, JSON_SORT_KEYS | JSON_COMPACT);

	for (char *p = text + 1; *p && *p != '}'; p++) {
		if (*p == '"')
			continue;
		strbuf_addch(out, *p == ',' ? '\n' : *p == ':' ? ' ' : *p);
	}
	strbuf_addch(out, '\n');
	free(text);
}

static void test_latency_stats(void)
{
	/*
	 * By hand from testdata/monitors/latency_stats: avg = sum / hits,
	 * rounded down; the two xfs_free_eofblocks.part.N records are one
	 * stack: hits 12 + 9, sum 1598 + 1206, max 402.
	 */
	static const char want[] =
		"latency_stats.avg.__lock_page_killable.filemap_fault.__do_fault.handle_mm_fault.__do_page_fault.do_page_fault.page_fault 5\n"
		"latency_stats.avg.call_rwsem_down_read_failed.xfs_log_commit_cil.__xfs_trans_commit.__xfs_trans_roll.xfs_trans_roll.xfs_itruncate_extents.xfs_free_eofblocks.xfs_release.xfs_file_release.__fput.____fput.task_work_run 133\n"
		"latency_stats.avg.call_rwsem_down_read_failed.xfs_log_commit_cil.__xfs_trans_commit.xfs_trans_commit.xfs_vn_update_time.file_update_time.xfs_file_aio_write_checks.xfs_file_buffered_aio_write.xfs_file_write_iter.__vfs_write.vfs_write.SyS_write 167\n"
		"latency_stats.avg.down.xfs_buf_lock._xfs_buf_find.xfs_buf_get_map.xfs_buf_read_map.xfs_trans_read_buf_map.xfs_read_agf.xfs_alloc_read_agf.xfs_alloc_fix_freelist.xfs_free_extent_fix_freelist.xfs_free_extent.xfs_trans_free_extent 607\n"
		"latency_stats.avg.max 12970\n"
		"latency_stats.avg.nfs_wait_on_request.nfs_updatepage.nfs_write_end.generic_perform_write.__generic_file_write_iter.generic_file_write_iter.nfs_file_write.__vfs_write.vfs_write.SyS_write.entry_SYSCALL_64_fastpath 12970\n"
		"latency_stats.avg.wait_on_page_bit.truncate_inode_pages_range.truncate_inode_pages_final.evict.iput.dentry_unlink_inode.__dentry_kill.dput.__fput.____fput.task_work_run.exit_to_usermode_loop 11581\n"
		"latency_stats.hits.__lock_page_killable.filemap_fault.__do_fault.handle_mm_fault.__do_page_fault.do_page_fault.page_fault 1\n"
		"latency_stats.hits.call_rwsem_down_read_failed.xfs_log_commit_cil.__xfs_trans_commit.__xfs_trans_roll.xfs_trans_roll.xfs_itruncate_extents.xfs_free_eofblocks.xfs_release.xfs_file_release.__fput.____fput.task_work_run 21\n"
		"latency_stats.hits.call_rwsem_down_read_failed.xfs_log_commit_cil.__xfs_trans_commit.xfs_trans_commit.xfs_vn_update_time.file_update_time.xfs_file_aio_write_checks.xfs_file_buffered_aio_write.xfs_file_write_iter.__vfs_write.vfs_write.SyS_write 41\n"
		"latency_stats.hits.down.xfs_buf_lock._xfs_buf_find.xfs_buf_get_map.xfs_buf_read_map.xfs_trans_read_buf_map.xfs_read_agf.xfs_alloc_read_agf.xfs_alloc_fix_freelist.xfs_free_extent_fix_freelist.xfs_free_extent.xfs_trans_free_extent 3\n"
		"latency_stats.hits.max 41\n"
		"latency_stats.hits.nfs_wait_on_request.nfs_updatepage.nfs_write_end.generic_perform_write.__generic_file_write_iter.generic_file_write_iter.nfs_file_write.__vfs_write.vfs_write.SyS_write.entry_SYSCALL_64_fastpath 7\n"
		"latency_stats.hits.wait_on_page_bit.truncate_inode_pages_range.truncate_inode_pages_final.evict.iput.dentry_unlink_inode.__dentry_kill.dput.__fput.____fput.task_work_run.exit_to_usermode_loop 18\n"
		"latency_stats.max.__lock_page_killable.filemap_fault.__do_fault.handle_mm_fault.__do_page_fault.do_page_fault.page_fault 5\n"
		"latency_stats.max.call_rwsem_down_read_failed.xfs_log_commit_cil.__xfs_trans_commit.__xfs_trans_roll.xfs_trans_roll.xfs_itruncate_extents.xfs_free_eofblocks.xfs_release.xfs_file_release.__fput.____fput.task_work_run 402\n"
		"latency_stats.max.call_rwsem_down_read_failed.xfs_log_commit_cil.__xfs_trans_commit.xfs_trans_commit.xfs_vn_update_time.file_update_time.xfs_file_aio_write_checks.xfs_file_buffered_aio_write.xfs_file_write_iter.__vfs_write.vfs_write.SyS_write 1270\n"
		"latency_stats.max.down.xfs_buf_lock._xfs_buf_find.xfs_buf_get_map.xfs_buf_read_map.xfs_trans_read_buf_map.xfs_read_agf.xfs_alloc_read_agf.xfs_alloc_fix_freelist.xfs_free_extent_fix_freelist.xfs_free_extent.xfs_trans_free_extent 487\n"
		"latency_stats.max.max 43118\n"
		"latency_stats.max.nfs_wait_on_request.nfs_updatepage.nfs_write_end.generic_perform_write.__generic_file_write_iter.generic_file_write_iter.nfs_file_write.__vfs_write.vfs_write.SyS_write.entry_SYSCALL_64_fastpath 35015\n"
		"latency_stats.max.wait_on_page_bit.truncate_inode_pages_range.truncate_inode_pages_final.evict.iput.dentry_unlink_inode.__dentry_kill.dput.__fput.____fput.task_work_run.exit_to_usermode_loop 43118\n"
		"latency_stats.sum.__lock_page_killable.filemap_fault.__do_fault.handle_mm_fault.__do_page_fault.do_page_fault.page_fault 5\n"
		"latency_stats.sum.call_rwsem_down_read_failed.xfs_log_commit_cil.__xfs_trans_commit.__xfs_trans_roll.xfs_trans_roll.xfs_itruncate_extents.xfs_free_eofblocks.xfs_release.xfs_file_release.__fput.____fput.task_work_run 2804\n"
		"latency_stats.sum.call_rwsem_down_read_failed.xfs_log_commit_cil.__xfs_trans_commit.xfs_trans_commit.xfs_vn_update_time.file_update_time.xfs_file_aio_write_checks.xfs_file_buffered_aio_write.xfs_file_write_iter.__vfs_write.vfs_write.SyS_write 6884\n"
		"latency_stats.sum.down.xfs_buf_lock._xfs_buf_find.xfs_buf_get_map.xfs_buf_read_map.xfs_trans_read_buf_map.xfs_read_agf.xfs_alloc_read_agf.xfs_alloc_fix_freelist.xfs_free_extent_fix_freelist.xfs_free_extent.xfs_trans_free_extent 1823\n"
		"latency_stats.sum.max 208475\n"
		"latency_stats.sum.nfs_wait_on_request.nfs_updatepage.nfs_write_end.generic_perform_write.__generic_file_write_iter.generic_file_write_iter.nfs_file_write.__vfs_write.vfs_write.SyS_write.entry_SYSCALL_64_fastpath 90790\n"
		"latency_stats.sum.wait_on_page_bit.truncate_inode_pages_range.truncate_inode_pages_final.evict.iput.dentry_unlink_inode.__dentry_kill.dput.__fput.____fput.task_work_run.exit_to_usermode_loop 208475\n";
	struct strbuf raw = STRBUF_INIT, got = STRBUF_INIT;
	struct kd_err err;
	json_t *stats;

	/* An empty first sample, then the records: the last one counts. */
	strbuf_addstr(&raw, "time: 1796001600.0\nLatency Top version : v0.1\n");
	strbuf_addstr(&raw, "time: 1796001603.25\n");
	read_capture("latency_stats", &raw);
	stats = extract("latency_stats", raw.buf, raw.len, &err);
	CHECK(stats != NULL);
	if (stats)
		dump(stats, &got);
	CHECK_STR(got.buf, want);
	json_decref(stats);
	strbuf_release(&raw);
	strbuf_release(&got);
}

/* Times and counts are plain unsigned decimals: strtod's other forms fail. */
static void test_time_bad_values(void)
{
	static const char *const bad[] = { "nan", "-1", "0x10", "1e3", "inf", "" };
	struct kd_err err;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char *line = xasprintf("\tUser time (seconds): %s", bad[i]);
		/* the tab is a blank: messages are printable */
		char *want = xasprintf("bad line ' User time (seconds): %s': expected a number",
				       bad[i]);
		json_t *stats = extract("time", line, strlen(line), &err);

		CHECK(stats == NULL);
		CHECK_STR(err.msg, want);
		json_decref(stats);
		free(line);
		free(want);
	}
}

static void test_time(void)
{
	struct workload_usage usage = { .elapsed = 3723.25 };
	struct strbuf text = STRBUF_INIT;
	struct kd_err err;
	json_t *stats;

	usage.ru.ru_utime.tv_sec = 2;
	usage.ru.ru_utime.tv_usec = 500000;
	usage.ru.ru_stime.tv_usec = 1;
	usage.ru.ru_maxrss = 2048;
	usage.ru.ru_minflt = 87;
	usage.ru.ru_majflt = 3;
	usage.ru.ru_nvcsw = 11;
	usage.ru.ru_nivcsw = 5;
	usage.ru.ru_inblock = 8;
	usage.ru.ru_oublock = 16;
	time_format(&usage, &text);
	CHECK(strstr(text.buf, "\tUser time (seconds): 2.500000\n"));
	CHECK(strstr(text.buf, "\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:02:03.250000\n"));
	stats = extract("time", text.buf, text.len, &err);
	CHECK(stats != NULL);
	CHECK(value(stats, "time.user_time") == 2.5);
	CHECK(value(stats, "time.system_time") == 0.000001);
	CHECK(value(stats, "time.elapsed_time") == 3723.25);
	CHECK(value(stats, "time.percent_of_cpu_this_job_got") == 0);
	CHECK(value(stats, "time.maximum_resident_set_size") == 2048);
	CHECK(value(stats, "time.minor_page_faults") == 87);
	CHECK(value(stats, "time.major_page_faults") == 3);
	CHECK(value(stats, "time.voluntary_context_switches") == 11);
	CHECK(value(stats, "time.involuntary_context_switches") == 5);
	CHECK(value(stats, "time.file_system_inputs") == 8);
	CHECK(value(stats, "time.file_system_outputs") == 16);
	json_decref(stats);
	strbuf_release(&text);

	/* What GNU time itself writes, as LKP stores it. */
	strbuf_addstr(&text,
		      "\tCommand being timed: \"sleep 1\"\n"
		      "\tUser time (seconds): 0.01\n"
		      "\tPercent of CPU this job got: 99%\n"
		      "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:01.50\n");
	stats = extract("time", text.buf, text.len, &err);
	CHECK(stats && json_object_size(stats) == 3);
	CHECK(value(stats, "time.percent_of_cpu_this_job_got") == 99);
	CHECK(value(stats, "time.elapsed_time") == 1.5);
	json_decref(stats);
	strbuf_release(&text);
	test_time_bad_values();
}

/* "metric value" lines (or "metric: value") into an object. */
static json_t *read_expected(const char *name)
{
	struct strbuf text = STRBUF_INIT;
	json_t *want = json_object();
	char *line, *save = NULL;

	read_capture(name, &text);
	for (line = strtok_r(text.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sep = strrchr(line, ' ');

		if (!sep)
			continue;
		*sep = '\0';
		if (sep > line && sep[-1] == ':')
			sep[-1] = '\0';
		json_object_set_new(want, line, json_real(strtod(sep + 1, NULL)));
	}
	strbuf_release(&text);
	return want;
}

/* Every metric of want in got, and no other, within tol (relative). */
static void check_same(json_t *got, json_t *want, double tol)
{
	const char *key;
	json_t *v;

	json_object_foreach(want, key, v) {
		json_t *g = json_object_get(got, key);

		if (!g)
			fprintf(stderr, "missing %s\n", key);
		CHECK(g);
		if (g)
			CHECK_NEAR(json_number_value(g), json_number_value(v),
				   tol);
	}
	json_object_foreach(got, key, v)
		if (!json_object_get(want, key)) {
			fprintf(stderr, "unexpected %s\n", key);
			CHECK(!"a metric not expected");
		}
}

/*
 * perf report's text of a system-wide profile taken here while creat-clo
 * ran (testdata/monitors/perf-profile.gz), against what lkp-tests' own
 * perf-profile parser made of it (expected-perf-profile.txt, see the
 * README): the same metrics, the same values.
 */
static void test_perf_profile(void)
{
	struct strbuf raw = STRBUF_INIT;
	json_t *stats = json_object(), *want = read_expected("expected-perf-profile.txt");
	struct kd_err err = { .msg = "" };
	const char *key;
	json_t *v;
	double self = 0;

	read_capture("perf-profile.gz", &raw);
	CHECK(monitor_extract(monitor_find("perf-profile"), raw.buf, raw.len, stats,
						      &err) == 0);
	check_same(stats, want, 1e-12);
	json_object_foreach(stats, key, v)
		if (!strncmp(key, "perf-profile.self.", 18))
			self += json_number_value(v);
	/* Others' builds ran too: a long tail below 0.05 each. */
	CHECK(self > 75 && self <= 100.5);
	CHECK(value(stats, "perf-profile.children.cycles-pp.do_sys_openat2") > 1);
	CHECK(metric_is_percent(metric_catalogue_default(), "perf-profile.self.cycles-pp.do_sys_openat2"));
	/* No "# Samples:" line: not perf report's text, nothing counted. */
	json_object_clear(stats);
	CHECK(monitor_extract(monitor_find("perf-profile"), " 5.00%  5.00%  [kernel]  [k] x\n",
						      31, stats, &err) == 0);
	CHECK(json_object_size(stats) == 0);
	json_decref(want);
	json_decref(stats);
	strbuf_release(&raw);
}

/*
 * perf stat -x , -I of a machine with a PMU (written by hand, see the
 * README): the per-interval and per-second counts and LKP's ratios, as
 * expected.py computes them.
 */
static void test_perf_stat(void)
{
	struct strbuf raw = STRBUF_INIT;
	json_t *stats = json_object();
	json_t *want = read_expected("expected-perf-stat-pmu.txt");
	struct kd_err err = { .msg = "" };

	read_capture("perf-stat-pmu", &raw);
	CHECK(monitor_extract(monitor_find("perf-stat"), raw.buf, raw.len, stats,
						   &err) == 0);
	check_same(stats, want, 1e-12);
	CHECK_NEAR(value(stats, "perf-stat.overall.ipc"), 1.4, 1e-12);
	CHECK(metric_direction(metric_catalogue_default(), "perf-stat.overall.ipc") == 1);
	json_object_clear(stats);
	CHECK(monitor_extract(monitor_find("perf-stat"), " 1.0,x,,cs,1,100.00,,\n", 22,
						   stats, &err) == -1);
	CHECK_STR(err.msg, "bad line ' 1.0,x,,cs,1,100.00,,': expected a count");
	json_decref(want);
	json_decref(stats);
	strbuf_release(&raw);
}

int main(void)
{
	test_metric_kind();
	test_series();
	test_raw_samples();
	test_raw_epochs();
	test_unterminated();
	test_proc_vmstat();
	test_slabinfo();
	test_meminfo();
	test_vmstat();
	test_latency_stats();
	test_time();
	test_perf_profile();
	test_perf_stat();
	return check_done();
}
