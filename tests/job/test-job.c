// SPDX-License-Identifier: GPL-2.0
/*
 * Job files: expansion order, multi-document merge, defaults, names, the
 * monitors key, typed getters, round trips, and the real schema's
 * declarations.
 */
#include <stdlib.h>

#include "check.h"
#include "kdelta/util.h"
#include "test-schema.h"

static int load(const char *text, struct job_set *set, struct kd_err *err)
{
	return job_load_string(text, strlen(text), "t.yaml", &test_schema, set,
			       err);
}

/* The jobs' names, one per line. */
static char *names(const struct job_set *set)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < set->n; i++)
		strbuf_addf(&sb, "%s\n", set->jobs[i].name);
	return strbuf_detach(&sb);
}

static void check_names(const char *text, const char *want)
{
	struct job_set set;
	struct kd_err err = { .msg = "" };
	char *got;

	CHECK(load(text, &set, &err) == 0);
	CHECK_STR(err.msg, "");
	got = names(&set);
	CHECK_STR(got, want);
	free(got);
	job_set_release(&set);
}

static void check_error(const char *text, const char *want)
{
	struct job_set set;
	struct kd_err err = { .msg = "" };

	CHECK(load(text, &set, &err) == -1);
	CHECK_STR(err.msg, want);
	CHECK(set.n == 0 && set.jobs == NULL);
}

static void test_aim7_fixture(void)
{
	struct strbuf path = STRBUF_INIT;
	struct job_set set;
	struct kd_err err = { .msg = "" };
	char *got;

	strbuf_addf(&path, "%s/job/aim7-documents.yaml", getenv("TESTDATA"));
	CHECK(job_load_file(path.buf, &test_schema, &set, &err) == 0);
	CHECK_STR(err.msg, "");
	CHECK(set.n == 2 * 3 + 2 + 2 * 2);
	got = names(&set);
	/* lkp-tests' names: the values sorted by their keys. */
	CHECK_STR(got,
		  "1BRD_8G-ext4-300-disk_rd\n1BRD_8G-ext4-300-disk_wrt\n"
		  "1BRD_8G-ext4-300-creat-clo\n1BRD_8G-xfs-300-disk_rd\n"
		  "1BRD_8G-xfs-300-disk_wrt\n1BRD_8G-xfs-300-creat-clo\n"
		  "1BRD_8G-ext4-20-sync_disk_cp\n1BRD_8G-xfs-20-sync_disk_cp\n"
		  "1BRD_8G-ext4-8-disk_src\n1BRD_8G-ext4-16-disk_src\n"
		  "1BRD_8G-xfs-8-disk_src\n1BRD_8G-xfs-16-disk_src\n");
	free(got);
	CHECK(set.jobs[5].document == 0 && set.jobs[6].document == 1 &&
	      set.jobs[11].document == 2);
	CHECK_STR(set.jobs[11].source, path.buf);
	CHECK_STR(job_workload(&set.jobs[0]), "aim7");
	CHECK(jnode_int(jnode_get(set.jobs[11].root, "aim7"), "load") == 16);
	/* A later document replaces the section whole: no load of 300. */
	CHECK(jnode_int(jnode_get(set.jobs[7].root, "aim7"), "load") == 20);
	/* Its top-level perf-profile joins the default monitors. */
	CHECK(jnode_int(jnode_get(jnode_get(set.jobs[11].root, "monitors"),
				  "perf-profile"), "delay") == 5);
	CHECK(jnode_get(jnode_get(set.jobs[11].root, "monitors"), "proc-vmstat"));
	CHECK(!jnode_get(set.jobs[11].root, "perf-profile"));
	CHECK(jnode_int(set.jobs[0].root, "runs") == 4);
	job_set_release(&set);
	strbuf_release(&path);
}

