/* The results as Intel's 0-day (lkp) mails lay them out (--style lkp):
 * one row per metric and cell, "base ± N%  %change  new ± N%  metric",
 * the ± only where the runs' stddev is above 2% of their mean, as 0-day
 * prints it; the change marked where perfdb's test marks the row (see
 * report_int.h). */
#include <math.h>
#include <stdlib.h>
#include "analyze/report/report_int.h"
#include "lib/alloc.h"

/* value_text(mean, sd_pct): "202473 ±  2%", or the mean alone. */
static char *value_text(double mean, double sd_pct)
{
	if (!isfinite(mean))
		return xstrdup("-");
	if (isfinite(sd_pct) && sd_pct > 2)
		return xasprintf("%.6g \u00b1 %2.0f%%", mean, sd_pct);
	return xasprintf("%.6g", mean);
}

/* rep_lkp_table: see report_int.h. */
struct table *rep_lkp_table(const struct rep *r)
{
	struct table *t = table_new("lkp", "Results (0-day's layout)");
	char *head[2];
	for (int k = 0; k < 2; k++)
		head[k] = xasprintf("%s  %%stddev", r->side[k].label);
	table_col_label(t, table_col(t, "base", COL_STR, 0), head[0]);
	table_col_label(t, table_col(t, "change", COL_STR, 0), "%change");
	table_col_label(t, table_col(t, "new", COL_STR, 0), head[1]);
	free(head[0]);
	free(head[1]);
	table_col(t, "metric", COL_STR, 0);
	table_section(t, "Results");
	table_caption(t, "commit: %s (base), %s (new); the mean of each side's runs, \u00b1 their stddev "
		      "where above 2%%; %%change of the means, * where perfdb's test marks the row (its "
		      "Welch interval, Bonferroni over the report's rows, and the machine's own change: "
		      "not 0-day's rules)", r->side[0].label, r->side[1].label);
	return t;
}

/* rep_lkp_add: see report_int.h. */
void rep_lkp_add(struct table *t, const struct rep *r, const char *metric, size_t cell, const double mean[2],
		 const double sd_pct[2], double change, bool star)
{
	char *ct = rep_cell_text(&r->side[0].b, cell), *name = xasprintf("%s%s%s", metric, *ct ? "." : "", ct);
	table_add_row(t);
	for (int k = 0; k < 2; k++) {
		char *v = value_text(mean[k], sd_pct[k]);
		table_set_str(t, 2 * k, v);
		free(v);
	}
	char *c = isfinite(change) ? xasprintf("%+.1f%%%s", change, star ? " *" : "") : xstrdup("");
	table_set_str(t, 1, c);
	for (char *p = name; *p; p++)
		if (*p == ' ')
			*p = '.';
	table_set_str(t, 3, name);
	free(c);
	free(name);
	free(ct);
}
