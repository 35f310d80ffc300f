/* Loads a session's identity and tracepoint events for the sched and ipis
 * analyzers (see tl_load.h): the events from one scan of the session's
 * samples (analyze/timeline/tl_scan.h), into a time-ordered array or streamed. */
#include "analyze/timeline/tl_load.h"
#include "analyze/timeline/tl_scan.h"
#include "lib/alloc.h"
#include "lib/search.h"
#include "schema/db.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* col_or(st, i, dflt): integer column i, or dflt when NULL. */
static int64_t col_or(sqlite3_stmt *st, int i, int64_t dflt)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? dflt : sqlite3_column_int64(st, i);
}

/* cmp_event: qsort order of events: time, then sample id (records perf
 * delivered behind its ordering window keep a later id), then target. */
static int cmp_event(const void *x, const void *y)
{
	const struct tl_event *a = x, *b = y;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return (a->arg > b->arg) - (a->arg < b->arg);
}

/* load_session_row(db, s, lo, hi): the session's own row; its sample id
 * range in *lo, *hi (hi < lo when it has none). 0, or -1 when missing. */
static int load_session_row(sqlite3 *db, struct tl_session *s, int64_t *lo, int64_t *hi)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT label, first_time, last_time, "
		"first_sample_id, last_sample_id, coalesce(nr_cpus_online, 0), "
		"coalesce(nr_lost, 0), coalesce(nr_lost_samples, 0) FROM session WHERE id = ?");
	int rc = -1;
	if (st) {
		sqlite3_bind_int64(st, 1, s->id);
		if (sqlite3_step(st) == SQLITE_ROW) {
			s->label = xstrdup((const char *)sqlite3_column_text(st, 0));
			s->first_time = col_or(st, 1, 0);
			s->last_time = col_or(st, 2, s->first_time);
			*lo = col_or(st, 3, 1);
			*hi = col_or(st, 4, 0);
			int64_t ncpus = col_or(st, 5, 0);	/* the file's word: bounded */
			s->ncpus = ncpus > 0 && ncpus <= 65536 ? (int)ncpus : 0;
			s->lost_events = col_or(st, 6, 0);
			s->lost_samples = col_or(st, 7, 0);
			s->lost = s->lost_events + s->lost_samples;
			rc = 0;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

/* load_lost(db, s): the session's lost rows as spans (see lost_span). */
static void load_lost(sqlite3 *db, struct tl_session *s)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT cpu, since, time, kind = 'lost_samples' FROM lost "
				      "WHERE session_id = ? ORDER BY time IS NULL, time");
	size_t cap = 0;
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, s->id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		bool whole = sqlite3_column_int(st, 3) || sqlite3_column_type(st, 2) == SQLITE_NULL;
		ALLOC_GROW(s->lost_v, s->nlost_v + 1, cap);
		s->lost_v[s->nlost_v++] = (struct lost_span){
			.cpu = (int)col_or(st, 0, -1),
			.since = whole ? INT64_MIN : col_or(st, 1, INT64_MIN),
			.time = whole ? INT64_MAX : sqlite3_column_int64(st, 2) };
		s->lost_rows = true;
	}
	sqlite3_finalize(st);
}

/* has_table(db, session, table): whether the session has an event whose
 * samples are in the typed view (or table) table. A query over a view
 * scans every sample of the session, so views without one are skipped. */
static bool has_table(sqlite3 *db, int64_t session, const char *table)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT 1 FROM event WHERE session_id = ? AND tp_table = ?");
	bool yes = false;
	if (st) {
		sqlite3_bind_int64(st, 1, session);
		sqlite3_bind_text(st, 2, table, -1, SQLITE_STATIC);
		yes = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	return yes;
}

/* load_event_names(db, s): which tracepoints the session recorded. */
static void load_event_names(sqlite3 *db, struct tl_session *s)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT name FROM event WHERE session_id = ?");
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, s->id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *n = (const char *)sqlite3_column_text(st, 0);
		if (!n)
			continue;
		s->has_switch |= !strcmp(n, "sched:sched_switch");
		s->has_waking |= !strcmp(n, "sched:sched_waking");
		s->has_tlb_flush |= !strcmp(n, "tlb:tlb_flush");
		s->has_csd |= !strcmp(n, "csd:csd_queue_cpu");
		s->has_ipi_send |= !strcmp(n, "ipi:ipi_send_cpu") || !strcmp(n, "ipi:ipi_send_cpumask");
	}
	sqlite3_finalize(st);
}

/* count_unnamed(db, s, lo, hi): csd queues whose function has no symbol
 * (flush IPIs cannot be told apart without one). */
