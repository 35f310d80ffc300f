/* Shared pieces of perfdb push and pull: see fleet_xfer.h. */
#include <stdarg.h>
#include <stdlib.h>
#include "lib/alloc.h"
#include "lib/escape.h"
#include "collect/fleet/fleet_xfer.h"
#include "schema/db.h"

/* xfer_remap: see fleet_xfer.h. */
bool xfer_remap(const struct xfer *x, enum fleet_key k, int64_t v, int64_t *out)
{
	if (k == FK_SESSION && x->nmap > 0) {
		for (int i = 0; i < x->nmap; i++)
			if (x->from[i] == v) {
				*out = x->to[i];
				return true;
			}
		return false;
	}
	*out = v + x->off[k];
	return true;
}

/* xfer_remap_in: see fleet_xfer.h. */
int xfer_remap_in(const struct xfer *x, enum fleet_key k, int64_t v, int64_t *out)
{
	if (k == FK_SESSION && !x->has[FK_SESSION]) {
		for (int i = 0; i < x->nmap; i++)
			if (x->from[i] == v) {
				*out = x->to[i];
				return 1;
			}
		return 0;
	}
	if (!x->has[k] || v < x->lo[k] || v > x->hi[k])
		return -1;
	*out = x->off[k] + v;	/* next + (v - lo): xfer_set_range saw that it fits */
	return 1;
}

/* xfer_set_range: see fleet_xfer.h. */
int xfer_set_range(struct xfer *x, enum fleet_key k, int64_t lo, int64_t hi, int64_t next)
{
	int64_t last;
	if (lo < 1 || hi < lo || next < 1 || __builtin_add_overflow(next, hi - lo, &last))
		return -1;
	x->has[k] = true;
	x->lo[k] = lo;
	x->hi[k] = hi;
	x->off[k] = next - lo;
	return 0;
}

/* xfer_columns: see fleet_xfer.h. */
int xfer_columns(sqlite3 *db, const char *table, char ***cols)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT name FROM pragma_table_info(?) ORDER BY cid");
	size_t cap = 0;
	int n = 0;
	*cols = NULL;
	if (st)	/* bound: pull passes names the server gives (event.tp_table) */
		sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		ALLOC_GROW(*cols, (size_t)n + 1, cap);
		(*cols)[n++] = xstrdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	return n;
}

/* xfer_columns_free: see fleet_xfer.h. */
void xfer_columns_free(char **cols, int n)
{
	for (int i = 0; i < n; i++)
		free(cols[i]);
	free(cols);
}

/* xfer_has_key: see fleet_xfer.h. */
bool xfer_has_key(sqlite3 *db, const char *table)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT count(*) FROM pragma_table_info(?) WHERE pk > 0");
	bool yes;
	if (st)
		sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	yes = st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
	sqlite3_finalize(st);
	return yes;
}

/* xfer_local_identity: see fleet_xfer.h. */
int xfer_local_identity(sqlite3 *db, int64_t id, struct strbuf *b, struct strbuf *v1)
{
	char *sql = xasprintf("SELECT %s FROM session WHERE id = ?", fleet_identity_cols);
	sqlite3_stmt *st = db_prepare(db, sql);
	const char *vals[FLEET_IDENTITY_NCOLS];
	int rc = -1;
	free(sql);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		for (int i = 0; i < FLEET_IDENTITY_NCOLS; i++)
			vals[i] = (const char *)sqlite3_column_text(st, i);
		fleet_identity(b, vals);
		if (v1)
			fleet_identity_v1(v1, vals);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

/* xfer_say: see fleet_xfer.h. */
void xfer_say(FILE *out, const char *fmt, ...)
{
	struct strbuf raw = STRBUF_INIT, line = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(&raw, fmt, ap);
	va_end(ap);
	esc_append(&line, sb_str(&raw), ESC_TEXT);
	sb_putc(&line, '\n');
	fputs(sb_str(&line), out);
	sb_free(&raw);
	sb_free(&line);
}
