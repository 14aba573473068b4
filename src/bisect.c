// SPDX-License-Identifier: GPL-2.0
/*
 * kdelta bisect: "git bisect" decides which commit to test next; kdelta
 * checks it out, builds it, runs the job on it until its samples are
 * significantly closer to the good or to the bad commit's, and tells git.
 *
 * Every run goes into the store under the commit's full hash, so a second
 * bisection over the same commits (an interrupted one, resumed) counts the
 * runs already there and measures only what is still undecided.  Builds are
 * never trusted across runs: each run checks its commit out and builds it
 * first, so that the job always runs the program of that commit.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>

#include "kdelta/bisect.h"
#include "kdelta/compare.h"
#include "kdelta/git.h"
#include "kdelta/machine.h"
#include "kdelta/matrix.h"
#include "kdelta/proc.h"
#include "kdelta/resultdb.h"
#include "kdelta/runner.h"
#include "kdelta/stats.h"
#include "kdelta/store.h"
#include "kdelta/util.h"
#include "kdelta/workdir.h"
#include "kdelta/workload.h"

/* Hashes in progress lines and messages: 12 digits, as robot mails have. */
#define SHORT "%.12s"
/* The file in the git directory that says kdelta is bisecting there. */
#define BISECT_MARKER "KDELTA_BISECT"

void bisect_classify(const double *good, size_t n_good, const double *bad,
		     size_t n_bad, const double *x, size_t n_x,
		     struct bisect_classification *out)
{
	struct sample_summary g, b, s;
	double vx, vm, se, toward_bad;

	memset(out, 0, sizeof(*out));
	out->verdict = BISECT_UNDECIDED;
	out->p = 1;
	if (n_good < 2 || n_bad < 2 || n_x < 2)
		return;
	summarize(good, n_good, &g);
	summarize(bad, n_bad, &b);
	summarize(x, n_x, &s);
	out->midpoint = (g.mean + b.mean) / 2;
	vx = s.stddev * s.stddev / n_x;
	vm = (g.stddev * g.stddev / n_good + b.stddev * b.stddev / n_bad) / 4;
	se = sqrt(vx + vm);
	toward_bad = (s.mean - out->midpoint) * (b.mean - g.mean);
	if (se == 0) {
		/* Constant samples: any distance from the midpoint is certain. */
		out->t = s.mean == out->midpoint ? 0 : INFINITY;
		out->p = s.mean == out->midpoint ? 1 : 0;
	} else {
		/* Welch-Satterthwaite, the midpoint's variance in two parts. */
		double vg = g.stddev * g.stddev / (4.0 * n_good);
		double vb = b.stddev * b.stddev / (4.0 * n_bad);

		out->t = (s.mean - out->midpoint) / se;
		out->df = (vx + vm) * (vx + vm) /
			  (vx * vx / (n_x - 1) + vg * vg / (n_good - 1) +
			   vb * vb / (n_bad - 1));
		out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
	}
	if (out->p < BISECT_CLASSIFY_ALPHA && toward_bad != 0)
		out->verdict = toward_bad > 0 ? BISECT_BAD : BISECT_GOOD;
}

static bool strstr_within(const char *s, size_t n, const char *needle)
{
	return memmem(s, n, needle, strlen(needle)) != NULL;
}

/* A whole commit hash (SHA-1 or SHA-256) at s, followed by end or a blank. */
static size_t hash_at(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	if ((n != 40 && n != 64) || (s[n] && !isspace((unsigned char)s[n]) &&
				     s[n] != ']'))
		return 0;
	return n;
}

