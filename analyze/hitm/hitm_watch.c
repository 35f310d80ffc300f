/* Write-watchpoint traps as field contention evidence (see hitm_watch.h):
 * per session load and count (watch.h), then its lines and fields into the
 * shared tables and its rows into windows, cpus, sites and rates. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/hitm/hitm_watch.h"
#include "analyze/hitm/watch_load.h"
#include "lib/alloc.h"
#include "lib/layout.h"
#include "lib/strbuf.h"
#include "schema/db.h"

/* One session being filled in. */
struct wsession {
	const struct watch_data *d;
	const struct watch_result *r;
	struct hitm_doc *hd;
	struct watch_tables *t;
	struct doc *doc;
	const char *prefix;	/* "session N: " with several sessions, else "" */
	enum watch_firing firing;	/* whether its watchpoints are known to fire */
};

/* set_rate(t, col, n, seconds): n per second over seconds, NULL without
 * a window. */
static void set_rate(struct table *t, int col, double n, double seconds)
{
	if (seconds > 0)
		table_set_real(t, col, n / seconds);
}

/* cpu_set(d, f, words): the bitset of the CPUs that wrote field f. */
static uint64_t *cpu_set(const struct watch_data *d, const struct watch_field *f, int words)
{
	uint64_t *s = xcalloc((size_t)words, sizeof(*s));
	for (int c = 0; c < d->ncpus; c++)
		if (f->cpu_writes[c])
			s[c / 64] |= 1ULL << (c % 64);
	return s;
}

/* cpu_words(d): the words of a bitset of d's CPUs. */
static int cpu_words(const struct watch_data *d)
{
	return d->ncpus > 0 ? (d->ncpus + 63) / 64 : 1;
}

/* Where a watched field is, in the words of hitm_doc.h. */
struct wnames {
	struct strbuf object, field;	/* object: "" when none is known */
	const char *type;
};

/* names_of(d, w, n): the object, type and field of watch w. Its name is
 * OBJECT.FIELD[+N] for a member of a struct (the object a symbol, or the
 * struct for mm_struct.FIELD and TYPE.FIELD@ADDR), else the whole object
 * (a symbol, with +N) or, without a watch row, the event's name. */
static void names_of(const struct watch_data *d, const struct watch_def *w, struct wnames *n)
{
	const char *dot = strchr(w->field, '.'), *plus = strchr(w->field, '+');
	*n = (struct wnames){ STRBUF_INIT, STRBUF_INIT, NULL };
	if (!w->kind) {
		n->type = HITM_UNKNOWN;
		sb_puts(&n->field, HITM_UNKNOWN);
		return;
	}
	if (!strcmp(w->kind, "mm"))
		sb_printf(&n->object, "mm 0x%" PRIx64 " (pid %d)", w->object_addr, d->pid);
	if (dot && w->type_name) {
		if (!strcmp(w->kind, "symbol"))
			sb_putn(&n->object, w->field, (size_t)(dot - w->field));
		n->type = layout_type_key(w->type_name);
		sb_puts(&n->field, dot + 1);
		return;
	}
	sb_putn(&n->field, w->field, plus ? (size_t)(plus - w->field) : strlen(w->field));
	if (!n->object.len)
		sb_puts(&n->object, sb_str(&n->field));
	n->type = w->type_name ? layout_type_key(w->type_name) : "symbol";
	if (w->offset)
		sb_printf(&n->field, "+0x%" PRIx64, (uint64_t)w->offset);
}

/* field_sites(s, f, b): f's three busiest store sites into b. */
static void field_sites(const struct wsession *s, const struct watch_field *f, struct strbuf *b)
{
	const char **names = xcalloc(f->nsites + 1, sizeof(*names));
	long long *counts = xcalloc(f->nsites + 1, sizeof(*counts));
	for (size_t i = 0; i < f->nsites; i++) {
		names[i] = s->d->sites[f->sites[i].site];
		counts[i] = f->sites[i].writes;
	}
	sites_text(b, names, counts, f->nsites, 3);
	free(names);
	free(counts);
}

