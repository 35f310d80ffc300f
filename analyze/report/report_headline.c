/* The report's results: per metric a table of the cells with each side's
 * mean and %stddev, the %change with its simultaneous interval and mark,
 * and a chart of the runs; the durations (see report.h for the test). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/bench/machine.h"
#include "analyze/report/report_int.h"
#include "lib/alloc.h"
#include "lib/stats.h"
#include "lib/strbuf.h"

/* A cell of the base and the same cell on the new side of a pair. */
struct pair {
	size_t cell[2];
};

/* rows_of(r, out): the base's cells that some new side has too, each with
 * its index on every side, in base's order; returns their number. */
static size_t rows_of(const struct rep *r, struct rcells **out)
{
	const struct bench_data *a = &r->sides[0].b;
	size_t n = 0;
	*out = xcalloc(a->ncells + 1, sizeof(**out));
	for (size_t i = 0; i < a->ncells; i++) {
		struct rcells c = { .cell = { (long)i } };
		bool any = false;
		for (int s = 1; s < r->nsides; s++) {
			const struct bench_data *b = &r->sides[s].b;
			c.cell[s] = -1;
			for (size_t k = 0; k < b->ncells && c.cell[s] < 0; k++)
				if (rep_same_cell(a, i, b, k))
					c.cell[s] = (long)k;
			any |= c.cell[s] >= 0;
		}
		if (any)
			(*out)[n++] = c;
	}
	return n;
}

/* wanted(r, name): whether metric name is in the report. */
static bool wanted(const struct rep *r, const char *name)
{
	for (size_t i = 0; i < r->o->nmetrics; i++)
		if (!strcmp(r->o->metrics[i], name))
			return true;
	return !r->o->nmetrics;
}

/* One side of one row: its units (runs, or boots' or sittings' means)
 * and summary. */
struct unit {
	double *v;
	size_t n;		/* units tested */
	size_t runs;
	int boots, sittings;
	double mean, sd_pct, median;	/* mean: of the units; sd_pct: of the runs */
};

/* units_of(b, cell, m, u): a side's runs for a row. */
static void units_of(const struct bench_data *b, size_t cell, int m, struct unit *u)
{
	double *all;
	size_t n = bd_values(b, (int)cell, m, RUN_BARE, -1, &all);
	struct bd_stats s;
	bd_stats_of(b, (int)cell, m, RUN_BARE, &s);
	*u = (struct unit){ .v = all, .n = n, .runs = n, .boots = s.boots, .sittings = s.sittings,
		.mean = stats_mean(all, n), .sd_pct = stats_rel_stddev(all, n), .median = s.median };
}

/* boot_units(b, cell, m, u): replaces u's units by each boot's mean (and
 * u's mean by their mean). */
static void boot_units(const struct bench_data *b, size_t cell, int m, struct unit *u)
{
	free(u->v);
	u->v = xcalloc(b->nboots + 1, sizeof(double));
	u->n = 0;
	for (size_t k = 0; k < b->nboots; k++) {
		double *bv;
		size_t bn = bd_values(b, (int)cell, m, RUN_BARE, (int)k, &bv);
		if (bn)
			u->v[u->n++] = stats_mean(bv, bn);
		free(bv);
	}
	u->mean = stats_mean(u->v, u->n);
}

/* sitting_units(b, cell, m, u): replaces u's units by each sitting's mean
 * (and u's mean by their mean). */
static void sitting_units(const struct bench_data *b, size_t cell, int m, struct unit *u)
{
	free(u->v);
	u->v = xcalloc(b->nsittings + 1, sizeof(double));
	u->n = 0;
	for (size_t k = 0; k < b->nsittings; k++) {
		double *sv;
		size_t sn = bd_sitting_values(b, (int)cell, m, RUN_BARE, (int)k, &sv);
		if (sn)
			u->v[u->n++] = stats_mean(sv, sn);
		free(sv);
	}
	u->mean = stats_mean(u->v, u->n);
}

/* What a row's test takes as its units. */
enum tested_on { ON_RUNS, ON_SITTINGS, ON_BOOTS };
static const char *const tested_on_names[] = { "runs", "sittings", "boots" };

/* The rows of one metric. */
struct mrow {
	struct pair p;
	struct unit u[2];
	enum tested_on on;	/* boots' means (3 or more a side), sittings' (2 or more), or runs */
	bool pct;		/* the change is in % of base's mean (base's mean is not 0) */
	struct interval ci;	/* of the difference of means: in % of base's mean, or absolute */
	const char *untested;	/* why there is no interval, or NULL */
	bool significant;
	const char *machine;	/* significant, but the machine could explain it: the verdict
				 * it gets ("machine changed", "machine busy"), or NULL */
};

