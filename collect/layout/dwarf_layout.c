/* DWARF struct layouts and global variables through libdw (see
 * dwarf_layout.h). The member walk follows collect/layout/btf_layout.c's rules so
 * that a struct reads the same from DWARF as from BTF. */
#include "collect/layout/btf_layout.h"
#include "collect/layout/dwarf_layout.h"
#include "collect/layout/layout_walk.h"
#include "lib/alloc.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A walk building one layout. */

struct dwalk {
	struct layout *out;
	size_t cap;
	struct layout_bounds b;	/* the walk's bounds (layout_walk.h) */
};

/* type_of(die, out): the DIE of die's DW_AT_type (through
 * DW_AT_specification/abstract_origin); NULL when it has none (void). */
static Dwarf_Die *type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;
	if (!dwarf_attr_integrate(die, DW_AT_type, &a))
		return NULL;
	return dwarf_formref_die(&a, out);
}

/* peel(die, out): die with typedefs and qualifiers stripped, into out;
 * NULL for void. */
static Dwarf_Die *peel(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Die cur = *die;
	for (int i = 0; i < 64; i++) {
		int tag = dwarf_tag(&cur);
		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
		    tag != DW_TAG_restrict_type && tag != DW_TAG_atomic_type) {
			*out = cur;
			return out;
		}
		if (!type_of(&cur, &cur))
			return NULL;
	}
	return NULL;
}

/* is_composite(die): struct, union or class. */
static bool is_composite(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type || tag == DW_TAG_class_type;
}

/* type_size(die): the byte size of type die (8 for a pointer without
 * one, 0 when unknown). */
static int64_t type_size(Dwarf_Die *die)
{
	Dwarf_Word w;
	Dwarf_Die p;
	if (!die)
		return 0;
	if (dwarf_aggregate_size(die, &w) == 0)
		return (int64_t)w;
	if (peel(die, &p) && (dwarf_tag(&p) == DW_TAG_pointer_type || dwarf_tag(&p) == DW_TAG_reference_type))
		return 8;
	return 0;
}

static void decl(Dwarf_Die *die, char *buf, size_t len, int depth);

/* array_dims(die, buf, len): "[N]" for each subrange of array die. */
static void array_dims(Dwarf_Die *die, char *buf, size_t len)
{
	Dwarf_Die c;
	size_t at = strlen(buf);
	if (dwarf_child(die, &c) != 0)
		return;
	do {
		Dwarf_Attribute a;
		Dwarf_Word n = 0;
		bool known = false;
		if (dwarf_tag(&c) != DW_TAG_subrange_type)
			continue;
		if (dwarf_attr(&c, DW_AT_count, &a) && dwarf_formudata(&a, &n) == 0)
			known = true;
		else if (dwarf_attr(&c, DW_AT_upper_bound, &a) && dwarf_formudata(&a, &n) == 0)
			known = (n++, true);
		if (known)
			at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "[%llu]", (unsigned long long)n);
		else
			at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "[]");
	} while (at < len && dwarf_siblingof(&c, &c) == 0);
}

/* tag_decl(die, buf, len): "struct NAME" / "union NAME" / "enum NAME",
 * with "{...}" for an anonymous one. */
static void tag_decl(Dwarf_Die *die, char *buf, size_t len)
{
	const char *kw = dwarf_tag(die) == DW_TAG_union_type ? "union" :
			 dwarf_tag(die) == DW_TAG_enumeration_type ? "enum" : "struct";
	const char *name = dwarf_diename(die);
	snprintf(buf, len, "%s %s", kw, name ? name : "{...}");
}

/* decl(die, buf, len, depth): the C declaration of type die without a
 * name into buf. */
