/* The wakeup-latency tables of `perfdb sched --latency` (the measure is
 * analyze/sched_latency.h's): per task and per process of loaded sessions. */
#ifndef PERFDB_SCHED_LAT_FINDINGS_H
#define PERFDB_SCHED_LAT_FINDINGS_H
#include <stdint.h>
#include "analyze/tl_load.h"
#include "lib/doc.h"

/* sched_latency_tables(f, s, n, t0, t1, rows): adds under f the tables
 * "latency" (per task: [session,] tid, pid, comm, waits, mean_ms, max_ms,
 * max_start_s, max_end_s) and "latency_processes" (per process: [session,]
 * pid, comm, threads, waits, mean_ms, max_ms, max_start_s, max_tid) of
 * sessions s[0..n) over [t0, t1], largest max first, at most rows rows
 * each (0: all); the session column when n > 1. */
void sched_latency_tables(struct dval *f, const struct tl_session *s, int n, int64_t t0, int64_t t1,
			  long long rows);
#endif
