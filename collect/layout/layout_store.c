/* Layout sources and storing layouts in sessions (see layout_store.h). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "collect/layout/btf_layout.h"
#include "collect/layout/dwarf_layout.h"
#include "collect/layout/layout_store.h"
#include "schema/db.h"

/* readable(path, err, errlen): whether path opens for reading; else one
 * line in err. */
static bool readable(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot read: %m", path);
		return false;
	}
	close(fd);
	return true;
}

/* layout_sources_open: see layout_store.h. */
int layout_sources_open(struct layout_sources *src, const char *const *dwarf, size_t ndwarf,
			const char *btf, char *err, size_t errlen)
{
	*src = (struct layout_sources){ .dwarf = dwarf, .ndwarf = ndwarf, .btf_path = btf };
	for (size_t i = 0; i < ndwarf; i++)
		if (!readable(dwarf[i], err, errlen))
			return -1;
	if (btf && (!readable(btf, err, errlen) || !(src->btf = btf_layout_open(btf, err, errlen))))
		return -1;
	return 0;
}

/* from_btf(b, name, out, err, errlen): 1 with the layout of name in BTF
 * b, 0 when b is NULL or has none, -1 (err) when it is too large to lay
 * out whole. */
static int from_btf(const struct btf *b, const char *name, struct layout *out, char *err,
		    size_t errlen)
{
	int rc = b ? btf_layout_of(b, name, out, err, errlen) : -1;
	return rc == 0 ? 1 : rc == -2 ? -1 : 0;
}

/* layout_lookup: see layout_store.h. */
int layout_lookup(struct layout_sources *src, const char *name, bool kernel, struct layout *out,
		  enum layout_origin *origin, char *from, size_t fromlen)
{
	char err[512];
	int rc;
	name = layout_type_key(name);
	for (size_t i = 0; i < src->ndwarf; i++) {
		rc = dwarf_layout_of(src->dwarf[i], name, out, from, fromlen);
		if (rc == -2)
			return -1;
		if (!rc) {
			*origin = LAYOUT_FROM_DWARF;
			snprintf(from, fromlen, "DWARF of %s", src->dwarf[i]);
			return 1;
		}
	}
	if ((rc = from_btf(src->btf, name, out, from, fromlen)) != 0) {
		*origin = LAYOUT_FROM_BTF_FILE;
		if (rc > 0)
			snprintf(from, fromlen, "BTF of %s", src->btf_path);
		return rc;
	}
	if (kernel && !src->kernel_tried) {
		src->kernel_tried = true;
		src->kernel_btf = btf_layout_open(NULL, err, sizeof(err));
	}
	if (kernel && (rc = from_btf(src->kernel_btf, name, out, from, fromlen)) != 0) {
		*origin = LAYOUT_FROM_KERNEL_BTF;
		if (rc > 0)
			snprintf(from, fromlen, "the running kernel's BTF");
		return rc;
	}
	*out = (struct layout){ 0 };
	return 0;
}

/* layout_sources_close: see layout_store.h. */
void layout_sources_close(struct layout_sources *src)
{
	btf_layout_close(src->btf);
	btf_layout_close(src->kernel_btf);
	src->btf = src->kernel_btf = NULL;
}

/* layout_replace: see layout_store.h. */
int layout_replace(sqlite3 *db, int64_t session, const struct layout *l, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "DELETE FROM struct_layout WHERE session_id = ? AND "
				      "struct_name = ?");
	int rc;
	if (!st) {
		snprintf(err, errlen, "struct_layout: %s", sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_text(st, 2, l->struct_name, -1, SQLITE_STATIC);
	rc = db_step_done(st, err, errlen);
	sqlite3_finalize(st);
	return rc ? rc : btf_layout_store(db, session, l, err, errlen);
}
