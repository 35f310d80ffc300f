/* `perfdb report` as findings: the sections in order (see report.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/report/report_int.h"
#include "analyze/session_info.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "schema/db.h"

/* run_sessions(s): a narrowed side's sessions: its runs' recordings. */
static void run_sessions(struct rside *s)
{
	s->sessions = xcalloc(s->b.nruns + 1, sizeof(int64_t));
	s->nsessions = 0;
	for (size_t i = 0; i < s->b.nruns; i++)
		if (s->b.runs_v[i].session)
			s->sessions[s->nsessions++] = s->b.runs_v[i].session;
}

/* load_side(r, s, name, label, err, errlen): a side's bench and sessions
 * (label LABEL, or LABEL:NAME=V,... for some cells of its bench). 0, or
 * -1 when it has neither, or its cells are not there. */
static int load_side(struct rep *r, struct rside *s, const char *name, const char *label,
		     char *err, size_t errlen)
{
	char why[512];
	const char *colon = strchr(label, ':');
	s->name = name;
	s->label = label;
	s->bench_label = colon ? xstrndup(label, (size_t)(colon - label)) : xstrdup(label);
	s->have_bench = !bench_data_load(r->db, s->bench_label, r->o->stat, &s->b, why, sizeof(why));
	if (colon && (!s->have_bench || bench_data_narrow(&s->b, colon + 1, err, errlen))) {
		if (!s->have_bench) {
			snprintf(err, errlen, "'%s' (%s): %s has no bench to take cells of", label, name,
				 s->bench_label);
			bench_data_free(&s->b);
		}
		return -1;
	}
	if (!s->have_bench)
		bench_data_free(&s->b);
	if (colon)
		run_sessions(s);
	else if ((s->nsessions = db_resolve_sessions(r->db, label, &s->sessions)) < 0)
		s->nsessions = 0;
	if (!s->have_bench && !s->nsessions) {
		snprintf(err, errlen, "'%s' (%s) names neither a bench nor a session", label, name);
		return -1;
	}
	session_info_add(doc_sessions(r->d), r->db, s->sessions, s->nsessions, name);
	return 0;
}

const char *const report_style_names[] = { "perfdb", "mmtests", "lkp", NULL };

/* interleaved_note(r): when both sides are cells of one bench, a note that
 * their runs were interleaved in the same sittings. */
static void interleaved_note(struct rep *r)
{
	const struct rside *a = &r->side[0], *b = &r->side[1];
	if (!a->have_bench || !b->have_bench || !a->b.narrow || !b->b.narrow || strcmp(a->bench_label, b->bench_label))
		return;
	doc_note(r->d, "%s are cells of one bench (%s: %s against %s): their runs were interleaved "
		 "in the same sittings, so the machine's drift between sittings cancels out of the "
		 "comparison", r->nsides > 2 ? "those sides" : "both sides", a->bench_label, a->b.narrow, b->b.narrow);
}

/* summary_table(): the empty summary, shown first. */
static struct table *summary_table(void)
{
	struct table *s = table_new("summary", "Summary");
	table_col(s, "change", COL_STR, 0);
	table_col(s, "score", COL_REAL, -1);
	table_col_show(s, 1, SHOW_DATA);
	table_style(s, TABLE_LIST);
	table_section(s, "Summary");
	return s;
}

/* sort_into(t, s): t's rows appended to s by score, descending. */
static void sort_into(const struct table *t, struct table *s)
{
	size_t n = table_nrows(t), *ix = xcalloc(n + 1, sizeof(size_t));
	for (size_t i = 0; i < n; i++) {
		size_t j = i;
		ix[j] = i;
		while (j > 0 && table_cell(t, ix[j - 1], 1)->v.r < table_cell(t, i, 1)->v.r) {
			ix[j] = ix[j - 1];
			ix[--j] = i;
		}
	}
	for (size_t i = 0; i < n; i++) {
		table_add_row(s);
		table_set_str(s, 0, table_cell(t, ix[i], 0)->v.s);
		table_set_real(s, 1, table_cell(t, ix[i], 1)->v.r);
	}
	free(ix);
}

/* finish_summary(r, s): the summary's rows in order into s, or the line
 * that says nothing changed. */
static void finish_summary(struct rep *r, struct table *s)
{
	sort_into(r->summary, s);
	if (r->nwithheld) {
		table_add_row(s);
		table_set_strf(s, 0, "%zu change%s beyond %s interval with no kernel verdict: the machine's own "
			       "change or its other processes could explain %s (see the warning)", r->nwithheld, r->nwithheld == 1 ? "" : "s",
			       r->nwithheld == 1 ? "its" : "their", r->nwithheld == 1 ? "it" : "them");
		table_set_real(s, 1, 0);
	}
	if (!table_nrows(s)) {
		table_add_row(s);
		table_set_str(s, 0, "no significant change: no interval of the headline metrics or the "
			    "evidence excludes 0");
		table_set_real(s, 1, 0);
	}
}

/* The sides' names, by index. */
static const char *const side_names[REP_MAX_SIDES] = { "base", "new", "new2", "new3", "new4", "new5",
	"new6", "new7" };