static void test_expansion_order(void)
{
	/* The first list varies slowest, wherever the lists are. */
	check_names("fs: [xfs, ext4]\npunch: {file_size: [4k, 1G]}\ndisk: [1BRD_1G, 1BRD_2G]\n",
		    "1BRD_1G-4k-xfs\n1BRD_2G-4k-xfs\n1BRD_1G-1G-xfs\n1BRD_2G-1G-xfs\n"
		    "1BRD_1G-4k-ext4\n1BRD_2G-4k-ext4\n1BRD_1G-1G-ext4\n1BRD_2G-1G-ext4\n");
	/* A list of mappings for a section; lists inside them expand too. */
	check_names("aim7: [{test: a, load: [1, 2]}, {test: b}]\nfs: [xfs, ext4]\ndisk: 1BRD_1G\n",
		    "1BRD_1G-xfs-1-a\n1BRD_1G-ext4-1-a\n1BRD_1G-xfs-2-a\n"
		    "1BRD_1G-ext4-2-a\n1BRD_1G-xfs-b\n1BRD_1G-ext4-b\n");
	/* A list parameter takes its list whole. */
	check_names("exec: {argv: [fio, --rw=write]}\nfs: [xfs, ext4]\ndisk: 1BRD_1G\n",
		    "fio_--rw=write-1BRD_1G-xfs\nfio_--rw=write-1BRD_1G-ext4\n");
	/* Lists in monitor options expand; monitors are not in the name. */
	check_names("monitors: {proc-vmstat: {interval: [1s, 2s]}}\nfs: tmpfs\n",
		    "tmpfs\ntmpfs-2\n");
}

static void test_multi_document(void)
{
	/* Later documents replace a top-level key wholesale, keep the rest. */
	check_names("fs: [xfs, ext4]\npunch: {file_size: 1G, prefill: write}\n"
		    "disk: 1BRD_2G\n"
		    "---\npunch: {file_size: [128k, 256k]}\n---\nfs: btrfs\nruns: 5\n",
		    "1BRD_2G-1G-xfs-write\n1BRD_2G-1G-ext4-write\n"
		    "1BRD_2G-128k-xfs\n1BRD_2G-256k-xfs\n1BRD_2G-128k-ext4\n"
		    "1BRD_2G-256k-ext4\n1BRD_2G-1G-btrfs-write\n");
}

static void test_defaults_and_names(void)
{
	struct job_set set;
	struct kd_err err = { .msg = "" };
	const struct jnode *punch, *env;

	CHECK(load("punch:\nfs: tmpfs\nruns: 5\n", &set, &err) == 0);
	CHECK(set.n == 1);
	CHECK_STR(set.jobs[0].name, "tmpfs");
	CHECK_STR(jnode_str(set.jobs[0].root, "testcase"), "punch");
	CHECK_STR(set.jobs[0].root->keys[0], "testcase");
	punch = jnode_get(set.jobs[0].root, "punch");
	CHECK(punch && punch->kind == JNODE_MAP && punch->n == 4);
	CHECK(jnode_size(punch, "file_size") == 64ULL << 20);
	CHECK_STR(jnode_str(punch, "prefill"), "fallocate");
	CHECK_NEAR(jnode_duration(punch, "duration"), 10, 0);
	CHECK(!jnode_bool(punch, "sync"));
	CHECK(jnode_int(set.jobs[0].root, "runs") == 5);
	CHECK(jnode_str(set.jobs[0].root, "absent") == NULL);
	CHECK(jnode_int(set.jobs[0].root, "absent") == 0);
	job_set_release(&set);

	/* Values equal to their default drop out of the name: 64M is 67108864. */
	check_names("punch: {file_size: 67108864, sync: no, prefill: write}\n",
		    "write\n");
	check_names("fs: tmpfs\n---\nfs: tmpfs\n---\nsuite: x\n",
		    "tmpfs\ntmpfs-2\ntmpfs-3\n");
	check_names("runs: 1\n", "defaults\n");
	check_names("fs_mount_options: [a-2, a, a, a]\nfs: tmpfs\n",
		    "tmpfs-a-2\ntmpfs-a\ntmpfs-a-3\ntmpfs-a-4\n");
	/* A value with blanks, or longer than 32 bytes, stands as a hash. */
	check_names("exec: {argv: [./a b]}\n", "argv-32a98f63\n");
	check_names("exec: {argv: [./a]}\n", "__a\n");

	CHECK(load("exec: {argv: [true]}\n", &set, &err) == 0);
	env = jnode_get(jnode_get(set.jobs[0].root, "exec"), "env");
	CHECK(env && env->kind == JNODE_LIST && env->n == 1 &&
	      !strcmp(env->values[0]->scalar, "LC_ALL=C"));
	job_set_release(&set);
}

