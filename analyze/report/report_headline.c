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

/* A cell present on both sides. */
struct pair {
	size_t cell[2];
};

/* pairs_of(r, out): the cells of base with the same cell on the new side,
 * in base's order; returns their number. */
static size_t pairs_of(const struct rep *r, struct pair **out)
{
	const struct bench_data *a = &r->side[0].b, *b = &r->side[1].b;
	size_t n = 0;
	*out = xcalloc(a->ncells + 1, sizeof(**out));
	for (size_t i = 0; i < a->ncells; i++)
		for (size_t k = 0; k < b->ncells; k++)
			if (rep_same_cell(a, i, b, k)) {
				(*out)[n++] = (struct pair){ { i, k } };
				break;
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

/* metric_table(r, m): the empty table of metric m. */
static struct table *metric_table(const struct rep *r, const struct bd_metric *m)
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
	const struct bench_data *b = &r->side[0].b;
	char *name = table_name_for(r, "metric_", m->name), *title = xasprintf("%s%s%s%s", m->name,
		*m->unit ? " (" : "", m->unit, *m->unit ? ")" : "");
	struct table *t = table_new(name, title);
	for (size_t i = 0; i < b->nparams; i++)
		table_col(t, b->params[i], COL_STR, 0);
	for (int i = 0; i < MC_N; i++) {
		int c = table_col(t, cols[i], types[i], i == MC_CHANGE ? 2 : 1);
		if (types[i] == COL_REAL)
			table_col_digits(t, c, 4);
		if (labels[i])
			table_col_label(t, c, labels[i]);
		if (i == MC_INTERVAL || i == MC_MARK)
			table_col_show(t, c, SHOW_HUMAN);
		if (i == MC_CI_LO || i == MC_CI_HI || i >= MC_BASE_MEDIAN)
			table_col_show(t, c, SHOW_DATA);
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

/* interval_cells(t, c, row, unit): the interval's text and numbers. */
static void interval_cells(struct table *t, int c, const struct mrow *row, const char *unit)
{
	double scale = row->pct ? fabs(row->u[0].mean) / 100 : 1;
	if (row->untested) {
		table_set_str(t, c + MC_INTERVAL, row->untested);
		return;
	}
	if (row->pct) {
		table_set_strf(t, c + MC_INTERVAL, "[%+.2f%%, %+.2f%%]", row->ci.lo, row->ci.hi);
		table_set_real(t, c + MC_CI_LO, row->ci.lo);
		table_set_real(t, c + MC_CI_HI, row->ci.hi);
	} else {
		table_set_strf(t, c + MC_INTERVAL, "[%+.4g, %+.4g]%s%s (base 0)", row->ci.lo, row->ci.hi,
			       *unit ? " " : "", unit);
	}
	table_set_real(t, c + MC_DIFF_LO, row->ci.lo * scale);
	table_set_real(t, c + MC_DIFF_HI, row->ci.hi * scale);
}

/* direction(row): +1 when new's mean is above base's, -1 below, 0 equal. */
static int direction(const struct mrow *row)
{
	return (row->u[1].mean > row->u[0].mean) - (row->u[1].mean < row->u[0].mean);
}

/* row_cells(t, b, row, m): one row of a metric table. */
static void row_cells(struct table *t, const struct bench_data *b, const struct mrow *row,
		      const struct bd_metric *m)
{
	int c = (int)b->nparams;
	double change = change_of(row);
	table_add_row(t);
	for (size_t i = 0; i < b->nparams; i++)
		table_set_str(t, (int)i, bd_cell_value(b, row->p.cell[0], i));
	for (int k = 0; k < 2; k++) {
		if (row->u[k].runs) {
			table_set_real(t, c + MC_BASE + 2 * k, row->u[k].mean);
			if (!isnan(row->u[k].sd_pct))
				table_set_real(t, c + MC_BASE_SD + 2 * k, row->u[k].sd_pct);
		}
		table_set_int(t, c + MC_BASE_RUNS + k, (long long)row->u[k].runs);
		table_set_int(t, c + MC_BASE_BOOTS + k, row->u[k].boots);
		if (!isnan(row->u[k].median))
			table_set_real(t, c + MC_BASE_MEDIAN + k, row->u[k].median);
	}
	if (row->u[0].runs && row->u[1].runs && isfinite(change))
		table_set_real(t, c + MC_CHANGE, change);
	interval_cells(t, c, row, m->unit);
	table_set_str(t, c + MC_MARK, row->significant && !row->machine ? "*" : "");
	table_set_str(t, c + MC_VERDICT, row->machine ? row->machine :
		      row->significant ? verdict(m->better, direction(row)) : "");
	table_set_int(t, c + MC_SIGNIFICANT, row->significant);
	table_set_int(t, c + MC_MACHINE, row->machine != NULL);
	if (!row->untested)
		table_set_str(t, c + MC_TESTED_ON, tested_on_names[row->on]);
	table_set_int(t, c + MC_BASE_SITTINGS, row->u[0].sittings);
	table_set_int(t, c + MC_NEW_SITTINGS, row->u[1].sittings);
}

/* chart_of(r, m, pairs, n): the chart of metric m's runs. */
static struct table *chart_of(const struct rep *r, const int *mi, const struct pair *pairs, size_t n,
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
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 2; k++) {
			const struct bench_data *b = &r->side[k].b;
			double *v;
			char *cell = rep_cell_text(&r->side[0].b, pairs[i].cell[0]);
			size_t nv = bd_values(b, (int)pairs[i].cell[k], mi[k], RUN_BARE, -1, &v);
			for (size_t j = 0; j < nv; j++) {
				table_add_row(t);
				table_set_str(t, 0, *cell ? cell : "all");
				table_set_str(t, 1, r->side[k].name);
				table_set_real(t, 2, v[j]);
			}
			free(v);
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
	snprintf(how, sizeof(how), "%zu runs, %d sitting%s, %d boot%s (base); %zu, %d, %d (new)%s",
		 row->u[0].runs, row->u[0].sittings, row->u[0].sittings == 1 ? "" : "s", row->u[0].boots,
		 row->u[0].boots == 1 ? "" : "s", row->u[1].runs, row->u[1].sittings, row->u[1].boots,
		 row->on == ON_BOOTS ? ", tested on the boots' means" :
		 row->on == ON_SITTINGS ? ", tested on the sittings' means" : "");
	if (row->pct)
		rep_summary(r, change, "%s%s%s: %+.2f%% (95%% interval %+.2f%%..%+.2f%%), %s; %s", m->name,
			    *cell ? ", " : "", cell, change, row->ci.lo, row->ci.hi,
			    verdict(m->better, direction(row)), how);
	else
		rep_summary(r, 100 * direction(row), "%s%s%s: from 0 to %.4g%s%s (95%% interval of the "
			    "difference %+.4g..%+.4g), %s; %s", m->name, *cell ? ", " : "", cell, row->u[1].mean,
			    *m->unit ? " " : "", m->unit, row->ci.lo, row->ci.hi, verdict(m->better, direction(row)),
			    how);
	free(cell);
}

/* units_for(r, row, mi): both sides' units of a row: each boot's mean
 * when both sides have 3 or more boots in the cell, else each sitting's
 * mean when both have 2 or more sittings, else the runs. */
static void units_for(const struct rep *r, struct mrow *row, const int *mi)
{
	for (int k = 0; k < 2; k++)
		units_of(&r->side[k].b, row->p.cell[k], mi[k], &row->u[k]);
	row->on = row->u[0].boots >= 3 && row->u[1].boots >= 3 ? ON_BOOTS :
		  row->u[0].sittings >= 2 && row->u[1].sittings >= 2 ? ON_SITTINGS : ON_RUNS;
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
};

/* pivot_of(r, t, m): metric m's table t pivoted on --columns, shown in
 * its place (t stays for json and --table). */
static void pivot_of(struct rep *r, struct table *t, const struct bd_metric *m)
{
	int c = (int)r->side[0].b.nparams;
	const int mc[4] = { c + MC_BASE, c + MC_NEW, c + MC_CHANGE, c + MC_MARK };
	char *name = table_name_for(r, "pivot_", m->name);
	table_show(t, SHOW_DATA);
	dv_table(doc_findings(r->d), rep_pivot(t, &r->side[0].b, (size_t)r->pivot, mc, name));
	free(name);
}

/* one_metric(r, m, mi, pairs, n, level, seen): metric m's table, chart
 * and summary lines. */
static void one_metric(struct rep *r, const struct bd_metric *m, const int *mi, const struct pair *pairs,
		       size_t n, double level, struct seen *seen)
{
	struct table *t = metric_table(r, m);
	table_caption(t, "mean of the runs that ended well (of each boot's or sitting's mean, averaged, where "
		      "tested on them); %%stddev: of the runs; %%change: of the means; interval: Welch's t on "
		      "the boots' means where both sides have 3 or more boots, else on the sittings' means "
		      "where both have 2 or more sittings, else on the runs, simultaneous over every "
		      "results row (each at %.4g%%); * the interval excludes 0 and the machine's own change "
		      "does not explain it; %s is better", 100 * level,
		      m->better > 0 ? "higher" : m->better < 0 ? "lower" : "neither side said which");
	for (size_t i = 0; i < n; i++) {
		struct mrow row = { .p = pairs[i] };
		units_for(r, &row, mi);
		if (row.u[0].runs || row.u[1].runs) {
			test_row(&row, level);
			row.machine = withheld(r, &row, m);
			row_cells(t, &r->side[0].b, &row, m);
			if (r->mm)
				rep_mmtests_add(r->mm, r, m, mi, pairs[i].cell, row.significant && !row.machine);
			if (r->lkp)
				rep_lkp_add(r->lkp, r, m->name, pairs[i].cell[0],
					    (double[]){ row.u[0].runs ? row.u[0].mean : NAN, row.u[1].runs ? row.u[1].mean : NAN },
					    (double[]){ row.u[0].sd_pct, row.u[1].sd_pct },
					    row.u[0].runs && row.u[1].runs ? change_of(&row) : NAN,
					    row.significant && !row.machine);
			if (row.significant && !row.machine)
				summarize(r, m, &row);
			r->nwithheld += row.machine != NULL;
			seen->drift |= row.machine && !strcmp(row.machine, "machine drift");
			if (row.on == ON_RUNS && (row.u[0].sittings > 1 || row.u[1].sittings > 1))
				seen->pooled = true;
			if (row.on == ON_RUNS && row.u[0].sittings == 1 && row.u[1].sittings == 1 && !row.untested)
				seen->one_sitting = true;
		}
		free(row.u[0].v);
		free(row.u[1].v);
	}
	if (r->mm || r->lkp) {	/* its rows are in the style's table */
		table_free(t);
	} else {
		dv_table(doc_findings(r->d), t);
		if (r->pivot >= 0)
			pivot_of(r, t, m);
	}
	dv_table(doc_findings(r->d), chart_of(r, mi, pairs, n, m));
	if (m->dist) {
		char *name = table_name_for(r, "shape_", m->name);
		size_t *cells = xcalloc(2 * n + 1, sizeof(*cells));
		for (size_t i = 0; i < n; i++) {
			cells[2 * i] = pairs[i].cell[0];
			cells[2 * i + 1] = pairs[i].cell[1];
		}
		dv_table(doc_findings(r->d), rep_shape_chart(r, m, cells, n, name));
		free(cells);
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

/* count_rows(r, n): the results rows (n cells a metric) of the report (Bonferroni's
 * family). */
static size_t count_rows(const struct rep *r, size_t n)
{
	size_t rows = 0;
	const struct bench_data *a = &r->side[0].b, *b = &r->side[1].b;
	for (size_t m = 0; m < a->nmetrics; m++) {
		int k = bd_metric_index(b, a->metrics[m].name);
		if (k >= 0 && wanted(r, a->metrics[m].name))
			rows += n;
	}
	return rows;
}

/* check_metrics(r, err, errlen): every --metric is printed on both sides. */
static int check_metrics(const struct rep *r, char *err, size_t errlen)
{
	for (size_t i = 0; i < r->o->nmetrics; i++)
		for (int k = 0; k < 2; k++)
			if (bd_metric_index(&r->side[k].b, r->o->metrics[i]) < 0) {
				snprintf(err, errlen, "no run of %s (%s) printed metric '%s'",
					 r->side[k].label, r->side[k].name, r->o->metrics[i]);
				return -1;
			}
	return 0;
}

/* report_headline: see report_int.h. */
int report_headline(struct rep *r, char *err, size_t errlen)
{
	struct pair *pairs;
	const struct bench_data *a = &r->side[0].b, *b = &r->side[1].b;
	if (!r->side[0].have_bench || !r->side[1].have_bench) {
		doc_note(r->d, "no results section: %s has no bench (perfdb bench -l LABEL ... records "
			 "one)", !r->side[0].have_bench ? r->side[0].label : r->side[1].label);
		return 0;
	}
	if (check_metrics(r, err, errlen) || find_pivot(r, err, errlen))
		return -1;
	size_t n = pairs_of(r, &pairs), rows = count_rows(r, n);
	double level = 1 - 0.05 / (double)(rows ? rows : 1);
	struct seen seen = { false, false, false };
	if (!n)
		doc_warn(r->d, "the two benches share no cell (their parameters differ): no results to "
			 "compare");
	if (r->o->style == REPORT_STYLE_MMTESTS)
		r->mm = rep_mmtests_table(r);
	if (r->o->style == REPORT_STYLE_LKP)
		r->lkp = rep_lkp_table(r);
	for (size_t m = 0; m < a->nmetrics; m++) {
		int mi[2] = { (int)m, bd_metric_index(b, a->metrics[m].name) };
		if (mi[1] >= 0 && wanted(r, a->metrics[m].name))
			one_metric(r, &a->metrics[m], mi, pairs, n, level, &seen);
	}
	if (r->mm) {
		rep_mmtests_duration(r->mm, r);
		dv_table(doc_findings(r->d), r->mm);
		r->mm = NULL;
	}
	if (r->lkp) {
		dv_table(doc_findings(r->d), r->lkp);
		r->lkp = NULL;
	}
	if (seen.pooled)
		doc_note(r->d, "where one side has a single sitting in a cell and the other several, the row "
			 "is tested on the runs, pooled across the sittings: the variation between sittings "
			 "is not in its interval");
	if (seen.drift)
		doc_note(r->d, "with one sitting a side, a change must clear what the machine may have drifted "
			 "unseen between the sittings: the 95%% interval of its pulse's change reaches %.1f%%, "
			 "and a change within that of 0 gets no kernel verdict (\"machine drift\"). More runs "
			 "(more probes), a steadier machine, or 2 or more sittings a side narrow it",
			 r->machine.drift);
	if (seen.one_sitting)
		doc_note(r->d, "each side ran in one sitting (one perfdb bench on one boot): the intervals "
			 "hold the variation between the runs of a sitting, not the machine's drift from one "
			 "sitting to the next, which can be larger. To put that drift inside them, bench each "
			 "side in 2 or more sittings (the same perfdb bench with --again, later, or after a reboot); "
			 "when the change needs no reboot (a sysctl, a sysfs knob), make it a parameter and "
			 "compare its values within one sitting, interleaved, where the drift cancels");
	dv_int(doc_findings(r->d), "results_rows", (long long)rows);
	dv_real(doc_findings(r->d), "row_confidence", level);
	dv_str(doc_findings(r->d), "test", "welch-t");
	free(pairs);
	return 0;
}
