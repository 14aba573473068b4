// SPDX-License-Identifier: GPL-2.0
/*
 * kdelta report: the robot's mail about a comparison, to standard output,
 * a file, or through sendmail.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "kdelta/cmdline.h"
#include "kdelta/compare-args.h"
#include "kdelta/mail.h"
#include "kdelta/proc.h"
#include "kdelta/report.h"
#include "kdelta/util.h"

static const char report_usage[] =
	"usage: kdelta report [options] BASE COMMIT...\n"
	"       kdelta report [options] --axis KEY VALUE VALUE...\n"
	"\n"
	"Compares the stored results as kdelta compare does and writes the robot's\n"
	"mail about a variant whose runs fail where the base's do not (with the\n"
	"failure message), else about the largest significant change of a workload\n"
	"result: the finding, the commit, the test machine and parameters, how to\n"
	"reproduce, the comparison table and an ASCII plot of each changed result,\n"
	"with the job file attached.  When nothing failed and no workload result\n"
	"changed significantly, no mail is written (a message on standard error).\n"
	"\n"
	"    -o FILE               write the mail to FILE (default: standard output)\n"
	"    --sendmail            send it: pipe it to $KDELTA_SENDMAIL if set, else\n"
	"                          to '/usr/sbin/sendmail -t -i'\n"
	"    --sendmail-cmd CMD    send it through CMD instead (split at blanks, no\n"
	"                          shell)\n"
	"    --to ADDRS            recipients, comma-separated (needed to send):\n"
	"                          a@b.c, Name <a@b.c>, \"Last, First\" <a@b.c>\n"
	"    --cc ADDRS            copies to, comma-separated\n"
	"    --from ADDR           sender (default: kdelta <user@hostname>)\n"
	"    --in-reply-to ID      the Message-ID the report answers\n"
	"    --subject-prefix STR  before the subject (default: [kdelta])\n"
	"    --always              write a mail even when nothing changed\n"
	"    --fail-on-regression  exit with the robot's statuses below\n"
	"\n"
	"Options of kdelta compare that choose and decide:\n"
	"    --result-root DIR, --axis KEY, --commit LABEL, --test TEST, --fdr Q,\n"
	"    --min-change PCT, --all (every metric in the table), --metric PATTERN\n"
	"    (only the metrics it matches), --repo DIR (the commit subjects); see\n"
	"    'kdelta compare --help'.\n"
	"    -h, --help            show this help\n"
	"\n"
	"Exit status: 0, whether a mail was written or nothing changed; with\n"
	"--fail-on-regression 0 clean, 1 regressed (a result got worse, or runs\n"
	"fail), 6 inconclusive (more runs would tell), 7 no data (a variant without\n"
	"a usable run); 2 for bad usage or bad input; 4 when the mail could not be\n"
	"sent or written.  See kdelta(1).\n";

struct report_args {
	struct report_options opt;
	const char *output, *sendmail_cmd;
	const char *from, *to, *cc;	/* as given */
	struct mail_addresses from_list, to_list, cc_list;
	bool sendmail, fail_on_regression;
};

static const char *const report_value_options[] = {
	"-o", "--sendmail-cmd", "--to", "--cc", "--from", "--in-reply-to",
	"--subject-prefix", NULL,
};
static const char *const report_flag_options[] = {
	"--sendmail", "--always", "--fail-on-regression", NULL,
};

static int report_option(void *ctx, const char *name, const char *value,
			 struct kd_err *err)
{
	struct report_args *r = ctx;

	if (!value) {
		if (!strcmp(name, "--sendmail"))
			r->sendmail = true;
		else if (!strcmp(name, "--fail-on-regression"))
			r->fail_on_regression = true;
		else
			r->opt.always = true;
		return 0;
	}
	if (!*value && strcmp(name, "--subject-prefix"))
		return kd_error(err, "%s: expected a value, got ''", name);
	if (!strcmp(name, "-o"))
		r->output = value;
	else if (!strcmp(name, "--sendmail-cmd"))
		r->sendmail_cmd = value;
	else if (!strcmp(name, "--to"))
		r->to = value;
	else if (!strcmp(name, "--cc"))
		r->cc = value;
	else if (!strcmp(name, "--from"))
		r->from = value;
	else if (!strcmp(name, "--in-reply-to"))
		r->opt.in_reply_to = value;
	else
		r->opt.subject_prefix = value;
	return 0;
}

