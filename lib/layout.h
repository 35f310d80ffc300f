/* Struct layouts as data: a struct's members flattened to dotted names
 * with byte offsets and sizes. collect/ reads them from BTF
 * (collect/layout/btf_layout.h) or DWARF (collect/layout/dwarf_layout.h) and stores them
 * in a session's struct_layout rows; analyze/ reads those rows back. This
 * file holds the type and the pure helpers both sides use: finding a
 * member, the struct's size, naming the field at a byte offset, freeing.
 *
 * The shape (the same from BTF and DWARF): the first row (member "") is
 * the whole struct (offset 0, its size); members of anonymous structs and
 * unions appear under their own names; a named member of struct or union
 * type has a row and its members follow as NAME.MEMBER; an array is one
 * member of its total size; a bitfield's row is its storage unit (offset
 * and size of the unit, bit_offset and bit_size inside it).
 *
 * Naming the byte at offset o of a struct (layout_name_at):
 *  - the smallest member whose bytes contain o, the shallowest (fewest
 *    dots) among equals: nested members are named down to the one that
 *    holds the byte (lru_gen.bitmap, context.tlb_gen, mmap_lock.count),
 *    but a member that fills its whole parent adds nothing (mm_users, not
 *    mm_users.counter); bitfields sharing a storage unit are named by the
 *    ones whose bits overlap that byte, joined with ',';
 *  - an array member adds the element's index: saved_auxv[3] (size /
 *    count per element, from the "[N]" of its type name);
 *  - a byte inside no member is a hole or padding of the innermost named
 *    struct containing it: "<hole after mm_count>", "<hole before x>"
 *    when nothing precedes it, "<padding>" after the last member, each
 *    prefixed by the containing member's dotted name ("padded.<padding>").
 * The field's offset and size are the member's (the element's for an
 * array, the gap's for a hole or padding). */
#ifndef PERFDB_LAYOUT_H
#define PERFDB_LAYOUT_H
#include <stddef.h>
#include <stdint.h>

struct layout_member {
	char *member;		/* dotted name; "" for the struct itself */
	int64_t offset;		/* bytes from the struct's start */
	int64_t size;		/* bytes (storage unit size for bitfields) */
	int bit_offset;		/* bitfields: first bit in the unit; else -1 */
	int bit_size;		/* bitfields: width in bits; else -1 */
	char *type_name;	/* C type ("long unsigned int[56]"), or NULL */
};

struct layout {
	char *struct_name;	/* as asked for or stored */
	struct layout_member *m;
	size_t n;
};

/* layout_find_member(l, member): the row named member ("" for the struct
 * itself), or NULL. */
const struct layout_member *layout_find_member(const struct layout *l, const char *member);

/* layout_size(l): the struct's size (its "" row), 0 when unknown. */
int64_t layout_size(const struct layout *l);

/* layout_type_key(name): name without a leading "struct " or "union "
 * ("" for NULL): the key layouts are matched by. */
const char *layout_type_key(const char *name);

/* layout_name_at(l, off, name, len, foff, fsize): the field of l at byte
 * off (0 <= off < struct size) by the rules above, into name (always
 * NUL-terminated), with its offset and size. Returns 0, or -1 when off is
 * outside the struct. */
int layout_name_at(const struct layout *l, int64_t off, char *name, size_t len,
		   int64_t *foff, int64_t *fsize);

/* layout_free(l): frees what *l holds and empties it. */
void layout_free(struct layout *l);
#endif
