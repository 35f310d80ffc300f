/* Memory samples as field contention evidence (see hitm_c2c.h): load the
 * sessions' layouts and objects, then their samples, each attributed as
 * it is read (hitm.h: no sample is kept), then select and fill. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/hitm/hitm_c2c.h"
#include "analyze/hitm/hitm_c2c_tables.h"
#include "analyze/rec_scope.h"
#include "analyze/session_info.h"
#include "analyze/unseen.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "schema/db.h"

/* One analysis of memory samples. */
struct c2c_run {
	sqlite3 *db;
	const struct hitm_c2c_opts *o;
	struct doc *doc;
	const int64_t *ids;	/* the sessions, by index */
	size_t nids;
	struct c2c_data d;
	struct layout_set *ls;	/* per session index */
	struct objmap om;
	struct hitm_result res;	/* the attribution, from the first sample on */
	uint8_t *checked;	/* per object: whether hit_note saw it */
	struct strbuf noted;	/* "\nSESSION TYPE\n" of each missing layout noted */
};

/* is_arm64(db, id): whether session id was recorded on arm64. */
static bool is_arm64(sqlite3 *db, int64_t id)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT arch FROM session WHERE id = ?");
	bool yes = false;
	if (!st)
		return false;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *arch = (const char *)sqlite3_column_text(st, 0);
		yes = arch && (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"));
	}
	sqlite3_finalize(st);
	return yes;
}

/* note_layout(r, id, type, why, how): the note of a layout session id
 * lacks, with the perfdb layout command that stores it (once per session
 * and type). */
static void note_layout(struct c2c_run *r, int64_t id, const char *type, const char *why,
			const char *how)
{
	char key[320];
	snprintf(key, sizeof(key), "\n%lld %s\n", (long long)id, layout_type_key(type));
	if (strstr(sb_str(&r->noted), key))
		return;
	sb_puts(&r->noted, key);
	doc_note(r->doc, "session %lld has no layout of struct %s: %s (store it with perfdb layout "
		 "%s -s %lld %s)", (long long)id, layout_type_key(type), why, r->o->dbpath,
		 (long long)id, how);
}

/* load_layouts(r, i): session i's layouts, with notes for mm_struct and
 * -t TYPE when they are missing. 0 or -1. */
static int load_layouts(struct c2c_run *r, size_t i)
{
	int64_t id = r->ids[i];
	char how[512];
	if (layouts_load(r->db, id, &r->ls[i]))
		return -1;
	if (!objects_has_mm(r->db, id))
		doc_note(r->doc, "session %lld has no mmap_lock or exit_mmap tracepoint naming an mm: "
			 "no mm_struct objects (record with perfdb record -r c2c)", (long long)id);
	else if (!layouts_find(&r->ls[i], "mm_struct"))
		note_layout(r, id, "mm_struct", "the mm_structs its tracepoints name are left out",
			    "--btf FILE");
	if (r->o->type && !layouts_find(&r->ls[i], r->o->type)) {
		snprintf(how, sizeof(how), "-t %s --btf FILE", layout_type_key(r->o->type));
		note_layout(r, id, r->o->type, "its fields are named by offset", how);
	}
	return 0;
}

/* load_objects(r): every session's object map, finished. */
static int load_objects(struct c2c_run *r)
{
	for (size_t i = 0; i < r->nids; i++)
		if (objects_load(r->db, r->ids[i], (uint16_t)i, &r->ls[i], &r->om) < 0)
			return -1;
	objects_finish(&r->om);
	r->checked = xcalloc(r->om.n + 1, 1);
	return 0;
}

/* hit_note(r, obj): when a sample fell in object obj (-1: none) of a type
 * whose layout its session lacks, the note of that session and type (the
 * notes come in the order of the samples, each object looked at once). */
static void hit_note(struct c2c_run *r, int32_t obj)
{
	if (obj < 0 || r->checked[obj])
		return;
	r->checked[obj] = 1;
	const struct hobj *o = &r->om.v[obj];
	if (!*o->type || layouts_find(&r->ls[o->session], o->type))
		return;
	note_layout(r, r->ids[o->session], o->type, "samples in its objects are named by offset",
		    o->source == OBJ_DWARF ? "--dwarf FILE" : "--btf FILE");
}

