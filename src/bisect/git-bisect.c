// SPDX-License-Identifier: GPL-2.0
/*
 * Driving "git bisect" for kdelta bisect: git decides which commit to test
 * next, kdelta tells it good, bad or skip.  A marker file in the git
 * directory says that kdelta is bisecting there and where HEAD was, so that
 * a kdelta killed in the middle can be cleaned up after by the next one.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kdelta/git-bisect.h"
#include "kdelta/git.h"
#include "kdelta/util.h"

/* Hashes in messages: 12 digits, as robot mails have. */
#define SHORT "%.12s"
/* The file in the git directory that says kdelta is bisecting there. */
#define BISECT_MARKER "KDELTA_BISECT"

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

static char *git_path(const struct git_bisect *gb, const char *name)
{
	return xasprintf("%s/%s", gb->git_dir, name);
}

static bool is_file(const struct git_bisect *gb, const char *name)
{
	char *path = git_path(gb, name);
	bool yes = path_exists(path);

	free(path);
	return yes;
}

/*
 * Puts the repository back where it was: ends git's bisection, checks the
 * original branch out again and removes kdelta's marker.
 */
static int restore(struct git_bisect *gb, const char *orig, struct kd_err *err)
{
	const char *reset[] = { "bisect", "reset", NULL };
	char *marker = git_path(gb, BISECT_MARKER);
	int ret = 0;

	if (is_file(gb, "BISECT_START"))
		ret = git_ok(gb->repo, "bisect reset", reset, NULL, err);
	if (!ret)
		ret = git_checkout(gb->repo, orig, err);
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
static int recover(struct git_bisect *gb, FILE *log, struct kd_err *err)
{
	char *marker = git_path(gb, BISECT_MARKER);
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
			fprintf(log, "bisect: an interrupted kdelta bisect was left in %s; resetting it\n",
				gb->repo);
			ret = restore(gb, head, err);
		}
	} else if (is_file(gb, "BISECT_START")) {
		kd_error(err, "%s: a git bisect is already in progress; finish it or end it with 'git bisect reset'",
			 gb->repo);
		ret = kd_err_kind(err, KD_EXIT_USAGE);
	}
	strbuf_release(&text);
	free(marker);
	return ret;
}

/* A revision given as an option, to a full hash. */
static int resolve(const struct git_bisect *gb, const char *option,
		   const char *rev, char **out, struct kd_err *err)
{
	*out = git_commit_hash(gb->repo, rev);
	if (!*out)
		return kd_error(err, "%s %s: no such commit in %s", option, rev,
				gb->repo);
	return 0;
}

static int check_revisions(const struct git_bisect *gb, const char *good,
			   const char *bad, struct kd_err *err)
{
	const char *ancestor[] = { "merge-base", "--is-ancestor", gb->good,
				   gb->bad, NULL };
	int status;

	if (!strcmp(gb->good, gb->bad))
		return kd_error(err, "--good and --bad are the same commit " SHORT "; give an older good one",
				gb->good);
	status = git_run(gb->repo, ancestor, NULL, NULL, err);
	if (status < 0)
		return -1;
	if (status)
		return kd_error(err, "--good %s is not an ancestor of --bad %s; bisect needs a good commit older than the bad one",
				good, bad);
	return 0;
}

static int check_clean(const struct git_bisect *gb, struct kd_err *err)
{
	const char *status[] = { "status", "--porcelain", "--untracked-files=no",
				 NULL };
	struct strbuf out = STRBUF_INIT;
	int ret = git_ok(gb->repo, "status", status, &out, err);

	if (!ret && out.len)
		ret = kd_error(err, "%s: the work tree has uncommitted changes; commit or stash them first",
			       gb->repo);
	strbuf_release(&out);
	return ret;
}

/* Where HEAD is: a branch, or a detached commit. */
static int remember_head(struct git_bisect *gb, struct kd_err *err)
{
	gb->orig_head = git_head(gb->repo);
	if (!gb->orig_head)
		return kd_error(err, "%s: HEAD names no commit", gb->repo);
	return 0;
}

