/* The lost-data warning every analyzer shows: see lost_note.h. */
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

/* What the window lost, summed over the sessions. */
struct lost_sum {
	long long records, events, samples;
	long long outside;	/* events lost outside the window */
	bool whole;		/* some count is the whole recording's */
	struct lost_key *k;
	size_t nk, cap;
};

/* key_of(s, cpu, event): the row of cpu (event NULL) or of event, added
 * when new. */
static struct lost_key *key_of(struct lost_sum *s, int cpu, const char *event)
{
	for (size_t i = 0; i < s->nk; i++)
		if (event ? s->k[i].event && !strcmp(s->k[i].event, event) :
			    !s->k[i].event && s->k[i].cpu == cpu)
			return &s->k[i];
	ALLOC_GROW(s->k, s->nk + 1, s->cap);
	s->k[s->nk] = (struct lost_key){ .cpu = event ? -1 : cpu, .event = event ? xstrdup(event) : NULL };
	return &s->k[s->nk++];
}

/* cmp_key: CPUs in order (unknown last), then events by name. */
static int cmp_key(const void *x, const void *y)
{
	const struct lost_key *a = x, *b = y;
	if (!a->event != !b->event)
		return a->event ? 1 : -1;
	if (a->event)
		return strcmp(a->event, b->event);
	return (unsigned)a->cpu < (unsigned)b->cpu ? -1 : (unsigned)a->cpu > (unsigned)b->cpu;
}

/* add_rows(db, id, t0, t1, s): session id's lost rows; false when it has
 * none (imported before the lost table, or it lost nothing). */
static bool add_rows(sqlite3 *db, int64_t id, int64_t t0, int64_t t1, struct lost_sum *s)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT l.kind, l.cpu, e.name, l.n, l.time FROM lost l "
				      "LEFT JOIN event e ON e.id = l.event_id WHERE l.session_id = ?");
	bool any = false;
	if (!st)
		return false;
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		bool samples = !strcmp((const char *)sqlite3_column_text(st, 0), "lost_samples");
		int cpu = sqlite3_column_type(st, 1) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 1);
		const char *ev = (const char *)sqlite3_column_text(st, 2);
		long long n = sqlite3_column_int64(st, 3);
		int64_t t = sqlite3_column_int64(st, 4);
		any = true;
		if (samples) {
			s->samples += n;
			s->whole = true;
			key_of(s, cpu, NULL)->samples += n;
			key_of(s, -1, ev ? ev : "?")->samples += n;
		} else if (sqlite3_column_type(st, 4) != SQLITE_NULL && (t < t0 || t > t1)) {
			s->outside += n;
		} else {
			struct lost_key *k = key_of(s, cpu, NULL);
			s->records++;
			s->events += n;
			k->records++;
			k->events += n;
		}
	}
	sqlite3_finalize(st);
	return any;
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

/* lost_note: see lost_note.h. */
bool lost_note(sqlite3 *db, const int64_t *ids, int n, int64_t t0, int64_t t1,
	       const char *doubtful, struct doc *d)
{
	struct lost_sum s = { 0 };
	bool lost;
	for (int i = 0; i < n; i++)
		if (!add_rows(db, ids[i], t0, t1, &s))
			add_totals(db, ids[i], &s);
	if (s.nk)
		qsort(s.k, s.nk, sizeof(*s.k), cmp_key);
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
		doc_note(d, "the sessions lost %lld events outside the window (perf's LOST records), "
			 "none inside it", s.outside);
	}
	for (size_t i = 0; i < s.nk; i++)
		free(s.k[i].event);
	free(s.k);
	return lost;
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
