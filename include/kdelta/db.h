/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_DB_H
#define KDELTA_DB_H

/*
 * The SQLite files kdelta keeps (src/store/db.c): the result index and
 * the robot's state.  One way to open them, to bind and step statements,
 * and to say what failed with the file's name.
 */
#include <sqlite3.h>

#include "kdelta/err.h"

struct db {
	sqlite3 *handle;
	char *path;		/* for messages */
};

/*
 * Opens (creating) path, waiting up to busy_ms for another process's
 * transaction; what: how a failure starts ("cannot open the index").
 * On failure db is closed.
 */
int db_open(struct db *db, const char *path, int busy_ms, const char *what,
	    struct kd_err *err);
void db_close(struct db *db);

/* "PATH: what: SQLite's message" into err; -1. */
int db_error(const struct db *db, struct kd_err *err, const char *what);
/* Runs sql (several statements, no rows). */
int db_exec(const struct db *db, const char *sql, struct kd_err *err);
/*
 * A statement with its parameters bound, one letter of types each: 's'
 * text (NULL: SQL NULL), 'i' a long long, 'd' a double (NAN: NULL).
 * NULL (err set) on failure.
 */
sqlite3_stmt *db_prepare(const struct db *db, struct kd_err *err,
			 const char *sql, const char *types, ...);
/* Steps a statement that returns no rows (NULL: failed), finalizes it. */
int db_run(const struct db *db, sqlite3_stmt *st, struct kd_err *err);
/* Column i of the current row as a new string, or NULL. */
char *db_text(sqlite3_stmt *st, int i);

#endif
