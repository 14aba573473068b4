/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_GIT_BISECT_H
#define KDELTA_GIT_BISECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kdelta/err.h"
#include "kdelta/strbuf.h"

/*
 * Driving "git bisect" in a work tree for kdelta bisect (src/bisect/git-bisect.c):
 * the checks before it starts, the commands and what they answer, and
 * putting the repository back where it was, also after a kdelta that was
 * killed in the middle of a bisection.  What git says is parsed with
 * LC_ALL=C (git.h).
 */

/* What one "git bisect start/good/bad/skip" said. */
enum git_bisect_state {
	GIT_BISECT_NEXT,	/* a commit to test was checked out */
	GIT_BISECT_FOUND,	/* "<hash> is the first bad commit" */
	GIT_BISECT_ONLY_SKIPPED,	/* "only 'skip'ped commits left" */
};

struct git_bisect_step {
	enum git_bisect_state state;
	char *commit;		/* NEXT: to test; FOUND: the first bad one */
	int steps_left;		/* NEXT: "roughly N steps", -1 if unsaid */
	char **candidates;	/* ONLY_SKIPPED: "could be any of" */
	size_t n_candidates;
};

/*
 * Parses the output of a git bisect command run with LC_ALL=C.  Returns -1
 * when it is none of the above.
 */
int git_bisect_parse(const char *text, struct git_bisect_step *out,
		     struct kd_err *err);
void git_bisect_step_release(struct git_bisect_step *step);

/* A bisection in a work tree. */
struct git_bisect {
	const char *repo;	/* the work tree, absolute */
	char *git_dir;
	char *orig_head;	/* "refs/heads/<branch>", or a hash */
	char *good, *bad;	/* full hashes */
	bool marked;		/* kdelta's marker is written: close() restores */
};

/*
 * Gets repo ready to bisect between the revisions good and bad: a git work
 * tree without uncommitted changes, good an ancestor of bad, no bisection
 * of somebody else's in progress (one that kdelta left behind, killed, is
 * reset, with a line to log).  Writes kdelta's marker, which says where
 * HEAD was.  Usage problems (no such directory, not a repository, a bad
 * revision, changes) are errors of the kind KD_EXIT_USAGE (kd_err_kind()).
 */
int git_bisect_open(struct git_bisect *gb, const char *repo, const char *good,
		    const char *bad, FILE *log, struct kd_err *err);
/*
 * "git bisect start bad good" (after "git bisect reset" when a bisection
 * is under way: a search may start anew with another bad commit), then
 * good/bad/skip: what git says next.
 */
int git_bisect_start(struct git_bisect *gb, const char *good,
		     const char *bad, struct git_bisect_step *step,
		     struct kd_err *err);
int git_bisect_mark(struct git_bisect *gb, const char *verdict,
		    struct git_bisect_step *step, struct kd_err *err);
/* Appends "git bisect log". */
int git_bisect_log(struct git_bisect *gb, struct strbuf *out,
		   struct kd_err *err);
/*
 * Ends the bisection and puts HEAD back where it was, if open() got as far
 * as the marker; releases gb either way.
 */
int git_bisect_close(struct git_bisect *gb, struct kd_err *err);

#endif