static void parse_candidates(const char *list, struct git_bisect_step *out)
{
	size_t alloc = 0;

	for (const char *line = list; line && *line;) {
		size_t n = hash_at(line);

		if (n) {
			ALLOC_GROW(out->candidates, out->n_candidates + 1, alloc);
			out->candidates[out->n_candidates++] = xstrndup(line, n);
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
}

int git_bisect_parse(const char *text, struct git_bisect_step *out,
		     struct kd_err *err)
{
	const char *s;

	memset(out, 0, sizeof(*out));
	out->steps_left = -1;
	for (const char *line = text; line && *line; line = strchr(line, '\n')) {
		size_t n;

		line += *line == '\n';
		n = hash_at(line);
		if (n && !strncmp(line + n, " is the first bad commit", 24)) {
			out->state = GIT_BISECT_FOUND;
			out->commit = xstrndup(line, n);
			return 0;
		}
	}
	if ((s = strstr(text, "The first bad commit could be any of:\n"))) {
		out->state = GIT_BISECT_ONLY_SKIPPED;
		parse_candidates(s, out);
		if (out->n_candidates)
			return 0;
	} else if ((s = strstr(text, "Bisecting: ")) && (s = strchr(s, '\n')) &&
		   s[1] == '[' && hash_at(s + 2)) {
		const char *steps = strstr(text, "(roughly ");

		out->state = GIT_BISECT_NEXT;
		out->commit = xstrndup(s + 2, hash_at(s + 2));
		if (steps)
			out->steps_left = atoi(steps + strlen("(roughly "));
		return 0;
	}
	git_bisect_step_release(out);
	return kd_error(err, "cannot make sense of git bisect's output: %.200s",
			text);
}

void git_bisect_step_release(struct git_bisect_step *step)
{
	free(step->commit);
	for (size_t i = 0; i < step->n_candidates; i++)
		free(step->candidates[i]);
	free(step->candidates);
	memset(step, 0, sizeof(*step));
}

/* One bisection: what its steps share. */
struct bisect {
	const struct bisect_opts *o;
	struct bisect_result *res;
	char *git_dir;
	char *orig_head;	/* "refs/heads/<branch>", or a hash */
	char *good, *bad;	/* full hashes */
	char *last_good;	/* the last commit found good */
	char *host;
	char *metric;
	FILE *run_log;		/* the runner's lines */
	bool marked;		/* the marker is written: restore on the way out */
};

static char *commit_subject(struct bisect *b, const char *hash)
{
	const char *args[] = { "log", "-1", "--format=%s", hash, "--", NULL };
	char *subject = git_line(b->o->repo, args);

	return subject ? subject : xstrdup("");
}

static bool is_file(struct bisect *b, const char *name)
{
	char *path = xasprintf("%s/%s", b->git_dir, name);
	bool yes = path_exists(path);

	free(path);
	return yes;
}

/* git checkout of a commit (detached) or of the original branch. */
static int checkout(struct bisect *b, const char *what, struct kd_err *err)
{
	bool branch = !strncmp(what, "refs/heads/", 11);
	const char *args[] = { "checkout", "-q", branch ? what + 11 : "--detach",
			       branch ? "--" : what, branch ? NULL : "--",
			       NULL };

	return git_ok(b->o->repo, "checkout", args, NULL, err);
}

/*
 * Puts the repository back where it was: ends git's bisection, checks the
 * original branch out again and removes kdelta's marker.
 */
static int restore(struct bisect *b, const char *orig, struct kd_err *err)
{
	const char *reset[] = { "bisect", "reset", NULL };
	char *marker = xasprintf("%s/%s", b->git_dir, BISECT_MARKER);
	int ret = 0;

	if (is_file(b, "BISECT_START"))
		ret = git_ok(b->o->repo, "bisect reset", reset, NULL, err);
	if (!ret)
		ret = checkout(b, orig, err);
	if (!ret && unlink(marker) < 0 && errno != ENOENT)
		ret = kd_error(err, "%s: cannot remove: %s", marker,
			       strerror(errno));
	free(marker);
	return ret;
}

/*
 * A bisection kdelta left behind (it was killed) is undone; somebody
 * else's is refused.
 */
static int recover(struct bisect *b, struct kd_err *err, bool *usage)
{
	char *marker = xasprintf("%s/%s", b->git_dir, BISECT_MARKER);
	struct strbuf text = STRBUF_INIT;
	const char *head;
	int ret = 0;

	if (path_exists(marker)) {
		if (read_file(marker, &text, err) < 0) {
			ret = -1;
		} else if (!(head = strstr(text.buf, "\nhead ")) || !head[6]) {
			ret = kd_error(err, "%s: not written by kdelta bisect; remove it", marker);
		} else {
			strbuf_rtrim(&text);
			head += 6;
			fprintf(b->o->log, "bisect: an interrupted kdelta bisect was left in %s; resetting it\n",
				b->o->repo);
			ret = restore(b, head, err);
		}
	} else if (is_file(b, "BISECT_START")) {
		*usage = true;
		ret = kd_error(err, "%s: a git bisect is already in progress; finish it or end it with 'git bisect reset'",
			       b->o->repo);
	}
	strbuf_release(&text);
	free(marker);
	return ret;
}

/* --good/--bad to a full hash. */
static int resolve(struct bisect *b, const char *option, const char *rev,
		   char **out, struct kd_err *err)
{
	char *spec = xasprintf("%s^{commit}", rev);
	const char *args[] = { "rev-parse", "--verify", "--quiet", spec, NULL };

	*out = *rev == '-' ? NULL : git_line(b->o->repo, args);
	free(spec);
	if (!*out)
		return kd_error(err, "%s %s: no such commit in %s", option, rev,
				b->o->repo);
	return 0;
}

static int check_revisions(struct bisect *b, struct kd_err *err)
{
	const char *ancestor[] = { "merge-base", "--is-ancestor", b->good,
				   b->bad, NULL };
	int status;

	if (!strcmp(b->good, b->bad))
		return kd_error(err, "--good and --bad are the same commit " SHORT "; give an older good one",
				b->good);
	status = git_run(b->o->repo, ancestor, NULL, NULL, err);
	if (status < 0)
		return -1;
	if (status)
		return kd_error(err, "--good %s is not an ancestor of --bad %s; bisect needs a good commit older than the bad one",
				b->o->good, b->o->bad);
	return 0;
}

static int check_clean(struct bisect *b, struct kd_err *err)
{
	const char *status[] = { "status", "--porcelain", "--untracked-files=no",
				 NULL };
	struct strbuf out = STRBUF_INIT;
	int ret = git_ok(b->o->repo, "status", status, &out, err);

	if (!ret && out.len)
		ret = kd_error(err, "%s: the work tree has uncommitted changes; commit or stash them first",
			       b->o->repo);
	strbuf_release(&out);
	return ret;
}

/* Where HEAD is: a branch, or a detached commit. */
static int remember_head(struct bisect *b, struct kd_err *err)
{
	const char *symbolic[] = { "symbolic-ref", "-q", "HEAD", NULL };
	const char *hash[] = { "rev-parse", "--verify", "HEAD", NULL };

	b->orig_head = git_line(b->o->repo, symbolic);
	if (b->orig_head && strncmp(b->orig_head, "refs/heads/", 11)) {
		free(b->orig_head);
		b->orig_head = NULL;
	}
	if (!b->orig_head)
		b->orig_head = git_line(b->o->repo, hash);
	if (!b->orig_head)
		return kd_error(err, "%s: HEAD names no commit", b->o->repo);
	return 0;
}

static int write_marker(struct bisect *b, struct kd_err *err)
{
	char *path = xasprintf("%s/%s", b->git_dir, BISECT_MARKER);
	char *text = xasprintf("kdelta bisect --good %s --bad %s\nhead %s\n",
			       b->good, b->bad, b->orig_head);
	int ret = write_file_atomic(path, text, strlen(text), err);

	free(text);
	free(path);
	b->marked = ret == 0;
	return ret;
}

/* Everything about the repository before anything is checked out. */
static int prepare_repo(struct bisect *b, bool *usage, struct kd_err *err)
{
	const char *git_dir[] = { "rev-parse", "--absolute-git-dir", NULL };
	struct strbuf out = STRBUF_INIT;
	int status;

	*usage = true;
	if (!is_directory(b->o->repo))
		return kd_error(err, "--repo %s: no such directory", b->o->repo);
	status = git_run(b->o->repo, git_dir, &out, NULL, err);
	strbuf_rtrim(&out);
	b->git_dir = strbuf_detach(&out);
	if (status < 0) {
		*usage = false;
		return -1;
	}
	if (status)
		return kd_error(err, "--repo %s: not a git repository",
				b->o->repo);
	*usage = false;
	if (recover(b, err, usage) < 0)
		return -1;
	*usage = true;
	if (resolve(b, "--good", b->o->good, &b->good, err) < 0 ||
	    resolve(b, "--bad", b->o->bad, &b->bad, err) < 0 ||
	    check_revisions(b, err) < 0 || check_clean(b, err) < 0)
		return -1;
	*usage = false;
	if (remember_head(b, err) < 0)
		return -1;
	return write_marker(b, err);
}

/* The store's directory of a commit's runs of the job. */
static char *commit_dir(struct bisect *b, const char *hash)
{
	return runner_commit_dir(b->o->job, b->o->result_root, b->host, hash);
}

/* A commit's complete "ok" runs, and their values of the metric. */
struct samples {
	size_t runs;
	double *x;
	size_t n;
};

static void samples_release(struct samples *s)
{
	free(s->x);
	memset(s, 0, sizeof(*s));
}

static ssize_t matrix_row(const struct matrix *m, const char *metric)
{
	for (size_t i = 0; metric && i < m->nmetrics; i++)
		if (!strcmp(m->names[i], metric))
			return (ssize_t)i;
	return -1;
}

/* A commit directory's matrix; an empty one when nothing ran yet. */
static int load_matrix(const char *dir, struct matrix *m, struct variant *v,
		       struct kd_err *err)
{
	struct result_dir rd;
	int ret;

	memset(m, 0, sizeof(*m));
	memset(v, 0, sizeof(*v));
	if (!is_directory(dir))
		return 0;
	if (result_dir_from_path(dir, &rd, err) < 0)
		return -1;
	ret = result_dir_load(&rd, m, v, err);
	result_dir_release(&rd);
	return ret;
}

static int load_samples(struct bisect *b, const char *hash, struct samples *s,
			struct kd_err *err)
{
	char *dir = commit_dir(b, hash);
	struct matrix m;
	struct variant v;
	ssize_t row;

	memset(s, 0, sizeof(*s));
	if (load_matrix(dir, &m, &v, err) < 0) {
		free(dir);
		return -1;
	}
	free(v.notice);	/* the matrix rebuilt: nothing to do */
	s->runs = m.nruns;
	row = matrix_row(&m, b->metric);
	s->x = xcalloc(m.nruns ? m.nruns : 1, sizeof(*s->x));
	for (size_t r = 0; row >= 0 && r < m.nruns; r++) {
		double value = m.values[(size_t)row * m.nruns + r];

		if (!isnan(value))
			s->x[s->n++] = value;
	}
	matrix_release(&m);
	variant_release_runs(&v);
	free(v.failure);
	free(dir);
	return 0;
}

/* The mean, for progress lines. */
static double samples_mean(const struct samples *s)
{
	struct sample_summary sum;

	summarize(s->x, s->n, &sum);
	return sum.mean;
}

/* How one measured run of a commit went. */
enum run_outcome {
	RUN_OK,
	RUN_BUILD_FAILED,
	RUN_FAILED,
	RUN_STOPPED,
};

/*
 * ": <the line of the build's stderr that says why>": its first line that
 * has "error" in it (a compiler's first error is the cause, the later ones
 * its consequences), else its last line.
 */
static void add_build_error(struct strbuf *why, const struct strbuf *text)
{
	const char *line = NULL;
	size_t len = 0;

	for (const char *s = text->buf; *s;) {
		size_t n = strcspn(s, "\n");

		if (n && strstr_within(s, n, "error")) {
			line = s;
			len = n;
			break;
		}
		s += n + (s[n] == '\n');
	}
	strbuf_addstr(why, ": ");
	if (line)
		strbuf_add(why, line, len > 200 ? 200 : len);
	else
		text_tail_lines(text->buf, text->len, 1, 200, why);
	strbuf_rtrim(why);
	if (why->buf[why->len - 1] == ':')
		strbuf_setlen(why, why->len - 1);
}

/*
 * Builds the checked-out commit in the work tree, in a workspace's cgroup,
 * so that nothing the build starts outlives it, nor a kill -9 of kdelta
 * beyond the next start (workdir.h).
 */
static enum run_outcome build(struct bisect *b, const char *hash,
			      struct strbuf *why, struct kd_err *err)
{
	struct strbuf command = STRBUF_INIT;
	char *expanded = setup_command_expand(b->o->build, hash);
	char *env_commit = xasprintf("KDELTA_COMMIT=%s", hash);
	const char *env[] = { env_commit, NULL };
	char *log = xasprintf("%s/build-" SHORT ".log", b->o->work_dir->path,
			      hash);
	enum run_outcome outcome = RUN_BUILD_FAILED;
	struct proc p = PROC_INIT;
	struct workspace ws;

	strbuf_addstr(&command, "cd ");
	shell_quote(&command, b->o->repo);
	strbuf_addf(&command, " || exit 125\n%s", expanded);
	p.shell = command.buf;
	p.env = env;
	p.out_path = log;
	p.cancel_fd = b->o->cancel_fd;
	if (workspace_create(b->o->work_dir, &ws, NULL, err) < 0) {
		strbuf_addstr(why, err->msg);
		goto out;
	}
	p.cgroup = ws.cgroup;
	if (proc_run(&p, err) < 0) {
		strbuf_addstr(why, err->msg);
	} else if (p.end == PROC_CANCELLED) {
		outcome = RUN_STOPPED;
	} else if (p.end == PROC_EXITED && !p.status) {
		outcome = RUN_OK;
	} else {
		proc_describe_end(&p, why);
		add_build_error(why, &p.err_buf);
	}
	if (workspace_remove(&ws, err) < 0 && outcome == RUN_OK) {
		outcome = RUN_BUILD_FAILED;
		strbuf_addstr(why, err->msg);
	}
	proc_clear(&p);
out:
	strbuf_release(&command);
	free(log);
	free(env_commit);
	free(expanded);
	return outcome;
}

/* The reason the last run of a commit failed, from its completion mark. */
static void last_failure(struct bisect *b, const char *hash,
			 struct strbuf *why)
{
	char *dir = commit_dir(b, hash), *run_dir = NULL, *status = NULL;
	unsigned *runs = NULL;
	size_t n = 0;
	struct kd_err err;

	if (store_list_runs(dir, &runs, &n, &err) == 0 && n) {
		run_dir = xasprintf("%s/%u", dir, runs[n - 1]);
		status = store_run_status(run_dir);
	}
	if (status && !strncmp(status, "failed: ", 8))
		strbuf_addf(why, "the job failed: %s", status + 8);
	else
		strbuf_addstr(why, "the job failed");
	free(status);
	free(run_dir);
	free(runs);
	free(dir);
}

/*
 * One more run of the job for a commit: check it out, build it, run the
 * job once into the store.  -1 only for errors that end the bisection.
 */
static int run_once(struct bisect *b, const char *hash,
		    enum run_outcome *outcome, struct strbuf *why,
		    struct kd_err *err)
{
	const char *commits[] = { hash };
	struct runner_opts ro = {
		.commits = commits, .n_commits = 1, .runs = 1,
		.result_root = b->o->result_root, .work_dir = b->o->work_dir,
		.cancel_fd = b->o->cancel_fd, .log = b->run_log,
	};
	struct job *job = (struct job *)b->o->job;
	struct runner_summary summary;
	int ret;

	strbuf_reset(why);
	if (checkout(b, hash, err) < 0)
		return -1;
	*outcome = build(b, hash, why, err);
	if (*outcome != RUN_OK)
		return 0;
	ret = runner_run(&job, 1, &ro, &summary, err);
	fflush(b->run_log);
	if (ret < 0 && summary.store_failed)
		b->res->store_failed = true;
	if (ret == 0 && summary.signal)
		*outcome = RUN_STOPPED;
	else if (ret == 0 && summary.failed) {
		*outcome = RUN_FAILED;
		last_failure(b, hash, why);
	}
	runner_summary_release(&summary);
	return ret;
}

/* The job's key result, when the good commit's results have it. */
static char *key_result(const char *dir, const struct matrix *m)
{
	char *metric = store_key_result(dir);

	if (metric && matrix_row(m, metric) < 0) {
		free(metric);
		metric = NULL;
	}
	return metric;
}

static const char *nearest_name(const struct matrix *m, const char *name)
{
	const char *best = NULL;
	size_t best_distance = 4;

	for (size_t i = 0; i < m->nmetrics; i++) {
		size_t d = edit_distance(name, m->names[i]);

		if (d < best_distance) {
			best_distance = d;
			best = m->names[i];
		}
	}
	return best;
}

/*
 * Once the good commit has a complete run: --metric must be one of its
 * metrics; without it, the key result is chosen.
 */
static int choose_metric(struct bisect *b, struct kd_err *err)
{
	char *dir = commit_dir(b, b->good);
	struct matrix m;
	struct variant v;
	int ret = 0;

	if (load_matrix(dir, &m, &v, err) < 0) {
		free(dir);
		return -1;
	}
	free(v.notice);
	if (!m.nruns) {
		/* Not yet. */
	} else if (b->o->metric && matrix_row(&m, b->o->metric) < 0) {
		const char *near = nearest_name(&m, b->o->metric);

		ret = kd_error(err, "--metric %s: the job has no such metric%s%s%s",
			       b->o->metric, near ? "; did you mean '" : "",
			       near ? near : "", near ? "'?" : "");
	} else if (b->o->metric) {
		b->metric = xstrdup(b->o->metric);
	} else if (!(b->metric = key_result(dir, &m))) {
		ret = kd_error(err, "the job's workload printed no result in %s; name the metric to bisect with --metric",
			       dir);
	}
	matrix_release(&m);
	variant_release_runs(&v);
	free(v.failure);
	free(dir);
	return ret;
}

/* Keeps the workload's results and the bisected metric of a matrix. */
static void keep_results(struct matrix *m, const char *metric)
{
	size_t kept = 0;

	for (size_t i = 0; i < m->nmetrics; i++) {
		if (!metric_is_key(m->names[i]) && strcmp(m->names[i], metric)) {
			free(m->names[i]);
			continue;
		}
		m->names[kept] = m->names[i];
		memmove(&m->values[kept * m->nruns], &m->values[i * m->nruns],
			m->nruns * sizeof(*m->values));
		kept++;
	}
	m->nmetrics = kept;
}

/* The group's parameters, testcase and host, from the base's job. */
static int comparison_params(struct comparison *cmp, const char *dir,
			     struct kd_err *err)
{
	struct result_dir rd;
	struct job_params p;

	if (result_dir_from_path(dir, &rd, err) < 0)
		return -1;
	if (result_dir_params(&rd, &p, err) < 0) {
		result_dir_release(&rd);
		return -1;
	}
	cmp->name = xstrdup(rd.path);
	cmp->params = p.items;
	cmp->nparams = p.n;
	cmp->testcase = p.testcase;
	cmp->host = p.host;
	memset(&p, 0, sizeof(p));
	result_dir_release(&rd);
	return 0;
}

/*
 * "kdelta compare base hash", decided with kdelta compare's defaults and
 * --min-change; results_only keeps the workload's results and the metric.
 */
static int compare_commits(struct bisect *b, const char *base,
			   const char *hash, bool results_only,
			   struct comparison *cmp, struct compare_options *opt,
			   struct kd_err *err)
{
	const char *hashes[2] = { base, hash };
	struct matrix m[2];
	struct matrix *mp[2] = { &m[0], &m[1] };
	int ret = 0;

	memset(cmp, 0, sizeof(*cmp));
	*opt = (struct compare_options){ .test = SIG_WELCH, .fdr = 0.05,
					 .min_change = b->o->min_change,
					 .all = results_only };
	cmp->variants = xcalloc(2, sizeof(*cmp->variants));
	cmp->nvariants = 2;
	for (size_t i = 0; i < 2; i++) {
		struct variant *v = &cmp->variants[i];

		char *dir = commit_dir(b, hashes[i]);

		if (load_matrix(dir, &m[i], v, err) < 0) {
			for (size_t j = 0; j < i; j++)
				matrix_release(&m[j]);
			free(dir);
			return -1;
		}
		v->path = dir;
		if (results_only)
			keep_results(&m[i], b->metric);
		v->label = xstrdup(hashes[i]);
		v->subject = commit_subject(b, hashes[i]);
	}
	ret = comparison_params(cmp, cmp->variants[0].path, err);
	if (!ret) {
		comparison_add_matrices(cmp, mp);
		compare_decide(cmp, opt);
	}
	matrix_release(&m[0]);
	matrix_release(&m[1]);
	return ret;
}

static const struct metric_row *find_row(const struct comparison *cmp,
					 const char *metric)
{
	for (size_t r = 0; r < cmp->nrows; r++)
		if (!strcmp(cmp->rows[r].name, metric))
			return &cmp->rows[r];
	return NULL;
}

/*
 * Whether good and bad differ in the metric, as kdelta compare decides
 * it; when they cannot differ any more, the table goes into the result.
 */
static int reproduced(struct bisect *b, const struct samples *g,
		      const struct samples *s, bool last, bool *yes,
		      struct kd_err *err)
{
	struct comparison cmp;
	struct compare_options opt;
	const struct metric_row *row;

	*yes = false;
	if (compare_commits(b, b->good, b->bad, true, &cmp, &opt, err) < 0) {
		comparison_release(&cmp);
		return -1;
	}
	row = find_row(&cmp, b->metric);
	*yes = row && row->cells[1].verdict == VERDICT_CHANGED;
	if (*yes || last) {
		fprintf(b->o->log, "bisect: good " SHORT ", bad " SHORT ": %zu and %zu runs, %s %.6g and %.6g",
			b->good, b->bad, g->n, s->n, b->metric, samples_mean(g), samples_mean(s));
		if (row && row->cells[1].verdict != VERDICT_ABSENT)
			fprintf(b->o->log, " (%+.1f%%, p = %.2g)",
				row->cells[1].change, row->cells[1].test.p);
		fprintf(b->o->log, " → %s\n", *yes ? "they differ"
						   : "not reproducible");
	}
	if (!*yes && last) {
		b->res->cmp = cmp;
		b->res->opt = opt;
	} else {
		comparison_release(&cmp);
	}
	return 0;
}

static bool stopped(struct bisect *b)
{
	int sig = proc_caught_signal(b->o->cancel_fd);

	if (sig) {
		b->res->end = BISECT_STOPPED;
		b->res->signal = sig;
	}
	return sig != 0;
}

/* good or bad could not be measured: there is nothing to bisect against. */
static int end_failed(const char *which, const char *hash,
		      enum run_outcome outcome, const struct strbuf *why,
		      struct kd_err *err)
{
	return kd_error(err, "%s commit " SHORT ": %s%s", which, hash,
			outcome == RUN_BUILD_FAILED ? "the build failed: " : "",
			why->buf);
}

/*
 * Step 1: runs good and bad in turn (the one with fewer runs first) until
 * the metric differs as kdelta compare decides it, with at least --runs
 * runs (and 3) each, or both have --max-runs.  *differ says which.
 */
static int show_difference(struct bisect *b, bool *differ, struct kd_err *err)
{
	unsigned need = b->o->runs > BISECT_MIN_REPRODUCE_RUNS
		? b->o->runs : BISECT_MIN_REPRODUCE_RUNS;
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	*differ = false;
	while (!ret && !stopped(b)) {
		struct samples g, s;
		const char *next;
		enum run_outcome outcome;
		bool last;

		if ((!b->metric && choose_metric(b, err) < 0) ||
		    load_samples(b, b->good, &g, err) < 0) {
			ret = -1;
			break;
		}
		if (load_samples(b, b->bad, &s, err) < 0) {
			samples_release(&g);
			ret = -1;
			break;
		}
		last = g.runs >= b->o->max_runs && s.runs >= b->o->max_runs;
		if (b->metric && ((g.n >= need && s.n >= need) || last))
			ret = reproduced(b, &g, &s, last, differ, err);
		next = g.runs <= s.runs ? b->good : b->bad;
		if ((next == b->good ? g.runs : s.runs) >= b->o->max_runs)
			next = next == b->good ? b->bad : b->good;
		samples_release(&g);
		samples_release(&s);
		if (ret < 0 || *differ || last)
			break;
		ret = run_once(b, next, &outcome, &why, err);
		if (!ret && outcome != RUN_OK && outcome != RUN_STOPPED)
			ret = end_failed(next == b->good ? "good" : "bad", next,
					 outcome, &why, err);
	}
	if (!ret && !*differ && !stopped(b))
		b->res->end = BISECT_NOT_REPRODUCIBLE;
	strbuf_release(&why);
	return ret;
}

static const char *const class_names[] = {
	[BISECT_UNDECIDED] = "skip",
	[BISECT_GOOD] = "good",
	[BISECT_BAD] = "bad",
};

/* The variance of a sample's mean, divided by scale. */
static double mean_variance(const struct samples *x, double scale)
{
	struct sample_summary sum;

	summarize(x->x, x->n, &sum);
	return sum.stddev * sum.stddev / (x->n * scale);
}

/*
 * Where one more run helps a classification most: the commit until it has
 * --runs runs, then whichever of the commit, good and bad contributes most
 * to the standard error of bisect_classify()'s test (good's and bad's
 * means count a quarter each: the midpoint is their average), among those
 * below --max-runs.  Good and bad are measured once and for all at first;
 * a noisy run among them would otherwise leave every commit undecided.
 * NULL: nothing can be added.
 */
static const char *next_run(struct bisect *b, const struct samples *g,
			    const struct samples *s, const struct samples *x,
			    const char *hash)
{
	const struct samples *which[] = { x, g, s };
	const char *hashes[] = { hash, b->good, b->bad };
	const double scale[] = { 1, 4, 4 };
	const char *best = NULL;
	double most = -1;

	if (x->n < b->o->runs)
		return x->runs < b->o->max_runs ? hash : NULL;
	for (size_t i = 0; i < ARRAY_SIZE(which); i++) {
		double v = mean_variance(which[i], scale[i]);

		if (which[i]->runs < b->o->max_runs && v > most) {
			most = v;
			best = hashes[i];
		}
	}
	return best;
}

/* One more run of good or bad, for a classification. */
static int run_end(struct bisect *b, const char *hash, struct samples *end,
		   size_t *added, struct kd_err *err)
{
	struct strbuf why = STRBUF_INIT;
	enum run_outcome outcome;
	int ret = run_once(b, hash, &outcome, &why, err);

	if (!ret && outcome != RUN_OK && outcome != RUN_STOPPED)
		ret = end_failed(hash == b->good ? "good" : "bad", hash,
				 outcome, &why, err);
	strbuf_release(&why);
	if (ret < 0)
		return -1;
	*added += outcome == RUN_OK;
	if (outcome == RUN_STOPPED)
		return 0;
	samples_release(end);
	return load_samples(b, hash, end, err);
}

/* "3 runs (3 new), exec.ops_per_sec 292261, 1 more of good". */
static void describe_runs(struct bisect *b, const struct samples *x,
			  size_t stored, const size_t *more,
			  const struct strbuf *why, struct strbuf *line)
{
	strbuf_addf(line, "%zu runs (%zu new), %s %.6g", x->runs,
		    x->runs - stored, b->metric, samples_mean(x));
	if (more[0])
		strbuf_addf(line, ", %zu more of good", more[0]);
	if (more[1])
		strbuf_addf(line, ", %zu more of bad", more[1]);
	if (why->len)
		strbuf_addf(line, ", %s", why->buf);
}

/*
 * Step 2, one commit: adds runs (see next_run()) until it is classified,
 * from --runs runs on; undecided when nothing can be added any more, or
 * when it cannot be built or run: skip.
 */
static int test_commit(struct bisect *b, struct samples *g, struct samples *s,
		       const char *hash, enum bisect_class *verdict,
		       struct strbuf *line, struct kd_err *err)
{
	struct bisect_classification c = { .verdict = BISECT_UNDECIDED,
					   .p = 1 };
	struct strbuf why = STRBUF_INIT;
	enum run_outcome outcome = RUN_OK;
	size_t stored, more[2] = { 0, 0 };
	struct samples x;
	const char *next;
	int ret = load_samples(b, hash, &x, err);

	stored = x.runs;
	while (!ret && outcome == RUN_OK && !stopped(b)) {
		if (x.n >= b->o->runs) {
			bisect_classify(g->x, g->n, s->x, s->n, x.x, x.n, &c);
			if (c.verdict != BISECT_UNDECIDED)
				break;
		}
		next = next_run(b, g, s, &x, hash);
		if (!next) {
			strbuf_addf(&why, "undecided (p = %.2g)", c.p);
			break;
		}
		if (next != hash) {
			ret = run_end(b, next, next == b->good ? g : s,
				      &more[next != b->good], err);
			continue;
		}
		samples_release(&x);
		ret = run_once(b, hash, &outcome, &why, err);
		if (!ret)
			ret = load_samples(b, hash, &x, err);
	}
	*verdict = c.verdict;
	if (!ret && outcome == RUN_BUILD_FAILED)
		strbuf_addf(line, "build failed (%s)", why.buf);
	else if (!ret && outcome == RUN_FAILED)
		strbuf_addf(line, "%s", why.buf);
	else if (!ret)
		describe_runs(b, &x, stored, more, &why, line);
	samples_release(&x);
	strbuf_release(&why);
	return ret;
}

/* Runs "git bisect <args>" and parses what it says. */
static int git_bisect(struct bisect *b, const char *const *args,
		      struct git_bisect_step *step, struct kd_err *err)
{
	struct strbuf out = STRBUF_INIT, errout = STRBUF_INIT;
	int status = git_run(b->o->repo, args, &out, &errout, err);
	int ret = status < 0 ? -1 : 0;

	/* Exit status 2 comes with "only 'skip'ped commits left". */
	memset(step, 0, sizeof(*step));
	if (!ret && git_bisect_parse(out.buf, step, err) < 0) {
		char *what = xasprintf("bisect %s", args[1]);

		ret = git_error(err, b->o->repo, what, &out, &errout);
		free(what);
	}
	strbuf_release(&out);
	strbuf_release(&errout);
	return ret;
}

/* git bisect good/bad/skip: step becomes what git says next. */
static int mark_commit(struct bisect *b, const char *verdict,
		       struct git_bisect_step *step, struct kd_err *err)
{
	const char *args[] = { "bisect", verdict, step->commit, NULL };
	struct git_bisect_step next;
	int ret = git_bisect(b, args, &next, err);

	git_bisect_step_release(step);
	*step = next;
	return ret;
}

static void print_testing(struct bisect *b, const struct git_bisect_step *step,
			  const struct strbuf *line, enum bisect_class verdict)
{
	fprintf(b->o->log, "bisect: testing " SHORT, step->commit);
	if (step->steps_left >= 0)
		fprintf(b->o->log, " (%d step%s left)", step->steps_left,
			step->steps_left == 1 ? "" : "s");
	fprintf(b->o->log, ": %s → %s\n", line->buf, class_names[verdict]);
}

/* Step 2: git bisect start, then good/bad/skip until git is done. */
static int bisect_steps(struct bisect *b, struct samples *g,
			struct samples *s, struct git_bisect_step *step,
			struct kd_err *err)
{
	const char *start[] = { "bisect", "start", b->bad, b->good, "--", NULL };
	struct strbuf line = STRBUF_INIT;
	int ret = git_bisect(b, start, step, err);

	while (!ret && step->state == GIT_BISECT_NEXT && !stopped(b)) {
		enum bisect_class verdict;

		strbuf_reset(&line);
		ret = test_commit(b, g, s, step->commit, &verdict, &line, err);
		if (ret < 0 || b->res->end == BISECT_STOPPED || stopped(b))
			break;
		print_testing(b, step, &line, verdict);
		if (verdict == BISECT_GOOD) {
			free(b->last_good);
			b->last_good = xstrdup(step->commit);
		}
		ret = mark_commit(b, class_names[verdict], step, err);
	}
	strbuf_release(&line);
	return ret;
}

/*
 * The commit to compare the first bad one with: its parent, measured with
 * --runs runs if bisect never ran it; the last good commit when the parent
 * cannot be built or run.
 */
static int choose_base(struct bisect *b, struct kd_err *err)
{
	char *spec = xasprintf("%s^", b->res->first_bad);
	const char *args[] = { "rev-parse", "--verify", "--quiet", spec, NULL };
	char *parent = git_line(b->o->repo, args);
	struct strbuf why = STRBUF_INIT;
	enum run_outcome outcome = RUN_OK;
	struct samples x = { 0 };
	size_t stored = 0;
	int ret = 0;

	free(spec);
	if (parent && (ret = load_samples(b, parent, &x, err)) == 0)
		stored = x.runs;
	while (parent && !ret && x.n < b->o->runs && x.runs < b->o->max_runs &&
	       outcome == RUN_OK) {
		samples_release(&x);
		ret = run_once(b, parent, &outcome, &why, err);
		if (!ret)
			ret = load_samples(b, parent, &x, err);
	}
	if (!ret && outcome == RUN_STOPPED)
		stopped(b);
	else if (!ret && parent && x.runs > stored)
		fprintf(b->o->log, "bisect: measured " SHORT ", the parent of the first bad commit: %zu runs, %s %.6g\n",
			parent, x.runs, b->metric, samples_mean(&x));
	if (!ret && parent && (outcome != RUN_OK || x.n < b->o->runs)) {
		fprintf(b->o->log, "bisect: cannot measure the parent " SHORT " (%s); comparing the last good commit instead\n",
			parent, why.len ? why.buf : "too few results");
		free(parent);
		parent = NULL;
	}
	b->res->base_is_parent = parent != NULL;
	b->res->base = parent ? parent
		: xstrdup(b->last_good ? b->last_good : b->good);
	samples_release(&x);
	strbuf_release(&why);
	return ret;
}

/* Step 3: the first bad commit's subject, its table, git's log. */
static int finish(struct bisect *b, const struct git_bisect_step *step,
		  struct kd_err *err)
{
	const char *log[] = { "bisect", "log", NULL };

	if (step->state == GIT_BISECT_ONLY_SKIPPED) {
		b->res->end = BISECT_RANGE;
		size_t n = step->n_candidates;

		b->res->candidates = xcalloc(n, sizeof(char *));
		b->res->candidate_subjects = xcalloc(n, sizeof(char *));
		for (size_t i = 0; i < n; i++) {
			b->res->candidates[i] = xstrdup(step->candidates[i]);
			b->res->candidate_subjects[i] =
				commit_subject(b, step->candidates[i]);
		}
		b->res->n_candidates = n;
	} else {
		b->res->end = BISECT_FOUND;
		b->res->first_bad = xstrdup(step->commit);
		b->res->subject = commit_subject(b, step->commit);
	}
	if (git_ok(b->o->repo, "bisect log", log, &b->res->log, err) < 0)
		return -1;
	strbuf_addch(&b->res->log, '\n');
	if (b->res->end != BISECT_FOUND)
		return 0;
	if (choose_base(b, err) < 0)
		return -1;
	if (b->res->end == BISECT_STOPPED)
		return 0;
	return compare_commits(b, b->res->base, b->res->first_bad, false,
			       &b->res->cmp, &b->res->opt, err);
}

/* Steps 1 to 3, once the repository is ready. */
static int bisect_all(struct bisect *b, struct kd_err *err)
{
	struct git_bisect_step step = { 0 };
	struct samples g = { 0 }, s = { 0 };
	bool differ;
	int ret = show_difference(b, &differ, err);

	if (!ret && differ && (ret = load_samples(b, b->good, &g, err)) == 0 &&
	    (ret = load_samples(b, b->bad, &s, err)) == 0)
		ret = bisect_steps(b, &g, &s, &step, err);
	if (!ret && differ && b->res->end != BISECT_STOPPED && !stopped(b))
		ret = finish(b, &step, err);
	git_bisect_step_release(&step);
	samples_release(&g);
	samples_release(&s);
	return ret;
}

static int open_run_log(struct bisect *b, struct kd_err *err)
{
	char *path = xasprintf("%s/bisect-runs.log", b->o->work_dir->path);

	b->run_log = fopen(path, "a");
	if (!b->run_log)
		kd_error(err, "%s: %s", path, strerror(errno));
	free(path);
	return b->run_log ? 0 : -1;
}

/* What the runner needs to find a commit's runs: the host. */
static int prepare_store(struct bisect *b, struct kd_err *err)
{
	const struct workload *wl = workload_find(job_workload(b->o->job));
	struct machine m;

	if (!wl)
		return kd_error(err, "%s: the job has no workload section",
				b->o->job->source);
	if (machine_read(&m, err) < 0)
		return -1;
	b->host = xstrdup(m.hostname);
	machine_release(&m);
	return open_run_log(b, err);
}

int bisect_run(const struct bisect_opts *opts, struct bisect_result *res,
	       bool *usage, struct kd_err *err)
{
	struct bisect b = { .o = opts, .res = res };
	int ret;

	memset(res, 0, sizeof(*res));
	strbuf_init(&res->log);
	*usage = false;
	ret = prepare_store(&b, err);
	if (!ret)
		ret = prepare_repo(&b, usage, err);
	if (!ret)
		ret = bisect_all(&b, err);
	if (b.marked) {
		struct kd_err first = *err, restore_err;

		if (restore(&b, b.orig_head, &restore_err) < 0) {
			if (ret < 0)
				kd_error(err, "%s (and putting the repository back failed too: %s)",
					 first.msg, restore_err.msg);
			else
				*err = restore_err;
			ret = -1;
		}
	}
	res->metric = b.metric;
	if (b.run_log)
		fclose(b.run_log);
	free(b.git_dir);
	free(b.orig_head);
	free(b.good);
	free(b.bad);
	free(b.last_good);
	free(b.host);
	return ret;
}

void bisect_result_release(struct bisect_result *res)
{
	free(res->metric);
	free(res->first_bad);
	free(res->subject);
	free(res->base);
	for (size_t i = 0; i < res->n_candidates; i++) {
		free(res->candidates[i]);
		free(res->candidate_subjects[i]);
	}
	free(res->candidates);
	free(res->candidate_subjects);
	comparison_release(&res->cmp);
	strbuf_release(&res->log);
	memset(res, 0, sizeof(*res));
}

void bisect_keep_result(struct comparison *cmp, const char *metric)
{
	size_t kept = 0;

	for (size_t r = 0; r < cmp->nrows; r++) {
		struct metric_row *row = &cmp->rows[r];

		if (row->key && strcmp(row->name, metric)) {
			metric_row_release(row, cmp->nvariants);
			continue;
		}
		cmp->rows[kept++] = *row;
	}
	cmp->nrows = kept;
}