/* field_place(t, w, n): the object, type, field and offsets of w. */
static void field_place(struct table *t, const struct watch_def *w, const struct wnames *n)
{
	table_set_int(t, FL_LINE_OFFSET, (long long)(w->addr & (WATCH_LINE - 1)));
	table_set_str(t, FL_OBJECT, n->object.len ? sb_str(&n->object) : NULL);
	table_set_str(t, FL_TYPE, n->type);
	table_set_str(t, FL_FIELD, sb_str(&n->field));
	if (w->kind) {
		hitm_doc_hex(t, FL_OBJECT_ADDRESS, w->object_addr);
		table_set_int(t, FL_OFFSET, w->offset);
		table_set_int(t, FL_SIZE, w->size);
	}
	table_set_str(t, FL_WATCH, w->field);
	table_set_str(t, FL_FIELD_TYPE, w->field_type);
	table_set_strf(t, FL_WATCHED, "0x%" PRIx64 "/%d%s", w->addr, w->len,
		       w->partial ? " (part)" : "");
}

/* field_row(s, idx, k): the "fields" row of watch k on line idx. */
static void field_row(const struct wsession *s, long long idx, int k)
{
	const struct watch_def *w = &s->d->defs[k];
	const struct watch_field *f = &s->r->fields[k];
	struct table *t = s->hd->fields;
	struct strbuf b = STRBUF_INIT;
	struct wnames n;
	int words = cpu_words(s->d);
	uint64_t *cpus = cpu_set(s->d, f, words);
	names_of(s->d, w, &n);
	hitm_doc_field(s->hd, idx, EV_WATCH, s->d->session);
	field_place(t, w, &n);
	table_set_int(t, FL_WRITES, f->writes);
	set_rate(t, FL_WRITES_PER_SEC, (double)f->writes, s->r->seconds);
	table_set_int(t, FL_TRANSFERS, f->transfers);
	set_rate(t, FL_TRANSFERS_PER_SEC, (double)f->transfers, s->r->seconds);
	table_set_int(t, FL_WRITERS, f->writer_cpus);
	cpuset_text(cpus, words, &b);
	table_set_str(t, FL_WRITER_CPUS, sb_str(&b));
	sb_reset(&b);
	field_sites(s, f, &b);
	table_set_str(t, FL_CODE_SITES, sb_str(&b));
	sb_free(&b);
	sb_free(&n.object);
	sb_free(&n.field);
	free(cpus);
}

/* detail(s, l, b): "FIELD: CPU 0,1; FIELD2: no writes" for line l. */
static void detail(const struct wsession *s, const struct watch_line *l, struct strbuf *b)
{
	for (size_t k = 0; k < l->nfields; k++) {
		const struct watch_field *f = &s->r->fields[l->fields[k]];
		int shown = 0;
		sb_printf(b, "%s%s: %s", k ? "; " : "", s->d->defs[l->fields[k]].field,
			  f->writer_cpus ? "CPU" : "no writes");
		for (int c = 0; c < s->d->ncpus; c++)
			if (f->cpu_writes[c])
				sb_printf(b, "%s%d", shown++ ? "," : " ", c);
	}
}

/* line_cpus(s, l, b): the CPUs that wrote line l into b; their count. */
static int line_cpus(const struct wsession *s, const struct watch_line *l, struct strbuf *b)
{
	int words = cpu_words(s->d), n;
	uint64_t *all = xcalloc((size_t)words, sizeof(*all));
	for (size_t k = 0; k < l->nfields; k++) {
		uint64_t *one = cpu_set(s->d, &s->r->fields[l->fields[k]], words);
		for (int i = 0; i < words; i++)
			all[i] |= one[i];
		free(one);
	}
	cpuset_text(all, words, b);
	n = cpuset_count(all, words);
	free(all);
	return n;
}

