/* Watchpoint samples to per-field writes, transfers, store sites and
 * per-line verdicts (pure core), and the loader that reads one session's
 * watch rows, breakpoint samples and metric lines. See watch.h. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/hitm/watch_load.h"
#include "lib/alloc.h"
#include "lib/hashmap.h"
#include "schema/db.h"

#define CPUMODE_KERNEL 1

/* ---- the core ---- */

/* watch_judge: see watch.h. */
enum share_verdict watch_judge(const struct watch_line *line, const struct watch_field *fields,
			       long long min_transfers)
{
	bool t = false, f = line->cross_field >= min_transfers && line->cross_field > 0;
	for (size_t i = 0; i < line->nfields; i++) {
		const struct watch_field *x = &fields[line->fields[i]];
		if (x->writer_cpus >= 2 && x->transfers >= min_transfers && x->transfers > 0)
			t = true;
	}
	return t && f ? SHARE_BOTH : t ? SHARE_TRUE : f ? SHARE_FALSE : SHARE_NONE;
}

/* watch_site_name: see watch.h. */
const char *watch_site_name(char *buf, size_t len, const char *name, uint64_t start,
			    uint64_t size, uint64_t at)
{
	if (!name || !strcmp(name, "[unknown]"))
		snprintf(buf, len, "0x%" PRIx64, at - 1);
	else if (at == start)
		snprintf(buf, len, "before %s", name);
	else if (at > start && (at - 1 - start < size || !size))
		snprintf(buf, len, "%s+0x%" PRIx64, name, at - 1 - start);
	else
		snprintf(buf, len, "%s", name);
	return buf;
}

/* cmp_def_addr: line building order: indexes of d's defs by watched
 * address. */
static int cmp_def_addr(const void *a, const void *b, void *d)
{
	const struct watch_data *data = d;
	uint64_t x = data->defs[*(const int *)a].addr, y = data->defs[*(const int *)b].addr;
	return x < y ? -1 : x > y;
}

/* add_to_line: def k into the last line of r, or a new one for line la. */
static void add_to_line(struct watch_result *r, uint64_t la, int k, size_t n, size_t *line_of)
{
	struct watch_line *l = r->nlines ? &r->lines[r->nlines - 1] : NULL;
	if (!l || l->addr != la) {
		l = &r->lines[r->nlines++];
		l->addr = la;
		l->fields = xcalloc(n, sizeof(*l->fields));
	}
	l->fields[l->nfields++] = k;
	line_of[k] = (size_t)(l - r->lines);
}

/* make_lines: the lines of d's fields (by address) and each def's line. */
static void make_lines(const struct watch_data *d, struct watch_result *r, size_t *line_of)
{
	size_t n = d->ndefs;
	int *order = xcalloc(n + 1, sizeof(*order));
	r->lines = xcalloc(n + 1, sizeof(*r->lines));
	for (size_t i = 0; i < n; i++)
		order[i] = (int)i;
	qsort_r(order, n, sizeof(*order), cmp_def_addr, (void *)d);
	for (size_t k = 0; k < n; k++)
		add_to_line(r, d->defs[order[k]].addr & ~(uint64_t)(WATCH_LINE - 1), order[k], n,
			    line_of);
	free(order);
}

/* cmp_site: sites by writes descending, then index. */
static int cmp_site(const void *a, const void *b)
{
	const struct watch_site_count *x = a, *y = b;
	if (x->writes != y->writes)
		return x->writes > y->writes ? -1 : 1;
	return (x->site > y->site) - (x->site < y->site);
}

/* finish_field: writer CPUs and sorted sites of field f from its counts. */
static void finish_field(struct watch_field *f, int ncpus, const long long *site_counts, size_t nsites)
{
	for (int c = 0; c < ncpus; c++)
		f->writer_cpus += f->cpu_writes[c] > 0;
	f->sites = xcalloc(nsites + 1, sizeof(*f->sites));
	for (size_t s = 0; s < nsites; s++)
		if (site_counts[s])
			f->sites[f->nsites++] = (struct watch_site_count){ (int32_t)s, site_counts[s] };
	qsort(f->sites, f->nsites, sizeof(*f->sites), cmp_site);
}

