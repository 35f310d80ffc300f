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
#include "collect/btf_layout.h"
#include "lib/alloc.h"
#include "schema/db.h"

/* A walk in progress. */
/* Bounds of a walk whatever the file says: anonymous members nested
 * deeper than LAYOUT_MAX_ANON (a type that contains itself anonymously
 * would recurse for ever), and LAYOUT_MAX_VISITS members in all (types
 * that share members fan out). Real structs stay far below both. */
#define LAYOUT_MAX_ANON 16
#define LAYOUT_MAX_VISITS (1u << 20)

struct walk {
	const struct btf *btf;
	struct btf_dump *dump;
	struct layout *out;
	size_t cap;
	char decl[1024];	/* btf_dump output of the current type */
	size_t decl_len;
	int anon;		/* anonymous members entered, nested */
	size_t visits;		/* members walked so far */
	const char *over;	/* the bound the walk reached, or NULL */
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

/* ref_ok / name_ok: whether type id ref exists in btf (n types), and
 * whether name offset off lies in its string section. */
static bool ref_ok(__u32 ref, __u32 n)
{
	return ref < n;
}

static bool name_ok(const struct btf *btf, __u32 off)
{
	return btf__name_by_offset(btf, off) != NULL;
}

/* type_ok(btf, t, n): whether every type t refers to exists and every
 * name it has is in the string section. */
static bool type_ok(const struct btf *btf, const struct btf_type *t, __u32 n)
{
	__u16 vlen = btf_vlen(t);
	if (!name_ok(btf, t->name_off))
		return false;
	switch (btf_kind(t)) {
	case BTF_KIND_INT: case BTF_KIND_FWD: case BTF_KIND_FLOAT:
		return true;
	case BTF_KIND_ENUM:
		for (__u16 i = 0; i < vlen; i++)
			if (!name_ok(btf, btf_enum(t)[i].name_off))
				return false;
		return true;
	case BTF_KIND_ENUM64:
		for (__u16 i = 0; i < vlen; i++)
			if (!name_ok(btf, btf_enum64(t)[i].name_off))
				return false;
		return true;
	case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT: case BTF_KIND_FUNC: case BTF_KIND_VAR: case BTF_KIND_TYPE_TAG:
	case BTF_KIND_DECL_TAG:
		return ref_ok(t->type, n);
	case BTF_KIND_ARRAY:
		return ref_ok(btf_array(t)->type, n) && ref_ok(btf_array(t)->index_type, n);
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		for (__u16 i = 0; i < vlen; i++)
			if (!ref_ok(btf_members(t)[i].type, n) || !name_ok(btf, btf_members(t)[i].name_off))
				return false;
		return true;
	case BTF_KIND_FUNC_PROTO:
		for (__u16 i = 0; i < vlen; i++)
			if (!ref_ok(btf_params(t)[i].type, n) || !name_ok(btf, btf_params(t)[i].name_off))
				return false;
		return ref_ok(t->type, n);
	case BTF_KIND_DATASEC:
		for (__u16 i = 0; i < vlen; i++)
			if (!ref_ok(btf_var_secinfos(t)[i].type, n))
				return false;
		return true;
	default:
		return false;
	}
}

/* Longest chain of pointers, modifiers, typedefs, arrays and function
 * prototypes a type may be declared through (kernels: under 20). */
#define DECL_CHAIN_MAX 256

/* chain_height values besides a height + 1: not yet visited, on the
 * current path (a cycle when reached again), too long or cyclic. */
#define CHAIN_UNSEEN 0
#define CHAIN_ON_PATH 0xFFFF
#define CHAIN_BAD 0xFFFE

/* chain_height(btf, id, h, depth): 1 + the length of the longest
 * declaration chain from type id to a base, struct, union, enum or
 * forward type, through whatever it is declared with (a prototype: its
 * return and parameter types), or CHAIN_BAD when that passes through a
 * cycle or is longer than DECL_CHAIN_MAX. h[id] remembers each type's
 * answer, so each type and edge is followed once (a prototype whose
 * parameters share a type is not walked per parameter: exponential on
 * a chain of them); depth is the recursion's, bounded by DECL_CHAIN_MAX.
 * libbpf 1.1's btf_dump follows a cycle among those (a pointer to
 * itself) until it runs out of memory. */
static unsigned chain_height(const struct btf *btf, __u32 id, uint16_t *h, int depth)
{
	const struct btf_type *t = id ? btf__type_by_id(btf, id) : NULL;
	unsigned best = 0;
	if (!t)
		return 1;	/* void (ids are checked by type_ok) */
	if (h[id] == CHAIN_ON_PATH)
		return CHAIN_BAD;
	if (h[id] != CHAIN_UNSEEN)
		return h[id];
	if (depth > DECL_CHAIN_MAX)
		return CHAIN_BAD;
	h[id] = CHAIN_ON_PATH;
	switch (btf_kind(t)) {
	case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG: case BTF_KIND_FUNC: case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		best = chain_height(btf, t->type, h, depth + 1);
		break;
	case BTF_KIND_ARRAY:
		best = chain_height(btf, btf_array(t)->type, h, depth + 1);
		break;
	case BTF_KIND_FUNC_PROTO:
		best = chain_height(btf, t->type, h, depth + 1);
		for (__u16 i = 0; i < btf_vlen(t) && best != CHAIN_BAD; i++) {
			unsigned p = chain_height(btf, btf_params(t)[i].type, h, depth + 1);
			best = p > best ? p : best;
		}
		break;
	default:
		break;
	}
	best = best == CHAIN_BAD || best >= DECL_CHAIN_MAX ? CHAIN_BAD : best + 1;
	h[id] = (uint16_t)best;
	return best;
}

/* by_value(btf, id): the type id holds by value: through typedefs,
 * modifiers and arrays (not pointers), or 0. */
static __u32 by_value(const struct btf *btf, __u32 id)
{
	for (int i = 0; id && i <= DECL_CHAIN_MAX; i++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		if (!t)
			return 0;
		if (btf_is_array(t))
			id = btf_array(t)->type;
		else if (btf_is_typedef(t) || btf_is_mod(t) || btf_is_type_tag(t))
			id = t->type;
		else
			return btf_is_composite(t) ? id : 0;
	}
	return 0;	/* too long: chain_height refuses it */
}

/* contains_ok(btf, id, st, depth): whether composite id never contains
 * itself by value, through its members' members (st[id]: 0 unseen, 1 on
 * the current path, 2 checked). libbpf 1.1's btf__align_of and
 * btf__resolve_size recurse along such a cycle until the stack overflows. */
static bool contains_ok(const struct btf *btf, __u32 id, uint8_t *st, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	if (st[id] == 2)
		return true;
	if (st[id] == 1 || depth > DECL_CHAIN_MAX)
		return false;
	st[id] = 1;
	for (__u16 i = 0; t && btf_is_composite(t) && i < btf_vlen(t); i++) {
		__u32 in = by_value(btf, btf_members(t)[i].type);
		if (in && !contains_ok(btf, in, st, depth + 1))
			return false;
	}
	st[id] = 2;
	return true;
}

/* refs_pass(btf, path, err, errlen): 0 when every type refers only to
 * types and names btf has, else -1 with the first bad type named.
 * libbpf 1.1 parses BTF without checking that, and its btf_dump then
 * reads through dangling type ids (a SIGSEGV on a corrupt file). */
static int refs_pass(const struct btf *btf, const char *path, char *err, size_t errlen)
{
	__u32 n = btf__type_cnt(btf);
	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		if (!t || !type_ok(btf, t, n)) {
			snprintf(err, errlen, "%s: corrupt BTF: type %u (kind %u) refers to a type or name "
				 "the file does not have", path, id, t ? btf_kind(t) : 0);
			return -1;
		}
	}
	return 0;
}

