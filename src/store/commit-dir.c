// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a commit directory: its runs (complete, failed, incomplete,
 * interrupted; disturbed), and its matrix, rebuilt from the runs when it
 * is stale (kdelta/resultdb.h, result_dir_load()).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "kdelta/commit-dir.h"
#include "kdelta/key-result.h"
#include "kdelta/matrix.h"
#include "kdelta/run-record.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

static void free_strings(char **s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i]);
	free(s);
}

/* The runs of a commit directory. */
struct run_scan {
	char **ok_stats;	/* stats.json of each complete run */
	size_t nok, alloc;
	size_t failed, incomplete;
	size_t interrupted;	/* kdelta was stopped in them: not counted */
	bool marked;		/* kdelta's: some run has a completion mark */
	char *failure;		/* the first failed run's reason */
	time_t first, last;	/* the run directories' mtimes */
};

static void run_scan_release(struct run_scan *rs)
{
	free_strings(rs->ok_stats, rs->nok);
	free(rs->failure);
	memset(rs, 0, sizeof(*rs));
}

/* "failed: mkfs.xfs: ..." gives "mkfs.xfs: ...", a bare "failed" itself. */
static char *failure_reason(const char *status)
{
	static const char prefix[] = "failed: ";

	if (!strncmp(status, prefix, strlen(prefix)) && status[strlen(prefix)])
		return xstrdup(status + strlen(prefix));
	return xstrdup(status);
}

/*
 * kdelta marks each run "ok" or "failed: ..." when it ends; lkp-tests marks
 * nothing, so in its trees (no mark anywhere) a run with stats is complete.
 */
static int scan_runs(const struct result_dir *dir, struct run_scan *rs,
		     struct kd_err *err)
{
	unsigned *runs;
	size_t n, marked = 0;
	char **status;

	memset(rs, 0, sizeof(*rs));
	if (store_list_runs(dir->path, &runs, &n, err) < 0)
		return -1;
	status = xcalloc(n + 1, sizeof(*status));
	for (size_t i = 0; i < n; i++) {
		char *run = xasprintf("%s/%u", dir->path, runs[i]);
		struct stat st;

		status[i] = store_run_status(run);
		marked += status[i] != NULL;
		if (!stat(run, &st)) {
			if (!rs->first || st.st_mtime < rs->first)
				rs->first = st.st_mtime;
			if (st.st_mtime > rs->last)
				rs->last = st.st_mtime;
		}
		free(run);
	}
	for (size_t i = 0; i < n; i++) {
		char *stats = xasprintf("%s/%u/%s", dir->path, runs[i],
					STORE_STATS_FILE);

		if (status[i] ? !strcmp(status[i], "ok")
			      : !marked && path_exists(stats)) {
			ALLOC_GROW(rs->ok_stats, rs->nok + 1, rs->alloc);
			rs->ok_stats[rs->nok++] = stats;
			continue;
		}
		free(stats);
		if (store_status_interrupted(status[i]))
			rs->interrupted++;
		else if (status[i] && !rs->failed++)
			rs->failure = failure_reason(status[i]);
		else if (!status[i])
			rs->incomplete++;
	}
	rs->marked = marked > 0;
	free_strings(status, n);
	free(runs);
	return 0;
}

int result_dir_runs(const struct result_dir *dir, struct run_counts *out,
		    struct kd_err *err)
{
	struct run_scan rs;

	memset(out, 0, sizeof(*out));
	if (scan_runs(dir, &rs, err) < 0)
		return -1;
	*out = (struct run_counts){ .ok = rs.nok, .failed = rs.failed,
				    .incomplete = rs.incomplete,
				    .interrupted = rs.interrupted,
				    .first = rs.first, .last = rs.last };
	run_scan_release(&rs);
	return 0;
}

static char *matrix_file(const struct result_dir *dir)
{
	static const char *const names[] = { STORE_MATRIX_FILE, "matrix.json" };

	if (dir->matrix)
		return xstrdup(dir->matrix);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *path = xasprintf("%s/%s", dir->path, names[i]);

		if (path_exists(path))
			return path;
		free(path);
	}
	return NULL;
}

/*
 * The run a stats_source entry names: the directory of its stats.json
 * ("<commit dir>/3/stats.json"; older kdelta wrote "<commit dir>/3"), by
 * its last component, so that a store read from elsewhere still matches.
 */
static const char *source_run(const char *source, size_t *len)
{
	size_t n = strlen(source);
	const char *slash;

	if (n >= strlen("/" STORE_STATS_FILE) &&
	    !strcmp(source + n - strlen("/" STORE_STATS_FILE),
		    "/" STORE_STATS_FILE))
		n -= strlen("/" STORE_STATS_FILE);
	slash = memrchr(source, '/', n);
	*len = slash ? n - (size_t)(slash + 1 - source) : n;
	return slash ? slash + 1 : source;
}