static void test_long_name(void)
{
	struct strbuf text = STRBUF_INIT;
	struct job_set set;
	struct kd_err err = { .msg = "" };

	strbuf_addstr(&text, "suite: x\nfs_mount_options: [");
	for (int i = 0; i < 2; i++) {
		strbuf_addstr(&text, i ? ", " : "");
		strbuf_addchars(&text, 'o', 300);
		strbuf_addf(&text, "%d", i);
	}
	strbuf_addstr(&text, "]\nfs: tmpfs\n");
	CHECK(load(text.buf, &set, &err) == 0);
	CHECK(set.n == 2);
	/* Long values stand as "<key>-<hash>": short, and still distinct. */
	CHECK(!strncmp(set.jobs[0].name, "tmpfs-fs_mount_options-", 23) &&
	      strlen(set.jobs[0].name) == 23 + 8);
	CHECK(!strncmp(set.jobs[1].name, "tmpfs-fs_mount_options-", 23) &&
	      strlen(set.jobs[1].name) == 23 + 8);
	CHECK(strcmp(set.jobs[0].name, set.jobs[1].name));
	job_set_release(&set);
	strbuf_release(&text);
}

static void test_monitors(void)
{
	struct job_set set;
	struct kd_err err = { .msg = "" };
	const struct jnode *m;

	CHECK(load("monitors: [perf-profile, proc-vmstat]\n", &set, &err) == 0);
	m = jnode_get(set.jobs[0].root, "monitors");
	CHECK(m && m->kind == JNODE_MAP && m->n == 2);
	CHECK_STR(m->keys[0], "perf-profile");
	CHECK(jnode_int(jnode_get(m, "perf-profile"), "delay") == 0);
	CHECK_NEAR(jnode_duration(jnode_get(m, "proc-vmstat"), "interval"), 1, 0);
	job_set_release(&set);

	CHECK(load("monitors:\n", &set, &err) == 0);
	m = jnode_get(set.jobs[0].root, "monitors");
	CHECK(m && m->kind == JNODE_MAP && m->n == 0);
	job_set_release(&set);

	CHECK(load("monitors: {proc-vmstat: ~}\n", &set, &err) == 0);
	m = jnode_get(jnode_get(set.jobs[0].root, "monitors"), "proc-vmstat");
	CHECK(m && m->kind == JNODE_MAP && m->n == 1);
	job_set_release(&set);

	check_error("monitors: [proc-vmstat, proc-vmstt]\n",
		    "t.yaml:1:25: unknown monitor 'proc-vmstt'; did you mean 'proc-vmstat'?");
	check_error("monitors: {sar: }\n",
		    "t.yaml:1:12: unknown monitor 'sar'; see kdelta-job(5) for the monitors");
	check_error("monitors: {proc-vmstat: {interval: fast}}\n",
		    "t.yaml:1:36: monitors.proc-vmstat.interval: expected a duration like 10, 300s, 5m, 1h or 0.5s, got 'fast'");
	check_error("monitors: {proc-vmstat: {intreval: 1s}}\n",
		    "t.yaml:1:26: unknown parameter 'intreval' in monitors.proc-vmstat; did you mean 'interval'?");
	check_error("monitors: [proc-vmstat, proc-vmstat]\n",
		    "t.yaml:1:25: monitors: 'proc-vmstat' is listed twice");
	check_error("monitors: 3\n",
		    "t.yaml:1:11: monitors: expected a list of monitor names or a mapping of monitor options");
}

/* The keys of a map, joined by ',' */
static char *keys_of(const struct jnode *map)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; map && i < map->n; i++)
		strbuf_addf(&sb, "%s%s", i ? "," : "", map->keys[i]);
	return strbuf_detach(&sb);
}

static void check_monitor_keys(const char *text, const char *want)
{
	struct job_set set;
	struct kd_err err = { .msg = "" };
	char *got;

	CHECK(load(text, &set, &err) == 0);
	CHECK_STR(err.msg, "");
	for (size_t i = 0; i < set.n; i++) {
		CHECK(!jnode_get(set.jobs[i].root, "perf-profile"));
		got = keys_of(jnode_get(set.jobs[i].root, "monitors"));
		CHECK_STR(got, want);
		free(got);
	}
	job_set_release(&set);
}