/* test_row(row, level): Welch's interval at level; in % of base's mean,
 * or in the metric's unit when that mean is 0. Untested with fewer than
 * 2 units a side or no spread on either (an interval of width 0 claims a
 * certainty the runs cannot give). */
static void test_row(struct mrow *row, double level)
{
	struct unit *a = &row->u[0], *b = &row->u[1];
	row->pct = a->mean != 0 && isfinite(a->mean);
	if (a->n < 2 || b->n < 2)
		row->untested = "too few runs";
	else if (stats_stddev(a->v, a->n) == 0 && stats_stddev(b->v, b->n) == 0)
		row->untested = "no spread";
	else if (!isfinite(a->mean) || !isfinite(b->mean))
		row->untested = "not finite";
	if (row->untested)
		return;
	struct interval d = stats_welch(a->v, a->n, b->v, b->n, level);
	double scale = row->pct ? 100 / fabs(a->mean) : 1;
	row->ci = (struct interval){ d.lo * scale, d.hi * scale };
	row->significant = stats_excludes(row->ci, 0);
}

/* verdict(better, dir): what a significant change in direction dir
 * (+1 up, -1 down) means. */
static const char *verdict(int better, int dir)
{
	if (!better)
		return dir > 0 ? "higher" : "lower";
	return (dir > 0) == (better > 0) ? "improvement" : "regression";
}

/* table_name_for(r, prefix, name): a table name from a metric name (its
 * letters and digits, lowercase; _ for the rest), with _2, _3, ... when
 * another metric's name gave the same one. */
static char *table_name_for(const struct rep *r, const char *prefix, const char *name)
{
	char *base = xasprintf("%s%s", prefix, name), *s;
	for (char *p = base; *p; p++)
		*p = isalnum((unsigned char)*p) ? (char)tolower((unsigned char)*p) : '_';
	s = xstrdup(base);
	for (int k = 2; doc_table(r->d, s); k++) {
		free(s);
		s = xasprintf("%s_%d", base, k);
	}
	free(base);
	return s;
}

/* The columns of a metric table after the parameters. */
enum {
	MC_BASE, MC_BASE_SD, MC_NEW, MC_NEW_SD, MC_CHANGE, MC_INTERVAL, MC_MARK, MC_VERDICT,
	MC_CI_LO, MC_CI_HI, MC_BASE_RUNS, MC_NEW_RUNS, MC_BASE_BOOTS, MC_NEW_BOOTS, MC_BASE_MEDIAN,
	MC_NEW_MEDIAN, MC_SIGNIFICANT, MC_DIFF_LO, MC_DIFF_HI, MC_TESTED_ON, MC_BASE_SITTINGS,
	MC_NEW_SITTINGS, MC_MACHINE, MC_N
};

/* Where each MC_ column of one new side's group is in a metric table
 * (-1: not in it; the base's columns are in the first group only). */
struct mcols {
	int c[MC_N];
};

/* group_name(r, k, col): the name of column col (MC_ name col) in new
 * side k's group: as it is for the first; "new2", "new2_stddev_pct",
 * "new2_change_pct", ... for side new2. malloc'ed. */
static char *group_name(const struct rep *r, int k, const char *col)
{
	if (k == 1)
		return xstrdup(col);
	if (!strncmp(col, "new", 3))
		return xasprintf("%s%s", r->sides[k].name, col + 3);
	return xasprintf("%s_%s", r->sides[k].name, col);
}

/* group_label(r, k, i, label): the heading of MC_ column i: with more
 * than one new side the sides' means and counts are headed by their
 * labels. malloc'ed, or NULL for none. */
static char *group_label(const struct rep *r, int k, int i, const char *label)
{
	bool base = i == MC_BASE || i == MC_BASE_RUNS || i == MC_BASE_BOOTS;
	const char *who = r->sides[base ? 0 : k].label;
	if (r->nsides <= 2 || !label)
		return label ? xstrdup(label) : NULL;
	if (i == MC_BASE || i == MC_NEW)
		return xstrdup(who);
	if (i == MC_BASE_RUNS || i == MC_NEW_RUNS)
		return xasprintf("%s runs", who);
	if (i == MC_BASE_BOOTS || i == MC_NEW_BOOTS)
		return xasprintf("%s boots", who);
	return xstrdup(label);
}

