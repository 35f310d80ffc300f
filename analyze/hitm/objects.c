/* The object map of field attribution (see objects.h): loading a
 * session's objects from its c2c_object rows, tracepoints and kallsyms
 * snapshot, and lookups by address. Only reads the database. */
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/hitm/objects.h"
#include "lib/alloc.h"
#include "lib/kallsyms.h"
#include "lib/search.h"
#include "schema/db.h"
#include "schema/session_kallsyms.h"

/* push(m, o): appends o (its strings already owned) to m. */
static void push(struct objmap *m, struct hobj o)
{
	ALLOC_GROW(m->v, m->n + 1, m->cap);
	m->v[m->n++] = o;
}

/* source_of(s): the enum obj_source of a c2c_object source text. */
static uint8_t source_of(const char *s)
{
	return s && !strncmp(s, "dwarf", 5) ? OBJ_DWARF : OBJ_USER;
}

/* load_stored(db, session, ix, ls, m): the session's c2c_object rows. */
static long load_stored(sqlite3 *db, int64_t session, uint16_t ix, const struct layout_set *ls,
			struct objmap *m)
{
	sqlite3_stmt *st;
	long n = 0;
	if (!db_has_table(db, "c2c_object"))
		return 0;
	if (!(st = db_prepare(db, "SELECT type_name, type_decl, name, address, size, pid, source "
			      "FROM c2c_object WHERE session_id = ?")))
		return -1;
	sqlite3_bind_int64(st, 1, session);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(st, 0);
		const struct layout *l = type && *type ? layouts_find(ls, type) : NULL;
		uint64_t size = (uint64_t)sqlite3_column_int64(st, 4);
		if (!size && l)
			size = (uint64_t)layout_size(l);
		push(m, (struct hobj){ .addr = (uint64_t)sqlite3_column_int64(st, 3), .size = size,
			.t0 = INT64_MIN, .t1 = INT64_MAX, .session = ix,
			.pid = sqlite3_column_type(st, 5) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 5),
			.source = source_of((const char *)sqlite3_column_text(st, 6)),
			.type = xstrdup(type ? type : ""),
			.type_decl = xstrdup((const char *)sqlite3_column_text(st, 1)),
			.name = xstrdup((const char *)sqlite3_column_text(st, 2)) });
		n++;
	}
	sqlite3_finalize(st);
	return n;
}

/* The mm sightings of a session: mm, time, pid, comm, 1 for exit_mmap.
 * All four tracepoints have mm as their first field, which their views
 * (schema/tracepoints.sql) read from sample.f1: one scan of the session's
 * samples instead of one per view. */
static const char mm_sql[] =
	"SELECT s.f1, s.time, t.pid, p.comm, e.tp_table = 'exit_mmap' FROM sample s "
	"JOIN event e ON e.id = s.event_id LEFT JOIN thread t ON t.id = s.thread_id "
	"LEFT JOIN process p ON p.id = t.process_id WHERE s.id BETWEEN ?1 AND ?2 AND "
	"e.tp_table IN ('mmap_lock_start_locking', 'mmap_lock_acquire_returned', "
	"'mmap_lock_released', 'exit_mmap') AND s.f1 IS NOT NULL AND s.f1 != 0 ORDER BY 1, 2";

/* One instance being built: pid votes. */
struct mm_inst {
	uint64_t mm;
	int64_t t0, first, exit;
	int32_t pids[8];
	long votes[8];
	char comm[8][32];
	int npids;
};

/* vote(x, pid, comm): one sighting of x by pid. */
static void vote(struct mm_inst *x, int32_t pid, const char *comm)
{
	for (int i = 0; i < x->npids; i++)
		if (x->pids[i] == pid) {
			x->votes[i]++;
			return;
		}
	if (x->npids == 8)
		return;
	x->pids[x->npids] = pid;
	x->votes[x->npids] = 1;
	snprintf(x->comm[x->npids], sizeof(x->comm[0]), "%s", comm ? comm : "?");
	x->npids++;
}

