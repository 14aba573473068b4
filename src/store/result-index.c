// SPDX-License-Identifier: GPL-2.0
/*
 * Commit directories below a result root, walked or looked up in the
 * root's index (see kdelta/result-index.h).
 *
 * The index is one table of directories: the commit directories (with
 * their name, the label) and the directories above them (with the stamp
 * they had when they were listed).  A directory's stamp changes whenever
 * an entry is added to it or removed from it, so checking the stamps of
 * the directories above the commit directories finds every change that
 * matters, in time independent of the number of commits; a changed
 * directory is listed again, and only new entries are walked.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "result-walk.h"
#include "kdelta/db.h"
#include "kdelta/result-index.h"
#include "kdelta/util.h"

/*
 * The index lives in a directory of its own: SQLite creates and removes
 * its journal beside it, which would change the root's stamp each time.
 */
#define INDEX_DIR ".kdelta"
#define INDEX_FILE INDEX_DIR "/index"
#define INDEX_VERSION "1"
/*
 * A stamp this close to the file system's clock may change again within
 * the same tick of its timestamps (2 s on the coarsest, FAT): not trusted.
 */
#define RACY_NS (3LL * 1000000000)
/* How long to wait for another process's update of the index. */
#define BUSY_TIMEOUT_MS 120000

struct result_index {
	struct db db;
	char *root;
	char *path;
	long long now;		/* the file system's clock, ns, while updating */
	struct kd_err *err;
	bool outside;		/* it named a directory outside the root */
};

static int outside_root(struct result_index *ix, const char *rel)
{
	char *shown = xstrdup(rel ? rel : "(null)");

	make_printable(shown);
	ix->outside = true;
	kd_error(ix->err, "%s names '%s', which is not a directory below the result root; 'kdelta index' builds it again",
		 ix->path, shown);
	free(shown);
	return -1;
}

/*
 * The first column of every row into out: commit directories below the
 * root (rels), or labels, one component each.  On failure out is empty.
 */
static int db_column(struct result_index *ix, sqlite3_stmt *st,
		     struct name_list *out, bool rels)
{
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);

		if (!rel_below_root(v, false) || (!rels && strchr(v, '/'))) {
			outside_root(ix, v);
			break;
		}
		name_list_add(out, v);
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		db_error(&ix->db, ix->err, "query");
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	name_list_release(out);
	return -1;
}

static long long ns(struct timespec t)
{
	return (long long)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* A directory's stamp; mtime NULL when it is too young to be trusted. */
static int put_dir(struct result_index *ix, const char *rel,
		   const char *label, const struct stat *st)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO dirs(rel, parent, label, ino, mtime, ctime)"
		" VALUES(?1, ?2, ?3, ?4, ?5, ?6)";
	const char *slash = strrchr(rel, '/');
	char *parent = !*rel ? NULL : slash ? xstrndup(rel, (size_t)(slash - rel))
			   : xstrdup("");
	long long m = ns(st->st_mtim), c = ns(st->st_ctim);
	sqlite3_stmt *s = db_prepare(&ix->db, ix->err, sql, "sssi", rel,
				     parent, label, (long long)st->st_ino);
	int ret;

	if (s) {
		if (!label && ix->now - (m > c ? m : c) >= RACY_NS) {
			sqlite3_bind_int64(s, 5, m);
			sqlite3_bind_int64(s, 6, c);
		}
	}
	ret = db_run(&ix->db, s, ix->err);
	free(parent);
	return ret;
}

static int put_commit(void *ctx, const char *rel, long long ino)
{
	struct result_index *ix = ctx;
	const char *slash = strrchr(rel, '/');
	struct stat st = { .st_ino = (ino_t)ino };

	return put_dir(ix, rel, slash ? slash + 1 : rel, &st);
}

static int put_above(void *ctx, const char *rel, const struct stat *st)
{
	return put_dir(ctx, rel, NULL, st);
}