/* chains_pass: 0 when no type is declared through a cycle or a chain
 * longer than DECL_CHAIN_MAX (see chain_height), else -1. */
static int chains_pass(const struct btf *btf, const char *path, char *err, size_t errlen)
{
	__u32 n = btf__type_cnt(btf);
	uint16_t *h = xcalloc(n, sizeof(*h));
	int rc = 0;
	for (__u32 id = 1; id < n && !rc; id++)
		if (chain_height(btf, id, h, 0) == CHAIN_BAD) {
			snprintf(err, errlen, "%s: corrupt BTF: type %u (kind %u) is declared through a cycle "
				 "or a chain longer than %d types", path, id, btf_kind(btf__type_by_id(btf, id)),
				 DECL_CHAIN_MAX);
			rc = -1;
		}
	free(h);
	return rc;
}

/* nesting_pass: 0 when no struct or union contains itself by value (see
 * contains_ok), else -1. */
static int nesting_pass(const struct btf *btf, const char *path, char *err, size_t errlen)
{
	__u32 n = btf__type_cnt(btf);
	uint8_t *st = xcalloc(n, 1);
	int rc = 0;
	for (__u32 id = 1; id < n && !rc; id++)
		if (btf_is_composite(btf__type_by_id(btf, id)) && !contains_ok(btf, id, st, 0)) {
			snprintf(err, errlen, "%s: corrupt BTF: struct or union type %u contains itself "
				 "(or nests more than %d deep)", path, id, DECL_CHAIN_MAX);
			rc = -1;
		}
	free(st);
	return rc;
}

