// SPDX-License-Identifier: GPL-2.0
/* The runner's pieces: the run plan, setup hooks, the machine record. */
#include <stdlib.h>

#include "check.h"
#include "kdelta/machine.h"
#include "kdelta/progress.h"
#include "kdelta/runner.h"
#include "kdelta/util.h"

/* The plan as "0:A0 0:B0 0:A1 ...", warmups as "0:a0". */
static char *plan_string(const struct run_plan *plan)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < plan->n; i++)
		strbuf_addf(&sb, "%s%zu:%c%u", i ? " " : "", plan->steps[i].job,
			    (plan->steps[i].warmup ? 'a' : 'A') +
			    (int)plan->steps[i].commit, plan->steps[i].round);
	return strbuf_detach(&sb);
}

static char *plan_of(const unsigned *runs, size_t n_jobs, size_t n_commits,
		     unsigned warmup, enum run_order order, uint64_t seed)
{
	struct run_plan plan;
	char *s;

	run_plan_init(&plan, runs, n_jobs, n_commits, warmup, order, seed);
	s = plan_string(&plan);
	run_plan_release(&plan);
	return s;
}

/* --order fixed: kdelta 0.1's plan, job by job. */
static void test_plan_fixed(void)
{
	unsigned runs[] = { 3, 1 };
	bool more[] = { false, true };
	struct run_plan plan;
	char *s;

	s = plan_of(runs, 2, 3, 0, RUN_ORDER_FIXED, 1);
	CHECK_STR(s, "0:A0 0:B0 0:C0 0:A1 0:B1 0:C1 0:A2 0:B2 0:C2 1:A0 1:B0 1:C0");
	free(s);
	s = plan_of(runs, 1, 2, 1, RUN_ORDER_FIXED, 1);
	CHECK_STR(s, "0:a0 0:b0 0:A0 0:B0 0:A1 0:B1 0:A2 0:B2");
	free(s);
	s = plan_of(runs, 0, 2, 1, RUN_ORDER_FIXED, 1);
	CHECK_STR(s, "");
	free(s);
	/* A round added: the jobs asked for, commits in order. */
	run_plan_init(&plan, runs, 2, 2, 0, RUN_ORDER_FIXED, 1);
	run_plan_add_round(&plan, more);
	s = plan_string(&plan);
	CHECK_STR(s, "0:A0 0:B0 0:A1 0:B1 0:A2 0:B2 1:A0 1:B0 1:A1 1:B1");
	CHECK(plan.runs[0] == 3 && plan.runs[1] == 2);
	free(s);
	run_plan_release(&plan);
}

/*
 * The steps of each round of a shuffled plan: every job (with runs left)
 * and commit once, warmups first; the same seed gives the same order, and
 * the order is not the same in every round.
 */
static void test_plan_shuffled(void)
{
	unsigned runs[] = { 3, 1, 3 };
	bool more[] = { true, false, true };
	struct run_plan plan, again;
	size_t at = 0, orders_seen = 0;
	char *s, *t, first[64] = "";

	run_plan_init(&plan, runs, 3, 2, 2, RUN_ORDER_SHUFFLED, 12345);
	CHECK(plan.n == 2 * 3 * 2 + 3 * 2 + 2 * 2 + 2 * 2);
	for (unsigned round = 0; round < 5; round++) {
		bool warmup = round < 2;
		size_t jobs = warmup || round == 2 ? 3 : 2;
		unsigned seen[3][2] = { { 0 } };
		struct strbuf order = STRBUF_INIT;

		for (size_t k = 0; k < jobs * 2; k++, at++) {
			const struct run_step *st = &plan.steps[at];

			CHECK(st->warmup == warmup);
			CHECK(st->round == (warmup ? round : round - 2));
			CHECK(warmup || round == 2 || st->job != 1);
			seen[st->job][st->commit]++;
			strbuf_addf(&order, "%zu%zu ", st->job, st->commit);
		}
		for (size_t j = 0; j < 3; j++)
			for (size_t c = 0; c < 2; c++)
				CHECK(seen[j][c] == (jobs == 3 || j != 1));
		if (jobs == 3 && strcmp(first, order.buf)) {
			orders_seen++;
			snprintf(first, sizeof(first), "%s", order.buf);
		}
		strbuf_release(&order);
	}
	CHECK(at == plan.n);
	CHECK(orders_seen > 1);		/* 1 in 720^2 for another seed */
	CHECK(plan.runs[0] == 3 && plan.runs[1] == 1 && plan.runs[2] == 3);
	run_plan_add_round(&plan, more);
	CHECK(plan.n == at + 4);
	CHECK(plan.runs[0] == 4 && plan.runs[1] == 1 && plan.runs[2] == 4);
	for (size_t k = at; k < plan.n; k++)
		CHECK(plan.steps[k].job != 1 && plan.steps[k].round == 3);
	s = plan_string(&plan);
	run_plan_init(&again, runs, 3, 2, 2, RUN_ORDER_SHUFFLED, 12345);
	run_plan_add_round(&again, more);
	t = plan_string(&again);
	CHECK_STR(t, s);
	free(t);
	run_plan_release(&again);
	run_plan_init(&again, runs, 3, 2, 2, RUN_ORDER_SHUFFLED, 12346);
	t = plan_string(&again);
	CHECK(strncmp(t, s, strlen(t)));
	free(t);
	free(s);
	run_plan_release(&again);
	run_plan_release(&plan);
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
	test_plan_fixed();
	test_plan_shuffled();
	test_setup_command();
	test_labels();
	test_machine();
	return check_done();
}
