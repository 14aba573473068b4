// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "kdelta/workload.h"

extern const struct workload workload_creat_clo, workload_disk_wrt,
	workload_disk_rd, workload_disk_rr, workload_disk_rw, workload_truncate,
	workload_punch, workload_exec;

/* Adding a workload: one file in this directory, one line here. */
const struct workload *const workload_registry[] = {
	&workload_creat_clo,
	&workload_disk_wrt,
	&workload_disk_rd,
	&workload_disk_rr,
	&workload_disk_rw,
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

const char *workload_prefix(const struct workload *wl,
			    const struct jnode *params)
{
	const char *name = NULL;

	if (param_find(wl->section.params, "name"))
		name = jnode_str(params, "name");
	return name && *name ? name : wl->section.name;
}