/* LKP's monitors at the top level join the monitors key. */
static void test_top_level_monitors(void)
{
	struct job_set set;
	struct kd_err err = { .msg = "" };
	const struct jnode *m;

	/* No monitors key: the defaults (all of the test schema's) and it. */
	check_monitor_keys("perf-profile: {delay: 15}\nfs: tmpfs\n",
			   "proc-vmstat,perf-profile");
	check_monitor_keys("perf-profile:\nmonitors: [proc-vmstat]\n",
			   "proc-vmstat,perf-profile");
	check_monitor_keys("monitors: {proc-vmstat: {interval: 2s}}\nperf-profile: {}\n",
			   "proc-vmstat,perf-profile");
	/* "monitors:" with nothing runs none: only the one named. */
	check_monitor_keys("monitors:\nperf-profile: {}\n", "perf-profile");
	/* A default monitor with options of its own replaces its default. */
	CHECK(load("proc-vmstat: {interval: [2s, 3s]}\n", &set, &err) == 0);
	CHECK(set.n == 2);
	m = jnode_get(set.n == 2 ? set.jobs[1].root : NULL, "monitors");
	CHECK(m && m->n == 2);
	CHECK_NEAR(jnode_duration(jnode_get(m, "proc-vmstat"), "interval"), 3, 0);
	CHECK(jnode_int(jnode_get(m, "perf-profile"), "delay") == 0);
	job_set_release(&set);
	/* In every document: the later ones keep the first one's. */
	check_monitor_keys("perf-profile: {delay: 5}\nmonitors: []\n---\nfs: tmpfs\n",
			   "perf-profile");
	check_error("monitors: [perf-profile]\nperf-profile: {delay: 1}\n",
		    "t.yaml:2:1: monitor 'perf-profile' is given twice: at the top level and under monitors");
	check_error("perf-profile: {dealy: 1}\n",
		    "t.yaml:1:16: unknown parameter 'dealy' in monitors.perf-profile; did you mean 'delay'?");
	check_error("monitors: [sar]\nperf-profile: {}\n",
		    "t.yaml:1:12: unknown monitor 'sar'; see kdelta-job(5) for the monitors");
	check_error("perf-profle: {}\n",
		    "t.yaml:1:1: unknown parameter 'perf-profle'; did you mean 'perf-profile'?");
}

static void test_errors(void)
{
	check_error("", "t.yaml: empty job file; see kdelta-job(5) for the format");
	check_error("# nothing\n", "t.yaml: empty job file; see kdelta-job(5) for the format");
	check_error("fs: xfs\n---\n---\nruns: 2\n",
		    "t.yaml:3:1: empty YAML document; remove the '---' or add parameters");
	check_error("- fs\n", "t.yaml:1:1: a job document must be a mapping of parameters, like 'fs: xfs'");
	check_error("aim7: {test: a}\npunch:\n",
		    "t.yaml:2:1: second workload section 'punch' after 'aim7'; a job runs one workload");
	check_error("aim7: {load: 3}\n", "t.yaml:1:7: aim7: missing required parameter 'test'");
	check_error("aim7:\n", "t.yaml:1:6: aim7: missing required parameter 'test'");
	check_error("aim7: {test: a, tset: b}\n",
		    "t.yaml:1:17: unknown parameter 'tset' in aim7; did you mean 'test'?");
	check_error("punc: {}\n", "t.yaml:1:1: unknown parameter 'punc'; did you mean 'punch'?");
	check_error("fs: [xfs, [ext4]]\n",
		    "t.yaml:1:11: fs: a list inside a list does not expand; give one list of values");
	check_error("fs: []\n", "t.yaml:1:5: fs: empty list: nothing to expand into");
	check_error("fs: {a: b}\n", "t.yaml:1:5: fs: expected a choice, not a mapping");
	check_error("fs: [xfs, zfs]\n",
		    "t.yaml:1:11: fs: 'zfs' is not built into kdelta, which has xfs, ext4, btrfs, tmpfs");
	/* lkp-tests' other disks and what kdelta has not: not built in. */
	check_error("disk: 1HDD\n",
		    "t.yaml:1:7: disk: '1HDD' is not built into kdelta, which makes RAM disks: <N>BRD_<size>, like 1BRD_48G");
	check_error("fio: {rw: read}\n",
		    "t.yaml:1:1: section 'fio' is not built into kdelta: no workload or monitor of kdelta has that name; an 'exec' job can run a benchmark, see kdelta-job(5)");
	check_error("runtime: 300s\npts:\n  - test: a\n  - test: b\n",
		    "t.yaml:2:1: section 'pts' is not built into kdelta: no workload or monitor of kdelta has that name; an 'exec' job can run a benchmark, see kdelta-job(5)");
	/* A scalar is a parameter; a name close to one is misspelt. */
	check_error("pts: 3\n", "t.yaml:1:1: unknown parameter 'pts'; see kdelta-job(5)");
	check_error("aim8: {test: a}\n", "t.yaml:1:1: unknown parameter 'aim8'; did you mean 'aim7'?");
	check_error("runs: 0\n", "t.yaml:1:7: runs: expected at least 1, got '0'");
	check_error("disk: 48G\n", "t.yaml:1:7: disk: expected <N>BRD_<size>, like 1BRD_48G or 4BRD_12G, got '48G'");
	check_error("disk: 1BRD_0\n", "t.yaml:1:7: disk: expected <N>BRD_<size> with N from 1 to 32, like 1BRD_48G or 4BRD_12G, got '1BRD_0'");
	check_error("disk: 33BRD_1G\n", "t.yaml:1:7: disk: expected <N>BRD_<size> with N from 1 to 32, like 1BRD_48G or 4BRD_12G, got '33BRD_1G'");
	check_error("exec: {argv: ls}\n", "t.yaml:1:14: exec.argv: expected a list, like [a, b]");
	check_error("exec: {argv: [[ls]]}\n", "t.yaml:1:15: exec.argv: expected a list of plain values");
	check_error("machine: 3\n", "t.yaml:1:10: machine: expected a mapping");
	check_error("aim7: 3\n", "t.yaml:1:7: aim7: expected a mapping of parameters");
	check_error("fs: xfs\nfs: ext4\n", "t.yaml:2:1: duplicate key 'fs' (first at line 1)");
	check_error("? [a]\n: b\n", "t.yaml:1:3: a key must be a plain name, not a list or a mapping");
	check_error("fs: *x\n", "t.yaml:1:5: YAML aliases (*name) are not allowed in job files; write the values out");
	check_error("punch: {duration: [1s, x]}\n",
		    "t.yaml:1:24: punch.duration: expected a duration like 10, 300s, 5m, 1h or 0.5s, got 'x'");
	check_error("fs: xfs\n---\nfs: zfs\n",
		    "t.yaml:3:5: fs: 'zfs' is not built into kdelta, which has xfs, ext4, btrfs, tmpfs");
	check_error("a: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n",
		    "t.yaml:1:35: nested too deeply for a job file");
}

