// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "kdelta/util.h"
#include "kdelta/workload.h"

extern const struct workload workload_aim7, workload_aim9, workload_truncate,
	workload_punch, workload_exec;

/* Adding a workload: one file in this directory, one line here. */
const struct workload *const workload_registry[] = {
	&workload_aim7,
	&workload_aim9,
	&workload_truncate,
	&workload_punch,
	&workload_exec,
	NULL,
};

const struct workload *workload_find(const char *name)
{
	for (size_t i = 0; workload_registry[i]; i++)
		if (!strcmp(workload_registry[i]->section.name, name))
			return workload_registry[i];
	return NULL;
}

const struct workload *workload_of_job(const struct job *job)
{
	for (size_t i = 0; job->workload_section && workload_registry[i]; i++)
		if (&workload_registry[i]->section == job->workload_section)
			return workload_registry[i];
	return NULL;
}

const char *workload_prefix(const struct workload *wl,
			    const struct jnode *params)
{
	const char *name = NULL;

	if (param_find(wl->section.params, "name"))
		name = jnode_str(params, "name");
	return name && *name ? name : wl->section.name;
}

int workload_prefix_check(const struct workload *wl,
			  const struct jnode *params, struct kd_err *err)
{
	if (workload_name_check(workload_prefix(wl, params), err))
		return kd_error_prefix(err, "%s", wl->section.name);
	return 0;
}