/* is_base_col(i): whether MC_ column i is the base side's. */
static bool is_base_col(int i)
{
	return i == MC_BASE || i == MC_BASE_SD || i == MC_BASE_RUNS || i == MC_BASE_BOOTS ||
	       i == MC_BASE_MEDIAN || i == MC_BASE_SITTINGS;
}

/* metric_table(r, m, g): the empty table of metric m, with each new side
 * k's group of columns (where they are into g[k]). */
static struct table *metric_table(const struct rep *r, const struct bd_metric *m, struct mcols *g)
{
	static const char *const cols[MC_N] = { "base", "base_stddev_pct", "new", "new_stddev_pct",
		"change_pct", "interval", "mark", "verdict", "ci_low_pct", "ci_high_pct", "base_runs",
		"new_runs", "base_boots", "new_boots", "base_median", "new_median", "significant",
		"diff_low", "diff_high", "tested_on", "base_sittings", "new_sittings", "machine_explains" };
	static const enum col_type types[MC_N] = { COL_REAL, COL_PCT, COL_REAL, COL_PCT, COL_PCT, COL_STR,
		COL_STR, COL_STR, COL_REAL, COL_REAL, COL_INT, COL_INT, COL_INT, COL_INT, COL_REAL, COL_REAL,
		COL_BOOL, COL_REAL, COL_REAL, COL_STR, COL_INT, COL_INT, COL_INT };
	static const char *const labels[MC_N] = { "base", "%stddev", "new", "%stddev", "%change",
		"95% interval", "sig", "verdict", [MC_BASE_RUNS] = "base runs", "new runs", "base boots",
		"new boots" };
	const struct bench_data *b = &r->sides[0].b;
	char *name = table_name_for(r, "metric_", m->name), *title = xasprintf("%s%s%s%s", m->name,
		*m->unit ? " (" : "", m->unit, *m->unit ? ")" : "");
	struct table *t = table_new(name, title);
	for (size_t i = 0; i < b->nparams; i++)
		table_col(t, b->params[i], COL_STR, 0);
	for (int k = 1; k < r->nsides; k++)
		for (int i = 0; i < MC_N; i++) {
			g[k].c[i] = -1;
			if (k > 1 && is_base_col(i))
				continue;
			char *cn = group_name(r, k, cols[i]), *label = group_label(r, k, i, labels[i]);
			int c = g[k].c[i] = table_col(t, cn, types[i], i == MC_CHANGE ? 2 : 1);
			if (types[i] == COL_REAL)
				table_col_digits(t, c, 4);
			if (label)
				table_col_label(t, c, label);
			if (i == MC_INTERVAL || i == MC_MARK)
				table_col_show(t, c, SHOW_HUMAN);
			if (i == MC_CI_LO || i == MC_CI_HI || i >= MC_BASE_MEDIAN)
				table_col_show(t, c, SHOW_DATA);
			free(cn);
			free(label);
		}
	table_null_text(t, "-");
	table_section(t, "Results");
	free(name);
	free(title);
	return t;
}

/* change_of(row): the %change of the means, NaN when base's mean is 0. */
static double change_of(const struct mrow *row)
{
	return row->pct ? 100 * (row->u[1].mean - row->u[0].mean) / fabs(row->u[0].mean) : NAN;
}

/* set_real(t, g, i, v), set_str, set_int: v into MC_ column i of group g,
 * when the group has it. */
static void set_real(struct table *t, const struct mcols *g, int i, double v)
{
	if (g->c[i] >= 0)
		table_set_real(t, g->c[i], v);
}
static void set_str(struct table *t, const struct mcols *g, int i, const char *v)
{
	if (g->c[i] >= 0)
		table_set_str(t, g->c[i], v);
}
static void set_int(struct table *t, const struct mcols *g, int i, long long v)
{
	if (g->c[i] >= 0)
		table_set_int(t, g->c[i], v);
}

