/* `perfdb report` as findings: the sections in order (see report.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/report/report_int.h"
#include "analyze/session_info.h"
#include "lib/alloc.h"
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
	doc_note(r->d, "both sides are cells of one bench (%s: %s against %s): their runs were interleaved "
		 "in the same sittings, so the machine's drift between sittings cancels out of the "
		 "comparison", a->bench_label, a->b.narrow, b->b.narrow);
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

/* report_findings: see report.h. */
int report_findings(sqlite3 *db, const struct report_opts *o, struct doc *d, char *err, size_t errlen)
{
	struct rep r = { .db = db, .o = o, .d = d, .ipis = { -1, -1 }, .unverified = { -1, -1 } };
	char *title = xasprintf("%s against %s", o->new, o->base);
	int rc = load_side(&r, &r.side[0], "base", o->base, err, errlen) ||
		 load_side(&r, &r.side[1], "new", o->new, err, errlen) ? -1 : 0;
	doc_set_title(d, title);
	free(title);
	r.summary = table_new("summary_unsorted", NULL);
	table_col(r.summary, "change", COL_STR, 0);
	table_col(r.summary, "score", COL_REAL, -1);
	struct table *shown = NULL;
	if (!rc) {
		dv_str(doc_findings(d), "base", o->base);
		dv_str(doc_findings(d), "new", o->new);
		shown = dv_table(doc_findings(d), summary_table());
		report_machine(&r);
		interleaved_note(&r);
		report_setup(&r);
		report_machine_tables(&r);
		rc = report_headline(&r, err, errlen);
	}
	if (!rc) {
		struct bench_data both[2];	/* shallow copies, for the note */
		size_t nb = 0;
		for (int i = 0; i < 2; i++)
			if (r.side[i].have_bench)
				both[nb++] = r.side[i].b;
		bd_stat_note(both, nb, d);
		report_durations(&r);
		report_evidence(&r);
		report_quality(&r);
		report_reproduce(&r);
		finish_summary(&r, shown);
		doc_set_main(d, "summary");
	}
	for (int i = 0; i < 2; i++) {
		if (r.side[i].have_bench)
			bench_data_free(&r.side[i].b);
		free(r.side[i].sessions);
		free(r.side[i].bench_label);
		machine_side_free(&r.msides[i]);
	}
	table_free(r.summary);
	return rc;
}
