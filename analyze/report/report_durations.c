/* The report's durations: per cell the mean user, system and elapsed
 * seconds of a side's runs, and in a table of their own the totals of all
 * its runs (what mmtests prints as Duration User/System/Elapsed). */
#include <math.h>
#include <stdlib.h>
#include "analyze/report/report_int.h"
#include "lib/alloc.h"

/* totals(b, u, s, w): the sums over every bare run that ended well. */
static void totals(const struct bench_data *b, double *u, double *s, double *w)
{
	*u = *s = *w = 0;
	for (size_t i = 0; i < b->nruns; i++)
		if (b->runs_v[i].ok && b->runs_v[i].kind == RUN_BARE) {
			*u += b->runs_v[i].user_s;
			*s += b->runs_v[i].sys_s;
			*w += b->runs_v[i].wall_s;
		}
}

/* set3(t, c, v): three reals, NULL for NaN. */
static void set3(struct table *t, int c, const double *v)
{
	for (int i = 0; i < 3; i++)
		if (!isnan(v[i]))
			table_set_real(t, c + i, v[i]);
}

/* totals_table(r): the sums of every bare run that ended well, a row a
 * side. */
static struct table *totals_table(const struct rep *r)
{
	static const char *const cols[] = { "user_s", "sys_s", "elapsed_s" };
	static const char *const labels[] = { "user", "system", "elapsed" };
	struct table *t = table_new("duration_totals", "Total durations (every bare run that ended well)");
	table_col(t, "side", COL_STR, 0);
	for (int i = 0; i < 3; i++) {
		int c = table_col(t, cols[i], COL_REAL, 3);
		table_col_label(t, c, labels[i]);
		table_col_digits(t, c, 3);
	}
	table_section(t, "Results");
	for (int k = 0; k < 2; k++) {
		double v[3];
		totals(&r->side[k].b, &v[0], &v[1], &v[2]);
		table_add_row(t);
		table_set_str(t, 0, r->side[k].name);
		set3(t, 1, v);
	}
	return t;
}

/* report_durations: see report_int.h. */
void report_durations(struct rep *r)
{
	static const char *const cols[] = { "base_user_s", "base_sys_s", "base_elapsed_s", "new_user_s",
		"new_sys_s", "new_elapsed_s" };
	static const char *const labels[] = { "base user", "system", "elapsed", "new user", "system",
		"elapsed" };
	if (!r->side[0].have_bench || !r->side[1].have_bench)
		return;
	const struct bench_data *a = &r->side[0].b, *b = &r->side[1].b;
	struct table *t = table_new("durations", "Durations (mean seconds per run)");
	int c0 = (int)a->nparams;
	for (size_t i = 0; i < a->nparams; i++)
		table_col(t, a->params[i], COL_STR, 0);
	for (int i = 0; i < 6; i++) {
		int c = table_col(t, cols[i], COL_REAL, 3);
		char *label = i == 3 ? xasprintf("%s user", r->side[1].name) : xstrdup(labels[i]);
		table_col_label(t, c, label);
		table_col_digits(t, c, 3);
		free(label);
	}
	table_null_text(t, "-");
	table_section(t, "Results");
	for (size_t c = 0; c < a->ncells; c++) {
		double v[2][3];
		size_t k = 0;
		while (k < b->ncells && !rep_same_cell(a, c, b, k))
			k++;
		if (k == b->ncells)
			continue;
		bd_times(a, (int)c, RUN_BARE, &v[0][0], &v[0][1], &v[0][2]);
		bd_times(b, (int)k, RUN_BARE, &v[1][0], &v[1][1], &v[1][2]);
		table_add_row(t);
		for (size_t i = 0; i < a->nparams; i++)
			table_set_str(t, (int)i, bd_cell_value(a, c, i));
		set3(t, c0, v[0]);
		set3(t, c0 + 3, v[1]);
	}
	rep_table(r, t);
	rep_table(r, totals_table(r));
}
