// SPDX-License-Identifier: GPL-2.0
/*
 * kdelta split: a job file into its expanded jobs, one file each, or a
 * listing of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "kdelta/cmdline.h"
#include "kdelta/job.h"
#include "kdelta/params.h"
#include "kdelta/util.h"

static const char split_usage[] =
	"usage: kdelta split [-o DIR] JOB.yaml\n"
	"   or: kdelta split --print JOB.yaml\n"
	"\n"
	"Expands a job file (kdelta-job(5)) into its jobs: one for each combination\n"
	"of the values its lists give, with every default filled in.\n"
	"\n"
	"    -o, --output DIR   write the jobs into DIR (created if needed) instead of\n"
	"                       the current directory, as <testcase>-<name>.yaml\n"
	"    -p, --print        print each job's name and parameters; write nothing\n";

struct split_options {
	const char *output;
	const char *job_file;
	bool print;
};

/* 0, 1 after --help, -1 after a problem (said on stderr). */
static int split_parse_options(int argc, char **argv, struct split_options *o)
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "print", no_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	struct cmd_parser p = { "split", "o:p", options, 0, "" };
	struct kd_err err;
	int c;

	while ((c = cmd_next_option(&p, argc, argv, &err)) != -1) {
		if (c == CMD_HELP) {
			fputs(split_usage, stdout);
			return 1;
		}
		if (c == CMD_BAD_OPTION) {
			cmd_error("split", "%s", err.msg);
			return -1;
		}
		if (c == 'o')
			o->output = optarg;
		else
			o->print = true;
	}
	if (optind >= argc) {
		cmd_error("split", "no job file given; see 'kdelta split --help'");
		return -1;
	}
	if (optind + 1 < argc) {
		cmd_error("split", "one job file at a time; got '%s' and '%s'",
			  argv[optind], argv[optind + 1]);
		return -1;
	}
	o->job_file = argv[optind];
	if (o->print && o->output) {
		cmd_error("split", "--print writes nothing; drop -o");
		return -1;
	}
	return 0;
}

/*
 * A value on one line: as it is, or, when it holds a newline or another
 * control character (a script), double-quoted with C escapes.
 */
static void print_scalar(const char *s)
{
	bool plain = true;

	for (const char *p = s; *p; p++)
		plain = plain && !is_control_char((unsigned char)*p);
	if (plain) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\n')
			fputs("\\n", stdout);
		else if (*p == '\t')
			fputs("\\t", stdout);
		else if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (is_control_char(*p))
			printf("\\x%02x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

/* One line per value, with the path of keys to it: "aim7.load: 3000". */
static void print_flat(const char *path, const struct jnode *node)
{
	bool scalars = true;

	if (node->kind == JNODE_SCALAR) {
		printf("    %s:%s", path, *node->scalar ? " " : "");
		print_scalar(node->scalar);
		putchar('\n');
		return;
	}
	for (size_t i = 0; i < node->n; i++)
		scalars = scalars && node->values[i]->kind == JNODE_SCALAR;
	if (!node->n || (node->kind == JNODE_LIST && scalars)) {
		printf("    %s: %c", path, node->kind == JNODE_LIST ? '[' : '{');
		for (size_t i = 0; i < node->n; i++) {
			fputs(i ? ", " : "", stdout);
			print_scalar(node->values[i]->scalar);
		}
		printf("%c\n", node->kind == JNODE_LIST ? ']' : '}');
		return;
	}
	for (size_t i = 0; i < node->n; i++) {
		char *sub = node->kind == JNODE_MAP ?
			xasprintf("%s.%s", path, node->keys[i]) :
			xasprintf("%s.%zu", path, i);

		print_flat(sub, node->values[i]);
		free(sub);
	}
}

static void print_jobs(const struct job_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct jnode *root = set->jobs[i].root;

		printf("%s\n", set->jobs[i].name);
		for (size_t k = 0; k < root->n; k++)
			print_flat(root->keys[k], root->values[k]);
	}
}

static char *job_file_name(const struct job *job)
{
	const char *testcase = jnode_str(job->root, "testcase");
	char *name, *safe;

	if (!testcase)
		return xasprintf("%s.yaml", job->name);
	name = xasprintf("%s-%s", testcase, job->name);
	safe = safe_name(name, 200);
	free(name);
	name = xasprintf("%s.yaml", safe);
	free(safe);
	return name;
}

static int write_jobs(const struct job_set *set, const char *dir,
		      struct kd_err *err)
{
	if (dir && mkdir_p(dir, err))
		return -1;
	for (size_t i = 0; i < set->n; i++) {
		struct strbuf yaml = STRBUF_INIT;
		char *file = job_file_name(&set->jobs[i]);
		char *path = dir ? xasprintf("%s/%s", dir, file) : xstrdup(file);
		int ret;

		job_to_yaml(set->jobs[i].root, &yaml);
		ret = write_file_atomic(path, yaml.buf, yaml.len, err);
		if (!ret)
			printf("%s\n", path);
		strbuf_release(&yaml);
		free(path);
		free(file);
		if (ret)
			return -1;
	}
	return 0;
}

int cmd_split(int argc, char **argv)
{
	struct split_options o = { 0 };
	struct job_set set;
	struct kd_err err;
	int ret;

	ret = split_parse_options(argc, argv, &o);
	if (ret)
		return ret > 0 ? KD_EXIT_OK : KD_EXIT_USAGE;
	if (job_load_file(o.job_file, job_schema_default(), &set, &err)) {
		cmd_error("split", "%s", err.msg);
		return KD_EXIT_USAGE;
	}
	ret = KD_EXIT_OK;
	if (o.print)
		print_jobs(&set);
	else if (write_jobs(&set, o.output, &err)) {
		cmd_error("split", "%s", err.msg);
		ret = KD_EXIT_USAGE;
	}
	job_set_release(&set);
	return ret;
}
