/* The report's data quality: what makes a number doubtful, per side:
 * failed runs, lost events and samples, what the import could not use,
 * samples without symbols, flush IPIs without a recorded receiver, flush
 * IPIs a side's recordings cannot show (its kernel flushed without them),
 * what the evidence could not see, and what recording costs the metrics
 * (recorded against bare runs). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/lost_note.h"
#include "analyze/report/report_int.h"
#include "lib/alloc.h"
#include "lib/stats.h"
#include "schema/db.h"

/* row(t, side, session, what, count, detail): one row. */
static void row(struct table *t, const char *side, int64_t session, const char *what, double count,
		const char *detail)
{
	table_add_row(t);
	table_set_str(t, 0, side);
	if (session > 0)
		table_set_int(t, 1, session);
	table_set_str(t, 2, what);
	if (!isnan(count))
		table_set_real(t, 3, count);
	table_set_str(t, 4, detail);
}

/* failed_runs(r, k, t): the side's runs that did not end well. */
static void failed_runs(struct rep *r, int k, struct table *t)
{
	const struct bench_data *b = &r->side[k].b;
	long long n = 0;
	for (size_t i = 0; r->side[k].have_bench && i < b->nruns; i++)
		n += !b->runs_v[i].ok;
	if (!n)
		return;
	row(t, r->side[k].name, 0, "failed runs", (double)n, "not counted (perfdb results -l LABEL lists them)");
	doc_warn(r->d, "%lld run%s of %s failed and %s not counted", n, n == 1 ? "" : "s", r->side[k].label,
		 n == 1 ? "is" : "are");
}

/* session_rows(r, k, t): per session: lost events and samples, the
 * import's data_quality rows, samples of callchain events without a symbol. */
static void session_rows(struct rep *r, int k, struct table *t)
{
	sqlite3_stmt *lost = db_prepare(r->db, "SELECT coalesce(nr_lost, 0), coalesce(nr_lost_samples, 0), "
		"first_sample_id, last_sample_id FROM session WHERE id = ?");
	sqlite3_stmt *dq = db_prepare(r->db, "SELECT what, count FROM data_quality WHERE session_id = ?");
	sqlite3_stmt *sym = db_prepare(r->db, "SELECT count(*), coalesce(sum(s.symbol_id IS NULL), 0) FROM sample s "
		"JOIN event e ON e.id = s.event_id WHERE s.id BETWEEN ? AND ? AND (e.sample_type & 32) != 0");
	for (int i = 0; lost && dq && sym && i < r->side[k].nsessions; i++) {
		int64_t id = r->side[k].sessions[i];
		sqlite3_bind_int64(lost, 1, id);
		if (sqlite3_step(lost) == SQLITE_ROW) {
			long long le = sqlite3_column_int64(lost, 0), ls = sqlite3_column_int64(lost, 1);
			if (le || ls) {
				row(t, r->side[k].name, id, "lost events", (double)le, "perf's LOST records");
				row(t, r->side[k].name, id, "lost samples", (double)ls, "perf's LOST_SAMPLES records");
			}
			sqlite3_bind_int64(sym, 1, sqlite3_column_int64(lost, 2));
			sqlite3_bind_int64(sym, 2, sqlite3_column_int64(lost, 3));
			if (sqlite3_step(sym) == SQLITE_ROW && sqlite3_column_int64(sym, 1) > 0)
				row(t, r->side[k].name, id, "samples without a symbol",
				    (double)sqlite3_column_int64(sym, 1), "of the events with callchains");
			sqlite3_reset(sym);
		}
		sqlite3_reset(lost);
		sqlite3_bind_int64(dq, 1, id);
		while (sqlite3_step(dq) == SQLITE_ROW)
			row(t, r->side[k].name, id, (const char *)sqlite3_column_text(dq, 0),
			    (double)sqlite3_column_int64(dq, 1), "what the import could not use");
		sqlite3_reset(dq);
	}
	sqlite3_finalize(lost);
	sqlite3_finalize(dq);
	sqlite3_finalize(sym);
}

/* perturbation(r, k, t): per metric, the recorded runs' median against the
 * bare runs' (over every cell). */
