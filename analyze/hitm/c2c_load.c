/* Loading memory samples and grouping them into perf c2c's cachelines
 * (see c2c_load.h): the session's maps and CPU topology first, then one
 * query over mem_sample in sample order, each sample decoded (c2c.h),
 * keyed, counted into its line and handed to the sink. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/hitm/c2c_load.h"
#include "lib/alloc.h"
#include "lib/hashmap.h"
#include "lib/search.h"
#include "schema/db.h"

#define MAP_SHARED_FLAG 0x01
#define CPUMODE_KERNEL 1

/* One mapping of a process. */
struct lmap {
	uint64_t start, len, pgoff;
	int64_t time;		/* INT64_MIN: before the recording */
	int64_t dso;		/* dso row id, -1 none */
	bool anon, identity, shared;
};

/* A process row's maps and what it inherits. */
struct lproc {
	int64_t id, parent, start;
	int exec_gen;
	struct lmap *m;
	size_t n, cap;
};

/* The per-session and whole-load indexes (c2c_data.priv). */
struct index {
	struct hashmap groups;	/* (kind word, id) -> group */
	struct hashmap lines;	/* (group, line of al_addr) -> line */
	struct hashmap sites;	/* (session, ip) -> site */
};

/* A thread row's columns the samples need (-1: NULL or no row). */
struct sthread {
	int64_t pid, tid, process;
};

/* Per session, while loading. */
struct sess {
	uint16_t ix;
	int64_t id, first, last;
	bool arch32;
	int *node;		/* node of each CPU, -1 */
	int nnode;
	struct lproc *procs;
	size_t nprocs;
	struct hashmap proc_ix;	/* (process row, 0) -> procs index */
	struct hashmap map_cache;	/* (process, page), maps visible -> map + 1 */
	struct hashmap threads;	/* (thread row, 0) -> index in thr */
	struct sthread *thr;
	size_t nthr, thr_cap;
	sqlite3_stmt *thread_st, *sym_st; /* a thread row, a symbol row with its dso */
};

/* c2c_anon_path: see c2c_load.h. */
int c2c_anon_path(const char *p)
{
	if (!p || p[0] != '/' || p[1] == '/')
		return 1;
	return !strncmp(p, "/dev/zero", 9) || !strncmp(p, "/anon_hugepage", 14) ||
	       !strncmp(p, "/SYSV", 5) || !strncmp(p, "/memfd:", 7);
}

/* c2c_identity_path: see c2c_load.h. */
int c2c_identity_path(const char *p)
{
	if (!p)
		return 1;
	return !strcmp(p, "//anon") || !strncmp(p, "/dev/zero", 9) ||
	       !strncmp(p, "/anon_hugepage", 14) || !strncmp(p, "[stack", 6) ||
	       !strncmp(p, "/SYSV", 5) || !strcmp(p, "[heap]");
}

/* col_or(st, i, dflt): integer column i, or dflt when NULL. */
static int64_t col_or(sqlite3_stmt *st, int i, int64_t dflt)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? dflt : sqlite3_column_int64(st, i);
}

/* load_session_row(db, s, err, errlen): the session's sample range and
 * word size. 0 or -1. */
static int load_session_row(sqlite3 *db, struct sess *s, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT first_sample_id, last_sample_id, arch "
				      "FROM session WHERE id = ?");
	int rc = -1;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, s->id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *arch = (const char *)sqlite3_column_text(st, 2);
		s->first = col_or(st, 0, 1);
		s->last = col_or(st, 1, 0);
		s->arch32 = arch && (!strcmp(arch, "i686") || !strcmp(arch, "i386") ||
				     !strncmp(arch, "armv7", 5) || !strcmp(arch, "arm"));
		rc = 0;
	} else {
		snprintf(err, errlen, "no session %" PRId64, s->id);
	}
	sqlite3_finalize(st);
	return rc;
}

/* load_nodes(db, s): the node of each CPU of the session's topology. */
static void load_nodes(sqlite3 *db, struct sess *s)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT cpu, node FROM cpu WHERE session_id = ? "
				      "AND cpu BETWEEN 0 AND 65535 ORDER BY cpu");
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, s->id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int cpu = sqlite3_column_int(st, 0);
		if (cpu >= s->nnode) {
			s->node = xreallocarray(s->node, (size_t)cpu + 1, sizeof(*s->node));
			for (int i = s->nnode; i <= cpu; i++)
				s->node[i] = -1;
			s->nnode = cpu + 1;
		}
		s->node[cpu] = (int)col_or(st, 1, -1);
	}
	sqlite3_finalize(st);
}

