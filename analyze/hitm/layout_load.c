/* A session's struct layouts read back from struct_layout (see
 * layout.h). */
#include <stdlib.h>
#include <string.h>
#include "analyze/hitm/layout_load.h"
#include "lib/alloc.h"
#include "schema/db.h"

/* set_add(set, struct_name): the layout of struct_name, appended. */
static struct layout *set_add(struct layout_set *set, const char *struct_name)
{
	set->v = xreallocarray(set->v, set->n + 1, sizeof(*set->v));
	set->v[set->n] = (struct layout){ .struct_name = xstrdup(struct_name) };
	return &set->v[set->n++];
}

/* add_member(l, cap, st): appends the struct_layout row of st to l. */
static void add_member(struct layout *l, size_t *cap, sqlite3_stmt *st)
{
	const char *member = (const char *)sqlite3_column_text(st, 1);
	ALLOC_GROW(l->m, l->n + 1, *cap);
	l->m[l->n++] = (struct layout_member){ .member = xstrdup(member ? member : ""),
		.offset = sqlite3_column_int64(st, 2), .size = sqlite3_column_int64(st, 3),
		.bit_offset = sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 4),
		.bit_size = sqlite3_column_type(st, 5) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 5),
		.type_name = xstrdup((const char *)sqlite3_column_text(st, 6)) };
}

/* layouts_load: see layout.h. */
int layouts_load(sqlite3 *db, int64_t session, struct layout_set *set)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT struct_name, member, offset, size, bit_offset, "
				      "bit_size, type_name FROM struct_layout WHERE session_id = ? "
				      "ORDER BY struct_name, offset, member");
	struct layout *cur = NULL;
	size_t cap = 0;
	int rc;
	layouts_free(set);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *sn = (const char *)sqlite3_column_text(st, 0);
		if (!sn)
			continue;
		if (!cur || strcmp(cur->struct_name, sn)) {
			cur = set_add(set, sn);
			cap = 0;
		}
		add_member(cur, &cap, st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* layouts_find: see layout.h. */
const struct layout *layouts_find(const struct layout_set *set, const char *name)
{
	const char *key = layout_type_key(name);
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(layout_type_key(set->v[i].struct_name), key))
			return &set->v[i];
	return NULL;
}

/* layouts_free: see layout.h. */
void layouts_free(struct layout_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		layout_free(&set->v[i]);
	free(set->v);
	*set = (struct layout_set){ 0 };
}