/* line_objects(s, l, b): the objects of line l's fields ("TYPE OBJECT"),
 * each once. */
static void line_objects(const struct wsession *s, const struct watch_line *l, struct strbuf *b)
{
	struct strbuf seen = STRBUF_INIT, one = STRBUF_INIT;
	for (size_t k = 0; k < l->nfields; k++) {
		struct wnames n;
		names_of(s->d, &s->d->defs[l->fields[k]], &n);
		sb_reset(&one);
		sb_printf(&one, "\n%s%s%s\n", n.type, n.object.len ? " " : "", sb_str(&n.object));
		if (!strstr(sb_str(&seen), sb_str(&one))) {
			sb_puts(&seen, sb_str(&one));
			sb_printf(b, "%s%.*s", b->len ? ", " : "", (int)one.len - 2, sb_str(&one) + 1);
		}
		sb_free(&n.object);
		sb_free(&n.field);
	}
	sb_free(&seen);
	sb_free(&one);
}

/* no_verdict_detail(s, b): why a line of s has no verdict, in short. */
static void no_verdict_detail(const struct wsession *s, struct strbuf *b)
{
	const struct watch_canary_row *c = &s->d->canary;
	if (s->firing == WATCH_FIRING_NOT)
		sb_printf(b, "no verdict: the watchpoints did not fire (canary: %lld of %lld writes "
			  "caught)", c->seen, c->writes);
	else
		sb_puts(b, "no verdict: no write caught, and no canary");
}

/* line_row(s, l): the "cachelines" row of line l and its fields; its idx. */
static long long line_row(const struct wsession *s, const struct watch_line *l)
{
	struct table *t = s->hd->lines;
	struct strbuf b = STRBUF_INIT;
	long long idx = hitm_doc_line(s->hd, EV_WATCH, s->d->session, l->addr);
	table_set_int(t, CL_WRITES, l->writes);
	table_set_int(t, CL_TRANSFERS, l->transfers);
	set_rate(t, CL_TRANSFERS_PER_SEC, (double)l->transfers, s->r->seconds);
	table_set_int(t, CL_SAME_FIELD, l->same_field);
	table_set_int(t, CL_CROSS_FIELD, l->cross_field);
	table_set_int(t, CL_FIELDS, (long long)l->nfields);
	table_set_int(t, CL_CPUS, line_cpus(s, l, &b));
	table_set_str(t, CL_CPU_LIST, sb_str(&b));
	sb_reset(&b);
	if (watch_gives_verdict(s->firing)) {
		table_set_str(t, CL_VERDICT, share_verdict_name(l->verdict));
		detail(s, l, &b);
	} else {
		no_verdict_detail(s, &b);
	}
	table_set_str(t, CL_VERDICT_DETAIL, sb_str(&b));
	sb_reset(&b);
	line_objects(s, l, &b);
	table_set_str(t, CL_OBJECTS, sb_str(&b));
	sb_free(&b);
	for (size_t k = 0; k < l->nfields; k++)
		field_row(s, idx, l->fields[k]);
	return idx;
}

/* window_row(s): the session's row of windows. */
static void window_row(const struct wsession *s)
{
	struct table *t = s->t->windows;
	table_add_row(t);
	table_set_int(t, 0, s->d->session);
	table_set_str(t, 1, s->d->label);
	table_set_str(t, 2, s->d->workload);
	table_set_real(t, 3, s->r->seconds);
	if (s->d->pid)
		table_set_int(t, 4, s->d->pid);
	table_set_str(t, 5, s->d->mm_mode);
	table_set_int(t, 6, s->d->outside);
	table_set_str(t, 7, watch_firing_name(s->firing));
	if (!s->d->canary.present)
		return;
	table_set_str(t, 8, s->d->canary.how);
	table_set_int(t, 9, s->d->canary.writes);
	table_set_int(t, 10, s->d->canary.seen);
	table_set_int(t, 11, s->d->canary.lost);
}

