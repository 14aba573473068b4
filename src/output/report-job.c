// SPDX-License-Identifier: GPL-2.0
/*
 * The job of a report's section (report-internal.h): the job file its runs
 * recorded, the machine, the setup and the VM options they had, for the
 * attachment and the "To reproduce" lines, whose shell words it writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report-internal.h"
#include "kdelta/commit-dir.h"
#include "kdelta/job.h"
#include "kdelta/run-record.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

/*
 * A word of a command to copy into a shell: quoted unless plain.  Control
 * characters become blanks, but a newline stays when keep_newlines (a
 * script given to --setup): inside quotes, it is the script's own.
 */
void report_shell_word(struct strbuf *out, const char *word,
			   bool keep_newlines)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		"abcdefghijklmnopqrstuvwxyz0123456789._+=,@%/:-";

	if (*word && strspn(word, plain) == strlen(word)) {
		strbuf_addstr(out, word);
		return;
	}
	strbuf_addch(out, '\'');
	for (; *word; word++) {
		unsigned char c = *word;

		if (c == '\'')
			strbuf_addstr(out, "'\\''");
		else if (c == '\n' && keep_newlines)
			strbuf_addch(out, '\n');
		else
			strbuf_addch(out, printable_char(*word));
	}
	strbuf_addch(out, '\'');
}

/* The commit directory of a variant: its path, or the matrix file's. */
static char *variant_dir(const struct variant *var)
{
	char *dir = xstrdup(var->path);

	if (!is_directory(dir)) {
		char *slash = strrchr(dir, '/');

		if (slash)
			*slash = '\0';
	}
	return dir;
}

/* The job.yaml of the first run below a variant's path, or NULL. */
static char *variant_job_path(const struct variant *var)
{
	struct kd_err err;
	char *dir = variant_dir(var), *path = NULL;
	unsigned *runs = NULL;
	size_t n = 0;

	if (store_list_runs(dir, &runs, &n, &err) == 0)
		for (size_t i = 0; i < n && !path; i++) {
			path = xasprintf("%s/%u/%s", dir, runs[i], STORE_JOB_FILE);
			if (!path_exists(path)) {
				free(path);
				path = NULL;
			}
		}
	free(runs);
	free(dir);
	return path;
}

/* A group's key result: its base's, else its first variant's that has one. */
char *report_group_key_result(const struct comparison *cmp)
{
	char *key = NULL;

	if (cmp->declared.n)
		return xstrdup(cmp->declared.at[0].metric);
	for (size_t v = 0; v < cmp->nvariants && !key; v++) {
		char *dir = variant_dir(&cmp->variants[v]);

		key = result_dir_key_result(dir);
		free(dir);
	}
	return key;
}

/* The --setup a variant's first run recorded, or NULL. */
static char *variant_setup(const struct variant *var)
{
	char *record = variant_job_path(var), *setup = NULL;
	struct jnode *root = NULL;

	if (record && run_record_load(record, &root, NULL) == 0 &&
	    run_record_setup(root))
		setup = xstrdup(run_record_setup(root));
	jnode_free(root);
	free(record);
	return setup;
}

/*
 * The kernel a variant's first run booted (kdelta.vm.kernel: kdelta run
 * --kernel's PATH), or NULL for a run on the machine itself.
 */
char *report_variant_kernel(const struct variant *var)
{
	char *record = variant_job_path(var), *kernel = NULL;
	struct jnode *root = NULL;

	if (record && run_record_load(record, &root, NULL) == 0 &&
	    run_record_vm_kernel(root))
		kernel = xstrdup(run_record_vm_kernel(root));
	jnode_free(root);
	free(record);
	return kernel;
}

/*
 * The --vm-* options a run in a virtual machine had, from kdelta.vm of
 * its record: those that differ from the defaults.
 */
static void record_vm_options(const struct jnode *vm, struct strbuf *out)
{
	const char *clock = jnode_str(vm, "clock");
	const char *per_boot = jnode_str(vm, "runs_per_boot");
	const char *cpus = jnode_str(vm, "cpus");
	const char *append = jnode_str(vm, "append");
	bool instructions = clock && !strcmp(clock, "instructions");

	if (instructions)
		strbuf_addstr(out, " --vm-clock instructions");
	if (per_boot && strcmp(per_boot, "1"))
		strbuf_addf(out, " --vm-runs-per-boot %s", per_boot);
	/* kdelta run's defaults: 2 CPUs, 1 with the instruction clock */
	if (cpus && strcmp(cpus, instructions ? "1" : "2"))
		strbuf_addf(out, " --vm-cpus %s", cpus);
	if (append && *append) {
		strbuf_addstr(out, " --vm-append ");
		report_shell_word(out, append, false);
	}
}