/* A mapping of 257 keys is refused at the 257th, a full one of 256 is not. */
static void test_key_cap(void)
{
	struct strbuf text = STRBUF_INIT;
	struct job_set set;
	struct kd_err err = { .msg = "" };

	strbuf_addstr(&text, "punch: {");
	for (int i = 0; i < 256; i++)
		strbuf_addf(&text, "%sk%d: 1", i ? ", " : "", i);
	strbuf_addstr(&text, "}\n");
	/* past the cap: the keys are unknown, not too many */
	CHECK(load(text.buf, &set, &err) == -1);
	CHECK_STR(err.msg, "t.yaml:1:9: unknown parameter 'k0' in punch; see kdelta-job(5)");
	strbuf_setlen(&text, text.len - 2);
	strbuf_addstr(&text, ", k256: 1}\n");
	check_error(text.buf,
		    "t.yaml:1:2203: more than 256 keys in one mapping; no job file needs that many");
	strbuf_release(&text);
}

static void test_cap(void)
{
	struct strbuf text = STRBUF_INIT;
	const char *keys[] = { "suite", "category", "fs_mount_options" };
	static const struct { const char *key, *format, *end; } wide[] = {
		{ "suite: ", "%sv%d", "]\n" },
		{ "category: ", "%sv%d", "]\n" },
		{ "fs_mount_options: ", "%sv%d", "]\n" },
		{ "testcase: ", "%sv%d", "]\n" },
		{ "commit: ", "%sv%d", "]\n" },
		{ "host: ", "%sv%d", "]\n" },
		{ "runs: ", "%s%d", "]\n" },
		{ "disk: ", "%s1BRD_%dG", "]\n" },
		{ "punch: {file_size: ", "%s%dk", "]" },
		{ ", duration: ", "%s%ds", "]}\n" },
		{ "monitors: {proc-vmstat: {interval: ", "%s%ds", "]}" },
		{ ", perf-profile: {delay: ", "%s%d", "]}}\n" },
	};

	for (size_t k = 0; k < 3; k++) {
		strbuf_addf(&text, "%s: [", keys[k]);
		for (int i = 0; i < 22; i++)
			strbuf_addf(&text, "%sv%d", i ? ", " : "", i);
		strbuf_addstr(&text, "]\n");
	}
	check_error(text.buf,
		    "t.yaml: expands to 10648 jobs, more than the limit of 10000; use fewer or shorter lists");
	/* 50^12 jobs, over 2^64: the count must saturate, not wrap. */
	strbuf_reset(&text);
	for (size_t k = 0; k < ARRAY_SIZE(wide); k++) {
		strbuf_addf(&text, "%s[", wide[k].key);
		for (int i = 1; i <= 50; i++)
			strbuf_addf(&text, wide[k].format, i > 1 ? ", " : "", i);
		strbuf_addstr(&text, wide[k].end);
	}
	check_error(text.buf,
		    "t.yaml: expands to more than 2^64 jobs, more than the limit of 10000; use fewer or shorter lists");
	strbuf_release(&text);
}

