/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_DB_H
#define KDELTA_DB_H

/*
 * The SQLite files kdelta keeps (src/store/db.c): the result index and
 * the robot's state.  One way to open them, to bind and step statements,
 * and to say what failed with the file's name.
 */
#include <sqlite3.h>
#include <stdbool.h>

#include "kdelta/err.h"

struct db {
	sqlite3 *handle;
	char *path;		/* for messages */
	/*
	 * A write failed as a full disk, a read-only file system or an I/O
	 * error fails: the store's exit status (KD_EXIT_WRITE), not 1.
	 */
	bool not_written;
};

/*
 * Opens (creating) path, waiting up to busy_ms for another process's
 * transaction; what: how a failure starts ("cannot open the index").
 * On failure db is closed.
 */
int db_open(struct db *db, const char *path, int busy_ms, const char *what,
	    struct kd_err *err);
void db_close(struct db *db);

/*
 * "PATH: what: SQLite's message" into err; -1.  A file that cannot be
 * written sets db->not_written and makes it an error of the kind
 * KD_EXIT_WRITE (kd_err_kind()).
 */
int db_error(struct db *db, struct kd_err *err, const char *what);
/* Runs sql (several statements, no rows). */
int db_exec(struct db *db, const char *sql, struct kd_err *err);
/*
 * A statement with its parameters bound, one letter of types each: 's'
 * text (NULL: SQL NULL), 'i' a long long, 'd' a double (NAN: NULL).
 * NULL (err set) on failure.
 */
sqlite3_stmt *db_prepare(struct db *db, struct kd_err *err,
			 const char *sql, const char *types, ...);
/* Steps a statement that returns no rows (NULL: failed), finalizes it. */
int db_run(struct db *db, sqlite3_stmt *st, struct kd_err *err);
/* db_prepare() and db_run(): a statement that returns no rows. */
int db_update(struct db *db, struct kd_err *err, const char *sql,
	      const char *types, ...);
/*
 * The first column of the query's first row as a new string; NULL when
 * there is none, it is NULL, or the query failed.
 */
char *db_first_text(struct db *db, const char *sql, const char *types, ...);
/* Column i of the current row as a new string, or NULL. */
char *db_text(sqlite3_stmt *st, int i);

#endif
