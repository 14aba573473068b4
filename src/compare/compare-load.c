// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the results a comparison names (labels or paths, commits or an
 * axis) in the store, loading every variant's matrix, and deciding.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/commit-dir.h"
#include "kdelta/compare-load.h"
#include "kdelta/git.h"
#include "kdelta/matrix.h"
#include "kdelta/metric-rules.h"
#include "kdelta/parallel.h"
#include "kdelta/resultdb.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

/* Component i (0-based) of a relative path, or NULL. */
static char *path_component(const char *rel, size_t i)
{
	const char *s = rel, *end;

	for (; i; i--) {
		s = strchr(s, '/');
		if (!s)
			return NULL;
		s++;
	}
	end = strchrnul(s, '/');
	return end > s ? xstrndup(s, (size_t)(end - s)) : NULL;
}

static size_t path_depth(const char *rel)
{
	size_t n = 1;

	for (const char *s = rel; *s; s++)
		n += *s == '/';
	return n;
}

/*
 * The group's parameters, testcase and host: from the base's job, else from
 * its place in the store (<testcase>/<param-dir>/<host>/<commit>).
 */
static int comparison_set_params(struct comparison *cmp,
				 const struct result_dir *base,
				 const char *axis, struct kd_err *err)
{
	struct job_params p;
	size_t depth = path_depth(base->rel);

	if (result_dir_params(base, &p, err) < 0)
		return -1;
	cmp->params = xcalloc(p.n + 1, sizeof(*cmp->params));
	for (size_t i = 0; i < p.n; i++) {
		if (axis && !strcmp(p.items[i].key, axis)) {
			free(p.items[i].key);
			free(p.items[i].value);
			continue;
		}
		cmp->params[cmp->nparams++] = p.items[i];
	}
	/* Across an axis, each commit is a group of its own: say which. */
	if (axis)
		cmp->params[cmp->nparams++] = (struct param){
			.key = xstrdup("commit"), .value = xstrdup(base->label)
		};
	p.n = 0;
	cmp->testcase = p.testcase ? p.testcase
		: depth > 1 ? path_component(base->rel, 0) : NULL;
	cmp->host = p.host ? p.host
		: depth == 4 ? path_component(base->rel, 2) : NULL;
	p.testcase = p.host = NULL;
	job_params_release(&p);
	return 0;
}

/*
 * Loading the matrices is most of what compare does (inflating and parsing
 * JSON), and each variant's is independent: parallel_stages() shares them
 * out in two stages, reading (inflating) and parsing, so that with more
 * matrices than processors one's parse overlaps another's read.
 */
struct load_job {
	const struct result_dir *dir;
	struct result_dir_text text;
	struct matrix m;
	struct variant *v;
	struct kd_err err;
	int ret;
};

/* What the reading of v's commit directory found of its runs, taken over. */
static void variant_take_runs(struct variant *v, struct commit_runs *r)
{
	v->runs = r->complete;
	v->runs_failed = r->failed;
	v->runs_incomplete = r->incomplete;
	v->runs_interrupted = r->interrupted;
	v->failure = r->failure;
	v->run_names = r->run_names;
	v->notes = r->notes;
	v->nnotes = r->nnotes;
	v->notice = r->notice;
	v->boots = r->boots;
	v->timing = r->timing;
	memset(r, 0, sizeof(*r));
}

/*
 * The runs of its matrix, and which of them lkp-tests marks incomplete:
 * lkp-tests counts a failure stat over all of them (struct variant).
 */
static void variant_take_matrix_runs(struct variant *v, const struct matrix *m)
{
	v->matrix_runs = m->nruns;
	if (!m->incomplete)
		return;
	v->lkp_incomplete = xmalloc(m->nruns * sizeof(*v->lkp_incomplete));
	memcpy(v->lkp_incomplete, m->incomplete,
	       m->nruns * sizeof(*v->lkp_incomplete));
}

static void load_job_stage(void *ctx, size_t stage, size_t i)
{
	struct load_job *job = (struct load_job *)ctx + i;
	struct commit_runs runs;

	if (!stage) {
		job->ret = result_dir_read(job->dir, &job->text, &job->err);
	} else if (!job->ret) {
		job->ret = result_dir_finish(job->dir, &job->text, &job->m,
					     &runs, &job->err);
		variant_take_runs(job->v, &runs);
		if (!job->ret)
			variant_take_matrix_runs(job->v, &job->m);
	}
}