static bool same_run(const char *a, const char *b)
{
	size_t la, lb;
	const char *ra = source_run(a, &la), *rb = source_run(b, &lb);

	return la == lb && !memcmp(ra, rb, la);
}

static bool sources_have(char *const *sources, size_t n, const char *run)
{
	for (size_t i = 0; i < n; i++)
		if (same_run(sources[i], run))
			return true;
	return false;
}

/*
 * Whether kdelta's matrix is the matrix of the runs marked ok, in run
 * order (store.h): a kdelta killed between a run's mark and the matrix's
 * rewrite, or one that could not write it, leaves another.  If not, says
 * in why how they first differ.
 */
static bool matrix_is_current(const struct matrix *m, const struct run_scan *rs,
			      struct strbuf *why)
{
	size_t i, len;
	const char *run;

	for (i = 0; i < m->nruns && i < rs->nok; i++)
		if (!same_run(m->sources[i], rs->ok_stats[i]))
			break;
	if (i == m->nruns && i == rs->nok)
		return true;
	if (i == m->nruns ||
	    (i < rs->nok &&
	     !sources_have(m->sources, m->nruns, rs->ok_stats[i]))) {
		run = source_run(rs->ok_stats[i], &len);
		strbuf_addf(why, "run %.*s is complete but not in it",
			    (int)len, run);
	} else {
		run = source_run(m->sources[i], &len);
		strbuf_addf(why, "it holds run %.*s, which is not a complete run",
			    (int)len, run);
	}
	return false;
}

/*
 * A stale matrix.json.gz gives way to its runs' stats.json, and is
 * rewritten when the store can be written; v->notice says what happened.
 */
static int refresh_matrix(const struct result_dir *dir, const char *path,
			  const struct run_scan *rs, struct matrix *m,
			  struct commit_runs *out, struct kd_err *err)
{
	struct strbuf why = STRBUF_INIT;
	struct kd_err werr;
	int ret = 0;

	if (!m->sources || matrix_is_current(m, rs, &why)) {
		strbuf_release(&why);
		return 0;
	}
	matrix_release(m);
	if (matrix_from_stats((const char *const *)rs->ok_stats, rs->nok, m,
			      err) < 0) {
		struct kd_err cause = *err;

		ret = kd_error(err, "%s is stale (%s) and cannot be rebuilt: %s",
			       path, why.buf, cause.msg);
	} else if (store_write_matrix(dir->path, m, &werr) < 0) {
		out->notice = xasprintf("%s is stale (%s): compared the runs' stats.json, but could not rewrite it: %s",
				      path, why.buf, werr.msg);
	} else {
		out->notice = xasprintf("%s was stale (%s): rebuilt it from the runs' stats.json",
				      path, why.buf);
	}
	strbuf_release(&why);
	return ret;
}

/* What the record of the run of this stats.json says of it. */
struct run_said {
	char *why;		/* what disturbed it, or NULL */
	const char *timing;	/* run_record_vm_timing() */
	char *boot;		/* run_record_vm_boot(), or NULL */
};

static void run_record_read(const char *stats_path, struct run_said *said)
{
	char *path = xasprintf("%.*s/%s",
			       (int)(strrchr(stats_path, '/') - stats_path),
			       stats_path, STORE_JOB_FILE);
	struct jnode *root = NULL;
	struct kd_err err;

	memset(said, 0, sizeof(*said));
	if (run_record_load(path, &root, &err) == 0 && root) {
		const char *boot = run_record_vm_boot(root);

		said->why = run_record_disturbance(root);
		said->timing = run_record_vm_timing(root);
		said->boot = boot ? xstrdup(boot) : NULL;
	}
	jnode_free(root);
	free(path);
}

static void drop_boots(struct commit_runs *out)
{
	for (size_t i = 0; out->boots && i < out->complete; i++)
		free(out->boots[i]);
	free(out->boots);
	out->boots = NULL;
}

/* "3" of ".../3/stats.json". */
static char *run_name(const char *stats_path)
{
	const char *end = strrchr(stats_path, '/'), *start = end;

	while (start > stats_path && start[-1] != '/')
		start--;
	return xstrndup(start, (size_t)(end - start));
}

/*
 * The names of the complete runs (when the matrix holds exactly them, in
 * their order) and the notes of those the machine disturbed.
 */
