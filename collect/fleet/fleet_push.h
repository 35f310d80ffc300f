/* perfdb push: copies sessions and benches of a local database to a
 * PostgreSQL server (schema/pg_conn.h), each in one server transaction,
 * its rows sent with COPY, its ids remapped into blocks reserved from the
 * server's sequences, the sample-sized tables into partitions of their
 * own; text in its server form (schema/fleet.h: bytes that are not UTF-8
 * escaped). A session already on the server (same identity, schema/fleet.h,
 * or the identity an earlier perfdb gave it, with the same label) or a
 * bench already there (same label and boot) is left alone and said so. */
#ifndef PERFDB_FLEET_PUSH_H
#define PERFDB_FLEET_PUSH_H
#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct push_opts {
	bool with_kallsyms;	/* the kallsyms text too (it shows each boot's KASLR base) */
};

/* fleet_push(db, c, sids, ns, bids, nb, o, out, err, errlen): pushes the
 * local sessions sids, then the benches bids (with the sessions their
 * recorded runs refer to), one line per unit on out (what it names
 * escaped, fleet_xfer.h's xfer_say). 0, or -1 with one line in err, naming
 * the unit, at the first unit that failed (the units before it stay on the
 * server; that one left nothing). */
int fleet_push(sqlite3 *db, PGconn *c, const int64_t *sids, int ns, const int64_t *bids, int nb,
	       const struct push_opts *o, FILE *out, char *err, size_t errlen);
#endif
