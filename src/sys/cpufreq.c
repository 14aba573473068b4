// SPDX-License-Identifier: GPL-2.0
/*
 * cpufreq governors: what every CPU's scaling_governor says, set for a run
 * and put back after it (Documentation/admin-guide/pm/cpufreq.rst).
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kdelta/cpufreq.h"
#include "kdelta/util.h"

/* A sysfs attribute's one line, without its newline. */
static int read_attr(const char *path, struct strbuf *out, struct kd_err *err)
{
	strbuf_reset(out);
	if (read_file(path, out, err) < 0)
		return -1;
	strbuf_rtrim(out);
	return 0;
}

/* sysfs takes a value in one write(2), and says no there. */
static int write_attr(const char *path, const char *value, struct kd_err *err)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;
	int e;

	if (fd < 0)
		return kd_error(err, "%s: %s", path, strerror(errno));
	n = write(fd, value, strlen(value));
	e = errno;
	close(fd);
	if (n != (ssize_t)strlen(value))
		return kd_error(err, "%s: cannot write '%s': %s", path, value,
				n < 0 ? strerror(e) : "short write");
	return 0;
}

/* Whether a CPU offers the governor: a word of scaling_available_governors. */
static int check_offered(const char *governor_path, const char *governor,
			 struct kd_err *err)
{
	char *dir = xstrndup(governor_path,
			     (size_t)(strrchr(governor_path, '/') - governor_path));
	char *path = xasprintf("%s/scaling_available_governors", dir);
	struct strbuf list = STRBUF_INIT;
	int ret = 0;

	/* Without the list, writing the governor is the test. */
	if (path_exists(path) && read_attr(path, &list, err) == 0) {
		char *words = xstrdup(list.buf), *save = NULL, *word;
		bool found = false;

		for (word = strtok_r(words, " \t", &save); word && !found;
		     word = strtok_r(NULL, " \t", &save))
			found = !strcmp(word, governor);
		if (!found)
			ret = kd_error(err, "cpufreq_governor: %s offers %s, not '%s'",
				       dir, list.buf, governor);
		free(words);
	}
	strbuf_release(&list);
	free(path);
	free(dir);
	return ret;
}

/* Saves path's governor and sets the new one. */
static int set_one(const char *path, const char *governor,
		   struct cpufreq_saved *saved, struct kd_err *err)
{
	struct strbuf old = STRBUF_INIT;

	if (check_offered(path, governor, err) < 0 ||
	    read_attr(path, &old, err) < 0) {
		strbuf_release(&old);
		return -1;
	}
	if (strcmp(old.buf, governor) &&
	    write_attr(path, governor, err) < 0) {
		strbuf_release(&old);
		return kd_error_prefix(err, "cpufreq_governor");
	}
	saved->paths = xreallocarray(saved->paths, saved->n + 1,
				     sizeof(*saved->paths));
	saved->governors = xreallocarray(saved->governors, saved->n + 1,
					 sizeof(*saved->governors));
	saved->paths[saved->n] = xstrdup(path);
	saved->governors[saved->n++] = strbuf_detach(&old);
	return 0;
}

int cpufreq_set(const char *root, const char *governor,
		struct cpufreq_saved *saved, struct kd_err *err)
{
	char *pattern = xasprintf("%s/cpu[0-9]*/cpufreq/scaling_governor", root);
	glob_t g;
	int ret = 0;

	*saved = (struct cpufreq_saved){ 0 };
	if (glob(pattern, 0, NULL, &g)) {
		kd_error(err, "the machine has no cpufreq (no %s/cpu*/cpufreq)",
			 root);
		free(pattern);
		return 1;
	}
	for (size_t i = 0; i < g.gl_pathc && !ret; i++)
		ret = set_one(g.gl_pathv[i], governor, saved, err);
	globfree(&g);
	free(pattern);
	if (ret)
		cpufreq_restore(saved, NULL);
	return ret;
}

int cpufreq_restore(struct cpufreq_saved *saved, struct kd_err *err)
{
	int ret = 0;

	/* In reverse: CPUs sharing a policy end with the first one's. */
	for (size_t i = saved->n; i-- > 0;) {
		struct strbuf now = STRBUF_INIT;

		if ((read_attr(saved->paths[i], &now, NULL) < 0 ||
		     strcmp(now.buf, saved->governors[i])) &&
		    write_attr(saved->paths[i], saved->governors[i],
			       ret ? NULL : err) < 0)
			ret = -1;
		strbuf_release(&now);
		free(saved->paths[i]);
		free(saved->governors[i]);
	}
	free(saved->paths);
	free(saved->governors);
	*saved = (struct cpufreq_saved){ 0 };
	return ret;
}
