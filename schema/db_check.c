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

/* tables_of(db, n): every table of db with its columns, ',' before and
 * after each (",id,label,"), in one query; malloc'ed, *n of them. */
static struct ref_table *tables_of(sqlite3 *db, size_t *n)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT m.name, ',' || group_concat(p.name, ',') || ',' FROM "
				      "sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table' "
				      "GROUP BY m.name ORDER BY m.name");
	struct ref_table *t = NULL;
	size_t cap = 0;
	*n = 0;
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		ALLOC_GROW(t, *n + 1, cap);
		t[*n].name = xstrdup((const char *)sqlite3_column_text(st, 0));
		t[(*n)++].cols = xstrdup((const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	return t;
}

/* tables_free(t, n): frees what tables_of returned. */
static void tables_free(struct ref_table *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(t[i].name);
		free(t[i].cols);
	}
	free(t);
}

/* make_tables(mem): the schema's tables (its CREATE TABLE statements
 * alone: the views and indexes cost most of the time and hold no
 * column) made in mem. 0 or -1. */
static int make_tables(sqlite3 *mem)
{
	const char *sql = perfdb_schema_sql, *tail;
	sqlite3_stmt *st;
	while (*sql) {
		sql += strspn(sql, " \t\r\n");
		if (!strncmp(sql, "--", 2)) {	/* a comment line */
			sql += strcspn(sql, "\n");
			continue;
		}
		if (!*sql)
			break;
		if (strncmp(sql, "CREATE TABLE", 12)) {	/* to the end of this statement */
			if (sqlite3_prepare_v2(mem, sql, -1, &st, &tail) != SQLITE_OK)
				return -1;
			sqlite3_finalize(st);
			sql = tail;
			continue;
		}
		if (sqlite3_prepare_v2(mem, sql, -1, &st, &tail) != SQLITE_OK || sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_finalize(st);
			return -1;
		}
		sqlite3_finalize(st);
		sql = tail;
	}
	return 0;
}

/* make_ref(): the reference tables, from the schema in a memory database. */
static void make_ref(void)
{
	sqlite3 *mem = NULL;
	if (sqlite3_open(":memory:", &mem) != SQLITE_OK || db_exec(mem, "BEGIN", NULL, 0) || make_tables(mem)) {
		sqlite3_close(mem);
		return;
	}
	ref = tables_of(mem, &nref);
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
	size_t n, k = 0;
	struct ref_table *have;
	int rc = 0;
	pthread_once(&ref_once, make_ref);
	have = tables_of(db, &n);
	for (size_t i = 0; i < nref && !rc; i++) {
		const char *col;
		while (k < n && strcmp(have[k].name, ref[i].name) < 0)	/* both in name order */
			k++;
		if (k == n || strcmp(have[k].name, ref[i].name)) {
			snprintf(err, errlen, "%s: not a complete perfdb database: table '%s' is missing", path,
				 ref[i].name);
			rc = -1;
		} else if ((col = missing_column(ref[i].cols, have[k].cols))) {
			snprintf(err, errlen, "%s: not a complete perfdb database: table '%s' has no column '%s'",
				 path, ref[i].name, col);
			rc = -1;
		}
	}
	tables_free(have, n);
	return rc;
}