/* count_one: one sample into the field and line counts of c. */
static void count_one(const struct watch_data *d, struct watch_counts *c, const struct watch_sample *s)
{
	struct watch_result *r = &c->r;
	struct watch_field *f = &r->fields[s->w];
	struct watch_line *l = &r->lines[c->line_of[s->w]];
	struct watch_last *pl = &c->ll[c->line_of[s->w]], *lf = &c->lf[s->w];
	uint64_t v = 0;
	f->writes++;
	if (s->cpu >= 0 && s->cpu < d->ncpus)
		f->cpu_writes[s->cpu]++;
	if (lf->cpu >= 0 && lf->cpu != s->cpu)
		f->transfers++;
	lf->cpu = s->cpu;
	if (s->site >= 0 && (size_t)s->site < d->nsites) {
		hm_get(&c->sites, (uint64_t)s->w, (uint64_t)s->site, &v);
		hm_put(&c->sites, (uint64_t)s->w, (uint64_t)s->site, v + 1);
	}
	l->writes++;
	if (pl->cpu >= 0 && pl->cpu != s->cpu) {
		l->transfers++;
		if (pl->field == s->w)
			l->same_field++;
		else
			l->cross_field++;
	}
	*pl = (struct watch_last){ s->cpu, s->w };
}

/* counts_begin(d, c): empty counts for d's defs (its lines made). */
static void counts_begin(const struct watch_data *d, struct watch_counts *c)
{
	struct watch_result *r = &c->r;
	*c = (struct watch_counts){ .r = { .seconds = (double)(d->t1 - d->t0) / 1e9 } };
	c->line_of = xcalloc(d->ndefs + 1, sizeof(*c->line_of));
	c->lf = xcalloc(d->ndefs + 1, sizeof(*c->lf));
	c->ll = xcalloc(d->ndefs + 1, sizeof(*c->ll));
	hm_init(&c->sites);
	r->fields = xcalloc(d->ndefs + 1, sizeof(*r->fields));
	r->nfields = d->ndefs;
	c->ncpus = d->ncpus > 0 ? d->ncpus : 1;
	for (size_t i = 0; i < d->ndefs; i++)
		r->fields[i].cpu_writes = xcalloc((size_t)c->ncpus, sizeof(long long));
	make_lines(d, r, c->line_of);
	for (size_t i = 0; i < d->ndefs; i++)
		c->lf[i] = c->ll[i] = (struct watch_last){ -1, -1 };
}

/* counts_cpus(d, c): c's per-CPU counts cover d->ncpus CPUs. */
static void counts_cpus(const struct watch_data *d, struct watch_counts *c)
{
	if (d->ncpus <= c->ncpus)
		return;
	for (size_t i = 0; i < c->r.nfields; i++) {
		long long **w = &c->r.fields[i].cpu_writes;
		*w = xreallocarray(*w, (size_t)d->ncpus, sizeof(**w));
		memset(*w + c->ncpus, 0, (size_t)(d->ncpus - c->ncpus) * sizeof(**w));
	}
	c->ncpus = d->ncpus;
}

/* counts_free(c): frees c. */
static void counts_free(struct watch_counts *c)
{
	free(c->line_of);
	free(c->lf);
	free(c->ll);
	hm_free(&c->sites);
	watch_result_free(&c->r);
}

/* counts_result(d, c, min_transfers, r): the analysis of the counts c of
 * d's samples into r (c stays as it was). */
