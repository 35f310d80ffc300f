/* Upgrading a database made by an older perfdb to this schema version,
 * step by step, each step's SQL embedded from schema/migrateN.sql. */
#ifndef PERFDB_MIGRATE_H
#define PERFDB_MIGRATE_H
#include <sqlite3.h>
#include <stddef.h>

/* The oldest schema version this perfdb can upgrade. */
#define PERFDB_MIGRATE_FROM 4

/* db_migrate(db, from, err, errlen): upgrades db from schema version from
 * (PERFDB_MIGRATE_FROM <= from < PERFDB_SCHEMA_VERSION) to the current
 * one in one immediate transaction, so that concurrent openers wait and
 * then see the new version. Returns 0, or -1 with one line in err (the
 * database is unchanged). */
int db_migrate(sqlite3 *db, int from, char *err, size_t errlen);
#endif
