/* The machine's own change between two sides (see machine.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/bench/machine.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "lib/table.h"
#include "schema/db.h"

/* push_value(s, i, v): one value of indicator i (NaN is left out). */
static void push_value(struct machine_side *s, int i, double v)
{
	if (isnan(v))
		return;
	s->v[i] = xreallocarray(s->v[i], s->n[i] + 1, sizeof(double));
	s->v[i][s->n[i]++] = v;
}

/* add_load(s, known, taken, cap, cpus): a run's load: its CPU time left (a
 * value of MI_CAP) and the sums. */
static void add_load(struct machine_side *s, bool known, double taken, double cap, double cpus)
{
	if (!known || !(cap > 0))
		return;
	push_value(s, MI_CAP, 1 - taken / cap);
	s->taken += taken;
	s->capacity += cap;
	s->tick_var += cpus * MACHINE_TICK_S * MACHINE_TICK_S;
}

/* in_cells(cell, cells, n): whether cell is one of cells (any when NULL). */
static bool in_cells(int cell, const int *cells, size_t n)
{
	if (!cells)
		return true;
	for (size_t i = 0; i < n; i++)
		if (cells[i] == cell)
			return true;
	return false;
}

/* machine_side_of_bench: see machine.h. */
void machine_side_of_bench(const struct bench_data *b, const int *cells, size_t ncells,
			   struct machine_side *s)
{
	const struct bd_run *last = NULL;	/* the run whose probe was taken last */
	double taken, cap;
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < b->nruns; i++) {
		const struct bd_run *r = &b->runs_v[i];
		if (r->kind != RUN_BARE || !r->ok || !in_cells(r->cell, cells, ncells))
			continue;
		s->runs++;
		if (!r->rest_probe && (!last || last->sitting != r->sitting || last->pulse_int != r->pulse_int ||
				       last->pulse_mem != r->pulse_mem)) {	/* another probe's */
			push_value(s, MI_INT, r->pulse_int);
			push_value(s, MI_MEM, r->pulse_mem);
			last = r;
		}
		bool known = bd_load(b, r, &taken, &cap);	/* before taken and cap are read */
		add_load(s, known, taken, cap, b->boots[r->boot].cpus_online);
	}
}

