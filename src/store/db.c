// SPDX-License-Identifier: GPL-2.0
/*
 * The SQLite files kdelta keeps (kdelta/db.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kdelta/db.h"
#include "kdelta/util.h"

int db_open(struct db *db, const char *path, int busy_ms, const char *what,
	    struct kd_err *err)
{
	db->path = xstrdup(path);
	if (sqlite3_open_v2(path, &db->handle,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL)
	    != SQLITE_OK) {
		db_error(db, err, what);
		db_close(db);
		return -1;
	}
	sqlite3_busy_timeout(db->handle, busy_ms);
	return 0;
}

void db_close(struct db *db)
{
	sqlite3_close(db->handle);
	free(db->path);
	memset(db, 0, sizeof(*db));
}

/* SQLite's codes for a file that cannot be written: ENOSPC, EROFS, EIO. */
static bool cannot_write(int code)
{
	switch (code & 0xff) {
	case SQLITE_FULL:
	case SQLITE_READONLY:
	case SQLITE_IOERR:
	case SQLITE_CANTOPEN:
		return true;
	default:
		return false;
	}
}

int db_error(struct db *db, struct kd_err *err, const char *what)
{
	bool write = db->handle &&
		     cannot_write(sqlite3_extended_errcode(db->handle));

	kd_error(err, "%s: %s: %s", db->path, what,
		 db->handle ? sqlite3_errmsg(db->handle) : "out of memory");
	if (!write)
		return -1;
	db->not_written = true;
	return kd_err_kind(err, KD_EXIT_WRITE);
}

int db_exec(struct db *db, const char *sql, struct kd_err *err)
{
	if (sqlite3_exec(db->handle, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_error(db, err, sql);
	return 0;
}

static sqlite3_stmt *db_vprepare(struct db *db, struct kd_err *err,
				 const char *sql, const char *types,
				 va_list ap)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db->handle, sql, -1, &st, NULL) != SQLITE_OK) {
		db_error(db, err, "prepare");
		return NULL;
	}
	for (int i = 0; types[i]; i++) {
		if (types[i] == 's') {
			const char *v = va_arg(ap, const char *);

			if (v)
				sqlite3_bind_text(st, i + 1, v, -1,
						  SQLITE_TRANSIENT);
		} else if (types[i] == 'i') {
			sqlite3_bind_int64(st, i + 1, va_arg(ap, long long));
		} else {
			double v = va_arg(ap, double);

			if (!isnan(v))
				sqlite3_bind_double(st, i + 1, v);
		}
	}
	return st;
}

sqlite3_stmt *db_prepare(struct db *db, struct kd_err *err,
			 const char *sql, const char *types, ...)
{
	sqlite3_stmt *st;
	va_list ap;

	va_start(ap, types);
	st = db_vprepare(db, err, sql, types, ap);
	va_end(ap);
	return st;
}

int db_update(struct db *db, struct kd_err *err, const char *sql,
	      const char *types, ...)
{
	sqlite3_stmt *st;
	va_list ap;

	va_start(ap, types);
	st = db_vprepare(db, err, sql, types, ap);
	va_end(ap);
	return db_run(db, st, err);
}

char *db_first_text(struct db *db, const char *sql, const char *types, ...)
{
	struct kd_err err;
	sqlite3_stmt *st;
	char *text = NULL;
	va_list ap;

	va_start(ap, types);
	st = db_vprepare(db, &err, sql, types, ap);
	va_end(ap);
	if (st && sqlite3_step(st) == SQLITE_ROW)
		text = db_text(st, 0);
	if (st)
		sqlite3_finalize(st);
	return text;
}

int db_run(struct db *db, sqlite3_stmt *st, struct kd_err *err)
{
	int rc;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		db_error(db, err, "update");
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

char *db_text(sqlite3_stmt *st, int i)
{
	const unsigned char *v = sqlite3_column_text(st, i);

	return v ? xstrdup((const char *)v) : NULL;
}
