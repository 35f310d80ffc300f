/* What an analysis lost, said once for every analyzer: how many events and
 * samples perf lost in the analyzed window of some sessions, on which
 * CPUs, and which of the analyzer's figures that makes doubtful. Each
 * analyzer calls lost_note with its sessions, window and its own sentence
 * about its figures; the warning is shown before the tables (text, md) and
 * is among the json envelope's "warnings", the numbers are the findings
 * object "lost". Read-only, bound parameters. */
#ifndef PERFDB_LOST_NOTE_H
#define PERFDB_LOST_NOTE_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include "lib/doc.h"

/* lost_note(db, ids, n, t0, t1, doubtful, d): when sessions ids[0..n)
 * lost data in the window [t0, t1] (perf clock ns; INT64_MIN, INT64_MAX:
 * everything), adds to d:
 *  - a warning: "the window lost N events (perf's LOST records: R on CPU
 *    c ...) and S samples (LOST_SAMPLES: E ev, ...): DOUBTFUL", doubtful
 *    being the caller's words on its figures ("switch counts are lower
 *    bounds");
 *  - the findings object "lost": records, events, samples (integers),
 *    "cpus" [{cpu, records, events, samples}] and "events" [{event,
 *    samples}] (only in sessions imported with per-record detail), whole
 *    (whether the counts are the whole recording's: sessions imported by a
 *    perfdb before the lost table, or samples, which perf counts once at
 *    the end of the recording), doubtful.
 * A LOST record covers what its CPU dropped after the previous record
 * perf kept from that CPU (or the recording's start) up to its own time
 * (the kernel writes it once the buffer has room again): it counts when
 * that span overlaps the window. LOST_SAMPLES records carry no time and
 * count whole. When the window lost nothing but
 * its sessions did elsewhere, a note says so. Returns whether the window
 * lost anything. */
bool lost_note(sqlite3 *db, const int64_t *ids, int n, int64_t t0, int64_t t1,
	       const char *doubtful, struct doc *d);
/* lost_cpus(db, ids, n, t0, t1, out, ncpus): adds to out[c], for each CPU
 * c below ncpus, the events perf's LOST records of c dropped in the window
 * [t0, t1] of sessions ids[0..n), counted as lost_note counts them (only
 * sessions imported with the lost table say where); returns whether any
 * CPU below ncpus lost any. */
bool lost_cpus(sqlite3 *db, const int64_t *ids, int n, int64_t t0, int64_t t1, long long *out,
	       int ncpus);

/* lost_note_sides(db, a, na, b, nb, t0, t1, doubtful, d): lost_note over
 * the sessions of both sides of a comparison (a[0..na) and b[0..nb)). */
bool lost_note_sides(sqlite3 *db, const int64_t *a, int na, const int64_t *b, int nb,
		     int64_t t0, int64_t t1, const char *doubtful, struct doc *d);
#endif
