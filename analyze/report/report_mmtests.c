/* The results as mmtests' compare-kernels lays them out (--style
 * mmtests): per metric and cell the rows Amean (Hmean where higher is
 * better), Stddev, CoeffVar, Max, BAmean-95 and BAmean-99 of each side's
 * runs, each side a column headed by its label, every value beside its
 * change against the base, "(  x.xx%)", starred "*  x.xx%*" on the mean
 * row where perfdb's test marks the row; then the Duration rows (see
 * report_int.h). The change is compare-kernels' gain: positive when the
 * new side is better (lower-is-better values: base - new over base),
 * and for Stddev and CoeffVar when the new one is smaller. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "analyze/report/report_int.h"
#include "lib/alloc.h"
#include "lib/dist.h"

/* One side's statistics of one metric in one cell. */
struct mm_stats {
	double mean, stddev, coeffvar, max, bamean95, bamean99;
	size_t n;
};

/* hmean(v, n): the harmonic mean (NaN when a value is not positive). */
static double hmean(const double *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i] <= 0)
			return NAN;
		s += 1 / v[i];
	}
	return (double)n / s;
}

/* stats_of(v, n, higher, s): the runs' statistics (v is sorted). */
static void stats_of(double *v, size_t n, bool higher, struct mm_stats *s)
{
	struct dist_summary d;
	dist_summarize(v, n, !higher, &d);
	s->n = n;
	s->mean = higher ? hmean(v, n) : d.mean;
	s->stddev = d.stddev;
	s->coeffvar = d.mean ? 100 * d.stddev / d.mean : NAN;
	s->max = d.max;
	s->bamean95 = d.bamean95;
	s->bamean99 = d.bamean99;
}

/* gain(base, new, higher): compare-kernels' %: positive when new is
 * better (higher: above base; else below). */
static double gain(double base, double new, bool higher)
{
	if (!base || !isfinite(base) || !isfinite(new))
		return NAN;
	return 100 * (higher ? new - base : base - new) / fabs(base);
}

/* cell_text(v, pct, star): "  11.0000 (   0.00%)" or "  33.0000 *-200.00%*". */
static char *cell_text(double v, double pct, bool star)
{
	if (!isfinite(v))
		return xstrdup("-");
	if (!isfinite(pct))
		return xasprintf("%.4f (      -)", v);
	return star ? xasprintf("%.4f *%7.2f%%*", v, pct) : xasprintf("%.4f (%7.2f%%)", v, pct);
}

/* add_row(t, stat, what, s, higher, star): one statistic's row. */
static void add_row(struct table *t, const char *stat, const char *what, const double s[2], bool higher,
		    bool star)
{
	table_add_row(t);
	table_set_str(t, 0, stat);
	table_set_str(t, 1, what);
	for (int k = 0; k < 2; k++) {
		char *c = cell_text(s[k], k ? gain(s[0], s[1], higher) : (isfinite(s[0]) ? 0 : NAN), k && star);
		table_set_str(t, 2 + k, c);
		free(c);
	}
}

/* rep_mmtests_table: see report_int.h. */
struct table *rep_mmtests_table(const struct rep *r)
{
	struct table *t = table_new("mmtests", "Results (mmtests' compare-kernels layout)");
	table_col(t, "stat", COL_STR, 0);
	table_col(t, "metric", COL_STR, 0);
	table_col(t, "base", COL_STR, 0);
	table_col(t, "new", COL_STR, 0);
	table_col_label(t, 0, "");
	table_col_label(t, 1, "");
	table_col_label(t, 2, r->side[0].label);
	table_col_label(t, 3, r->side[1].label);
	table_section(t, "Results");
	table_caption(t, "each side's bare runs that ended well; (x.xx%%) the gain against the base, "
		      "positive when better; * where perfdb's test marks the row (its Welch interval, "
		      "Bonferroni over the report's rows, and the machine's own change: not mmtests' or "
		      "0-day's rules); Amean, or Hmean where higher is better");
	return t;
}

/* rep_mmtests_add: see report_int.h. */
void rep_mmtests_add(struct table *t, const struct rep *r, const struct bd_metric *m, const int *mi,
		     const size_t cell[2], bool star)
{
	struct mm_stats s[2];
	bool higher = m->better > 0;
	char *ct = rep_cell_text(&r->side[0].b, cell[0]);
	char *what = xasprintf("%s%s%s", m->name, *ct ? " " : "", ct);
	for (int k = 0; k < 2; k++) {
		double *v;
		size_t n = bd_values(&r->side[k].b, (int)cell[k], mi[k], RUN_BARE, -1, &v);
		s[k] = (struct mm_stats){ .mean = NAN, .stddev = NAN, .coeffvar = NAN, .max = NAN,
					  .bamean95 = NAN, .bamean99 = NAN, .n = 0 };
		if (n)
			stats_of(v, n, higher, &s[k]);
		free(v);
	}
	add_row(t, higher ? "Hmean" : "Amean", what, (double[]){ s[0].mean, s[1].mean }, higher, star);
	add_row(t, "Stddev", what, (double[]){ s[0].stddev, s[1].stddev }, false, false);
	add_row(t, "CoeffVar", what, (double[]){ s[0].coeffvar, s[1].coeffvar }, false, false);
	add_row(t, "Max", what, (double[]){ s[0].max, s[1].max }, higher, false);
	add_row(t, "BAmean-95", what, (double[]){ s[0].bamean95, s[1].bamean95 }, higher, false);
	add_row(t, "BAmean-99", what, (double[]){ s[0].bamean99, s[1].bamean99 }, higher, false);
	free(what);
	free(ct);
}

/* rep_mmtests_duration: see report_int.h. */
void rep_mmtests_duration(struct table *t, const struct rep *r)
{
	static const char *const names[] = { "User", "System", "Elapsed" };
	for (int w = 0; w < 3; w++) {
		double sum[2] = { 0, 0 };
		for (int k = 0; k < 2; k++) {
			const struct bench_data *b = &r->side[k].b;
			for (size_t i = 0; i < b->nruns; i++) {
				const struct bd_run *u = &b->runs_v[i];
				if (u->kind == RUN_BARE && u->ok)
					sum[k] += w == 0 ? u->user_s : w == 1 ? u->sys_s : u->wall_s;
			}
		}
		table_add_row(t);
		table_set_str(t, 0, "Duration");
		table_set_str(t, 1, names[w]);
		for (int k = 0; k < 2; k++) {
			char *c = xasprintf("%.2f", sum[k]);
			table_set_str(t, 2 + k, c);
			free(c);
		}
	}
}
