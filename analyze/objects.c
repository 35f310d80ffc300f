/* The object map of `perfdb hitm` (see objects.h): loading a session's
 * objects from its tracepoints, kallsyms snapshot and c2c_object rows,
 * lookups by address, and storing user and binary objects. */
#include "analyze/objects.h"
#include "schema/db.h"
#include "collect/elfsyms.h"
#include "lib/kallsyms.h"
#include "analyze/layout_dwarf.h"

#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* The c2c_object table, also in schema/tables.sql: created here for
 * databases made before it existed. */
static const char object_ddl[] =
	"CREATE TABLE IF NOT EXISTS c2c_object (session_id INTEGER NOT NULL REFERENCES "
	"session(id), type_name TEXT NOT NULL, type_decl TEXT, name TEXT, address INTEGER "
	"NOT NULL, size INTEGER NOT NULL, pid INTEGER, source TEXT NOT NULL)";

/* oom(): out of memory is fatal, as in reports/table.c. */
static void oom(void)
{
	fputs("perfdb: out of memory\n", stderr);
	abort();
}

/* xstrdup(s): strdup or abort; NULL stays NULL. */
static char *xstrdup(const char *s)
{
	char *d;
	if (!s)
		return NULL;
	if (!(d = strdup(s)))
		oom();
	return d;
}

/* push(m, o): appends o (its strings already owned) to m. */
static void push(struct objmap *m, struct hobj o)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 64;
		struct hobj *v = realloc(m->v, m->cap * sizeof(*v));
		if (!v)
			oom();
		m->v = v;
	}
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

/* kallsyms_text(db, session, len): the session's kallsyms snapshot text
 * (malloc'ed), or NULL. */
static char *kallsyms_text(sqlite3 *db, int64_t session, size_t *len)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT text_zstd, size FROM kallsyms WHERE session_id = ?");
	char *text = NULL;
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, session);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const void *z = sqlite3_column_blob(st, 0);
		size_t zn = (size_t)sqlite3_column_bytes(st, 0);
		int64_t size = sqlite3_column_int64(st, 1);
		if (z && size > 0 && (text = malloc((size_t)size))) {
			size_t got = ZSTD_decompress(text, (size_t)size, z, zn);
			if (ZSTD_isError(got)) {
				free(text);
				text = NULL;
			} else {
				*len = got;
			}
		}
	}
	sqlite3_finalize(st);
	return text;
}

/* Kernel data symbols are sized up to the next symbol; larger than this
 * is taken to be a gap, and the symbol is cut to it. */
#define KSYM_MAX_SIZE (1ULL << 20)

