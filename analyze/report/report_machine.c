/* The report's machine: each side's sittings with the machine's pulse and
 * load during them, and the machine's own change from the base side's
 * runs to the new side's (analyze/bench/machine.h), whose warning comes first. */
#include <math.h>
#include <stdlib.h>
#include "analyze/report/report_int.h"
#include "lib/alloc.h"
#include "lib/stats.h"

/* shared_cells(r, k, n): side k's cells that the other side has too. */
static int *shared_cells(const struct rep *r, int k, size_t *n)
{
	const struct bench_data *a = &r->side[k].b, *b = &r->side[!k].b;
	int *cells = xcalloc(a->ncells + 1, sizeof(int));
	*n = 0;
	for (size_t i = 0; i < a->ncells; i++)
		for (size_t j = 0; j < b->ncells; j++)
			if (rep_same_cell(a, i, b, j)) {
				cells[(*n)++] = (int)i;
				break;
			}
	return cells;
}

/* report_machine: see report_int.h. */
void report_machine(struct rep *r)
{
	const char *what = "runs";
	for (int k = 0; k < 2; k++) {
		struct rside *s = &r->side[k];
		if (r->side[0].have_bench && r->side[1].have_bench) {
			size_t n;
			int *cells = shared_cells(r, k, &n);
			machine_side_of_bench(&s->b, cells, n, &r->msides[k]);
			free(cells);
		} else {
			machine_side_of_sessions(r->db, s->sessions, s->nsessions, &r->msides[k]);
			what = "recordings";
		}
	}
	machine_compare(&r->msides[0], &r->msides[1], &r->machine);
	machine_warn(&r->machine, r->d, what, r->side[0].label, r->side[1].label);
	machine_warn_busy(&r->machine, r->d, what, r->side[0].label, r->side[1].label,
			  "a change tested on the runs of one sitting a side within twice that share of 0 gets "
			  "no kernel verdict (it says \"machine busy\"). Bench on a quiet machine, or each side "
			  "in 2 or more sittings");
	char *key = rep_key(r, "machine_verdict");
	machine_json(&r->machine, dv_obj(doc_findings(r->d), key));
	free(key);
}

/* sitting_row(t, s, i): one sitting's row of the sittings table. */
static void sitting_row(struct table *t, const struct rside *s, size_t i)
{
	const struct bench_data *b = &s->b;
	const struct bd_sitting *st = &b->sittings[i];
	double sum[2] = { 0 }, taken = 0, cap = 0, x, y;
	size_t n[2] = { 0 }, runs = 0;
	for (size_t k = 0; k < b->nruns; k++) {
		const struct bd_run *u = &b->runs_v[k];
		if (u->sitting != (int)i || u->kind != RUN_BARE || !u->ok)
			continue;
		runs++;
		const double p[2] = { u->pulse_int, u->pulse_mem };
		for (int j = 0; j < 2; j++)
			if (u->new_probe && !isnan(p[j])) {
				sum[j] += p[j];
				n[j]++;
			}
		if (bd_load(b, u, &x, &y)) {
			taken += x;
			cap += y;
		}
	}
	table_add_row(t);
	table_set_str(t, 0, s->name);
	table_set_int(t, 1, st->boot + 1);
	if (st->number)
		table_set_int(t, 2, st->number);
	table_set_str(t, 3, st->started_at);
	table_set_int(t, 4, (long long)runs);
	for (int j = 0; j < 2; j++)
		if (n[j])
			table_set_real(t, 5 + j, sum[j] / (double)n[j]);
	if (cap > 0)
		table_set_real(t, 7, 100 * (1 - taken / cap));
}

/* sittings_table(r): every sitting of every side. */
static struct table *sittings_table(const struct rep *r)
{
	struct table *t = table_new("sittings", "Sittings");
	table_col(t, "side", COL_STR, 0);
	table_col(t, "boot", COL_INT, 0);
	table_col(t, "sitting", COL_INT, 0);
	table_col(t, "started", COL_STR, 0);
	table_col(t, "runs", COL_INT, 0);
	table_col_label(t, table_col(t, "pulse_int", COL_REAL, 1), "pulse int (M/s/CPU)");
	table_col_label(t, table_col(t, "pulse_mem", COL_REAL, 2), "pulse mem (GB/s/CPU)");
	table_col_label(t, table_col(t, "cpu_left_pct", COL_REAL, 1), "CPU left %");
	table_null_text(t, "-");
	table_section(t, "Setup");
	table_caption(t, "a sitting is one perfdb bench on one boot; runs: bare runs that ended well; "
		      "pulse: mean of the probes before its rounds; CPU left: what other processes and "
		      "steal did not take during its runs (sitting -: runs stored before sittings were)");
	for (int k = 0; k < r->nsides; k++)
		for (size_t i = 0; r->sides[k].have_bench && i < r->sides[k].b.nsittings; i++)
			sitting_row(t, &r->sides[k], i);
	return t;
}

/* report_sittings: see report_int.h. */
void report_sittings(struct rep *r)
{
	for (int k = 0; k < r->nsides; k++)
		if (r->sides[k].have_bench) {
			dv_table(doc_findings(r->d), sittings_table(r));
			return;
		}
}

/* report_machine_tables: see report_int.h. */
void report_machine_tables(struct rep *r)
{
	rep_table(r, machine_table(&r->machine, &r->msides[0], &r->msides[1],
						   r->side[0].label, r->side[1].label, "Setup"));
}