static void test_round_trip(void)
{
	struct job_set set, again;
	struct kd_err err = { .msg = "" };

	CHECK(load("fs: [xfs, ext4]\nsuite: 'a: b #c'\npunch: {file_size: [128k, 1G]}\n"
		   "disk: 1BRD_2G\n"
		   "monitors: [proc-vmstat]\nkdelta: {argv: [x, '', 'yes'], m: {}}\n",
		   &set, &err) == 0);
	CHECK(set.n == 4);
	for (size_t i = 0; i < set.n; i++) {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

		job_to_yaml(set.jobs[i].root, &a);
		CHECK(load(a.buf, &again, &err) == 0);
		CHECK(again.n == 1);
		if (again.n == 1) {
			CHECK_STR(again.jobs[0].name, set.jobs[i].name);
			job_to_yaml(again.jobs[0].root, &b);
			CHECK_STR(b.buf, a.buf);
		}
		job_set_release(&again);
		strbuf_release(&a);
		strbuf_release(&b);
	}
	job_set_release(&set);
}

/*
 * A string of several lines is written as a literal block, which reads back
 * as the same string: with its final line break or without, with blank and
 * indented lines.  One that a block cannot hold (a carriage return,
 * trailing blanks) is double-quoted.  Text that looks like lkp-tests'
 * "{{ ... }}" inside a block or a quoted string is text, not a template.
 */
static void test_multi_line_round_trip(void)
{
	static const char *const values[] = {
		"set -e\necho one\n",
		"a\n\n  b",
		"  indented\nx\n\n",
		"trailing \nx",
		"cr\r\nlf",
		"echo\n{{ x }}\n",
		"{{ x }}",
		"a, {{b}}",
		"- {{ c }}\n  {{d}}: e\n",
		"x: {{y}}",
		"[{{z}}]",
		"&a *a #c '\" %!@`|>",
	};
	struct jnode *map = jnode_new_map();
	struct strbuf yaml = STRBUF_INIT;
	struct job_set set;
	struct kd_err err = { .msg = "" };

	jnode_set(map, "suite", jnode_new_scalar(values[0]));
	job_to_yaml(map, &yaml);
	CHECK_STR(yaml.buf, "suite: |\n  set -e\n  echo one\n");
	for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
		jnode_set(map, "suite", jnode_new_scalar(values[i]));
		strbuf_reset(&yaml);
		job_to_yaml(map, &yaml);
		CHECK(load(yaml.buf, &set, &err) == 0);
		CHECK(set.n == 1);
		if (set.n == 1)
			CHECK_STR(jnode_str(set.jobs[0].root, "suite"), values[i]);
		job_set_release(&set);
	}
	strbuf_release(&yaml);
	jnode_free(map);
}

/* The value of suite in the one job text loads to. */
static void check_suite(const char *text, const char *want)
{
	struct job_set set;
	struct kd_err err = { .msg = "" };

	CHECK(load(text, &set, &err) == 0);
	CHECK_STR(err.msg, "");
	CHECK(set.n == 1);
	if (set.n == 1)
		CHECK_STR(jnode_str(set.jobs[0].root, "suite"), want);
	job_set_release(&set);
}

/*
 * '{{ }}' expressions: found as YAML reads them, wherever they stand, and
 * evaluated with Ruby's rules as the job expands (each value here is what
 * Ruby 3.1 gives for the same expression).
 */
