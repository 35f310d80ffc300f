/* One scan of a session's samples decoded into tl_events (see tl_scan.h).
 * Which sample becomes which event follows the typed views of
 * schema/tracepoints.sql: a sample's fields f1..f7 are its tracepoint's,
 * in the order its view names them. */
#include <string.h>
#include "analyze/timeline/tl_scan.h"
#include "lib/alloc.h"
#include "schema/db.h"

/* A decoder's extra rules. */
enum {
	D_CSD_QUEUE = 1, /* kept when func_sym (f5) is flush_tlb_func's */
	D_CSD_FUNC,      /* kept when csd (f3) != 0 and func_sym (f2) is flush_tlb_func's */
	D_IPI_SEND,      /* flush when callback_sym (f5) or callsite_sym (f3) names a flush */
	D_CPUMASK,       /* one event per ipi_send_cpumask row of the sample */
};

/* How the samples of one typed view become events: the kind, which field
 * (1..7, 0: none) gives a, b, arg and the callsite name, b's value when no
 * field gives it, the extra rule, and whether (LOAD_TLB) the sample also
 * counts as a plain TL_SAMPLE first (events whose view tl_load's "other
 * samples" did not leave out). */
struct dec {
	unsigned what;
	const char *table;
	uint8_t kind;
	int8_t a, b, arg, site, bconst;
	uint8_t rule, also_sample;
};

static const struct dec decs[] = {
	{ LOAD_SCHED | LOAD_TLB, "sched_switch", TL_SWITCH, 6, 2, 4, 0, 0, 0, 0 },
	{ LOAD_SCHED | LOAD_TLB, "sched_process_exec", TL_EXEC, 2, 3, 0, 0, 0, 0, 0 },
	{ LOAD_SCHED | LOAD_TLB, "sched_process_exit", TL_EXIT, 2, 0, 0, 0, 0, 0, 0 },
	{ LOAD_SCHED | LOAD_TLB, "sched_process_fork", TL_FORK, 4, 2, 0, 0, 0, 0, 0 },
	{ LOAD_SCHED, "sched_migrate_task", TL_MIGRATE, 2, 4, 5, 0, 0, 0, 0 },
	{ LOAD_SCHED, "sched_waking", TL_SAMPLE, 2, 0, 0, 0, TL_WAKING, 0, 0 },
	{ LOAD_SCHED, "sched_wakeup", TL_SAMPLE, 2, 0, 0, 0, TL_WAKEUP, 0, 0 },
	{ LOAD_SCHED, "sched_wakeup_new", TL_SAMPLE, 2, 0, 0, 0, TL_WAKEUP_NEW, 0, 0 },
	{ LOAD_TLB, "tlb_flush", TL_FLUSH, 0, 0, 1, 0, 0, 0, 0 },
	{ LOAD_TLB, "csd_queue_cpu", TL_CSD_QUEUE, 6, 0, 1, 3, 0, D_CSD_QUEUE, 1 },
	{ LOAD_TLB, "csd_function_entry", TL_CSD_ENTRY, 3, 0, 0, 0, 0, D_CSD_FUNC, 1 },
	{ LOAD_TLB, "csd_function_exit", TL_CSD_EXIT, 3, 0, 0, 0, 0, D_CSD_FUNC, 1 },
	{ LOAD_TLB, "ipi_send_cpu", TL_IPI_SEND, 0, 0, 1, 3, 0, D_IPI_SEND, 0 },
	{ LOAD_TLB, "ipi_send_cpumask", TL_IPI_SEND, 0, 0, 0, 0, 0, D_CPUMASK, 0 },
};
#define NDECS (sizeof(decs) / sizeof(*decs))
/* LOAD_TLB: a sample of any other event (with samples) only says who runs. */
#define DEC_OTHER NDECS

/* The scan: f1..f7 are columns 5..11. */
#define SCAN_SQL "SELECT id, time, cpu, thread_id, event_id, f1, f2, f3, f4, f5, f6, f7 " \
	"FROM sample WHERE id BETWEEN ?1 AND ?2"
#define F(i) (4 + (i))
#define MASK_SQL "SELECT sample_id, target_cpu, callsite_sym, callback_sym FROM ipi_send_cpumask " \
	"WHERE sample_id BETWEEN ?1 AND ?2 ORDER BY sample_id, target_cpu"
#define FLUSH_FUNC "flush_tlb_func*"
#define FLUSH_SITE "*flush_tlb*"

/* col_or(st, i, dflt): integer column i, or dflt when NULL. */
static int64_t col_or(sqlite3_stmt *st, int i, int64_t dflt)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? dflt : sqlite3_column_int64(st, i);
}

/* globs(st, i, pat): whether text column i matches GLOB pattern pat (NULL
 * never does). */
