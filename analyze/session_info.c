/* Session metadata for findings documents: see session_info.h. */
#include <stdlib.h>
#include <string.h>
#include "analyze/session_info.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "schema/db.h"

static const char info_sql[] =
	"SELECT id, label, hostname, os_release, arch, cpu_desc, nr_cpus_online, perf_version, "
	"source, workload, duration_ns, nr_samples, nr_lost, nr_lost_samples, interrupted, "
	"nr_lost_records "
	"FROM session WHERE id = ?";

/* column(o, st, i, key): result column i of st under key, with its type. */
static void column(struct dval *o, sqlite3_stmt *st, int i, const char *key)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_INTEGER: dv_int(o, key, sqlite3_column_int64(st, i)); break;
	case SQLITE_FLOAT: dv_real(o, key, sqlite3_column_double(st, i)); break;
	case SQLITE_NULL: dv_null(o, key); break;
	default: dv_str(o, key, (const char *)sqlite3_column_text(st, i)); break;
	}
}

/* session_info_add: see session_info.h. */
void session_info_add(struct dval *arr, sqlite3 *db, const int64_t *ids, int n, const char *side)
{
	static const char *const keys[] = { "id", "label", "hostname", "os_release", "arch", "cpu",
		"cpus_online", "perf_version", "source", "workload" };
	sqlite3_stmt *st = db_prepare(db, info_sql);
	for (int i = 0; st && i < n; i++) {
		sqlite3_bind_int64(st, 1, ids[i]);
		if (sqlite3_step(st) == SQLITE_ROW) {
			struct dval *o = dv_obj(arr, NULL);
			for (int k = 0; k < 10; k++) {
				column(o, st, k, keys[k]);
				if (k == 1 && side)
					dv_str(o, "side", side);
			}
			dv_real(o, "duration_s", (double)sqlite3_column_int64(st, 10) / 1e9);
			column(o, st, 11, "samples");
			dv_int(o, "lost_events", sqlite3_column_int64(st, 12));
			dv_int(o, "lost_samples", sqlite3_column_int64(st, 13));
			dv_bool(o, "interrupted", sqlite3_column_int(st, 14) != 0);
			column(o, st, 15, "lost_records");
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
}

/* session_has_events: see session_info.h. */
bool session_has_events(sqlite3 *db, int64_t id, const char *const *events)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT 1 FROM event WHERE session_id = ? AND name = ? "
				      "AND nr_samples > 0");
	bool yes = false;
	for (int i = 0; st && events[i] && !yes; i++) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_text(st, 2, events[i], -1, SQLITE_STATIC);
		yes = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return yes;
}

/* list(b, names, n, last): "a", "a or b", "a, b or c" (last: " or ",
 * " and ") into b. */
static void list(struct strbuf *b, const char *const *names, int n, const char *last)
{
	for (int k = 0; k < n; k++)
		sb_printf(b, "%s%s", k ? (k + 1 < n ? ", " : last) : "", names[k]);
}

/* session_recorded: see session_info.h. */
bool session_recorded(sqlite3 *db, int64_t id, const char *event)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT 1 FROM event WHERE session_id = ? AND name = ?");
	bool yes = false;
	if (st) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_text(st, 2, event, -1, SQLITE_STATIC);
		yes = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	return yes;
}

/* recorded_of(db, id, events, out): those of events session id recorded,
 * into out; their number. */
static int recorded_of(sqlite3 *db, int64_t id, const char *const *events, const char **out)
{
	int n = 0;
	for (int i = 0; events[i]; i++)
		if (session_recorded(db, id, events[i]))
			out[n++] = events[i];
	return n;
}

/* lost_of(db, id, names, n, events, samples): the events session id lost
 * (LOST records) and the samples of names[0..n) it lost (LOST_SAMPLES;
 * a session imported before the lost table: all its lost samples). */
static void lost_of(sqlite3 *db, int64_t id, const char *const *names, int n, long long *events,
		    long long *samples)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT coalesce(nr_lost, 0), coalesce(nr_lost_samples, 0), "
		"EXISTS (SELECT 1 FROM lost WHERE session_id = ?1) FROM session WHERE id = ?1");
	bool rows = false;
	*events = *samples = 0;
	if (st) {
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) == SQLITE_ROW) {
			*events = sqlite3_column_int64(st, 0);
			*samples = sqlite3_column_int64(st, 1);
			rows = sqlite3_column_int(st, 2);
		}
	}
	sqlite3_finalize(st);
	if (!rows)
		return;
	st = db_prepare(db, "SELECT coalesce(sum(l.n), 0) FROM lost l JOIN event e ON e.id = l.event_id "
			"WHERE l.session_id = ? AND l.kind = 'lost_samples' AND e.name = ?");
	*samples = 0;
	for (int i = 0; st && i < n; i++) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_text(st, 2, names[i], -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			*samples += sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
}

/* session_none_of: see session_info.h. */
char *session_none_of(sqlite3 *db, int64_t id, const char *const *events, const char *advice)
{
	struct strbuf b = STRBUF_INIT;
	const char **rec;
	long long lost, samples;
	int n = 0, nrec;
	if (session_has_events(db, id, events))
		return NULL;
	while (events[n])
		n++;
	rec = xcalloc((size_t)n + 1, sizeof(*rec));
	nrec = recorded_of(db, id, events, rec);
	if (!nrec) {
		sb_puts(&b, "has no ");
		list(&b, events, n, " or ");
		sb_printf(&b, " events (%s)", advice);
		free(rec);
		return sb_take(&b);
	}
	lost_of(db, id, rec, nrec, &lost, &samples);
	sb_puts(&b, "recorded ");
	list(&b, rec, nrec, " and ");
	if (lost || samples)
		sb_printf(&b, " but holds none of %s samples: perf lost %lld events (LOST records) and "
			  "%lld samples of %s (LOST_SAMPLES); record again with a larger buffer (-m "
			  "PAGES)", nrec > 1 ? "their" : "its", lost, samples, nrec > 1 ? "them" : "it");
	else
		sb_printf(&b, ", which never fired there, and perf lost nothing: a measured zero, with "
			  "nothing to analyze");
	free(rec);
	return sb_take(&b);
}

/* session_desc: see session_info.h. */
char *session_desc(sqlite3 *db, const int64_t *ids, int n)
{
	struct strbuf b = STRBUF_INIT;
	sqlite3_stmt *st = db_prepare(db, "SELECT label FROM session WHERE id = ?");
	char *label = NULL;
	bool same = true;
	sb_printf(&b, "session%s ", n > 1 ? "s" : "");
	for (int i = 0; i < n; i++) {
		sb_printf(&b, "%s%lld", i ? ", " : "", (long long)ids[i]);
		sqlite3_bind_int64(st, 1, ids[i]);
		const char *l = st && sqlite3_step(st) == SQLITE_ROW ?
			(const char *)sqlite3_column_text(st, 0) : NULL;
		if (!i)
			label = xstrdup(l);
		else if (!l || !label || strcmp(l, label))
			same = false;
		sqlite3_reset(st);
	}
	if (same && label)
		sb_printf(&b, " (%s)", label);
	free(label);
	sqlite3_finalize(st);
	return sb_take(&b);
}