/*
 * Loads every variant of a group into cmp (rows not yet decided); with an
 * axis, axis_labels are the variants' labels (the axis values).
 */
static int comparison_build(const struct result_group *g, size_t n,
			    const char *axis, const char *const *axis_labels,
			    const struct metric_catalogue *catalogue,
			    struct comparison *cmp, struct kd_err *err)
{
	struct load_job *jobs = xcalloc(n, sizeof(*jobs));
	struct matrix **mp = xcalloc(n, sizeof(*mp));
	int ret = 0;

	memset(cmp, 0, sizeof(*cmp));
	cmp->catalogue = catalogue;
	cmp->name = xstrdup(g->name);
	cmp->axis = axis ? xstrdup(axis) : NULL;
	cmp->variants = xcalloc(n, sizeof(*cmp->variants));
	cmp->nvariants = n;
	for (size_t v = 0; v < n; v++) {
		const struct result_dir *d = g->members[v];

		cmp->variants[v].label = axis ? xstrdup(axis_labels[v])
				       : store_label_from_name(d->label);
		cmp->variants[v].path = xstrdup(d->matrix ? d->matrix : d->path);
		jobs[v].dir = d;
		jobs[v].v = &cmp->variants[v];
		mp[v] = &jobs[v].m;
	}
	parallel_stages(n, 2, load_job_stage, jobs);
	for (size_t v = 0; v < n && !ret; v++)
		if ((ret = jobs[v].ret) < 0)
			*err = jobs[v].err;
	if (!ret)
		ret = comparison_set_params(cmp, g->members[0], axis, err);
	/* lkp-tests' trees (no job.yaml of kdelta's) declare nothing */
	if (!ret && !g->members[0]->matrix)
		ret = result_dir_key_results(g->members[0]->path,
					     &cmp->declared, err);
	if (!ret)
		comparison_add_matrices(cmp, mp);
	for (size_t v = 0; v < n; v++)
		matrix_release(&jobs[v].m);
	free(jobs);
	free(mp);
	return ret;
}

/* The group of the result directories dirs[0..n), named after the base's. */
static void group_of_dirs(const struct result_dir *dirs, size_t n,
			  struct result_groups *groups)
{
	const struct result_dir **members = xcalloc(n, sizeof(*members));
	char *name, *slash;

	for (size_t v = 0; v < n; v++)
		members[v] = &dirs[v];
	name = xstrdup(dirs[0].path);
	slash = strrchr(name, '/');
	if (slash && slash != name)
		*slash = '\0';
	groups->width = n;
	ALLOC_GROW(groups->items, 1, groups->alloc);
	groups->items[0].name = name;
	groups->items[0].members = members;
	groups->n = 1;
}

static int dirs_from_paths(const char *const *paths, size_t n,
			   struct result_dir **dirs, size_t *ndirs,
			   struct kd_err *err)
{
	*dirs = xcalloc(n, sizeof(**dirs));
	for (*ndirs = 0; *ndirs < n; ++*ndirs)
		if (result_dir_from_path(paths[*ndirs], &(*dirs)[*ndirs], err) < 0)
			return -1;
	return 0;
}

static void dirs_release(struct result_dir *dirs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		result_dir_release(&dirs[i]);
	free(dirs);
}

/* Path arguments make one group, named after the base's directory. */
static int groups_from_paths(struct compare_state *st,
			     const struct compare_query *q, struct kd_err *err)
{
	if (dirs_from_paths(q->labels, q->nlabels, &st->path_dirs,
			    &st->npath_dirs, err) < 0)
		return -1;
	group_of_dirs(st->path_dirs, q->nlabels, &st->groups);
	return 0;
}

/*
 * A path names a commit directory or a matrix: it begins with '/', './'
 * or '../', or has a '/' and exists.  Anything else is a label, '/' or not
 * (xfs/for-next).
 */
static bool is_path_arg(const char *arg)
{
	if (!strchr(arg, '/'))
		return false;
	return arg[0] == '/' || !strncmp(arg, "./", 2) ||
	       !strncmp(arg, "../", 3) || path_exists(arg);
}

/*
 * The store name of each label (see resultdb_resolve()), its commit
 * directories loaded.  Caller frees the names.
 */
static int resolve_labels(struct resultdb *db, const char *const *labels,
			  size_t n, const char *repo, char ***names,
			  struct kd_err *err)
{
	int ret = 0;