/* Forgets rel and everything below it ("" is never passed). */
static int forget_tree(struct result_index *ix, const char *rel, bool self)
{
	/* Below "a": from "a/" up to "a0" ('0' follows '/'). */
	return db_update(&ix->db, ix->err, self
		? "DELETE FROM dirs WHERE rel = ?1 OR (rel >= ?1 || '/' AND rel < ?1 || '0')"
		: "DELETE FROM dirs WHERE rel >= ?1 || '/' AND rel < ?1 || '0'",
		"s", rel);
}

/* The children the index knows of rel, sorted, with their inodes. */
static int known_children(struct result_index *ix, const char *rel,
			  struct subdirs *out)
{
	sqlite3_stmt *st = db_prepare(&ix->db, ix->err,
		"SELECT rel, ino FROM dirs WHERE parent = ?1 ORDER BY rel",
		"s", rel);
	int rc;

	memset(out, 0, sizeof(*out));
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *child = (const char *)sqlite3_column_text(st, 0);
		const char *slash;

		if (!rel_below_root(child, false)) {
			outside_root(ix, child);
			sqlite3_finalize(st);
			return -1;
		}
		slash = strrchr(child, '/');

		ALLOC_GROW(out->items, out->n + 1, out->alloc);
		out->items[out->n].name = xstrdup(slash ? slash + 1 : child);
		out->items[out->n++].ino = sqlite3_column_int64(st, 1);
	}
	if (rc != SQLITE_DONE)
		db_error(&ix->db, ix->err, "query");
	sqlite3_finalize(st);
	if (out->n > 1)
		qsort(out->items, out->n, sizeof(*out->items), compare_subdirs);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Brings a known child in line with the directory on disk. */
static int sync_child(struct result_index *ix, const char *rel,
		      const struct subdir *known, const struct subdir *disk,
		      int depth)
{
	const struct walk_visitor v = { put_commit, put_above, ix };
	char *child = join_rel(rel, known ? known->name : disk->name);
	int ret = 0;

	if (known && (!disk || disk->ino != known->ino))
		ret = forget_tree(ix, child, true);
	if (!ret && disk && (!known || disk->ino != known->ino))
		ret = result_walk_tree(ix->root, child, depth, &v, ix->err);
	free(child);
	return ret;
}

static int depth_of(const char *rel)
{
	int depth = *rel != '\0';

	for (const char *s = rel; *s; s++)
		depth += *s == '/';
	return depth;
}

/*
 * Reads a changed directory again: what it is now (a commit directory,
 * or one above them), its new and its vanished entries.  *recheck_parent
 * is set when the parent may have become a commit directory (a run in it
 * finished).
 */
static int reread(struct result_index *ix, const char *rel,
		  bool *recheck_parent)
{
	char *path = full_path(ix->root, rel);
	struct subdirs disk = { 0 }, known = { 0 };
	const char *slash = strrchr(rel, '/');
	struct stat st;
	size_t i = 0, j = 0;
	int ret = 0;

	*recheck_parent = *rel && is_run_name(slash ? slash + 1 : rel);
	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		free(path);
		if (!*rel)
			return kd_error(ix->err, "%s: the result root is gone",
					ix->root);
		return forget_tree(ix, rel, true);
	}
	ret = list_subdirs(path, &disk, ix->err);
	if (!ret && *rel && holds_results(path, &disk)) {
		ret = forget_tree(ix, rel, false);
		if (!ret)
			ret = put_dir(ix, rel, slash ? slash + 1 : rel, &st);
		goto out;
	}
	if (!ret)
		ret = known_children(ix, rel, &known);
	while (!ret && (i < known.n || j < disk.n)) {
		int c = i == known.n ? 1 : j == disk.n ? -1
			: strcmp(known.items[i].name, disk.items[j].name);

		ret = sync_child(ix, rel, c <= 0 ? &known.items[i] : NULL,
				 c >= 0 ? &disk.items[j] : NULL,
				 depth_of(rel) + 1);
		i += c <= 0;
		j += c >= 0;
	}
	if (!ret)
		ret = put_dir(ix, rel, NULL, &st);