/* interval_cells(t, g, row, unit): the interval's text and numbers. */
static void interval_cells(struct table *t, const struct mcols *g, const struct mrow *row, const char *unit)
{
	double scale = row->pct ? fabs(row->u[0].mean) / 100 : 1;
	if (row->untested) {
		set_str(t, g, MC_INTERVAL, row->untested);
		return;
	}
	char *text = row->pct ? xasprintf("[%+.2f%%, %+.2f%%]", row->ci.lo, row->ci.hi) :
		xasprintf("[%+.4g, %+.4g]%s%s (base 0)", row->ci.lo, row->ci.hi, *unit ? " " : "", unit);
	set_str(t, g, MC_INTERVAL, text);
	free(text);
	if (row->pct) {
		set_real(t, g, MC_CI_LO, row->ci.lo);
		set_real(t, g, MC_CI_HI, row->ci.hi);
	}
	set_real(t, g, MC_DIFF_LO, row->ci.lo * scale);
	set_real(t, g, MC_DIFF_HI, row->ci.hi * scale);
}

/* direction(row): +1 when new's mean is above base's, -1 below, 0 equal. */
static int direction(const struct mrow *row)
{
	return (row->u[1].mean > row->u[0].mean) - (row->u[1].mean < row->u[0].mean);
}

/* side_cells(t, g, row, k, base): side k's (0: base, 1: the new side)
 * mean, %stddev, runs, boots, median and sittings of row into group g,
 * at base's columns or the new side's. */
static void side_cells(struct table *t, const struct mcols *g, const struct mrow *row, int k)
{
	const struct unit *u = &row->u[k];
	if (u->runs) {
		set_real(t, g, MC_BASE + 2 * k, u->mean);
		if (!isnan(u->sd_pct))
			set_real(t, g, MC_BASE_SD + 2 * k, u->sd_pct);
	}
	set_int(t, g, MC_BASE_RUNS + k, (long long)u->runs);
	set_int(t, g, MC_BASE_BOOTS + k, u->boots);
	if (!isnan(u->median))
		set_real(t, g, MC_BASE_MEDIAN + k, u->median);
	set_int(t, g, MC_BASE_SITTINGS + k, u->sittings);
}

/* row_cells(t, g, base, row, m): a pair's cells of a metric table's last
 * row: the new side's and the change into group g; the base's into
 * group base when it is not NULL (the row's first pair). */
static void row_cells(struct table *t, const struct mcols *g, const struct mcols *base, const struct mrow *row,
		      const struct bd_metric *m)
{
	double change = change_of(row);
	if (base)
		side_cells(t, base, row, 0);
	side_cells(t, g, row, 1);
	if (row->u[0].runs && row->u[1].runs && isfinite(change))
		set_real(t, g, MC_CHANGE, change);
	interval_cells(t, g, row, m->unit);
	set_str(t, g, MC_MARK, row->significant && !row->machine ? "*" : "");
	set_str(t, g, MC_VERDICT, row->machine ? row->machine :
		row->significant ? verdict(m->better, direction(row)) : "");
	set_int(t, g, MC_SIGNIFICANT, row->significant);
	set_int(t, g, MC_MACHINE, row->machine != NULL);
	if (!row->untested)
		set_str(t, g, MC_TESTED_ON, tested_on_names[row->on]);
}

/* chart_of(r, mi, rows, n, m): the chart of metric m's runs (its index
 * mi[k] on side k, -1: none). */
static struct table *chart_of(const struct rep *r, const int *mi, const struct rcells *rows, size_t n,
			      const struct bd_metric *m)
{
	char *name = table_name_for(r, "chart_", m->name);
	struct table *t = table_new(name, m->name);
	table_col(t, "cell", COL_STR, 0);
	table_col(t, "side", COL_STR, 0);
	table_col(t, "value", COL_REAL, -1);
	table_style(t, TABLE_CHART);
	table_section(t, "Results");
	table_caption(t, "%s", *m->unit ? m->unit : m->name);
	for (size_t i = 0; i < n; i++) {
		char *cell = rep_cell_text(&r->sides[0].b, (size_t)rows[i].cell[0]);
		for (int k = 0; k < r->nsides; k++) {
			double *v;
			if (rows[i].cell[k] < 0 || mi[k] < 0)
				continue;
			size_t nv = bd_values(&r->sides[k].b, (int)rows[i].cell[k], mi[k], RUN_BARE, -1, &v);
			for (size_t j = 0; j < nv; j++) {
				table_add_row(t);
				table_set_str(t, 0, *cell ? cell : "all");
				table_set_str(t, 1, r->nsides > 2 ? r->sides[k].label : r->sides[k].name);
				table_set_real(t, 2, v[j]);
			}
			free(v);
		}
		free(cell);
	}
	free(name);
	return t;
}