/* load_sides(r, err, errlen): every side; 0, or -1 with err. */
static int load_sides(struct rep *r, char *err, size_t errlen)
{
	const struct report_opts *o = r->o;
	if (!o->nnew || 1 + o->nnew > REP_MAX_SIDES) {
		snprintf(err, errlen, "--new given %zu times: a report compares 1 to %d new sides with the base",
			 o->nnew, REP_MAX_SIDES - 1);
		return -1;
	}
	for (size_t k = 0; k < o->nnew; k++)
		for (size_t j = 0; j <= k; j++)
			if (!strcmp(o->new[k], j ? o->new[j - 1] : o->base) && (j || o->nnew > 1)) {
				snprintf(err, errlen, "'%s' is given twice (as --base or --new): each side is "
					 "another label or cells", o->new[k]);
				return -1;
			}
	r->nsides = 1;	/* counted before each load: a failed one is freed too */
	if (load_side(r, &r->sides[0], side_names[0], o->base, err, errlen))
		return -1;
	for (size_t k = 0; k < o->nnew; k++) {
		r->nsides++;
		if (load_side(r, &r->sides[k + 1], side_names[k + 1], o->new[k], err, errlen))
			return -1;
	}
	return 0;
}

/* title_of(o): "NEW against BASE", or "N1, N2 and N3 against BASE". */
static char *title_of(const struct report_opts *o)
{
	struct strbuf b = STRBUF_INIT;
	for (size_t k = 0; k < o->nnew; k++)
		sb_printf(&b, "%s%s", k == 0 ? "" : k + 1 == o->nnew ? " and " : ", ", o->new[k]);
	sb_printf(&b, " against %s", o->base);
	return sb_take(&b);
}

/* sides_json(r): findings "base", "new" (the first new side) and "sides":
 * each side's name and label. */
static void sides_json(struct rep *r)
{
	struct dval *f = doc_findings(r->d), *a;
	dv_str(f, "base", r->o->base);
	dv_str(f, "new", r->o->new[0]);
	a = dv_arr(f, "sides");
	for (int k = 0; k < r->nsides; k++) {
		struct dval *e = dv_obj(a, NULL);
		dv_str(e, "name", r->sides[k].name);
		dv_str(e, "label", r->sides[k].label);
	}
}

/* each_pair(r, section): section for the base and every new side. */
static void each_pair(struct rep *r, void (*section)(struct rep *))
{
	for (int k = 1; k < r->nsides; k++) {
		rep_use_pair(r, k);
		section(r);
	}
}

/* setup_of(r): the current pair's note and machine table. */
static void setup_of(struct rep *r)
{
	interleaved_note(r);
	report_machine_tables(r);
}

/* unseen_len(r): the number of findings "unseen" entries so far. */
static size_t unseen_len(struct rep *r)
{
	const struct dval *a = dv_get(doc_findings_c(r->d), "unseen");
	return a ? dv_len(a) : 0;
}

/* evidence_of(r): the current pair's evidence, and which "unseen" entries
 * it added (for its data quality). */
static void evidence_of(struct rep *r)
{
	r->pairs[r->pair].unseen_from = unseen_len(r);
	report_evidence(r);
	r->pairs[r->pair].unseen_to = unseen_len(r);
}

/* stat_note(r): the note on the distributions' statistic, of every bench. */
static void stat_note(struct rep *r)
{
	struct bench_data all[REP_MAX_SIDES];	/* shallow copies, for the note */
	size_t nb = 0;
	for (int k = 0; k < r->nsides; k++)
		if (r->sides[k].have_bench)
			all[nb++] = r->sides[k].b;
	bd_stat_note(all, nb, r->d);
}

/* report_findings: see report.h. */
int report_findings(sqlite3 *db, const struct report_opts *o, struct doc *d, char *err, size_t errlen)
{
	struct rep r = { .db = db, .o = o, .d = d };
	char *title = title_of(o);
	for (int k = 0; k < REP_MAX_SIDES; k++)
		r.pairs[k] = (struct rpair){ .ipis = { -1, -1 }, .unverified = { -1, -1 } };
	int rc = load_sides(&r, err, errlen);
	doc_set_title(d, title);
	free(title);
	r.summary = table_new("summary_unsorted", NULL);
	table_col(r.summary, "change", COL_STR, 0);
	table_col(r.summary, "score", COL_REAL, -1);
	struct table *shown = NULL;
	if (!rc) {
		sides_json(&r);
		shown = dv_table(doc_findings(d), summary_table());
		each_pair(&r, report_machine);
		report_setup(&r);
		report_sittings(&r);
		each_pair(&r, setup_of);
		rc = report_headline(&r, err, errlen);
	}
	if (!rc) {
		stat_note(&r);
		each_pair(&r, report_durations);
		each_pair(&r, evidence_of);
		rep_lkp_profile(&r);
		each_pair(&r, report_quality);
		report_lost(&r);
		report_reproduce(&r);
		finish_summary(&r, shown);
		doc_set_main(d, "summary");
	}
	if (r.nsides > 1)
		rep_use_pair(&r, 1);	/* the last pair's state back in r.pairs */
	for (int k = 0; k < r.nsides; k++) {
		if (r.sides[k].have_bench)
			bench_data_free(&r.sides[k].b);
		free(r.sides[k].sessions);
		free(r.sides[k].bench_label);
		machine_side_free(&r.pairs[k].msides[0]);
		machine_side_free(&r.pairs[k].msides[1]);
	}
	table_free(r.summary);
	return rc;
}
