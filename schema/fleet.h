/* What perfdb push and pull move between an SQLite database and a
 * PostgreSQL server: the tables a session owns and the tables of a bench,
 * how each selects one session's (one bench's) rows, which columns hold
 * surrogate ids that get new values on the other side, and the stable
 * identity of a session. Both engines run the same filters. */
#ifndef PERFDB_FLEET_H
#define PERFDB_FLEET_H
#include <stddef.h>
#include <stdint.h>
#include "lib/strbuf.h"

/* The tables whose surrogate ids are remapped (each has id INTEGER
 * PRIMARY KEY and, on the server, a sequence TABLE_id_seq). */
enum fleet_key {
	FK_NONE = -1, FK_SESSION, FK_EVENT, FK_PROCESS, FK_THREAD, FK_DSO, FK_SYMBOL, FK_STACK,
	FK_SAMPLE, FK_BENCH, FK_BENCH_RUN, FK_N
};
extern const char *const fleet_key_table[FK_N];

/* One table of a transfer unit: its name, the WHERE clause selecting one
 * unit's rows ($1 = the session's or bench's id, valid SQL in SQLite and
 * PostgreSQL), and the key of its own id column (FK_NONE: none). */
struct fleet_table {
	const char *name, *filter;
	enum fleet_key own;
};

/* The tables a session owns, in an order that lists a key table before
 * any table referring to it; kallsyms is among them (push skips it unless
 * asked). fleet_bench_tables: a bench's. */
extern const struct fleet_table fleet_session_tables[];
extern const size_t fleet_nsession_tables;
extern const struct fleet_table fleet_bench_tables[];
extern const size_t fleet_nbench_tables;

/* fleet_column_key(table, col): the key table whose ids column col of
 * table holds (id and parent_id: the table's own), or FK_NONE for a
 * column that is not a surrogate id (core_id, boot_id, pid, ...). */
enum fleet_key fleet_column_key(const char *table, const char *col);

/* The session columns its identity is made of, as a select list: what
 * the import read from the recording's content and the host that made it
 * (host, kernel, CPU, perf version and command line, first and last
 * record time, record and sample counts, the wall clock of the clock
 * reference). The label, source path and import time are not in it: the
 * same recording imported twice is the same session. */
extern const char fleet_identity_cols[];
#define FLEET_IDENTITY_NCOLS 11

/* fleet_identity(b, vals): the identity text of a session from the
 * values of fleet_identity_cols (NULL for SQL NULL, integers in decimal,
 * as both engines print them), appended to b. The server keeps md5 of it
 * (perfdb_pushed.uid). */
void fleet_identity(struct strbuf *b, const char *const *vals);
#endif
