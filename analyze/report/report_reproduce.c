/* The report's last section: the perfdb commands that made every side
 * (one a bench: cells of one bench are made by one command), from their
 * stored plans (or the sessions' workloads). */
#include <stdlib.h>
#include <string.h>
#include "analyze/report/report_int.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "schema/db.h"

/* bench_command(r, s, b): "perfdb bench -o DB -l LABEL ... -- CMD". */
static void bench_command(const struct rep *r, const struct rside *s, struct strbuf *b)
{
	const struct bench_data *d = &s->b;
	sqlite3_stmt *st = db_prepare(r->db, "SELECT value FROM json_each(?) ORDER BY key");
	sb_puts(b, "perfdb bench -o ");
	rep_quote(r->o->db_path, b);
	sb_puts(b, " -l ");
	rep_quote(s->bench_label, b);
	sb_printf(b, " --runs %d", d->runs);
	if (d->warmup)
		sb_printf(b, " --warmup %d", d->warmup);
	if (strcmp(d->run_order, "interleave"))
		sb_printf(b, " --order %s", d->run_order);
	for (size_t i = 0; i < (d->plan_params ? d->nplan_params : d->nparams); i++) {
		struct strbuf p = STRBUF_INIT;
		if (d->plan_params) {	/* narrowed: the whole plan's */
			sb_puts(&p, d->plan_params[i]);
		} else {
			sb_printf(&p, "%s=", d->params[i]);
			rep_param_values(d, i, &p);
		}
		sb_puts(b, " -p ");
		rep_quote(sb_str(&p), b);
		sb_free(&p);
	}
	if (d->recipes) {
		sb_puts(b, " -r ");
		rep_quote(d->recipes, b);
		if (d->record_every > 1)
			sb_printf(b, " --record-every %d", d->record_every);
	}
	if (d->timeout_s > 0)
		sb_printf(b, " --timeout %g", d->timeout_s);
	if (d->parse) {
		sb_puts(b, " --parse ");
		rep_quote(d->parse, b);
	}
	sb_puts(b, " --");
	sqlite3_bind_text(st, 1, d->argv_json, -1, SQLITE_STATIC);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		sb_putc(b, ' ');
		rep_quote((const char *)sqlite3_column_text(st, 0), b);
	}
	sqlite3_finalize(st);
}

/* record_command(r, s, b): "perfdb record -o DB -l LABEL -- WORKLOAD" of
 * the side's first session, when it has a workload. */
static bool record_command(const struct rep *r, const struct rside *s, struct strbuf *b)
{
	sqlite3_stmt *st = db_prepare(r->db, "SELECT workload FROM session WHERE id = ? AND workload IS NOT NULL");
	bool got = false;
	sqlite3_bind_int64(st, 1, s->nsessions ? s->sessions[0] : -1);
	if (st && sqlite3_step(st) == SQLITE_ROW) {
		sb_puts(b, "perfdb record -o ");
		rep_quote(r->o->db_path, b);
		sb_puts(b, " -l ");
		rep_quote(s->bench_label, b);
		sb_printf(b, " -- %s", (const char *)sqlite3_column_text(st, 0));
		got = true;
	}
	sqlite3_finalize(st);
	return got;
}

/* line(t, text): a list item. */
static void line(struct table *t, const char *text)
{
	table_add_row(t);
	table_set_str(t, 0, text);
}

/* again_line(t, s): how many more sittings the side's bench had on its
 * boots (the same command with --again), when any. */
static void again_line(struct table *t, const struct rside *s)
{
	if (!s->have_bench || s->b.nsittings <= s->b.nboots)
		return;
	size_t more = s->b.nsittings - s->b.nboots;
	char *text = xasprintf("(then %zu more sitting%s: the same command with --again, later)", more,
			       more == 1 ? "" : "s");
	line(t, text);
	free(text);
}

/* same_bench(r, k): whether an earlier side is of side k's bench (cells
 * of one bench, made by one command). */
static bool same_bench(const struct rep *r, int k)
{
	for (int j = 0; j < k; j++)
		if (r->sides[j].have_bench && r->sides[k].have_bench &&
		    !strcmp(r->sides[j].bench_label, r->sides[k].bench_label))
			return true;
	return false;
}

/* report_reproduce: see report_int.h. */
void report_reproduce(struct rep *r)
{
	struct table *t = table_new("reproduce", r->nsides > 2 ? "Commands that made every side" :
				    "Commands that made both sides");
	table_col(t, "command", COL_STR, 0);
	table_style(t, TABLE_LIST);
	table_section(t, "Reproduce");
	for (int k = 0; k < r->nsides; k++) {
		const struct rside *s = &r->sides[k];
		struct strbuf b = STRBUF_INIT;
		if (same_bench(r, k))
			continue;
		if (k && r->nsides > 2)
			sb_printf(&b, "(boot %s's kernel, then)", s->label);
		else if (k)
			sb_puts(&b, "(boot the new kernel, then)");
		if (k)
			line(t, sb_str(&b));
		sb_reset(&b);
		if (s->have_bench)
			bench_command(r, s, &b);
		else if (!record_command(r, s, &b))
			sb_printf(&b, "(sessions of %s imported with perfdb import)", s->label);
		line(t, sb_str(&b));
		sb_free(&b);
		again_line(t, s);
	}
	struct strbuf b = STRBUF_INIT;
	sb_puts(&b, "perfdb report ");
	rep_quote(r->o->db_path, &b);
	sb_puts(&b, " --base ");
	rep_quote(r->o->base, &b);
	for (size_t k = 0; k < r->o->nnew; k++) {
		sb_puts(&b, " --new ");
		rep_quote(r->o->new[k], &b);
	}
	sb_puts(&b, " -o report.md");
	line(t, sb_str(&b));
	sb_free(&b);
	dv_table(doc_findings(r->d), t);
}
