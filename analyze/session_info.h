/* What every findings document says about the sessions it describes
 * (the envelope's "sessions" array), and which events a session has. */
#ifndef PERFDB_SESSION_INFO_H
#define PERFDB_SESSION_INFO_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include "lib/doc.h"

/* session_info_add(arr, db, ids, n, side): appends one object per session
 * to arr: id, label, side (when side is not NULL: "base" or "new"),
 * hostname, os_release, arch, cpu, cpus_online, perf_version, source,
 * workload, duration_s, samples, lost_events, lost_samples, interrupted,
 * lost_records (null for a session imported before schema version 7). */
void session_info_add(struct dval *arr, sqlite3 *db, const int64_t *ids, int n, const char *side);

/* session_has_events(db, id, events): whether session id has a sample of
 * at least one of events (NULL-terminated event names). */
bool session_has_events(sqlite3 *db, int64_t id, const char *const *events);

/* session_recorded(db, id, event): whether session id recorded event (it
 * has the event's row, with samples or none). */
bool session_recorded(sqlite3 *db, int64_t id, const char *event);

/* session_none_of(db, id, events, advice): NULL when session id has a
 * sample of at least one of events; else why not, malloc'ed, to follow
 * "session N ": when none of events was recorded, "has no E or F events
 * (ADVICE)"; when some were recorded but hold no sample, which ones and
 * whether that is what perf lost ("recorded E but holds none of its
 * samples: perf lost N events (LOST records) and S samples of them
 * (LOST_SAMPLES); record again with a larger buffer (-m PAGES)") or a
 * measured zero ("recorded E, which never fired there; perf lost
 * nothing"). */
char *session_none_of(sqlite3 *db, int64_t id, const char *const *events, const char *advice);

/* session_desc(db, ids, n): "session 3" or "sessions 1, 2, 5", and the
 * label when they share one ("sessions 1, 2 (base)"); malloc'ed. */
char *session_desc(sqlite3 *db, const int64_t *ids, int n);
#endif