static void decl(Dwarf_Die *die, char *buf, size_t len, int depth)
{
	Dwarf_Die t;
	const char *name = dwarf_diename(die);
	bool has = type_of(die, &t) != NULL;
	char inner[512] = "";
	if (depth > 32) {
		snprintf(buf, len, "?");
		return;
	}
	if (has)
		decl(&t, inner, sizeof(inner), depth + 1);
	else
		snprintf(inner, sizeof(inner), "void");
	switch (dwarf_tag(die)) {
	case DW_TAG_pointer_type:
		snprintf(buf, len, "%s *", inner);
		break;
	case DW_TAG_const_type:
		snprintf(buf, len, "const %s", inner);
		break;
	case DW_TAG_volatile_type:
		snprintf(buf, len, "volatile %s", inner);
		break;
	case DW_TAG_atomic_type:
		snprintf(buf, len, "_Atomic %s", inner);
		break;
	case DW_TAG_array_type:
		snprintf(buf, len, "%s", inner);
		array_dims(die, buf, len);
		break;
	case DW_TAG_structure_type: case DW_TAG_union_type:
	case DW_TAG_class_type: case DW_TAG_enumeration_type:
		tag_decl(die, buf, len);
		break;
	case DW_TAG_subroutine_type:
		snprintf(buf, len, "%s (*)()", inner);
		break;
	default:
		snprintf(buf, len, "%s", name ? name : "?");
	}
}

/* add_row(w, name, off, size, boff, bsize, tname): one member row (name
 * and tname copied); a name already present is skipped. */
static void add_row(struct dwalk *w, const char *name, int64_t off, int64_t size, int boff,
		    int bsize, const char *tname)
{
	struct layout *l = w->out;
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->m[i].member, name))
			return;
	ALLOC_GROW(l->m, l->n + 1, w->cap);
	l->m[l->n++] = (struct layout_member){ xstrdup(name), off, size, boff, bsize, xstrdup(tname) };
}

/* add_member(w, full, mtype, bits, bsize): the row of a member of type
 * mtype at bit offset bits (a bitfield of bsize bits when bsize > 0), as
 * btf_layout.c's add_member computes it. */
static void add_member(struct dwalk *w, const char *full, Dwarf_Die *mtype, uint64_t bits, int bsize)
{
	char tname[512] = "void";
	int64_t size = type_size(mtype), off = (int64_t)(bits / 8);
	int boff = -1;
	if (mtype)
		decl(mtype, tname, sizeof(tname), 0);
	if (bsize > 0) {
		uint64_t unit_bits = size > 0 ? (uint64_t)size * 8 : 8, unit = bits / unit_bits;
		boff = (int)(bits - unit * unit_bits);
		off = (int64_t)(unit * (unit_bits / 8));
		if (size <= 0 || (uint64_t)boff + (uint64_t)bsize > unit_bits) {
			off = (int64_t)(bits / 8);
			boff = (int)(bits % 8);
			size = (boff + bsize + 7) / 8;
		}
	}
	add_row(w, full, off, size, boff, bsize > 0 ? bsize : -1, tname);
}

/* udata(die, at, v): unsigned constant attribute at of die into *v. */
static bool udata(Dwarf_Die *die, unsigned at, Dwarf_Word *v)
{
	Dwarf_Attribute a;
	return dwarf_attr(die, at, &a) && dwarf_formudata(&a, v) == 0;
}

/* member_loc(m): the byte offset of member m (DW_AT_data_member_location
 * as a constant or a DW_OP_plus_uconst expression; 0 without). */
static uint64_t member_loc(Dwarf_Die *m)
{
	Dwarf_Attribute a;
	Dwarf_Word v;
	Dwarf_Op *ops;
	size_t n;
	if (!dwarf_attr(m, DW_AT_data_member_location, &a))
		return 0;
	if (dwarf_formudata(&a, &v) == 0)
		return v;
	if (dwarf_getlocation(&a, &ops, &n) == 0 && n == 1 && ops[0].atom == DW_OP_plus_uconst)
		return ops[0].number;
	return 0;
}

/* member_bits(m, mtype, bsize): member m's bit offset within its parent:
 * DW_AT_data_bit_offset, else the byte location, adjusted by DWARF 2's
 * DW_AT_bit_offset (counted from the unit's most significant bit). */
static uint64_t member_bits(Dwarf_Die *m, Dwarf_Die *mtype, int bsize)
{
	Dwarf_Word v, bo;
	if (udata(m, DW_AT_data_bit_offset, &v))
		return v;
	uint64_t bits = member_loc(m) * 8;
	if (bsize > 0 && udata(m, DW_AT_bit_offset, &bo)) {
		Dwarf_Word bytes;
		if (!udata(m, DW_AT_byte_size, &bytes))
			bytes = (Dwarf_Word)type_size(mtype);
		bits += bytes * 8 - bo - (uint64_t)bsize;
	}
	return bits;
}

