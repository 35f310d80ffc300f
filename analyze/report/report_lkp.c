/* The results as Intel's 0-day (lkp) mails lay them out (--style lkp):
 * one row per metric and cell, "base ± N%  %change  new ± N%  metric",
 * the ± only where the runs' stddev is above 2% of their mean, as 0-day
 * prints it; the change marked where perfdb's test marks the row (see
 * report_int.h). */
#include <math.h>
#include <stdlib.h>
#include "analyze/report/report_int.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"

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
	struct strbuf ids = STRBUF_INIT;
	for (int k = 0; k < r->nsides; k++) {
		char *head = xasprintf("%s  %%stddev", r->sides[k].label);
		if (k) {
			char *name = k == 1 ? xstrdup("change") : xasprintf("change_%s", r->sides[k].name);
			table_col_label(t, table_col(t, name, COL_STR, 0), "%change");
			free(name);
		}
		table_col_label(t, table_col(t, r->sides[k].name, COL_STR, 0), head);
		sb_printf(&ids, "%s%s (%s)", k ? ", " : "", r->sides[k].label, r->sides[k].name);
		free(head);
	}
	table_col(t, "metric", COL_STR, 0);
	table_section(t, "Results");
	table_caption(t, "commit: %s; the mean of each side's runs, \u00b1 their stddev where above 2%%; "
		      "%%change of the means against the base, * where perfdb's test marks the row (its "
		      "Welch interval, Bonferroni over the report's rows, and the machine's own change: "
		      "not 0-day's rules)", sb_str(&ids));
	sb_free(&ids);
	return t;
}

/* rep_lkp_add: see report_int.h. */
void rep_lkp_add(struct table *t, const struct rep *r, const char *metric, size_t cell, const double *mean,
		 const double *sd_pct, const double *change, const bool *star)
{
	char *ct = rep_cell_text(&r->sides[0].b, cell), *name = xasprintf("%s%s%s", metric, *ct ? "." : "", ct);
	table_add_row(t);
	for (int k = 0; k < r->nsides; k++) {
		char *v = value_text(mean[k], sd_pct[k]);
		table_set_str(t, k ? 2 * k : 0, v);
		free(v);
		if (!k)
			continue;
		char *c = isfinite(change[k]) ? xasprintf("%+.1f%%%s", change[k], star[k] ? " *" : "") : xstrdup("");
		table_set_str(t, 2 * k - 1, c);
		free(c);
	}
	for (char *p = name; *p; p++)
		if (*p == ' ')
			*p = '.';
	table_set_str(t, 2 * r->nsides - 1, name);
	free(name);
	free(ct);
}