static void count_unnamed(sqlite3 *db, struct tl_session *s, int64_t lo, int64_t hi)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT count(*) FROM csd_queue_cpu "
		"WHERE sample_id BETWEEN ? AND ? AND func_sym IS NULL");
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, lo);
	sqlite3_bind_int64(st, 2, hi);
	if (sqlite3_step(st) == SQLITE_ROW)
		s->csd_unnamed = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
}

/* load_threads(db, s): the session's thread rows. 0 or -1. */
static int load_threads(sqlite3 *db, struct tl_session *s)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT tid, pid, start_time FROM thread "
		"WHERE session_id = ? AND tid BETWEEN 0 AND 2147483647");
	size_t cap = 0;
	int rc = st ? 0 : -1;
	if (st)
		sqlite3_bind_int64(st, 1, s->id);
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		ALLOC_GROW(s->ident.threads, s->ident.nthreads + 1, cap);
		s->ident.threads[s->ident.nthreads++] = (struct ident_thread){
			col_or(st, 0, -1), col_or(st, 1, -1), col_or(st, 2, TIME_NONE) };
	}
	sqlite3_finalize(st);
	return rc;
}

/* load_procs(db, s): the session's process rows. 0 or -1. */
static int load_procs(sqlite3 *db, struct tl_session *s)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, pid, start_time, end_time, user_mm, "
		"comm FROM process WHERE session_id = ?");
	size_t cap = 0;
	int rc = st ? 0 : -1;
	if (st)
		sqlite3_bind_int64(st, 1, s->id);
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		const char *comm = (const char *)sqlite3_column_text(st, 5);
		ALLOC_GROW(s->ident.procs, s->ident.nprocs + 1, cap);
		s->ident.procs[s->ident.nprocs++] = (struct ident_proc){ col_or(st, 0, 0),
			col_or(st, 1, -1), col_or(st, 2, TIME_NONE), col_or(st, 3, INT64_MAX),
			(int)col_or(st, 4, 0), xstrdup(comm) };
	}
	sqlite3_finalize(st);
	return rc;
}

/* cmp_by_id: qsort_r order of indices into the process rows procs by
 * row id. */
static int cmp_by_id(const void *x, const void *y, void *procs)
{
	const struct ident_proc *p = procs;
	int64_t a = p[*(const size_t *)x].id, b = p[*(const size_t *)y].id;
	return (a > b) - (a < b);
}

/* index_by_id(s): fills s->by_id. */
static void index_by_id(struct tl_session *s)
{
	s->by_id = xreallocarray(NULL, s->ident.nprocs, sizeof(*s->by_id));
	for (size_t i = 0; i < s->ident.nprocs; i++)
		s->by_id[i] = i;
	if (s->ident.nprocs)
		qsort_r(s->by_id, s->ident.nprocs, sizeof(*s->by_id), cmp_by_id, s->ident.procs);
}

/* tl_open: see tl_load.h. */
int tl_open(sqlite3 *db, int64_t session, unsigned what, struct tl_session *s,
	    char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->id = session;
	if (load_session_row(db, s, &s->lo, &s->hi)) {
		snprintf(err, errlen, "session %lld: cannot be read", (long long)session);
		tl_session_free(s);
		return -1;
	}
	load_event_names(db, s);
	load_lost(db, s);
	if (load_threads(db, s) || load_procs(db, s)) {
		snprintf(err, errlen, "session %lld: %s", (long long)session, sqlite3_errmsg(db));
		tl_session_free(s);
		return -1;
	}
	if ((what & LOAD_TLB) && s->hi >= s->lo && has_table(db, s->id, "csd_queue_cpu"))
		count_unnamed(db, s, s->lo, s->hi);
	ident_sort(&s->ident);
	index_by_id(s);
	return 0;
}

/* load_events(db, s, what): appends every event of s to s->ev, in time
 * order. 0 or -1. */
static int load_events(sqlite3 *db, struct tl_session *s, unsigned what)
{
	struct tl_scan sc;
	struct tl_event e;
	int rc;
	if (s->hi < s->lo)
		return 0;
	if (tl_scan_open(db, s, what, s->lo, s->hi, &sc))
		return -1;
	while ((rc = tl_scan_next(&sc, &e)) > 0) {
		ALLOC_GROW(s->ev, s->nev + 1, s->cap);
		s->ev[s->nev++] = e;
	}
	tl_scan_close(&sc);
	if (s->nev)
		qsort(s->ev, s->nev, sizeof(*s->ev), cmp_event);
	return rc;
}

