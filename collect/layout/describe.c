/* Storing objects and the layouts sessions need (see describe.h): per
 * session the objects first, then which layouts it needs (the mm
 * tracepoints, the objects' and -t types, the types of DWARF objects its
 * samples fall in), then each layout from the first source that has it. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "collect/layout/describe.h"
#include "collect/layout/layout_needs.h"
#include "collect/layout/layout_store.h"
#include "lib/alloc.h"
#include "lib/layout.h"
#include "lib/strbuf.h"
#include "schema/db.h"

/* needed(db, session, o, l): the layouts the session needs (describe.h). */
static void needed(sqlite3 *db, int64_t session, const struct describe_opts *o,
		   struct type_names *l)
{
	for (size_t i = 0; i < o->nobjects; i++)
		type_names_add(l, o->objects[i].type);
	for (size_t i = 0; i < o->ntypes; i++)
		type_names_add(l, o->types[i]);
	layout_needs(db, session, l);
}

/* has_layout(db, session, name): whether the session has name's layout. */
static bool has_layout(sqlite3 *db, int64_t session, const char *name)
{
	return db_any_row(db, "SELECT 1 FROM struct_layout WHERE session_id = ? AND "
			  "struct_name = ? LIMIT 1", session, name);
}

/* Appending "a, b" lists. */
static void list_add(struct strbuf *b, const char *s)
{
	sb_printf(b, "%s%s", b->len ? ", " : "", s);
}

/* store_layouts(db, r, names, src, force, kernel, err, errlen): each
 * needed layout of r's session from src: a missing one from the first
 * source that has it, one already there again from a given file when
 * force (never from the running kernel's BTF), noted in r; kernel collects
 * the ones from the running kernel's BTF. 0 or -1. */
static int store_layouts(sqlite3 *db, struct describe_result *r, const struct type_names *names,
			 struct layout_sources *src, bool force, bool kernel_ok, struct strbuf *kernel,
			 char *err, size_t errlen)
{
	struct strbuf stored = STRBUF_INIT, kept = STRBUF_INIT, missing = STRBUF_INIT;
	int rc = 0;
	for (size_t i = 0; !rc && i < names->n; i++) {
		const char *name = names->v[i];
		bool there = has_layout(db, r->session, name);
		struct layout l;
		enum layout_origin origin;
		char from[4200];
		int found = !there || force ? layout_lookup(src, name, !there && kernel_ok, &l, &origin,
							    from, sizeof(from)) : 0;
		if (found < 0) {
			snprintf(err, errlen, "%s", from);
			rc = -1;
		} else if (found) {
			rc = layout_replace(db, r->session, &l, err, errlen);
			sb_printf(&stored, "%s%s (%s)", stored.len ? ", " : "", name, from);
			if (origin == LAYOUT_FROM_KERNEL_BTF)
				list_add(kernel, name);
			layout_free(&l);
		} else {
			list_add(there ? &kept : &missing, name);
		}
	}
	r->stored = sb_take(&stored);
	r->kept = sb_take(&kept);
	r->missing = sb_take(&missing);
	return rc;
}

/* kernel_warning(db, r, kernel): when layouts (the list kernel) came
 * from the running kernel's BTF for a session recorded on another kernel
 * release, the warning saying so. */
static void kernel_warning(sqlite3 *db, struct describe_result *r, const struct strbuf *kernel)
{
	sqlite3_stmt *st;
	struct utsname u;
	if (!kernel->len || uname(&u) || !(st = db_prepare(db, "SELECT os_release FROM session "
							     "WHERE id = ?")))
		return;
	sqlite3_bind_int64(st, 1, r->session);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *rel = (const char *)sqlite3_column_text(st, 0);
		if (!rel || strcmp(rel, u.release))
			r->warning = xasprintf("session %lld was recorded on kernel %s, not on the "
					       "running one (%s): its layouts of %s come from the "
					       "running kernel's BTF and may not match it (give that "
					       "kernel's BTF with --btf)", (long long)r->session,
					       rel ? rel : "(unknown)", u.release, sb_str(kernel));
	}
	sqlite3_finalize(st);
}

/* store_objects(db, r, o, err, errlen): the --object and --dwarf objects
 * of r's session. 0 or -1. */
