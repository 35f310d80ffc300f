/* Struct layouts and global variables from DWARF (libdw), for binaries
 * built with -g and debug vmlinux files: the same flattened layout
 * (lib/layout.h) as collect/layout/btf_layout.h gives from BTF (anonymous
 * structs and unions walked, nested members dotted, arrays one member of
 * their total size, bitfields by storage unit, the "" row first), so both
 * kinds can be stored in struct_layout and named alike. Type names are C declarations
 * without a name, as btf_dump writes them ("long unsigned int[56]",
 * "struct maple_tree", "pgd_t *"). Only the DWARF in the file itself is
 * read (no separate debuginfo). */
#ifndef PERFDB_DWARF_LAYOUT_H
#define PERFDB_DWARF_LAYOUT_H
#include <stddef.h>
#include <stdint.h>

#include "lib/layout.h"

/* A global variable with a static address. */
struct dwarf_var {
	char *name;
	char *type;		/* struct, union or typedef name whose layout
				 * applies, or "" for other types */
	char *type_decl;	/* its C type, e.g. "struct fs_shared" */
	uint64_t addr;		/* the ELF virtual address (DW_OP_addr/addrx) */
	uint64_t size;
};

/* dwarf_layout_of(path, name, out, err, errlen): the layout of struct or
 * union NAME (or a typedef of one; "struct NAME" accepted) from the first
 * complete definition in path's DWARF, into *out (struct_name = name as
 * given). 0, or -1 with a one-line message in err ("PATH: no DWARF", "PATH:
 * DWARF has no struct NAME"), or -2 when the walk reached a bound (as
 * btf_layout_of). Free with btf_layout_free. */
int dwarf_layout_of(const char *path, const char *name, struct layout *out,
		    char *err, size_t errlen);

/* dwarf_vars(path, out, n, err, errlen): the file-scope variables of
 * path's DWARF that have a static address, in DIE order. 0 (with *n
 * possibly 0), or -1 with a message in err. Free with dwarf_vars_free. */
int dwarf_vars(const char *path, struct dwarf_var **out, size_t *n, char *err, size_t errlen);

/* dwarf_vars_free(v, n): frees what dwarf_vars returned. */
void dwarf_vars_free(struct dwarf_var *v, size_t n);
#endif
