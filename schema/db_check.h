/* Whether a database of the current schema version is whole: every table
 * of perfdb's schema there with every column (a table dropped by hand, or
 * a column, is said at open, in one line, instead of failing a query
 * later with SQLite's words and the SQL). */
#ifndef PERFDB_DB_CHECK_H
#define PERFDB_DB_CHECK_H
#include <sqlite3.h>
#include <stddef.h>

/* db_check_complete(db, path, err, errlen): 0 when db (at path) has every
 * table and column of the schema this perfdb creates; -1 with "PATH: not
 * a complete perfdb database: table 'T' is missing" (or "... has no
 * column 'C'") in err. */
int db_check_complete(sqlite3 *db, const char *path, char *err, size_t errlen);
#endif
