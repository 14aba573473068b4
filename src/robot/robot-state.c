// SPDX-License-Identifier: GPL-2.0
/*
 * The robot's state in SQLite (robot-state.h).  WAL, so that
 * "kdelta robot --status" reads while the robot writes; every change the
 * robot makes is one statement or one explicit transaction, so that a
 * kill -9 leaves either all of a step or none of it.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kdelta/bisect.h"
#include "kdelta/db.h"
#include "kdelta/robot-state.h"
#include "kdelta/strbuf.h"
#include "kdelta/util.h"

/* Waiting for a writer (a robot beside --status), at most. */
#define BUSY_TIMEOUT_MS 10000
#define SCHEMA_VERSION 3

struct robot_state {
	struct db db;
};

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS commits ("
	" hash TEXT PRIMARY KEY, subject TEXT, first_seen INTEGER,"
	" build_failed TEXT);"
	"CREATE TABLE IF NOT EXISTS tests ("
	" id INTEGER PRIMARY KEY, branch TEXT NOT NULL, job TEXT NOT NULL,"
	" base TEXT NOT NULL, head TEXT NOT NULL, state TEXT NOT NULL,"
	" metric TEXT, verdict TEXT, change REAL,"
	" created INTEGER, updated INTEGER, outcome TEXT,"
	" UNIQUE (branch, job, head));"
	"CREATE TABLE IF NOT EXISTS batches ("
	" id INTEGER PRIMARY KEY, purpose TEXT UNIQUE NOT NULL,"
	" commits TEXT, runs INTEGER, state TEXT NOT NULL, host TEXT,"
	" outcome TEXT, started INTEGER, ended INTEGER, ticket TEXT);"
	"CREATE TABLE IF NOT EXISTS bisects ("
	" test INTEGER PRIMARY KEY REFERENCES tests (id), metric TEXT,"
	" good TEXT, bad TEXT, state TEXT NOT NULL, first_bad TEXT,"
	" started INTEGER, ended INTEGER, clean TEXT);"
	"CREATE TABLE IF NOT EXISTS bisect_steps ("
	" test INTEGER REFERENCES tests (id), commit_hash TEXT,"
	" verdict TEXT, said TEXT, at INTEGER);"
	"CREATE TABLE IF NOT EXISTS mails ("
	" first_bad TEXT NOT NULL, job TEXT NOT NULL, metric TEXT NOT NULL,"
	" test INTEGER, message_id TEXT UNIQUE NOT NULL, state TEXT NOT NULL,"
	" text TEXT, queued INTEGER, sent INTEGER,"
	" PRIMARY KEY (first_bad, job, metric));";

/*
 * A state of an earlier kdelta, brought up to SCHEMA_VERSION (in the
 * open transaction): version 1 had no batches.ticket, versions 1 and 2
 * no tests.outcome nor bisects.clean, and recorded a bisection's steps
 * again on every restart (one of each is kept).  Then each step is
 * recorded once.
 */
static int upgrade(struct robot_state *st, int version, struct kd_err *err)
{
	if (version == 1 &&
	    db_exec(&st->db, "ALTER TABLE batches ADD COLUMN ticket TEXT", err) < 0)
		return -1;
	if (version >= 1 && version < 3 &&
	    (db_exec(&st->db, "ALTER TABLE tests ADD COLUMN outcome TEXT", err) < 0 ||
	     db_exec(&st->db, "ALTER TABLE bisects ADD COLUMN clean TEXT", err) < 0 ||
	     db_exec(&st->db, "DELETE FROM bisect_steps WHERE rowid NOT IN"
		  " (SELECT min(rowid) FROM bisect_steps"
		  "  GROUP BY test, commit_hash, verdict)", err) < 0))
		return -1;
	return db_exec(&st->db, "CREATE UNIQUE INDEX IF NOT EXISTS bisect_step_once"
		    " ON bisect_steps (test, commit_hash, verdict)", err);
}

/*
 * The state's version (0 when new); one this kdelta does not know, a
 * newer kdelta's, is refused before anything is written to it.
 */
static int read_version(struct robot_state *st, int *version,
			struct kd_err *err)
{
	sqlite3_stmt *s = db_prepare(&st->db, err, "PRAGMA user_version", "");

	*version = 0;
	if (!s)
		return -1;
	if (sqlite3_step(s) == SQLITE_ROW)
		*version = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	if (*version > SCHEMA_VERSION)
		return kd_error(err, "%s: written by a newer kdelta (state version %d; this one knows up to %d): left as it is",
				st->db.path, *version, SCHEMA_VERSION);
	return 0;
}

int robot_state_open(const char *path, struct robot_state **out,
		     struct kd_err *err)
{
	struct robot_state *st = xcalloc(1, sizeof(*st));
	int ret = 0, version = 0;

	*out = NULL;
	if (mkdir_parent(path, err) < 0)
		ret = kd_err_kind(err, KD_EXIT_WRITE);
	if (!ret)
		ret = db_open(&st->db, path, BUSY_TIMEOUT_MS,
			      "cannot open the robot's state", err);
	if (!ret)
		ret = db_exec(&st->db, "PRAGMA journal_mode = WAL", err);
	if (!ret)
		ret = db_exec(&st->db, "PRAGMA foreign_keys = ON", err);
	if (!ret)
		ret = db_exec(&st->db, "BEGIN IMMEDIATE", err);
	if (!ret)
		ret = read_version(st, &version, err);
	if (!ret && (ret = db_exec(&st->db, schema, err)) == 0)
		ret = upgrade(st, version, err);
	if (!ret) {
		char sql[64];

		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d; COMMIT",
			 SCHEMA_VERSION);
		ret = db_exec(&st->db, sql, err);
	}
	if (ret < 0) {
		robot_state_close(st);
		return -1;
	}
	*out = st;
	return 0;
}

