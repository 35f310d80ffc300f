/* Struct layouts read back from struct_layout, and field names at byte
 * offsets (see layout.h). */
#include "analyze/layout.h"
#include "analyze/layout_dwarf.h"
#include "schema/db.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* oom(): out of memory is fatal, as in reports/table.c. */
static void oom(void)
{
	fputs("perfdb: out of memory\n", stderr);
	abort();
}

/* layout_type_key: see layout.h. */
const char *layout_type_key(const char *name)
{
	if (!name)
		return "";
	if (!strncmp(name, "struct ", 7))
		return name + 7;
	if (!strncmp(name, "union ", 6))
		return name + 6;
	return name;
}

/* layout_size: see layout.h. */
int64_t layout_size(const struct layout *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (!l->m[i].member[0])
			return l->m[i].size;
	return 0;
}

/* depth(name): the number of dots in a dotted member name. */
static int depth(const char *name)
{
	int d = 0;
	for (; *name; name++)
		d += *name == '.';
	return d;
}

/* bits_hit(m, off): whether bitfield m has bits in byte off. */
static bool bits_hit(const struct layout_member *m, int64_t off)
{
	int64_t lo = (off - m->offset) * 8, hi = lo + 8;
	return m->bit_offset < hi && m->bit_offset + m->bit_size > lo;
}

/* covers(m, off): whether member m's bytes (bits, for a bitfield) hold off. */
static bool covers(const struct layout_member *m, int64_t off)
{
	if (!m->member[0] || off < m->offset || off >= m->offset + m->size)
		return false;
	return m->bit_size < 0 || bits_hit(m, off);
}

/* smallest(l, off): the index of the member named at off: the smallest
 * holding it, the shallowest among equals (a member that fills its whole
 * parent, as atomic_t's counter, adds nothing), or -1. */
static long smallest(const struct layout *l, int64_t off)
{
	long best = -1;
	for (size_t i = 0; i < l->n; i++) {
		const struct layout_member *m = &l->m[i];
		if (!covers(m, off))
			continue;
		if (best < 0 || m->size < l->m[best].size ||
		    (m->size == l->m[best].size && depth(m->member) < depth(l->m[best].member)))
			best = (long)i;
	}
	return best;
}

/* array_count(type): N of a type name ending in "[N]..." (the first
 * dimension), or 0. */
static long array_count(const char *type)
{
	const char *b = type ? strchr(type, '[') : NULL;
	return b ? strtol(b + 1, NULL, 10) : 0;
}

/* in_gap(l, m, off): whether m has members of its own (named m's name +
 * ".") and none of them holds off: off is in a hole or padding of m. */
static bool in_gap(const struct layout *l, const struct layout_member *m, int64_t off)
{
	size_t n = strlen(m->member);
	bool children = false;
	for (size_t i = 0; n && i < l->n; i++)
		if (!strncmp(l->m[i].member, m->member, n) && l->m[i].member[n] == '.') {
			if (covers(&l->m[i], off))
				return false;
			children = true;
		}
	return children;
}

/* same_level(name, prefix): whether name is directly under prefix. */
static bool same_level(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	return name[0] && !strncmp(name, prefix, n) && !strchr(name + n, '.');
}

/* name_gap(l, c, off, name, len, foff, fsize): the hole or padding at off
 * inside container c (NULL: the struct itself). */