/* machine_side_of_sessions: see machine.h. */
void machine_side_of_sessions(sqlite3 *db, const int64_t *ids, int n, struct machine_side *s)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT pulse_int, pulse_mem, others_cpu_ns, steal_ns, wall_ns, "
				      "nr_cpus_online FROM session WHERE id = ?");
	memset(s, 0, sizeof(*s));
	for (int i = 0; st && i < n; i++) {
		sqlite3_bind_int64(st, 1, ids[i]);
		if (sqlite3_step(st) == SQLITE_ROW) {
			double v[6];
			for (int k = 0; k < 6; k++)
				v[k] = sqlite3_column_type(st, k) == SQLITE_NULL ? NAN : sqlite3_column_double(st, k);
			s->runs++;
			push_value(s, MI_INT, v[0]);
			push_value(s, MI_MEM, v[1]);
			if (v[4] > 0 && v[5] > 0 && !isnan(v[2]))
				add_load(s, true, (v[2] + (isnan(v[3]) ? 0 : v[3])) / 1e9, v[4] / 1e9 * v[5], v[5]);
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
}

/* machine_side_free: see machine.h. */
void machine_side_free(struct machine_side *s)
{
	for (int i = 0; i < MI_N; i++)
		free(s->v[i]);
	memset(s, 0, sizeof(*s));
}

/* compare_one(a, na, b, nb, o): one indicator. */
static void compare_one(const double *a, size_t na, const double *b, size_t nb, struct machine_ind *o)
{
	*o = (struct machine_ind){ stats_mean(a, na), stats_mean(b, nb), NAN, { NAN, NAN }, false };
	if (!na || !nb || !(o->base > 0))
		return;
	o->pct = 100 * (o->new - o->base) / o->base;
	if (na >= 2 && nb >= 2) {
		struct interval d = stats_welch(a, na, b, nb, 0.95);
		/* a positive quantity falls by 100% at most */
		o->ci = (struct interval){ fmax(-100, 100 * d.lo / o->base), fmax(-100, 100 * d.hi / o->base) };
		o->changed = stats_excludes(o->ci, 0) && fabs(o->pct) >= MACHINE_MIN_PCT;
	} else {
		o->changed = fabs(o->pct) >= MACHINE_SINGLE_PCT;
	}
}

/* reach(o): how far the indicator's change may go: its interval's far
 * end, or the change itself without an interval. */
static double reach(const struct machine_ind *o)
{
	if (isnan(o->ci.lo))
		return fabs(o->pct);
	return fmax(fabs(o->ci.lo), fabs(o->ci.hi));
}

/* How much more than the machine's own change a workload may move: 1 for
 * the pulse's loops (a workload does not slow more than the resource it
 * waits for), 2 for the CPU time left (a run that shares its CPUs with
 * another busy task can lose more than the time that task took). */
static const double elasticity[MI_N] = { MACHINE_ELASTICITY_PULSE, MACHINE_ELASTICITY_PULSE,
	MACHINE_ELASTICITY_LOAD };

/* machine_compare: see machine.h. */
void machine_compare(const struct machine_side *a, const struct machine_side *b, struct machine_cmp *m)
{
	int up = 0, down = 0;
	memset(m, 0, sizeof(*m));
	for (int i = 0; i < MI_N; i++) {
		struct machine_ind *o = &m->ind[i];
		compare_one(a->v[i], a->n[i], b->v[i], b->n[i], o);
		m->known |= !isnan(o->pct);
		if (!isnan(o->pct) && i == MI_INT)	/* what the machine may have drifted unseen */
			m->drift = fmax(m->drift, elasticity[i] * reach(o));
		if (!o->changed)
			continue;
		m->changed = true;
		up += o->pct > 0;
		down += o->pct < 0;
		m->band = fmax(m->band, elasticity[i] * reach(o));
	}
	m->dir = up && !down ? 1 : down && !up ? -1 : 0;
	for (int k = 0; k < 2; k++) {
		const struct machine_side *s = k ? b : a;
		m->busy[k] = s->capacity > 0 ? 100 * s->taken / s->capacity : NAN;
		m->busy_any |= m->busy[k] >= MACHINE_BUSY_PCT && s->taken > 2 * sqrt(s->tick_var);
	}
}

/* machine_push: see machine.h. */
int machine_push(int better)
{
	return better > 0 ? 1 : better < 0 ? -1 : 0;
}

/* machine_explains: see machine.h. */
int machine_explains(const struct machine_cmp *m, int push, struct interval ci, bool pct, bool runs)
{
	int sign = ci.lo > 0 ? 1 : ci.hi < 0 ? -1 : 0, expect = m->dir * push;
	double inner = fmin(fabs(ci.lo), fabs(ci.hi));
	if (isnan(ci.lo) || !sign)
		return 0;
	if (m->changed && (expect == 0 || sign == expect) && (!pct || inner <= m->band))
		return 1;	/* in the way the machine changed, within its band */
	if (runs && pct && inner <= m->drift)
		return 2;	/* within the drift the machine may have had, either way */
	if (runs && m->busy_any && (!pct || inner <= MACHINE_ELASTICITY_LOAD * fmax(m->busy[0], m->busy[1])))
		return 3;	/* within what the other processes' load may do, either way */
	return 0;
}

/* The indicators' words. */
static const char *const ind_names[MI_N] = { "pulse (integer loop)", "pulse (memory stream)",
	"CPU time left to the workload" };
static const char *const ind_units[MI_N] = { "M/s per CPU", "GB/s per CPU", "% of the CPUs" };

/* ind_text(o, i, sb): "pulse (integer loop) 412 -> 334 M/s per CPU (-19%,
 * 95% interval -22%..-16%)". */
static void ind_text(const struct machine_ind *o, int i, struct strbuf *sb)
{
	double k = i == MI_CAP ? 100 : 1;
	sb_printf(sb, "%s %.4g -> %.4g %s (%+.1f%%", ind_names[i], k * o->base, k * o->new, ind_units[i],
		    o->pct);
	if (!isnan(o->ci.lo))
		sb_printf(sb, ", 95%% interval %+.1f%%..%+.1f%%", o->ci.lo, o->ci.hi);
	sb_puts(sb, o->changed ? ")" : ", within its noise)");
}

/* machine_warn: see machine.h. */
void machine_warn(const struct machine_cmp *m, struct doc *d, const char *what, const char *base,
		  const char *new)
{
	struct strbuf sb = STRBUF_INIT;
	double worst = 0;
	bool first = true;
	if (!m->changed)
		return;
	for (int i = 0; i < MI_N; i++)
		if (m->ind[i].changed && fabs(m->ind[i].pct) > fabs(worst))
			worst = m->ind[i].pct;
	if (m->dir)
		sb_printf(&sb, "the machine was %.0f%% %s during the new side's %s (%s) than "
			    "during the base side's (%s): ", fabs(worst), m->dir < 0 ? "slower" : "faster", what,
			    new, base);
	else
		sb_printf(&sb, "the machine changed between the base side's %s (%s) and the new side's (%s), "
			    "faster by one measure and slower by another: ", what, base, new);
	for (int i = 0; i < MI_N; i++) {
		if (isnan(m->ind[i].pct))
			continue;
		sb_puts(&sb, first ? "" : "; ");
		ind_text(&m->ind[i], i, &sb);
		first = false;
	}
	sb_printf(&sb, ". A change the machine's own change could explain (in the direction it "
		    "pushes, within %.0f%%) gets no kernel verdict: it says \"machine changed\"", m->band);
	doc_warn(d, "%s", sb_str(&sb));
	sb_free(&sb);
}

/* machine_warn_busy: see machine.h. */
void machine_warn_busy(const struct machine_cmp *m, struct doc *d, const char *what, const char *base,
		       const char *new, const char *so)
{
	if (!m->busy_any)
		return;
	doc_warn(d, "the machine was busy: other processes and steal took %.0f%% of the CPUs' time during "
		 "the base side's %s (%s) and %.0f%% during the new side's (%s). How their work fell on each "
		 "run moves the runs, and on two sittings differently, by an amount nothing here measures: %s",
		 m->busy[0], what, base, m->busy[1], new, so);
}

/* machine_table: see machine.h. */
struct table *machine_table(const struct machine_cmp *m, const struct machine_side *a,
			    const struct machine_side *b, const char *base, const char *new,
			    const char *section)
{
	struct table *t = table_new("machine", "The machine during each side's runs");
	const struct machine_side *s[2] = { a, b };
	table_col(t, "measure", COL_STR, 0);
	table_col(t, "unit", COL_STR, 0);
	table_col_label(t, table_col(t, "base", COL_REAL, 1), base);
	table_col(t, "base_n", COL_INT, 0);
	table_col_label(t, table_col(t, "new", COL_REAL, 1), new);
	table_col(t, "new_n", COL_INT, 0);
	table_col(t, "change_pct", COL_PCT, 1);
	table_col(t, "ci_low_pct", COL_REAL, 1);
	table_col(t, "ci_high_pct", COL_REAL, 1);
	table_col(t, "changed", COL_BOOL, 0);
	table_null_text(t, "-");
	if (section)
		table_section(t, section);
	table_caption(t, "pulse: loops run between the runs (no system call, no page fault), mean per "
		      "probe; CPU time left: 100%% less what other processes and steal took, mean per run; "
		      "changed: the 95%% interval excludes 0 and the change is %.0f%% or more", MACHINE_MIN_PCT);
	for (int i = 0; i < MI_N; i++) {
		const struct machine_ind *o = &m->ind[i];
		double k = i == MI_CAP ? 100 : 1;
		table_add_row(t);
		table_set_str(t, 0, ind_names[i]);
		table_set_str(t, 1, ind_units[i]);
		for (int j = 0; j < 2; j++) {
			double v = j ? o->new : o->base;
			if (!isnan(v))
				table_set_real(t, 2 + 2 * j, k * v);
			table_set_int(t, 3 + 2 * j, (long long)s[j]->n[i]);
		}
		if (!isnan(o->pct))
			table_set_real(t, 6, o->pct);
		if (!isnan(o->ci.lo)) {
			table_set_real(t, 7, o->ci.lo);
			table_set_real(t, 8, o->ci.hi);
		}
		table_set_int(t, 9, o->changed);
	}
	return t;
}

/* machine_json: see machine.h. */
void machine_json(const struct machine_cmp *m, struct dval *g)
{
	dv_bool(g, "known", m->known);
	dv_bool(g, "changed", m->changed);
	dv_str(g, "direction", !m->changed ? "none" : m->dir > 0 ? "faster" : m->dir < 0 ? "slower" : "mixed");
	dv_real(g, "band_pct", m->band);
	dv_real(g, "drift_pct", m->drift);
	dv_bool(g, "busy", m->busy_any);
	dv_real(g, "base_busy_pct", m->busy[0]);
	dv_real(g, "new_busy_pct", m->busy[1]);
}
