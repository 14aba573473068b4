// SPDX-License-Identifier: GPL-2.0
/* The runner's pieces: the run plan, setup hooks, the machine record. */
#include <stdlib.h>

#include "check.h"
#include "kdelta/machine.h"
#include "kdelta/progress.h"
#include "kdelta/runner.h"
#include "kdelta/util.h"

/* The plan as "A0 B0 A1 ...", warmups as "a0". */
static char *plan_string(const unsigned *runs, size_t n_jobs, size_t n_commits,
			 unsigned warmup)
{
	struct strbuf sb = STRBUF_INIT;
	struct run_step *plan;
	size_t n;

	run_plan(runs, n_jobs, n_commits, warmup, &plan, &n);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%zu:%c%u", i ? " " : "", plan[i].job,
			    (plan[i].warmup ? 'a' : 'A') + (int)plan[i].commit,
			    plan[i].round);
	free(plan);
	return strbuf_detach(&sb);
}

static void test_plan(void)
{
	unsigned runs[] = { 3, 1 };
	char *s;

	s = plan_string(runs, 2, 3, 0);
	CHECK_STR(s, "0:A0 0:B0 0:C0 0:A1 0:B1 0:C1 0:A2 0:B2 0:C2 1:A0 1:B0 1:C0");
	free(s);
	s = plan_string(runs, 1, 2, 1);
	CHECK_STR(s, "0:a0 0:b0 0:A0 0:B0 0:A1 0:B1 0:A2 0:B2");
	free(s);
	s = plan_string(runs, 0, 2, 1);
	CHECK_STR(s, "");
	free(s);
}

static void test_setup_command(void)
{
	char *s = setup_command_expand("make install-{commit} V={commit}; echo",
				       "v6.1-rc1");

	CHECK_STR(s, "make install-'v6.1-rc1' V='v6.1-rc1'; echo");
	free(s);
	s = setup_command_expand("no placeholder {commi}", "x");
	CHECK_STR(s, "no placeholder {commi}");
	free(s);
}

static void test_labels(void)
{
	struct kd_err err;

	CHECK(commit_label_check("abc123", &err) == 0);
	CHECK(commit_label_check("..", &err) < 0);
	CHECK_STR(err.msg, "'..' is not a valid commit label; use a name or a hash");
	CHECK(commit_label_check("", &err) < 0);
}

/* From this machine's /proc/cpuinfo and /proc/meminfo, trimmed. */
static const char cpuinfo[] =
	"processor\t: 0\n"
	"vendor_id\t: GenuineIntel\n"
	"model name\t: Intel(R) Xeon(R) Processor\n"
	"\n"
	"processor\t: 1\n"
	"vendor_id\t: GenuineIntel\n"
	"model name\t: Intel(R) Xeon(R) Processor\n";
static const char meminfo[] =
	"MemTotal:       24684084 kB\n"
	"MemFree:        20093164 kB\n";

static void test_machine(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct machine m = {
		.kernel_release = "6.18.44-fc-v669",
		.kernel_version = "Linux version 6.18.44-fc-v669 (gcc 12) #1 SMP",
	};
	char *s = cpuinfo_model(cpuinfo), *label;

	CHECK_STR(s, "Intel(R) Xeon(R) Processor");
	free(s);
	CHECK(cpuinfo_nr_cpu(cpuinfo) == 2);
	CHECK(meminfo_total(meminfo) == 24684084ULL * 1024);
	format_size_human(&sb, meminfo_total(meminfo));
	CHECK_STR(sb.buf, "24G");	/* 23.5 GiB */
	strbuf_reset(&sb);
	format_size_human(&sb, 1536ULL << 20);
	CHECK_STR(sb.buf, "1.5G");
	strbuf_reset(&sb);
	format_size_human(&sb, 512);
	CHECK_STR(sb.buf, "512");
	strbuf_reset(&sb);
	format_duration(&sb, 3723.4);
	CHECK_STR(sb.buf, "1:02:03");
	strbuf_reset(&sb);
	format_duration(&sb, 65);
	CHECK_STR(sb.buf, "1:05");
	label = kernel_commit_label(&m);
	CHECK(!strncmp(label, "6.18.44-fc-v669-", 16) && strlen(label) == 24);
	free(label);
	strbuf_release(&sb);
}

int main(void)
{
	test_plan();
	test_setup_command();
	test_labels();
	test_machine();
	return check_done();
}