static void counts_result(const struct watch_data *d, const struct watch_counts *c,
			  long long min_transfers, struct watch_result *r)
{
	size_t nc = (size_t)(d->ncpus > 0 ? d->ncpus : 1);
	long long *sites = xcalloc(d->ndefs * d->nsites + 1, sizeof(*sites));
	*r = c->r;
	r->fields = xcalloc(d->ndefs + 1, sizeof(*r->fields));
	r->lines = xcalloc(c->r.nlines + 1, sizeof(*r->lines));
	for (size_t i = 0; i < d->ndefs; i++) {
		r->fields[i] = c->r.fields[i];
		r->fields[i].cpu_writes = xcalloc(nc, sizeof(long long));
		memcpy(r->fields[i].cpu_writes, c->r.fields[i].cpu_writes,
		       (size_t)(d->ncpus < c->ncpus ? d->ncpus : c->ncpus) * sizeof(long long));
	}
	for (size_t i = 0; i < c->r.nlines; i++) {
		r->lines[i] = c->r.lines[i];
		r->lines[i].fields = xcalloc(c->r.lines[i].nfields + 1, sizeof(int));
		memcpy(r->lines[i].fields, c->r.lines[i].fields, c->r.lines[i].nfields * sizeof(int));
	}
	for (size_t i = 0; i < c->sites.cap; i++)
		if (c->sites.used[i])
			sites[c->sites.k1[i] * d->nsites + c->sites.k2[i]] = (long long)c->sites.val[i];
	for (size_t i = 0; i < d->ndefs; i++)
		finish_field(&r->fields[i], d->ncpus, sites + i * d->nsites, d->nsites);
	for (size_t i = 0; i < r->nlines; i++)
		r->lines[i].verdict = watch_judge(&r->lines[i], r->fields, min_transfers);
	free(sites);
}

/* watch_analyze: see watch.h. */
void watch_analyze(const struct watch_data *d, long long min_transfers, struct watch_result *r)
{
	struct watch_counts c;
	if (d->counts) {	/* watch_load's: counted, d->s holds none */
		counts_result(d, d->counts, min_transfers, r);
		return;
	}
	counts_begin(d, &c);
	for (size_t i = 0; i < d->n; i++)
		if (d->s[i].w >= 0 && (size_t)d->s[i].w < d->ndefs)
			count_one(d, &c, &d->s[i]);
	counts_result(d, &c, min_transfers, r);
	counts_free(&c);
}

/* watch_firing: see watch.h. */
enum watch_firing watch_firing(const struct watch_data *d)
{
	const struct watch_canary_row *c = &d->canary;
	if (c->present)
		return c->seen + c->lost < c->writes ? WATCH_FIRING_NOT : WATCH_FIRING_VERIFIED;
	return d->n + (size_t)d->outside > 0 ? WATCH_FIRING_TRAPS : WATCH_FIRING_UNKNOWN;
}

/* watch_firing_name: see watch.h. */
const char *watch_firing_name(enum watch_firing f)
{
	static const char *const names[] = { "verified", "do not fire", "fired", "unverified" };
	return names[f];
}

/* watch_gives_verdict: see watch.h. */
bool watch_gives_verdict(enum watch_firing f)
{
	return f == WATCH_FIRING_VERIFIED || f == WATCH_FIRING_TRAPS;
}

/* watch_result_free: see watch.h. */
void watch_result_free(struct watch_result *r)
{
	for (size_t i = 0; r->lines && i < r->nlines; i++)
		free(r->lines[i].fields);
	for (size_t i = 0; r->fields && i < r->nfields; i++) {
		free(r->fields[i].cpu_writes);
		free(r->fields[i].sites);
	}
	free(r->lines);
	free(r->fields);
	*r = (struct watch_result){ 0 };
}

/* watch_data_free: see watch.h. */
void watch_data_free(struct watch_data *d)
{
	for (size_t i = 0; i < d->ndefs; i++) {
		free(d->defs[i].field);
		free(d->defs[i].spec);
		free(d->defs[i].kind);
		free(d->defs[i].type_name);
		free(d->defs[i].field_type);
	}
	for (size_t i = 0; i < d->nsites; i++)
		free(d->sites[i]);
	if (d->counts) {
		counts_free(d->counts);
		free(d->counts);
	}
	free(d->defs);
	free(d->s);
	free(d->sites);
	free(d->site_ip);
	free(d->label);
	free(d->workload);
	free(d->mm_mode);
	free(d->rates);
	*d = (struct watch_data){ 0 };
}

/* ---- loading one session ---- */

/* col_i64: column c as an integer, dflt when NULL. */
static int64_t col_i64(sqlite3_stmt *st, int c, int64_t dflt)
{
	return sqlite3_column_type(st, c) == SQLITE_NULL ? dflt : sqlite3_column_int64(st, c);
}