static void test_expressions(void)
{
	struct job_set set;
	struct kd_err err = { .msg = "" };

	check_suite("suite: {{ 1 + 1 }}\n", "2");
	check_suite("suite: [{{ 7 / -2 }}]\n", "-4");
	check_suite("suite: {{ -7 % 3 }}\n", "2");
	check_suite("suite: {{ 'a' + \"b\\tc\" }}\n", "ab\tc");
	check_suite("fs: xfs\ndisk: 1BRD_1G\nsuite: {{ fs =~ /ext4|xfs/ ? '1000n' : '4000n' }}\n",
		    "1000n");
	check_suite("fs: tmpfs\nsuite: {{ fs !~ /ext4|xfs/ && 'y' }}\n", "y");
	check_suite("fs: tmpfs\nsuite: {{ nil || fs == 'xfs' }}\n", "false");
	check_suite("fs: tmpfs\nsuite: {{\n  case fs\n  when 'xfs', 'tmpfs' then 10\n  else 20\n  end\n}}\n",
		    "10");
	check_suite("fs: tmpfs\nsuite: {{ if fs == 'xfs'\n 1\n elsif not fs == 'ext4' then 2 else 3 end }}\n",
		    "2");
	check_suite("runs: 3\nsuite: {{ runs * 2 > 5 and runs < 4 }}\n", "true");
	check_suite("fs: tmpfs\nsuite: {{ case fs when /^tmp/ then 'tmp' end }}\n",
		    "tmp");
	check_suite("suite: {{ (1 + 2) * 3 # a comment\n}}\n", "9");
	/* The lists before an expression are expanded; nil drops the job. */
	CHECK(load("fs: [xfs, tmpfs, ext4]\ndisk: 1BRD_1G\n"
		   "suite: {{ fs == 'tmpfs' ? nil : fs }}\n", &set, &err) == 0);
	CHECK(set.n == 2);
	if (set.n == 2) {
		CHECK_STR(jnode_str(set.jobs[0].root, "suite"), "xfs");
		CHECK_STR(jnode_str(set.jobs[1].root, "suite"), "ext4");
	}
	job_set_release(&set);
	/* Evaluated values are checked as written ones are. */
	check_error("runs: {{ 'x' }}\n",
		    "t.yaml:1:7: runs: expected an integer, got 'x'");
	check_error("suite: {{ nil }}\n",
		    "t.yaml: every job of the file was dropped by a '{{ ... }}' expression that gave nil");
	check_error("suite: {{ nope }}\n",
		    "t.yaml:1:11: '{{ }}': 'nope' is not a parameter of this job");
	check_error("suite: {{ fs }}\nfs: [xfs]\n",
		    "t.yaml:1:11: '{{ }}': 'fs' is a list that has not expanded yet; put it before the expression in the file");
	check_error("suite: {{\n  x.each\n}}\n",
		    "t.yaml:2:3: '{{ }}': 'x.each' is not a parameter of this job");
	check_error("fs: tmpfs\nsuite: {{\n  fs.upcase\n}}\n",
		    "t.yaml:3:6: '{{ }}': a Ruby method call is not built into kdelta's '{{ }}' expressions (EXPRESSIONS in kdelta-job(5))");
	check_error("suite: {{ while 1 }}\n",
		    "t.yaml:1:11: '{{ }}': Ruby's 'while' is not built into kdelta's '{{ }}' expressions (EXPRESSIONS in kdelta-job(5))");
	check_error("suite: {{ \"#{1}\" }}\n",
		    "t.yaml:1:12: '{{ }}': Ruby's string interpolation #{...} is not built into kdelta's '{{ }}' expressions (EXPRESSIONS in kdelta-job(5))");
	check_error("suite: {{ 1 / 0 }}\n",
		    "t.yaml:1:13: '{{ }}': division by zero");
	check_error("suite: {{ 'a' < 1 }}\n",
		    "t.yaml:1:15: '{{ }}': '<' of text and an integer");
	check_error("suite: {{ if 1 then 2 }}\n",
		    "t.yaml:1:11: '{{ }}': expected 'end'");
	check_error("suite: {{ 1 }} x\n",
		    "t.yaml:1:8: text after a '{{ ... }}' expression; the whole value must be the expression");
	check_error("suite: {{ 1\n",
		    "t.yaml:1:8: '{{' without its '}}'");
	check_error("{{ a }}: 1\n",
		    "t.yaml:1:1: a '{{ ... }}' expression cannot be a key");
	/* Text that holds "{{" is text. */
	CHECK(load("suite: '{{x}}'\ncategory: \"a, {{b}}\"\n", &set, &err) == 0);
	job_set_release(&set);
	CHECK(load("suite: |\n  a\n  {{b}}\n", &set, &err) == 0);
	job_set_release(&set);
	/* "{ {": two flow mappings, not an expression (and not a job either). */
	CHECK(load("suite: { {a: b}: c}\n", &set, &err) == -1);
	CHECK(!strstr(err.msg, "'{{"));
}