static bool globs(sqlite3_stmt *st, int i, const char *pat)
{
	const char *s = (const char *)sqlite3_column_text(st, i);
	return s && !sqlite3_strglob(pat, s);
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

/* note_cpus(s, e): s->ncpus covers e's CPU and, for a queue or send, its
 * target. */
static void note_cpus(struct tl_session *s, const struct tl_event *e)
{
	if (e->cpu >= s->ncpus)
		s->ncpus = e->cpu + 1;
	if (e->kind == TL_CSD_QUEUE || e->kind == TL_IPI_SEND)
		if (e->arg >= s->ncpus && e->arg < 65536)
			s->ncpus = e->arg + 1;
}

/* load_kinds(db, sc, what): which decoder each of the session's events
 * takes (sc->kinds: decoder index + 1, plus KIND_HAS_SAMPLES when the
 * event has samples: only then does LOAD_TLB take them as plain samples).
 * 0 or -1. */
#define KIND_HAS_SAMPLES 0x100
static int load_kinds(sqlite3 *db, struct tl_scan *sc, unsigned what)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, tp_table, nr_samples > 0 FROM event "
				      "WHERE session_id = ?");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sc->s->id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 1);
		bool has = sqlite3_column_int(st, 2);
		size_t d = DEC_OTHER;
		for (size_t i = 0; t && i < NDECS; i++)
			if (!strcmp(decs[i].table, t))
				d = i;
		if (d < NDECS && !(decs[d].what & what))
			d = DEC_OTHER;
		if (d == DEC_OTHER && (!(what & LOAD_TLB) || !has))
			continue;
		hm_put(&sc->kinds, (uint64_t)sqlite3_column_int64(st, 0), 0,
		       (d + 1) | (has ? KIND_HAS_SAMPLES : 0));
	}
	return sqlite3_finalize(st) == SQLITE_OK ? 0 : -1;
}

/* load_tids(db, sc): the session's thread rows' tids. 0 or -1. */
static int load_tids(sqlite3 *db, struct tl_scan *sc)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, tid FROM thread WHERE session_id = ?");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sc->s->id);
	while (sqlite3_step(st) == SQLITE_ROW)
		hm_put(&sc->tids, (uint64_t)sqlite3_column_int64(st, 0), 0,
		       sqlite3_column_type(st, 1) == SQLITE_NULL ? 0 :
		       (uint64_t)sqlite3_column_int64(st, 1) + 1);
	return sqlite3_finalize(st) == SQLITE_OK ? 0 : -1;
}

/* tl_scan_open: see tl_scan.h. */
int tl_scan_open(sqlite3 *db, struct tl_session *s, unsigned what, int64_t lo, int64_t hi,
		 struct tl_scan *sc)
{
	memset(sc, 0, sizeof(*sc));
	sc->s = s;
	hm_init(&sc->kinds);
	hm_init(&sc->tids);
	if (load_kinds(db, sc, what) || load_tids(db, sc) || !(sc->st = db_prepare(db, SCAN_SQL)) ||
	    !(sc->tid_st = db_prepare(db, "SELECT tid FROM thread WHERE id = ?"))) {
		tl_scan_close(sc);
		return -1;
	}
	sqlite3_bind_int64(sc->st, 1, lo);
	sqlite3_bind_int64(sc->st, 2, hi);
	for (size_t i = 0; i < sc->kinds.cap; i++)
		if (sc->kinds.used[i] && (sc->kinds.val[i] & 0xff) - 1 < NDECS &&
		    decs[(sc->kinds.val[i] & 0xff) - 1].rule == D_CPUMASK && !sc->mask) {
			if (!(sc->mask = db_prepare(db, MASK_SQL))) {
				tl_scan_close(sc);
				return -1;
			}
			sqlite3_bind_int64(sc->mask, 1, lo);
			sqlite3_bind_int64(sc->mask, 2, hi);
			sc->mask_row = sqlite3_step(sc->mask) == SQLITE_ROW;
		}
	return 0;
}

/* tid_of(sc, thread): the tid of thread row thread, -1 when NULL, unknown
 * or out of range. */
static int64_t tid_of(struct tl_scan *sc, int64_t thread)
{
	uint64_t v;
	int64_t tid = -1;
	if (hm_get(&sc->tids, (uint64_t)thread, 0, &v)) {
		tid = v ? (int64_t)(v - 1) : -1;
	} else {
		sqlite3_reset(sc->tid_st);
		sqlite3_bind_int64(sc->tid_st, 1, thread);
		if (sqlite3_step(sc->tid_st) == SQLITE_ROW)
			tid = col_or(sc->tid_st, 0, -1);
	}
	return tid > 0x7fffffff ? -1 : tid;
}

