// SPDX-License-Identifier: GPL-2.0
/* cpufreq governors set and put back, on a tree shaped like sysfs. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "kdelta/cpufreq.h"
#include "kdelta/util.h"

static void put(const char *root, const char *cpu, const char *name,
		const char *text)
{
	char *dir = xasprintf("%s/%s/cpufreq", root, cpu);
	char *path = xasprintf("%s/%s", dir, name);
	struct kd_err err;

	CHECK(mkdir_p(dir, &err) == 0);
	CHECK(write_file_atomic(path, text, strlen(text), &err) == 0);
	free(path);
	free(dir);
}

static char *governor(const char *root, const char *cpu)
{
	char *path = xasprintf("%s/%s/cpufreq/scaling_governor", root, cpu);
	struct strbuf sb = STRBUF_INIT;

	CHECK(read_file(path, &sb, NULL) == 0);
	strbuf_rtrim(&sb);
	free(path);
	return strbuf_detach(&sb);
}

static void check_governors(const char *root, const char *cpu0,
			    const char *cpu1)
{
	char *g0 = governor(root, "cpu0"), *g1 = governor(root, "cpu1");

	CHECK_STR(g0, cpu0);
	CHECK_STR(g1, cpu1);
	free(g0);
	free(g1);
}

int main(void)
{
	char root[] = "/tmp/kdelta-cpufreq.XXXXXX";
	struct cpufreq_saved saved;
	struct kd_err err = { .msg = "" };
	char *want, *cmd;

	CHECK(mkdtemp(root) != NULL);
	/* No cpufreq at all: 1, and why. */
	CHECK(cpufreq_set(root, "performance", &saved, &err) == 1);
	want = xasprintf("the machine has no cpufreq (no %s/cpu*/cpufreq)", root);
	CHECK_STR(err.msg, want);
	free(want);
	CHECK(saved.n == 0);

	put(root, "cpu0", "scaling_governor", "schedutil\n");
	put(root, "cpu0", "scaling_available_governors", "performance schedutil\n");
	put(root, "cpu1", "scaling_governor", "powersave\n");
	put(root, "cpu1", "scaling_available_governors", "performance powersave\n");
	/* Set on every CPU, then each one's own put back. */
	CHECK(cpufreq_set(root, "performance", &saved, &err) == 0);
	check_governors(root, "performance", "performance");
	CHECK(saved.n == 2);
	CHECK(cpufreq_restore(&saved, &err) == 0);
	check_governors(root, "schedutil", "powersave");
	CHECK(saved.n == 0);
	/* A governor one CPU lacks: -1, and the other put back. */
	CHECK(cpufreq_set(root, "schedutil", &saved, &err) == -1);
	want = xasprintf("cpufreq_governor: %s/cpu1/cpufreq offers performance powersave, not 'schedutil'",
			 root);
	CHECK_STR(err.msg, want);
	free(want);
	check_governors(root, "schedutil", "powersave");
	CHECK(saved.n == 0);
	cmd = xasprintf("rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
	free(cmd);
	return check_done();
}
