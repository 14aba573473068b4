// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/git.h"
#include "kdelta/proc.h"
#include "kdelta/util.h"

/* "git -C repo args...", NULL-terminated; caller frees the array. */
static const char **git_argv(const char *repo, const char *const *args)
{
	size_t n = 0;
	const char **argv;

	while (args[n])
		n++;
	argv = xcalloc(n + 4, sizeof(*argv));
	argv[0] = "git";
	argv[1] = "-C";
	argv[2] = repo;
	memcpy(argv + 3, args, n * sizeof(*argv));
	return argv;
}

int git_run(const char *repo, const char *const *args, struct strbuf *out,
	    struct strbuf *errout, struct kd_err *err)
{
	/* Messages in English, so that they can be parsed. */
	static const char *const env[] = { "LC_ALL=C", "LANGUAGE", NULL };
	struct proc p = PROC_INIT;
	const char **argv = git_argv(repo, args);
	int ret;

	p.argv = argv;
	p.env = env;
	p.out = PROC_PIPE;
	p.err = PROC_PIPE;
	ret = proc_run(&p, err);
	free(argv);
	if (ret < 0 && p.exec_errno == ENOENT)
		kd_error(err, "cannot run git; install it (apt-get install git)");
	if (!ret && out)
		strbuf_add(out, p.out_buf.buf, p.out_buf.len);
	if (!ret && errout)
		strbuf_add(errout, p.err_buf.buf, p.err_buf.len);
	if (!ret)
		ret = p.end == PROC_EXITED ? p.status : 128 + p.status;
	proc_clear(&p);
	return ret;
}

/*
 * git's first "fatal: " or "error: " line, the cause (its advice comes
 * after, and does not name the file: "Unable to create '.../index.lock':
 * File exists." does); NULL when there is none.
 */
static const char *cause_line(const char *text, size_t *len)
{
	for (const char *s = text; *s; s += *len + (s[*len] == '\n')) {
		*len = strcspn(s, "\n");
		if (!strncmp(s, "fatal: ", 7) || !strncmp(s, "error: ", 7))
			return s;
	}
	return NULL;
}

int git_error(struct kd_err *err, const char *repo, const char *what,
	      const struct strbuf *out, const struct strbuf *errout)
{
	struct strbuf tail = STRBUF_INIT;
	const struct strbuf *said = errout->len ? errout : out;
	size_t len = 0;
	const char *cause = cause_line(said->buf, &len);

	if (cause)
		strbuf_add(&tail, cause, len > 300 ? 300 : len);
	else
		text_tail_lines(said->buf, said->len, 2, 300, &tail);
	kd_error(err, "%s: git %s failed%s%s", repo, what, tail.len ? ": " : "",
		 tail.buf);
	strbuf_release(&tail);
	return -1;
}

int git_ok(const char *repo, const char *what, const char *const *args,
	   struct strbuf *out, struct kd_err *err)
{
	struct strbuf o = STRBUF_INIT, e = STRBUF_INIT;
	int status = git_run(repo, args, &o, &e, err);

	if (status > 0) {
		git_error(err, repo, what, &o, &e);
	} else if (status == 0 && out) {
		strbuf_rtrim(&o);
		strbuf_add(out, o.buf, o.len);
	}
	strbuf_release(&o);
	strbuf_release(&e);
	return status ? -1 : 0;
}

char *git_line(const char *repo, const char *const *args)
{
	struct strbuf out = STRBUF_INIT;
	struct kd_err err;

	if (git_run(repo, args, &out, NULL, &err) != 0 || !out.len) {
		strbuf_release(&out);
		return NULL;
	}
	strbuf_rtrim(&out);
	return strbuf_detach(&out);
}

int git_checkout(const char *repo, const char *what, struct kd_err *err)
{
	bool branch = !strncmp(what, "refs/heads/", 11);
	const char *args[] = { "checkout", "-q", branch ? what + 11 : "--detach",
			       branch ? "--" : what, branch ? NULL : "--",
			       NULL };

	return git_ok(repo, "checkout", args, NULL, err);
}

char *git_commit_subject(const char *repo, const char *commit)
{
	const char *args[] = { "log", "-1", "--format=%s", commit, "--", NULL };

	return git_line(repo, args);
}

char *git_commit_hash(const char *repo, const char *rev)
{
	char *spec = xasprintf("%s^{commit}", rev);
	const char *args[] = { "rev-parse", "--verify", "--quiet", spec, NULL };
	char *hash = *rev == '-' ? NULL : git_line(repo, args);

	free(spec);
	return hash;
}

char *git_head(const char *repo)
{
	const char *symbolic[] = { "symbolic-ref", "-q", "HEAD", NULL };
	const char *hash[] = { "rev-parse", "--verify", "HEAD", NULL };
	char *head = git_line(repo, symbolic);

	if (head && strncmp(head, "refs/heads/", 11)) {
		free(head);
		head = NULL;
	}
	return head ? head : git_line(repo, hash);
}