/* run_sample(ctx, d, s): c2c_load's sink: s attributed, its note given. */
static void run_sample(void *ctx, const struct c2c_data *d, const struct c2c_sample *s)
{
	struct c2c_run *r = ctx;
	(void)d;
	hit_note(r, hitm_add(&r->res, s));
}

/* scalars(r, v): display, show_all, type, shared_lines, events. */
static void scalars(struct c2c_run *r, const struct hitm_view *v)
{
	struct dval *f = doc_findings(r->doc), *ev;
	struct c2c_stats shared;
	uint32_t nshared;
	hitm_shared_stats(&r->d, &shared, &nshared);
	dv_str(f, "display", hitm_display_names[v->display]);
	dv_bool(f, "show_all", v->show_all);
	dv_str(f, "type", v->type);
	dv_int(f, "shared_lines", nshared);
	ev = dv_arr(f, "events");
	for (size_t i = 0; i < r->d.nevents; i++)
		dv_str(ev, NULL, r->d.events[i]);
}

/* fill(r, hd, out): finishes the attribution, selects and fills the
 * tables. */
static void fill(struct c2c_run *r, struct hitm_doc *hd, struct c2c_tables *out)
{
	size_t *sel, n;
	int display = r->o->display;
	if (display < 0)
		display = r->d.nsessions && is_arm64(r->db, r->d.sessions[0]) ? D_PEER : D_TOT;
	hitm_finish(&r->res, &r->d);
	struct hitm_view v = { .d = &r->d, .om = &r->om, .r = &r->res, .display = display,
		.show_all = r->o->show_all, .type = r->o->type, .limit = r->o->rows };
	n = hitm_select(&v, &sel);
	long long *idx = xcalloc(n + 1, sizeof(*idx));
	char *desc = session_desc(r->db, r->d.sessions, (int)r->d.nsessions);
	scalars(r, &v);
	c2c_line_rows(&v, sel, n, hd, idx);
	out->summary = c2c_summary_table(&v, desc);
	out->types = c2c_types_table(&v);
	out->offsets = c2c_offsets_table(&v, sel, idx, n);
	free(desc);
	free(idx);
	free(sel);
}

/* run_free(r): frees what a run holds. */
static void run_free(struct c2c_run *r)
{
	for (size_t i = 0; r->ls && i < r->nids; i++)
		layouts_free(&r->ls[i]);
	free(r->ls);
	hitm_result_free(&r->res);
	free(r->checked);
	objects_free(&r->om);
	c2c_data_free(&r->d);
	sb_free(&r->noted);
}

/* hitm_memory_events: see hitm_c2c.h. */
char **hitm_memory_events(sqlite3 *db, int64_t session, int *n)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT name FROM event WHERE session_id = ? AND "
				      "name IS NOT NULL AND coalesce(sample_type, 0) & 32768 != 0 ORDER BY id");
	char **v = xcalloc(1, sizeof(*v));
	size_t cap = 1;
	*n = 0;
	if (st)
		sqlite3_bind_int64(st, 1, session);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		ALLOC_GROW(v, (size_t)*n + 2, cap);
		v[(*n)++] = xstrdup((const char *)sqlite3_column_text(st, 0));
		v[*n] = NULL;
	}
	sqlite3_finalize(st);
	return v;
}

/* hitm_names_free: see hitm_c2c.h. */
void hitm_names_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* events_text(db, session, b): the session's memory events and their
 * samples ("cpu/mem-loads/P (1125 samples)") into b. */
