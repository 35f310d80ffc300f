/* Upgrading older databases: see migrate.h. */
#include <stdio.h>
#include "schema/db.h"
#include "schema/migrate.h"

extern const char perfdb_migrate5_sql[], perfdb_migrate6_sql[], perfdb_migrate7_sql[],
	perfdb_migrate8_sql[], perfdb_migrate9_sql[];

/* The SQL that takes version i + PERFDB_MIGRATE_FROM to the next. */
static const char *const steps[] = { perfdb_migrate5_sql, perfdb_migrate6_sql,
	perfdb_migrate7_sql, perfdb_migrate8_sql, perfdb_migrate9_sql };

/* current_version(db): PRAGMA user_version, or -1. */
static int current_version(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, "PRAGMA user_version");
	int v = -1;
	if (st && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* db_migrate: see migrate.h. */
int db_migrate(sqlite3 *db, int from, char *err, size_t errlen)
{
	char why[512], sql[64];
	int v;
	if (db_exec(db, "BEGIN IMMEDIATE", why, sizeof(why)))
		goto fail;
	v = current_version(db);	/* another process may have upgraded it meanwhile */
	for (; v >= from && v < PERFDB_SCHEMA_VERSION; v++)
		if (db_exec(db, steps[v - PERFDB_MIGRATE_FROM], why, sizeof(why))) {
			db_exec(db, "ROLLBACK", NULL, 0);
			goto fail;
		}
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", PERFDB_SCHEMA_VERSION);
	if (db_exec(db, sql, why, sizeof(why)) || db_exec(db, "COMMIT", why, sizeof(why))) {
		db_exec(db, "ROLLBACK", NULL, 0);
		goto fail;
	}
	return 0;
fail:
	snprintf(err, errlen, "cannot upgrade from schema version %d: %s", from, why);
	return -1;
}
