/* pull's row decoder: see fleet_rows.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "lib/alloc.h"
#include "lib/bytes.h"
#include "lib/strbuf.h"
#include "collect/fleet/fleet_rows.h"
#include "schema/db.h"

/* PostgreSQL type oids (pg_type.h) of the columns perfdb's schema has. */
enum { OID_BYTEA = 17, OID_INT8 = 20, OID_INT2 = 21, OID_INT4 = 23, OID_TEXT = 25,
       OID_FLOAT4 = 700, OID_FLOAT8 = 701, OID_VARCHAR = 1043 };

/* PostgreSQL's binary format is big-endian: lib/bytes.h's loads swap on
 * a little-endian host. */
static const bool wire_swap = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

/* kind_of(type): what a column of this declared type holds. */
static enum col_kind kind_of(const char *type)
{
	if (!strcasecmp(type, "INTEGER"))
		return COL_INT;
	if (!strcasecmp(type, "REAL"))
		return COL_REAL;
	if (!strcasecmp(type, "TEXT"))
		return COL_TEXT;
	if (!strcasecmp(type, "BLOB"))
		return COL_BLOB;
	return COL_ANY;	/* schema/pg_schema.c makes it text on the server */
}

/* column_count(db, table): the number of columns of the local table. */
static int column_count(sqlite3 *db, const char *table)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT count(*) FROM pragma_table_info(?)");
	int n = 0;
	if (st)	/* bound: pull passes names the server gives (event.tp_table) */
		sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	if (st && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* rows_spec_make: see fleet_rows.h. The arrays have exactly as many
 * elements as the table has columns (a sanitizer sees any read past). */
void rows_spec_make(sqlite3 *db, const char *table, struct rows_spec *s)
{
	int n = column_count(db, table);
	sqlite3_stmt *st = n > 0 ? db_prepare(db, "SELECT name, type, pk FROM pragma_table_info(?) "
					      "ORDER BY cid") : NULL;
	*s = (struct rows_spec){ .table = table, .evcol = -1, .f1 = -1 };
	if (!st)
		return;
	s->cols = xcalloc((size_t)n, sizeof(*s->cols));
	s->kind = xcalloc((size_t)n, sizeof(*s->kind));
	s->keys = xcalloc((size_t)n, sizeof(*s->keys));
	s->pk = xcalloc((size_t)n, sizeof(*s->pk));
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	while (s->ncols < n && sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *type = (const char *)sqlite3_column_text(st, 1);
		int i = s->ncols++;
		s->cols[i] = xstrdup(name ? name : "");
		s->kind[i] = kind_of(type ? type : "");
		s->keys[i] = fleet_column_key(table, s->cols[i]);
		s->pk[i] = sqlite3_column_int(st, 2) > 0;
		if (!strcmp(table, "sample") && !strcmp(s->cols[i], "event_id"))
			s->evcol = i;
		if (!strcmp(table, "sample") && !strcmp(s->cols[i], "f1"))
			s->f1 = i;
	}
	sqlite3_finalize(st);
}

/* rows_spec_free: see fleet_rows.h. */
void rows_spec_free(struct rows_spec *s)
{
	for (int i = 0; i < s->ncols; i++)
		free(s->cols[i]);
	free(s->cols);
	free(s->kind);
	free(s->keys);
	free(s->pk);
	*s = (struct rows_spec){ .evcol = -1, .f1 = -1 };
}

/* width(oid): the bytes of a binary value of a fixed-size type; 0 for
 * the others (text, bytea). */
static int width(unsigned oid)
{
	switch (oid) {
	case OID_INT2: return 2;
	case OID_INT4: case OID_FLOAT4: return 4;
	case OID_INT8: case OID_FLOAT8: return 8;
	default: return 0;
	}
}

/* type_ok(k, oid): whether a server column of type oid may fill a local
 * column holding k (the types schema/pg_schema.c gives, or narrower). */
static bool type_ok(enum col_kind k, unsigned oid)
{
	switch (k) {
	case COL_INT: return oid == OID_INT8 || oid == OID_INT4 || oid == OID_INT2;
	case COL_REAL: return oid == OID_FLOAT8 || oid == OID_FLOAT4;
	case COL_BLOB: return oid == OID_BYTEA;
	default: return oid == OID_TEXT || oid == OID_VARCHAR;
	}
}

/* check_columns(s, in, oids, err, errlen): the result has the table's
 * columns, each of a type its local column may hold (into oids), in
 * binary format. */
static int check_columns(const struct rows_spec *s, const struct rows_in *in, unsigned *oids,
			 char *err, size_t errlen)
{
	static const char *const holds[] = { "integers", "reals", "text", "blobs", "text" };
	if (in->ncols != s->ncols) {
		snprintf(err, errlen, "the server sent %d columns, %d asked", in->ncols, s->ncols);
		return -1;
	}
	for (int i = 0; i < s->ncols; i++) {
		unsigned oid;
		int format;
		in->column(in->src, i, &oid, &format);
		oids[i] = oid;
		if (format != 1 || !type_ok(s->kind[i], oid)) {
			snprintf(err, errlen, "column %s: the server sent type %u in format %d, the "
				 "column holds %s (binary format asked)", s->cols[i], oid, format,
				 holds[s->kind[i]]);
			return -1;
		}
	}
	return 0;
}

/* be_int(v, len, out): a binary int2, int4 or int8 of len bytes at v. */
static int64_t be_int(const char *v, int len)
{
	return len == 2 ? (int16_t)rd16(v, wire_swap) :
	       len == 4 ? (int32_t)rd32(v, wire_swap) : (int64_t)rd64(v, wire_swap);
}

/* be_double(v, len): a binary float4 or float8 of len bytes at v. */
static double be_double(const char *v, int len)
{
	uint32_t u32;
	uint64_t u64;
	float f;
	double d;
	if (len == 4) {
		u32 = rd32(v, wire_swap);
		memcpy(&f, &u32, sizeof(f));
		return f;
	}
	u64 = rd64(v, wire_swap);
	memcpy(&d, &u64, sizeof(d));
	return d;
}

/* text_int(v, len, out): the integer whose decimal form push writes
 * (an optional '-', digits, no leading zero, fitting int64) of exactly
 * len bytes at v into *out; false for any other text, which stays text
 * (an f1..f7 value the event's view types as an integer). */
static bool text_int(const char *v, int len, int64_t *out)
{
	bool neg = len > 0 && v[0] == '-';
	int i = neg;
	uint64_t u = 0, max = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	if (i >= len || (v[i] == '0' && (len > i + 1 || neg)))
		return false;
	for (; i < len; i++) {
		unsigned d = (unsigned)(v[i] - '0');
		if (d > 9 || u > (max - d) / 10)
			return false;
		u = u * 10 + d;
	}
	*out = neg ? (int64_t)(0 - u) : (int64_t)u;
	return true;
}

/* f_text(s, in, row): the text flags of f1..f7 of sample row row (by its
 * event's view), or NULL (then the f columns are text). */
static const bool *f_text(const struct rows_spec *s, const struct rows_in *in, int row)
{
	const char *v;
	int len;
	int64_t ev;
	if (s->evcol < 0 || s->f1 < 0 || !(v = in->value(in->src, row, s->evcol, &len)))
		return NULL;
	if (len != width(OID_INT8) && len != width(OID_INT4) && len != width(OID_INT2))
		return NULL;	/* the column's own check says so */
	ev = be_int(v, len);
	for (size_t i = 0; i < s->nev; i++)
		if (s->ev[i].id == ev)
			return s->ev[i].text;
	return NULL;
}

/* One value being stored: where it goes and where it came from (oids:
 * the result's column types). */
struct cell {
	const struct rows_spec *s;
	const struct xfer *x;
	struct batch *b;
	const unsigned *oids;
	int col, len;
	char *err;
	size_t errlen;
};

/* put_int(c, v): an integer value, an id moved to its local id. */
static int put_int(const struct cell *c, int64_t v)
{
	enum fleet_key k = c->s->keys[c->col];
	int64_t local = v;
	int rc = k == FK_NONE ? 1 : xfer_remap_in(c->x, k, v, &local);
	if (rc < 0) {
		if (c->x->has[k])
			snprintf(c->err, c->errlen, "column %s: id %" PRId64 " is not one of the "
				 "unit's %s ids on the server (%" PRId64 "..%" PRId64 ")",
				 c->s->cols[c->col], v, fleet_key_table[k], c->x->lo[k], c->x->hi[k]);
		else
			snprintf(c->err, c->errlen, "column %s: id %" PRId64 " refers to a %s, and "
				 "the unit has none", c->s->cols[c->col], v, fleet_key_table[k]);
		return -1;
	}
	if (rc == 0 && c->s->pk[c->col]) {	/* NULL would make SQLite pick a rowid */
		snprintf(c->err, c->errlen, "column %s: session %" PRId64 " is not one pulled, and "
			 "the column is the table's key", c->s->cols[c->col], v);
		return -1;
	}
	if (rc > 0)
		batch_int(c->b, c->col, local);
	return 0;	/* a session a bench's map lacks: NULL */
}

/* put_text(c, v, as_int): a text value from its server form; with
 * as_int (an f column the event's view types as an integer), an integer
 * when it is one. */
static int put_text(const struct cell *c, const char *v, bool as_int)
{
	struct strbuf t = STRBUF_INIT;
	int64_t n;
	if (as_int && text_int(v, c->len, &n)) {
		batch_int(c->b, c->col, n);
		return 0;
	}
	if (!memchr(v, '\xEF', (size_t)c->len)) {	/* no U+FFFD: the text as it is */
		batch_text_n(c->b, c->col, v, (size_t)c->len);
		return 0;
	}
	fleet_text_from_server(&t, v, (size_t)c->len);
	batch_text_n(c->b, c->col, sb_str(&t), t.len);
	sb_free(&t);
	return 0;
}

/* put_value(c, v, as_int): one non-NULL value of the checked column. */
static int put_value(const struct cell *c, const char *v, bool as_int)
{
	int w = width(c->oids[c->col]);
	if (w && c->len != w) {
		snprintf(c->err, c->errlen, "column %s: a value of %d bytes, its type has %d",
			 c->s->cols[c->col], c->len, w);
		return -1;
	}
	switch (c->s->kind[c->col]) {
	case COL_INT: return put_int(c, be_int(v, c->len));
	case COL_REAL: batch_real(c->b, c->col, be_double(v, c->len)); return 0;
	case COL_BLOB: batch_blob(c->b, c->col, v, (size_t)c->len); return 0;
	default: return put_text(c, v, as_int);
	}
}

/* store_row(s, in, x, b, oids, row, err, errlen): one row into b. */
static int store_row(const struct rows_spec *s, const struct rows_in *in, const struct xfer *x,
		     struct batch *b, const unsigned *oids, int row, char *err, size_t errlen)
{
	const bool *text = f_text(s, in, row);
	struct cell c = { .s = s, .x = x, .b = b, .oids = oids, .err = err, .errlen = errlen };
	for (c.col = 0; c.col < s->ncols; c.col++) {
		const char *v = in->value(in->src, row, c.col, &c.len);
		int f = c.col - s->f1;
		bool as_int = text && s->f1 >= 0 && f >= 0 && f < 7 && !text[f];
		if (!v && s->pk[c.col]) {
			snprintf(err, errlen, "column %s: NULL in the table's key", s->cols[c.col]);
			return -1;
		}
		if (!v)
			continue;	/* a row's cells start NULL */
		if (c.len < 0) {
			snprintf(err, errlen, "column %s: a value of %d bytes", s->cols[c.col], c.len);
			return -1;
		}
		if (put_value(&c, v, as_int))
			return -1;
	}
	return 0;
}

/* rows_store: see fleet_rows.h. */
long rows_store(const struct rows_spec *s, const struct rows_in *in, const struct xfer *x,
		struct batch *b, char *err, size_t errlen)
{
	unsigned *oids = xcalloc(s->ncols > 0 ? (size_t)s->ncols : 1, sizeof(*oids));
	long rc = check_columns(s, in, oids, err, errlen) ? -1 : in->nrows;
	for (int row = 0; rc >= 0 && row < in->nrows; row++) {
		if (store_row(s, in, x, b, oids, row, err, errlen)) {
			rc = -1;
		} else if (batch_row(b)) {
			snprintf(err, errlen, "cannot store the row: %s", batch_error(b));
			rc = -1;
		}
	}
	free(oids);
	return rc;
}
