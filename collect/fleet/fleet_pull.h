/* perfdb pull: brings sessions and benches from a PostgreSQL server (as
 * perfdb push left them) into a local SQLite database, each in one local
 * transaction with new local ids; a session the database already has
 * (same identity, schema/fleet.h) or a bench it has for the same label
 * and boot is left alone and said so. */
#ifndef PERFDB_FLEET_PULL_H
#define PERFDB_FLEET_PULL_H
#include <libpq-fe.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>

/* Which server sessions and benches to pull: -s (a server session id or
 * a label), -l (a label: its sessions and benches), --host (a hostname:
 * its sessions and benches). Nothing given means everything. */
struct pull_sel {
	const char *const *specs, *const *labels, *const *hosts;
	size_t nspecs, nlabels, nhosts;
};

/* fleet_pull(c, db, sel, out, err, errlen): pulls what sel names (and
 * the sessions of the recorded runs of the benches it names), one line
 * per unit on out (what it names escaped, fleet_xfer.h's xfer_say). Text
 * comes back from its server form (schema/fleet.h); what the server sends
 * is checked before it is stored (fleet_rows.h). 0, or -1 with one line in
 * err at the first failure or the first thing the server sent that is not
 * what perfdb stores (units pulled before it stay; that one left
 * nothing). */
int fleet_pull(PGconn *c, sqlite3 *db, const struct pull_sel *sel, FILE *out, char *err,
	       size_t errlen);
#endif