static void walk_members(struct dwalk *w, Dwarf_Die *type, const char *prefix, uint64_t base,
			 int depth);

/* walk_one(w, m, prefix, base, depth): member DIE m of a composite at bit
 * offset base, named under prefix. */
static void walk_one(struct dwalk *w, Dwarf_Die *m, const char *prefix, uint64_t base, int depth)
{
	Dwarf_Die tbuf, ibuf, *mtype = type_of(m, &tbuf), *inner = NULL;
	Dwarf_Word bs = 0;
	int bsize = udata(m, DW_AT_bit_size, &bs) ? (int)bs : 0;
	uint64_t bits = base + member_bits(m, mtype, bsize);
	const char *name = dwarf_diename(m);
	char full[512];
	if (mtype)
		inner = peel(mtype, &ibuf);
	bool composite = inner && is_composite(inner);
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
	add_member(w, full, mtype, bits, bsize);
	if (!composite || depth + 1 >= BTF_LAYOUT_MAX_DEPTH)
		return;
	strncat(full, ".", sizeof(full) - strlen(full) - 1);
	walk_members(w, inner, full, bits, depth + 1);
}

/* walk_members(w, type, prefix, base, depth): the rows of composite
 * type's members. */
static void walk_members(struct dwalk *w, Dwarf_Die *type, const char *prefix, uint64_t base,
			 int depth)
{
	Dwarf_Die c;
	if (dwarf_child(type, &c) != 0)
		return;
	do {
		if (dwarf_tag(&c) == DW_TAG_member)
			walk_one(w, &c, prefix, base, depth);
	} while (dwarf_siblingof(&c, &c) == 0);
}

/* open_dwarf(path, fd, err, errlen): libdw's handle of path, or NULL. */
static Dwarf *open_dwarf(const char *path, int *fd, char *err, size_t errlen)
{
	Dwarf *dw;
	if ((*fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(err, errlen, "%s: cannot open", path);
		return NULL;
	}
	if (!(dw = dwarf_begin(*fd, DWARF_C_READ))) {
		snprintf(err, errlen, "%s: no DWARF (%s)", path, dwarf_errmsg(-1));
		close(*fd);
		*fd = -1;
	}
	return dw;
}

/* close_dwarf(dw, fd): ends a handle from open_dwarf. */
static void close_dwarf(Dwarf *dw, int fd)
{
	dwarf_end(dw);
	if (fd >= 0)
		close(fd);
}

/* is_definition(die): a struct/union with a size that is no declaration. */
static bool is_definition(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	return is_composite(die) && !dwarf_attr(die, DW_AT_declaration, &a) &&
	       dwarf_hasattr(die, DW_AT_byte_size);
}

/* match_type(die, key, out): whether top-level DIE die is struct/union
 * key, or a typedef of a defined one; *out is the composite. */
static bool match_type(Dwarf_Die *die, const char *key, Dwarf_Die *out)
{
	const char *n = dwarf_diename(die);
	if (!n || strcmp(n, key))
		return false;
	if (is_definition(die)) {
		*out = *die;
		return true;
	}
	return dwarf_tag(die) == DW_TAG_typedef && peel(die, out) && is_definition(out);
}

/* find_type(dw, key, out): the first definition of key in any CU. */
static bool find_type(Dwarf *dw, const char *key, Dwarf_Die *out)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, c;
		if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_child(&cu, &c) == 0) {
			do {
				if (match_type(&c, key, out))
					return true;
			} while (dwarf_siblingof(&c, &c) == 0);
		}
		off = next;
	}
	return false;
}