static int write_marker(struct git_bisect *gb, struct kd_err *err)
{
	char *path = git_path(gb, BISECT_MARKER);
	char *text = xasprintf("kdelta bisect --good %s --bad %s\nhead %s\n",
			       gb->good, gb->bad, gb->orig_head);
	int ret = write_file_atomic(path, text, strlen(text), err);

	free(text);
	free(path);
	gb->marked = ret == 0;
	return ret;
}

int git_bisect_open(struct git_bisect *gb, const char *repo, const char *good,
		    const char *bad, FILE *log, struct kd_err *err)
{
	const char *git_dir[] = { "rev-parse", "--absolute-git-dir", NULL };
	struct strbuf out = STRBUF_INIT;
	int status;

	memset(gb, 0, sizeof(*gb));
	gb->repo = repo;
	if (!is_directory(repo)) {
		kd_error(err, "--repo %s: no such directory", repo);
		return kd_err_kind(err, KD_EXIT_USAGE);
	}
	status = git_run(repo, git_dir, &out, NULL, err);
	strbuf_rtrim(&out);
	gb->git_dir = strbuf_detach(&out);
	if (status < 0)
		return -1;
	if (status) {
		kd_error(err, "--repo %s: not a git repository", repo);
		return kd_err_kind(err, KD_EXIT_USAGE);
	}
	if (recover(gb, log, err) < 0)
		return -1;
	if (resolve(gb, "--good", good, &gb->good, err) < 0 ||
	    resolve(gb, "--bad", bad, &gb->bad, err) < 0 ||
	    check_revisions(gb, good, bad, err) < 0 || check_clean(gb, err) < 0)
		return kd_err_kind(err, KD_EXIT_USAGE);
	if (remember_head(gb, err) < 0)
		return -1;
	return write_marker(gb, err);
}

/* Runs "git bisect <args>" and parses what it says. */
static int git_bisect_command(struct git_bisect *gb, const char *const *args,
			      struct git_bisect_step *step, struct kd_err *err)
{
	struct strbuf out = STRBUF_INIT, errout = STRBUF_INIT;
	int status = git_run(gb->repo, args, &out, &errout, err);
	int ret = status < 0 ? -1 : 0;

	/* Exit status 2 comes with "only 'skip'ped commits left". */
	memset(step, 0, sizeof(*step));
	if (!ret && git_bisect_parse(out.buf, step, err) < 0) {
		char *what = xasprintf("bisect %s", args[1]);

		ret = git_error(err, gb->repo, what, &out, &errout);
		free(what);
	}
	strbuf_release(&out);
	strbuf_release(&errout);
	return ret;
}

int git_bisect_start(struct git_bisect *gb, const char *good,
		     const char *bad, struct git_bisect_step *step,
		     struct kd_err *err)
{
	const char *reset[] = { "bisect", "reset", NULL };
	const char *start[] = { "bisect", "start", bad, good, "--", NULL };

	/* Anew: "git bisect start" would take the bisected commit as HEAD. */
	if (is_file(gb, "BISECT_START") &&
	    git_ok(gb->repo, "bisect reset", reset, NULL, err) < 0)
		return -1;
	return git_bisect_command(gb, start, step, err);
}

int git_bisect_mark(struct git_bisect *gb, const char *verdict,
		    struct git_bisect_step *step, struct kd_err *err)
{
	const char *args[] = { "bisect", verdict, step->commit, NULL };
	struct git_bisect_step next;
	int ret = git_bisect_command(gb, args, &next, err);

	git_bisect_step_release(step);
	*step = next;
	return ret;
}

int git_bisect_log(struct git_bisect *gb, struct strbuf *out,
		   struct kd_err *err)
{
	const char *log[] = { "bisect", "log", NULL };

	return git_ok(gb->repo, "bisect log", log, out, err);
}

int git_bisect_close(struct git_bisect *gb, struct kd_err *err)
{
	int ret = gb->marked ? restore(gb, gb->orig_head, err) : 0;

	free(gb->git_dir);
	free(gb->orig_head);
	free(gb->good);
	free(gb->bad);
	memset(gb, 0, sizeof(*gb));
	return ret;
}
