/* A session's struct layouts read back from its struct_layout rows
 * (stored by collect/: perfdb record from the recording kernel's BTF,
 * perfdb layout from BTF or DWARF), by struct name. The layout type and
 * the naming of a field at a byte offset are lib/layout.h's. Only reads
 * the database. */
#ifndef PERFDB_ANALYZE_LAYOUT_H
#define PERFDB_ANALYZE_LAYOUT_H
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/layout.h"

/* A session's layouts by struct name. */
struct layout_set {
	struct layout *v;
	size_t n;
};

/* layouts_load(db, session, set): every struct_layout row of session,
 * grouped by struct, into set (emptied first). 0, or -1 on an SQL error. */
int layouts_load(sqlite3 *db, int64_t session, struct layout_set *set);

/* layouts_find(set, name): the layout of struct name ("struct " and
 * "union " prefixes ignored), or NULL. */
const struct layout *layouts_find(const struct layout_set *set, const char *name);

/* layouts_free(set): frees set's layouts and empties it. */
void layouts_free(struct layout_set *set);
#endif
