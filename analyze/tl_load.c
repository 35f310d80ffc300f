/* Loads a session's identity and tracepoint events for the sched and ipis
 * analyzers (see tl_load.h): one query per typed tracepoint table over the
 * session's sample id range, merged into one time-ordered array. */
#include "analyze/tl_load.h"
#include "lib/alloc.h"
#include "schema/db.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A tracepoint query over one typed view (or table): every one returns the
 * same columns: sample id, time, cpu, the sample's tid, then a, b, arg,
 * site, flush (see tl_event). */
struct evq {
	unsigned what;
	uint8_t kind;
	const char *table;
	const char *sql;
};

#define EVQ_FROM(table, alias) " FROM " table " " alias " JOIN sample s ON s.id = " alias \
	".sample_id LEFT JOIN thread t ON t.id = s.thread_id WHERE " alias ".sample_id BETWEEN ?1 AND ?2"
#define FLUSH_FUNC "GLOB 'flush_tlb_func*'"

static const struct evq queries[] = {
	{ LOAD_SCHED | LOAD_TLB, TL_SWITCH, "sched_switch", "SELECT s.id, s.time, s.cpu, t.tid, "
	  "w.next_pid, w.prev_pid, w.prev_state, NULL, 0" EVQ_FROM("sched_switch", "w") },
	{ LOAD_SCHED | LOAD_TLB, TL_EXEC, "sched_process_exec", "SELECT s.id, s.time, s.cpu, t.tid, "
	  "e.pid, e.old_pid, NULL, NULL, 0" EVQ_FROM("sched_process_exec", "e") },
	{ LOAD_SCHED | LOAD_TLB, TL_EXIT, "sched_process_exit", "SELECT s.id, s.time, s.cpu, t.tid, "
	  "e.pid, NULL, NULL, NULL, 0" EVQ_FROM("sched_process_exit", "e") },
	{ LOAD_SCHED | LOAD_TLB, TL_FORK, "sched_process_fork", "SELECT s.id, s.time, s.cpu, t.tid, "
	  "e.child_pid, e.parent_pid, NULL, NULL, 0" EVQ_FROM("sched_process_fork", "e") },
	{ LOAD_SCHED, TL_MIGRATE, "sched_migrate_task", "SELECT s.id, s.time, s.cpu, t.tid, "
	  "e.pid, e.orig_cpu, e.dest_cpu, NULL, 0" EVQ_FROM("sched_migrate_task", "e") },
	/* wakeups say who runs on the waker's CPU (see tl_sample_task) and, in
	 * a, whom they wake, in b which event (the wakeup latencies of
	 * analyze/sched_latency.h) */
	{ LOAD_SCHED, TL_SAMPLE, "sched_waking", "SELECT s.id, s.time, s.cpu, t.tid, "
	  "e.pid, 1, NULL, NULL, 0" EVQ_FROM("sched_waking", "e") },
	{ LOAD_SCHED, TL_SAMPLE, "sched_wakeup", "SELECT s.id, s.time, s.cpu, t.tid, "
	  "e.pid, 2, NULL, NULL, 0" EVQ_FROM("sched_wakeup", "e") },
	{ LOAD_SCHED, TL_SAMPLE, "sched_wakeup_new", "SELECT s.id, s.time, s.cpu, t.tid, "
	  "e.pid, 3, NULL, NULL, 0" EVQ_FROM("sched_wakeup_new", "e") },
	{ LOAD_TLB, TL_FLUSH, "tlb_flush", "SELECT s.id, s.time, s.cpu, t.tid, "
	  "NULL, NULL, f.reason, NULL, 0" EVQ_FROM("tlb_flush", "f") },
	{ LOAD_TLB, TL_CSD_QUEUE, "csd_queue_cpu", "SELECT s.id, s.time, s.cpu, t.tid, "
	  "q.csd, NULL, q.cpu, q.callsite_sym, 1" EVQ_FROM("csd_queue_cpu", "q")
	  " AND q.func_sym " FLUSH_FUNC },
	{ LOAD_TLB, TL_CSD_ENTRY, "csd_function_entry", "SELECT s.id, s.time, s.cpu, t.tid, "
	  "e.csd, NULL, NULL, NULL, 1" EVQ_FROM("csd_function_entry", "e")
	  " AND e.csd != 0 AND e.func_sym " FLUSH_FUNC },
	{ LOAD_TLB, TL_CSD_EXIT, "csd_function_exit", "SELECT s.id, s.time, s.cpu, t.tid, "
	  "e.csd, NULL, NULL, NULL, 1" EVQ_FROM("csd_function_exit", "e")
	  " AND e.csd != 0 AND e.func_sym " FLUSH_FUNC },
	{ LOAD_TLB, TL_IPI_SEND, "ipi_send_cpu", "SELECT s.id, s.time, s.cpu, t.tid, "
	  "NULL, NULL, i.cpu, i.callsite_sym, (i.callback_sym " FLUSH_FUNC
	  " OR i.callsite_sym GLOB '*flush_tlb*')" EVQ_FROM("ipi_send_cpu", "i") },
	{ LOAD_TLB, TL_IPI_SEND, "ipi_send_cpumask", "SELECT s.id, s.time, s.cpu, t.tid, "
	  "NULL, NULL, i.target_cpu, i.callsite_sym, (i.callback_sym " FLUSH_FUNC
	  " OR i.callsite_sym GLOB '*flush_tlb*')" EVQ_FROM("ipi_send_cpumask", "i") },
};