/* --from, --to, --cc parsed into (name, address) pairs. */
static int parse_addresses(struct report_args *r, struct kd_err *err)
{
	const struct {
		const char *option, *value;
		struct mail_addresses *list;
	} lists[] = {
		{ "--from", r->from, &r->from_list },
		{ "--to", r->to, &r->to_list },
		{ "--cc", r->cc, &r->cc_list },
	};

	for (size_t i = 0; i < ARRAY_SIZE(lists); i++)
		if (lists[i].value &&
		    mail_addresses_parse(lists[i].list, lists[i].value, err) < 0)
			return kd_error_prefix(err, "%s", lists[i].option);
	if (r->from && r->from_list.n != 1)
		return kd_error(err, "--from: expected one address, got %zu",
				r->from_list.n);
	r->opt.from = &r->from_list;
	r->opt.to = &r->to_list;
	r->opt.cc = &r->cc_list;
	return 0;
}

static int check_args(struct report_args *r, struct kd_err *err)
{
	if (r->sendmail_cmd)
		r->sendmail = true;
	if (r->sendmail && r->output)
		return kd_error(err, "-o and --sendmail exclude each other; write the mail or send it");
	if (parse_addresses(r, err) < 0)
		return -1;
	if (r->sendmail && !r->to_list.n)
		return kd_error(err, "--sendmail needs --to, the recipients of the mail");
	if (r->sendmail && !r->sendmail_cmd)
		r->sendmail_cmd = mail_sendmail_command();
	return 0;
}

static int output_mail(const struct report_args *r, const struct strbuf *mail,
		       struct kd_err *err)
{
	if (r->sendmail)
		return mail_send(r->sendmail_cmd, mail->buf, mail->len, err);
	if (r->output)
		return write_file_atomic(r->output, mail->buf, mail->len, err);
	if (fwrite(mail->buf, 1, mail->len, stdout) != mail->len ||
	    fflush(stdout))
		return kd_error(err, "standard output: %s", strerror(errno));
	return 0;
}

/*
 * Loads, decides, writes the mail: 0, 1 when there was nothing to report,
 * -1 for bad input, -2 when the mail could not be sent or written.
 * *status: what --fail-on-regression exits with.
 */
static int report(struct report_args *r, const struct compare_args *a,
		  int *status, struct kd_err *err)
{
	struct compare_state st = { 0 };
	struct strbuf mail = STRBUF_INIT;
	int ret = compare_load(&st, &a->q, err);

	r->opt.compare = &a->q.opt;
	if (!ret)
		ret = report_write(&r->opt,
				   (const struct comparison *const *)st.cmps,
				   st.n, &mail, err);
	if (ret >= 0)
		*status = compare_status(&st);
	if (ret == 1)
		cmd_error("report", "no workload result changed significantly and no runs failed; no mail written (--always writes one anyway)");
	else if (!ret && output_mail(r, &mail, err) < 0)
		ret = kd_err_kind(err, KD_EXIT_WRITE);
	if (st.notices.len)
		fputs(st.notices.buf, stderr);
	strbuf_release(&mail);
	compare_state_release(&st);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_args r = { 0 };
	struct compare_args_ext ext = {
		.command = "report",
		.value_options = report_value_options,
		.flag_options = report_flag_options,
		.option = report_option,
		.ctx = &r,
	};
	struct compare_args a;
	struct kd_err err = { .status = 0 };
	int status = KD_EXIT_OK, outcome = KD_EXIT_OK, ret;

	if (compare_args_parse(&a, argc, argv, &ext, &err) < 0 ||
	    (!a.help && check_args(&r, &err) < 0)) {
		status = KD_EXIT_USAGE;
	} else if (a.help) {
		fputs(report_usage, stdout);
	} else if ((ret = report(&r, &a, &outcome, &err)) < 0) {
		status = kd_err_status(&err, KD_EXIT_USAGE);
	}
	if (status != KD_EXIT_OK)
		cmd_error("report", "%s", err.msg);
	else if (r.fail_on_regression)
		status = outcome;
	compare_args_release(&a);
	mail_addresses_release(&r.from_list);
	mail_addresses_release(&r.to_list);
	mail_addresses_release(&r.cc_list);
	return status;
}
