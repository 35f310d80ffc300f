/* The results as Intel's 0-day (lkp) mails lay them out (--style lkp):
 * one row per metric and cell, "base ± N%  %change  new ± N%  metric"
 * (each further side's %change and value after the first's), the ± only
 * where the runs' stddev is above 2% of their mean, as 0-day prints it;
 * the change marked where perfdb's test marks the row; then 0-day's
 * perf-profile rows from the call-graph diff (see report_int.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/callgraph/cgdiff.h"
#include "analyze/report/report_int.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"

/* One perf-profile row: a call path's share on each side (NaN: not
 * compared there), the change of each new side in points, and whether
 * perfdb's test marks it. */
struct lkp_prof {
	char *name;		/* its whole path, callers first (the key) */
	char *shown;		/* 0-day's name: the frame, then up to 4 of its callers */
	double share[REP_MAX_SIDES], delta[REP_MAX_SIDES];
	bool star[REP_MAX_SIDES];
	bool keep;		/* among a pair's largest marked changes */
	double score;		/* the largest marked |delta| */
};

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
		      "perf-profile rows: each side's share of the samples through the call path, in %%, "
		      "its change in points (the call-graph diff's rows perfdb's test marks); "
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

/* prof_of(r, name, shown): the kept row of path name, added when new
 * (shown as shown). */
static struct lkp_prof *prof_of(struct rep *r, const char *name, const char *shown)
{
	for (size_t i = 0; i < r->nprof; i++)
		if (!strcmp(r->prof[i].name, name))
			return &r->prof[i];
	ALLOC_GROW(r->prof, r->nprof + 1, r->prof_cap);
	struct lkp_prof *p = &r->prof[r->nprof++];
	*p = (struct lkp_prof){ .name = xstrdup(name), .shown = xstrdup(shown) };
	for (int k = 0; k < REP_MAX_SIDES; k++)
		p->share[k] = p->delta[k] = NAN;
	return p;
}

/* by_delta(a, b): qsort order of call-graph rows, largest |delta| first. */
static int by_delta(const void *a, const void *b)
{
	double x = fabs((*(const struct cg_row *const *)a)->delta_pct);
	double y = fabs((*(const struct cg_row *const *)b)->delta_pct);
	return (x < y) - (x > y);
}

/* rep_lkp_profile_add: see report_int.h. Every path's shares are kept
 * (a path marked in one pair shows the others' shares too). */
void rep_lkp_profile_add(struct rep *r, const struct cgdiff *d)
{
	const char **path = xcalloc(d->nrows + 1, sizeof(*path));
	const struct cg_row **top = xcalloc(d->nrows + 1, sizeof(*top));
	char **names = xcalloc(d->nrows + 1, sizeof(*names));
	size_t ntop = 0;
	char **shown = xcalloc(d->nrows + 1, sizeof(*shown));
	int cut = (int)strcspn(d->event, "/");
	for (size_t i = 0; i < d->nrows; i++) {	/* each row's path, callers first, and 0-day's name */
		const struct cg_row *w = &d->rows[i];
		struct strbuf b = STRBUF_INIT, c = STRBUF_INIT;
		if (w->depth < 0 || (size_t)w->depth >= d->nrows)
			continue;	/* a row's callers are the rows before it */
		path[w->depth] = cgdiff_row_name(d, w);
		for (int k = 0; k <= w->depth; k++)
			sb_printf(&b, "%s%s", k ? ";" : "", path[k]);
		sb_printf(&c, "perf-profile.calltrace.%.*s", cut, d->event);
		for (int k = w->depth; k >= 0 && k > w->depth - 5; k--)
			sb_printf(&c, ".%s", path[k]);
		names[i] = sb_take(&b);
		shown[i] = sb_take(&c);
		if (w->significant)
			top[ntop++] = w;
	}
	qsort(top, ntop, sizeof(*top), by_delta);
	for (size_t i = 0; i < d->nrows; i++) {	/* every path's shares, for the rows kept */
		const struct cg_row *w = &d->rows[i];
		if (!names[i])
			continue;
		struct lkp_prof *p = prof_of(r, names[i], shown[i]);
		if (isnan(p->share[0]))
			p->share[0] = w->base_pct;
		p->share[r->pair] = w->new_pct;
		p->delta[r->pair] = w->delta_pct;
		p->star[r->pair] = w->significant;
	}
	for (size_t i = 0; i < ntop && i < 20; i++) {
		size_t j = (size_t)(top[i] - d->rows);
		struct lkp_prof *p = prof_of(r, names[j], shown[j]);
		p->keep = true;
		p->score = fmax(p->score, fabs(top[i]->delta_pct));
	}
	for (size_t i = 0; i < d->nrows; i++) {
		free(names[i]);
		free(shown[i]);
	}
	free(names);
	free(shown);
	free(top);
	free(path);
}

/* by_score(a, b): qsort order of kept rows, largest change first. */
static int by_score(const void *a, const void *b)
{
	double x = ((const struct lkp_prof *)a)->score, y = ((const struct lkp_prof *)b)->score;
	return (x < y) - (x > y);
}

/* share_text(v): "12.34", or "-". */
static char *share_text(double v)
{
	return isfinite(v) ? xasprintf("%.2f", v) : xstrdup("-");
}

/* rep_lkp_profile: see report_int.h. */
void rep_lkp_profile(struct rep *r)
{
	bool kept = false;
	for (size_t i = 0; i < r->nprof; i++)
		kept |= r->prof[i].keep;
	if (kept && r->lkp_later && !r->lkp_shown) {	/* no results: the rows in the evidence */
		struct table *t = rep_lkp_table(r);
		table_set_title(t, "perf-profile rows (0-day's layout)");
		table_section(t, "Evidence: call graph");
		r->lkp_shown = dv_table(doc_findings(r->d), t);
	}
	if (r->nprof)
		qsort(r->prof, r->nprof, sizeof(*r->prof), by_score);
	for (size_t i = 0; r->lkp_shown && i < r->nprof; i++) {
		const struct lkp_prof *p = &r->prof[i];
		if (!p->keep)
			continue;
		table_add_row(r->lkp_shown);
		for (int k = 0; k < r->nsides; k++) {
			char *v = share_text(p->share[k]);
			table_set_str(r->lkp_shown, k ? 2 * k : 0, v);
			free(v);
			if (!k)
				continue;
			v = isfinite(p->delta[k]) ? xasprintf("%+.1f%s", p->delta[k], p->star[k] ? " *" : "") :
				xstrdup("");
			table_set_str(r->lkp_shown, 2 * k - 1, v);
			free(v);
		}
		table_set_str(r->lkp_shown, 2 * r->nsides - 1, p->shown);
	}
	for (size_t i = 0; i < r->nprof; i++) {
		free(r->prof[i].name);
		free(r->prof[i].shown);
	}
	free(r->prof);
	r->prof = NULL;
	r->nprof = r->prof_cap = 0;
}