/* firing_warning(s): a session whose watchpoints cannot tell a quiet
 * field from deaf watchpoints gives no verdict, and says why. */
static void firing_warning(const struct wsession *s)
{
	const struct watch_canary_row *c = &s->d->canary;
	if (s->firing == WATCH_FIRING_NOT)
		doc_warn(s->doc, "%sno verdict: the watchpoints did not fire: %lld of %lld writes to a "
			 "watched variable (perfdb's canary, %s) were caught%s, so the watched fields' "
			 "writes say nothing of their traffic", s->prefix, c->seen, c->writes,
			 !strcmp(c->how, "probe") ? "counted apart" : "recorded beside them",
			 c->lost ? " (more were lost)" : "");
	else if (s->firing == WATCH_FIRING_UNKNOWN)
		doc_warn(s->doc, "%sno verdict: no write was caught by any watchpoint, and this session "
			 "has no canary to tell a quiet field from watchpoints that do not fire "
			 "(perfdb record -r watch records one)", s->prefix);
}

/* cpu_rows(s, idx, k): watch k's rows of cpus. */
static void cpu_rows(const struct wsession *s, long long idx, int k)
{
	const struct watch_field *f = &s->r->fields[k];
	struct table *t = s->t->cpus;
	for (int c = 0; c < s->d->ncpus; c++) {
		long long n = f->cpu_writes[c];
		if (!n)
			continue;
		table_add_row(t);
		table_set_int(t, 0, s->d->session);
		table_set_int(t, 1, idx);
		table_set_str(t, 2, s->d->defs[k].field);
		table_set_int(t, 3, c);
		table_set_int(t, 4, n);
		set_rate(t, 5, (double)n, s->r->seconds);
		table_set_real(t, 6, 100.0 * (double)n / (double)f->writes);
	}
}

/* site_rows(s, idx, k, max): watch k's rows of sites (max at most, 0 all). */
static void site_rows(const struct wsession *s, long long idx, int k, long long max)
{
	const struct watch_field *f = &s->r->fields[k];
	struct table *t = s->t->sites;
	for (size_t i = 0; i < f->nsites && (!max || i < (size_t)max); i++) {
		int32_t site = f->sites[i].site;
		table_add_row(t);
		table_set_int(t, 0, s->d->session);
		table_set_int(t, 1, idx);
		table_set_str(t, 2, s->d->defs[k].field);
		table_set_str(t, 3, s->d->sites[site]);
		table_set_int(t, 4, f->sites[i].writes);
		table_set_real(t, 5, 100.0 * (double)f->sites[i].writes / (double)f->writes);
		hitm_doc_hex(t, 6, s->d->site_ip[site]);
	}
}

/* change_pct(b, n): the % change from b to n (NAN when unknown). */
static double change_pct(double b, double n)
{
	return isnan(b) || isnan(n) || b == 0 ? NAN : 100.0 * (n - b) / b;
}

/* rate_rows(s): the session's rows of rates. */
static void rate_rows(const struct wsession *s)
{
	struct table *t = s->t->rates;
	for (size_t i = 0; i < s->d->nrates; i++) {
		const struct watch_rate *x = &s->d->rates[i];
		double ch = change_pct(x->unwatched, x->watched);
		table_add_row(t);
		table_set_int(t, 0, s->d->session);
		table_set_str(t, 1, x->name);
		if (!isnan(x->watched))
			table_set_real(t, 2, x->watched);
		if (!isnan(x->unwatched))
			table_set_real(t, 3, x->unwatched);
		if (!isnan(ch))
			table_set_real(t, 4, ch);
		if (x->unwatched_session >= 0)
			table_set_int(t, 5, x->unwatched_session);
	}
}

/* field_warnings(s): partly watched and wider-than-field watches, watches
 * without their event. */
