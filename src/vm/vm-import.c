// SPDX-License-Identifier: GPL-2.0
/*
 * Runs that came back from a guest, into the host's store (kdelta/vm.h):
 * unpacked into a temporary directory of the commit directory, their
 * job.yaml told what only the host knows (the run's number here, the
 * batch's runs, kdelta.vm), then renamed into place in one step
 * (store_import_finish()).  A reader of the store sees the whole run or
 * nothing; a kdelta killed on the way leaves a temporary directory that
 * the workspace's record and the next import remove.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kdelta/result-index.h"
#include "kdelta/run-record.h"
#include "kdelta/runner.h"
#include "kdelta/store.h"
#include "kdelta/util.h"
#include "kdelta/vm.h"
#include "kdelta/workdir.h"
#include "version.h"

/* A JSON value as a job.yaml node: scalars as text, objects as maps. */
static struct jnode *json_to_jnode(const json_t *v)
{
	struct jnode *map;
	const char *key;
	json_t *item;
	char buf[64];

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		map = jnode_new_map();
		json_object_foreach((json_t *)v, key, item)
			jnode_set(map, key, json_to_jnode(item));
		return map;
	case JSON_STRING:
		return jnode_new_scalar(json_string_value(v));
	case JSON_INTEGER:
		snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT,
			 json_integer_value(v));
		return jnode_new_scalar(buf);
	case JSON_REAL:
		snprintf(buf, sizeof(buf), "%.6g", json_real_value(v));
		return jnode_new_scalar(buf);
	case JSON_TRUE:
		return jnode_new_scalar("true");
	case JSON_FALSE:
		return jnode_new_scalar("false");
	default:
		return jnode_new_scalar("");
	}
}

/* What prepare() writes for one number. */
struct fixup {
	const struct vm_import *im;
	struct jnode *record;		/* job.yaml, parsed */
	struct jnode *kdelta;		/* its kdelta map */
	const char *failure;		/* a run that did not come back: why */
};

static void set_number(struct jnode *map, const char *key, unsigned value)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%u", value);
	jnode_set(map, key, jnode_new_scalar(buf));
}

static int write_in(const char *dir, const char *name, const char *data,
		    size_t len, struct kd_err *err)
{
	char *path = xasprintf("%s/%s", dir, name);
	int ret = write_file_atomic(path, data, len, err);

	free(path);
	return ret;
}

static int prepare(void *arg, const char *tmp_dir, unsigned number,
		   struct kd_err *err)
{
	struct fixup *f = arg;
	struct strbuf yaml = STRBUF_INIT;
	int ret;

	set_number(f->kdelta, "run", number);
	job_to_yaml(f->record, &yaml);
	ret = write_in(tmp_dir, STORE_JOB_FILE, yaml.buf, yaml.len, err);
	strbuf_release(&yaml);
	if (ret == 0 && f->failure) {
		char *path = xasprintf("%.*s/%u/console.log",
				       (int)(strrchr(tmp_dir, '/') - tmp_dir),
				       tmp_dir, number);
		char *status = xasprintf("failed: %s (console log: %s)",
					 f->failure, path);

		ret = store_mark_complete(tmp_dir, status, err);
		free(status);
		free(path);
	}
	return ret;
}

/* The record's common part: runs, and kdelta.vm merged in. */
static void fixup_record(struct fixup *f)
{
	const struct vm_import *im = f->im;
	struct jnode *vm = json_to_jnode(im->vm);

	set_number(f->record, "runs", im->job->runs);
	jnode_set(f->kdelta, "vm", vm);
	if (im->batch)
		jnode_set(f->kdelta, RUN_RECORD_BATCH,
			  jnode_new_scalar(im->batch));
	if (im->tag)
		jnode_set(f->kdelta, RUN_RECORD_TAG, jnode_new_scalar(im->tag));
}

/* Into the store: the rename, then the commit's matrix and the index. */
static int finish(const struct vm_import *im, const char *commit_dir,
		  const char *tmp, struct fixup *f, char **run_dir,
		  struct kd_err *err)
{
	unsigned number;
	struct kd_err xerr;

	if (store_import_finish(commit_dir, tmp, prepare, f, &number, run_dir,
				err) < 0)
		return -1;
	if (store_rebuild_matrix(commit_dir, NULL, err) < 0)
		return -1;
	/* A stale index is rebuilt by the next lookup: not the run's failure. */
	result_index_update(im->result_root, &xerr);
	return 0;
}

