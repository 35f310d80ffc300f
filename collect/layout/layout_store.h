/* Getting struct layouts into sessions: where a layout may come from
 * (DWARF files, a BTF file, the running kernel's BTF, tried in that
 * order) and storing one in a session's struct_layout rows. What a
 * session needs is collect/layout/describe.h's. */
#ifndef PERFDB_LAYOUT_STORE_H
#define PERFDB_LAYOUT_STORE_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/layout.h"

struct btf;

/* Where layouts come from. The given files are opened (or checked) by
 * layout_sources_open; the running kernel's BTF on first use. */
struct layout_sources {
	const char *const *dwarf;	/* DWARF files, tried in order */
	size_t ndwarf;
	const char *btf_path;		/* a BTF file, or NULL */
	struct btf *btf, *kernel_btf;
	bool kernel_tried;
};

/* Where layout_lookup found a layout. */
enum layout_origin { LAYOUT_FROM_DWARF, LAYOUT_FROM_BTF_FILE, LAYOUT_FROM_KERNEL_BTF };

/* layout_sources_open(src, dwarf, ndwarf, btf, err, errlen): src for the
 * DWARF files dwarf[0..ndwarf) and the BTF file btf (NULL: none). The BTF
 * file is loaded now and every DWARF file must be readable: 0, or -1 with
 * one line in err naming the file. Close with layout_sources_close (also
 * after a failure). */
int layout_sources_open(struct layout_sources *src, const char *const *dwarf, size_t ndwarf,
			const char *btf, char *err, size_t errlen);

/* layout_lookup(src, name, kernel, out, origin, from, fromlen): the
 * layout of struct or union name ("struct " prefix allowed) from the first
 * source that has it (the running kernel's BTF only when kernel is true),
 * into *out (struct_name = name without the prefix; free with
 * layout_free), with where it came from in *origin and in words in from
 * ("DWARF of PATH", "BTF of PATH", "the running kernel's BTF"). Returns
 * 1 when found; 0 with *out empty when no source has it; -1 with *out
 * empty and a one-line message in from when the first source that has it
 * holds more than a layout's walk takes (btf_layout_of's -2). */
int layout_lookup(struct layout_sources *src, const char *name, bool kernel, struct layout *out,
		   enum layout_origin *origin, char *from, size_t fromlen);

/* layout_sources_close(src): frees the BTF src loaded. */
void layout_sources_close(struct layout_sources *src);

/* layout_replace(db, session, l, err, errlen): stores l as the session's
 * layout of l->struct_name, replacing rows of that name (inside the
 * caller's transaction, if any). 0, or -1 with one line in err. */
int layout_replace(sqlite3 *db, int64_t session, const struct layout *l, char *err, size_t errlen);
#endif