/* col_dup: column c as a malloc'ed string, NULL when NULL. */
static char *col_dup(sqlite3_stmt *st, int c)
{
	const char *t = (const char *)sqlite3_column_text(st, c);
	return xstrdup(t);
}

/* The session row's facts the loader needs. */
struct meta {
	int64_t first_time, last_time, first_id, last_id;
};

/* load_meta: label, workload, time and sample ranges of d->session. */
static int load_meta(sqlite3 *db, struct watch_data *d, struct meta *m)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT label, workload, first_time, last_time, "
		"first_sample_id, last_sample_id, nr_cpus_avail, nr_cpus_online FROM session WHERE id = ?");
	int rc = -1;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, d->session);
	if (sqlite3_step(st) == SQLITE_ROW) {
		d->label = col_dup(st, 0);
		d->workload = col_dup(st, 1);
		*m = (struct meta){ col_i64(st, 2, 0), col_i64(st, 3, 0), col_i64(st, 4, 1),
				    col_i64(st, 5, 0) };
		int64_t ncpus = col_i64(st, 6, col_i64(st, 7, 0));	/* the file's word */
		d->ncpus = ncpus > 0 && ncpus <= 65536 ? (int)ncpus : 0;
		d->t0 = m->first_time;
		d->t1 = m->last_time;
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

/* new_def: a zeroed def appended to d. */
static struct watch_def *new_def(struct watch_data *d)
{
	d->defs = xreallocarray(d->defs, d->ndefs + 1, sizeof(*d->defs));
	d->defs[d->ndefs] = (struct watch_def){ .event_id = -1 };
	return &d->defs[d->ndefs++];
}

/* row_def: one watch row (columns as load_rows selects them) into d. */
static void row_def(sqlite3_stmt *st, struct watch_data *d)
{
	struct watch_def *w = new_def(d);
	*w = (struct watch_def){ .spec = col_dup(st, 0), .field = col_dup(st, 1),
		.kind = col_dup(st, 15),
		.type_name = col_dup(st, 2), .field_type = col_dup(st, 3),
		.object_addr = (uint64_t)col_i64(st, 4, 0), .offset = col_i64(st, 5, 0),
		.size = col_i64(st, 6, 0), .addr = (uint64_t)col_i64(st, 7, 0),
		.len = (int)col_i64(st, 8, 0), .partial = col_i64(st, 9, 0),
		.wider = col_i64(st, 10, 0), .event_id = -1 };
	if (!d->has_window && sqlite3_column_type(st, 11) != SQLITE_NULL) {
		d->t0 = col_i64(st, 11, d->t0);
		d->t1 = col_i64(st, 12, d->t1);
		d->has_window = true;
	}
	d->pid = (int)col_i64(st, 13, 0);
	if (!d->mm_mode)
		d->mm_mode = col_dup(st, 14);
}

/* load_rows: the session's watch rows. 0 or -1. */
static int load_rows(sqlite3 *db, struct watch_data *d)
{
	sqlite3_stmt *st;
	if (!db_has_table(db, "watch"))
		return 0;
	if (!(st = db_prepare(db, "SELECT spec, field, type_name, field_type, object_addr, offset, "
			      "size, addr, len, partial, wider, armed_ns, ended_ns, pid, mm_mode, "
			      "kind FROM watch WHERE session_id = ? ORDER BY idx")))
		return -1;
	sqlite3_bind_int64(st, 1, d->session);
	while (sqlite3_step(st) == SQLITE_ROW)
		row_def(st, d);
	sqlite3_finalize(st);
	return 0;
}

/* canary_event: the recorded canary's event: the last breakpoint event
 * at its address and length (perfdb record puts it after the user's). */
static int64_t canary_event(sqlite3 *db, const struct watch_data *d)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id FROM event WHERE session_id = ? AND type = ? "
				      "AND config1 = ? AND config2 = ? ORDER BY idx DESC LIMIT 1");
	int64_t id = -1;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, d->session);
	sqlite3_bind_int(st, 2, WATCH_PERF_TYPE_BREAKPOINT);
	sqlite3_bind_int64(st, 3, (int64_t)d->canary.addr);
	sqlite3_bind_int(st, 4, d->canary.len);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