static void test_node_api(void)
{
	struct jnode *map = jnode_new_map(), *copy;
	struct strbuf yaml = STRBUF_INIT;

	jnode_set(map, "commit", jnode_new_scalar("abc"));
	jnode_set(map, "host", jnode_new_scalar("box"));
	jnode_set(map, "commit", jnode_new_scalar("def"));
	CHECK(map->n == 2);
	copy = jnode_clone(map);
	jnode_set(map, "host", jnode_new_map());
	CHECK_STR(jnode_str(copy, "host"), "box");
	CHECK(jnode_str(map, "host") == NULL);
	job_to_yaml(copy, &yaml);
	CHECK_STR(yaml.buf, "commit: def\nhost: box\n");
	strbuf_release(&yaml);
	jnode_free(copy);
	jnode_free(map);
}

/* Bounds are of a bounded type, parse as it, and hold the default. */
static void check_bounds_declared(const char *section,
				  const struct param_spec *p)
{
	const char *bounds[] = { p->min, p->max };
	struct param_spec unbounded = *p;
	struct kd_err err = { .msg = "" };

	unbounded.min = unbounded.max = NULL;
	unbounded.check = NULL;
	for (size_t i = 0; i < 2; i++) {
		if (!bounds[i])
			continue;
		CHECK(p->type == PARAM_INT || p->type == PARAM_SIZE ||
		      p->type == PARAM_DURATION);
		if (param_check(&unbounded, bounds[i], &err))
			fprintf(stderr, "%s.%s: bound: %s\n", section, p->name,
				err.msg);
		CHECK(!*err.msg);
	}
	CHECK(!p->choices_are || p->type == PARAM_CHOICE);
}

/* Every declaration of the binary's schema is sound (the other engineers'). */
static void test_default_schema(void)
{
	const struct job_schema *schema = job_schema_default();
	const struct param_section *const *lists[] = { schema->workloads,
						       schema->monitors };

	CHECK(job_schema_default() == schema);
	CHECK(schema->common == &job_common_section);
	for (size_t l = 0; l < 2; l++) {
		for (size_t s = 0; lists[l][s]; s++) {
			const struct param_section *section = lists[l][s];

			CHECK(section->summary && *section->summary);
			CHECK(!param_find(schema->common->params, section->name));
			CHECK(strcmp(section->name, "monitors"));
			for (const struct param_spec *p = section->params;
			     p && p->name; p++) {
				struct kd_err err = { .msg = "" };

				CHECK(p->help && *p->help);
				if (p->def && p->type != PARAM_LIST &&
				    p->type != PARAM_MAP &&
				    param_check(p, p->def, &err))
					fprintf(stderr, "%s.%s: default: %s\n",
						section->name, p->name, err.msg);
				CHECK(!*err.msg);
				CHECK(p->type != PARAM_CHOICE || p->choices);
				check_bounds_declared(section->name, p);
			}
		}
	}
	for (const struct param_spec *p = schema->common->params; p->name; p++) {
		CHECK(p->help && *p->help);
		check_bounds_declared("common", p);
	}
	/* A top-level key names one thing: a parameter, a workload or a monitor. */
	for (size_t m = 0; schema->monitors[m]; m++)
		for (size_t w = 0; schema->workloads[w]; w++)
			CHECK(strcmp(schema->monitors[m]->name,
				     schema->workloads[w]->name));
	/* A renamed key names nothing now: its error cannot hide a key. */
	for (size_t w = 0; schema->workloads[w]; w++)
		for (const struct param_renamed *r = schema->workloads[w]->renamed;
		     r && r->old; r++) {
			CHECK(!param_find(schema->common->params, r->old));
			for (size_t v = 0; schema->workloads[v]; v++)
				CHECK(strcmp(schema->workloads[v]->name, r->old));
			for (size_t m = 0; schema->monitors[m]; m++)
				CHECK(strcmp(schema->monitors[m]->name, r->old));
		}
	for (size_t m = 0; schema->monitors[m]; m++)
		CHECK(!param_find(schema->common->params, schema->monitors[m]->name));
	for (size_t d = 0; schema->default_monitors[d]; d++) {
		bool known = false;

		for (size_t m = 0; schema->monitors[m]; m++)
			known |= schema->default_monitors[d] == schema->monitors[m];
		CHECK(known);
	}
}

int main(void)
{
	test_aim7_fixture();
	test_expansion_order();
	test_multi_document();
	test_defaults_and_names();
	test_long_name();
	test_monitors();
	test_top_level_monitors();
	test_errors();
	test_cap();
	test_key_cap();
	test_round_trip();
	test_multi_line_round_trip();
	test_expressions();
	test_node_api();
	test_default_schema();
	return check_done();
}
