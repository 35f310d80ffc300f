/* The statement helpers every module uses (see db.h): running SQL,
 * preparing and stepping statements, binding, the next id, whether a table
 * or a row exists. Below the opening code (db.c) and the upgrades
 * (migrate.c), which both use them. */
#include <stdbool.h>
#include <stdio.h>
#include "lib/errf.h"
#include "lib/prog.h"
#include "schema/db.h"

/* db_exec: see db.h. */
int db_exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	errf(err, errlen, "%s", msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return -1;
}

/* db_prepare: see db.h. */
sqlite3_stmt *db_prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		eprintf("internal error: %s in: %s\n",
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
	return errf(err, errlen, "%s", sqlite3_errmsg(sqlite3_db_handle(st)));
}

/* db_bind_text_or_null: see db.h. */
void db_bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
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

/* db_any_row: see db.h. */
bool db_any_row(sqlite3 *db, const char *sql, int64_t id, const char *text)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	bool yes;
	if (!st)
		return false;
	sqlite3_bind_int64(st, 1, id);
	if (text)
		sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
	yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}