/*
 * The value of an --axis key in a job: a top-level parameter, or one in a
 * section ("prefill"), or "<section>.<key>" when the name alone is not
 * unique (as resultdb names them).
 */
static struct jnode **axis_slot(struct jnode *root, const char *axis)
{
	const char *dot = strchr(axis, '.');
	struct jnode **slot = NULL;

	for (size_t i = 0; i < root->n; i++) {
		struct jnode *value = root->values[i];

		if (!dot && !strcmp(root->keys[i], axis) &&
		    value->kind == JNODE_SCALAR)
			return &root->values[i];
		if (value->kind != JNODE_MAP ||
		    (dot && strncmp(root->keys[i], axis, (size_t)(dot - axis))))
			continue;
		for (size_t j = 0; j < value->n; j++)
			if (!strcmp(value->keys[j], dot ? dot + 1 : axis) &&
			    value->values[j]->kind == JNODE_SCALAR)
				slot = &value->values[j];
	}
	return slot;
}

/*
 * For an --axis mail, the job runs every value compared: the axis key
 * becomes the list of the variants' values.
 */
static bool list_axis_values(struct jnode *root, const struct comparison *cmp)
{
	struct jnode **slot = cmp->axis ? axis_slot(root, cmp->axis) : NULL;
	struct jnode *list;

	if (!slot)
		return false;
	list = xcalloc(1, sizeof(*list));	/* jnode_free() frees it */
	list->kind = JNODE_LIST;
	list->values = xcalloc(cmp->nvariants, sizeof(*list->values));
	for (list->n = 0; list->n < cmp->nvariants; list->n++)
		list->values[list->n] =
			jnode_new_scalar(cmp->variants[list->n].label);
	jnode_free(*slot);
	*slot = list;
	return true;
}

/*
 * The job as it ran, from a run's job.yaml: kdelta's own is emitted again
 * without the runner's record (its --setup goes to the command); any other
 * (lkp-tests') is attached as is.
 */
static void job_from_record(const char *text, size_t len, const char *path,
			    const struct comparison *cmp,
			    struct section_job *job)
{
	struct jnode *root = NULL, *clean;

	if (job_parse_record(text, len, path, &root, NULL) < 0 ||
	    !run_record_is_kdelta(root)) {
		jnode_free(root);
		strbuf_add(&job->text, text, len);
		return;
	}
	clean = jnode_new_map();
	for (size_t i = 0; i < root->n; i++)
		if (!run_record_key(root->keys[i]))
			jnode_set(clean, root->keys[i],
				  jnode_clone(root->values[i]));
	job->axis_listed = list_axis_values(clean, cmp);
	job_to_yaml(clean, &job->text);
	jnode_free(clean);
	job->machine = run_record_machine(root);
	if (run_record_setup(root))
		job->setup = xstrdup(run_record_setup(root));
	job->vm = run_record_vm_kernel(root) != NULL;
	if (job->vm)
		record_vm_options(jnode_get(jnode_get(root, RUN_RECORD_KDELTA),
					    RUN_RECORD_VM), &job->vm_options);
	jnode_free(root);
}

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

int report_section_job_load(const struct report_options *opt,
			    const struct comparison *cmp, size_t v,
			    struct section_job *job, struct kd_err *err)
{
	char *record = variant_job_path(&cmp->variants[v]);
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	if (record && read_file(record, &sb, err) == 0)
		job_from_record(sb.buf, sb.len, record, cmp, job);
	else if (record)
		ret = -1;
	if (!ret && opt->job_file) {
		strbuf_reset(&job->text);
		job->axis_listed = false;
		ret = read_file(opt->job_file, &job->text, err);
	}
	if (opt->setup) {
		free(job->setup);
		job->setup = xstrdup(opt->setup);
	} else if (v) {
		job->base_setup = variant_setup(&cmp->variants[0]);
		job->base_setup_differs = !same_text(job->setup,
						     job->base_setup);
	}
	strbuf_release(&sb);
	free(record);
	return ret;
}

void report_section_job_release(struct section_job *job)
{
	free(job->filename);
	strbuf_release(&job->text);
	strbuf_release(&job->vm_options);
	free(job->machine);
	free(job->setup);
	free(job->base_setup);
}