/* proc_of(s, id): the lproc of process row id, created when new. */
static struct lproc *proc_of(struct sess *s, int64_t id)
{
	uint64_t v;
	if (hm_get(&s->proc_ix, (uint64_t)id, 0, &v))
		return &s->procs[v];
	s->procs = xreallocarray(s->procs, s->nprocs + 1, sizeof(*s->procs));
	s->procs[s->nprocs] = (struct lproc){ .id = id, .parent = -1, .start = INT64_MIN };
	hm_put(&s->proc_ix, (uint64_t)id, 0, s->nprocs);
	return &s->procs[s->nprocs++];
}

/* load_procs(db, s): every process row's parent, exec generation, start. */
static void load_procs(sqlite3 *db, struct sess *s)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, parent_id, exec_gen, start_time "
				      "FROM process WHERE session_id = ?");
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, s->id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct lproc *p = proc_of(s, sqlite3_column_int64(st, 0));
		p->parent = col_or(st, 1, -1);
		p->exec_gen = (int)col_or(st, 2, 0);
		p->start = col_or(st, 3, INT64_MIN);
	}
	sqlite3_finalize(st);
}

/* load_maps(db, s): the session's user mappings by process. */
static void load_maps(sqlite3 *db, struct sess *s)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT m.process_id, m.time, m.start, m.len, m.pgoff, "
				      "m.flags, m.dso_id, d.path FROM mmap m LEFT JOIN dso d ON "
				      "d.id = m.dso_id WHERE m.session_id = ? AND m.process_id "
				      "IS NOT NULL ORDER BY m.time");
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, s->id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct lproc *p = proc_of(s, sqlite3_column_int64(st, 0));
		const char *path = (const char *)sqlite3_column_text(st, 7);
		ALLOC_GROW(p->m, p->n + 1, p->cap);
		p->m[p->n++] = (struct lmap){
			.time = col_or(st, 1, INT64_MIN),
			.start = (uint64_t)col_or(st, 2, 0), .len = (uint64_t)col_or(st, 3, 0),
			.pgoff = (uint64_t)col_or(st, 4, 0), .dso = col_or(st, 6, -1),
			.shared = col_or(st, 5, 0) & MAP_SHARED_FLAG,
			.anon = c2c_anon_path(path), .identity = c2c_identity_path(path) };
	}
	sqlite3_finalize(st);
}

/* made_by(m, t): whether map m was made at or before time *t. */
static bool made_by(const void *m, const void *t)
{
	return ((const struct lmap *)m)->time <= *(const int64_t *)t;
}

/* visible(p, t): how many of p's maps (in time order) exist at time t. */
static size_t visible(const struct lproc *p, int64_t t)
{
	return lower_bound(p->m, p->n, sizeof(*p->m), &t, made_by);
}

/* find_in(s, pi, addr, t): the latest map of process pi covering addr at
 * time t. Answers are cached per page and kept while no newer map
 * appears (samples come in time order). */
static const struct lmap *find_in(struct sess *s, size_t pi, uint64_t addr, int64_t t)
{
	const struct lproc *p = &s->procs[pi];
	size_t vis = visible(p, t), found = 0;
	uint64_t v, key = (uint64_t)pi << 44 ^ addr >> 12;
	if (hm_get(&s->map_cache, key, vis, &v))
		return v ? &p->m[v - 1] : NULL;
	for (size_t i = 0; i < vis; i++) {
		const struct lmap *m = &p->m[i];
		if (addr - m->start < m->len)
			found = i + 1;	/* rows are in time order: the last wins */
	}
	bool whole_page = true;
	for (size_t i = 0; i < vis && whole_page; i++) {	/* cache only when the page */
		const struct lmap *m = &p->m[i];		/* has no map boundary */
		uint64_t page = addr & ~0xfffULL;
		whole_page = m->start <= page || m->start >= page + 0x1000;
		whole_page &= m->start + m->len <= page || m->start + m->len >= page + 0x1000;
	}
	if (whole_page)
		hm_put(&s->map_cache, key, vis, found);
	return found ? &p->m[found - 1] : NULL;
}

/* find_map(s, proc, addr, t): the map of addr in process row proc at
 * time t, looking into the parents a process without exec inherited its
 * maps from; NULL when none. */