/* canary_lost: the samples of the canary's event perf says it lost. */
static long long canary_lost(sqlite3 *db, const struct watch_data *d)
{
	sqlite3_stmt *st;
	long long n = 0;
	if (d->canary.event_id < 0 || !db_has_table(db, "lost"))
		return 0;
	if (!(st = db_prepare(db, "SELECT coalesce(sum(n), 0) FROM lost WHERE session_id = ? AND "
			      "kind = 'lost_samples' AND event_id = ?")))
		return 0;
	sqlite3_bind_int64(st, 1, d->session);
	sqlite3_bind_int64(st, 2, d->canary.event_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* load_canary: the session's canary row, its event and lost samples. 0 or -1. */
static int load_canary(sqlite3 *db, struct watch_data *d)
{
	struct watch_canary_row *c = &d->canary;
	sqlite3_stmt *st;
	*c = (struct watch_canary_row){ .event_id = -1 };
	if (!db_has_table(db, "watch_canary"))
		return 0;
	if (!(st = db_prepare(db, "SELECT how, addr, len, writes, seen FROM watch_canary "
			      "WHERE session_id = ?")))
		return -1;
	sqlite3_bind_int64(st, 1, d->session);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *how = sqlite3_column_text(st, 0);
		*c = (struct watch_canary_row){ .present = true, .addr = (uint64_t)col_i64(st, 1, 0),
			.len = (int)col_i64(st, 2, 0), .event_id = -1, .writes = col_i64(st, 3, 0),
			.seen = col_i64(st, 4, 0) };
		snprintf(c->how, sizeof(c->how), "%s", how ? (const char *)how : "");
	}
	sqlite3_finalize(st);
	if (c->present && !strcmp(c->how, "recorded")) {
		c->event_id = canary_event(db, d);
		c->lost = canary_lost(db, d);
	}
	return 0;
}

/* match_events: each def's breakpoint event (bp_addr in config1, bp_len in
 * config2); without watch rows, one def per breakpoint event; never the
 * canary's. 0 or -1. */
static int match_events(sqlite3 *db, struct watch_data *d)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, name, config1, config2 FROM event "
				      "WHERE session_id = ? AND type = ? ORDER BY idx");
	bool bare = d->ndefs == 0;
	int rc = 0;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, d->session);
	sqlite3_bind_int(st, 2, WATCH_PERF_TYPE_BREAKPOINT);
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		uint64_t addr = (uint64_t)col_i64(st, 2, 0);
		int len = (int)col_i64(st, 3, 0);
		struct watch_def *w = NULL;
		if (sqlite3_column_int64(st, 0) == d->canary.event_id)
			continue;
		for (size_t i = 0; !bare && i < d->ndefs; i++)
			if (d->defs[i].addr == addr && d->defs[i].len == len && d->defs[i].event_id < 0)
				w = &d->defs[i];
		if (bare) {
			w = new_def(d);
			*w = (struct watch_def){ .field = col_dup(st, 1), .addr = addr,
				.object_addr = addr, .len = len, .size = len };
			rc = w->field ? 0 : -1;
		}
		if (w)
			w->event_id = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return rc;
}

/* process_of: the process row of thread row tid (-1 when unknown). */
static int64_t process_of(sqlite3 *db, const char *sql, int64_t id)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	int64_t p = -1;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		p = col_i64(st, 0, -1);
	sqlite3_finalize(st);
	return p;
}

/* user_at: a user ip in its file's address space (ip - mapping start +
 * file offset), looking through the process and the parents it forked
 * from. 0, or -1 when no mapping holds it. */
static int user_at(sqlite3 *db, int64_t thread, uint64_t ip, uint64_t *at)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT start, pgoff FROM mmap WHERE process_id = ? AND "
				      "start <= ? AND ? - start < len ORDER BY time DESC LIMIT 1");
	int64_t proc = process_of(db, "SELECT process_id FROM thread WHERE id = ?", thread);
	int rc = -1;
	for (int depth = 0; st && rc && proc >= 0 && depth < 8; depth++) {
		sqlite3_bind_int64(st, 1, proc);
		sqlite3_bind_int64(st, 2, (int64_t)ip);
		sqlite3_bind_int64(st, 3, (int64_t)ip);
		if (sqlite3_step(st) == SQLITE_ROW) {
			*at = ip - (uint64_t)col_i64(st, 0, 0) + (uint64_t)col_i64(st, 1, 0);
			rc = 0;
		}
		sqlite3_reset(st);
		proc = process_of(db, "SELECT parent_id FROM process WHERE id = ?", proc);
	}
	sqlite3_finalize(st);
	return rc;
}

