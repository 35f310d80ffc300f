/* Reading a session's tracepoint events (analyze/timeline/mm_timeline.h's
 * tl_event) from one scan of its sample rows in id order, one event at a
 * time: what tl_load.c's loading and streaming share. The state is per
 * event type and per thread, never per event. Read-only SQL with bound
 * parameters. */
#ifndef PERFDB_TL_SCAN_H
#define PERFDB_TL_SCAN_H
#include <sqlite3.h>
#include "analyze/timeline/tl_load.h"
#include "lib/hashmap.h"

struct tl_scan {
	sqlite3_stmt *st;    /* the session's samples, by id */
	sqlite3_stmt *mask;  /* ipi_send_cpumask rows by (sample_id, target), or NULL */
	sqlite3_stmt *tid_st; /* a thread row's tid, for rows the map lacks */
	bool mask_row;       /* mask holds a row not returned yet */
	struct hashmap kinds; /* event id -> decoder index + 1 */
	struct hashmap tids; /* thread row id -> tid + 1 (0: NULL) */
	struct tl_event pend[2]; /* events of the current row not returned yet */
	int npend;
	int64_t row;         /* the current row's id */
	bool row_cpumask;    /* the current row is an ipi_send_cpumask sample */
	struct tl_event base; /* the current row's common fields */
	struct tl_session *s; /* sites and ncpus go here */
};

/* tl_scan_open(db, s, what, lo, hi, sc): prepares the scan of s's
 * samples with ids [lo, hi] for what (LOAD_SCHED, LOAD_TLB: tl_load.h).
 * s must have its id set; its sites and ncpus grow as events are read.
 * 0, or -1 (the database's message says why; sc is then closed). */
int tl_scan_open(sqlite3 *db, struct tl_session *s, unsigned what, int64_t lo, int64_t hi,
		 struct tl_scan *sc);

/* tl_scan_next(sc, e): the next event into *e: those of one sample in the
 * order tl_load sorts them (by target CPU), samples in id order. 1, 0 at
 * the end, -1 on a database error. */
int tl_scan_next(struct tl_scan *sc, struct tl_event *e);

/* tl_scan_close(sc): frees what sc holds; sc may be zeroed. */
void tl_scan_close(struct tl_scan *sc);
#endif
