/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_SCHEMA_H
#define KDELTA_SCHEMA_H

#include <stdbool.h>
#include <stdint.h>

#include "kdelta/err.h"

struct jnode;

/*
 * Every parameter kdelta accepts in a job file is declared once, next to the
 * code that uses it: common job parameters in src/job/params.c, each workload's
 * and each monitor's in its own file.  Validation, defaults, --help and the
 * man page all come from these declarations.  Declare them with designated
 * initializers ({ .name = "x", .type = PARAM_INT, ... }): fields are added.
 */
enum param_type {
	PARAM_STRING,
	PARAM_INT,	/* signed 64-bit decimal */
	PARAM_SIZE,	/* bytes: 512, 4k, 64M, 1G, 48G, 2T (powers of 1024) */
	PARAM_DURATION,	/* seconds: 10, 300s, 5m, 1h, 1.5s */
	PARAM_BOOL,	/* true/false, yes/no, on/off, 1/0 */
	PARAM_CHOICE,	/* one of param_spec.choices */
	PARAM_LIST,	/* a list taken whole (never expanded): an argv, ... */
	PARAM_MAP,	/* a mapping taken whole; validated by its owner */
	PARAM_PERCENT,	/* a percentage: 1, 2.5, -0.5, 10% */
};

struct param_spec {
	const char *name;
	enum param_type type;
	const char *def;		/* default as written in YAML; NULL: none */
	const char *help;		/* one line, for --help and the man page */
	const char *const *choices;	/* PARAM_CHOICE: NULL-terminated */
	bool required;
	/*
	 * PARAM_CHOICE: what the choices are, for the error that lists them
	 * ("aim7 tests kdelta implements"); NULL: "expected one of ...".
	 */
	const char *choices_are;
	/*
	 * PARAM_CHOICE: a value not among the choices is one kdelta does not
	 * build in (a file system, an md level), and its error says so:
	 * "'f2fs' is not built into kdelta, which has xfs, ext4, ...".
	 */
	bool choice_not_built_in;
	/*
	 * Inclusive bounds of a PARAM_INT, PARAM_SIZE, PARAM_DURATION or
	 * PARAM_PERCENT, as written in YAML ("1", "64M", "1ms"); NULL:
	 * unbounded.
	 */
	const char *min, *max;
	/* A check beyond type and bounds (a format); 0 or -1 with err set. */
	int (*check)(const char *value, struct kd_err *err);
	/*
	 * Not part of a job's name: descriptive (testcase), or recorded by
	 * the runner (commit), or describing the machine (LKP's kconfig).
	 */
	bool unnamed;
	/*
	 * An option of lkp-tests' program of the same name (aim7's test and
	 * load, disk, fs): part of a job's name whenever the job has it,
	 * also at its default, as lkp-tests names its jobs.  Without it, a
	 * named parameter (kdelta's own: aim7's file_size) is part of the
	 * name only when not at its default.
	 */
	bool lkp_option;
	/*
	 * Set for an LKP parameter that kdelta accepts and records but does
	 * not apply: why, in a few words, for the man page and the note the
	 * runner prints ("kdelta runs the kernel it is booted with").
	 */
	const char *not_applied;
};

/* A top-level key an earlier kdelta took, and how to write it now. */
struct param_renamed {
	const char *old;	/* "disk_wrt" */
	const char *now;	/* "aim7: {test: disk_wrt}" */
	/*
	 * The earlier defaults that the new spelling does not have, to be
	 * written out by a file that relied on them: "load: 2, testtime: 1s".
	 */
	const char *old_defaults;
};

/*
 * A named group of parameters: the common job parameters, a workload's, a
 * monitor's.  params is terminated by an entry with name == NULL; renamed,
 * when set, by one with old == NULL.
 */
struct param_section {
	const char *name;
	const char *summary;
	const struct param_spec *params;
	/* Keys that are this section now, for a clear error. */
	const struct param_renamed *renamed;
	/*
	 * The constraints between the section's parameters that their types
	 * and bounds cannot say (stride at least punch_size; fs xfs needs a
	 * disk), declared next to them: checked on every job a file expands
	 * into, as it loads, so that split and run refuse a job that cannot
	 * run before anything runs.  section is the section's mapping with
	 * its defaults filled in; for the common parameters, the whole job.
	 * Returns 0, or -1 with a message that names the parameter ("fs: xfs
	 * needs a disk: ...") and *at set to the key whose value it is about
	 * (the loader puts that value's file:line:col in front).  The code
	 * that uses the parameters calls the same function.
	 */
	int (*constraints)(const struct jnode *section, const char **at,
			   struct kd_err *err);
};

/*
 * Typed values, parsed in one place.  Each returns 0, or -1 with a message
 * that says what was expected ("expected a size like 4k, 64M or 1G").
 */
int parse_size(const char *s, uint64_t *out, struct kd_err *err);
int parse_duration(const char *s, double *out, struct kd_err *err);
int parse_bool(const char *s, bool *out, struct kd_err *err);
int parse_int(const char *s, int64_t *out, struct kd_err *err);
int parse_percent(const char *s, double *out, struct kd_err *err);
/*
 * Validates a scalar against a spec (any scalar type): its type, its
 * bounds, and its check.
 */
int param_check(const struct param_spec *spec, const char *value,
		struct kd_err *err);
/*
 * A number of a scalar spec (integer, size, duration in seconds,
 * percentage), checked as param_check() does: how command-line options
 * and the robot's configuration read the values they share with a spec.
 */
int param_number(const struct param_spec *spec, const char *value,
		 double *out, struct kd_err *err);
const char *param_type_name(enum param_type type);

const struct param_spec *param_find(const struct param_spec *params,
				    const char *name);

#endif
