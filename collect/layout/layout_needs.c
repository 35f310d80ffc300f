/* Which struct layouts a session's field attribution needs, from its own
 * rows: mm_struct when its mmap_lock or exit_mmap tracepoints have samples
 * (they name the mm_structs that become objects), the types of its user
 * objects (c2c_object rows from --object), and the types of its DWARF
 * objects (rows from --dwarf) that one of its memory samples or watched
 * addresses falls in, so a vmlinux's thousands of variables do not ask
 * for thousands of layouts. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "collect/layout/layout_needs.h"
#include "lib/alloc.h"
#include "lib/layout.h"
#include "lib/search.h"
#include "schema/db.h"

/* type_names_add: see layout_needs.h. */
void type_names_add(struct type_names *l, const char *name)
{
	const char *key = layout_type_key(name);
	if (!*key)
		return;
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], key))
			return;
	ALLOC_GROW(l->v, l->n + 1, l->cap);
	l->v[l->n++] = xstrdup(key);
}

/* type_names_free: see layout_needs.h. */
void type_names_free(struct type_names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	*l = (struct type_names){ 0 };
}

/* has_mm_tracepoints(db, session): whether the session has samples of a
 * tracepoint that names an mm_struct. */
static bool has_mm_tracepoints(sqlite3 *db, int64_t session)
{
	return db_any_row(db, "SELECT 1 FROM event WHERE session_id = ? AND tp_table IN "
			  "('mmap_lock_start_locking', 'mmap_lock_acquire_returned', "
			  "'mmap_lock_released', 'exit_mmap') AND nr_samples > 0 LIMIT 1", session, NULL);
}

/* add_column(db, sql, session, l): adds the names the one-column query sql
 * (session its one parameter) returns. */
static void add_column(sqlite3 *db, const char *sql, int64_t session, struct type_names *l)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, session);
	while (sqlite3_step(st) == SQLITE_ROW)
		type_names_add(l, (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

/* A typed DWARF object of a session, for finding which ones samples hit. */
struct tobj {
	uint64_t addr, end;
	int32_t pid;		/* -1: any process */
	int32_t type;		/* index in the session's type list */
};

/* Typed DWARF objects by address, with prefix maxima of their ends. */
struct tobjs {
	struct tobj *v;
	size_t n, cap;
	uint64_t *maxend;
	struct type_names types;
	bool *hit;		/* per type */
};

/* cmp_tobj: by start address. */
static int cmp_tobj(const void *a, const void *b)
{
	const struct tobj *x = a, *y = b;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* type_index(l, name): the index of name's key in l (added when new). */
static int32_t type_index(struct type_names *l, const char *name)
{
	const char *key = layout_type_key(name);
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], key))
			return (int32_t)i;
	type_names_add(l, key);
	return (int32_t)l->n - 1;
}

/* load_tobjs(db, session, t): the session's typed DWARF objects, sorted. */
static void load_tobjs(sqlite3 *db, int64_t session, struct tobjs *t)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT type_name, address, size, pid FROM c2c_object "
				      "WHERE session_id = ? AND type_name != '' AND size > 0 AND "
				      "source LIKE 'dwarf:%'");
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, session);
	while (sqlite3_step(st) == SQLITE_ROW) {
		uint64_t addr = (uint64_t)sqlite3_column_int64(st, 1);
		ALLOC_GROW(t->v, t->n + 1, t->cap);
		t->v[t->n++] = (struct tobj){ .addr = addr,
			.end = addr + (uint64_t)sqlite3_column_int64(st, 2),
			.pid = sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 3),
			.type = type_index(&t->types, (const char *)sqlite3_column_text(st, 0)) };
	}
	sqlite3_finalize(st);
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), cmp_tobj);
	t->maxend = xcalloc(t->n + 1, sizeof(*t->maxend));
	for (size_t i = 0; i < t->n; i++)
		t->maxend[i] = i && t->maxend[i - 1] > t->v[i].end ? t->maxend[i - 1] : t->v[i].end;
	t->hit = xcalloc(t->types.n + 1, sizeof(*t->hit));
}

/* starts_by(o, addr): whether object o starts at or below *addr. */
static bool starts_by(const void *o, const void *addr)
{
	return ((const struct tobj *)o)->addr <= *(const uint64_t *)addr;
}

/* mark(t, addr, pid): marks the types of the objects holding addr (of
 * process pid; -1 unknown). */
static void mark(struct tobjs *t, uint64_t addr, int32_t pid)
{
	size_t after = lower_bound(t->v, t->n, sizeof(*t->v), &addr, starts_by);
	for (size_t i = after; i-- > 0 && t->maxend[i] > addr;) {
		const struct tobj *o = &t->v[i];
		if (addr < o->end && (o->pid < 0 || o->pid == pid))
			t->hit[o->type] = true;
	}
}

/* mark_rows(db, sql, a, b, t): marks the addresses (column 0, pid column
 * 1) that sql returns with parameter 1 a and (when it has two) 2 b. */
static void mark_rows(sqlite3 *db, const char *sql, int64_t a, int64_t b, struct tobjs *t)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, a);
	if (sqlite3_bind_parameter_count(st) > 1)
		sqlite3_bind_int64(st, 2, b);
	while (sqlite3_step(st) == SQLITE_ROW)
		mark(t, (uint64_t)sqlite3_column_int64(st, 0),
		     sqlite3_column_type(st, 1) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 1));
	sqlite3_finalize(st);
}

/* sample_range(db, session, first, last): the session's sample ids. */
static bool sample_range(sqlite3 *db, int64_t session, int64_t *first, int64_t *last)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT first_sample_id, last_sample_id FROM session "
				      "WHERE id = ? AND first_sample_id IS NOT NULL");
	bool ok = false;
	if (!st)
		return false;
	sqlite3_bind_int64(st, 1, session);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*first = sqlite3_column_int64(st, 0);
		*last = sqlite3_column_int64(st, 1);
		ok = true;
	}
	sqlite3_finalize(st);
	return ok;
}

/* hit_types(db, session, l): adds the types of the session's DWARF
 * objects that a memory sample or a watched address falls in. */
static void hit_types(sqlite3 *db, int64_t session, struct type_names *l)
{
	struct tobjs t = { 0 };
	int64_t first, last;
	load_tobjs(db, session, &t);
	if (t.n && sample_range(db, session, &first, &last))
		mark_rows(db, "SELECT m.addr, th.pid FROM mem_sample m JOIN sample s ON s.id = "
			  "m.sample_id LEFT JOIN thread th ON th.id = s.thread_id WHERE m.sample_id "
			  "BETWEEN ?1 AND ?2 AND m.addr != 0", first, last, &t);
	if (t.n && db_has_table(db, "watch"))
		mark_rows(db, "SELECT addr, pid FROM watch WHERE session_id = ?", session, 0, &t);
	for (size_t i = 0; i < t.types.n; i++)
		if (t.hit[i])
			type_names_add(l, t.types.v[i]);
	free(t.v);
	free(t.maxend);
	free(t.hit);
	type_names_free(&t.types);
}

/* layout_needs: see layout_needs.h. */
void layout_needs(sqlite3 *db, int64_t session, struct type_names *l)
{
	if (has_mm_tracepoints(db, session))
		type_names_add(l, "mm_struct");
	add_column(db, "SELECT DISTINCT type_name FROM c2c_object WHERE session_id = ? AND "
		   "source = 'object'", session, l);
	hit_types(db, session, l);
}