static void name_gap(const struct layout *l, const struct layout_member *c, int64_t off,
		     char *name, size_t len, int64_t *foff, int64_t *fsize)
{
	char prefix[512];
	const struct layout_member *prev = NULL, *next = NULL;
	int64_t lo = c ? c->offset : 0, hi = c ? c->offset + c->size : layout_size(l);
	snprintf(prefix, sizeof(prefix), "%s%s", c ? c->member : "", c ? "." : "");
	for (size_t i = 0; i < l->n; i++) {
		const struct layout_member *m = &l->m[i];
		if (!same_level(m->member, prefix))
			continue;
		if (m->offset + m->size <= off && (!prev || m->offset + m->size > prev->offset + prev->size))
			prev = m;
		if (m->offset > off && (!next || m->offset < next->offset))
			next = m;
	}
	*foff = prev ? prev->offset + prev->size : lo;
	*fsize = (next ? next->offset : hi) - *foff;
	if (!next)
		snprintf(name, len, "%s<padding>", prefix);
	else if (prev)
		snprintf(name, len, "%s<hole after %s>", prefix, prev->member + strlen(prefix));
	else
		snprintf(name, len, "%s<hole before %s>", prefix, next->member + strlen(prefix));
}

/* name_bitfields(l, m, off, name, len): the bitfields of m's unit at m's
 * depth that have bits in byte off, joined with ','. */
static void name_bitfields(const struct layout *l, const struct layout_member *m, int64_t off,
			   char *name, size_t len)
{
	size_t at = 0;
	name[0] = 0;
	for (size_t i = 0; i < l->n && at < len; i++) {
		const struct layout_member *b = &l->m[i];
		if (b->bit_size < 0 || b->offset != m->offset || depth(b->member) != depth(m->member) ||
		    !bits_hit(b, off))
			continue;
		at += (size_t)snprintf(name + at, len - at, "%s%s", at ? "," : "", b->member);
	}
}

/* layout_name_at: see layout.h. */
int layout_name_at(const struct layout *l, int64_t off, char *name, size_t len,
		   int64_t *foff, int64_t *fsize)
{
	long i;
	const struct layout_member *m;
	if (off < 0 || off >= layout_size(l))
		return -1;
	if ((i = smallest(l, off)) < 0) {
		name_gap(l, NULL, off, name, len, foff, fsize);
		return 0;
	}
	m = &l->m[i];
	if (in_gap(l, m, off)) {	/* in a nested struct but none of its members */
		name_gap(l, m, off, name, len, foff, fsize);
		return 0;
	}
	*foff = m->offset;
	*fsize = m->size;
	if (m->bit_size >= 0) {
		name_bitfields(l, m, off, name, len);
		return 0;
	}
	long count = array_count(m->type_name);
	if (count > 0 && m->size % count == 0 && m->size / count > 0) {
		int64_t elem = m->size / count, ix = (off - m->offset) / elem;
		snprintf(name, len, "%s[%lld]", m->member, (long long)ix);
		*foff = m->offset + ix * elem;
		*fsize = elem;
		return 0;
	}
	snprintf(name, len, "%s", m->member);
	return 0;
}

/* set_add(set, struct_name): the layout of struct_name, appended. */
static struct layout *set_add(struct layout_set *set, const char *struct_name)
{
	struct layout *v = realloc(set->v, (set->n + 1) * sizeof(*v));
	if (!v)
		oom();
	set->v = v;
	v[set->n] = (struct layout){ .struct_name = strdup(struct_name) };
	if (!v[set->n].struct_name)
		oom();
	return &v[set->n++];
}

/* add_member(l, st): appends the struct_layout row of st to l. */
static void add_member(struct layout *l, sqlite3_stmt *st)
{
	const char *member = (const char *)sqlite3_column_text(st, 1);
	const char *type = (const char *)sqlite3_column_text(st, 6);
	struct layout_member *m = realloc(l->m, (l->n + 1) * sizeof(*m));
	if (!m)
		oom();
	l->m = m;
	m[l->n] = (struct layout_member){ .member = strdup(member ? member : ""),
		.offset = sqlite3_column_int64(st, 2), .size = sqlite3_column_int64(st, 3),
		.bit_offset = sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 4),
		.bit_size = sqlite3_column_type(st, 5) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 5),
		.type_name = type ? strdup(type) : NULL };
	if (!m[l->n].member || (type && !m[l->n].type_name))
		oom();
	l->n++;
}

