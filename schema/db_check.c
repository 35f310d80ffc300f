/* Checking that a database is whole (see db_check.h): the reference is the
 * schema this perfdb creates, made once in a memory database. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "schema/db.h"
#include "schema/db_check.h"

/* One table of the reference: its name and its columns, ','-joined. */
struct ref_table {
	char *name;
	char *cols;
};

static struct ref_table *ref;
static size_t nref;
static pthread_once_t ref_once = PTHREAD_ONCE_INIT;

/* columns_of(db, table): table's columns in db, ',' before and after each
 * (",id,label,"), malloc'ed; "," when it has none. */
static char *columns_of(sqlite3 *db, const char *table)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT ',' || group_concat(name, ',') || ',' FROM "
				      "pragma_table_info(?)");
	char *s = NULL;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	if (st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		s = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return s ? s : xstrdup(",");
}

/* make_ref(): the reference tables, from the schema in a memory database. */
static void make_ref(void)
{
	sqlite3 *mem = NULL;
	sqlite3_stmt *st;
	size_t cap = 0;
	if (sqlite3_open(":memory:", &mem) != SQLITE_OK || db_exec(mem, perfdb_schema_sql, NULL, 0)) {
		sqlite3_close(mem);
		return;
	}
	st = db_prepare(mem, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		ALLOC_GROW(ref, nref + 1, cap);
		ref[nref].name = xstrdup((const char *)sqlite3_column_text(st, 0));
		ref[nref].cols = columns_of(mem, ref[nref].name);
		nref++;
	}
	sqlite3_finalize(st);
	sqlite3_close(mem);
}

/* missing_column(want, have): the first column of want (",a,b,") that
 * have lacks, into a static buffer, or NULL. */
static const char *missing_column(const char *want, const char *have)
{
	static __thread char col[128];
	for (const char *p = want + 1; *p; ) {
		size_t n = strcspn(p, ",");
		snprintf(col, sizeof(col), ",%.*s,", (int)n, p);
		if (!strstr(have, col)) {
			snprintf(col, sizeof(col), "%.*s", (int)n, p);
			return col;
		}
		p += n + (p[n] == ',');
	}
	return NULL;
}

/* db_check_complete: see db_check.h. */
int db_check_complete(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	int rc = 0;
	pthread_once(&ref_once, make_ref);
	for (size_t i = 0; i < nref && !rc; i++) {
		char *have = columns_of(db, ref[i].name);
		const char *col;
		if (!strcmp(have, ",")) {
			snprintf(err, errlen, "%s: not a complete perfdb database: table '%s' is missing", path,
				 ref[i].name);
			rc = -1;
		} else if ((col = missing_column(ref[i].cols, have))) {
			snprintf(err, errlen, "%s: not a complete perfdb database: table '%s' has no column '%s'",
				 path, ref[i].name, col);
			rc = -1;
		}
		free(have);
	}
	return rc;
}
