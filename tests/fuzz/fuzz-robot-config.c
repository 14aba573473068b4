// SPDX-License-Identifier: GPL-2.0
/*
 * The robot's configuration (kdelta-robot(5)): any text through
 * robot_config_parse(), the loader of kdelta robot without its look at the
 * world (the repository, its branches and the job files are not looked
 * at, so that the target neither runs git nor reads files an input names).
 *
 * Properties: a refusal says why in one line; what loads keeps what the
 * loader promises: at least 2 runs, max-runs at least runs and 3, at most
 * 1000 each; a finite min-change of 0 or more; an interval of at least
 * a second (kdelta-robot(5)); an executor kdelta has, a slurm section only with
 * it, its poll and timeout above 0; absolute paths; at least one branch
 * and one job file; every mail address one mail_addresses_add() takes, one
 * from at most, a recipient unless the author is one.  Releasing it leaves
 * nothing behind (LeakSanitizer).
 *
 * Seeds: testdata/fuzz/robot-config/corpus/; dictionary:
 * testdata/fuzz/robot-config.dict.
 */
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "kdelta/mail.h"
#include "kdelta/robot.h"
#include "kdelta/util.h"

static void check_one_line(const char *msg)
{
	FUZZ_CHECK(msg[0], "refused without a message");
	for (const char *p = msg; *p; p++)
		FUZZ_CHECK(!is_control_char((unsigned char)*p),
			   "control character 0x%02x in '%s'",
			   (unsigned char)*p, msg);
}

static void check_path(const char *what, const char *path, bool required)
{
	FUZZ_CHECK(path || !required, "%s missing", what);
	FUZZ_CHECK(!path || path[0] == '/', "%s '%s' is not absolute", what,
		   path);
}

static void check_addresses(const char *what, const struct mail_addresses *l)
{
	struct mail_addresses again = MAIL_ADDRESSES_INIT;
	struct kd_err err;

	for (size_t i = 0; i < l->n; i++)
		FUZZ_CHECK(!mail_addresses_add(&again, l->v[i].name,
					       l->v[i].addr, &err),
			   "%s: '%s' kept, but refused: %s", what,
			   l->v[i].addr, err.msg);
	mail_addresses_release(&again);
}

static void check_config(const struct robot_config *cfg)
{
	const bool slurm = !strcmp(cfg->executor, "slurm");

	FUZZ_CHECK(cfg->runs >= 2 && cfg->runs <= 1000, "runs %u", cfg->runs);
	FUZZ_CHECK(cfg->max_runs >= cfg->runs && cfg->max_runs >= 3 &&
		   cfg->max_runs <= 1000, "max-runs %u, runs %u",
		   cfg->max_runs, cfg->runs);
	FUZZ_CHECK(isfinite(cfg->min_change) && cfg->min_change >= 0,
		   "min-change %g", cfg->min_change);
	FUZZ_CHECK(cfg->interval >= 1, "interval %g",
		   cfg->interval);
	FUZZ_CHECK(slurm || !strcmp(cfg->executor, "local"), "executor '%s'",
		   cfg->executor);
	FUZZ_CHECK(!slurm || (cfg->slurm.poll > 0 && cfg->slurm.timeout > 0),
		   "slurm: poll %g, timeout %g", cfg->slurm.poll,
		   cfg->slurm.timeout);
	FUZZ_CHECK(slurm || (!cfg->slurm.partition && !cfg->slurm.work_dir),
		   "a slurm section without 'executor: slurm'");
	FUZZ_CHECK(cfg->n_branches >= 1 && cfg->n_job_files >= 1,
		   "%zu branches, %zu job files", cfg->n_branches,
		   cfg->n_job_files);
	for (size_t i = 0; i < cfg->n_branches; i++)
		FUZZ_CHECK(cfg->branches[i].name && *cfg->branches[i].name,
			   "branch %zu without a name", i);
	FUZZ_CHECK(cfg->build && *cfg->build, "no build command");
	check_path("repository", cfg->repo, true);
	check_path("result-root", cfg->result_root, true);
	check_path("state", cfg->state, true);
	check_path("work-dir", cfg->work_dir, false);
	check_path("slurm: job-dir", cfg->slurm.job_dir, slurm);
	check_path("slurm: work-dir", cfg->slurm.work_dir, false);
	FUZZ_CHECK(cfg->mail.sendmail && *cfg->mail.sendmail, "no sendmail");
	check_addresses("mail: to", &cfg->mail.to);
	check_addresses("mail: cc", &cfg->mail.cc);
	check_addresses("mail: from", &cfg->mail.from);
	FUZZ_CHECK(cfg->mail.from.n <= 1, "%zu senders", cfg->mail.from.n);
	FUZZ_CHECK(!cfg->mail.enabled || cfg->mail.author || cfg->mail.to.n,
		   "a mail section without a recipient");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_memdup(data, size);
	struct robot_config cfg;
	struct kd_err err = { .msg = "" };

	if (robot_config_parse(text, size, "/fuzz/robot.yaml", &cfg, &err) < 0)
		check_one_line(err.msg);
	else
		check_config(&cfg);
	robot_config_release(&cfg);
	free(text);
	return 0;
}
