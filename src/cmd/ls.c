// SPDX-License-Identifier: GPL-2.0
/*
 * kdelta ls [--result-root DIR] [LABEL...]: what a store holds, one line
 * per commit directory: its label, its job (the directory above it), its
 * runs that completed, failed and never completed, and the dates of its
 * first and last run.  Labels resolve as compare resolves them.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtin.h"
#include "kdelta/cmdline.h"
#include "kdelta/commit-dir.h"
#include "kdelta/resultdb.h"
#include "kdelta/store.h"
#include "kdelta/util.h"

static const char ls_usage[] =
	"usage: kdelta ls [--result-root DIR] [LABEL...]\n"
	"\n"
	"Lists the commit directories of the result root (or those of the\n"
	"labels given): label, job, runs ok, failed and incomplete, and the\n"
	"dates of the first and the last run.\n"
	"\n"
	"  --result-root DIR  the store (default: $KDELTA_RESULT_ROOT, else\n"
	"                     /var/lib/kdelta/results for root, else\n"
	"                     ~/.local/share/kdelta/results)\n";

struct ls_line {
	char *label, *job;
	struct run_counts runs;
};

static void format_date(char *buf, size_t size, time_t t)
{
	struct tm tm;

	if (!t || !localtime_r(&t, &tm) ||
	    !strftime(buf, size, "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, size, "-");
}

static int compare_lines(const void *a, const void *b)
{
	const struct ls_line *x = a, *y = b;
	int c = strcmp(x->label, y->label);

	return c ? c : strcmp(x->job, y->job);
}

static void print_lines(struct ls_line *lines, size_t n)
{
	int lw = (int)strlen("label"), jw = (int)strlen("job");
	char first[32], last[32];

	qsort(lines, n, sizeof(*lines), compare_lines);
	for (size_t i = 0; i < n; i++) {
		if ((int)strlen(lines[i].label) > lw)
			lw = (int)strlen(lines[i].label);
		if ((int)strlen(lines[i].job) > jw)
			jw = (int)strlen(lines[i].job);
	}
	printf("%-*s  %-*s  %4s  %6s  %10s  %11s  %-16s  %s\n", lw, "label",
	       jw, "job", "ok", "failed", "incomplete", "interrupted",
	       "first", "last");
	for (size_t i = 0; i < n; i++) {
		const struct run_counts *r = &lines[i].runs;

		format_date(first, sizeof(first), r->first);
		format_date(last, sizeof(last), r->last);
		printf("%-*s  %-*s  %4zu  %6zu  %10zu  %11zu  %-16s  %s\n", lw,
		       lines[i].label, jw, lines[i].job, r->ok, r->failed,
		       r->incomplete, r->interrupted, first, last);
	}
}

/* One line per loaded commit directory. */
static int ls_dirs(const struct resultdb *db, struct kd_err *err)
{
	struct ls_line *lines = xcalloc(db->n + 1, sizeof(*lines));
	int ret = 0;

	for (size_t i = 0; i < db->n && !ret; i++) {
		const struct result_dir *d = &db->dirs[i];

		lines[i].label = store_label_from_name(d->label);
		lines[i].job = xstrndup(d->rel, d->label > d->rel
					? (size_t)(d->label - d->rel) - 1 : 0);
		ret = result_dir_runs(d, &lines[i].runs, err);
	}
	if (!ret)
		print_lines(lines, db->n);
	for (size_t i = 0; i < db->n; i++) {
		free(lines[i].label);
		free(lines[i].job);
	}
	free(lines);
	return ret;
}

static int ls_load(struct resultdb *db, char **labels, int n,
		   struct kd_err *err)
{
	int ret = 0;

	if (!n)
		return resultdb_load_all(db, err);
	for (int i = 0; i < n && !ret; i++) {
		char *name;

		ret = resultdb_resolve(db, labels[i], NULL, &name, err);
		if (!ret)
			ret = resultdb_load(db, name, err);
		if (!ret)
			free(name);
	}
	return ret;
}

int store_command_options(int argc, char **argv, const char *usage,
			  char **root)
{
	static const struct option options[] = {
		{ "result-root", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	struct cmd_parser p = { argv[0], "", options, 0, "" };
	const char *root_option = NULL;
	struct kd_err err;
	int c;

	while ((c = cmd_next_option(&p, argc, argv, &err)) != -1) {
		if (c == 'R') {
			root_option = optarg;
		} else if (c == CMD_HELP) {
			fputs(usage, stdout);
			return KD_EXIT_OK;
		} else {
			cmd_error(argv[0], "%s", err.msg);
			return KD_EXIT_USAGE;
		}
	}
	*root = result_root(root_option);
	return -1;
}

int cmd_ls(int argc, char **argv)
{
	struct resultdb db;
	struct kd_err err;
	char *root;
	int ret = store_command_options(argc, argv, ls_usage, &root);

	if (ret >= 0)
		return ret;
	ret = resultdb_open(root, &db, &err);
	if (!ret)
		ret = ls_load(&db, argv + optind, argc - optind, &err);
	if (!ret)
		ret = ls_dirs(&db, &err);
	if (ret < 0)
		cmd_error("ls", "%s", err.msg);
	resultdb_release(&db);
	free(root);
	return ret < 0 ? KD_EXIT_USAGE : KD_EXIT_OK;
}
