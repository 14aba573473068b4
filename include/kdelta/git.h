/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_GIT_H
#define KDELTA_GIT_H

#include "kdelta/err.h"
#include "kdelta/strbuf.h"

/*
 * Running git in a repository (src/sys/git.c), for bisect and for the commit
 * subjects of compare: "git -C repo args...", through proc.h, never through
 * a shell, with LC_ALL=C so that its messages can be parsed, in a process
 * group of its own so that a terminal's Ctrl-C reaches kdelta only (which
 * lets git finish what it does, then cleans up).
 */

/*
 * Runs git with args (NULL-terminated) and returns its exit status (128+N
 * when signal N killed it); stdout and stderr go into out and errout,
 * either of which may be NULL.  Returns -1 when git could not be started
 * ("cannot run git; install it (apt-get install git)" when it is not
 * installed).
 */
int git_run(const char *repo, const char *const *args, struct strbuf *out,
	    struct strbuf *errout, struct kd_err *err);

/*
 * The same, failing with "<repo>: git <what> failed: <what git said>"
 * unless git exits with 0; its stdout, trailing blanks trimmed, is added
 * to out (may be NULL).
 */
int git_ok(const char *repo, const char *what, const char *const *args,
	   struct strbuf *out, struct kd_err *err);

/* Its one line of output, or NULL when git fails or prints nothing. */
char *git_line(const char *repo, const char *const *args);

/* The error of git_ok() for a git command that did not do what it should. */
int git_error(struct kd_err *err, const char *repo, const char *what,
	      const struct strbuf *out, const struct strbuf *errout);

/* "git checkout" of a commit (detached) or of "refs/heads/<branch>". */
int git_checkout(const char *repo, const char *what, struct kd_err *err);
/* A commit's subject, or NULL when git cannot tell.  Caller frees. */
char *git_commit_subject(const char *repo, const char *commit);
/* A revision's full hash (rev^{commit}), or NULL. */
char *git_commit_hash(const char *repo, const char *rev);
/*
 * Where HEAD is, as git_checkout() takes it back: "refs/heads/<branch>",
 * or the hash of a detached HEAD; NULL when it names no commit.
 */
char *git_head(const char *repo);

#endif
