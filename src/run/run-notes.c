// SPDX-License-Identifier: GPL-2.0
/*
 * What a run notes of the machine in its record (kdelta.*) and, once per
 * batch, on the terminal: the monitors this machine cannot give, and the
 * job's machine settings, the cpufreq governor set and LKP's parameters
 * that kdelta records but does not apply.
 */
#include <stdlib.h>
#include <string.h>

#include "kdelta/cpufreq.h"
#include "kdelta/params.h"

#include "runner-private.h"

/*
 * A list of a map's keys.  job.h has no list constructor; a list is a
 * JNODE_LIST node owning a malloc'ed array of nodes, which jnode_free()
 * releases.
 */
static struct jnode *key_list(const struct jnode *map)
{
	struct jnode *list = xcalloc(1, sizeof(*list));

	list->kind = JNODE_LIST;
	list->n = map->n;
	list->values = xcalloc(map->n ? map->n : 1, sizeof(*list->values));
	for (size_t i = 0; i < map->n; i++)
		list->values[i] = jnode_new_scalar(map->keys[i]);
	return list;
}

/* Notes unavailable monitors in the record; a notice once per batch. */
void note_unavailable(struct run *r)
{
	struct strbuf lines = STRBUF_INIT, key = STRBUF_INIT;
	struct jnode *reasons = jnode_new_map();
	char *line, *save = NULL;

	monitor_session_unavailable(r->monitors, &lines);
	for (line = strtok_r(lines.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		const char *reason = colon ? colon + 1 : "";

		if (colon)
			*colon = '\0';
		while (*reason == ' ')
			reason++;
		set_scalar(reasons, line, reason);
		strbuf_reset(&key);
		strbuf_addf(&key, "\n%s\n", line);
		if (!strstr(r->b->noticed.buf, key.buf)) {
			progress_notice(&r->b->progress, "%s unavailable: %s",
					line, reason);
			strbuf_addf(&r->b->noticed, "%s\n", line);
		}
	}
	jnode_set(r->kdelta, "unavailable_monitors", key_list(reasons));
	jnode_set(r->kdelta, "unavailable_reasons", reasons);
	strbuf_release(&key);
	strbuf_release(&lines);
}

/*
 * "<key> <value> not applied: <why>", once per batch and key; recorded in
 * the run's kdelta.not_applied either way.
 */
static void note_not_applied(struct run *r, const char *key, const char *why)
{
	char *mark = xasprintf("\nparameter %s\n", key);

	if (!r->not_applied) {
		r->not_applied = jnode_new_map();
		jnode_set(r->kdelta, "not_applied", r->not_applied);
	}
	set_scalar(r->not_applied, key, why);
	if (!strstr(r->b->noticed.buf, mark)) {
		progress_notice(&r->b->progress, "%s %s not applied: %s", key,
				jnode_str(r->job->root, key), why);
		strbuf_addstr(&r->b->noticed, mark + 1);
	}
	free(mark);
}

/*
 * What the job asks of the machine: the cpufreq governor set, and a note
 * for each of LKP's parameters that kdelta records but does not apply.
 */
void run_machine_settings(struct run *r)
{
	const char *governor = jnode_str(r->job->root, "cpufreq_governor");
	const struct param_spec *p;
	struct kd_err err;

	for (p = job_common_section.params; p->name; p++)
		if (p->not_applied && jnode_get(r->job->root, p->name))
			note_not_applied(r, p->name, p->not_applied);
	if (!governor || !*governor)
		return;
	switch (cpufreq_set(CPUFREQ_ROOT, governor, &r->cpufreq, &err)) {
	case 1:
		note_not_applied(r, "cpufreq_governor", err.msg);
		break;
	case -1:
		run_fail(r, "%s", err.msg);
		break;
	}
}
