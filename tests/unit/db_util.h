/* The unit tests' one way to write a fixture's rows: a statement with
 * bound parameters, aborting on error (header-only, for tests). */
#ifndef PERFDB_TEST_DB_UTIL_H
#define PERFDB_TEST_DB_UTIL_H
#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "schema/db.h"

/* db_vsql(db, text, types, ap): runs one statement of db with ap's values
 * bound (types: 'i' int64, 'd' double, 's' text, 'n' NULL, one letter per
 * '?'); returns the last rowid; aborts, saying why, on error. */
static inline int64_t db_vsql(sqlite3 *db, const char *text, const char *types, va_list ap)
{
	sqlite3_stmt *st = db_prepare(db, text);
	for (int i = 0; st && types[i]; i++) {
		if (types[i] == 'i')
			sqlite3_bind_int64(st, i + 1, va_arg(ap, int64_t));
		else if (types[i] == 'd')
			sqlite3_bind_double(st, i + 1, va_arg(ap, double));
		else if (types[i] == 's')
			sqlite3_bind_text(st, i + 1, va_arg(ap, const char *), -1, SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(st, i + 1);
	}
	if (!st || sqlite3_step(st) != SQLITE_DONE) {
		printf("# SQL failed: %s: %s\n", text, sqlite3_errmsg(db));
		abort();
	}
	sqlite3_finalize(st);
	return sqlite3_last_insert_rowid(db);
}
#endif
