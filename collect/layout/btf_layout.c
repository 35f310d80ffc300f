/* Struct layouts from BTF: see btf_layout.h for the flattening rules. The
 * walk goes over a composite's members with the bit offset of the
 * composite inside the outermost struct, recursing into anonymous
 * members (same name prefix) and named composite members (prefix
 * "NAME."). Type names come from libbpf's btf_dump, with anonymous
 * struct bodies shortened to "struct {...}". */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "collect/layout/btf_check.h"
#include "collect/layout/btf_layout.h"
#include "collect/layout/layout_walk.h"
#include "lib/alloc.h"
#include "schema/db.h"

/* A walk in progress. */

struct walk {
	const struct btf *btf;
	struct btf_dump *dump;
	struct layout *out;
	size_t cap;
	struct btf_work *work;	/* btf_dump's work per type (btf_check.h) */
	uint64_t spent;		/* btf_dump's work on this walk's types so far */
	char **names;		/* type_name's answer per type id, once known */
	__u32 nnames;
	char decl[1024];	/* btf_dump output of the current type */
	size_t decl_len;
	int braces;		/* depth of braces dump_print is inside */
	struct layout_bounds b;	/* the walk's bounds (layout_walk.h) */
};

/* libbpf's last warning, kept for error messages. */
static char libbpf_msg[256];

/* quiet_print: libbpf's print hook: keeps the last warning, prints nothing. */
static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN) {
		vsnprintf(libbpf_msg, sizeof(libbpf_msg), fmt, ap);
		libbpf_msg[strcspn(libbpf_msg, "\n")] = 0;
	}
	return 0;
}

/* btf_layout_open: see btf_layout.h. */
struct btf *btf_layout_open(const char *path, char *err, size_t errlen)
{
	libbpf_print_fn_t old = libbpf_set_print(quiet_print);
	struct btf *btf;
	libbpf_msg[0] = 0;
	errno = 0;
	btf = path ? btf__parse(path, NULL) : btf__load_vmlinux_btf();
	if (!btf) {
		int e = errno ? errno : ENOENT;
		snprintf(err, errlen, "%s: cannot load BTF: %s%s%s", path ? path : "vmlinux BTF",
			 strerror(e), libbpf_msg[0] ? " (libbpf: " : "", libbpf_msg[0] ? libbpf_msg : "");
		if (libbpf_msg[0] && strlen(err) + 1 < errlen)
			strcat(err, ")");
	}
	if (btf && btf_check(btf, path ? path : "vmlinux BTF", err, errlen)) {
		btf__free(btf);
		btf = NULL;
	}
	libbpf_set_print(old);
	return btf;
}

/* btf_layout_close: see btf_layout.h. */
void btf_layout_close(struct btf *btf)
{
	btf__free(btf);
}

/* skip_typedefs: id with typedefs and const/volatile/restrict/type tags
 * peeled off. */
static __u32 skip_typedefs(const struct btf *btf, __u32 id)
{
	for (int guard = 0; guard < 64; guard++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		if (!t || !(btf_is_typedef(t) || btf_is_mod(t)))
			break;
		id = t->type;
	}
	return id;
}

/* find_type: the id of composite NAME ("struct X", "union X", a struct
 * or union tag, or a typedef of one), or -1. */
static __s32 find_type(const struct btf *btf, const char *name)
{
	__s32 id;
	if (!strncmp(name, "struct ", 7))
		return btf__find_by_name_kind(btf, name + 7, BTF_KIND_STRUCT);
	if (!strncmp(name, "union ", 6))
		return btf__find_by_name_kind(btf, name + 6, BTF_KIND_UNION);
	if ((id = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT)) > 0 ||
	    (id = btf__find_by_name_kind(btf, name, BTF_KIND_UNION)) > 0)
		return id;
	if ((id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF)) > 0) {
		__u32 r = skip_typedefs(btf, (__u32)id);
		const struct btf_type *t = btf__type_by_id(btf, r);
		if (t && btf_is_composite(t))
			return (__s32)r;
	}
	return -1;
}

/* put_decl(w, c): appends c to the walk's decl buffer (full: dropped). */
static void put_decl(struct walk *w, char c)
{
	if (w->decl_len + 1 < sizeof(w->decl)) {
		w->decl[w->decl_len++] = c;
		w->decl[w->decl_len] = 0;
	}
}

