/* The PostgreSQL schema, derived from the SQLite one (the schema .sql files, as
 * embedded in the binary) with the differences written once in
 * schema/pg_schema.c: types, surrogate ids, foreign keys, partitioning of
 * the tables that grow with samples, the typed tracepoint views' casts,
 * and schema/pg_views.sql for views whose SQLite text does not port. */
#ifndef PERFDB_PG_SCHEMA_H
#define PERFDB_PG_SCHEMA_H
#include <stdbool.h>

/* How a table is partitioned on the server (declarative partitioning,
 * one partition per session, by range over the session's ids). */
enum pg_part { PG_PART_NONE, PG_PART_RANGE };

/* pg_schema_ddl(): the whole DDL of a new server database (tables with
 * their id sequences, views, indexes, and perfdb's own bookkeeping tables
 * perfdb_meta and perfdb_pushed), as one malloc'd SQL string. */
char *pg_schema_ddl(void);

/* pg_table_partition(table, col, session): how table is partitioned on
 * the server; for PG_PART_RANGE, *col (when col is not NULL) is set to
 * the column whose range a session's partition holds (its own contiguous
 * block of ids) and *session (when not NULL) to the table's session id
 * column, which the partition's CHECK also fixes, or NULL if it has none. */
enum pg_part pg_table_partition(const char *table, const char **col, const char **session);

/* pg_view_column_is_text(name): whether a typed tracepoint view's column
 * of this name holds text (comm, *_sym, paths, filename, the JSON
 * fields); the others are integers. The sample table's f1..f7 are text on
 * the server and the views cast the integer ones. */
bool pg_view_column_is_text(const char *name);

/* pg_quote_ident(name): name as a PostgreSQL identifier: quoted when it is
 * a reserved word there ("offset"), else as is (a static or the input). */
const char *pg_quote_ident(const char *name);
#endif