/* summarize(r, m, row): the summary line of a significant row. */
static void summarize(struct rep *r, const struct bd_metric *m, const struct mrow *row)
{
	char *cell = rep_cell_text(&r->side[0].b, row->p.cell[0]), how[160];
	double change = change_of(row);
	snprintf(how, sizeof(how), "%zu runs, %d sitting%s, %d boot%s (base); %zu, %d, %d (%s)%s",
		 row->u[0].runs, row->u[0].sittings, row->u[0].sittings == 1 ? "" : "s", row->u[0].boots,
		 row->u[0].boots == 1 ? "" : "s", row->u[1].runs, row->u[1].sittings, row->u[1].boots,
		 r->side[1].name, row->on == ON_BOOTS ? ", tested on the boots' means" :
		 row->on == ON_SITTINGS ? ", tested on the sittings' means" : "");
	if (row->pct)
		rep_summary(r, change, "%s%s%s: %+.2f%% (95%% interval %+.2f%%..%+.2f%%), %s; %s",
			    m->name, *cell ? ", " : "", cell, change, row->ci.lo, row->ci.hi,
			    verdict(m->better, direction(row)), how);
	else
		rep_summary(r, 100 * direction(row), "%s%s%s: from 0 to %.4g%s%s (95%% interval of the "
			    "difference %+.4g..%+.4g), %s; %s", m->name, *cell ? ", " : "", cell, row->u[1].mean,
			    *m->unit ? " " : "", m->unit, row->ci.lo, row->ci.hi, verdict(m->better, direction(row)),
			    how);
	free(cell);
}

/* unit_of(a, b): what a pair of sides with units a and b is tested on:
 * each boot's mean when both have 3 or more boots in the cell, else each
 * sitting's mean when both have 2 or more sittings, else the runs. */
static enum tested_on unit_of(const struct unit *a, const struct unit *b)
{
	return a->boots >= 3 && b->boots >= 3 ? ON_BOOTS :
	       a->sittings >= 2 && b->sittings >= 2 ? ON_SITTINGS : ON_RUNS;
}

/* units_for(r, row, mi, most): both sides' units of a row, as unit_of
 * says but no further than most (the row's unit over every side). */
static void units_for(const struct rep *r, struct mrow *row, const int *mi, enum tested_on most)
{
	for (int k = 0; k < 2; k++)
		units_of(&r->side[k].b, row->p.cell[k], mi[k], &row->u[k]);
	row->on = unit_of(&row->u[0], &row->u[1]);
	if (row->on > most)
		row->on = most;
	for (int k = 0; row->on != ON_RUNS && k < 2; k++)
		if (row->on == ON_BOOTS)
			boot_units(&r->side[k].b, row->p.cell[k], mi[k], &row->u[k]);
		else
			sitting_units(&r->side[k].b, row->p.cell[k], mi[k], &row->u[k]);
}

/* withheld(r, row, m): the verdict a significant row gets when the
 * machine could explain its change (its own change, or a busy machine
 * under a test on the runs), or NULL. */
static const char *withheld(const struct rep *r, const struct mrow *row, const struct bd_metric *m)
{
	if (!row->significant)
		return NULL;
	static const char *const why[] = { NULL, "machine changed", "machine drift", "machine busy" };
	return why[machine_explains(&r->machine, machine_push(m->better), row->ci, row->pct, row->on == ON_RUNS)];
}

/* Across the rows of every metric: what the notes need to know. */
struct seen {
	bool pooled;		/* a row pooled the runs of several sittings */
	bool one_sitting;	/* a row tested on runs with one sitting a side */
	bool drift;		/* a row withheld for the drift the machine may have had */
	double drift_pct;	/* the largest such drift (of its pair's machine) */
};

/* pivot_of(r, t, m, g): metric m's table t (its groups g) pivoted on
 * --columns, shown in its place (t stays for json and --table). */
static void pivot_of(struct rep *r, struct table *t, const struct bd_metric *m, const struct mcols *g)
{
	int mc[1 + 3 * (REP_MAX_SIDES - 1)];
	char *name = table_name_for(r, "pivot_", m->name);
	mc[0] = g[1].c[MC_BASE];
	for (int k = 1; k < r->nsides; k++) {
		mc[3 * k - 2] = g[k].c[MC_NEW];
		mc[3 * k - 1] = g[k].c[MC_CHANGE];
		mc[3 * k] = g[k].c[MC_MARK];
	}
	table_show(t, SHOW_DATA);
	dv_table(doc_findings(r->d), rep_pivot(t, r, (size_t)r->pivot, mc, name));
	free(name);
}