static void field_warnings(const struct wsession *s)
{
	for (size_t i = 0; i < s->d->ndefs; i++) {
		const struct watch_def *w = &s->d->defs[i];
		uint64_t fa = w->object_addr + (uint64_t)w->offset;
		if (w->partial)
			doc_warn(s->doc, "%s%s: only its first %" PRId64 " of %" PRId64 " bytes were "
				 "watched (a debug register covers at most 8 aligned bytes); writes to "
				 "the rest are not seen", s->prefix, w->field,
				 (int64_t)(w->addr + (uint64_t)w->len - fa), w->size);
		else if (w->wider)
			doc_warn(s->doc, "%s%s: the %d watched bytes at 0x%" PRIx64 " also cover bytes "
				 "next to its %" PRId64 "; writes there count too", s->prefix, w->field,
				 w->len, w->addr, w->size);
		if (w->event_id < 0)
			doc_warn(s->doc, "%s%s: the recording has no event for it (mem:0x%" PRIx64
				 "/%d:w)", s->prefix, w->field, w->addr, w->len);
	}
}

/* run_notes(s): writes left out, the window, the perturbation, the rates. */
static void run_notes(const struct wsession *s)
{
	const struct watch_data *d = s->d;
	if (d->outside)
		doc_warn(s->doc, "%s%lld write%s outside the watched window (before the watchpoints "
			 "were armed or after the workload ended, when the address may hold "
			 "something else) left out", s->prefix, d->outside, d->outside == 1 ? "" : "s");
	if (!d->has_window)
		doc_note(s->doc, "%sno watch rows (not recorded by perfdb record -r watch): rates are "
			 "over the whole session", s->prefix);
	doc_note(s->doc, "every watched write traps (a debug exception and a perf sample), so the "
		 "workload runs slower watched than unwatched: the rates it reports while watched are "
		 "not its real rates (perfdb record -r watch --watch-baseline measures the unwatched "
		 "rate)");
	for (size_t i = 0; i < d->nrates; i++)
		if (!isnan(d->rates[i].unwatched) && !isnan(d->rates[i].watched))
			doc_note(s->doc, "%s%s: %.0f watched vs %.0f unwatched (%+.2f%%)", s->prefix,
				 d->rates[i].name, d->rates[i].watched, d->rates[i].unwatched,
				 change_pct(d->rates[i].unwatched, d->rates[i].watched));
}

/* fill(s, o, lines): the session's rows, lines first (lines: how many the
 * document may still take; -1 no limit). */
static void fill(const struct wsession *s, const struct hitm_watch_opts *o, long long *lines)
{
	window_row(s);
	for (size_t i = 0; i < s->r->nlines && *lines != 0; i++) {
		const struct watch_line *l = &s->r->lines[i];
		if (*lines > 0)
			(*lines)--;
		long long idx = line_row(s, l);
		for (size_t k = 0; k < l->nfields; k++) {
			cpu_rows(s, idx, l->fields[k]);
			site_rows(s, idx, l->fields[k], o->site_rows);
		}
	}
	rate_rows(s);
	firing_warning(s);
	field_warnings(s);
	run_notes(s);
}

/* A column of the evidence's tables. */
struct wcol {
	const char *name;
	enum col_type type;
	int precision;
};

/* new_table(name, title, cols, n): an empty table of columns cols[0..n). */
static struct table *new_table(const char *name, const char *title, const struct wcol *cols, int n)
{
	struct table *t = table_new(name, title);
	for (int c = 0; c < n; c++)
		table_col(t, cols[c].name, cols[c].type, cols[c].precision);
	table_null_text(t, "-");
	return t;
}

