/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_LKP_AXES_H
#define KDELTA_LKP_AXES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The parameters lkp-tests shows for a result (src/store/lkp-axes.c): its axes.
 * The job.yaml of an lkp-tests result holds every key of the job as it was
 * scheduled (queue, enqueue_time, result_root, the test box's disks, ...);
 * lkp-tests' compare and mails show only its axes: tbox_group, testcase,
 * rootfs, kconfig and compiler, and the options of the job's programs,
 * whose values (sorted by key, joined by '-') name the result's
 * <path_params> directory: /result/<testcase>/<path_params>/<tbox_group>/
 * <rootfs>/<kconfig>/<compiler>/<commit>/<run>.
 */

/* One scalar of a job: key and value; keep is the outcome. */
struct lkp_scalar {
	const char *key;
	const char *value;
	bool top;		/* a top-level key, not a section's */
	bool in_monitor;	/* in a monitor's section (metric-rules.h's
				 * metric_source_is_monitor()) */
	bool keep;
};

/* <path_params> of an lkp-tests result path (_rt, result_root) or NULL. */
char *lkp_path_params(const char *result_path, const char *testcase);

/*
 * Marks the axes among the scalars: lkp-tests' fixed axes (top-level) and
 * the scalars whose values make path_params.  Returns false, marking
 * nothing, when no choice of scalars makes path_params: then the job is
 * not one lkp-tests scheduled, and the caller keeps what it has.
 */
bool lkp_mark_axes(struct lkp_scalar *scalars, size_t n,
		   const char *path_params);

/* The value lkp-tests shows for axis key (rootfs: its file name). */
const char *lkp_axis_value(const char *key, const char *value);

#endif
