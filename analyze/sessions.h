/* The sessions of a database as findings: `perfdb sessions`. */
#ifndef PERFDB_ANALYZE_SESSIONS_H
#define PERFDB_ANALYZE_SESSIONS_H
#include <sqlite3.h>
#include <stdint.h>
#include "lib/doc.h"

/* sessions_findings(db, ids, n, d): adds to d's findings the table
 * "sessions" (one row per session: id, label, kernel, samples,
 * lost_events (the LOST records' counts), lost_samples (the LOST_SAMPLES
 * records' counts), seconds, events "name=count ..." of the events with
 * samples, most first, source, host, interrupted, lost_records (how many
 * LOST records: perf report --stats' "LOST events")), the table "events"
 * (session, event, samples: every event) and the table "lost" (session,
 * what: records or samples, event (samples), cpu, perf_records, lost),
 * ids in order; "sessions" is the main table. */
void sessions_findings(sqlite3 *db, const int64_t *ids, int n, struct doc *d);

/* sessions_all(db, ids): every session id, in order, into *ids
 * (malloc'ed); returns the count. */
int sessions_all(sqlite3 *db, int64_t **ids);
#endif
