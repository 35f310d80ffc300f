/* Storing --object and --dwarf objects in a session's c2c_object rows
 * (see objects_store.h): parsing specs, finding where the session mapped
 * a binary (ELF load bias per process, or a kernel image's KASLR shift),
 * and writing its DWARF variables and ELF data symbols there. */
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collect/layout/dwarf_layout.h"
#include "collect/symbols/elfsyms.h"
#include "collect/layout/objects_store.h"
#include "lib/alloc.h"
#include "lib/kallsyms.h"
#include "lib/layout.h"
#include "schema/db.h"
#include "schema/session_kallsyms.h"

/* parse_u64(s, end, v): a C-notation number. */
static bool parse_u64(const char *s, char **end, uint64_t *v)
{
	if (!*s || *s == '-' || *s == '+')
		return false;
	*v = strtoull(s, end, 0);
	return *end != s;
}

/* objects_parse_spec: see objects_store.h. */
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

/* objects_store_user: see objects_store.h. */
int objects_store_user(sqlite3 *db, int64_t session, const struct obj_spec *o,
		       char *err, size_t errlen)
{
	sqlite3_stmt *del, *ins;
	int rc = -1;
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
	*pl = xreallocarray(*pl, *n + 1, sizeof(**pl));
	(*pl)[(*n)++] = (struct place){ pid, bias };
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
	char *text = et ? db_session_kallsyms(db, session, &len) : NULL, err[256];
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

/* objects_store_binary: see objects_store.h. */
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