/* new_tables(out): the evidence's tables, empty. */
static void new_tables(struct watch_tables *out)
{
	static const struct wcol w[] = { { "session", COL_INT, 0 }, { "label", COL_STR, 0 },
		{ "workload", COL_STR, 0 }, { "seconds", COL_REAL, 3 }, { "pid", COL_INT, 0 },
		{ "mm_mode", COL_STR, 0 }, { "outside", COL_INT, 0 }, { "watchpoints", COL_STR, 0 },
		{ "canary", COL_STR, 0 }, { "canary_writes", COL_INT, 0 },
		{ "canary_seen", COL_INT, 0 }, { "canary_lost", COL_INT, 0 } };
	static const struct wcol c[] = { { "session", COL_INT, 0 }, { "idx", COL_INT, 0 },
		{ "watch", COL_STR, 0 }, { "cpu", COL_INT, 0 }, { "writes", COL_INT, 0 },
		{ "writes_per_sec", COL_REAL, 1 }, { "share", COL_PCT, 1 } };
	static const struct wcol st[] = { { "session", COL_INT, 0 }, { "idx", COL_INT, 0 },
		{ "watch", COL_STR, 0 }, { "store_site", COL_STR, 0 }, { "writes", COL_INT, 0 },
		{ "share", COL_PCT, 1 }, { "ip", COL_STR, 0 } };
	static const struct wcol r[] = { { "session", COL_INT, 0 }, { "metric", COL_STR, 0 },
		{ "watched", COL_REAL, 0 }, { "unwatched", COL_REAL, 0 }, { "change", COL_PCT, 2 },
		{ "unwatched_session", COL_INT, 0 } };
	out->windows = new_table("windows", "Watched windows", w, 12);
	out->cpus = new_table("cpus", "Writes per watched field and CPU", c, 7);
	out->sites = new_table("sites", "Store sites (function+offset of ip-1: the trap reports "
			       "the instruction after the store)", st, 7);
	out->rates = new_table("rates", "The workload's own rate, watched and unwatched", r, 6);
}

/* hitm_watch: see hitm_watch.h. */
int hitm_watch(sqlite3 *db, const int64_t *ids, int n, const struct hitm_watch_opts *o,
	       struct hitm_doc *hd, struct doc *d, struct watch_tables *out, char *err, size_t errlen)
{
	long long lines = o->rows > 0 ? o->rows : -1;
	new_tables(out);
	dv_int(doc_findings(d), "min_transfers", o->min_transfers);
	for (int i = 0; i < n; i++) {
		struct watch_data wd;
		struct watch_result wr;
		char prefix[48] = "";
		int got = watch_load(db, ids[i], &wd, err, errlen);
		if (got < 0)
			return -1;
		if (!got)
			continue;
		if (n > 1)
			snprintf(prefix, sizeof(prefix), "session %lld: ", (long long)ids[i]);
		watch_analyze(&wd, o->min_transfers, &wr);
		struct wsession s = { .d = &wd, .r = &wr, .hd = hd, .t = out, .doc = d, .prefix = prefix,
				      .firing = watch_firing(&wd) };
		fill(&s, o, &lines);
		watch_result_free(&wr);
		watch_data_free(&wd);
	}
	return 0;
}

/* hitm_watched: see hitm_watch.h. */
int hitm_watched(sqlite3 *db, int64_t session)
{
	static const char events[] = "SELECT 1 FROM event e WHERE session_id = ?1 AND type = ?2",
		not_canary[] = " AND NOT EXISTS (SELECT 1 FROM watch_canary c WHERE c.session_id = "
		"?1 AND c.how = 'recorded' AND c.addr = e.config1 AND c.len = e.config2)",
		rows[] = " UNION ALL SELECT 1 FROM watch WHERE session_id = ?1";
	char sql[sizeof(events) + sizeof(not_canary) + sizeof(rows) + 16];
	sqlite3_stmt *st;
	int yes;
	snprintf(sql, sizeof(sql), "%s%s%s LIMIT 1", events,
		 db_has_table(db, "watch_canary") ? not_canary : "",
		 db_has_table(db, "watch") ? rows : "");
	st = db_prepare(db, sql);
	if (!st)
		return 0;
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_int(st, 2, WATCH_PERF_TYPE_BREAKPOINT);
	yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}