bool robot_state_not_written(const struct robot_state *st)
{
	return st && st->db.not_written;
}

void robot_state_close(struct robot_state *st)
{
	if (!st)
		return;
	db_close(&st->db);
	free(st);
}

int robot_state_begin(struct robot_state *st, struct kd_err *err)
{
	return db_exec(&st->db, "BEGIN IMMEDIATE", err);
}

int robot_state_commit(struct robot_state *st, struct kd_err *err)
{
	return db_exec(&st->db, "COMMIT", err);
}

void robot_state_rollback(struct robot_state *st)
{
	sqlite3_exec(st->db.handle, "ROLLBACK", NULL, NULL, NULL);
}

int robot_state_commit_seen(struct robot_state *st, const char *hash,
			    const char *subject, struct kd_err *err)
{
	return db_update(&st->db, err,
		"INSERT OR IGNORE INTO commits (hash, subject, first_seen)"
		" VALUES (?, ?, strftime('%s', 'now'))", "ss", hash, subject);
}

int robot_state_build_failed(struct robot_state *st, const char *hash,
			     const char *why, struct kd_err *err)
{
	if (robot_state_commit_seen(st, hash, NULL, err) < 0)
		return -1;
	return db_update(&st->db, err,
		"UPDATE commits SET build_failed = ? WHERE hash = ?", "ss",
		why, hash);
}

int robot_state_add_test(struct robot_state *st, const char *branch,
			 const char *job, const char *base, const char *head,
			 struct kd_err *err)
{
	return db_update(&st->db, err,
		"INSERT OR IGNORE INTO tests (branch, job, base, head, state,"
		" created, updated) VALUES (?, ?, ?, ?, '" ROBOT_TEST_MEASURE
		"', strftime('%s', 'now'), strftime('%s', 'now'))", "ssss",
		branch, job, base, head);
}

void robot_test_release(struct robot_test *t)
{
	free(t->branch);
	free(t->job);
	free(t->base);
	free(t->head);
	free(t->state);
	free(t->metric);
	memset(t, 0, sizeof(*t));
}