static const struct lmap *find_map(struct sess *s, int64_t proc, uint64_t addr, int64_t t)
{
	for (int depth = 0; depth < 16 && proc >= 0; depth++) {
		uint64_t v;
		if (!hm_get(&s->proc_ix, (uint64_t)proc, 0, &v))
			return NULL;
		const struct lproc *p = &s->procs[v];
		const struct lmap *m = find_in(s, v, addr, t);
		if (m || p->exec_gen > 0)
			return m;
		if (p->start != INT64_MIN && p->start < t)
			t = p->start;
		proc = p->parent;
	}
	return NULL;
}

/* is_kernel_addr(s, addr): whether addr is in the kernel's half. */
static bool is_kernel_addr(const struct sess *s, uint64_t addr)
{
	if (s->arch32)
		return addr >= 0xc0000000ULL && addr <= 0xffffffffULL;
	return addr >= 0xffff000000000000ULL;
}

/* group_of(d, x, s, kind, id, cpumode): the key group index. */
static int32_t group_of(struct c2c_data *d, struct index *x, const struct sess *s, int kind,
			uint64_t id, unsigned cpumode)
{
	uint64_t k1 = (uint64_t)s->ix << 16 | (uint64_t)(cpumode & 0xff) << 8 | (uint64_t)kind, v;
	if (hm_get(&x->groups, k1, id, &v))
		return (int32_t)v;
	hm_put(&x->groups, k1, id, (uint64_t)d->ngroups);
	return d->ngroups++;
}

/* line_of(d, x, s, smp, proc): the line index of sample smp of process
 * row proc, created when new. */
static int32_t line_of(struct c2c_data *d, struct index *x, struct sess *s,
		       const struct c2c_sample *smp, int64_t proc)
{
	const struct lmap *m = NULL;
	uint64_t al = smp->addr, id = 0, v;
	int kind = 0, pid = -1;
	if (!is_kernel_addr(s, smp->addr) && proc >= 0)
		m = find_map(s, proc, smp->addr, smp->time);
	if (m && m->anon) {
		kind = 1;
		if (smp->cpumode != CPUMODE_KERNEL && !m->shared)
			pid = smp->pid;
		id = (uint32_t)pid;
	} else if (m) {
		kind = 2;
		id = (uint64_t)m->dso;
	}
	if (m && !m->identity)
		al = smp->addr - m->start + m->pgoff;
	int32_t g = group_of(d, x, s, kind, id, smp->cpumode);
	if (hm_get(&x->lines, (uint64_t)g, c2c_cl_address(al), &v))
		return (int32_t)v;
	ALLOC_GROW(d->lines, d->nlines + 1, d->lines_cap);
	d->lines[d->nlines] = (struct c2c_line){ .address = c2c_cl_address(smp->addr),
		.group = g, .session = s->ix, .cpumode = smp->cpumode, .pid = pid };
	hm_put(&x->lines, (uint64_t)g, c2c_cl_address(al), d->nlines);
	return (int32_t)d->nlines++;
}

/* site_name(buf, len, st, smp, s, proc): "symbol+0xoff" of the sample's
 * ip from the symbol row st holds (0: name, 1: start, 2: size, 3: kernel
 * dso; st NULL: no symbol), or "0xip". */
static void site_name(char *buf, size_t len, sqlite3_stmt *st, const struct c2c_sample *smp,
		      struct sess *s, int64_t proc)
{
	const char *name = st ? (const char *)sqlite3_column_text(st, 0) : NULL;
	uint64_t start = st ? (uint64_t)col_or(st, 1, 0) : 0, size = st ? (uint64_t)col_or(st, 2, 0) : 0;
	uint64_t at = smp->ip;
	if (!name || !strcmp(name, "[unknown]")) {
		snprintf(buf, len, "0x%" PRIx64, smp->ip);
		return;
	}
	if (!col_or(st, 3, 0)) {	/* user: the ELF address, as the symbol's */
		const struct lmap *m = proc >= 0 ? find_map(s, proc, smp->ip, smp->time) : NULL;
		at = m ? smp->ip - m->start + m->pgoff : start - 1;
	}
	if (at >= start && (at - start < size || (!size && at == start)))
		snprintf(buf, len, "%s+0x%" PRIx64, name, at - start);
	else
		snprintf(buf, len, "%s", name);
}

/* site_of(d, x, symbol, smp, s, proc): the interned code site of smp,
 * whose symbol row is symbol (-1: none): the first sample of a session at
 * an ip names it. */