/* emit_mm(m, x, t1, ix, size): the object of instance x, alive to t1. */
static void emit_mm(struct objmap *m, const struct mm_inst *x, int64_t t1, uint16_t ix,
		    uint64_t size)
{
	char name[128];
	int best = 0;
	for (int i = 1; i < x->npids; i++)
		if (x->votes[i] > x->votes[best])
			best = i;
	snprintf(name, sizeof(name), "mm 0x%" PRIx64 " (pid %d %s)", x->mm,
		 x->npids ? x->pids[best] : -1, x->npids ? x->comm[best] : "?");
	push(m, (struct hobj){ .addr = x->mm, .size = size, .t0 = x->t0, .t1 = t1,
		.pid = -1, .session = ix, .source = OBJ_MMAP_LOCK, .type = xstrdup("mm_struct"),
		.name = xstrdup(name) });
}

/* session_range(db, session, first, last): the session's sample ids. */
static bool session_range(sqlite3 *db, int64_t session, int64_t *first, int64_t *last)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT first_sample_id, last_sample_id FROM session "
				      "WHERE id = ?");
	bool ok = false;
	if (!st)
		return false;
	sqlite3_bind_int64(st, 1, session);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*first = sqlite3_column_int64(st, 0);
		*last = sqlite3_column_int64(st, 1);
		ok = true;
	}
	sqlite3_finalize(st);
	return ok;
}

/* mm_row(m, x, st, ix, size): one sighting (row of mm_sql) into the
 * instance being built, emitting the previous instance when it ends. */
static void mm_row(struct objmap *m, struct mm_inst *x, sqlite3_stmt *st, uint16_t ix,
		   uint64_t size)
{
	uint64_t mm = (uint64_t)sqlite3_column_int64(st, 0);
	int64_t t = sqlite3_column_int64(st, 1);
	bool is_exit = sqlite3_column_int(st, 4);
	if (x->mm != mm || x->exit != INT64_MIN) {
		if (x->mm) /* a new address, or a sighting after an exit_mmap */
			emit_mm(m, x, x->mm == mm ? t : INT64_MAX, ix, size);
		*x = (struct mm_inst){ .mm = mm, .first = t, .exit = INT64_MIN,
			.t0 = x->mm == mm ? t : INT64_MIN };
	}
	vote(x, sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 2),
	     (const char *)sqlite3_column_text(st, 3));
	if (is_exit)
		x->exit = t;
}

/* load_mms(db, session, ix, size, m): the mm_struct instances. */
static long load_mms(sqlite3 *db, int64_t session, uint16_t ix, uint64_t size, struct objmap *m)
{
	struct mm_inst x = { 0 };
	int64_t first, last;
	size_t before = m->n;
	sqlite3_stmt *st;
	if (!session_range(db, session, &first, &last) || !(st = db_prepare(db, mm_sql)))
		return 0;
	sqlite3_bind_int64(st, 1, first);
	sqlite3_bind_int64(st, 2, last);
	while (sqlite3_step(st) == SQLITE_ROW)
		mm_row(m, &x, st, ix, size);
	sqlite3_finalize(st);
	if (x.mm)
		emit_mm(m, &x, INT64_MAX, ix, size);
	return (long)(m->n - before);
}