int robot_state_open_tests(struct robot_state *st, struct robot_test **out,
			   size_t *n, struct kd_err *err)
{
	sqlite3_stmt *s = db_prepare(&st->db, err,
		"SELECT id, branch, job, base, head, state, metric FROM tests"
		" WHERE state != '" ROBOT_TEST_DONE "' ORDER BY id", "");
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!s)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct robot_test *t;

		ALLOC_GROW(*out, *n + 1, alloc);
		t = &(*out)[(*n)++];
		t->id = sqlite3_column_int64(s, 0);
		t->branch = db_text(s, 1);
		t->job = db_text(s, 2);
		t->base = db_text(s, 3);
		t->head = db_text(s, 4);
		t->state = db_text(s, 5);
		t->metric = db_text(s, 6);
	}
	if (rc != SQLITE_DONE)
		db_error(&st->db, err, "query");
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

int robot_state_set_test(struct robot_state *st, long long id,
			 const char *state, const char *metric,
			 const char *verdict, double change,
			 struct kd_err *err)
{
	return db_update(&st->db, err,
		"UPDATE tests SET state = ?, metric = coalesce(?, metric),"
		" verdict = coalesce(?, verdict), change = coalesce(?, change),"
		" updated = strftime('%s', 'now') WHERE id = ?", "sssdi",
		state, metric, verdict, change, id);
}

int robot_state_test_done(struct robot_state *st, long long id,
			  const char *outcome, const char *verdict,
			  struct kd_err *err)
{
	return db_update(&st->db, err,
		"UPDATE tests SET state = '" ROBOT_TEST_DONE "', outcome = ?,"
		" verdict = coalesce(?, verdict), updated = strftime('%s', 'now')"
		" WHERE id = ?", "ssi", outcome, verdict, id);
}

int robot_state_batch_find(struct robot_state *st, const char *purpose,
			   bool *done, char **outcome, char **ticket,
			   struct kd_err *err)
{
	sqlite3_stmt *s = db_prepare(&st->db, err,
		"SELECT state = 'done', outcome, ticket FROM batches"
		" WHERE purpose = ?", "s", purpose);
	int rc;

