/* The lost-data warning every analyzer shows: see lost_note.h. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/lost_note.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "schema/db.h"

/* One CPU's or one event's counts, summed over the sessions. */
struct lost_key {
	int cpu;		/* -1: not known */
	char *event;		/* samples only; NULL for a CPU's row */
	long long records, events, samples;
};

/* What the window lost, summed over the sessions; k: CPUs in order
 * (unknown last), then events by name. */
struct lost_sum {
	long long records, events, samples;
	long long outside;	/* events lost outside the window */
	bool whole;		/* some count is the whole recording's */
	struct lost_key *k;
	size_t nk, cap;
};

/* as_count(v): a total() of counts as an integer (exact below 2^53;
 * imports refuse counts above 2^40, so the sums stay far below). */
static long long as_count(double v)
{
	return v >= 9.2e18 ? LLONG_MAX : (long long)v;
}

/* key_add(s): a new row at the end of s->k. */
static struct lost_key *key_add(struct lost_sum *s)
{
	ALLOC_GROW(s->k, s->nk + 1, s->cap);
	s->k[s->nk] = (struct lost_key){ .cpu = -1 };
	return &s->k[s->nk++];
}

/* has_rows(db, id): whether session id has lost rows (none: imported
 * before the lost table, or it lost nothing). */
static bool has_rows(sqlite3 *db, int64_t id)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT EXISTS (SELECT 1 FROM lost WHERE session_id = ?)");
	bool any;
	if (!st)
		return false;
	sqlite3_bind_int64(st, 1, id);
	any = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return any;
}

/* A LOST record covers (since, time]: what its CPU dropped after the
 * previous record perf kept from it (since NULL: from the start); it
 * counts in the window [?1, ?2] when that span overlaps it. */
#define INSIDE "(l.time IS NULL OR (l.time >= ?1 AND (l.since IS NULL OR l.since < ?2)))"

/* The lost rows of the sessions in the JSON array ?3, per CPU (LOST
 * records inside the window, their events, lost samples, events outside)
 * and per event (lost samples). */
static const char *const lost_sql[2] = {
	"SELECT l.cpu, sum(l.kind = 'lost' AND " INSIDE "), "
	"total(CASE WHEN l.kind = 'lost' AND " INSIDE " THEN l.n END), "
	"total(CASE WHEN l.kind = 'lost_samples' THEN l.n END), "
	"total(CASE WHEN l.kind = 'lost' AND NOT " INSIDE " THEN l.n END) "
	"FROM lost l WHERE l.session_id IN (SELECT value FROM json_each(?3)) "
	"GROUP BY l.cpu ORDER BY l.cpu IS NULL, l.cpu",
	"SELECT coalesce(e.name, '?'), total(l.n) FROM lost l LEFT JOIN event e ON e.id = "
	"l.event_id WHERE l.kind = 'lost_samples' AND l.session_id IN (SELECT value FROM "
	"json_each(?3)) GROUP BY 1 ORDER BY 1"
};

/* add_row(st, j, s): one row of lost_sql[j] into s. */
static void add_row(sqlite3_stmt *st, int j, struct lost_sum *s)
{
	struct lost_key *k;
	long long rec, ev, sm;
	if (j == 1) {
		k = key_add(s);
		k->event = xstrdup((const char *)sqlite3_column_text(st, 0));
		k->samples = as_count(sqlite3_column_double(st, 1));
		return;
	}
	rec = sqlite3_column_int64(st, 1);
	ev = as_count(sqlite3_column_double(st, 2));
	sm = as_count(sqlite3_column_double(st, 3));
	s->outside += as_count(sqlite3_column_double(st, 4));
	s->records += rec;
	s->events += ev;
	s->samples += sm;
	s->whole |= sm > 0;
	if (!rec && !sm)
		return;		/* only records outside the window */
	k = key_add(s);
	if (sqlite3_column_type(st, 0) != SQLITE_NULL)
		k->cpu = sqlite3_column_int(st, 0);
	k->records = rec;
	k->events = ev;
	k->samples = sm;
}

/* add_rows(db, ids, n, t0, t1, s): the lost rows of sessions ids[0..n),
 * summed by SQL per CPU and per event, in lost_sum's order. */
static void add_rows(sqlite3 *db, const int64_t *ids, int n, int64_t t0, int64_t t1,
		     struct lost_sum *s)
{
	struct strbuf list = STRBUF_INIT;
	for (int i = 0; i < n; i++)
		sb_printf(&list, "%s%lld", i ? "," : "[", (long long)ids[i]);
	sb_puts(&list, "]");
	for (int j = 0; j < 2; j++) {
		sqlite3_stmt *st = db_prepare(db, lost_sql[j]);
		if (!st)
			break;
		if (j == 0) {
			sqlite3_bind_int64(st, 1, t0);
			sqlite3_bind_int64(st, 2, t1);
		}
		sqlite3_bind_text(st, 3, sb_str(&list), -1, SQLITE_STATIC);
		while (sqlite3_step(st) == SQLITE_ROW)
			add_row(st, j, s);
		sqlite3_finalize(st);
	}
	sb_free(&list);
}

/* add_totals(db, id, s): an older session's totals from its row. */
static void add_totals(sqlite3 *db, int64_t id, struct lost_sum *s)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT coalesce(nr_lost, 0), coalesce(nr_lost_samples, 0), "
				      "coalesce(nr_lost_records, 0) FROM session WHERE id = ?");
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		long long e = sqlite3_column_int64(st, 0), sm = sqlite3_column_int64(st, 1);
		s->events += e;
		s->samples += sm;
		s->records += sqlite3_column_int64(st, 2);
		s->whole |= e || sm;
	}
	sqlite3_finalize(st);
}