/* Where one row of cells' results go besides its metric table. */
struct row_out {
	int mi[REP_MAX_SIDES];		/* the metric's index on each side, -1: none */
	double mean[REP_MAX_SIDES], sd[REP_MAX_SIDES], change[REP_MAX_SIDES];	/* --style lkp */
	bool star[REP_MAX_SIDES];
};

/* one_pair(r, m, row, level, seen, o): tests one pair's row (r's current
 * pair); its summary line, and what the notes and the styles need. */
static void one_pair(struct rep *r, const struct bd_metric *m, struct mrow *row, double level, struct seen *seen,
		     struct row_out *o)
{
	int k = r->pair;
	test_row(row, level);
	row->machine = withheld(r, row, m);
	if (row->significant && !row->machine)
		summarize(r, m, row);
	r->nwithheld += row->machine != NULL;
	if (row->machine && !strcmp(row->machine, "machine drift")) {
		seen->drift = true;
		seen->drift_pct = fmax(seen->drift_pct, r->machine.drift);
	}
	if (row->on == ON_RUNS && (row->u[0].sittings > 1 || row->u[1].sittings > 1))
		seen->pooled = true;
	if (row->on == ON_RUNS && row->u[0].sittings == 1 && row->u[1].sittings == 1 && !row->untested)
		seen->one_sitting = true;
	o->mean[k] = row->u[1].runs ? row->u[1].mean : NAN;
	o->sd[k] = row->u[1].sd_pct;
	o->change[k] = row->u[0].runs && row->u[1].runs ? change_of(row) : NAN;
	o->star[k] = row->significant && !row->machine;
	if (isnan(o->mean[0]) && row->u[0].runs) {
		o->mean[0] = row->u[0].mean;
		o->sd[0] = row->u[0].sd_pct;
	}
}

/* row_unit(r, c, mi): the unit every side of a row of cells is tested on:
 * the least that each side with runs there allows with the base (so that
 * every %change is against the one base mean shown). */
static enum tested_on row_unit(const struct rep *r, const struct rcells *c, const int *mi)
{
	enum tested_on most = ON_BOOTS;
	for (int k = 1; k < r->nsides; k++) {
		struct unit a, b;
		if (c->cell[k] < 0 || mi[k] < 0)
			continue;
		units_of(&r->sides[0].b, (size_t)c->cell[0], mi[0], &a);
		units_of(&r->sides[k].b, (size_t)c->cell[k], mi[k], &b);
		if (a.runs && b.runs && unit_of(&a, &b) < most)
			most = unit_of(&a, &b);
		free(a.v);
		free(b.v);
	}
	return most;
}

/* one_row(r, t, g, m, c, level, seen, o): one row of cells of metric m:
 * each pair's test into a row of the table, added when a side has runs
 * there. Returns whether it was. */
static bool one_row(struct rep *r, struct table *t, const struct mcols *g, const struct bd_metric *m,
		    const struct rcells *c, double level, struct seen *seen, struct row_out *o)
{
	const struct bench_data *b = &r->sides[0].b;
	enum tested_on most = row_unit(r, c, o->mi);
	bool added = false;
	for (int k = 0; k < r->nsides; k++)
		o->mean[k] = o->sd[k] = o->change[k] = NAN, o->star[k] = false;
	for (int k = 1; k < r->nsides; k++) {
		if (c->cell[k] < 0 || o->mi[k] < 0)
			continue;
		struct mrow row = { .p = { { (size_t)c->cell[0], (size_t)c->cell[k] } } };
		rep_use_pair(r, k);
		units_for(r, &row, (const int[]){ o->mi[0], o->mi[k] }, most);
		if (row.u[0].runs || row.u[1].runs) {
			if (!added) {
				table_add_row(t);
				for (size_t i = 0; i < b->nparams; i++)
					table_set_str(t, (int)i, bd_cell_value(b, (size_t)c->cell[0], i));
			}
			one_pair(r, m, &row, level, seen, o);
			row_cells(t, &g[k], added ? NULL : &g[1], &row, m);
			added = true;
		}
		free(row.u[0].v);
		free(row.u[1].v);
	}
	return added;
}

/* one_metric(r, m, mi, rows, n, level, seen): metric m's table (its index
 * mi[k] on side k, -1: none), chart and summary lines. */
