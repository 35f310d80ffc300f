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

/* add_row(t, r, stat, what, s, higher, star): one statistic's row: each
 * side's value s[k] (NaN: none) with its gain against the base, starred
 * where star[k] (NULL: none). */
static void add_row(struct table *t, const struct rep *r, const char *stat, const char *what, const double *s,
		    bool higher, const bool *star)
{
	table_add_row(t);
	table_set_str(t, 0, stat);
	table_set_str(t, 1, what);
	for (int k = 0; k < r->nsides; k++) {
		char *c = cell_text(s[k], k ? gain(s[0], s[k], higher) : (isfinite(s[0]) ? 0 : NAN),
				    k && star && star[k]);
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
	table_col_label(t, 0, "");
	table_col_label(t, 1, "");
	for (int k = 0; k < r->nsides; k++)
		table_col_label(t, table_col(t, r->sides[k].name, COL_STR, 0), r->sides[k].label);
	table_section(t, "Results");
	table_caption(t, "each side's bare runs that ended well; (x.xx%%) the gain against the base, "
		      "positive when better; * where perfdb's test marks the row (its Welch interval, "
		      "Bonferroni over the report's rows, and the machine's own change: not mmtests' or "
		      "0-day's rules); Amean, or Hmean where higher is better");
	return t;
}

/* rep_mmtests_add: see report_int.h. */
void rep_mmtests_add(struct table *t, const struct rep *r, const struct bd_metric *m, const int *mi,
		     const struct rcells *c, const bool *star)
{
	struct mm_stats s[REP_MAX_SIDES];
	double v6[6][REP_MAX_SIDES];
	bool higher = m->better > 0;
	char *ct = rep_cell_text(&r->sides[0].b, (size_t)c->cell[0]);
	char *what = xasprintf("%s%s%s", m->name, *ct ? " " : "", ct);
	for (int k = 0; k < r->nsides; k++) {
		double *v = NULL;
		size_t n = c->cell[k] >= 0 && mi[k] >= 0 ?
			bd_values(&r->sides[k].b, (int)c->cell[k], mi[k], RUN_BARE, -1, &v) : 0;
		s[k] = (struct mm_stats){ .mean = NAN, .stddev = NAN, .coeffvar = NAN, .max = NAN,
					  .bamean95 = NAN, .bamean99 = NAN, .n = 0 };
		if (n)
			stats_of(v, n, higher, &s[k]);
		free(v);
		v6[0][k] = s[k].mean;
		v6[1][k] = s[k].stddev;
		v6[2][k] = s[k].coeffvar;
		v6[3][k] = s[k].max;
		v6[4][k] = s[k].bamean95;
		v6[5][k] = s[k].bamean99;
	}
	add_row(t, r, higher ? "Hmean" : "Amean", what, v6[0], higher, star);
	add_row(t, r, "Stddev", what, v6[1], false, NULL);
	add_row(t, r, "CoeffVar", what, v6[2], false, NULL);
	add_row(t, r, "Max", what, v6[3], higher, NULL);
	add_row(t, r, "BAmean-95", what, v6[4], higher, NULL);
	add_row(t, r, "BAmean-99", what, v6[5], higher, NULL);
	free(what);
	free(ct);
}

/* rep_mmtests_duration: see report_int.h. */
void rep_mmtests_duration(struct table *t, const struct rep *r)
{
	static const char *const names[] = { "User", "System", "Elapsed" };
	for (int w = 0; w < 3; w++) {
		table_add_row(t);
		table_set_str(t, 0, "Duration");
		table_set_str(t, 1, names[w]);
		for (int k = 0; k < r->nsides; k++) {
			const struct bench_data *b = &r->sides[k].b;
			double sum = 0;
			for (size_t i = 0; i < b->nruns; i++) {
				const struct bd_run *u = &b->runs_v[i];
				if (u->kind == RUN_BARE && u->ok)
					sum += w == 0 ? u->user_s : w == 1 ? u->sys_s : u->wall_s;
			}
			char *c = xasprintf("%.2f", sum);
			table_set_str(t, 2 + k, c);
			free(c);
		}
	}
}
