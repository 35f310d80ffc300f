/* Struct layouts for field attribution: a session's struct_layout rows
 * (collect/btf_layout.h's flattened form, whether they came from BTF or
 * DWARF) read back, the name of the field at a byte offset, and getting
 * missing layouts from BTF or DWARF into the session.
 *
 * Naming the byte at offset o of a struct:
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
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/btf_layout.h"

/* A session's layouts by struct name. */
struct layout_set {
	struct layout *v;
	size_t n;
};

/* layout_name_at(l, off, name, len, foff, fsize): the field of l at byte
 * off (0 <= off < struct size) by the rules above, into name (always
 * NUL-terminated), with its offset and size. Returns 0, or -1 when off is
 * outside the struct. */
int layout_name_at(const struct layout *l, int64_t off, char *name, size_t len,
		   int64_t *foff, int64_t *fsize);

/* layout_size(l): the struct's size (its "" row), 0 when unknown. */
int64_t layout_size(const struct layout *l);

/* layouts_load(db, session, set): every struct_layout row of session,
 * grouped by struct, into set (emptied first). 0, or -1 on an SQL error. */
int layouts_load(sqlite3 *db, int64_t session, struct layout_set *set);

/* layouts_find(set, name): the layout of struct name ("struct " and
 * "union " prefixes ignored), or NULL. */
const struct layout *layouts_find(const struct layout_set *set, const char *name);

/* layouts_free(set): frees set's layouts and empties it. */
void layouts_free(struct layout_set *set);

/* layout_replace(db, session, l, err, errlen): stores l as the session's
 * layout of l->struct_name, replacing rows of that name. 0 or -1. */
int layout_replace(sqlite3 *db, int64_t session, const struct layout *l,
		   char *err, size_t errlen);

/* layout_type_key(name): name without a leading "struct " or "union ". */
const char *layout_type_key(const char *name);

/* Where layouts missing from a session may come from, tried in this
 * order: DWARF files (--dwarf), a BTF file (--btf), and the running
 * kernel's BTF (/sys/kernel/btf/vmlinux). */
struct layout_sources {
	const char *const *dwarf;	/* DWARF files */
	int ndwarf;
	const char *btf;		/* a BTF file, or NULL */
	struct btf *file_btf, *kernel_btf;	/* opened on first use */
	int file_tried, kernel_tried;
};

/* LAYOUT_KERNEL_BTF: layout_fetch's from text for the running kernel. */
#define LAYOUT_KERNEL_BTF "the running kernel's BTF"

/* layout_fetch(db, session, name, src, from, fromlen): looks up struct
 * name in src and stores the first layout found in session
 * (layout_replace), naming its source in from. Returns 1 when stored, 0
 * when no source has it, -1 when storing failed (message in from). */
int layout_fetch(sqlite3 *db, int64_t session, const char *name, struct layout_sources *src,
		 char *from, size_t fromlen);

/* layout_sources_close(src): frees the BTF handles src opened. */
void layout_sources_close(struct layout_sources *src);
#endif