/* objects_has_mm: see objects.h. */
int objects_has_mm(sqlite3 *db, int64_t session)
{
	int64_t first, last;
	sqlite3_stmt *st;
	int yes;
	if (!session_range(db, session, &first, &last) || !(st = db_prepare(db, mm_sql)))
		return 0;
	sqlite3_bind_int64(st, 1, first);
	sqlite3_bind_int64(st, 2, last);
	yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

/* Kernel data symbols are sized up to the next symbol; larger than this
 * is taken to be a gap, and the symbol is cut to it. */
#define KSYM_MAX_SIZE (1ULL << 20)

/* load_kallsyms(db, session, ix, m): the kernel's static data symbols. */
static long load_kallsyms(sqlite3 *db, int64_t session, uint16_t ix, struct objmap *m)
{
	size_t len = 0, before = m->n;
	char *text = db_session_kallsyms(db, session, &len), err[256];
	struct symtab *t = text ? symtab_new() : NULL;
	if (t && kallsyms_load_buf(t, text, len, err, sizeof(err)) > 0) {
		for (size_t i = 0; i < symtab_count(t); i++) {
			const struct sym *s = symtab_at(t, i);
			if (sym_is_text(s) || s->module || !s->size || s->start < 0xffff000000000000ULL)
				continue;
			push(m, (struct hobj){ .addr = s->start,
				.size = s->size < KSYM_MAX_SIZE ? s->size : KSYM_MAX_SIZE, .t0 = INT64_MIN,
				.t1 = INT64_MAX, .pid = -1, .session = ix, .source = OBJ_KALLSYMS,
				.type = xstrdup(""), .name = xstrdup(s->name) });
		}
	}
	symtab_free(t);
	free(text);
	return (long)(m->n - before);
}

/* objects_load: see objects.h. */
long objects_load(sqlite3 *db, int64_t session, uint16_t ix, const struct layout_set *ls,
		  struct objmap *m)
{
	const struct layout *mm = layouts_find(ls, "mm_struct");
	long n = load_stored(db, session, ix, ls, m);
	if (n < 0)
		return -1;
	if (mm && layout_size(mm) > 0)
		n += load_mms(db, session, ix, (uint64_t)layout_size(mm), m);
	return n + load_kallsyms(db, session, ix, m);
}

/* cmp_obj: by session, then start address. */
static int cmp_obj(const void *a, const void *b)
{
	const struct hobj *x = a, *y = b;
	if (x->session != y->session)
		return x->session < y->session ? -1 : 1;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* objects_finish: see objects.h. */
void objects_finish(struct objmap *m)
{
	if (m->n)
		qsort(m->v, m->n, sizeof(*m->v), cmp_obj);
	free(m->maxend);
	m->maxend = xreallocarray(NULL, m->n ? m->n : 1, sizeof(*m->maxend));
	for (size_t i = 0; i < m->n; i++) {
		uint64_t end = m->v[i].addr + m->v[i].size;
		bool same = i && m->v[i - 1].session == m->v[i].session;
		m->maxend[i] = same && m->maxend[i - 1] > end ? m->maxend[i - 1] : end;
	}
}

/* better(a, b): whether object a should win over b for one address. */
static bool better(const struct hobj *a, const struct hobj *b)
{
	if (a->source != b->source)
		return a->source < b->source;
	if (!a->type[0] != !b->type[0])
		return a->type[0] != 0;
	return a->size < b->size;
}

/* A place looked up: an address of a session. */
struct place {
	uint16_t session;
	uint64_t addr;
};

/* at_or_below(o, p): whether object o's (session, addr) <= place *p's. */
static bool at_or_below(const void *o, const void *p)
{
	const struct hobj *x = o;
	const struct place *k = p;
	return x->session < k->session || (x->session == k->session && x->addr <= k->addr);
}

/* last_at_or_below(m, session, addr): the last index whose (session,
 * addr) <= (session, addr), or -1. */
static long last_at_or_below(const struct objmap *m, uint16_t session, uint64_t addr)
{
	struct place k = { session, addr };
	return (long)lower_bound(m->v, m->n, sizeof(*m->v), &k, at_or_below) - 1;
}

/* objects_find: see objects.h. */
long objects_find(const struct objmap *m, uint16_t session, uint64_t addr, int32_t pid,
		  int64_t time)
{
	long best = -1;
	for (long i = last_at_or_below(m, session, addr); i >= 0; i--) {
		const struct hobj *o = &m->v[i];
		if (o->session != session || m->maxend[i] <= addr)
			break;
		if (addr - o->addr >= o->size || time < o->t0 || time >= o->t1 ||
		    (o->pid >= 0 && o->pid != pid))
			continue;
		if (best < 0 || better(o, &m->v[best]))
			best = i;
	}
	return best;
}

/* objects_free: see objects.h. */
void objects_free(struct objmap *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->v[i].type);
		free(m->v[i].type_decl);
		free(m->v[i].name);
	}
	free(m->v);
	free(m->maxend);
	*m = (struct objmap){ 0 };
}
