/* Batched row inserts: see batch.h. Values wait in a [ROWS][ncols] array
 * (text in an arena) until ROWS rows are there; then the array and arena
 * go, as one job, to the writer queue (or run at once without one), bound
 * to a prepared multi-row INSERT. A partial batch runs row by row. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "schema/batch.h"
#include "schema/db.h"
#include "schema/sqlq.h"

/* Rows a statement inserts at once. The fuzzing build makes it small
 * (Makefile FUZZ_CFLAGS): preparing the 256-row statements of every
 * batch is most of the cost of importing a small file, and small
 * batches take the flush paths more often. */
#ifndef PERFDB_BATCH_ROWS
#define PERFDB_BATCH_ROWS 256
#endif
#define ROWS PERFDB_BATCH_ROWS

struct batch {
	struct sqlq *q;
	sqlite3_stmt *many, *one;
	int ncols, nrows;
	struct bval *vals;	/* ROWS * ncols */
	struct sqlq_shadow *shadow;	/* ROWS * ncols: what `many` has bound */
	char *arena;
	size_t used, cap;
	char err[256];
};

static void clear_row(struct batch *b);

/* insert_sql: "INSERT INTO t(c1,..) VALUES (?,..)" repeated rows times. */
static char *insert_sql(const char *table, const char *const *cols, int ncols, int rows)
{
	struct strbuf sql = STRBUF_INIT;
	sb_printf(&sql, "INSERT INTO %s(", table);
	for (int c = 0; c < ncols; c++)
		sb_printf(&sql, "%s%s", c ? "," : "", cols[c]);
	sb_puts(&sql, ") VALUES ");
	for (int r = 0; r < rows; r++) {
		sb_puts(&sql, r ? ",(" : "(");
		for (int c = 0; c < ncols; c++)
			sb_puts(&sql, c ? ",?" : "?");
		sb_putc(&sql, ')');
	}
	return sb_take(&sql);
}

/* new_buffers: fresh value and text buffers (the old ones were handed on):
 * left uninitialized, as every row is cleared before it is filled. */
static void new_buffers(struct batch *b)
{
	b->vals = xreallocarray(NULL, (size_t)ROWS * (size_t)b->ncols, sizeof(*b->vals));
	b->arena = NULL;
	b->used = b->cap = 0;
	b->nrows = 0;
}

struct batch *batch_new(sqlite3 *db, struct sqlq *q, const char *table,
			const char *const *cols, int ncols)
{
	struct batch *b = xcalloc(1, sizeof(*b));
	char *many = insert_sql(table, cols, ncols, ROWS), *one = insert_sql(table, cols, ncols, 1);
	b->q = q;
	b->ncols = ncols;
	b->many = db_prepare(db, many);
	b->one = db_prepare(db, one);
	free(many);
	free(one);
	if (!b->many || !b->one) {
		batch_free(b);
		return NULL;
	}
	b->shadow = sqlq_shadow_new(ROWS * ncols);
	new_buffers(b);
	clear_row(b);
	return b;
}

void batch_free(struct batch *b)
{
	if (!b)
		return;
	sqlite3_finalize(b->many);
	sqlite3_finalize(b->one);
	free(b->vals);
	sqlq_shadow_free(b->shadow);
	free(b->arena);
	free(b);
}

/* cell: the value slot of column col in the current row. */
static struct bval *cell(struct batch *b, int col)
{
	return &b->vals[b->nrows * b->ncols + col];
}

void batch_int(struct batch *b, int col, int64_t v)
{
	struct bval *x = cell(b, col);
	x->kind = BV_INT;
	x->i = v;
}

void batch_null(struct batch *b, int col)
{
	cell(b, col)->kind = BV_NULL;
}

void batch_real(struct batch *b, int col, double v)
{
	struct bval *x = cell(b, col);
	x->kind = BV_REAL;
	memcpy(&x->i, &v, sizeof(v));
}

/* put_bytes: the n bytes at s (and a NUL after them) into the arena, as
 * column col's value of the given kind. */
static void put_bytes(struct batch *b, int col, int kind, const void *s, size_t n)
{
	struct bval *x = cell(b, col);
	ALLOC_GROW(b->arena, b->used + n + 1, b->cap);
	if (n)
		memcpy(b->arena + b->used, s, n);
	b->arena[b->used + n] = 0;
	x->kind = kind;
	x->len = (uint32_t)n;
	x->i = (int64_t)b->used;
	b->used += n + 1;
}

void batch_text_n(struct batch *b, int col, const char *s, size_t n)
{
	put_bytes(b, col, BV_TEXT, s, n);
}

void batch_blob(struct batch *b, int col, const void *s, size_t n)
{
	put_bytes(b, col, BV_BLOB, s, n);
}

void batch_text(struct batch *b, int col, const char *s)
{
	batch_text_n(b, col, s, strlen(s));
}

int batch_flush(struct batch *b)
{
	bool full = b->nrows == ROWS;
	int rc;
	if (!b->nrows)
		return 0;
	if (!b->q) {
		rc = sqlq_run(full ? b->many : b->one, b->vals, full ? ROWS * b->ncols : b->ncols,
			      full ? 1 : b->nrows, b->arena, full ? b->shadow : NULL,
			      b->err, sizeof(b->err));
		b->nrows = 0;
		b->used = 0;
		clear_row(b);
		return rc;
	}
	rc = sqlq_submit(b->q, full ? b->many : b->one, b->vals,
			 full ? ROWS * b->ncols : b->ncols, full ? 1 : b->nrows, b->arena,
			 full ? b->shadow : NULL);
	new_buffers(b);
	clear_row(b);
	return rc;
}

/* clear_row: sets every cell of the current row to NULL. */
static void clear_row(struct batch *b)
{
	for (int c = 0; c < b->ncols; c++)
		cell(b, c)->kind = BV_NULL;
}

int batch_row(struct batch *b)
{
	if (++b->nrows == ROWS)
		return batch_flush(b);	/* which clears the next row */
	clear_row(b);
	return 0;
}

const char *batch_error(const struct batch *b)
{
	return b->err[0] ? b->err : "write failed";
}