	*done = false;
	*outcome = NULL;
	*ticket = NULL;
	if (!s)
		return -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*done = sqlite3_column_int(s, 0);
		*outcome = *done ? db_text(s, 1) : NULL;
		*ticket = *done ? NULL : db_text(s, 2);
	} else if (rc != SQLITE_DONE) {
		db_error(&st->db, err, "query");
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

int robot_state_batch_start(struct robot_state *st, const char *purpose,
			    const char *commits, unsigned runs,
			    struct kd_err *err)
{
	return db_update(&st->db, err,
		"INSERT INTO batches (purpose, commits, runs, state, started)"
		" VALUES (?, ?, ?, 'running', strftime('%s', 'now'))"
		" ON CONFLICT (purpose) DO UPDATE SET state = 'running',"
		" started = excluded.started, ticket = NULL", "ssi", purpose, commits,
		(long long)runs);
}

int robot_state_batch_ticket(struct robot_state *st, const char *purpose,
			     const char *ticket, struct kd_err *err)
{
	return db_update(&st->db, err,
		"UPDATE batches SET ticket = ? WHERE purpose = ?", "ss",
		ticket, purpose);
}

int robot_state_batch_close(struct robot_state *st, const char *purpose,
			    const char *state, const char *why,
			    struct kd_err *err)
{
	return db_update(&st->db, err,
		"UPDATE batches SET state = ?1, outcome = ?2,"
		" ticket = CASE WHEN ?1 = 'collected' THEN ticket END,"
		" ended = strftime('%s', 'now') WHERE purpose = ?3", "sss",
		state, why, purpose);
}

int robot_state_batch_tickets(struct robot_state *st, char ***purposes,
			      char ***tickets, size_t *n, struct kd_err *err)
{
	return robot_state_batch_running(st, true, purposes, tickets, n, err);
}

int robot_state_batch_running(struct robot_state *st, bool with_ticket,
			      char ***purposes, char ***tickets, size_t *n,
			      struct kd_err *err)
{
	sqlite3_stmt *s = db_prepare(&st->db, err, with_ticket
		? "SELECT purpose, ticket FROM batches WHERE state = 'running'"
		  " AND ticket IS NOT NULL ORDER BY id"
		: "SELECT purpose, ticket FROM batches WHERE state = 'running'"
		  " ORDER BY id", "");
	size_t alloc = 0, alloc2 = 0;
	int rc;

	*purposes = *tickets = NULL;
	*n = 0;
	if (!s)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ALLOC_GROW(*purposes, *n + 1, alloc);
		ALLOC_GROW(*tickets, *n + 1, alloc2);
		(*purposes)[*n] = db_text(s, 0);
		(*tickets)[(*n)++] = db_text(s, 1);
	}
	if (rc != SQLITE_DONE)
		db_error(&st->db, err, "query");
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

char *robot_state_batch_host(struct robot_state *st, const char *purpose)
{
	return db_first_text(&st->db,
		"SELECT host FROM batches WHERE purpose = ?", "s", purpose);
}

char *robot_state_last_host(struct robot_state *st)
{
	return db_first_text(&st->db,
		"SELECT host FROM batches WHERE state = 'done' AND host IS NOT NULL"
		" ORDER BY ended DESC, id DESC LIMIT 1", "");
}

int robot_state_batch_end(struct robot_state *st, const char *purpose,
			  const char *host, const char *outcome,
			  struct kd_err *err)
{
	return db_update(&st->db, err,
		"UPDATE batches SET state = 'done', host = ?, outcome = ?,"
		" ticket = NULL, ended = strftime('%s', 'now') WHERE purpose = ?", "sss",
		host, outcome, purpose);
}

int robot_state_bisect_start(struct robot_state *st, long long test,
			     const char *metric, const char *good,
			     const char *bad, struct kd_err *err)
{
	return db_update(&st->db, err,
		"INSERT OR IGNORE INTO bisects (test, metric, good, bad, state,"
		" started) VALUES (?, ?, ?, ?, 'running', strftime('%s', 'now'))",
		"isss", test, metric, good, bad);
}

int robot_state_bisect_step(struct robot_state *st, long long test,
			    const struct bisect_step_info *step,
			    struct kd_err *err)
{
	char *said = xstrdup(step->said);
	int ret;

	make_printable(said);
	ret = db_update(&st->db, err,
		"INSERT OR IGNORE INTO bisect_steps (test, commit_hash, verdict,"
		" said, at)"
		" VALUES (?, ?, ?, ?, strftime('%s', 'now'))", "isss", test,
		step->commit, bisect_class_name(step->verdict), said);
	free(said);
	if (!ret && step->build_failed)
		ret = robot_state_build_failed(st, step->commit, step->why,
					       err);
	return ret;
}

int robot_state_bisect_end(struct robot_state *st, long long test,
			   const char *end, const char *first_bad,
			   const char *clean, struct kd_err *err)
{
	return db_update(&st->db, err,
		"UPDATE bisects SET state = ?, first_bad = ?, clean = ?,"
		" ended = strftime('%s', 'now') WHERE test = ?", "sssi", end,
		first_bad, clean, test);
}

int robot_state_clean_commits(struct robot_state *st, const char *branch,
			      const char *job, char ***out, size_t *n,
			      struct kd_err *err)
{
	sqlite3_stmt *s = db_prepare(&st->db, err,
		"SELECT head FROM tests WHERE branch = ? AND job = ?"
		" AND state = '" ROBOT_TEST_DONE "' AND outcome = '"
		ROBOT_OUTCOME_CLEAN "'"
		" UNION SELECT b.clean FROM bisects b JOIN tests t"
		" ON b.test = t.id WHERE t.branch = ? AND t.job = ?"
		" AND b.clean IS NOT NULL", "ssss", branch, job, branch, job);
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!s)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ALLOC_GROW(*out, *n + 1, alloc);
		(*out)[(*n)++] = db_text(s, 0);
	}
	if (rc != SQLITE_DONE)
		db_error(&st->db, err, "query");
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

