/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_CATALOGUE_H
#define KDELTA_CATALOGUE_H

#include "kdelta/metric-rules.h"

/*
 * What kdelta knows of the sources of metrics, from the runner's
 * registries: every monitor (with whether it slows the workload) and every
 * workload, each with its metric declarations.  Built once, never freed,
 * like the registries.  The commands pass it to what describes metrics
 * (compare_options.catalogue), as they pass job_schema_default() to the
 * job loader.
 */
const struct metric_catalogue *metric_catalogue_default(void);

#endif