static int32_t site_of(struct c2c_data *d, struct index *x, int64_t symbol,
		       const struct c2c_sample *smp, struct sess *s, int64_t proc)
{
	char buf[512];
	uint64_t v;
	if (hm_get(&x->sites, s->ix, smp->ip, &v))
		return (int32_t)v;
	sqlite3_reset(s->sym_st);
	sqlite3_bind_int64(s->sym_st, 1, symbol);
	bool found = symbol >= 0 && sqlite3_step(s->sym_st) == SQLITE_ROW;
	site_name(buf, sizeof(buf), found ? s->sym_st : NULL, smp, s, proc);
	ALLOC_GROW(d->sites, d->nsites + 1, d->sites_cap);
	d->sites[d->nsites] = xstrdup(buf);
	hm_put(&x->sites, s->ix, smp->ip, d->nsites);
	return (int32_t)d->nsites++;
}

/* The samples; their thread and symbol rows are looked up once each (a
 * join would look them up for every sample). */
static const char samples_sql[] =
	"SELECT s.time, s.cpu, s.ip, s.cpumode, s.thread_id, m.addr, m.weight, m.mem_op, "
	"m.mem_lvl, m.snoop, s.symbol_id, m.snoopx, m.mem_lock, m.blk, m.remote, m.hops "
	"FROM mem_sample m JOIN sample s ON s.id = m.sample_id "
	"WHERE m.sample_id BETWEEN ?1 AND ?2 ORDER BY m.sample_id";

/* thread_of(s, st, i): the thread row of column i of st (cached). */
static struct sthread thread_of(struct sess *s, sqlite3_stmt *st, int i)
{
	struct sthread t = { -1, -1, -1 };
	uint64_t v;
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return t;
	int64_t id = sqlite3_column_int64(st, i);
	if (hm_get(&s->threads, (uint64_t)id, 0, &v))
		return s->thr[v];
	sqlite3_reset(s->thread_st);
	sqlite3_bind_int64(s->thread_st, 1, id);
	if (sqlite3_step(s->thread_st) == SQLITE_ROW)
		t = (struct sthread){ col_or(s->thread_st, 0, -1), col_or(s->thread_st, 1, -1),
				      col_or(s->thread_st, 2, -1) };
	ALLOC_GROW(s->thr, s->nthr + 1, s->thr_cap);
	s->thr[s->nthr] = t;
	hm_put(&s->threads, (uint64_t)id, 0, s->nthr++);
	return t;
}

/* add_sample(d, x, s, st, sink): decodes the current row of st, counts
 * it into d and hands it to sink. */
static void add_sample(struct c2c_data *d, struct index *x, struct sess *s, sqlite3_stmt *st,
		       const struct c2c_sink *sink)
{
	struct c2c_src m = {
		.addr = (uint64_t)col_or(st, 5, 0), .op = (unsigned)col_or(st, 7, 0),
		.lvl = (unsigned)col_or(st, 8, 0), .snoop = (unsigned)col_or(st, 9, 0),
		.snoopx = (unsigned)col_or(st, 11, 0), .lock = (unsigned)col_or(st, 12, 0),
		.blk = (unsigned)col_or(st, 13, 0), .remote = (unsigned)col_or(st, 14, 0),
		.hops = (unsigned)col_or(st, 15, 0) };
	struct sthread t = thread_of(s, st, 4);
	int64_t proc = t.process, cpu = col_or(st, 1, -1);
	struct c2c_sample smp = { .time = col_or(st, 0, 0),
		.cpu = cpu >= 0 && cpu <= C2C_CPU_MAX ? (int32_t)cpu : -1,
		.ip = (uint64_t)col_or(st, 2, 0), .cpumode = (uint8_t)col_or(st, 3, 0),
		.pid = (int32_t)t.pid, .tid = (int32_t)t.tid,
		.addr = m.addr, .weight = (uint32_t)col_or(st, 6, 0), .session = s->ix,
		.node = -1 };
	struct c2c_stats one = { 0 };
	if (smp.cpu >= 0 && smp.cpu < s->nnode)
		smp.node = s->node[smp.cpu];
	if (smp.cpu > d->max_cpu)
		d->max_cpu = smp.cpu;
	smp.cls = (uint8_t)c2c_decode(&one, &m);
	smp.stc = (uint8_t)((one.st_l1hit ? C2C_ST_L1HIT : 0) | (one.st_l1miss ? C2C_ST_L1MISS : 0) |
			    (one.st_na ? C2C_ST_NA : 0));
	smp.site = site_of(d, x, col_or(st, 10, -1), &smp, s, proc);
	smp.line = line_of(d, x, s, &smp, proc);
	c2c_stats_add(&d->total, &one);
	struct c2c_line *l = &d->lines[smp.line];
	c2c_stats_add(&l->st, &one);
	l->n++;
	d->n++;
	if (sink)
		sink->sample(sink->ctx, d, &smp);
}