static void one_metric(struct rep *r, const struct bd_metric *m, const int *mi, const struct rcells *rows,
		       size_t n, double level, struct seen *seen)
{
	struct mcols g[REP_MAX_SIDES];
	struct table *t = metric_table(r, m, g);
	struct row_out o;
	memcpy(o.mi, mi, sizeof(o.mi));
	table_caption(t, "mean of the runs that ended well (of each boot's or sitting's mean, averaged, where "
		      "tested on them); %%stddev: of the runs; %%change: of the means%s; interval: Welch's t on "
		      "the boots' means where both sides have 3 or more boots, else on the sittings' means "
		      "where both have 2 or more sittings, else on the runs, simultaneous over every "
		      "results row%s (each at %.4g%%); * the interval excludes 0 and the machine's own change "
		      "does not explain it; %s is better", r->nsides > 2 ? ", each side's against the base" : "",
		      r->nsides > 2 ? " and side, every side of a row on the same units (what each allows with "
		      "the base, the least of them), so each %change is against the one base mean shown" : "",
		      100 * level,
		      m->better > 0 ? "higher" : m->better < 0 ? "lower" : "neither side said which");
	for (size_t i = 0; i < n; i++) {
		if (!one_row(r, t, g, m, &rows[i], level, seen, &o))
			continue;
		if (r->mm)
			rep_mmtests_add(r->mm, r, m, mi, &rows[i], o.star);
		if (r->lkp)
			rep_lkp_add(r->lkp, r, m->name, (size_t)rows[i].cell[0], o.mean, o.sd, o.change, o.star);
	}
	if (r->mm || r->lkp) {	/* its rows are in the style's table */
		table_free(t);
	} else {
		dv_table(doc_findings(r->d), t);
		if (r->pivot >= 0)
			pivot_of(r, t, m, g);
	}
	dv_table(doc_findings(r->d), chart_of(r, mi, rows, n, m));
	if (m->dist) {
		char *name = table_name_for(r, "shape_", m->name);
		dv_table(doc_findings(r->d), rep_shape_chart(r, m, rows, n, name));
		free(name);
	}
}

/* find_pivot(r, err, errlen): --columns' parameter index into r->pivot
 * (-1 without it); -1 with err when the bench has no such parameter. */
static int find_pivot(struct rep *r, char *err, size_t errlen)
{
	const struct bench_data *b = &r->side[0].b;
	r->pivot = -1;
	if (!r->o->columns)
		return 0;
	for (size_t i = 0; i < b->nparams; i++)
		if (!strcmp(b->params[i], r->o->columns))
			r->pivot = (int)i;
	if (r->pivot < 0)
		snprintf(err, errlen, "--columns %s: the base's bench has no such parameter", r->o->columns);
	return r->pivot < 0 ? -1 : 0;
}

/* metric_indexes(r, m, mi): metric m of the base's bench on every side
 * (-1: not printed there). Returns whether some new side has it. */
static bool metric_indexes(const struct rep *r, size_t m, int *mi)
{
	const char *name = r->sides[0].b.metrics[m].name;
	bool any = false;
	mi[0] = (int)m;
	for (int k = 1; k < REP_MAX_SIDES; k++) {
		mi[k] = k < r->nsides ? bd_metric_index(&r->sides[k].b, name) : -1;
		any |= mi[k] >= 0;
	}
	return any;
}

/* has_runs(b, cell, m): whether metric m has a bare run that ended well
 * in cell of b. */
static bool has_runs(const struct bench_data *b, long cell, int m)
{
	double *v;
	size_t n = bd_values(b, (int)cell, m, RUN_BARE, -1, &v);
	free(v);
	return n > 0;
}

/* count_rows(r, rows, n): the results rows of the report, one a metric,
 * cell and new side where both it and the base have runs (Bonferroni's
 * family: the comparisons the report makes). */
static size_t count_rows(const struct rep *r, const struct rcells *rows, size_t n)
{
	size_t total = 0;
	int mi[REP_MAX_SIDES];
	for (size_t m = 0; m < r->sides[0].b.nmetrics; m++) {
		if (!metric_indexes(r, m, mi) || !wanted(r, r->sides[0].b.metrics[m].name))
			continue;
		for (size_t i = 0; i < n; i++)
			for (int k = 1; k < r->nsides; k++)
				total += rows[i].cell[k] >= 0 && mi[k] >= 0 &&
					 has_runs(&r->sides[0].b, rows[i].cell[0], mi[0]) &&
					 has_runs(&r->sides[k].b, rows[i].cell[k], mi[k]);
	}
	return total;
}