out:
	subdirs_release(&disk);
	subdirs_release(&known);
	free(path);
	return ret;
}

static bool stamp_differs(const char *path, sqlite3_stmt *row)
{
	struct stat st;

	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return true;
	return sqlite3_column_type(row, 2) == SQLITE_NULL ||
	       sqlite3_column_int64(row, 1) != (long long)st.st_ino ||
	       sqlite3_column_int64(row, 2) != ns(st.st_mtim) ||
	       sqlite3_column_int64(row, 3) != ns(st.st_ctim);
}

/* The directories above the commit directories whose stamp changed. */
static int changed_dirs(struct result_index *ix, struct name_list *out)
{
	sqlite3_stmt *st = db_prepare(&ix->db, ix->err,
		"SELECT rel, ino, mtime, ctime FROM dirs WHERE label IS NULL ORDER BY rel",
		"");
	bool root_known = false;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *rel = (const char *)sqlite3_column_text(st, 0);
		char *path;

		if (!rel_below_root(rel, true)) {
			outside_root(ix, rel);
			sqlite3_finalize(st);
			name_list_release(out);
			return -1;
		}
		path = full_path(ix->root, rel);
		root_known |= !*rel;
		if (stamp_differs(path, st))
			name_list_add(out, rel);
		free(path);
	}
	if (rc != SQLITE_DONE)
		db_error(&ix->db, ix->err, "query");
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE && !root_known)
		name_list_add(out, "");
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The file system's clock: the index file's mtime, touched now. */
static long long fs_now(struct result_index *ix)
{
	struct timespec t;
	struct stat st;

	if (!utimensat(AT_FDCWD, ix->path, NULL, 0) && !stat(ix->path, &st))
		return ns(st.st_mtim);
	clock_gettime(CLOCK_REALTIME, &t);
	return ns(t);
}

static bool known(struct result_index *ix, const char *rel)
{
	sqlite3_stmt *st = db_prepare(&ix->db, ix->err,
				      "SELECT 1 FROM dirs WHERE rel = ?1",
				      "s", rel);
	bool ret = st && sqlite3_step(st) == SQLITE_ROW;

	sqlite3_finalize(st);
	return ret;
}

/* Reads again, under the write lock, every directory that changed. */
static int reread_changed(struct result_index *ix, struct name_list *todo)
{
	int ret = 0;

	ix->now = fs_now(ix);
	for (size_t i = 0; i < todo->n && !ret; i++) {
		const char *rel = todo->items[i];
		bool recheck_parent;

		/* An ancestor read again in this pass may have dropped it. */
		if (*rel && !known(ix, rel))
			continue;
		ret = reread(ix, rel, &recheck_parent);
		if (!ret && recheck_parent) {
			const char *slash = strrchr(rel, '/');
			char *parent = slash ? xstrndup(rel, (size_t)(slash - rel))
					     : xstrdup("");

			name_list_add(todo, parent);
			free(parent);
		}
	}
	return ret;
}

