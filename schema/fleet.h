/* What perfdb push and pull move between an SQLite database and a
 * PostgreSQL server: the tables a session owns and the tables of a bench,
 * how each selects one session's (one bench's) rows, which columns hold
 * surrogate ids that get new values on the other side, the stable
 * identity of a session, and the form text takes on the server. Both
 * engines run the same filters. */
#ifndef PERFDB_FLEET_H
#define PERFDB_FLEET_H
#include <stdbool.h>
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
 * reference), then its label. The source path and import time are not in
 * it: the same recording imported twice under one label is one session,
 * under two labels two. FLEET_IDENTITY_HOST and FLEET_IDENTITY_LABEL are
 * the places of the hostname and the label in it. */
extern const char fleet_identity_cols[];
#define FLEET_IDENTITY_NCOLS 12
#define FLEET_IDENTITY_HOST 0
#define FLEET_IDENTITY_LABEL 11

/* fleet_identity(b, vals): the identity text of a session from the
 * values of fleet_identity_cols (NULL for SQL NULL, integers in decimal,
 * text as stored locally, not in its server form), appended to b. The
 * server keeps md5 of its server form (perfdb_pushed.uid). */
void fleet_identity(struct strbuf *b, const char *const *vals);

/* fleet_identity_v1(b, vals): the identity text perfdb wrote before the
 * label was part of it (the same values but the label), appended to b:
 * what perfdb_pushed.uid holds md5 of for a session an earlier perfdb
 * pushed. */
void fleet_identity_v1(struct strbuf *b, const char *const *vals);

/* Text on the server. PostgreSQL's text holds valid UTF-8 without NUL;
 * SQLite's holds any bytes (a comm, a path, an argv). A text value goes
 * to the server as its valid UTF-8 unchanged, but for each byte that is
 * not part of a valid UTF-8 sequence, and NUL, written as U+FFFD followed
 * by the byte in two lowercase hex digits, and U+FFFD itself written
 * twice: "w\xffx" is "w\uFFFDffx" there. fleet_text_to_server(b, s, n)
 * appends the server form of the n bytes at s to b; fleet_text_from_server
 * appends the local bytes of a server value (the inverse; a U+FFFD
 * followed by neither is kept as it is); fleet_text_plain(s, n) is true
 * when the server form of s is s itself. */
void fleet_text_to_server(struct strbuf *b, const char *s, size_t n);
void fleet_text_from_server(struct strbuf *b, const char *s, size_t n);
bool fleet_text_plain(const char *s, size_t n);
#endif
