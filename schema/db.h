/* The perfdb database: opening (creating the schema or checking its
 * version), transactions and small statement helpers over sqlite3. */
#ifndef PERFDB_DB_H
#define PERFDB_DB_H
#include <sqlite3.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

/* Schema version kept in PRAGMA user_version. */
#define PERFDB_SCHEMA_VERSION 9

extern const char perfdb_schema_sql[];
extern const char perfdb_index_sql[];

/* db_open: opens (create = true: creates if missing) the database at path
 * for writing, creating the schema in a new database, upgrading one of an
 * older schema version it knows how to upgrade (schema/migrate.h) and
 * refusing any other; without create, a missing or empty file is refused.
 * A new file is made mode 0600 whatever the umask (SQLite gives its
 * -journal the same mode); an existing one that its group or others may
 * read gets one warning on stderr saying what it reveals. Several
 * processes may open, create and write one database at once: the schema
 * is created once, and writers wait for each other's transactions (up to
 * minutes). The connection holds a shared flock on the file until
 * db_close. Returns NULL with a one-line message in err. */
sqlite3 *db_open(const char *path, bool create, char *err, size_t errlen);

/* db_created(db): whether db_open made db's file (it did not exist). */
bool db_created(sqlite3 *db);

/* db_close(db): closes a connection of db_open (or db_open_read) and
 * releases its hold on the file. */
void db_close(sqlite3 *db);

/* db_remove_if_unused(path): removes the database at path when no
 * connection of db_open holds it (in any process) and it has no session
 * and no bench, as a verb that created it for nothing does; true when
 * removed. */
bool db_remove_if_unused(const char *path);

/* db_open_read(path, err, errlen): opens an existing perfdb database for
 * reading only (SQLITE_OPEN_READONLY: the file is never created or
 * changed, and works on a read-only file system). A missing or empty file,
 * a perf.data file (the message shows the import command), a file that is
 * not SQLite, or a database of another schema version give NULL with one
 * line in err. */
sqlite3 *db_open_read(const char *path, char *err, size_t errlen);

/* db_pick_sessions(db, spec, ids, err, errlen): the sessions spec names
 * (an id or a label; a label may name several), in id order, or the latest
 * session when spec is NULL. Returns their number (> 0) with *ids
 * malloc'ed, or -1 with one line in err ("no session 'x' (the labels are:
 * a, b)", "no sessions"). */
int db_pick_sessions(sqlite3 *db, const char *spec, int64_t **ids, char *err, size_t errlen);

/* Statement helpers (db_stmt.c).
 * db_exec: runs SQL without results; on error writes the message to err
 * (may be NULL) and returns -1. */
int db_exec(sqlite3 *db, const char *sql, char *err, size_t errlen);

/* db_prepare: a prepared statement for sql, or NULL (error printed to
 * stderr, which only happens on a programming error). */
sqlite3_stmt *db_prepare(sqlite3 *db, const char *sql);

/* db_step_done: steps a non-query statement once and resets it; returns 0
 * or -1 (message in err). */
int db_step_done(sqlite3_stmt *st, char *err, size_t errlen);

/* db_bind_text_or_null: binds s, or NULL when s is NULL. */
void db_bind_text_or_null(sqlite3_stmt *st, int i, const char *s);

/* db_next_id: the next free id of table (1 + its largest id, 1 when
 * empty); table must be a perfdb table name (never user input). */
int64_t db_next_id(sqlite3 *db, const char *table);

/* db_any_row(db, sql, id, text): whether the query sql returns a row, with
 * id bound as its first parameter and text (when not NULL) as its second;
 * false on an error too. */
bool db_any_row(sqlite3 *db, const char *sql, int64_t id, const char *text);

/* db_has_table: whether db has a table called name (for tables a
 * database made by an older perfdb may lack). */
bool db_has_table(sqlite3 *db, const char *name);

/* db_resolve_sessions: the ids of the sessions that SPEC names (an id or a
 * label; NULL means every session), in id order. Returns the count (0 when
 * nothing matches) with *ids malloc'ed, or -1 when the query cannot be
 * prepared. */
int db_resolve_sessions(sqlite3 *db, const char *spec, int64_t **ids);
#endif
