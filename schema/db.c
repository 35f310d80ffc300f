/* The perfdb database: opening it, creating or checking the schema, and the
 * statement helpers every module uses. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "schema/db.h"
#include "schema/migrate.h"

/* db_exec: see db.h. */
int db_exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	if (err && errlen)
		snprintf(err, errlen, "%s", msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return -1;
}

/* db_prepare: see db.h. */
sqlite3_stmt *db_prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "perfdb: internal error: %s in: %s\n",
			sqlite3_errmsg(db), sql);
		return NULL;
	}
	return st;
}

/* db_step_done: see db.h. */
int db_step_done(sqlite3_stmt *st, char *err, size_t errlen)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return 0;
	if (err && errlen)
		snprintf(err, errlen, "%s", sqlite3_errmsg(sqlite3_db_handle(st)));
	return -1;
}

/* db_bind_text_or_null: see db.h. */
void db_bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* probe_int(db, sql): the integer sql gives, or -1 when it cannot run (a
 * file that is not a database: bad input, not an internal error). */
static int probe_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int v = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* user_version: the database's PRAGMA user_version, or -1. */
static int user_version(sqlite3 *db)
{
	return probe_int(db, "PRAGMA user_version");
}

/* table_count: how many tables and views the database has, or -1. */
static int table_count(sqlite3 *db)
{
	return probe_int(db, "SELECT count(*) FROM sqlite_master");
}

/* create_schema: creates every table and view of a new database, with
 * 16 KiB pages (a bulk import writes ~10% faster than with 4 KiB ones). */
static int create_schema(sqlite3 *db, char *err, size_t errlen)
{
	char sql[64];
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", PERFDB_SCHEMA_VERSION);
	if (db_exec(db, "PRAGMA page_size = 16384", err, errlen) || db_exec(db, "BEGIN", err, errlen))
		return -1;
	if (db_exec(db, perfdb_schema_sql, err, errlen) ||
	    db_exec(db, perfdb_index_sql, err, errlen) ||
	    db_exec(db, sql, err, errlen)) {
		db_exec(db, "ROLLBACK", NULL, 0);
		return -1;
	}
	return db_exec(db, "COMMIT", err, errlen);
}

/* check_schema: creates the schema of an empty database, or checks that an
 * existing one is a perfdb database of this version. */
static int check_schema(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	int v = user_version(db), n = table_count(db);
	char why[256];
	if (v < 0 || n < 0) {
		snprintf(err, errlen, "%s: not an SQLite database", path);
		return -1;
	}
	if (v == 0 && n == 0) {
		if (create_schema(db, why, sizeof(why))) {
			snprintf(err, errlen, "%s: cannot create schema: %s", path, why);
			return -1;
		}
		return 0;
	}
	if (v == 0) {
		snprintf(err, errlen, "%s: not a perfdb database (it has tables but no perfdb schema version)", path);
		return -1;
	}
	if (v >= PERFDB_MIGRATE_FROM && v < PERFDB_SCHEMA_VERSION) {
		if (db_migrate(db, v, why, sizeof(why))) {
			snprintf(err, errlen, "%s: %s", path, why);
			return -1;
		}
		return 0;
	}
	if (v != PERFDB_SCHEMA_VERSION) {
		snprintf(err, errlen, "%s: database has perfdb schema version %d, this perfdb uses %d%s",
			 path, v, PERFDB_SCHEMA_VERSION, v > PERFDB_SCHEMA_VERSION ?
			 " (a newer perfdb made it)" : " and cannot upgrade it");
		return -1;
	}
	return 0;
}

/* file_kind(path, must_exist, err, errlen): 0 for a file that may be an
 * SQLite database (or, unless must_exist, a missing or empty one that
 * becomes one); -1 with the reason in err for a directory, a perf.data
 * recording, or a missing or empty file when must_exist. */
static int file_kind(const char *path, bool must_exist, char *err, size_t errlen)
{
	struct stat st;
	char head[16] = { 0 };
	size_t n = 0;
	FILE *f;
	if (stat(path, &st)) {
		if (!must_exist && errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory, not a perfdb database", path);
		return -1;
	}
	if ((f = fopen(path, "rb"))) {
		n = fread(head, 1, sizeof(head), f);
		fclose(f);
	}
	if (n == 0 && must_exist) {
		snprintf(err, errlen, "%s: empty file, not a perfdb database", path);
		return -1;
	}
	if (n >= 8 && (!memcmp(head, "PERFILE2", 8) || !memcmp(head, "2ELIFREP", 8) ||
		       !memcmp(head, "PERFFILE", 8))) {
		snprintf(err, errlen, "%s: a perf.data recording, not a perfdb database; import it "
			 "with: perfdb import -o perfdb.db %s", path, path);
		return -1;
	}
	return 0;
}

/* db_open: see db.h. */
sqlite3 *db_open(const char *path, bool create, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
		    (create ? SQLITE_OPEN_CREATE : 0);
	if (!create && access(path, F_OK)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (file_kind(path, false, err, errlen))
		return NULL;
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, db ? sqlite3_errmsg(db) : "cannot open");
		sqlite3_close(db);
		return NULL;
	}
	/* SQLite opens a file it may not write read-only without a word: say
	 * so now, before a verb that writes does anything (or, with nothing
	 * to store, succeeds on a database it could not have changed). */
	if (sqlite3_db_readonly(db, "main") == 1) {
		snprintf(err, errlen, "%s: cannot write to it: the file or its file system is read-only",
			 path);
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, 5000);
	if (check_schema(db, path, err, errlen)) {
		sqlite3_close(db);
		return NULL;
	}
	db_exec(db, "PRAGMA foreign_keys = OFF; PRAGMA cache_size = -32768;"
		    "PRAGMA temp_store = MEMORY", NULL, 0);
	return db;
}