static int store_objects(sqlite3 *db, struct describe_result *r, const struct describe_opts *o,
			 char *err, size_t errlen)
{
	for (size_t i = 0; i < o->nobjects; i++) {
		if (objects_store_user(db, r->session, &o->objects[i], err, errlen))
			return -1;
		r->objects++;
	}
	for (size_t i = 0; i < o->ndwarf; i++) {
		long k = objects_store_binary(db, r->session, o->dwarf[i], err, errlen);
		if (k < 0)
			return -1;
		r->objects += k;
	}
	return 0;
}

/* same_release(db, session): whether session was recorded on the running
 * kernel's release. */
static bool same_release(sqlite3 *db, int64_t session)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT os_release FROM session WHERE id = ?");
	struct utsname u;
	bool same = false;
	sqlite3_bind_int64(st, 1, session);
	if (st && !uname(&u) && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		same = !strcmp((const char *)sqlite3_column_text(st, 0), u.release);
	sqlite3_finalize(st);
	return same;
}

/* describe_one(db, r, o, src, err, errlen): one session. 0 or -1. */
static int describe_one(sqlite3 *db, struct describe_result *r, const struct describe_opts *o,
			struct layout_sources *src, char *err, size_t errlen)
{
	struct type_names names = { 0 };
	struct strbuf kernel = STRBUF_INIT;
	int rc = store_objects(db, r, o, err, errlen);
	if (!rc) {
		needed(db, r->session, o, &names);
		rc = store_layouts(db, r, &names, src, o->btf || o->ndwarf,
				   !o->kernel_same_release || same_release(db, r->session), &kernel, err, errlen);
	}
	if (!rc)
		kernel_warning(db, r, &kernel);
	type_names_free(&names);
	sb_free(&kernel);
	return rc;
}

/* describe_sessions: see describe.h. */
int describe_sessions(sqlite3 *db, const int64_t *ids, int n, const struct describe_opts *o,
		      struct describe_result **out, char *err, size_t errlen)
{
	struct layout_sources src;
	struct describe_result *r = xcalloc((size_t)(n > 0 ? n : 1), sizeof(*r));
	int rc = layout_sources_open(&src, o->dwarf, o->ndwarf, o->btf, err, errlen);
	bool open = false, own = sqlite3_get_autocommit(db) != 0;
	*out = NULL;
	/* Outside a transaction, an immediate one: a deferred one that reads
	 * first would find another writer's lock when it writes, and fail
	 * instead of waiting for it. */
	if (!rc && own)
		rc = db_exec(db, "BEGIN IMMEDIATE", err, errlen);
	if (!rc)
		open = !(rc = db_exec(db, "SAVEPOINT describe", err, errlen));
	for (int i = 0; !rc && i < n; i++) {
		r[i].session = ids[i];
		rc = describe_one(db, &r[i], o, &src, err, errlen);
	}
	if (!rc)
		rc = db_exec(db, "RELEASE describe", err, errlen);
	if (!rc && own)
		rc = db_exec(db, "COMMIT", err, errlen);
	if (rc && open)
		db_exec(db, "ROLLBACK TO describe; RELEASE describe", NULL, 0);
	if (rc && own && !sqlite3_get_autocommit(db))
		db_exec(db, "ROLLBACK", NULL, 0);
	layout_sources_close(&src);
	if (rc)
		describe_results_free(r, n);
	else
		*out = r;
	return rc;
}

/* describe_result_line: see describe.h. */
char *describe_result_line(const struct describe_result *r)
{
	struct strbuf b = STRBUF_INIT;
	const char *sep = " ";
	sb_printf(&b, "session %lld:", (long long)r->session);
	if (r->objects) {
		sb_printf(&b, "%s%ld object%s stored", sep, r->objects, r->objects == 1 ? "" : "s");
		sep = "; ";
	}
	if (*r->stored) {
		sb_printf(&b, "%slayouts stored: %s", sep, r->stored);
		sep = "; ";
	}
	if (*r->kept) {
		sb_printf(&b, "%slayouts already there: %s", sep, r->kept);
		sep = "; ";
	}
	if (*r->missing) {
		sb_printf(&b, "%sno layout found for %s (give --btf or --dwarf)", sep, r->missing);
		sep = "; ";
	}
	if (!strcmp(sep, " "))
		sb_puts(&b, " nothing to store (no objects given, no layouts needed)");
	return sb_take(&b);
}

/* describe_results_free: see describe.h. */
void describe_results_free(struct describe_result *r, int n)
{
	for (int i = 0; r && i < n; i++) {
		free(r[i].stored);
		free(r[i].kept);
		free(r[i].missing);
		free(r[i].warning);
	}
	free(r);
}