/* LOAD_TLB: the samples of every other event only say who runs on their
 * CPU (TL_SAMPLE): the csd events besides flush_tlb_func's, irq_vectors,
 * wakeups, cpu-clock ... (the typed queries above load the rest). */
#define OTHER_TABLES "'sched_switch', 'sched_process_exec', 'sched_process_exit', " \
	"'sched_process_fork', 'tlb_flush', 'ipi_send_cpu', 'ipi_send_cpumask'"
static const struct evq other_samples = { LOAD_TLB, TL_SAMPLE, NULL,
	"SELECT s.id, s.time, s.cpu, t.tid, NULL, NULL, NULL, NULL, 0 FROM sample s "
	"LEFT JOIN thread t ON t.id = s.thread_id WHERE s.id BETWEEN ?1 AND ?2 "
	"AND s.event_id IN (SELECT id FROM event WHERE session_id = ?3 AND nr_samples > 0 "
	"AND coalesce(tp_table, '') NOT IN (" OTHER_TABLES "))" };

/* col_or(st, i, dflt): integer column i, or dflt when NULL. */
static int64_t col_or(sqlite3_stmt *st, int i, int64_t dflt)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? dflt : sqlite3_column_int64(st, i);
}

/* site_index(s, name): the index of callsite name in s->sites (added when
 * new), -1 for NULL. */
static int32_t site_index(struct tl_session *s, const char *name)
{
	if (!name)
		return -1;
	for (size_t i = s->nsites; i-- > 0;)
		if (!strcmp(s->sites[i], name))
			return (int32_t)i;
	s->sites = xreallocarray(s->sites, s->nsites + 1, sizeof(*s->sites));
	s->sites[s->nsites] = xstrdup(name);
	return (int32_t)s->nsites++;
}

/* push_event(s, e): appends e. */
static void push_event(struct tl_session *s, const struct tl_event *e)
{
	ALLOC_GROW(s->ev, s->nev + 1, s->cap);
	s->ev[s->nev++] = *e;
	if (e->cpu >= s->ncpus)
		s->ncpus = e->cpu + 1;
	if (e->kind == TL_CSD_QUEUE || e->kind == TL_IPI_SEND)
		if (e->arg >= s->ncpus && e->arg < 65536)
			s->ncpus = e->arg + 1;
}