void robot_mail_row_release(struct robot_mail_row *m)
{
	free(m->message_id);
	free(m->state);
	free(m->text);
	memset(m, 0, sizeof(*m));
}

int robot_state_mail_find(struct robot_state *st, const char *first_bad,
			  const char *job, const char *metric,
			  struct robot_mail_row *out, bool *found,
			  struct kd_err *err)
{
	sqlite3_stmt *s = db_prepare(&st->db, err,
		"SELECT message_id, state, text FROM mails"
		" WHERE first_bad = ? AND job = ? AND metric = ?", "sss",
		first_bad, job, metric);
	int rc;

	memset(out, 0, sizeof(*out));
	*found = false;
	if (!s)
		return -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*found = true;
		out->message_id = db_text(s, 0);
		out->state = db_text(s, 1);
		out->text = db_text(s, 2);
	} else if (rc != SQLITE_DONE) {
		db_error(&st->db, err, "query");
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

int robot_state_mail_add(struct robot_state *st, const char *first_bad,
			 const char *job, const char *metric, long long test,
			 const char *message_id, const char *text,
			 struct kd_err *err)
{
	return db_update(&st->db, err,
		"INSERT INTO mails (first_bad, job, metric, test, message_id,"
		" state, text, queued) VALUES (?, ?, ?, ?, ?, 'sending', ?,"
		" strftime('%s', 'now'))", "sssiss", first_bad, job, metric,
		test, message_id, text);
}

int robot_state_mail_sent(struct robot_state *st, const char *message_id,
			  struct kd_err *err)
{
	return db_update(&st->db, err,
		"UPDATE mails SET state = 'sent', sent = strftime('%s', 'now')"
		" WHERE message_id = ?", "s", message_id);
}

/* --status */

static void add_time(struct strbuf *out, sqlite3_int64 t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[32];

	gmtime_r(&tt, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M", &tm);
	strbuf_addstr(out, buf);
}

static const char *text_or(sqlite3_stmt *s, int i, const char *none)
{
	const unsigned char *v = sqlite3_column_text(s, i);

	return v ? (const char *)v : none;
}

/* One section: a heading, then a line per row, or "(none)". */
static int print_section(struct robot_state *st, struct strbuf *out,
			 const char *heading, const char *sql,
			 void (*line)(sqlite3_stmt *s, struct strbuf *out),
			 struct kd_err *err)
{
	sqlite3_stmt *s = db_prepare(&st->db, err, sql, "");
	size_t rows = 0;
	int rc;

	if (!s)
		return -1;
	strbuf_addf(out, "%s:\n", heading);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		strbuf_addstr(out, "  ");
		line(s, out);
		strbuf_addch(out, '\n');
		rows++;
	}
	if (!rows)
		strbuf_addstr(out, "  (none)\n");
	if (rc != SQLITE_DONE)
		db_error(&st->db, err, "query");
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* test N  BRANCH  JOB  BASE..HEAD  STATE [METRIC] [VERDICT] */
static void test_line(sqlite3_stmt *s, struct strbuf *out)
{
	strbuf_addf(out, "test %lld  %s  %s  %.12s..%.12s  %s",
		    (long long)sqlite3_column_int64(s, 0), text_or(s, 1, "?"),
		    text_or(s, 2, "?"), text_or(s, 3, "?"), text_or(s, 4, "?"),
		    text_or(s, 5, "?"));
	if (sqlite3_column_type(s, 6) != SQLITE_NULL)
		strbuf_addf(out, " %s", text_or(s, 6, ""));
}

static void verdict_line(sqlite3_stmt *s, struct strbuf *out)
{
	add_time(out, sqlite3_column_int64(s, 5));
	strbuf_addf(out, "  %s  %s  %.12s..%.12s  %s", text_or(s, 0, "?"),
		    text_or(s, 1, "?"), text_or(s, 2, "?"), text_or(s, 3, "?"),
		    text_or(s, 4, "(no verdict)"));
}

static void bisect_line(sqlite3_stmt *s, struct strbuf *out)
{
	strbuf_addf(out, "test %lld  %s  good %.12s bad %.12s  %lld step%s",
		    (long long)sqlite3_column_int64(s, 0), text_or(s, 1, "?"),
		    text_or(s, 2, "?"), text_or(s, 3, "?"),
		    (long long)sqlite3_column_int64(s, 4),
		    sqlite3_column_int64(s, 4) == 1 ? "" : "s");
	if (sqlite3_column_type(s, 5) != SQLITE_NULL)
		strbuf_addf(out, ", last %.12s %s", text_or(s, 5, ""),
			    text_or(s, 6, ""));
}

static void mail_line(sqlite3_stmt *s, struct strbuf *out)
{
	if (sqlite3_column_type(s, 4) != SQLITE_NULL)
		add_time(out, sqlite3_column_int64(s, 4));
	else
		strbuf_addstr(out, "(not sent)      ");
	strbuf_addf(out, "  %.12s  %s  %s  %s %s", text_or(s, 0, "?"),
		    text_or(s, 1, "?"), text_or(s, 2, "?"), text_or(s, 3, "?"),
		    text_or(s, 5, "?"));
}

/* STARTED  PURPOSE  ticket TICKET */
static void ticket_line(sqlite3_stmt *s, struct strbuf *out)
{
	add_time(out, sqlite3_column_int64(s, 0));
	strbuf_addf(out, "  %s  ticket %s", text_or(s, 1, "?"),
		    text_or(s, 2, "?"));
}

/* What robot_state_print() shows, in order. */
static const struct state_section {
	const char *heading, *sql;
	void (*line)(sqlite3_stmt *s, struct strbuf *out);
} state_sections[] = {
	{ "queue",
	  "SELECT id, branch, job, base, head, state, metric FROM tests"
	  " WHERE state != '" ROBOT_TEST_DONE "' ORDER BY id",
	  test_line },
	{ "batches handed to the executor",
	  "SELECT started, purpose, ticket FROM batches"
	  " WHERE state = 'running' AND ticket IS NOT NULL ORDER BY id",
	  ticket_line },
	{ "recent verdicts",
	  "SELECT branch, job, base, head, verdict, updated"
	  " FROM tests WHERE state = '" ROBOT_TEST_DONE "'"
	  " ORDER BY updated DESC, id DESC LIMIT 10",
	  verdict_line },
	{ "undecided (not mailed: more runs, or a larger min-change, would tell)",
	  "SELECT branch, job, base, head, verdict, updated"
	  " FROM tests WHERE outcome = '" ROBOT_OUTCOME_UNDECIDED "'"
	  " ORDER BY updated DESC, id DESC LIMIT 10",
	  verdict_line },
	{ "open bisects",
	  "SELECT b.test, b.metric, b.good, b.bad,"
	  " (SELECT count(*) FROM bisect_steps s WHERE s.test = b.test),"
	  " (SELECT commit_hash FROM bisect_steps s WHERE s.test = b.test"
	  "  ORDER BY rowid DESC LIMIT 1),"
	  " (SELECT verdict FROM bisect_steps s WHERE s.test = b.test"
	  "  ORDER BY rowid DESC LIMIT 1)"
	  " FROM bisects b WHERE b.state = 'running' ORDER BY b.test",
	  bisect_line },
	{ "mails",
	  "SELECT first_bad, job, metric, message_id, sent, state"
	  " FROM mails ORDER BY queued DESC LIMIT 10",
	  mail_line },
};

int robot_state_print(struct robot_state *st, FILE *out, struct kd_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(state_sections) && !ret; i++)
		ret = print_section(st, &sb, state_sections[i].heading,
				    state_sections[i].sql,
				    state_sections[i].line, err);
	/* What a commit's author wrote goes to a terminal: no escapes. */
	for (size_t i = 0; i < sb.len; i++)
		if (sb.buf[i] != '\n')
			sb.buf[i] = printable_char(sb.buf[i]);
	if (!ret)
		fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
	return ret;
}
