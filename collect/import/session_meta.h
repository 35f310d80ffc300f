/* Session metadata from the perf.data header: host, kernel, perf version,
 * CPU topology, clock, counts of lost and unordered records. */
#ifndef PERFDB_SESSION_META_H
#define PERFDB_SESSION_META_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "collect/perfdata/perf_data.h"

/* session_write_meta: fills session row session's header columns and the
 * cpu, numa_node and data_quality rows from r; first/last are the first
 * and last sample times (0 if none). 0 or -1 (message in err). */
int session_write_meta(sqlite3 *db, int64_t session, const struct pd_reader *r,
		       uint64_t first, uint64_t last, char *err, size_t errlen);

/* One LOST or LOST_SAMPLES record as the lost table keeps it: time < 0,
 * cpu < 0, event 0: not known. */
struct lost_rec {
	bool samples;		/* LOST_SAMPLES (else LOST) */
	int cpu;
	int64_t time, event;	/* event: the event row id */
	int64_t since;		/* LOST: the previous record's time on cpu, or -1 */
	uint64_t n, file_offset;
};

/* session_write_lost(db, session, v, n, err, errlen): the lost table's
 * rows of session, one per v[i]. 0 or -1 (message in err). */
int session_write_lost(sqlite3 *db, int64_t session, const struct lost_rec *v, size_t n,
		       char *err, size_t errlen);

/* session_note_quality: one data_quality row (what, n) of session, when n
 * is not 0. 0 or -1 (message in err). */
int session_note_quality(sqlite3 *db, int64_t session, const char *what, uint64_t n,
			 char *err, size_t errlen);
#endif
