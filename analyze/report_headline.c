/* The report's results: per metric a table of the cells with each side's
 * mean and %stddev, the %change with its simultaneous interval and mark,
 * and a chart of the runs; the durations (see report.h for the test). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/report_int.h"
#include "lib/alloc.h"
#include "lib/stats.h"
#include "lib/strbuf.h"

/* A cell present on both sides. */
struct pair {
	size_t cell[2];
};

/* same_cell(a, ca, b, cb): whether two cells have the same parameters. */
static bool same_cell(const struct bench_data *a, size_t ca, const struct bench_data *b, size_t cb)
{
	if (a->nparams != b->nparams)
		return false;
	for (size_t i = 0; i < a->nparams; i++) {
		size_t k = 0;
		while (k < b->nparams && strcmp(a->params[i], b->params[k]))
			k++;
		if (k == b->nparams || strcmp(bd_cell_value(a, ca, i), bd_cell_value(b, cb, k)))
			return false;
	}
	return true;
}

/* pairs_of(r, out): the cells of base with the same cell on the new side,
 * in base's order; returns their number. */
static size_t pairs_of(const struct rep *r, struct pair **out)
{
	const struct bench_data *a = &r->side[0].b, *b = &r->side[1].b;
	size_t n = 0;
	*out = xcalloc(a->ncells + 1, sizeof(**out));
	for (size_t i = 0; i < a->ncells; i++)
		for (size_t k = 0; k < b->ncells; k++)
			if (same_cell(a, i, b, k)) {
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

/* One side of one row: its units (runs, or boots' means) and summary. */
struct unit {
	double *v;
	size_t n;		/* units tested */
	size_t runs;
	int boots;
	double mean, sd_pct, median;
};

/* units_of(b, cell, m, by_boot, u): a side's values for a row. */
static void units_of(const struct bench_data *b, size_t cell, int m, bool by_boot, struct unit *u)
{
	double *all;
	size_t n = bd_values(b, (int)cell, m, RUN_BARE, -1, &all);
	struct bd_stats s;
	bd_stats_of(b, (int)cell, m, RUN_BARE, &s);
	*u = (struct unit){ .runs = n, .boots = s.boots, .mean = stats_mean(all, n),
		.sd_pct = stats_rel_stddev(all, n), .median = s.median };
	if (!by_boot) {
		u->v = all;
		u->n = n;
		return;
	}
	free(all);
	u->v = xcalloc(b->nboots + 1, sizeof(double));
	for (size_t k = 0; k < b->nboots; k++) {
		double *bv;
		size_t bn = bd_values(b, (int)cell, m, RUN_BARE, (int)k, &bv);
		if (bn)
			u->v[u->n++] = stats_mean(bv, bn);
		free(bv);
	}
}

/* The rows of one metric. */
struct mrow {
	struct pair p;
	struct unit u[2];
	struct interval ci;	/* of the difference of means, in % of base's mean */
	bool tested, significant;
};

/* test_row(row, level): Welch's interval at level; % of base's mean. */
static void test_row(struct mrow *row, double level)
{
	struct unit *a = &row->u[0], *b = &row->u[1];
	row->tested = a->n >= 2 && b->n >= 2 && a->mean != 0 && isfinite(a->mean);
	if (!row->tested)
		return;
	struct interval d = stats_welch(a->v, a->n, b->v, b->n, level);
	row->ci = (struct interval){ 100 * d.lo / fabs(a->mean), 100 * d.hi / fabs(a->mean) };
	row->significant = stats_excludes(row->ci, 0);
}

/* verdict(better, change): what a significant change means. */
static const char *verdict(int better, double change)
{
	if (!better)
		return change > 0 ? "higher" : "lower";
	return (change > 0) == (better > 0) ? "improvement" : "regression";
}

/* safe_name(prefix, name): a table name from a metric name. */
static char *safe_name(const char *prefix, const char *name)
{
	char *s = xasprintf("%s%s", prefix, name);
	for (char *p = s; *p; p++)
		*p = isalnum((unsigned char)*p) ? (char)tolower((unsigned char)*p) : '_';
	return s;
}

/* metric_table(r, m, title): the empty table of metric m. */
static struct table *metric_table(const struct rep *r, const struct bd_metric *m)
{
	const struct bench_data *b = &r->side[0].b;
	char *name = safe_name("metric_", m->name), *title = xasprintf("%s%s%s%s", m->name,
		*m->unit ? " (" : "", m->unit, *m->unit ? ")" : "");
	struct table *t = table_new(name, title);
	static const char *const cols[] = { "base", "base_stddev_pct", "new", "new_stddev_pct",
		"change_pct", "interval", "mark", "verdict", "ci_low_pct", "ci_high_pct", "base_runs",
		"new_runs", "base_boots", "new_boots", "base_median", "new_median", "significant" };
	static const enum col_type types[] = { COL_REAL, COL_PCT, COL_REAL, COL_PCT, COL_PCT, COL_STR,
		COL_STR, COL_STR, COL_REAL, COL_REAL, COL_INT, COL_INT, COL_INT, COL_INT, COL_REAL, COL_REAL,
		COL_INT };
	static const char *const labels[] = { "base", "%stddev", "new", "%stddev", "%change",
		"95% interval", "sig", "verdict", NULL, NULL, "base runs", "new runs", "base boots",
		"new boots", NULL, NULL,
		NULL };
	for (size_t i = 0; i < b->nparams; i++)
		table_col(t, b->params[i], COL_STR, 0);
	for (int i = 0; i < 17; i++) {
		int c = table_col(t, cols[i], types[i], i == 4 ? 2 : 1);
		if (labels[i])
			table_col_label(t, c, labels[i]);
		if (i == 5 || i == 6)
			table_col_show(t, c, SHOW_HUMAN);
		if (i >= 8 && i <= 9)
			table_col_show(t, c, SHOW_DATA);
		if (i >= 14)
			table_col_show(t, c, SHOW_DATA);	/* medians, significant */
	}
	table_null_text(t, "-");
	table_section(t, "Results");
	free(name);
	free(title);
	return t;
}

/* row_cells(t, b, row, better, np): one row of a metric table. */
static void row_cells(struct table *t, const struct bench_data *b, const struct mrow *row, int better)
{
	int c = (int)b->nparams;
	double change = 100 * (row->u[1].mean - row->u[0].mean) / fabs(row->u[0].mean);
	table_add_row(t);
	for (size_t i = 0; i < b->nparams; i++)
		table_set_str(t, (int)i, bd_cell_value(b, row->p.cell[0], i));
	for (int k = 0; k < 2; k++) {
		if (row->u[k].runs) {
			table_set_real(t, c + 2 * k, row->u[k].mean);
			if (!isnan(row->u[k].sd_pct))
				table_set_real(t, c + 2 * k + 1, row->u[k].sd_pct);
		}
		table_set_int(t, c + 10 + k, (long long)row->u[k].runs);
		table_set_int(t, c + 12 + k, row->u[k].boots);
		if (!isnan(row->u[k].median))
			table_set_real(t, c + 14 + k, row->u[k].median);
	}
	if (row->u[0].runs && row->u[1].runs && isfinite(change))
		table_set_real(t, c + 4, change);
	if (row->tested) {
		table_set_strf(t, c + 5, "[%+.2f%%, %+.2f%%]", row->ci.lo, row->ci.hi);
		table_set_real(t, c + 8, row->ci.lo);
		table_set_real(t, c + 9, row->ci.hi);
	} else {
		table_set_str(t, c + 5, "too few runs");
	}
	table_set_str(t, c + 6, row->significant ? "*" : "");
	table_set_str(t, c + 7, row->significant ? verdict(better, change) : "");
	table_set_int(t, c + 16, row->significant);
}

/* chart_of(r, m, pairs, n): the chart of metric m's runs. */
static struct table *chart_of(const struct rep *r, const int *mi, const struct pair *pairs, size_t n,
			      const struct bd_metric *m)
{
	char *name = safe_name("chart_", m->name);
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
	char *cell = rep_cell_text(&r->side[0].b, row->p.cell[0]);
	double change = 100 * (row->u[1].mean - row->u[0].mean) / fabs(row->u[0].mean);
	rep_summary(r, change, "%s%s%s: %+.2f%% (95%% interval %+.2f%%..%+.2f%%), %s; %zu runs x %d "
		    "boot%s (base), %zu x %d (new)", m->name, *cell ? ", " : "", cell, change, row->ci.lo,
		    row->ci.hi, verdict(m->better, change), row->u[0].runs, row->u[0].boots,
		    row->u[0].boots == 1 ? "" : "s", row->u[1].runs, row->u[1].boots);
	free(cell);
}

/* one_metric(r, m, mi, pairs, n, by_boot, level): metric m's table, chart
 * and summary lines. */
static void one_metric(struct rep *r, const struct bd_metric *m, const int *mi, const struct pair *pairs,
		       size_t n, bool by_boot, double level)
{
	struct table *t = metric_table(r, m);
	table_caption(t, "mean of the runs that ended well%s; %%stddev: of the runs; %%change: of the "
		      "means; interval: Welch's t on the %s, simultaneous over every results row "
		      "(each at %.4g%%); * the interval excludes 0; %s is better", by_boot ?
		      " (each boot's mean, averaged)" : "", by_boot ? "boots' means" : "runs",
		      100 * level, m->better > 0 ? "higher" : m->better < 0 ? "lower" : "neither side said which");
	for (size_t i = 0; i < n; i++) {
		struct mrow row = { .p = pairs[i] };
		for (int k = 0; k < 2; k++)
			units_of(&r->side[k].b, pairs[i].cell[k], mi[k], by_boot, &row.u[k]);
		if (row.u[0].runs || row.u[1].runs) {
			test_row(&row, level);
			row_cells(t, &r->side[0].b, &row, m->better);
			if (row.significant)
				summarize(r, m, &row);
		}
		free(row.u[0].v);
		free(row.u[1].v);
	}
	dv_table(doc_findings(r->d), t);
	dv_table(doc_findings(r->d), chart_of(r, mi, pairs, n, m));
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
	if (check_metrics(r, err, errlen))
		return -1;
	size_t n = pairs_of(r, &pairs), rows = count_rows(r, n);
	bool by_boot = a->nboots >= 3 && b->nboots >= 3;
	double level = 1 - 0.05 / (double)(rows ? rows : 1);
	if (!n)
		doc_warn(r->d, "the two benches share no cell (their parameters differ): no results to "
			 "compare");
	if (!by_boot && (a->nboots > 1 || b->nboots > 1))
		doc_note(r->d, "with fewer than 3 boots a side the intervals pool the runs of all boots: "
			 "the variation between boots is not in them");
	for (size_t m = 0; m < a->nmetrics; m++) {
		int mi[2] = { (int)m, bd_metric_index(b, a->metrics[m].name) };
		if (mi[1] >= 0 && wanted(r, a->metrics[m].name))
			one_metric(r, &a->metrics[m], mi, pairs, n, by_boot, level);
	}
	dv_int(doc_findings(r->d), "results_rows", (long long)rows);
	dv_real(doc_findings(r->d), "row_confidence", level);
	dv_str(doc_findings(r->d), "test", by_boot ? "welch-t-boot-means" : "welch-t-runs");
	free(pairs);
	return 0;
}
