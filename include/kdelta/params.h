/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_PARAMS_H
#define KDELTA_PARAMS_H

#include "kdelta/job.h"

/*
 * The schema kdelta checks job files against: the common parameters
 * (job_common_section) and the sections of every workload and monitor in
 * the runner's registries.  Built once, never freed, like the registries.
 * Code below the runner gets a schema passed in; tests make their own.
 */
const struct job_schema *job_schema_default(void);

/* The common job parameters, for schemas made elsewhere. */
extern const struct param_section job_common_section;

#endif