static void events_text(sqlite3 *db, int64_t session, struct strbuf *b)
{
	int n;
	char **v = hitm_memory_events(db, session, &n);
	sqlite3_stmt *st = db_prepare(db, "SELECT coalesce(sum(nr_samples), 0) FROM event WHERE "
				      "session_id = ? AND name = ?");
	for (int i = 0; st && i < n; i++) {
		sqlite3_bind_int64(st, 1, session);
		sqlite3_bind_text(st, 2, v[i], -1, SQLITE_STATIC);
		sb_printf(b, "%s%s (%lld samples)", i ? ", " : "", v[i],
			  sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0LL);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	hitm_names_free(v);
}

/* cpus_unseen(db, session, d): the warning for a session recorded on
 * some CPUs only (-C). */
static void cpus_unseen(sqlite3 *db, int64_t session, struct doc *d)
{
	struct rec_scope scope;
	rec_scope_of(db, session, &scope);
	if (scope.kind != SCOPE_CPUS)
		return;
	struct dval *e = unseen(d, "cpus_not_recorded", "session %lld sampled memory on CPUs %s "
		"alone (perf -C %s): the other CPUs' loads and stores are unseen, so a line's "
		"sharing with them is missed (its verdict, CPUs and HITMs are the recorded CPUs')",
		(long long)session, scope.cpus, scope.cpus);
	dv_int(e, "session", session);
	dv_str(e, "recorded", scope.cpus);
}

/* hitm_c2c_unseen: see hitm_c2c.h. */
void hitm_c2c_unseen(sqlite3 *db, const struct c2c_tables *t, struct doc *d)
{
	for (size_t i = 0; i < t->nseen; i++) {
		const struct c2c_seen *s = &t->seen[i];
		struct strbuf ev = STRBUF_INIT;
		cpus_unseen(db, s->session, d);
		if (s->loads && s->stores)
			continue;
		events_text(db, s->session, &ev);
		if (!s->stores)
			dv_int(unseen(d, "no_store_samples", "session %lld sampled no store (its memory "
				      "events: %s): no line's writers were seen, so no verdict can be true "
				      "or false sharing ('no sharing seen' says nothing of sharing) and "
				      "the store counts are 0 unmeasured; record stores too (perf c2c "
				      "record, or perfdb record -r c2c)", (long long)s->session,
				      sb_str(&ev)), "session", s->session);
		if (!s->loads)
			dv_int(unseen(d, "no_load_samples", "session %lld sampled no load (its memory "
				      "events: %s): HITMs and peer snoops, which loads report, and the "
				      "load counts are 0 unmeasured, and no line's readers were seen; "
				      "record loads too (perf c2c record, or perfdb record -r c2c)",
				      (long long)s->session, sb_str(&ev)), "session", s->session);
		sb_free(&ev);
	}
}

/* hitm_c2c: see hitm_c2c.h. */
int hitm_c2c(sqlite3 *db, const int64_t *ids, int n, const struct hitm_c2c_opts *o,
	     struct hitm_doc *hd, struct doc *d, struct c2c_tables *out, char *err, size_t errlen)
{
	struct c2c_run r = { .db = db, .o = o, .doc = d, .ids = ids, .nids = n > 0 ? (size_t)n : 0 };
	struct c2c_sink sink = { .sample = run_sample, .ctx = &r };
	int rc = 0;
	*out = (struct c2c_tables){ 0 };
	r.ls = xcalloc(r.nids + 1, sizeof(*r.ls));
	for (size_t i = 0; !rc && i < r.nids; i++)
		rc = load_layouts(&r, i);
	if (!rc)
		rc = load_objects(&r);
	if (rc)
		snprintf(err, errlen, "reading layouts and objects: %s", sqlite3_errmsg(db));
	if (!rc)
		hitm_begin(&r.res, &r.om, r.ls);
	out->seen = xcalloc(r.nids + 1, sizeof(*out->seen));
	for (size_t i = 0; !rc && i < r.nids; i++) {
		struct c2c_stats before = r.d.total;
		rc = c2c_load(db, ids[i], &r.d, &sink, err, errlen);
		out->seen[out->nseen++] = (struct c2c_seen){ ids[i], r.d.total.load - before.load,
							     r.d.total.store - before.store };
	}
	if (!rc)
		fill(&r, hd, out);
	run_free(&r);
	return rc;
}
