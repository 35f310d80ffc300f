/* The report's setup: per side the kernel, boots, machine, perf,
 * workload and plan, and a warning for anything but the kernel that
 * differs between the sides (see report.h). A fact the sides agree on
 * is shown once: the human forms write "same" for the new side's value
 * (csv and json keep both values), and "differs" marks the others. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/perf_cmdline.h"
#include "analyze/report/report_int.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "schema/db.h"

/* session_text(db, id, sql): the text sql (one bound id) gives, or NULL. */
static char *session_text(sqlite3 *db, int64_t id, const char *sql)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	char *s = NULL;
	sqlite3_bind_int64(st, 1, id);
	if (st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		s = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return s;
}

/* from_session(r, s, sql): a fact of the side's first session. */
static char *from_session(const struct rep *r, const struct rside *s, const char *sql)
{
	return s->nsessions ? session_text(r->db, s->sessions[0], sql) : NULL;
}

/* latest(s): the side's latest boot, or NULL without a bench. */
static const struct bd_boot *latest(const struct rside *s)
{
	return s->have_bench && s->b.nboots ? &s->b.boots[s->b.nboots - 1] : NULL;
}

/* argv_text(r, json): a JSON argv as a shell-quoted command line. */
static char *argv_text(const struct rep *r, const char *json)
{
	sqlite3_stmt *st = db_prepare(r->db, "SELECT value FROM json_each(?) ORDER BY key");
	struct strbuf b = STRBUF_INIT;
	sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		if (b.len)
			sb_putc(&b, ' ');
		rep_quote((const char *)sqlite3_column_text(st, 0), &b);
	}
	sqlite3_finalize(st);
	return sb_take(&b);
}

/* params_text(b): "cpus=1,2; mm=shared,private". */
static char *params_text(const struct bench_data *b)
{
	struct strbuf s = STRBUF_INIT;
	for (size_t i = 0; i < b->nparams; i++) {
		sb_printf(&s, "%s%s=", i ? "; " : "", b->params[i]);
		rep_param_values(b, i, &s);
	}
	return sb_take(&s);
}

/* topology(r, s): "2 CPUs: 1 socket, 2 cores" from the first session. */
static char *topology(const struct rep *r, const struct rside *s)
{
	char *t = from_session(r, s, "SELECT count(*) || ' CPUs: ' || count(DISTINCT socket_id) || "
		"' socket(s), ' || count(DISTINCT socket_id || '.' || core_id) || ' core(s)' FROM cpu "
		"WHERE session_id = ? HAVING count(*) > 0");
	return t;
}

/* perf_cmdline(r, s): the side's first session's perf command line as a
 * user would type it (perf_cmdline.h), or NULL. */
static char *perf_cmdline(const struct rep *r, const struct rside *s)
{
	char *line = from_session(r, s, "SELECT perf_cmdline FROM session WHERE id = ?");
	char *shown = perf_cmdline_shown(line);
	free(line);
	return shown;
}

/* One fact: its name, each side's value, whether a difference warns. */
struct fact {
	const char *name;
	char *v[REP_MAX_SIDES];
	bool warn;
};

/* facts_of(r, s, f): the side's facts into f[..].v[k] (NULL: unknown). */
static void facts_of(const struct rep *r, int k, struct fact *f)
{
	const struct rside *s = &r->sides[k];
	const struct bd_boot *b = latest(s);
	char buf[64];
	f[0].v[k] = b ? xstrdup(b->os_release) : from_session(r, s, "SELECT os_release FROM session WHERE id = ?");
	f[1].v[k] = b ? xstrdup(b->os_version) : NULL;
	f[2].v[k] = b ? xstrdup(b->build_id) : NULL;
	snprintf(buf, sizeof(buf), "%zu", s->have_bench ? s->b.nboots : 0);
	f[3].v[k] = s->have_bench ? xstrdup(buf) : NULL;
	f[4].v[k] = b ? xstrdup(b->hostname) : from_session(r, s, "SELECT hostname FROM session WHERE id = ?");
	f[5].v[k] = b ? xstrdup(b->cpu_model) : from_session(r, s, "SELECT cpu_desc FROM session WHERE id = ?");
	snprintf(buf, sizeof(buf), "%d", b ? b->cpus_online : 0);
	f[6].v[k] = b ? xstrdup(buf) : from_session(r, s, "SELECT nr_cpus_online FROM session WHERE id = ?");
	f[7].v[k] = topology(r, s);
	snprintf(buf, sizeof(buf), "%lld MiB", b ? b->mem_total_kb / 1024 : 0);
	f[8].v[k] = b && b->mem_total_kb ? xstrdup(buf) :
		    from_session(r, s, "SELECT (total_mem_kb / 1024) || ' MiB' FROM session WHERE id = ?");
	f[9].v[k] = b && *b->perf_version ? xstrdup(b->perf_version) :
		    from_session(r, s, "SELECT perf_version FROM session WHERE id = ?");
	f[10].v[k] = perf_cmdline(r, s);
	f[11].v[k] = s->have_bench ? argv_text(r, s->b.argv_json) :
		     from_session(r, s, "SELECT workload FROM session WHERE id = ?");
	f[12].v[k] = s->have_bench ? params_text(&s->b) : NULL;
	snprintf(buf, sizeof(buf), "%d (+%d warm-up)", s->have_bench ? s->b.runs : 0, s->have_bench ? s->b.warmup : 0);
	f[13].v[k] = s->have_bench ? xstrdup(buf) : NULL;
	f[14].v[k] = s->have_bench ? xstrdup(s->b.run_order) : NULL;
	f[15].v[k] = s->have_bench && s->b.recipes ? xstrdup(s->b.recipes) : NULL;
	snprintf(buf, sizeof(buf), "%d", s->nsessions);
	f[16].v[k] = xstrdup(buf);
	snprintf(buf, sizeof(buf), "%zu", s->have_bench ? s->b.nsittings : 0);
	f[17].v[k] = s->have_bench ? xstrdup(buf) : NULL;
}