/* typed(sc, d, e): fills e's kind fields from the current row by decoder
 * d; false when the rule leaves the row out. */
static bool typed(struct tl_scan *sc, const struct dec *d, struct tl_event *e)
{
	sqlite3_stmt *st = sc->st;
	if (d->rule == D_CSD_QUEUE && !globs(st, F(5), FLUSH_FUNC))
		return false;
	if (d->rule == D_CSD_FUNC && (col_or(st, F(3), 0) == 0 || !globs(st, F(2), FLUSH_FUNC)))
		return false;
	e->kind = d->kind;
	e->a = d->a ? col_or(st, F(d->a), -1) : -1;
	e->b = d->b ? col_or(st, F(d->b), -1) : d->bconst ? d->bconst : -1;
	e->arg = d->arg ? (int32_t)col_or(st, F(d->arg), -1) : -1;
	e->site = d->site ? site_index(sc->s, (const char *)sqlite3_column_text(st, F(d->site))) : -1;
	e->flush = d->rule == D_CSD_QUEUE || d->rule == D_CSD_FUNC ||
		   (d->rule == D_IPI_SEND && (globs(st, F(5), FLUSH_FUNC) || globs(st, F(3), FLUSH_SITE)));
	return true;
}

/* next_row(sc): reads samples until one gives events (into sc->pend, or
 * sc->row_cpumask for the mask rows). 1, 0 at the end, -1 on an error. */
static int next_row(struct tl_scan *sc)
{
	int step;
	while ((step = sqlite3_step(sc->st)) == SQLITE_ROW) {
		sqlite3_stmt *st = sc->st;
		uint64_t k;
		int64_t cpu = col_or(st, 2, -1), thread = col_or(st, 3, -1);
		if (cpu < 0 || cpu > 65535 || !hm_get(&sc->kinds, (uint64_t)col_or(st, 4, 0), 0, &k))
			continue;
		struct tl_event b = { .seq = sqlite3_column_int64(st, 0), .time = col_or(st, 1, 0),
			.tid = sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 : tid_of(sc, thread),
			.a = -1, .b = -1, .cpu = (int32_t)cpu, .arg = -1, .site = -1, .kind = TL_SAMPLE };
		const struct dec *d = (k & 0xff) - 1 < NDECS ? &decs[(k & 0xff) - 1] : NULL;
		sc->base = b;
		sc->row = b.seq;
		sc->row_cpumask = d && d->rule == D_CPUMASK;
		sc->npend = 0;
		if (sc->row_cpumask)
			return 1;
		if (!d || (d->also_sample && (k & KIND_HAS_SAMPLES)))
			sc->pend[sc->npend++] = b;
		if (d && typed(sc, d, &b))
			sc->pend[sc->npend++] = b;
		if (sc->npend)
			return 1;
	}
	return step == SQLITE_DONE ? 0 : -1;
}

/* mask_event(sc, e): the current cpumask sample's next target into *e.
 * 1, or 0 when it has no more. */
static int mask_event(struct tl_scan *sc, struct tl_event *e)
{
	sqlite3_stmt *m = sc->mask;
	while (sc->mask_row && sqlite3_column_int64(m, 0) < sc->row)
		sc->mask_row = sqlite3_step(m) == SQLITE_ROW;
	if (!sc->mask_row || sqlite3_column_int64(m, 0) != sc->row)
		return 0;
	*e = sc->base;
	e->kind = TL_IPI_SEND;
	e->arg = (int32_t)col_or(m, 1, -1);
	e->site = site_index(sc->s, (const char *)sqlite3_column_text(m, 2));
	e->flush = globs(m, 3, FLUSH_FUNC) || globs(m, 2, FLUSH_SITE);
	sc->mask_row = sqlite3_step(m) == SQLITE_ROW;
	return 1;
}

/* tl_scan_next: see tl_scan.h. */
int tl_scan_next(struct tl_scan *sc, struct tl_event *e)
{
	for (;;) {
		if (sc->row_cpumask && sc->mask && mask_event(sc, e)) {
			note_cpus(sc->s, e);
			return 1;
		}
		if (sc->npend) {
			*e = sc->pend[0];
			sc->pend[0] = sc->pend[1];
			sc->npend--;
			note_cpus(sc->s, e);
			return 1;
		}
		int rc = next_row(sc);
		if (rc <= 0)
			return rc;
	}
}

/* tl_scan_close: see tl_scan.h. */
void tl_scan_close(struct tl_scan *sc)
{
	sqlite3_finalize(sc->st);
	sqlite3_finalize(sc->mask);
	sqlite3_finalize(sc->tid_st);
	hm_free(&sc->kinds);
	hm_free(&sc->tids);
	memset(sc, 0, sizeof(*sc));
}