/* align_pass: 0 when every member of every struct and union has a type
 * with an alignment (libbpf's btf__align_of > 0), else -1 with the first
 * member that has none: void, a function, a variable, a forward
 * declaration, or an integer, enum or float of size 0. libbpf 1.1's
 * btf_dump divides by that alignment when it writes out an anonymous
 * struct holding such a member (a SIGFPE on a corrupt file). Runs after
 * nesting_pass: btf__align_of recurses into members. */
static int align_pass(const struct btf *btf, const char *path, char *err, size_t errlen)
{
	__u32 n = btf__type_cnt(btf);
	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		for (__u16 i = 0; btf_is_composite(t) && i < btf_vlen(t); i++) {
			__u32 m = btf_members(t)[i].type;
			if (btf__align_of(btf, m) > 0)
				continue;
			snprintf(err, errlen, "%s: corrupt BTF: member %u of struct or union type %u has "
				 "type %u (kind %u), which has no alignment (not a data type, or of size 0)",
				 path, i, id, m, m ? btf_kind(btf__type_by_id(btf, m)) : 0);
			return -1;
		}
	}
	return 0;
}

/* btf_refs_ok(btf, path, err, errlen): 0 when btf is safe to hand to
 * libbpf's btf_dump, btf__resolve_size and btf__align_of (the passes
 * above, in order: each relies on the ones before), else -1 with the
 * first fault found in err. */
static int btf_refs_ok(const struct btf *btf, const char *path, char *err, size_t errlen)
{
	if (refs_pass(btf, path, err, errlen) || chains_pass(btf, path, err, errlen) ||
	    nesting_pass(btf, path, err, errlen) || align_pass(btf, path, err, errlen))
		return -1;
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
	if (btf && btf_refs_ok(btf, path ? path : "vmlinux BTF", err, errlen)) {
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

/* dump_print: btf_dump's output hook: appends to the walk's decl buffer. */
static void dump_print(void *ctx, const char *fmt, va_list ap)
{
	struct walk *w = ctx;
	size_t room = sizeof(w->decl) - w->decl_len;
	int n;
	if (room <= 1)
		return;
	n = vsnprintf(w->decl + w->decl_len, room, fmt, ap);
	if (n > 0)
		w->decl_len += (size_t)n < room ? (size_t)n : room - 1;
}

/* shorten_body: "struct {\n...\n}[4]" becomes "struct {...}[4]". */
static void shorten_body(char *s)
{
	char *open = strchr(s, '{'), *close = strrchr(s, '}');
	if (!open || !close || close < open)
		return;
	memmove(open + 4, close, strlen(close) + 1);
	memcpy(open, "{...", 4);
}

/* type_name: the C declaration of type id without a name, malloc'ed. */
static char *type_name(struct walk *w, __u32 id)
{
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o, .field_name = "");
	size_t n;
	w->decl_len = 0;
	w->decl[0] = 0;
	if (btf_dump__emit_type_decl(w->dump, id, &o) < 0)
		snprintf(w->decl, sizeof(w->decl), "?");
	shorten_body(w->decl);
	n = strlen(w->decl);
	while (n && w->decl[n - 1] == ' ')	/* "struct x *" has no trailing blank */
		w->decl[--n] = 0;
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
	if (w->over)
		return;
	if (++w->visits > LAYOUT_MAX_VISITS) {
		w->over = "more than 1048576 members to walk (types sharing members fan out)";
		return;
	}
	if (!name || !*name) {	/* anonymous: its members join this level */
		if (composite && w->anon >= LAYOUT_MAX_ANON)
			w->over = "anonymous members nested deeper than 16 (a type containing itself)";
		else if (composite) {
			w->anon++;
			walk_members(w, inner, prefix, bits, depth);
			w->anon--;
		}
		return;
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
	struct walk w = { .btf = btf, .out = out };
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
	out->struct_name = xstrdup(name);
	add_row(&w, xstrdup(""), 0, t->size, -1, -1, type_name(&w, (__u32)id));
	walk_members(&w, (__u32)id, "", 0, 0);
	btf_dump__free(w.dump);
	if (w.over) {
		snprintf(err, errlen, "BTF struct %s: %s: no partial layout is stored", name, w.over);
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