/* run_query(db, q, lo, hi, s): appends the events of query q over the
 * sample ids [lo, hi]. 0 or -1. */
static int run_query(sqlite3 *db, const struct evq *q, int64_t lo, int64_t hi, struct tl_session *s)
{
	sqlite3_stmt *st = db_prepare(db, q->sql);
	int rc = st ? 0 : -1, step;
	if (st) {
		sqlite3_bind_int64(st, 1, lo);
		sqlite3_bind_int64(st, 2, hi);
		if (sqlite3_bind_parameter_count(st) >= 3)
			sqlite3_bind_int64(st, 3, s->id);
	}
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t tid = col_or(st, 3, -1), cpu = col_or(st, 2, -1);
		struct tl_event e = { .seq = sqlite3_column_int64(st, 0), .time = col_or(st, 1, 0),
			.tid = tid > 0x7fffffff ? -1 : tid, .a = col_or(st, 4, -1),
			.b = col_or(st, 5, -1), .cpu = cpu < 0 || cpu > 65535 ? -1 : (int32_t)cpu,
			.arg = (int32_t)col_or(st, 6, -1), .kind = q->kind,
			.flush = (uint8_t)(col_or(st, 8, 0) != 0) };
		e.site = site_index(s, (const char *)sqlite3_column_text(st, 7));
		if (e.cpu >= 0)
			push_event(s, &e);
	}
	if (!rc && step != SQLITE_DONE)
		rc = -1;
	sqlite3_finalize(st);
	return rc;
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

/* has_other_samples(db, session): whether the session has samples of an
 * event other_samples loads. */
static bool has_other_samples(sqlite3 *db, int64_t session)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT 1 FROM event WHERE session_id = ? AND "
		"nr_samples > 0 AND coalesce(tp_table, '') NOT IN (" OTHER_TABLES ")");
	bool yes = false;
	if (st) {
		sqlite3_bind_int64(st, 1, session);
		yes = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	return yes;
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
			s->ncpus = (int)col_or(st, 5, 0);
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

/* tl_load: see tl_load.h. */
int tl_load(sqlite3 *db, int64_t session, unsigned what, struct tl_session *s,
	    char *err, size_t errlen)
{
	int64_t lo, hi;
	memset(s, 0, sizeof(*s));
	s->id = session;
	if (load_session_row(db, s, &lo, &hi)) {
		snprintf(err, errlen, "session %lld: cannot be read", (long long)session);
		tl_session_free(s);
		return -1;
	}
	load_event_names(db, s);
	load_lost(db, s);
	int rc = load_threads(db, s) || load_procs(db, s);
	for (size_t i = 0; !rc && i < sizeof(queries) / sizeof(*queries); i++)
		if ((queries[i].what & what) && hi >= lo && has_table(db, s->id, queries[i].table))
			rc = run_query(db, &queries[i], lo, hi, s);
	if (!rc && (what & LOAD_TLB) && hi >= lo && has_other_samples(db, s->id))
		rc = run_query(db, &other_samples, lo, hi, s);
	if (rc) {
		snprintf(err, errlen, "session %lld: %s", (long long)session, sqlite3_errmsg(db));
		tl_session_free(s);
		return -1;
	}
	if ((what & LOAD_TLB) && has_table(db, s->id, "csd_queue_cpu"))
		count_unnamed(db, s, lo, hi);
	if (s->nev)
		qsort(s->ev, s->nev, sizeof(*s->ev), cmp_event);
	ident_sort(&s->ident);
	index_by_id(s);
	return 0;
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

/* tl_proc_by_id: see tl_load.h. */
const struct ident_proc *tl_proc_by_id(const struct tl_session *s, int64_t id)
{
	size_t lo = 0, hi = s->by_id ? s->ident.nprocs : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ident_proc *p = &s->ident.procs[s->by_id[mid]];
		if (p->id == id)
			return p;
		if (p->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
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