static int index_refresh(struct result_index *ix)
{
	struct name_list todo;
	int ret;

	if (changed_dirs(ix, &todo) < 0)
		return -1;
	if (!todo.n)
		return 0;
	name_list_release(&todo);
	/* Another process may be doing the same: wait, then look again. */
	if (db_exec(&ix->db, "BEGIN IMMEDIATE", ix->err) < 0)
		return -1;
	ret = changed_dirs(ix, &todo);
	if (!ret)
		ret = reread_changed(ix, &todo);
	name_list_release(&todo);
	if (ret < 0) {
		sqlite3_exec(ix->db.handle, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return db_exec(&ix->db, "COMMIT", ix->err);
}

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);"
	"CREATE TABLE IF NOT EXISTS dirs("
	" rel TEXT PRIMARY KEY,"	/* below the root; "" is the root */
	" parent TEXT,"
	" label TEXT,"			/* a commit directory's name */
	" ino INTEGER,"
	" mtime INTEGER,"		/* above the commit directories: */
	" ctime INTEGER);"		/* the stamp, NULL when not trusted */
	"CREATE INDEX IF NOT EXISTS dirs_by_label ON dirs(label);"
	"CREATE INDEX IF NOT EXISTS dirs_by_parent ON dirs(parent);";

/* The version this kdelta writes, or another: then start again. */
static int index_schema(struct result_index *ix)
{
	sqlite3_stmt *st;
	bool current = false;

	if (db_exec(&ix->db, "BEGIN IMMEDIATE", ix->err) < 0)
		return -1;
	if (db_exec(&ix->db, schema, ix->err) < 0)
		goto fail;
	st = db_prepare(&ix->db, ix->err,
			"SELECT value FROM meta WHERE key = 'version'", "");
	if (!st)
		goto fail;
	if (sqlite3_step(st) == SQLITE_ROW)
		current = !strcmp((const char *)sqlite3_column_text(st, 0),
				  INDEX_VERSION);
	sqlite3_finalize(st);
	if (!current &&
	    (db_exec(&ix->db, "DELETE FROM dirs", ix->err) < 0 ||
	     db_exec(&ix->db, "INSERT OR REPLACE INTO meta VALUES('version', '" INDEX_VERSION "')", ix->err) < 0))
		goto fail;
	return db_exec(&ix->db, "COMMIT", ix->err);
fail:
	sqlite3_exec(ix->db.handle, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

void result_index_close(struct result_index *ix)
{
	if (!ix)
		return;
	db_close(&ix->db);
	free(ix->root);
	free(ix->path);
	free(ix);
}

static struct result_index *index_new(const char *root, struct kd_err *err)
{
	struct result_index *ix = xcalloc(1, sizeof(*ix));
	size_t len = strlen(root);

	while (len > 1 && root[len - 1] == '/')
		len--;
	ix->root = xstrndup(root, len);
	ix->path = xasprintf("%s/%s", ix->root, INDEX_FILE);
	ix->err = err;
	return ix;
}

/* The index's directory, unless it exists: 0, or -1 when it cannot be. */
static int index_mkdir(struct result_index *ix)
{
	char *dir = xasprintf("%s/%s", ix->root, INDEX_DIR);
	int ret = mkdir(dir, 0755) && errno != EEXIST ? -1 : 0;

	free(dir);
	return ret;
}

static int index_connect(struct result_index *ix)
{
	if (db_open(&ix->db, ix->path, BUSY_TIMEOUT_MS,
		    "cannot open the index", ix->err) < 0)
		return -1;
	return index_schema(ix);
}

/* Removes a damaged index, its journal too: it is only a cache. */
static void index_remove(struct result_index *ix)
{
	char *journal = xasprintf("%s-journal", ix->path);

	db_close(&ix->db);
	unlink(ix->path);
	unlink(journal);
	free(journal);
}

static bool damaged(struct result_index *ix)
{
	int code = ix->db.handle ? sqlite3_errcode(ix->db.handle) : SQLITE_OK;

	return ix->outside || code == SQLITE_CORRUPT || code == SQLITE_NOTADB;
}

/* Opens and refreshes; a damaged index file is removed and built again. */
static int index_open_refresh(struct result_index *ix)
{
	for (int attempt = 0; attempt < 2; attempt++) {
		if (!index_connect(ix) && !index_refresh(ix))
			return 0;
		if (!damaged(ix))
			return -1;
		index_remove(ix);
	}
	return -1;
}

int result_index_open(const char *root, struct result_index **out,
		      struct kd_err *err)
{
	struct result_index *ix = index_new(root, err);
	struct kd_err why;

	*out = NULL;
	/* Unwritable (an lkp-tests tree shared read-only): walk it instead. */
	if (!path_exists(ix->path) && index_mkdir(ix) < 0) {
		result_index_close(ix);
		return 0;
	}
	ix->err = &why;
	if (index_open_refresh(ix) < 0) {
		result_index_close(ix);
		/* Only a walk error is the tree's; the index is a cache. */
		return 0;
	}
	ix->err = err;
	*out = ix;
	return 0;
}

int result_index_find(struct result_index *ix, const char *name,
		      struct name_list *out, struct kd_err *err)
{
	ix->err = err;
	return db_column(ix, db_prepare(&ix->db, ix->err,
		"SELECT rel FROM dirs WHERE label = ?1 ORDER BY rel",
		"s", name), out, true);
}

int result_index_prefixed(struct result_index *ix, const char *prefix,
			  struct name_list *out, struct kd_err *err)
{
	char *high = xstrdup(prefix);
	size_t len = strlen(high);
	int ret;

	/* Names from prefix up to (not with) prefix's last byte plus one. */
	while (len && (unsigned char)high[len - 1] == 0xff)
		high[--len] = '\0';
	if (len)
		high[len - 1]++;
	ix->err = err;
	ret = db_column(ix, db_prepare(&ix->db, ix->err, len
		? "SELECT DISTINCT label FROM dirs WHERE label >= ?1 AND label < ?2 ORDER BY label"
		: "SELECT DISTINCT label FROM dirs WHERE label >= ?1 ORDER BY label",
		len ? "ss" : "s", prefix, high), out, false);
	free(high);
	return ret;
}

bool result_index_empty(struct result_index *ix)
{
	sqlite3_stmt *st = db_prepare(&ix->db, ix->err,
		"SELECT 1 FROM dirs WHERE label IS NOT NULL LIMIT 1", "");
	bool empty = !st || sqlite3_step(st) != SQLITE_ROW;

	sqlite3_finalize(st);
	return empty;
}

int result_index_all(struct result_index *ix, struct name_list *out,
		     struct kd_err *err)
{
	ix->err = err;
	return db_column(ix, db_prepare(&ix->db, ix->err,
		"SELECT rel FROM dirs WHERE label IS NOT NULL ORDER BY rel",
		""), out, true);
}

int result_index_rebuild(const char *root, size_t *ncommits,
			 struct kd_err *err)
{
	struct result_index *ix = index_new(root, err);
	struct name_list all = { 0 };
	int ret;

	if (!is_directory(ix->root)) {
		kd_error(err, "%s: no such result root; run jobs with 'kdelta run' first, or name another root with --result-root",
			 ix->root);
		result_index_close(ix);
		return -1;
	}
	ret = index_mkdir(ix);
	if (ret < 0)
		kd_error(err, "%s/%s: %s", ix->root, INDEX_DIR, strerror(errno));
	else
		ret = index_connect(ix);
	if (ret < 0 && damaged(ix)) {
		index_remove(ix);
		ret = index_connect(ix);
	}
	/* Forgetting every directory makes the root one to read again. */
	if (!ret)
		ret = db_exec(&ix->db, "BEGIN IMMEDIATE", ix->err);
	if (!ret) {
		struct name_list todo = { 0 };

		name_list_add(&todo, "");
		ret = db_exec(&ix->db, "DELETE FROM dirs", ix->err);
		if (!ret)
			ret = reread_changed(ix, &todo);
		name_list_release(&todo);
		if (ret < 0)
			sqlite3_exec(ix->db.handle, "ROLLBACK", NULL, NULL, NULL);
		else
			ret = db_exec(&ix->db, "COMMIT", ix->err);
	}
	if (!ret)
		ret = result_index_all(ix, &all, err);
	*ncommits = all.n;
	name_list_release(&all);
	result_index_close(ix);
	return ret;
}

int result_index_update(const char *root, struct kd_err *err)
{
	struct result_index *ix = index_new(root, err);
	int ret = 0;

	if (path_exists(ix->path))
		ret = index_open_refresh(ix);
	result_index_close(ix);
	return ret;
}
