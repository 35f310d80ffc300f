/* perfdb pull's row decoder: the rows of one server result (a FETCH of a
 * table in PostgreSQL's binary format) checked against what the local
 * table holds and added to its batch of inserts. A server is untrusted:
 * the number of columns, each column's type and format, each value's
 * length, a NULL where the local table has its key, and every id (it must
 * be one of the unit's ids on the server before it moves to a local id)
 * are checked, and text comes back from its server form (schema/fleet.h).
 * The result is read through struct rows_in, so that a fuzzing harness
 * feeds the decoder without a server (tests/fuzz/fuzz_pull_rows.c). */
#ifndef PERFDB_FLEET_ROWS_H
#define PERFDB_FLEET_ROWS_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "collect/fleet/fleet_xfer.h"
#include "schema/batch.h"

/* What a local column holds, from its declared type: INTEGER, REAL, TEXT,
 * BLOB, or any other (untyped: sample.f1..f7, integers or text as the
 * event's typed view says, which the server holds as text). */
enum col_kind { COL_INT, COL_REAL, COL_TEXT, COL_BLOB, COL_ANY };

/* An event of the session being pulled: its server id and which of
 * f1..f7 its typed view holds as text. */
struct evtype {
	int64_t id;
	bool text[7];
};

/* What the rows of one local table are: its columns in order, what each
 * holds, the key table of each id column, which are in its primary key;
 * for sample, the places of event_id and f1 (else -1) and the events of
 * the session, whose views say which f columns are text. */
struct rows_spec {
	const char *table;
	int ncols;
	char **cols;
	enum col_kind *kind;
	enum fleet_key *keys;
	bool *pk;
	int evcol, f1;
	const struct evtype *ev;
	size_t nev;
};

/* rows_spec_make(db, table, s): s for the local table table (the name is
 * kept, not copied); s->ncols is 0 for a table the database lacks.
 * rows_spec_free(s) frees what it made. */
void rows_spec_make(sqlite3 *db, const char *table, struct rows_spec *s);
void rows_spec_free(struct rows_spec *s);

/* A server result as the decoder reads it: nrows rows of ncols columns;
 * column(src, col, oid, format) gives a column's type oid and format (1:
 * binary); value(src, row, col, len) a value's bytes and their number, or
 * NULL for SQL NULL. */
struct rows_in {
	const void *src;
	int nrows, ncols;
	void (*column)(const void *src, int col, unsigned *oid, int *format);
	const char *(*value)(const void *src, int row, int col, int *len);
};

/* rows_store(s, in, x, b, err, errlen): each row of in, checked, added to
 * b (which inserts as it fills), its ids moved by x (xfer_remap_in: an id
 * outside the unit's is refused, a session id a bench's map lacks becomes
 * NULL). The number of rows, or -1 with one line in err at the first thing
 * that is not what the local table holds; rows before it may be in b and
 * in the database: the caller drops the unit. */
long rows_store(const struct rows_spec *s, const struct rows_in *in, const struct xfer *x,
		struct batch *b, char *err, size_t errlen);
#endif