/* sentence(s, what, doubtful, b): the warning; what: "the window" ... */
static void sentence(const struct lost_sum *s, const char *what, const char *doubtful,
		     struct strbuf *b)
{
	int n = 0;
	sb_printf(b, "%s lost %lld events", what, s->events);
	for (size_t i = 0; i < s->nk; i++) {
		const struct lost_key *k = &s->k[i];
		if (k->event || !k->records)
			continue;
		sb_printf(b, n++ ? ", " : " (perf's LOST records: ");
		if (k->cpu >= 0)
			sb_printf(b, "CPU %d: %lld in %lld records", k->cpu, k->events, k->records);
		else
			sb_printf(b, "CPU unknown: %lld in %lld records", k->events, k->records);
	}
	if (n)
		sb_printf(b, ")");
	sb_printf(b, " and %lld samples", s->samples);
	n = 0;
	for (size_t i = 0; i < s->nk; i++)
		if (s->k[i].event)
			sb_printf(b, "%s%s %lld", n++ ? ", " : " (perf's LOST_SAMPLES over the whole "
				  "recording: ", s->k[i].event, s->k[i].samples);
	if (n)
		sb_printf(b, ")");
	sb_printf(b, ": %s", doubtful);
}

/* findings(s, doubtful, d): the "lost" object. */
static void findings(const struct lost_sum *s, const char *doubtful, struct doc *d)
{
	struct dval *o = dv_obj(doc_findings(d), "lost"), *cpus, *evs;
	dv_int(o, "records", s->records);
	dv_int(o, "events", s->events);
	dv_int(o, "samples", s->samples);
	cpus = dv_arr(o, "cpus");
	evs = dv_arr(o, "events_lost");
	for (size_t i = 0; i < s->nk; i++) {
		const struct lost_key *k = &s->k[i];
		struct dval *r = dv_obj(k->event ? evs : cpus, NULL);
		if (k->event) {
			dv_str(r, "event", k->event);
		} else {
			if (k->cpu >= 0)
				dv_int(r, "cpu", k->cpu);
			else
				dv_null(r, "cpu");
			dv_int(r, "records", k->records);
			dv_int(r, "events", k->events);
		}
		dv_int(r, "samples", k->samples);
	}
	dv_bool(o, "whole", s->whole);
	dv_str(o, "doubtful", doubtful);
}

/* collect(db, ids, n, t0, t1, s): what sessions ids[0..n) lost in the
 * window, into s: per CPU and event from their lost rows, or the totals of
 * those imported without them. */
static void collect(sqlite3 *db, const int64_t *ids, int n, int64_t t0, int64_t t1,
		    struct lost_sum *s)
{
	int64_t *with = xcalloc((size_t)n + 1, sizeof(*with));
	int nw = 0;
	for (int i = 0; i < n; i++)
		if (has_rows(db, ids[i]))
			with[nw++] = ids[i];
		else
			add_totals(db, ids[i], s);
	if (nw)
		add_rows(db, with, nw, t0, t1, s);
	free(with);
}

/* sum_free(s): frees what s holds. */
static void sum_free(struct lost_sum *s)
{
	for (size_t i = 0; i < s->nk; i++)
		free(s->k[i].event);
	free(s->k);
}

/* lost_note: see lost_note.h. */
bool lost_note(sqlite3 *db, const int64_t *ids, int n, int64_t t0, int64_t t1,
	       const char *doubtful, struct doc *d)
{
	struct lost_sum s = { 0 };
	bool lost;
	collect(db, ids, n, t0, t1, &s);
	lost = s.events || s.samples;
	if (lost) {
		struct strbuf b = STRBUF_INIT;
		bool all = t0 == INT64_MIN && t1 == INT64_MAX;
		sentence(&s, all ? (n > 1 ? "the sessions" : "the recording") :
				   (n > 1 ? "the sessions' window" : "the window"), doubtful, &b);
		doc_warn(d, "%s", sb_str(&b));
		sb_free(&b);
		findings(&s, doubtful, d);
	} else if (s.outside) {
		doc_note(d, "the sessions lost %lld events outside the window (perf's LOST records, "
			 "each covering its CPU's time since the record before), none inside it",
			 s.outside);
	}
	sum_free(&s);
	return lost;
}

/* lost_cpus: see lost_note.h. */
bool lost_cpus(sqlite3 *db, const int64_t *ids, int n, int64_t t0, int64_t t1, long long *out,
	       int ncpus)
{
	struct lost_sum s = { 0 };
	bool any = false;
	collect(db, ids, n, t0, t1, &s);
	for (size_t i = 0; i < s.nk; i++) {
		const struct lost_key *k = &s.k[i];
		if (!k->event && k->cpu >= 0 && k->cpu < ncpus && k->events) {
			out[k->cpu] += k->events;
			any = true;
		}
	}
	sum_free(&s);
	return any;
}

/* lost_note_sides: see lost_note.h. */
bool lost_note_sides(sqlite3 *db, const int64_t *a, int na, const int64_t *b, int nb,
		     int64_t t0, int64_t t1, const char *doubtful, struct doc *d)
{
	int64_t *ids = xcalloc((size_t)na + (size_t)nb + 1, sizeof(*ids));
	bool lost;
	if (na)
		memcpy(ids, a, (size_t)na * sizeof(*ids));
	if (nb)
		memcpy(ids + na, b, (size_t)nb * sizeof(*ids));
	lost = lost_note(db, ids, na + nb, t0, t1, doubtful, d);
	free(ids);
	return lost;
}