/* load_samples(db, d, x, s, sink, err, errlen): every mem_sample row of
 * s, through sink. */
static int load_samples(sqlite3 *db, struct c2c_data *d, struct index *x, struct sess *s,
			const struct c2c_sink *sink, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, samples_sql);
	int rc;
	s->thread_st = db_prepare(db, "SELECT pid, tid, process_id FROM thread WHERE id = ?");
	s->sym_st = db_prepare(db, "SELECT y.name, y.start, y.size, d.kernel FROM symbol y "
			       "LEFT JOIN dso d ON d.id = y.dso_id WHERE y.id = ?");
	if (!st || !s->thread_st || !s->sym_st) {
		sqlite3_finalize(st);
		snprintf(err, errlen, "cannot query mem_sample: %s", sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_int64(st, 1, s->first);
	sqlite3_bind_int64(st, 2, s->last);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		add_sample(d, x, s, st, sink);
	if (rc != SQLITE_DONE)
		snprintf(err, errlen, "reading mem_sample: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* load_events(db, d, s): the names of the events the samples came from. */
static void load_events(sqlite3 *db, struct c2c_data *d, const struct sess *s)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT DISTINCT e.name FROM event e WHERE "
				      "e.session_id = ?1 AND EXISTS (SELECT 1 FROM sample x JOIN "
				      "mem_sample m ON m.sample_id = x.id WHERE x.event_id = e.id "
				      "AND x.id BETWEEN ?2 AND ?3) ORDER BY e.idx");
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, s->id);
	sqlite3_bind_int64(st, 2, s->first);
	sqlite3_bind_int64(st, 3, s->last);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *n = (const char *)sqlite3_column_text(st, 0);
		bool seen = false;
		for (size_t i = 0; n && i < d->nevents; i++)
			seen |= !strcmp(d->events[i], n);
		if (!n || seen)
			continue;
		d->events = xreallocarray(d->events, d->nevents + 1, sizeof(*d->events));
		d->events[d->nevents++] = xstrdup(n);
	}
	sqlite3_finalize(st);
}

/* sess_free(s): frees a session's loading state. */
static void sess_free(struct sess *s)
{
	for (size_t i = 0; i < s->nprocs; i++)
		free(s->procs[i].m);
	free(s->procs);
	free(s->node);
	hm_free(&s->proc_ix);
	hm_free(&s->map_cache);
	hm_free(&s->threads);
	free(s->thr);
	sqlite3_finalize(s->thread_st);
	sqlite3_finalize(s->sym_st);
}

/* index_of(d): d's key index, created on first use. */
static struct index *index_of(struct c2c_data *d)
{
	if (!d->priv) {
		struct index *x = xcalloc(1, sizeof(*x));
		hm_init(&x->groups);
		hm_init(&x->lines);
		hm_init(&x->sites);
		d->priv = x;
		d->max_cpu = -1;
	}
	return d->priv;
}

/* c2c_load: see c2c_load.h. */
int c2c_load(sqlite3 *db, int64_t session, struct c2c_data *d, const struct c2c_sink *sink,
	     char *err, size_t errlen)
{
	struct index *x = index_of(d);
	struct sess s = { .id = session, .ix = (uint16_t)d->nsessions };
	int rc;
	hm_init(&s.proc_ix);
	hm_init(&s.map_cache);
	hm_init(&s.threads);
	if (d->nsessions >= UINT16_MAX) {
		snprintf(err, errlen, "too many sessions");
		return -1;
	}
	d->sessions = xreallocarray(d->sessions, d->nsessions + 1, sizeof(*d->sessions));
	d->sessions[d->nsessions++] = session;
	rc = load_session_row(db, &s, err, errlen);
	if (!rc) {
		load_nodes(db, &s);
		load_procs(db, &s);
		load_maps(db, &s);
		rc = load_samples(db, d, x, &s, sink, err, errlen);
		load_events(db, d, &s);
	}
	sess_free(&s);
	return rc;
}

/* c2c_data_free: see c2c_load.h. */
void c2c_data_free(struct c2c_data *d)
{
	struct index *x = d->priv;
	for (size_t i = 0; i < d->nsites; i++)
		free(d->sites[i]);
	for (size_t i = 0; i < d->nevents; i++)
		free(d->events[i]);
	if (x) {
		hm_free(&x->groups);
		hm_free(&x->lines);
		hm_free(&x->sites);
		free(x);
	}
	free(d->lines);
	free(d->sites);
	free(d->events);
	free(d->sessions);
	*d = (struct c2c_data){ 0 };
}