static void note_runs(struct commit_runs *out, const struct run_scan *rs,
		      const struct matrix *m)
{
	size_t alloc = 0;

	if (rs->nok == out->complete && !m->nincomplete) {
		out->run_names = xcalloc(out->complete + 1,
					 sizeof(*out->run_names));
		for (size_t i = 0; i < out->complete; i++)
			out->run_names[i] = run_name(rs->ok_stats[i]);
	}
	/* Boots only where run_names says which sample is which run. */
	if (out->run_names)
		out->boots = xcalloc(out->complete + 1, sizeof(*out->boots));
	for (size_t i = 0; i < rs->nok; i++) {
		struct run_said said;

		run_record_read(rs->ok_stats[i], &said);
		if (said.timing && (!out->timing ||
				    !strcmp(said.timing, RUN_RECORD_TIMING_INSTRUCTIONS)))
			out->timing = said.timing;
		if (out->boots && said.boot && i < out->complete)
			out->boots[i] = said.boot;
		else
			free(said.boot);
		if (out->boots && !said.boot)
			drop_boots(out);
		if (!said.why)
			continue;
		ALLOC_GROW(out->notes, out->nnotes + 1, alloc);
		out->notes[out->nnotes].run = run_name(rs->ok_stats[i]);
		out->notes[out->nnotes++].why = said.why;
	}
}

void commit_runs_release(struct commit_runs *r)
{
	drop_boots(r);
	for (size_t i = 0; r->run_names && r->run_names[i]; i++)
		free(r->run_names[i]);
	free(r->run_names);
	for (size_t i = 0; i < r->nnotes; i++) {
		free(r->notes[i].run);
		free(r->notes[i].why);
	}
	free(r->notes);
	free(r->failure);
	free(r->notice);
	memset(r, 0, sizeof(*r));
}

void result_dir_text_release(struct result_dir_text *t)
{
	if (t->runs)
		run_scan_release(t->runs);
	free(t->runs);
	free(t->path);
	strbuf_release(&t->text);
	memset(t, 0, sizeof(*t));
}

int result_dir_read(const struct result_dir *dir, struct result_dir_text *t,
		    struct kd_err *err)
{
	memset(t, 0, sizeof(*t));
	strbuf_init(&t->text);
	t->runs = xmalloc(sizeof(*t->runs));
	if (scan_runs(dir, t->runs, err) < 0) {
		free(t->runs);
		t->runs = NULL;
		return -1;
	}
	t->path = matrix_file(dir);
	if (t->path && read_file(t->path, &t->text, err) < 0) {
		result_dir_text_release(t);
		return -1;
	}
	return 0;
}

int result_dir_finish(const struct result_dir *dir, struct result_dir_text *t,
		      struct matrix *m, struct commit_runs *out,
		      struct kd_err *err)
{
	char *own = xasprintf("%s/%s", dir->path, STORE_MATRIX_FILE);
	struct run_scan *rs = t->runs;
	int ret;

	memset(m, 0, sizeof(*m));
	memset(out, 0, sizeof(*out));
	if (t->path)
		ret = matrix_parse(t->text.buf, t->text.len, t->path, m, err);
	else
		ret = matrix_from_stats((const char *const *)rs->ok_stats,
					rs->nok, m, err);
	strbuf_release(&t->text);
	/* Only kdelta's own matrix is kept in step with the runs' marks. */
	if (!ret && t->path && rs->marked && !strcmp(t->path, own))
		ret = refresh_matrix(dir, t->path, rs, m, out, err);
	/* lkp-tests' incomplete runs are in its matrix: counted apart. */
	out->complete = m->nruns - m->nincomplete;
	out->failed = rs->failed;
	out->incomplete = rs->incomplete + m->nincomplete;
	out->interrupted = rs->interrupted;
	if (!ret) {
		out->failure = rs->failure;
		rs->failure = NULL;
		note_runs(out, rs, m);
	}
	result_dir_text_release(t);
	free(own);
	return ret;
}

int result_dir_load(const struct result_dir *dir, struct matrix *m,
		    struct commit_runs *out, struct kd_err *err)
{
	struct result_dir_text t;

	memset(m, 0, sizeof(*m));
	memset(out, 0, sizeof(*out));
	if (result_dir_read(dir, &t, err) < 0)
		return -1;
	return result_dir_finish(dir, &t, m, out, err);
}

/* ---- runs as bisect and the robot pair them ---------------------- */

/* A run's record into r; false when its tag is not the one asked for. */
static bool read_tagged_run(const char *run_dir, const char *tag,
			    struct tagged_run *r)
{
	char *path = xasprintf("%s/%s", run_dir, STORE_JOB_FILE);
	struct jnode *root = NULL;
	struct run_place place;
	struct kd_err err;
	bool ok = run_record_load(path, &root, &err) == 0 && root;

