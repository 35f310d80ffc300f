/* The shape of a distribution in the report: for a metric with many
 * samples a run (run_dist), each side's per-run p50, p90 and p99 in
 * each compared cell, as a chart beside the metric's (see report_int.h). */
#include <stdlib.h>
#include "analyze/report/report_int.h"
#include "lib/alloc.h"
#include "schema/db.h"

static const char *const pct_names[] = { "p50", "p90", "p99" };

/* add_runs(r, t, st, k, cell): side k's runs of one cell (st bound but
 * for the cell) as points "CELL pNN". */
static void add_runs(const struct rep *r, struct table *t, sqlite3_stmt *st, int k, const char *cell)
{
	while (sqlite3_step(st) == SQLITE_ROW)
		for (int p = 0; p < 3; p++) {
			char *label = xasprintf("%s%s%s", cell, *cell ? " " : "", pct_names[p]);
			table_add_row(t);
			table_set_str(t, 0, label);
			table_set_str(t, 1, r->nsides > 2 ? r->sides[k].label : r->sides[k].name);
			table_set_real(t, 2, sqlite3_column_double(st, p));
			free(label);
		}
	sqlite3_reset(st);
}

/* rep_shape_chart: see report_int.h. */
struct table *rep_shape_chart(const struct rep *r, const struct bd_metric *m, const struct rcells *rows, size_t n,
			      const char *name)
{
	sqlite3_stmt *st = db_prepare(r->db, "SELECT d.p50, d.p90, d.p99 FROM run_dist d JOIN bench_run u "
		"ON u.id = d.run_id JOIN bench b ON b.id = u.bench_id WHERE b.label = ? AND u.cell = ? AND "
		"u.kind = 'bare' AND u.status = 'ok' AND d.name = ? ORDER BY u.bench_id, u.seq");
	struct table *t = table_new(name, m->name);
	table_col(t, "cell", COL_STR, 0);
	table_col(t, "side", COL_STR, 0);
	table_col(t, "value", COL_REAL, -1);
	table_style(t, TABLE_CHART);
	table_section(t, "Results");
	table_caption(t, "%s: each run's p50, p90 and p99 of its samples", *m->unit ? m->unit : m->name);
	for (size_t i = 0; st && i < n; i++)
		for (int k = 0; k < r->nsides; k++) {
			if (rows[i].cell[k] < 0)
				continue;
			char *cell = rep_cell_text(&r->sides[0].b, (size_t)rows[i].cell[0]);
			sqlite3_bind_text(st, 1, r->sides[k].bench_label, -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 2, (int64_t)bd_cell_stored(&r->sides[k].b, (size_t)rows[i].cell[k]));
			sqlite3_bind_text(st, 3, m->name, -1, SQLITE_STATIC);
			add_runs(r, t, st, k, cell);
			free(cell);
		}
	sqlite3_finalize(st);
	return t;
}