/* check_metrics(r, err, errlen): every --metric is printed on every side. */
static int check_metrics(const struct rep *r, char *err, size_t errlen)
{
	for (size_t i = 0; i < r->o->nmetrics; i++)
		for (int k = 0; k < r->nsides; k++)
			if (bd_metric_index(&r->sides[k].b, r->o->metrics[i]) < 0) {
				snprintf(err, errlen, "no run of %s (%s) printed metric '%s'",
					 r->sides[k].label, r->sides[k].name, r->o->metrics[i]);
				return -1;
			}
	return 0;
}

/* no_bench(r): the first side without a bench, or NULL. */
static const struct rside *no_bench(const struct rep *r)
{
	for (int k = 0; k < r->nsides; k++)
		if (!r->sides[k].have_bench)
			return &r->sides[k];
	return NULL;
}

/* report_headline: see report_int.h. */
int report_headline(struct rep *r, char *err, size_t errlen)
{
	struct rcells *rows;
	const struct rside *lacking = no_bench(r);
	if (lacking) {
		doc_note(r->d, "no results section: %s has no bench (perfdb bench -l LABEL ... records "
			 "one)", lacking->label);
		r->lkp_later = r->o->style == REPORT_STYLE_LKP;	/* for perf-profile rows */
		return 0;
	}
	if (check_metrics(r, err, errlen) || find_pivot(r, err, errlen))
		return -1;
	const struct bench_data *a = &r->sides[0].b;
	size_t n = rows_of(r, &rows), nrows = count_rows(r, rows, n);
	double level = 1 - 0.05 / (double)(nrows ? nrows : 1);
	struct seen seen = { false, false, false, 0 };
	if (!n)
		doc_warn(r->d, "%s share no cell (their parameters differ): no results to compare",
			 r->nsides > 2 ? "the base's bench and the others'" : "the two benches");
	for (int k = 1; n && k < r->nsides; k++) {
		bool any = false;
		for (size_t i = 0; i < n && !any; i++)
			any = rows[i].cell[k] >= 0;
		if (!any)
			doc_warn(r->d, "%s (%s) shares no cell with the base's bench (their parameters differ): "
				 "its columns are empty", r->sides[k].label, r->sides[k].name);
	}
	if (r->o->style == REPORT_STYLE_MMTESTS)
		r->mm = rep_mmtests_table(r);
	if (r->o->style == REPORT_STYLE_LKP)
		r->lkp = rep_lkp_table(r);
	for (size_t m = 0; m < a->nmetrics; m++) {
		int mi[REP_MAX_SIDES];
		if (metric_indexes(r, m, mi) && wanted(r, a->metrics[m].name))
			one_metric(r, &a->metrics[m], mi, rows, n, level, &seen);
	}
	if (r->mm) {
		rep_mmtests_duration(r->mm, r);
		dv_table(doc_findings(r->d), r->mm);
		r->mm = NULL;
	}
	if (r->lkp) {
		r->lkp_shown = dv_table(doc_findings(r->d), r->lkp);
		r->lkp = NULL;
	}
	if (seen.pooled)
		doc_note(r->d, "where one side has a single sitting in a cell and the other several, the row "
			 "is tested on the runs, pooled across the sittings: the variation between sittings "
			 "is not in its interval");
	if (seen.drift)
		doc_note(r->d, "with one sitting a side, a change must clear what the machine may have drifted "
			 "unseen between the sittings: the 95%% interval of its pulse's change reaches %.1f%%%s, "
			 "and a change within that of 0 gets no kernel verdict (\"machine drift\"). More runs "
			 "(more probes), a steadier machine, or 2 or more sittings a side narrow it",
			 seen.drift_pct, r->nsides > 2 ? " (the most of any side's against the base)" : "");
	if (seen.one_sitting)
		doc_note(r->d, "each side ran in one sitting (one perfdb bench on one boot): the intervals "
			 "hold the variation between the runs of a sitting, not the machine's drift from one "
			 "sitting to the next, which can be larger. To put that drift inside them, bench each "
			 "side in 2 or more sittings (the same perfdb bench with --again, later, or after a reboot); "
			 "when the change needs no reboot (a sysctl, a sysfs knob), make it a parameter and "
			 "compare its values within one sitting, interleaved, where the drift cancels");
	dv_int(doc_findings(r->d), "results_rows", (long long)nrows);
	dv_real(doc_findings(r->d), "row_confidence", level);
	dv_str(doc_findings(r->d), "test", "welch-t");
	free(rows);
	return 0;
}