/* The sample query's columns. */
enum { C_TIME, C_CPU, C_EVENT, C_IP, C_MODE, C_THREAD, C_SYM, C_START, C_SIZE, C_KERNEL };

/* new_site: interns the store site of the sample in st as d's next site. */
static int32_t new_site(sqlite3 *db, struct watch_data *d, sqlite3_stmt *st)
{
	const char *name = (const char *)sqlite3_column_text(st, C_SYM);
	uint64_t ip = (uint64_t)col_i64(st, C_IP, 0), at = ip;
	char buf[512];
	bool kernel = col_i64(st, C_KERNEL, 0) || col_i64(st, C_MODE, 0) == CPUMODE_KERNEL;
	if (d->nsites == d->sites_cap) {
		d->sites_cap = alloc_nr(d->sites_cap);
		d->sites = xreallocarray(d->sites, d->sites_cap, sizeof(*d->sites));
		d->site_ip = xreallocarray(d->site_ip, d->sites_cap, sizeof(*d->site_ip));
	}
	if (!kernel && name && strcmp(name, "[unknown]") && user_at(db, col_i64(st, C_THREAD, -1), ip, &at))
		snprintf(buf, sizeof(buf), "%s", name);	/* no mapping: no offset */
	else
		watch_site_name(buf, sizeof(buf), name, (uint64_t)col_i64(st, C_START, 0),
				(uint64_t)col_i64(st, C_SIZE, 0), at);
	d->sites[d->nsites] = xstrdup(buf);
	d->site_ip[d->nsites] = ip;
	return (int32_t)d->nsites++;
}

/* site_of: the site index of the sample in st (interned by ip and mode). */
static int32_t site_of(sqlite3 *db, struct watch_data *d, struct hashmap *ix, sqlite3_stmt *st)
{
	uint64_t ip = (uint64_t)col_i64(st, C_IP, 0), mode = (uint64_t)col_i64(st, C_MODE, 0), v;
	int32_t s;
	if (hm_get(ix, ip, mode, &v))
		return (int32_t)v;
	s = new_site(db, d, st);
	hm_put(ix, ip, mode, (uint64_t)s);
	return s;
}

/* add_sample: one sample row into d (or its outside count). */
static void add_sample(sqlite3 *db, struct watch_data *d, struct hashmap *ix, sqlite3_stmt *st)
{
	int64_t ev = col_i64(st, C_EVENT, -1), t = col_i64(st, C_TIME, 0);
	struct watch_sample s = { .time = t, .cpu = (int)col_i64(st, C_CPU, -1), .w = -1 };
	for (size_t i = 0; i < d->ndefs; i++)
		if (d->defs[i].event_id == ev)
			s.w = (int)i;
	if (s.w < 0)
		return;
	if (t < d->t0 || t > d->t1) {
		d->outside++;
		return;
	}
	s.site = site_of(db, d, ix, st);
	if (s.cpu > 65535)	/* no machine has it: a CPU not known */
		s.cpu = -1;
	if (s.cpu >= d->ncpus)
		d->ncpus = s.cpu + 1;
	counts_cpus(d, d->counts);
	count_one(d, d->counts, &s);
	d->n++;
}