/* dwarf_layout_of: see dwarf_layout.h. */
int dwarf_layout_of(const char *path, const char *name, struct layout *out,
		    char *err, size_t errlen)
{
	const char *key = name;
	int fd;
	Dwarf *dw;
	Dwarf_Die type;
	struct dwalk w = { .out = out };
	*out = (struct layout){ 0 };
	if (!strncmp(key, "struct ", 7))
		key += 7;
	else if (!strncmp(key, "union ", 6))
		key += 6;
	if (!(dw = open_dwarf(path, &fd, err, errlen)))
		return -1;
	if (!find_type(dw, key, &type)) {
		snprintf(err, errlen, "%s: DWARF has no struct %s", path, key);
		close_dwarf(dw, fd);
		return -1;
	}
	out->struct_name = xstrdup(name);
	add_member(&w, "", &type, 0, 0);
	walk_members(&w, &type, "", 0, 0);
	close_dwarf(dw, fd);
	if (w.b.over) {
		snprintf(err, errlen, "%s: DWARF struct %s: %s: no partial layout is stored", path, key,
			 w.b.over);
		layout_free(out);
		*out = (struct layout){ 0 };
		return -2;
	}
	return 0;
}

/* var_addr(die, addr): the static address of variable die (a location
 * that is exactly DW_OP_addr, or DWARF 5's DW_OP_addrx and its GNU
 * predecessor, resolved through .debug_addr). */
static bool var_addr(Dwarf_Die *die, uint64_t *addr)
{
	Dwarf_Attribute a, res;
	Dwarf_Addr v;
	Dwarf_Op *ops;
	size_t n;
	if (!dwarf_attr(die, DW_AT_location, &a) || dwarf_getlocation(&a, &ops, &n) != 0 || n != 1)
		return false;
	if (ops[0].atom == DW_OP_addr) {
		*addr = ops[0].number;
		return true;
	}
	if ((ops[0].atom == DW_OP_addrx || ops[0].atom == DW_OP_GNU_addr_index) &&
	    dwarf_getlocation_attr(&a, &ops[0], &res) == 0 && dwarf_formaddr(&res, &v) == 0) {
		*addr = v;
		return true;
	}
	return false;
}

/* layout_type_name(t): the name under which a layout of variable type t
 * is found: the struct/union tag or the typedef name, "" otherwise. */
static const char *layout_type_name(Dwarf_Die *t)
{
	Dwarf_Die cur = *t, p;
	for (int i = 0; i < 16; i++) {
		int tag = dwarf_tag(&cur);
		if (tag == DW_TAG_typedef)
			return peel(&cur, &p) && is_composite(&p) && dwarf_diename(&cur) ? dwarf_diename(&cur) : "";
		if (is_composite(&cur))
			return dwarf_diename(&cur) ? dwarf_diename(&cur) : "";
		if (tag != DW_TAG_const_type && tag != DW_TAG_volatile_type && tag != DW_TAG_atomic_type)
			return "";
		if (!type_of(&cur, &cur))
			return "";
	}
	return "";
}

/* add_var(v, n, cap, die): appends variable die when it has a name, a
 * type and a static address. */
static void add_var(struct dwarf_var **v, size_t *n, size_t *cap, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Die t;
	uint64_t addr;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
	char tdecl[512];
	if (!name || !type_of(die, &t) || !var_addr(die, &addr))
		return;
	ALLOC_GROW(*v, *n + 1, *cap);
	decl(&t, tdecl, sizeof(tdecl), 0);
	(*v)[(*n)++] = (struct dwarf_var){ xstrdup(name), xstrdup(layout_type_name(&t)),
		xstrdup(tdecl), addr, (uint64_t)type_size(&t) };
}

/* dwarf_vars: see dwarf_layout.h. */
int dwarf_vars(const char *path, struct dwarf_var **out, size_t *n, char *err, size_t errlen)
{
	Dwarf_Off off = 0, next;
	size_t hsize, cap = 0;
	int fd;
	Dwarf *dw = open_dwarf(path, &fd, err, errlen);
	*out = NULL;
	*n = 0;
	if (!dw)
		return -1;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, c;
		if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_child(&cu, &c) == 0) {
			do {
				if (dwarf_tag(&c) == DW_TAG_variable)
					add_var(out, n, &cap, &c);
			} while (dwarf_siblingof(&c, &c) == 0);
		}
		off = next;
	}
	close_dwarf(dw, fd);
	return 0;
}

/* dwarf_vars_free: see dwarf_layout.h. */
void dwarf_vars_free(struct dwarf_var *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].type);
		free(v[i].type_decl);
	}
	free(v);
}