/* The guest's job.yaml, parsed; its kdelta map, made if missing. */
static int read_record(const char *tmp, struct fixup *f, struct kd_err *err)
{
	char *path = xasprintf("%s/%s", tmp, STORE_JOB_FILE);
	struct strbuf text = STRBUF_INIT;
	struct jnode **docs = NULL;
	size_t ndocs = 0;
	int ret = read_file(path, &text, err);

	if (!ret)
		ret = job_parse_documents(text.buf, text.len, path, &docs,
					  &ndocs, err);
	if (!ret && (ndocs != 1 || docs[0]->kind != JNODE_MAP))
		ret = kd_error(err, "%s: not one map", path);
	if (!ret) {
		f->record = docs[0];
		docs[0] = NULL;
		f->kdelta = (struct jnode *)jnode_get(f->record, "kdelta");
		if (!f->kdelta || f->kdelta->kind != JNODE_MAP) {
			f->kdelta = jnode_new_map();
			jnode_set(f->record, "kdelta", f->kdelta);
		}
	}
	for (size_t i = 0; i < ndocs; i++)
		jnode_free(docs[i]);
	free(docs);
	strbuf_release(&text);
	free(path);
	return ret;
}

static char *commit_dir_of(const struct vm_import *im)
{
	return runner_commit_dir(im->job, im->result_root, im->host, im->label);
}

static int begin(const struct vm_import *im, const char *commit_dir,
		 char **tmp, struct kd_err *err)
{
	if (store_import_begin(commit_dir, tmp, err) < 0)
		return -1;
	/* A kill -9 from here: the next start removes it. */
	if (im->ws && workspace_record(im->ws, err, "import", "%s", *tmp) < 0) {
		store_import_abort(*tmp);
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	return 0;
}

int vm_import_run(const struct vm_import *im, const char *data, size_t len,
		  char **run_dir, char **status, struct kd_err *err)
{
	char *commit_dir = commit_dir_of(im), *tmp = NULL;
	struct fixup f = { .im = im };
	json_t *meta = NULL;
	int fd = -1, ret;

	*run_dir = NULL;
	*status = NULL;
	ret = begin(im, commit_dir, &tmp, err);
	if (!ret) {
		fd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			ret = kd_error(err, "%s: %s", tmp, strerror(errno));
	}
	if (!ret)
		ret = vm_run_unpack(data, len, fd, &meta, err);
	if (!ret && json_object_get(meta, "error")) {
		kd_error(err, "the guest could not send it: %s",
			 json_string_value(json_object_get(meta, "error")));
		ret = -2;
	}
	/* A job.yaml that is not one is what came back damaged. */
	if (!ret && read_record(tmp, &f, err) < 0)
		ret = -2;
	if (!ret) {
		const char *round = jnode_str(f.kdelta, RUN_RECORD_ROUND);
		int64_t n;

		if (round && parse_int(round, &n, NULL) == 0 && n >= 0)
			set_number(f.kdelta, RUN_RECORD_ROUND,
				   im->round_base + (unsigned)n);
		fixup_record(&f);
		ret = finish(im, commit_dir, tmp, &f, run_dir, err);
	}
	if (!ret)
		*status = store_run_status(*run_dir);
	if (fd >= 0)
		close(fd);
	if (ret < 0 && tmp)
		store_import_abort(tmp);
	json_decref(meta);
	jnode_free(f.record);
	free(tmp);
	free(commit_dir);
	return ret;
}

/* job.yaml of a run that did not come back: the job and what is known. */
static struct jnode *failed_record(const struct vm_import *im,
				   struct fixup *f)
{
	struct jnode *record = jnode_clone(im->job->root);
	time_t now = time(NULL);
	struct tm tm;
	char date[64];

	jnode_set(record, "commit", jnode_new_scalar(im->label));
	jnode_set(record, "host", jnode_new_scalar(im->host));
	f->kdelta = jnode_new_map();
	jnode_set(f->kdelta, "version", jnode_new_scalar(KDELTA_VERSION));
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S%z",
		 localtime_r(&now, &tm));
	jnode_set(f->kdelta, "start_date", jnode_new_scalar(date));
	jnode_set(record, "kdelta", f->kdelta);
	return record;
}

/* The console log, copied into the run (it may be large: a copy per run). */
static int copy_console(const char *from, const char *tmp, struct kd_err *err)
{
	struct strbuf text = STRBUF_INIT;
	struct kd_err rerr;
	int ret;

	/* A console that could not be read is said as such in the copy. */
	if (read_file(from, &text, &rerr) < 0)
		strbuf_addf(&text, "(kdelta: the console log could not be read: %s)\n",
			    rerr.msg);
	ret = write_in(tmp, "console.log", text.buf, text.len, err);
	strbuf_release(&text);
	return ret;
}

int vm_import_failed(const struct vm_import *im, unsigned round,
		     const char *reason, const char *console_log,
		     char **run_dir, struct kd_err *err)
{
	char *commit_dir = commit_dir_of(im), *tmp = NULL;
	struct fixup f = { .im = im, .failure = reason };
	int ret;

	*run_dir = NULL;
	ret = begin(im, commit_dir, &tmp, err);
	if (!ret) {
		f.record = failed_record(im, &f);
		set_number(f.kdelta, RUN_RECORD_ROUND, round);
		fixup_record(&f);
		ret = copy_console(console_log, tmp, err);
	}
	if (!ret)
		ret = finish(im, commit_dir, tmp, &f, run_dir, err);
	if (ret < 0 && tmp)
		store_import_abort(tmp);
	jnode_free(f.record);
	free(tmp);
	free(commit_dir);
	return ret;
}