/* tl_load: see tl_load.h. */
int tl_load(sqlite3 *db, int64_t session, unsigned what, struct tl_session *s,
	    char *err, size_t errlen)
{
	if (tl_open(db, session, what, s, err, errlen))
		return -1;
	if (load_events(db, s, what)) {
		snprintf(err, errlen, "session %lld: %s", (long long)session, sqlite3_errmsg(db));
		tl_session_free(s);
		return -1;
	}
	return 0;
}

/* scan_feed(db, s, what, f): feeds s's events to f straight from the scan
 * while they come in cmp_event's order; sets s->unordered and stops at the
 * first that does not. 0 or -1. */
static int scan_feed(sqlite3 *db, struct tl_session *s, unsigned what, const struct tl_feed *f)
{
	struct tl_scan sc;
	struct tl_event e, last = { .time = INT64_MIN, .seq = INT64_MIN, .arg = INT32_MIN };
	int rc;
	if (tl_scan_open(db, s, what, s->lo, s->hi, &sc))
		return -1;
	while ((rc = tl_scan_next(&sc, &e)) > 0) {
		if (cmp_event(&last, &e) > 0) {
			s->unordered = true;
			rc = 0;
			break;
		}
		f->event(f->ctx, &e);
		last = e;
	}
	tl_scan_close(&sc);
	return rc;
}

/* tl_stream: see tl_load.h. */
int tl_stream(sqlite3 *db, struct tl_session *s, unsigned what, const struct tl_feed *f,
	      char *err, size_t errlen)
{
	int rc = 0;
	s->unordered = false;
	if (s->hi >= s->lo)
		rc = scan_feed(db, s, what, f);
	if (!rc && s->unordered) {
		f->restart(f->ctx);
		rc = load_events(db, s, what);
		for (size_t i = 0; !rc && i < s->nev; i++)
			f->event(f->ctx, &s->ev[i]);
		free(s->ev);
		s->ev = NULL;
		s->nev = s->cap = 0;
	}
	if (rc)
		snprintf(err, errlen, "session %lld: %s", (long long)s->id, sqlite3_errmsg(db));
	return rc;
}

/* tl_session_free: see tl_load.h. */
void tl_session_free(struct tl_session *s)
{
	for (size_t i = 0; i < s->ident.nprocs; i++)
		free((char *)s->ident.procs[i].comm);
	for (size_t i = 0; i < s->nsites; i++)
		free(s->sites[i]);
	free(s->ident.procs);
	free(s->ident.threads);
	free(s->by_id);
	free(s->sites);
	free(s->ev);
	free(s->label);
	free(s->lost_v);
	memset(s, 0, sizeof(*s));
}

/* tl_duration_s: see tl_load.h. */
double tl_duration_s(const struct tl_session *s)
{
	return s->last_time > s->first_time ? (double)(s->last_time - s->first_time) / 1e9 : 0;
}

/* A row id looked up through by_id: the process rows it indexes. */
struct id_key {
	const struct ident_proc *procs;
	int64_t id;
};

/* id_before(ix, k): whether the process row at index *ix has a row id
 * below k's. */
static bool id_before(const void *ix, const void *k)
{
	const struct id_key *key = k;
	return key->procs[*(const size_t *)ix].id < key->id;
}

/* tl_proc_by_id: see tl_load.h. Row ids are unique. */
const struct ident_proc *tl_proc_by_id(const struct tl_session *s, int64_t id)
{
	struct id_key k = { s->ident.procs, id };
	size_t n = s->by_id ? s->ident.nprocs : 0;
	size_t i = lower_bound(s->by_id, n, sizeof(*s->by_id), &k, id_before);
	return i < n && s->ident.procs[s->by_id[i]].id == id ? &s->ident.procs[s->by_id[i]] : NULL;
}

/* tl_parse_time: see tl_load.h. */
int tl_parse_time(const char *s, int64_t *ns)
{
	int64_t sec = 0, frac = 0;
	int digits = 0, fd = 0;
	if (!s || !*s)
		return -1;
	for (; isdigit((unsigned char)*s); s++, digits++) {
		if (sec > (INT64_MAX / 1000000000 - 9) / 10)
			return -1;
		sec = sec * 10 + (*s - '0');
	}
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++, fd++)
			if (fd < 9)
				frac = frac * 10 + (*s - '0');
	if (*s || (!digits && !fd))
		return -1;
	for (int i = fd < 9 ? fd : 9; i < 9; i++)
		frac *= 10;
	*ns = sec * 1000000000 + frac;
	return 0;
}
