/* What perfdb push and pull share: the id remapping of one transfer unit
 * (a session or a bench), the column lists, the identity of a local
 * session (schema/fleet.h says what moves), and their lines of output. */
#ifndef PERFDB_FLEET_XFER_H
#define PERFDB_FLEET_XFER_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "schema/fleet.h"

/* The remapping of one unit: each key table's ids move by off[k] (the
 * unit's ids lo[k]..hi[k] on the source side, when has[k]); session ids
 * go through the map from[i] -> to[i] instead when push has nmap > 0 and
 * when pull's unit has no session of its own (a bench's runs refer to
 * many sessions). */
struct xfer {
	int64_t off[FK_N], lo[FK_N], hi[FK_N];
	bool has[FK_N];
	const int64_t *from, *to;
	int nmap;
};

/* xfer_remap(x, k, v, out): v's id on the other side; false when v is a
 * session id the map lacks (the reference is dropped: NULL). */
bool xfer_remap(const struct xfer *x, enum fleet_key k, int64_t v, int64_t *out);

/* xfer_remap_in(x, k, v, out): pull's remapping of the server id v, of
 * key table k: 1 with *out its local id; 0 for a session id when the
 * unit has no session of its own (a bench: its runs' sessions go through
 * the map) and the map lacks it (the reference is dropped: NULL); -1 when
 * v is not one of the unit's ids of k on the server (lo[k]..hi[k], none
 * without has[k]): a server that sends it is not to be believed. */
int xfer_remap_in(const struct xfer *x, enum fleet_key k, int64_t v, int64_t *out);

/* xfer_set_range(x, k, lo, hi, next): the unit's server ids lo..hi of
 * key table k move to next.. (the local table's next free id); 0, or -1
 * when they are not positive ids in order or the moved ones would not fit
 * in an int64 (x unchanged). */
int xfer_set_range(struct xfer *x, enum fleet_key k, int64_t lo, int64_t hi, int64_t next);

/* xfer_columns(db, table, cols): the columns of table in the local
 * database, in order, as a malloc'd array of malloc'd names; their
 * number (0 for a table it lacks). xfer_columns_free frees them. */
int xfer_columns(sqlite3 *db, const char *table, char ***cols);
void xfer_columns_free(char **cols, int n);

/* xfer_has_key(db, table): whether table has a primary key in the local
 * database. The rows of one without (comm, mmap, run_metric, ...) keep
 * their order: push sends them in rowid order and pull reads them in the
 * order the server stored them (ctid: COPY's order). */
bool xfer_has_key(sqlite3 *db, const char *table);

/* xfer_local_identity(db, id, b, v1): the identity text (schema/fleet.h)
 * of local session id into b and, when v1 is not NULL, the identity an
 * earlier perfdb gave it (fleet_identity_v1) into v1; -1 when there is
 * no such session. */
int xfer_local_identity(sqlite3 *db, int64_t id, struct strbuf *b, struct strbuf *v1);

/* xfer_say(out, fmt, ...): one line on out, with what it names (labels,
 * hosts, the server's words) escaped as tables escape text: a control
 * character as \n or \xNN, a byte that is not UTF-8 as U+FFFD. */
__attribute__((format(printf, 2, 3))) void xfer_say(FILE *out, const char *fmt, ...);
#endif