/* setup_table(r): the empty setup table: fact, base, then each new
 * side's value (json and csv), its shown value (text, md, html: "same"
 * where it is the base's) and whether it differs. */
static struct table *setup_table(const struct rep *r)
{
	struct table *t = table_new("setup", "Setup");
	struct strbuf cap = STRBUF_INIT;
	table_col(t, "fact", COL_STR, 0);
	table_col_label(t, table_col(t, "base", COL_STR, 0), r->nsides > 2 ? r->sides[0].label : "base");
	sb_printf(&cap, "base: %s", r->sides[0].label);
	for (int k = 1; k < r->nsides; k++) {
		const char *name = r->sides[k].name;
		char *shown = xasprintf("%s_shown", name);
		char *differs = k == 1 ? xstrdup("differs") : xasprintf("%s_differs", name);
		table_col_show(t, table_col(t, name, COL_STR, 0), SHOW_DATA);
		int c = table_col(t, shown, COL_STR, 0);
		table_col_label(t, c, r->nsides > 2 ? r->sides[k].label : name);
		table_col_show(t, c, SHOW_HUMAN);
		c = table_col(t, differs, COL_BOOL, 0);
		if (r->nsides > 2)
			table_col_label(t, c, "differs");
		sb_printf(&cap, "; %s: %s", name, r->sides[k].label);
		free(shown);
		free(differs);
	}
	table_null_text(t, "-");
	table_section(t, "Setup");
	table_caption(t, "%s", sb_str(&cap));
	table_caption(t, "%s", r->nsides > 2 ? "\"same\" where a side's value is the base side's" :
		      "new: \"same\" where the new side's value is the base side's");
	sb_free(&cap);
	return t;
}

/* differs(f, k): whether side k's value of fact f is not the base's. */
static bool differs(const struct fact *f, int k)
{
	return (f->v[0] || f->v[k]) && (!f->v[0] || !f->v[k] || strcmp(f->v[0], f->v[k]));
}

/* setup_row(r, t, f): the row of fact f, with a warning for each side
 * that differs from the base where that matters. */
static void setup_row(struct rep *r, struct table *t, const struct fact *f)
{
	table_add_row(t);
	table_set_str(t, 0, f->name);
	table_set_str(t, 1, f->v[0]);
	for (int k = 1; k < r->nsides; k++) {
		bool d = differs(f, k);
		int c = 2 + 3 * (k - 1);
		table_set_str(t, c, f->v[k]);
		table_set_str(t, c + 1, d || !f->v[k] ? f->v[k] : "same");
		table_set_int(t, c + 2, d);
		if (d && f->warn)
			doc_warn(r->d, "the sides differ in more than the kernel: %s is %s on the base "
				 "side and %s on %s; such a comparison may not be what it seems", f->name,
				 f->v[0] ? f->v[0] : "unknown", f->v[k] ? f->v[k] : "unknown",
				 r->nsides > 2 ? r->sides[k].label : "the new one");
	}
}

/* report_setup: see report_int.h. */
void report_setup(struct rep *r)
{
	struct fact f[] = { { "kernel", { 0 }, false }, { "kernel version (uname -v)", { 0 }, false },
		{ "kernel build id", { 0 }, false }, { "boots", { 0 }, false }, { "host", { 0 }, true },
		{ "CPU model", { 0 }, true }, { "online CPUs", { 0 }, true }, { "topology", { 0 }, true },
		{ "memory", { 0 }, true }, { "perf version", { 0 }, true },
		{ "perf command line", { 0 }, false }, { "workload", { 0 }, true },
		{ "parameters", { 0 }, true }, { "runs per cell", { 0 }, true }, { "order", { 0 }, false },
		{ "recipes", { 0 }, true }, { "sessions", { 0 }, false }, { "sittings", { 0 }, false } };
	size_t nf = sizeof(f) / sizeof(*f);
	struct table *t = setup_table(r);
	for (int k = 0; k < r->nsides; k++)
		facts_of(r, k, f);
	for (size_t i = 0; i < nf; i++) {
		setup_row(r, t, &f[i]);
		for (int k = 0; k < r->nsides; k++)
			free(f[i].v[k]);
	}
	dv_table(doc_findings(r->d), t);
}