static void perturbation(struct rep *r, int k, struct table *t)
{
	const struct bench_data *b = &r->side[k].b;
	for (size_t m = 0; r->side[k].have_bench && m < b->nmetrics; m++)
		for (size_t c = 0; c < b->ncells; c++) {
			struct bd_stats bare, rec;
			bd_stats_of(b, (int)c, (int)m, RUN_BARE, &bare);
			bd_stats_of(b, (int)c, (int)m, RUN_RECORDED, &rec);
			if (!rec.runs || !bare.runs || bare.median == 0)
				continue;
			char *cell = rep_cell_text(b, c), *what = xasprintf("recording's effect on %s%s%s",
				b->metrics[m].name, *cell ? ", " : "", cell);
			double pct = 100 * (rec.median - bare.median) / bare.median;
			char detail[160];
			snprintf(detail, sizeof(detail), "%% change of the recorded runs' median (%zu) from the "
				 "bare runs' (%zu)", rec.runs, bare.runs);
			row(t, r->side[k].name, 0, what, pct, detail);
			free(cell);
			free(what);
		}
}

/* side_of(r, session): the name of the side session is on ("both" when
 * none or unknown). */
static const char *side_of(const struct rep *r, int64_t session)
{
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < r->side[k].nsessions; i++)
			if (r->side[k].sessions[i] == session)
				return r->side[k].name;
	return "both";
}

/* unseen_rows(r, t): a row per thing the current pair's evidence could
 * not see (the findings "unseen" entries it added that are warnings). */
static void unseen_rows(struct rep *r, struct table *t)
{
	const struct dval *arr = dv_get(doc_findings_c(r->d), "unseen");
	const struct rpair *p = &r->pairs[r->pair];
	for (size_t i = p->unseen_from; arr && i < p->unseen_to && i < dv_len(arr); i++) {
		const struct dval *e = dv_item(arr, i), *s = dv_get(e, "session");
		int64_t id = s && dv_kind(s) == DV_INT ? dv_int_of(s) : 0;
		if (!dv_get(e, "warning"))
			continue;
		row(t, side_of(r, id), id, dv_str_of(dv_get(e, "what")), NAN,
		    "not seen by the recording: see the warnings");
	}
}

/* report_quality: see report_int.h. */
void report_quality(struct rep *r)
{
	struct table *t = table_new("data_quality", "What makes a number doubtful");
	table_col(t, "side", COL_STR, 0);
	table_col(t, "session", COL_INT, 0);
	table_col(t, "what", COL_STR, 0);
	table_col(t, "count", COL_REAL, 1);
	table_col(t, "detail", COL_STR, 0);
	table_null_text(t, "-");
	table_section(t, "Data quality");
	for (int k = 0; k < 2; k++) {
		failed_runs(r, k, t);
		session_rows(r, k, t);
		perturbation(r, k, t);
		if (r->ipis[k] > 0 && r->unverified[k] > 0)
			row(t, r->side[k].name, 0, "unverified flush IPIs", (double)r->unverified[k],
			    "no receiver recorded: in no class, wasted is a lower bound");
		if (r->unseen_flushes[k] > 0)
			row(t, r->side[k].name, 0, "flush IPIs not seen", (double)r->unseen_flushes[k],
			    "flushes of an mm another CPU was running, with no flush IPI to it: the kernel "
			    "flushed without IPIs, so the IPI and wasted figures are not measurements");
	}
	unseen_rows(r, t);
	if (!table_nrows(t))
		row(t, "both", 0, "nothing doubtful seen", NAN, "no failed runs, no lost events");
	rep_table(r, t);
}

/* report_lost: see report_int.h. */
void report_lost(struct rep *r)
{
	int64_t *ids;
	int n = 0;
	for (int k = 0; k < r->nsides; k++)
		n += r->sides[k].nsessions;
	ids = xcalloc((size_t)n + 1, sizeof(*ids));
	n = 0;
	for (int k = 0; k < r->nsides; k++)
		for (int i = 0; i < r->sides[k].nsessions; i++) {
			int j = 0;
			while (j < n && ids[j] != r->sides[k].sessions[i])
				j++;
			if (j == n)
				ids[n++] = r->sides[k].sessions[i];
		}
	lost_note(r->db, ids, n, INT64_MIN, INT64_MAX, "every count and rate taken from the recordings is a "
		  "lower bound, and shares of the lost parts unknown", r->d);
	free(ids);
}