/* load_samples: the breakpoint samples of the session, in time order. */
static int load_samples(sqlite3 *db, struct watch_data *d, const struct meta *m)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT s.time, s.cpu, s.event_id, s.ip, s.cpumode, "
		"s.thread_id, sy.name, sy.start, sy.size, o.kernel FROM sample s "
		"LEFT JOIN symbol sy ON sy.id = s.symbol_id LEFT JOIN dso o ON o.id = sy.dso_id "
		"WHERE s.id BETWEEN ? AND ? AND s.session_id = ? AND s.event_id IN "
		"(SELECT id FROM event WHERE session_id = ? AND type = ?) ORDER BY s.id");
	struct hashmap ix;
	int rc = 0;
	if (!st)
		return -1;
	hm_init(&ix);
	sqlite3_bind_int64(st, 1, m->first_id);
	sqlite3_bind_int64(st, 2, m->last_id);
	sqlite3_bind_int64(st, 3, d->session);
	sqlite3_bind_int64(st, 4, d->session);
	sqlite3_bind_int(st, 5, WATCH_PERF_TYPE_BREAKPOINT);
	d->counts = xcalloc(1, sizeof(*d->counts));
	counts_begin(d, d->counts);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		add_sample(db, d, &ix, st);
	sqlite3_finalize(st);
	hm_free(&ix);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* unwatched_elsewhere: the latest unwatched value of metric name from
 * another session of the same workload (its --watch-baseline run). */
static void unwatched_elsewhere(sqlite3 *db, const struct watch_data *d, struct watch_rate *r)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT m.value, m.session_id FROM workload_metric m "
		"JOIN session s ON s.id = m.session_id WHERE m.name = ? AND m.watched = 0 AND "
		"m.session_id != ? AND s.workload = ? ORDER BY m.session_id DESC LIMIT 1");
	if (!st || !d->workload) {
		sqlite3_finalize(st);
		return;
	}
	sqlite3_bind_text(st, 1, r->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, d->session);
	sqlite3_bind_text(st, 3, d->workload, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		r->unwatched = sqlite3_column_double(st, 0);
		r->unwatched_session = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
}

/* rate_of: the rate named name in d, added (both values NAN) when new. */
static struct watch_rate *rate_of(struct watch_data *d, const char *name)
{
	struct watch_rate *v;
	for (size_t i = 0; i < d->nrates; i++)
		if (!strcmp(d->rates[i].name, name))
			return &d->rates[i];
	d->rates = xreallocarray(d->rates, d->nrates + 1, sizeof(*d->rates));
	v = &d->rates[d->nrates++];
	*v = (struct watch_rate){ .watched = NAN, .unwatched = NAN, .unwatched_session = -1 };
	snprintf(v->name, sizeof(v->name), "%s", name);
	return v;
}

/* load_rates: the session's metric lines, and unwatched rates elsewhere. */
static int load_rates(sqlite3 *db, struct watch_data *d)
{
	sqlite3_stmt *st;
	if (!db_has_table(db, "workload_metric"))
		return 0;
	if (!(st = db_prepare(db, "SELECT name, value, watched FROM workload_metric "
			      "WHERE session_id = ? AND name IS NOT NULL ORDER BY rowid")))
		return -1;
	sqlite3_bind_int64(st, 1, d->session);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct watch_rate *r = rate_of(d, (const char *)sqlite3_column_text(st, 0));
		double *v = sqlite3_column_int(st, 2) ? &r->watched : &r->unwatched;
		if (isnan(*v))
			*v = sqlite3_column_double(st, 1);
		if (v == &r->unwatched)
			r->unwatched_session = d->session;
	}
	sqlite3_finalize(st);
	for (size_t i = 0; i < d->nrates; i++)
		if (isnan(d->rates[i].unwatched))
			unwatched_elsewhere(db, d, &d->rates[i]);
	return 0;
}

/* watch_load: see watch.h. */
int watch_load(sqlite3 *db, int64_t session, struct watch_data *d, char *err, size_t errlen)
{
	struct meta m;
	*d = (struct watch_data){ .session = session, .canary = { .event_id = -1 } };
	if (load_meta(db, d, &m)) {
		snprintf(err, errlen, "no session %lld", (long long)session);
		watch_data_free(d);
		return -1;
	}
	if (load_rows(db, d) || load_canary(db, d) || match_events(db, d) || (d->ndefs && load_samples(db, d, &m)) ||
	    (d->ndefs && load_rates(db, d))) {
		snprintf(err, errlen, "session %lld: reading watch samples: %s", (long long)session,
			 sqlite3_errmsg(db));
		watch_data_free(d);
		return -1;
	}
	return d->ndefs ? 1 : 0;
}
