/* Struct layouts from BTF (libbpf): the members of a kernel struct with
 * their offsets and sizes, flattened to dotted names, so an address inside
 * an object can be attributed to a field; and storing them in the
 * struct_layout table of a session.
 *
 * Flattening rules (pahole prints the same offsets):
 *  - members of anonymous structs/unions appear under their own names
 *    (mm_struct's anonymous wrapper struct adds nothing to the name);
 *  - a named member whose type is a struct or union (also through
 *    typedefs, e.g. mm_context_t) has a row of its own and its members
 *    follow as NAME.MEMBER (context.tlb_gen, lru_gen.bitmap), to a depth
 *    of BTF_LAYOUT_MAX_DEPTH names;
 *  - an array is one member with its total size (elements not expanded);
 *  - a bitfield's offset is the byte offset of its storage unit aligned
 *    to its declared type's size, bit_offset the first bit within that
 *    unit and size the declared type's size, as pahole prints "40:15 8";
 *  - the first row (member "") is the whole struct: offset 0, its size.
 * Offsets are from the start of the outermost struct, in bytes. */
#ifndef PERFDB_BTF_LAYOUT_H
#define PERFDB_BTF_LAYOUT_H
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/layout.h"

#define BTF_LAYOUT_MAX_DEPTH 8

struct btf;

/* btf_layout_open(path, err, errlen): BTF from path (a raw BTF file or
 * an ELF file with a .BTF section), or the running kernel's
 * (/sys/kernel/btf/vmlinux and libbpf's other places) when path is NULL.
 * Returns it (free with btf_layout_close), or NULL with a one-line
 * message in err. */
struct btf *btf_layout_open(const char *path, char *err, size_t errlen);

/* btf_layout_close(btf): frees btf; NULL is allowed. */
void btf_layout_close(struct btf *btf);

/* btf_layout_of(btf, name, out, err, errlen): the flattened layout of
 * struct or union NAME (or a typedef of one; "struct NAME" and "union
 * NAME" are accepted too) into *out, members in offset order of the walk
 * (declaration order, depth first). Returns 0, or -1 with a message in
 * err ("BTF has no struct NAME") and *out empty, or -2 (err naming the
 * type and the bound) when the walk reached a bound (more than 2^20
 * members, anonymous members nested deeper than 16): a partial layout
 * would attribute fields wrongly. Free with layout_free. */
int btf_layout_of(const struct btf *btf, const char *name, struct layout *out,
		  char *err, size_t errlen);

/* btf_layout_find(l, member) / btf_layout_free(l): the older names of
 * lib/layout.h's layout_find_member and layout_free, kept for the callers
 * outside the layout code (collect/record/record.c, collect/doctor/doctor.c,
 * tests/unit/test_recipes.c) until they use the new ones. */
static inline const struct layout_member *btf_layout_find(const struct layout *l,
							  const char *member)
{
	return layout_find_member(l, member);
}
static inline void btf_layout_free(struct layout *l)
{
	layout_free(l);
}

/* btf_layout_store(db, session, l, err, errlen): inserts l's rows into
 * struct_layout for session (inside the caller's transaction, if any).
 * Returns 0, or -1 with sqlite's message in err. */
int btf_layout_store(sqlite3 *db, int64_t session, const struct layout *l,
		     char *err, size_t errlen);
#endif