/* dump_print: btf_dump's output hook: appends to the walk's decl buffer,
 * with the body of an anonymous struct, union or enum shortened to "{...}"
 * ("struct {\n\tint a;\n}[4]" becomes "struct {...}[4]"): what is inside
 * braces is not kept, however long. */
static void dump_print(void *ctx, const char *fmt, va_list ap)
{
	struct walk *w = ctx;
	char piece[1024];
	if (vsnprintf(piece, sizeof(piece), fmt, ap) < 0)
		return;
	for (const char *c = piece; *c; c++) {
		if (*c == '{' && w->braces++ == 0) {
			put_decl(w, '{');
			put_decl(w, '.');
			put_decl(w, '.');
			put_decl(w, '.');
		} else if (*c == '}' && w->braces > 0 && --w->braces == 0) {
			put_decl(w, '}');
		} else if (w->braces == 0) {
			put_decl(w, *c);
		}
	}
}

/* Most work btf_dump may do naming the types of one layout's members
 * (each type is bounded by btf_check; a struct of many members of
 * different heavy types is bounded here). */
#define LAYOUT_DUMP_MAX (1u << 22)

/* type_name: the C declaration of type id without a name, malloc'ed;
 * btf_dump writes each type's out once per walk (the answers are kept in
 * w->names: members share types). */
static char *type_name(struct walk *w, __u32 id)
{
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o, .field_name = "");
	size_t n;
	if (id < w->nnames && w->names[id])
		return xstrdup(w->names[id]);
	w->spent += btf_work_of(w->work, id);
	if (w->spent > LAYOUT_DUMP_MAX) {	/* types of many members, each heavy */
		if (!w->b.over)
			w->b.over = "its members' types take libbpf over 4194304 steps to write out";
		return xstrdup("?");
	}
	w->decl_len = 0;
	w->decl[0] = 0;
	w->braces = 0;
	if (btf_dump__emit_type_decl(w->dump, id, &o) < 0)
		snprintf(w->decl, sizeof(w->decl), "?");
	n = strlen(w->decl);
	while (n && w->decl[n - 1] == ' ')	/* "struct x *" has no trailing blank */
		w->decl[--n] = 0;
	if (id < w->nnames)
		w->names[id] = xstrdup(w->decl);
	return xstrdup(w->decl);
}

/* add_row: appends one member row; name and tname become owned by out. */
static void add_row(struct walk *w, char *name, int64_t off, int64_t size, int boff, int bsize,
		    char *tname)
{
	struct layout *l = w->out;
	ALLOC_GROW(l->m, l->n + 1, w->cap);
	l->m[l->n++] = (struct layout_member){ name, off, size, boff, bsize, tname };
}

/* add_member: the row of member type mtype at bit offset bits (bitfield
 * of bsize bits when bsize > 0), named prefix+name. */
static void add_member(struct walk *w, const char *full, __u32 mtype, uint64_t bits, int bsize)
{
	__s64 sz = btf__resolve_size(w->btf, mtype);
	int64_t off = (int64_t)(bits / 8), size = sz < 0 ? 0 : sz;
	int boff = -1;
	if (bsize > 0) {
		uint64_t unit_bits = size > 0 ? (uint64_t)size * 8 : 8;
		uint64_t unit = bits / unit_bits;
		boff = (int)(bits - unit * unit_bits);
		off = (int64_t)(unit * (unit_bits / 8));
		if (size <= 0 || (uint64_t)boff + (uint64_t)bsize > unit_bits) {
			/* straddles its unit (packed): count whole bytes instead */
			off = (int64_t)(bits / 8);
			boff = (int)(bits % 8);
			size = (boff + bsize + 7) / 8;
		}
	}
	add_row(w, xstrdup(full), off, size, boff, bsize > 0 ? bsize : -1, type_name(w, mtype));
}

static void walk_members(struct walk *w, __u32 id, const char *prefix, uint64_t base, int depth);

