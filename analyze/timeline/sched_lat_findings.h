/* The wakeup-latency tables of `perfdb sched --latency` (the measure is
 * analyze/timeline/sched_latency.h's): per task and per process of loaded sessions. */
#ifndef PERFDB_SCHED_LAT_FINDINGS_H
#define PERFDB_SCHED_LAT_FINDINGS_H
#include <stdint.h>
#include "analyze/timeline/sched_latency.h"
#include "analyze/timeline/tl_load.h"
#include "lib/doc.h"

/* One session's latencies (sched_latency's result for it). */
struct lat_session {
	const struct tl_session *s;
	struct lat_task *v;
	size_t n;
};

/* sched_latency_tables(f, ls, n, rows): adds under f the tables
 * "latency" (per task: [session,] tid, pid, comm, waits, mean_ms, max_ms,
 * max_start_s, max_end_s) and "latency_processes" (per process: [session,]
 * pid, comm, threads, waits, mean_ms, max_ms, max_start_s, max_tid) of
 * the latencies of sessions ls[0..n), largest max first, at most rows rows
 * each (0: all); the session column when n > 1. */
void sched_latency_tables(struct dval *f, const struct lat_session *ls, int n, long long rows);
#endif