/* load_kallsyms(db, session, ix, m): the kernel's static data symbols. */
static long load_kallsyms(sqlite3 *db, int64_t session, uint16_t ix, struct objmap *m)
{
	size_t len = 0, before = m->n;
	char *text = kallsyms_text(db, session, &len), err[256];
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
	if (!(m->maxend = malloc((m->n ? m->n : 1) * sizeof(*m->maxend))))
		oom();
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

/* last_at_or_below(m, session, addr): the last index whose (session,
 * addr) <= (session, addr), or -1. */
static long last_at_or_below(const struct objmap *m, uint16_t session, uint64_t addr)
{
	long lo = 0, hi = (long)m->n - 1, best = -1;
	while (lo <= hi) {
		long mid = lo + (hi - lo) / 2;
		const struct hobj *o = &m->v[mid];
		if (o->session < session || (o->session == session && o->addr <= addr)) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return best;
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

/* parse_u64(s, end, v): a C-notation number. */
static bool parse_u64(const char *s, char **end, uint64_t *v)
{
	if (!*s || *s == '-' || *s == '+')
		return false;
	*v = strtoull(s, end, 0);
	return *end != s;
}

/* objects_parse_spec: see objects.h. */
int objects_parse_spec(const char *s, struct obj_spec *o)
{
	const char *at = strrchr(s, '@');
	char *end;
	*o = (struct obj_spec){ .pid = -1 };
	if (!at || at == s || (size_t)(at - s) >= sizeof(o->type))
		return -1;
	memcpy(o->type, s, (size_t)(at - s));
	o->type[at - s] = 0;
	if (!parse_u64(at + 1, &end, &o->addr))
		return -1;
	if (*end == ':' && !parse_u64(end + 1, &end, &o->size))
		return -1;
	if (*end == '/') {
		uint64_t pid;
		if (!parse_u64(end + 1, &end, &pid) || pid > INT32_MAX)
			return -1;
		o->pid = (int32_t)pid;
	}
	return *end ? -1 : 0;
}

/* insert_obj(st, session, type, decl, name, addr, size, pid, source):
 * one c2c_object row through prepared insert st. */
static int insert_obj(sqlite3_stmt *st, int64_t session, const char *type, const char *decl,
		      const char *name, uint64_t addr, uint64_t size, int32_t pid, const char *source,
		      char *err, size_t errlen)
{
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_text(st, 2, type, -1, SQLITE_STATIC);
	db_bind_text_or_null(st, 3, decl);
	db_bind_text_or_null(st, 4, name);
	sqlite3_bind_int64(st, 5, (int64_t)addr);
	sqlite3_bind_int64(st, 6, (int64_t)size);
	if (pid >= 0)
		sqlite3_bind_int(st, 7, pid);
	else
		sqlite3_bind_null(st, 7);
	sqlite3_bind_text(st, 8, source, -1, SQLITE_STATIC);
	return db_step_done(st, err, errlen);
}

static const char insert_sql[] = "INSERT INTO c2c_object(session_id, type_name, type_decl, "
				 "name, address, size, pid, source) VALUES (?,?,?,?,?,?,?,?)";

/* objects_store_user: see objects.h. */
int objects_store_user(sqlite3 *db, int64_t session, const struct obj_spec *o,
		       char *err, size_t errlen)
{
	sqlite3_stmt *del, *ins;
	int rc = -1;
	if (db_exec(db, object_ddl, err, errlen))
		return -1;
	del = db_prepare(db, "DELETE FROM c2c_object WHERE session_id = ? AND address = ? AND "
			 "type_name = ? AND source = 'object'");
	ins = db_prepare(db, insert_sql);
	if (del && ins) {
		sqlite3_bind_int64(del, 1, session);
		sqlite3_bind_int64(del, 2, (int64_t)o->addr);
		sqlite3_bind_text(del, 3, layout_type_key(o->type), -1, SQLITE_STATIC);
		rc = db_step_done(del, err, errlen);
		if (!rc)
			rc = insert_obj(ins, session, layout_type_key(o->type), NULL, NULL, o->addr,
					o->size, o->pid, "object", err, errlen);
	}
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	return rc;
}

/* A place a binary was loaded at: the process and the load bias. */
struct place {
	int32_t pid;
	uint64_t bias;
};

/* bias_of(e, start, pgoff, bias): the load bias of e given a mapping of
 * it at start from file offset pgoff: start - pgoff + p_offset - p_vaddr
 * of the PT_LOAD segment whose file bytes hold pgoff. */
static bool bias_of(const struct elfsyms *e, uint64_t start, uint64_t pgoff, uint64_t *bias)
{
	for (size_t i = 0; i < elfsyms_nsegments(e); i++) {
		const struct elf_seg *g = elfsyms_segment(e, i);
		uint64_t lo = g->offset & ~(uint64_t)0xfff;
		if (pgoff >= lo && pgoff < g->offset + (g->filesz ? g->filesz : 1)) {
			*bias = start - pgoff + g->offset - g->vaddr;
			return true;
		}
	}
	return false;
}

/* base_name(p): the last component of path p. */
static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* same_file(dso, path, dso_build_id, build_id): whether a dso row names
 * the file at path: the same path or file name and, when both are known,
 * the same build id. */
static bool same_file(const char *dso, const char *path, const char *dso_id, const char *id)
{
	if (!dso || strcmp(base_name(dso), base_name(path)))
		return false;
	return !dso_id || !*dso_id || !*id || !strcmp(dso_id, id);
}

/* add_place(pl, n, pid, bias): records a distinct (pid, bias). */
static void add_place(struct place **pl, size_t *n, int32_t pid, uint64_t bias)
{
	for (size_t i = 0; i < *n; i++)
		if ((*pl)[i].pid == pid && (*pl)[i].bias == bias)
			return;
	struct place *v = realloc(*pl, (*n + 1) * sizeof(*v));
	if (!v)
		oom();
	*pl = v;
	v[(*n)++] = (struct place){ pid, bias };
}

/* find_places(db, session, e, path, pl, n): where the session mapped path. */
static void find_places(sqlite3 *db, int64_t session, const struct elfsyms *e, const char *path,
			struct place **pl, size_t *n)
{
	uint8_t id[ELFSYMS_BUILD_ID_MAX];
	size_t idn = sizeof(id);
	char hex[2 * ELFSYMS_BUILD_ID_MAX + 1] = "";
	sqlite3_stmt *st = db_prepare(db, "SELECT p.pid, m.start, m.pgoff, d.path, d.build_id FROM "
				      "mmap m JOIN dso d ON d.id = m.dso_id JOIN process p ON "
				      "p.id = m.process_id WHERE m.session_id = ?");
	if (!elfsyms_build_id(e, id, &idn))
		for (size_t i = 0; i < idn; i++)
			snprintf(hex + 2 * i, 3, "%02x", id[i]);
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, session);
	while (sqlite3_step(st) == SQLITE_ROW) {
		uint64_t bias;
		if (!same_file((const char *)sqlite3_column_text(st, 3), path,
			       (const char *)sqlite3_column_text(st, 4), hex) ||
		    !bias_of(e, (uint64_t)sqlite3_column_int64(st, 1),
			     (uint64_t)sqlite3_column_int64(st, 2), &bias))
			continue;
		add_place(pl, n, sqlite3_column_int(st, 0), bias);
	}
	sqlite3_finalize(st);
}

/* kernel_place(db, session, e, pl, n): a kernel image's KASLR shift: the
 * session's kallsyms _text minus the image's. */
static void kernel_place(sqlite3 *db, int64_t session, const struct elfsyms *e,
			 struct place **pl, size_t *n)
{
	const struct sym *et = symtab_find_name(elfsyms_symtab(e), "_text", NULL);
	size_t len = 0;
	char *text = et ? kallsyms_text(db, session, &len) : NULL, err[256];
	struct symtab *t = text ? symtab_new() : NULL;
	if (t && kallsyms_load_buf(t, text, len, err, sizeof(err)) > 0 && kallsyms_text_base(t))
		add_place(pl, n, -1, kallsyms_text_base(t) - et->start);
	symtab_free(t);
	free(text);
}

/* covered(vars, nv, addr): whether a DWARF variable starts at addr. */
static bool covered(const struct dwarf_var *vars, size_t nv, uint64_t addr)
{
	for (size_t i = 0; i < nv; i++)
		if (vars[i].addr == addr)
			return true;
	return false;
}

/* store_place(ins, session, e, vars, nv, p, source, err, errlen): the rows
 * of one place: DWARF variables, then uncovered ELF data symbols. */
static long store_place(sqlite3_stmt *ins, int64_t session, const struct elfsyms *e,
			const struct dwarf_var *vars, size_t nv, const struct place *p,
			const char *source, char *err, size_t errlen)
{
	const struct symtab *t = elfsyms_symtab(e);
	long n = 0;
	for (size_t i = 0; i < nv; i++) {
		if (!vars[i].size)
			continue;
		if (insert_obj(ins, session, vars[i].type, vars[i].type[0] ? NULL : vars[i].type_decl,
			       vars[i].name, p->bias + vars[i].addr, vars[i].size, p->pid, source,
			       err, errlen))
			return -1;
		n++;
	}
	for (size_t i = 0; i < symtab_count(t); i++) {
		const struct sym *s = symtab_at(t, i);
		if (sym_is_text(s) || !s->size || covered(vars, nv, s->start))
			continue;
		if (insert_obj(ins, session, "", NULL, s->name, p->bias + s->start, s->size, p->pid,
			       source, err, errlen))
			return -1;
		n++;
	}
	return n;
}

/* store_places(db, session, path, e, vars, nv, pl, npl, err, errlen):
 * replaces the rows of path's objects with those of each place. */
static long store_places(sqlite3 *db, int64_t session, const char *path, const struct elfsyms *e,
			 const struct dwarf_var *vars, size_t nv, const struct place *pl,
			 size_t npl, char *err, size_t errlen)
{
	char source[4200];
	long n = 0, k;
	sqlite3_stmt *del, *ins;
	snprintf(source, sizeof(source), "dwarf:%s", path);
	if (db_exec(db, object_ddl, err, errlen))
		return -1;
	del = db_prepare(db, "DELETE FROM c2c_object WHERE session_id = ? AND source = ?");
	ins = db_prepare(db, insert_sql);
	if (!del || !ins)
		n = -1;
	if (n >= 0) {
		sqlite3_bind_int64(del, 1, session);
		sqlite3_bind_text(del, 2, source, -1, SQLITE_STATIC);
		n = db_step_done(del, err, errlen);
	}
	for (size_t i = 0; n >= 0 && i < npl; i++)
		n = (k = store_place(ins, session, e, vars, nv, &pl[i], source, err, errlen)) < 0 ? -1 : n + k;
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	return n;
}

/* objects_store_binary: see objects.h. */
long objects_store_binary(sqlite3 *db, int64_t session, const char *path,
			  char *err, size_t errlen)
{
	struct elfsyms *e = elfsyms_open(path, err, errlen);
	struct dwarf_var *vars = NULL;
	struct place *pl = NULL;
	size_t nv = 0, npl = 0;
	char derr[256];
	long n = -1;
	if (!e)
		return -1;
	if (dwarf_vars(path, &vars, &nv, derr, sizeof(derr)))
		nv = 0;	/* no DWARF: the ELF symbols alone */
	find_places(db, session, e, path, &pl, &npl);
	if (!npl)
		kernel_place(db, session, e, &pl, &npl);
	if (!npl)
		snprintf(err, errlen, "%s: not mapped in session %" PRId64, path, session);
	else
		n = store_places(db, session, path, e, vars, nv, pl, npl, err, errlen);
	free(pl);
	dwarf_vars_free(vars, nv);
	elfsyms_close(e);
	return n;
}