/* walk_one: member i of composite t (at bit offset base) under prefix. */
static void walk_one(struct walk *w, const struct btf_type *t, int i, const char *prefix,
		     uint64_t base, int depth)
{
	const struct btf_member *m = btf_members(t) + i;
	const char *name = btf__name_by_offset(w->btf, m->name_off);
	uint64_t bits = base + btf_member_bit_offset(t, (__u32)i);
	int bsize = (int)btf_member_bitfield_size(t, (__u32)i);
	__u32 inner = skip_typedefs(w->btf, m->type);
	const struct btf_type *it = btf__type_by_id(w->btf, inner);
	bool composite = it && btf_is_composite(it);
	char full[512];
	switch (layout_visit(&w->b, !name || !*name, composite)) {
	case LAYOUT_SKIP:
		return;
	case LAYOUT_ENTER_ANON:	/* anonymous: its members join this level */
		walk_members(w, inner, prefix, bits, depth);
		layout_leave_anon(&w->b);
		return;
	case LAYOUT_NAMED:
		break;
	}
	snprintf(full, sizeof(full), "%s%s", prefix, name);
	add_member(w, full, m->type, bits, bsize);
	if (!composite || depth + 1 >= BTF_LAYOUT_MAX_DEPTH)
		return;
	strncat(full, ".", sizeof(full) - strlen(full) - 1);
	walk_members(w, inner, full, bits, depth + 1);
}

/* walk_members: the rows of composite id's members, offsets from base
 * (bits), names under prefix. */
static void walk_members(struct walk *w, __u32 id, const char *prefix, uint64_t base, int depth)
{
	const struct btf_type *t = btf__type_by_id(w->btf, id);
	if (!t || !btf_is_composite(t))
		return;
	for (int i = 0; i < btf_vlen(t); i++)
		walk_one(w, t, i, prefix, base, depth);
}

/* btf_layout_of: see btf_layout.h. */
int btf_layout_of(const struct btf *btf, const char *name, struct layout *out,
		  char *err, size_t errlen)
{
	struct walk w = { .btf = btf, .out = out, .nnames = btf__type_cnt(btf) };
	__s32 id = find_type(btf, name);
	const struct btf_type *t;
	*out = (struct layout){ 0 };
	if (id <= 0 || !(t = btf__type_by_id(btf, (__u32)id))) {
		snprintf(err, errlen, "BTF has no struct %s", name);
		return -1;
	}
	if (!(w.dump = btf_dump__new(btf, dump_print, &w, NULL))) {
		snprintf(err, errlen, "%s: libbpf cannot dump its types", name);
		return -1;
	}
	w.names = xcalloc(w.nnames, sizeof(*w.names));
	w.work = btf_work_new(btf);
	out->struct_name = xstrdup(name);
	add_row(&w, xstrdup(""), 0, t->size, -1, -1, type_name(&w, (__u32)id));
	walk_members(&w, (__u32)id, "", 0, 0);
	btf_dump__free(w.dump);
	for (__u32 i = 0; i < w.nnames; i++)
		free(w.names[i]);
	free(w.names);
	btf_work_free(w.work);
	if (w.b.over) {
		snprintf(err, errlen, "BTF struct %s: %s: no partial layout is stored", name, w.b.over);
		layout_free(out);
		*out = (struct layout){ 0 };
		return -2;
	}
	return 0;
}

/* bind_bits: binds v, or NULL when v < 0 (not a bitfield). */
static void bind_bits(sqlite3_stmt *st, int i, int v)
{
	if (v >= 0)
		sqlite3_bind_int(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* btf_layout_store: see btf_layout.h. */
int btf_layout_store(sqlite3 *db, int64_t session, const struct layout *l,
		     char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = 0;
	if (sqlite3_prepare_v2(db, "INSERT INTO struct_layout(session_id, struct_name, member, "
			       "offset, size, bit_offset, bit_size, type_name) VALUES (?,?,?,?,?,?,?,?)",
			       -1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "struct_layout: %s", sqlite3_errmsg(db));
		return -1;
	}
	for (size_t i = 0; i < l->n && !rc; i++) {
		const struct layout_member *m = &l->m[i];
		sqlite3_bind_int64(st, 1, session);
		sqlite3_bind_text(st, 2, l->struct_name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, m->member, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, m->offset);
		sqlite3_bind_int64(st, 5, m->size);
		bind_bits(st, 6, m->bit_offset);
		bind_bits(st, 7, m->bit_size);
		sqlite3_bind_text(st, 8, m->type_name, -1, SQLITE_STATIC);
		rc = db_step_done(st, err, errlen);
	}
	sqlite3_finalize(st);
	return rc;
}