/* layouts_load: see layout.h. */
int layouts_load(sqlite3 *db, int64_t session, struct layout_set *set)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT struct_name, member, offset, size, bit_offset, "
				      "bit_size, type_name FROM struct_layout WHERE session_id = ? "
				      "ORDER BY struct_name, offset, member");
	struct layout *cur = NULL;
	int rc;
	layouts_free(set);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *sn = (const char *)sqlite3_column_text(st, 0);
		if (!sn)
			continue;
		if (!cur || strcmp(cur->struct_name, sn))
			cur = set_add(set, sn);
		add_member(cur, st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* layouts_find: see layout.h. */
const struct layout *layouts_find(const struct layout_set *set, const char *name)
{
	const char *key = layout_type_key(name);
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(layout_type_key(set->v[i].struct_name), key))
			return &set->v[i];
	return NULL;
}

/* layouts_free: see layout.h. */
void layouts_free(struct layout_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		btf_layout_free(&set->v[i]);
	free(set->v);
	*set = (struct layout_set){ 0 };
}

/* layout_replace: see layout.h. */
int layout_replace(sqlite3 *db, int64_t session, const struct layout *l,
		   char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "DELETE FROM struct_layout WHERE session_id = ? AND "
				      "struct_name = ?");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_text(st, 2, l->struct_name, -1, SQLITE_STATIC);
	int rc = db_step_done(st, err, errlen);
	sqlite3_finalize(st);
	return rc ? rc : btf_layout_store(db, session, l, err, errlen);
}

/* store_from(db, session, l, what, from, fromlen): stores l, naming its
 * source what in from. 1 stored, -1 failed. */
static int store_from(sqlite3 *db, int64_t session, struct layout *l, const char *what,
		      char *from, size_t fromlen)
{
	char err[256];
	int rc = layout_replace(db, session, l, err, sizeof(err));
	if (rc)
		snprintf(from, fromlen, "%s", err);
	else
		snprintf(from, fromlen, "%s", what);
	btf_layout_free(l);
	return rc ? -1 : 1;
}

/* from_btf(db, session, name, b, what, from, fromlen): the layout of name
 * in BTF b, stored. 1, 0 when b lacks it, -1. */
static int from_btf(sqlite3 *db, int64_t session, const char *name, struct btf *b,
		    const char *what, char *from, size_t fromlen)
{
	struct layout l;
	char err[256];
	if (!b || btf_layout_of(b, name, &l, err, sizeof(err)))
		return 0;
	return store_from(db, session, &l, what, from, fromlen);
}

/* layout_fetch: see layout.h. */
int layout_fetch(sqlite3 *db, int64_t session, const char *name, struct layout_sources *src,
		 char *from, size_t fromlen)
{
	char err[256], what[300];
	struct layout l;
	name = layout_type_key(name);
	for (int i = 0; i < src->ndwarf; i++)
		if (!dwarf_layout_of(src->dwarf[i], name, &l, err, sizeof(err))) {
			snprintf(what, sizeof(what), "DWARF of %s", src->dwarf[i]);
			return store_from(db, session, &l, what, from, fromlen);
		}
	if (src->btf && !src->file_tried++)
		src->file_btf = btf_layout_open(src->btf, err, sizeof(err));
	snprintf(what, sizeof(what), "BTF of %s", src->btf ? src->btf : "");
	int rc = from_btf(db, session, name, src->file_btf, what, from, fromlen);
	if (rc)
		return rc;
	if (!src->kernel_tried++)
		src->kernel_btf = btf_layout_open(NULL, err, sizeof(err));
	return from_btf(db, session, name, src->kernel_btf, LAYOUT_KERNEL_BTF, from, fromlen);
}

/* layout_sources_close: see layout.h. */
void layout_sources_close(struct layout_sources *src)
{
	btf_layout_close(src->file_btf);
	btf_layout_close(src->kernel_btf);
	src->file_btf = src->kernel_btf = NULL;
}