	free(path);
	if (!ok) {
		jnode_free(root);
		return !tag;
	}
	run_record_place(root, &place);
	r->tag = place.tag ? xstrdup(place.tag) : NULL;
	r->batch = place.batch ? xstrdup(place.batch) : NULL;
	r->round = place.round;
	r->start = place.start;
	r->disturbed = run_record_disturbance(root);
	jnode_free(root);
	return !tag || (r->tag && !strcmp(r->tag, tag));
}

static void tagged_run_release(struct tagged_run *r)
{
	free(r->tag);
	free(r->batch);
	free(r->disturbed);
}

void tagged_runs_release(struct tagged_runs *r)
{
	for (size_t i = 0; i < r->n; i++)
		tagged_run_release(&r->at[i]);
	free(r->at);
	free(r->failure);
	memset(r, 0, sizeof(*r));
}

/* The values of metric of the runs, from their stats.json. */
static int read_values(const char *commit_dir, const char *metric,
		       struct tagged_runs *out, struct kd_err *err)
{
	char **paths = xcalloc(out->n ? out->n : 1, sizeof(*paths));
	struct matrix m;
	ssize_t row = -1;
	int ret;

	for (size_t i = 0; i < out->n; i++)
		paths[i] = xasprintf("%s/%u/%s", commit_dir, out->at[i].number,
				     STORE_STATS_FILE);
	ret = matrix_from_stats((const char *const *)paths, out->n, &m, err);
	for (size_t i = 0; !ret && i < m.nmetrics; i++)
		if (!strcmp(m.names[i], metric))
			row = (ssize_t)i;
	for (size_t i = 0; !ret && row >= 0 && i < out->n; i++)
		out->at[i].value = m.values[(size_t)row * m.nruns + i];
	if (!ret)
		matrix_release(&m);
	free_strings(paths, out->n);
	return ret;
}

struct tagged_walk {
	const char *tag;
	struct tagged_runs *out;
	size_t alloc;
};

static int add_tagged_run(const char *run_dir, unsigned number,
			  const char *status, void *arg)
{
	struct tagged_walk *w = arg;
	struct tagged_runs *out = w->out;
	struct tagged_run r = { .number = number, .round = -1, .value = NAN };
	bool ok = status && !strcmp(status, "ok");
	bool failed = status && !ok && !store_status_interrupted(status);

	if ((ok || failed) && read_tagged_run(run_dir, w->tag, &r)) {
		if (ok) {
			ALLOC_GROW(out->at, out->n + 1, w->alloc);
			out->at[out->n++] = r;
			memset(&r, 0, sizeof(r));
		} else {
			out->failed++;
			free(out->failure);
			out->failure = failure_reason(status);
		}
	}
	tagged_run_release(&r);
	return 0;
}

int result_dir_tagged_runs(const char *commit_dir, const char *tag,
			   const char *metric, struct tagged_runs *out,
			   struct kd_err *err)
{
	struct tagged_walk w = { .tag = tag, .out = out };
	int ret;

	memset(out, 0, sizeof(*out));
	ret = store_each_run(commit_dir, add_tagged_run, &w, err);
	if (!ret && metric && out->n)
		ret = read_values(commit_dir, metric, out, err);
	if (ret < 0)
		tagged_runs_release(out);
	return ret;
}

/* ---- the key results a job declared ------------------------------ */

struct key_walk {
	struct key_results *out;
	struct kd_err *err;
};

/* The first ok run's: lkp-tests' runs may have no record. */
static int first_key_results(const char *run_dir, unsigned number,
			     const char *status, void *arg)
{
	struct key_walk *w = arg;
	char *path = xasprintf("%s/%s", run_dir, STORE_JOB_FILE);
	struct jnode *root = NULL;
	int ret = 0;

	(void)number;
	if (!status || strcmp(status, "ok")) {
		free(path);
		return 0;
	}
	if (path_exists(path) &&
	    (ret = run_record_load(path, &root, w->err)) == 0 && root)
		ret = run_record_key_results(root, w->out, w->err);
	if (ret < 0)
		kd_error_prefix(w->err, "%s: key_result", path);
	jnode_free(root);
	free(path);
	return ret < 0 ? -1 : 1;
}

int result_dir_key_results(const char *commit_dir, struct key_results *out,
			   struct kd_err *err)
{
	struct key_walk w = { out, err };

	memset(out, 0, sizeof(*out));
	return store_each_run(commit_dir, first_key_results, &w, err) < 0 ? -1 : 0;
}

char *result_dir_key_result(const char *commit_dir)
{
	struct key_results k;
	struct kd_err err;
	char *name = NULL;

	if (result_dir_key_results(commit_dir, &k, &err) == 0 && k.n)
		name = xstrdup(k.at[0].metric);
	key_results_release(&k);
	return name ? name : store_key_result(commit_dir);
}
