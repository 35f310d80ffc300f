/* The sessions of a database as findings: see sessions.h. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/sessions.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "schema/db.h"

static const char row_sql[] =
	"SELECT id, label, os_release, nr_samples, coalesce(nr_lost, 0), "
	"coalesce(nr_lost_samples, 0), duration_ns, source, hostname, interrupted, nr_lost_records "
	"FROM session WHERE id = ?";

/* What perf's LOST records (kind 'lost': records lost per CPU) and
 * LOST_SAMPLES records (samples lost per event and CPU) said. */
static const char lost_sql[] =
	"SELECT l.kind, e.name, l.cpu, count(*), sum(l.n) FROM lost l "
	"LEFT JOIN event e ON e.id = l.event_id WHERE l.session_id = ? "
	"GROUP BY l.kind, CASE l.kind WHEN 'lost' THEN NULL ELSE e.name END, l.cpu "
	"ORDER BY l.kind, e.name, l.cpu";

static const char events_sql[] =
	"SELECT name, nr_samples FROM event WHERE session_id = ? ORDER BY nr_samples DESC, idx";

/* events_cell(ev, id, b, et): the "name=count" text of session id's
 * events with samples into b, and every event into table et. */
static void events_cell(sqlite3_stmt *ev, int64_t id, struct strbuf *b, struct table *et)
{
	int n = 0;
	sqlite3_bind_int64(ev, 1, id);
	while (sqlite3_step(ev) == SQLITE_ROW) {
		long long k = sqlite3_column_int64(ev, 1);
		const char *name = (const char *)sqlite3_column_text(ev, 0);
		if (k > 0)
			sb_printf(b, "%s%s=%lld", n++ ? " " : "", name, k);
		table_add_row(et);
		table_set_int(et, 0, id);
		table_set_str(et, 1, name);
		table_set_int(et, 2, k);
	}
	sqlite3_reset(ev);
}

/* lost_rows(st, id, lt): session id's lost table rows into lt. */
static void lost_rows(sqlite3_stmt *st, int64_t id, struct table *lt)
{
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		bool samples = !strcmp((const char *)sqlite3_column_text(st, 0), "lost_samples");
		table_add_row(lt);
		table_set_int(lt, 0, id);
		table_set_str(lt, 1, samples ? "samples" : "records");
		if (samples && sqlite3_column_type(st, 1) != SQLITE_NULL)
			table_set_str(lt, 2, (const char *)sqlite3_column_text(st, 1));
		if (sqlite3_column_type(st, 2) != SQLITE_NULL)
			table_set_int(lt, 3, sqlite3_column_int64(st, 2));
		table_set_int(lt, 4, sqlite3_column_int64(st, 3));
		table_set_int(lt, 5, sqlite3_column_int64(st, 4));
	}
	sqlite3_reset(st);
}

/* lost_table(): the empty table of what each session lost. */
static struct table *lost_table(void)
{
	struct table *t = table_new("lost", "Lost per session: perf's LOST records per CPU (the records "
				    "they dropped) and LOST_SAMPLES per event and CPU");
	table_col(t, "session", COL_INT, 0);
	table_col(t, "what", COL_STR, 0);
	table_col(t, "event", COL_STR, 0);
	table_col(t, "cpu", COL_INT, 0);
	table_col(t, "perf_records", COL_INT, 0);
	table_col(t, "lost", COL_INT, 0);
	table_null_text(t, "-");
	return t;
}

/* sessions_findings: see sessions.h. */
void sessions_findings(sqlite3 *db, const int64_t *ids, int n, struct doc *d)
{
	struct table *t = table_new("sessions", "Sessions"), *et = table_new("events", "Events per session");
	struct table *lt = lost_table();
	sqlite3_stmt *st = db_prepare(db, row_sql), *ev = db_prepare(db, events_sql);
	sqlite3_stmt *ls = db_prepare(db, lost_sql);
	static const char *const cols[] = { "id", "label", "kernel", "samples", "lost_events",
		"lost_samples", "seconds", "events", "source", "host", "interrupted", "lost_records" };
	static const enum col_type types[] = { COL_INT, COL_STR, COL_STR, COL_INT, COL_INT, COL_INT,
		COL_REAL, COL_STR, COL_STR, COL_STR, COL_BOOL, COL_INT };
	for (int c = 0; c < 12; c++)
		table_col(t, cols[c], types[c], 3);
	table_col(et, "session", COL_INT, 0);
	table_col(et, "event", COL_STR, 0);
	table_col(et, "samples", COL_INT, 0);
	table_null_text(t, "-");
	for (int i = 0; st && ev && ls && i < n; i++) {
		struct strbuf b = STRBUF_INIT;
		sqlite3_bind_int64(st, 1, ids[i]);
		if (sqlite3_step(st) == SQLITE_ROW) {
			table_add_row(t);
			for (int c = 0; c < 11; c++) {
				int k = c < 7 ? c : c + 1;
				if (sqlite3_column_type(st, c) == SQLITE_NULL)
					continue;
				if (c == 6)
					table_set_real(t, k, (double)sqlite3_column_int64(st, c) / 1e9);
				else if (types[k] == COL_INT || types[k] == COL_BOOL)
					table_set_int(t, k, sqlite3_column_int64(st, c));
				else
					table_set_str(t, k, (const char *)sqlite3_column_text(st, c));
			}
			events_cell(ev, ids[i], &b, et);
			table_set_str(t, 7, sb_str(&b));
			lost_rows(ls, ids[i], lt);
		}
		sqlite3_reset(st);
		sb_free(&b);
	}
	sqlite3_finalize(st);
	sqlite3_finalize(ev);
	sqlite3_finalize(ls);
	if (!table_nrows(lt))
		table_caption(lt, "nothing lost");
	dv_table(doc_findings(d), t);
	dv_table(doc_findings(d), et);
	dv_table(doc_findings(d), lt);
	doc_set_main(d, "sessions");
}

/* sessions_all: see sessions.h. */
int sessions_all(sqlite3 *db, int64_t **ids)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id FROM session ORDER BY id");
	size_t n = 0, cap = 0;
	*ids = NULL;
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		ALLOC_GROW(*ids, n + 1, cap);
		(*ids)[n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return (int)n;
}
