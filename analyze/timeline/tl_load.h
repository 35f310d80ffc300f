/* Loading one session's identity rows and tracepoint events from a perfdb
 * database for analyze/timeline/mm_timeline.h, sched.h, sched_latency.h and ipis.h:
 * the events into an array, or streamed to a consumer one at a time (state
 * per CPU, thread and mm, not per event). The only part of those analyzers
 * that reads SQL (read-only, bound parameters; the events come from one
 * scan of the session's samples, analyze/timeline/tl_scan.h). */
#ifndef PERFDB_TL_LOAD_H
#define PERFDB_TL_LOAD_H
#include <sqlite3.h>
#include "analyze/timeline/mm_timeline.h"

/* What to load: LOAD_SCHED: switches, migrations, exec, exit, fork, and
 * sched_waking/wakeup/wakeup_new as TL_SAMPLE (who runs on a CPU);
 * LOAD_TLB: tlb_flush, csd queue/entry/exit of flush_tlb_func,
 * ipi_send_cpu/cpumask, and every other sample as TL_SAMPLE (who runs on
 * a CPU). Both: sched_switch, sched_process_exec/exit/fork. */
enum { LOAD_SCHED = 1, LOAD_TLB = 2 };

struct tl_session {
	int64_t id;
	char *label;                /* NULL when none */
	int64_t first_time, last_time; /* ns, perf clock */
	long long lost;             /* lost events and samples */
	long long lost_events, lost_samples; /* LOST, LOST_SAMPLES records */
	struct lost_span *lost_v;   /* the lost table's rows, by time */
	size_t nlost_v;
	bool lost_rows;             /* the session has lost rows */
	int ncpus;                  /* enough for every CPU seen */
	struct ident ident;         /* sorted; owns its arrays and comms */
	size_t *by_id;              /* ident.procs indices in row id order */
	int64_t lo, hi;             /* its sample ids (hi < lo: none) */
	bool unordered;             /* tl_stream found ids out of time order */
	struct tl_event *ev;        /* time order (tl_load only) */
	size_t nev, cap;
	char **sites;               /* callsite names, by tl_event.site */
	size_t nsites;
	bool has_switch, has_tlb_flush, has_csd, has_ipi_send; /* events recorded */
	bool has_waking;            /* sched:sched_waking recorded */
	long long csd_unnamed;      /* csd queues whose function has no symbol */
};

/* tl_load(db, session, what, s, err, errlen): loads session into s (filled
 * from empty). Returns 0, or -1 with a message in err (s is then freed). */
int tl_load(sqlite3 *db, int64_t session, unsigned what, struct tl_session *s,
	    char *err, size_t errlen);

/* tl_open(db, session, what, s, err, errlen): loads everything of session
 * into s (filled from empty) but its events (s->ev stays empty: tl_stream
 * reads them). Returns 0, or -1 with a message in err (s is then freed). */
int tl_open(sqlite3 *db, int64_t session, unsigned what, struct tl_session *s,
	    char *err, size_t errlen);

/* A consumer of streamed events: event(ctx, e) takes each event in time
 * order (tl_load's order); restart(ctx) drops everything taken so far (the
 * events come again from the first). */
struct tl_feed {
	void (*event)(void *ctx, const struct tl_event *e);
	void (*restart)(void *ctx);
	void *ctx;
};

/* tl_stream(db, s, what, f, err, errlen): feeds the events of s (opened by
 * tl_open with the same what) to f in time order, straight from the scan
 * of its samples in id order: memory does not grow with the number of
 * events. Ids follow time unless perf delivered records behind its
 * ordering window (the import keeps their late ids): at the first event
 * out of order, s->unordered is set, f restarted, and every event loaded
 * and sorted (tl_load's way, memory per event) and fed again. s->ncpus
 * grows to cover every CPU fed. Returns 0, or -1 with a message in err. */
int tl_stream(sqlite3 *db, struct tl_session *s, unsigned what, const struct tl_feed *f,
	      char *err, size_t errlen);

/* tl_session_free(s): frees everything s owns. */
void tl_session_free(struct tl_session *s);

/* tl_duration_s(s): the session's length in seconds (0 when unknown). */
double tl_duration_s(const struct tl_session *s);

/* tl_proc_by_id(s, id): the process row with row id id, or NULL. */
const struct ident_proc *tl_proc_by_id(const struct tl_session *s, int64_t id);

/* tl_parse_time(s, ns): parses a time in seconds with up to 9 decimals
 * ("1217.362260143") into *ns exactly; 0 or -1 when malformed. */
int tl_parse_time(const char *s, int64_t *ns);
#endif
