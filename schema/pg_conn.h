/* The connection to a PostgreSQL server (libpq) for perfdb push and pull:
 * connecting from a conninfo string or URI, one-line errors, statements
 * with bound parameters, and creating or checking perfdb's schema there. */
#ifndef PERFDB_PG_CONN_H
#define PERFDB_PG_CONN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "schema/pg_lib.h"

/* pg_check_conninfo(conninfo, err, errlen): 0 when conninfo parses as a
 * libpq connection string or URI and carries no password (passwords come
 * the libpq ways: PGPASSFILE / ~/.pgpass, a service file, PGPASSWORD);
 * -1 with one line in err otherwise, also when libpq cannot be loaded
 * (pg_lib_load, which this calls first: a caller that tells a missing
 * libpq from a bad conninfo calls it before). */
int pg_check_conninfo(const char *conninfo, char *err, size_t errlen);

/* pg_connect(conninfo, err, errlen): a connection, or NULL with one line
 * in err ("cannot connect to the server: ..."). Checks the conninfo
 * first (pg_check_conninfo). */
PGconn *pg_connect(const char *conninfo, char *err, size_t errlen);

/* pg_close(c): closes a connection pg_connect made; nothing for NULL. */
void pg_close(PGconn *c);

/* pg_error_line(c, err, errlen): the first line of the connection's last
 * error message into err. */
void pg_error_line(PGconn *c, char *err, size_t errlen);

/* pg_exec(c, sql, n, params, err, errlen): runs sql with n text
 * parameters ($1..$n); the result when it succeeded (PQclear it), else
 * NULL with one line in err. */
PGresult *pg_exec(PGconn *c, const char *sql, int n, const char *const *params, char *err,
		  size_t errlen);

/* pg_query(c, sql, n, params, ncols, err, errlen): pg_exec of a query
 * whose result must have ncols columns: a server that sends another
 * number gives NULL with one line in err, as a failed query does. */
PGresult *pg_query(PGconn *c, const char *sql, int n, const char *const *params, int ncols,
		   char *err, size_t errlen);

/* pg_get_int(r, row, col, v): the integer in decimal at row, col of a
 * text result into *v; false for a cell the result does not have, NULL,
 * or anything but one int64 in decimal. */
bool pg_get_int(const PGresult *r, int row, int col, int64_t *v);

/* pg_get_text(r, row, col): the text at row, col of a text result, or
 * NULL for SQL NULL and for a cell the result does not have. */
const char *pg_get_text(const PGresult *r, int row, int col);

/* pg_cmd(c, sql, err, errlen): runs sql (several statements allowed, no
 * parameters), its result discarded; 0, or -1 with one line in err. */
int pg_cmd(PGconn *c, const char *sql, char *err, size_t errlen);

/* pg_ensure_schema(c, create, created, err, errlen): 0 when the server
 * database has perfdb's schema of this version; when it has none and
 * create is set, creates it (pg_schema.h) in one transaction first and
 * sets *created (created may be NULL). -1 with one line in err otherwise
 * (no schema and !create; another version or layout). */
int pg_ensure_schema(PGconn *c, bool create, bool *created, char *err, size_t errlen);

/* pg_jit_off(c, err, errlen): turns PostgreSQL's JIT compilation off for
 * the connected database (ALTER DATABASE ... SET jit = off, which new
 * connections get): its compile time grows with the number of partitions
 * a query reads, one per session. 0, or -1 with the server's reason
 * (only the database's owner may). */
int pg_jit_off(PGconn *c, char *err, size_t errlen);
#endif