/* db_resolve_sessions: see db.h. */
int db_resolve_sessions(sqlite3 *db, const char *spec, int64_t **ids)
{
	sqlite3_stmt *st = db_prepare(db, spec ?
		"SELECT id FROM session WHERE label = ?1 OR CAST(id AS TEXT) = ?1 ORDER BY id" :
		"SELECT id FROM session ORDER BY id");
	int n = 0;
	size_t cap = 0;
	*ids = NULL;
	if (!st)
		return -1;
	if (spec)
		sqlite3_bind_text(st, 1, spec, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		ALLOC_GROW(*ids, (size_t)n + 1, cap);
		(*ids)[n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return n;
}

/* db_next_id: see db.h. */
int64_t db_next_id(sqlite3 *db, const char *table)
{
	char sql[128];
	sqlite3_stmt *st;
	int64_t v = 1;
	snprintf(sql, sizeof(sql), "SELECT coalesce(max(id), 0) + 1 FROM %s", table);
	st = db_prepare(db, sql);
	if (st && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* db_has_table: see db.h. */
bool db_has_table(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
	bool yes;
	if (!st)
		return false;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

/* db_open_read: see db.h. */
sqlite3 *db_open_read(const char *path, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	int v, n;
	if (file_kind(path, true, err, errlen))
		return NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, db ? sqlite3_errmsg(db) : "cannot open");
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, 5000);
	v = user_version(db);
	n = table_count(db);
	if (v < 0 || n < 0)
		snprintf(err, errlen, "%s: not an SQLite database", path);
	else if (v == 0)
		snprintf(err, errlen, "%s: not a perfdb database (no perfdb schema version)", path);
	else if (v >= PERFDB_MIGRATE_FROM && v < PERFDB_SCHEMA_VERSION)
		snprintf(err, errlen, "%s: database has perfdb schema version %d, this perfdb reads %d: "
			 "a verb that writes to it (perfdb import -o %s ..., record, bench, layout) "
			 "upgrades it", path, v, PERFDB_SCHEMA_VERSION, path);
	else if (v != PERFDB_SCHEMA_VERSION)
		snprintf(err, errlen, "%s: database has perfdb schema version %d, this perfdb reads %d",
			 path, v, PERFDB_SCHEMA_VERSION);
	if (v <= 0 || n < 0 || v != PERFDB_SCHEMA_VERSION) {
		sqlite3_close(db);
		return NULL;
	}
	db_exec(db, "PRAGMA cache_size = -32768; PRAGMA temp_store = MEMORY", NULL, 0);
	return db;
}

/* labels_text(db, b): the distinct labels of db, ", "-separated. */
static void labels_text(sqlite3 *db, struct strbuf *b)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT DISTINCT label FROM session WHERE label IS NOT NULL "
				      "ORDER BY label LIMIT 21");
	int n = 0;
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		sb_printf(b, "%s%s", n ? ", " : "", n < 20 ? (const char *)sqlite3_column_text(st, 0) : "...");
		n++;
	}
	sqlite3_finalize(st);
}

/* db_pick_sessions: see db.h. */
int db_pick_sessions(sqlite3 *db, const char *spec, int64_t **ids, char *err, size_t errlen)
{
	int n = spec ? db_resolve_sessions(db, spec, ids) : 0;
	if (spec && n <= 0) {
		struct strbuf b = STRBUF_INIT;
		labels_text(db, &b);
		snprintf(err, errlen, "no session '%s'%s%s%s", spec, b.len ? " (labels: " : "",
			 sb_str(&b), b.len ? ")" : "");
		sb_free(&b);
		free(*ids);
		*ids = NULL;
		return -1;
	}
	if (spec)
		return n;
	sqlite3_stmt *st = db_prepare(db, "SELECT max(id) FROM session");
	int64_t id = -1;
	if (st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (id < 0) {
		snprintf(err, errlen, "no sessions");
		*ids = NULL;
		return -1;
	}
	*ids = xmalloc(sizeof(**ids));
	**ids = id;
	return 1;
}