	*names = xcalloc(n + 1, sizeof(**names));
	for (size_t i = 0; i < n && !ret; i++) {
		ret = resultdb_resolve(db, labels[i], repo, &(*names)[i], err);
		if (!ret)
			ret = resultdb_load(db, (*names)[i], err);
	}
	return ret;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

static int find_groups(struct compare_state *st, const struct compare_query *q,
		       struct kd_err *err)
{
	size_t paths = 0, n = q->axis ? q->ncommits : q->nlabels;
	const char *const *labels = q->axis ? q->commits : q->labels;
	char *root, **names = NULL;
	int ret;

	for (size_t i = 0; i < q->nlabels; i++)
		paths += is_path_arg(q->labels[i]);
	if (paths && q->axis)
		return kd_error(err, "--axis takes parameter values, not paths");
	if (paths && paths < q->nlabels)
		return kd_error(err, "give either commit labels or paths (beginning with '/', './' or '../'), not both");
	if (paths)
		return groups_from_paths(st, q, err);
	root = result_root(q->result_root);
	ret = resultdb_open(root, &st->db, err);
	free(root);
	if (!ret)
		ret = resolve_labels(&st->db, labels, n, q->repo, &names, err);
	if (!ret && q->axis && !n)
		ret = resultdb_load_all(&st->db, err);
	if (!ret && q->axis)
		ret = resultdb_group_axis(&st->db, q->axis, q->labels,
					  q->nlabels, (const char *const *)names,
					  n, &st->groups, err);
	else if (!ret)
		ret = resultdb_group_labels(&st->db, (const char *const *)names,
					    n, &st->groups, err);
	free_names(names, n);
	return ret;
}

/*
 * A label git may take as a revision: no option (leading '-'), nothing a
 * revision cannot hold.  It is passed as one argv element, never to a shell.
 */
static bool revision_like(const char *label)
{
	if (!*label || *label == '-' || strlen(label) > 255)
		return false;
	for (const char *s = label; *s; s++)
		if (!(isalnum((unsigned char)*s) || strchr("._/-~^@+", *s)))
			return false;
	return true;
}

/* git -C repo log -1 --format=%s label --, or NULL when git says no. */
static char *git_subject(const char *repo, const char *label)
{
	return revision_like(label) ? git_commit_subject(repo, label) : NULL;
}

/* One git call per distinct label, whatever the number of groups. */
static void add_subjects(struct comparison *const *cmps, size_t n,
			 const char *repo)
{
	for (size_t v = 0; n && v < cmps[0]->nvariants; v++) {
		char *subject = git_subject(repo, cmps[0]->variants[v].label);

		for (size_t i = 0; subject && i < n; i++)
			cmps[i]->variants[v].subject = xstrdup(subject);
		free(subject);
	}
}

const struct metric_row *comparison_find_row(const struct comparison *cmp,
					     const char *metric)
{
	for (size_t r = 0; r < cmp->nrows; r++)
		if (!strcmp(cmp->rows[r].name, metric))
			return &cmp->rows[r];
	return NULL;
}

/* The metric's name nearest to a misspelt one, over every group. */
static const char *nearest_metric(const struct compare_state *st,
				  const char *metric)
{
	struct nearest n = NEAREST_INIT(metric);

	for (size_t i = 0; i < st->n; i++)
		for (size_t r = 0; r < st->cmps[i]->nrows; r++)
			nearest_offer(&n, st->cmps[i]->rows[r].name);
	return n.best;
}

int compare_no_such_metric(const struct compare_state *st, const char *option,
			   const char *metric, struct kd_err *err)
{
	const char *near = nearest_metric(st, metric);

	if (near)
		return kd_error(err, "%s: no metric '%s' in these results; did you mean '%s'?",
				option, metric, near);
	return kd_error(err, "%s: no metric '%s' in these results",
			option, metric);
}

bool compare_state_has_metric(const struct compare_state *st,
			      const char *metric)
{
	for (size_t i = 0; i < st->n; i++)
		if (comparison_find_row(st->cmps[i], metric))
			return true;
	return false;
}

static void add_notices(struct compare_state *st, const char *command,
			const struct comparison *cmp)
{
	for (size_t v = 0; v < cmp->nvariants; v++) {
		const char *line = cmp->variants[v].notice;

		while (line && *line) {
			size_t len = strcspn(line, "\n");

			strbuf_addf(&st->notices, "kdelta %s: %.*s\n", command,
				    (int)len, line);
			line += len + (line[len] == '\n');
		}
	}
}

/* Whether name matches one of the --metric patterns (globs). */
static bool focused(const struct metric_row *row, void *ctx)
{
	const struct compare_query *q = ctx;

	for (size_t i = 0; i < q->nmetrics; i++)
		if (!fnmatch(q->metrics[i], row->name, 0))
			return true;
	return false;
}

static bool pattern_matches(const struct compare_state *st,
			    const char *pattern)
{
	for (size_t i = 0; i < st->n; i++)
		for (size_t r = 0; r < st->cmps[i]->nrows; r++)
			if (!fnmatch(pattern, st->cmps[i]->rows[r].name, 0))
				return true;
	return false;
}

/* Leaves out the comparisons that kept no row, in the order they were. */
static void drop_empty(struct compare_state *st)
{
	size_t kept = 0;

	for (size_t i = 0; i < st->n; i++) {
		if (st->cmps[i]->nrows) {
			st->cmps[kept++] = st->cmps[i];
			continue;
		}
		comparison_release(st->cmps[i]);
		free(st->cmps[i]);
	}
	st->n = kept;
}

/*
 * --metric: only the rows the patterns match, after the decisions (which
 * are those of the whole comparison: the correction counts every metric),
 * and only the groups that hold one of them.  A pattern that matches
 * nothing is an error, with the nearest name for a misspelt one.
 */
static int focus(struct compare_state *st, const struct compare_query *q,
		 struct kd_err *err)
{
	for (size_t i = 0; i < q->nmetrics; i++) {
		const char *pattern = q->metrics[i];

		if (pattern_matches(st, pattern))
			continue;
		if (!strpbrk(pattern, "*?["))
			return compare_no_such_metric(st, "--metric", pattern,
						      err);
		return kd_error(err, "--metric %s: no metric of these results matches",
				pattern);
	}
	if (!q->nmetrics)
		return 0;
	for (size_t i = 0; i < st->n; i++)
		comparison_keep_rows(st->cmps[i], focused, (void *)q);
	drop_empty(st);
	return 0;
}

int compare_load(struct compare_state *st, const struct compare_query *q,
		 struct kd_err *err)
{
	if (find_groups(st, q, err) < 0)
		return -1;
	for (size_t i = 0; i < st->groups.n; i++) {
		struct comparison *cmp = xcalloc(1, sizeof(*cmp));
		int ret;

		ALLOC_GROW(st->cmps, st->n + 1, st->alloc);
		st->cmps[st->n++] = cmp;
		ret = comparison_build(&st->groups.items[i], q->nlabels,
				       q->axis, q->labels, q->catalogue,
				       cmp, err);
		add_notices(st, q->command, cmp);
		if (ret < 0)
			return -1;
	}
	if (q->repo && !is_directory(q->repo))
		return kd_error(err, "%s: no such directory (--repo)", q->repo);
	if (q->repo)
		add_subjects(st->cmps, st->n, q->repo);
	for (size_t i = 0; i < st->n; i++)
		compare_decide(st->cmps[i], &q->opt);
	return focus(st, q, err);
}

void compare_state_release(struct compare_state *st)
{
	for (size_t i = 0; i < st->n; i++) {
		comparison_release(st->cmps[i]);
		free(st->cmps[i]);
	}
	free(st->cmps);
	result_groups_release(&st->groups);
	for (size_t i = 0; i < st->npath_dirs; i++)
		result_dir_release(&st->path_dirs[i]);
	free(st->path_dirs);
	resultdb_release(&st->db);
	strbuf_release(&st->notices);
}

int compare_dirs(const char *const *paths, size_t n, const char *repo,
		 const struct metric_catalogue *catalogue,
		 struct comparison *cmp, struct kd_err *err)
{
	struct result_groups groups = { 0 };
	struct result_dir *dirs;
	size_t ndirs;
	int ret = dirs_from_paths(paths, n, &dirs, &ndirs, err);

	memset(cmp, 0, sizeof(*cmp));
	if (!ret) {
		group_of_dirs(dirs, n, &groups);
		ret = comparison_build(&groups.items[0], n, NULL, NULL,
				       catalogue, cmp, err);
	}
	if (!ret && repo)
		add_subjects(&cmp, 1, repo);
	result_groups_release(&groups);
	dirs_release(dirs, ndirs);
	return ret;
}
