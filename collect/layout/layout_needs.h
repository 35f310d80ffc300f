/* Which struct layouts a session's field attribution needs, from its own
 * rows: mm_struct when its mmap_lock or exit_mmap tracepoints have samples
 * (they name the mm_structs that become objects), the types of its user
 * objects (c2c_object rows from --object), and the types of its DWARF
 * objects (rows from --dwarf) that one of its memory samples or watched
 * addresses falls in, so a vmlinux's thousands of variables do not ask
 * for thousands of layouts. */
#ifndef PERFDB_LAYOUT_NEEDS_H
#define PERFDB_LAYOUT_NEEDS_H
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/* Type names, each once, by layout_type_key ("struct x" is "x"). */
struct type_names {
	char **v;
	size_t n, cap;
};

/* type_names_add(l, name): adds name's key unless it is there or empty
 * (NULL is empty). type_names_free(l): frees l and empties it. */
void type_names_add(struct type_names *l, const char *name);
void type_names_free(struct type_names *l);

/* layout_needs(db, session, l): adds to l the layouts the session's rows
 * ask for (see above). */
void layout_needs(sqlite3 *db, int64_t session, struct type_names *l);
#endif
