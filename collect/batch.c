/* Batched row inserts: see batch.h. Values wait in a [ROWS][ncols] array
 * (text in an arena) until ROWS rows are there, then are bound to one
 * prepared multi-row INSERT; a partial batch at the end goes row by row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collect/batch.h"
#include "collect/db.h"

#define ROWS 64

enum { V_NULL, V_INT, V_TEXT };

struct val {
	int kind;
	int64_t i;		/* V_INT value, or V_TEXT arena offset */
};

struct batch {
	sqlite3 *db;
	sqlite3_stmt *many, *one;
	int ncols, nrows;
	struct val *vals;	/* ROWS * ncols */
	char *arena;
	size_t used, cap;
	char err[256];
};

/* insert_sql: "INSERT INTO t(c1,..) VALUES (?,..)" repeated rows times. */
static char *insert_sql(const char *table, const char *const *cols, int ncols, int rows)
{
	size_t cap = 64 + strlen(table) + (size_t)ncols * 40 + (size_t)rows * ((size_t)ncols * 2 + 4);
	char *sql = malloc(cap);
	size_t n;
	if (!sql)
		return NULL;
	n = (size_t)snprintf(sql, cap, "INSERT INTO %s(", table);
	for (int c = 0; c < ncols; c++)
		n += (size_t)snprintf(sql + n, cap - n, "%s%s", c ? "," : "", cols[c]);
	n += (size_t)snprintf(sql + n, cap - n, ") VALUES ");
	for (int r = 0; r < rows; r++) {
		n += (size_t)snprintf(sql + n, cap - n, "%s(", r ? "," : "");
		for (int c = 0; c < ncols; c++)
			n += (size_t)snprintf(sql + n, cap - n, "%s?", c ? "," : "");
		n += (size_t)snprintf(sql + n, cap - n, ")");
	}
	return sql;
}

struct batch *batch_new(sqlite3 *db, const char *table, const char *const *cols, int ncols)
{
	struct batch *b = calloc(1, sizeof(*b));
	char *many = insert_sql(table, cols, ncols, ROWS), *one = insert_sql(table, cols, ncols, 1);
	if (b && many && one) {
		b->db = db;
		b->ncols = ncols;
		b->vals = calloc((size_t)ROWS * (size_t)ncols, sizeof(*b->vals));
		b->many = db_prepare(db, many);
		b->one = db_prepare(db, one);
	}
	free(many);
	free(one);
	if (b && (!b->vals || !b->many || !b->one)) {
		batch_free(b);
		return NULL;
	}
	return b;
}

void batch_free(struct batch *b)
{
	if (!b)
		return;
	sqlite3_finalize(b->many);
	sqlite3_finalize(b->one);
	free(b->vals);
	free(b->arena);
	free(b);
}

/* cell: the value slot of column col in the current row. */
static struct val *cell(struct batch *b, int col)
{
	return &b->vals[b->nrows * b->ncols + col];
}

void batch_int(struct batch *b, int col, int64_t v)
{
	struct val *x = cell(b, col);
	x->kind = V_INT;
	x->i = v;
}

void batch_null(struct batch *b, int col)
{
	cell(b, col)->kind = V_NULL;
}

void batch_text(struct batch *b, int col, const char *s)
{
	size_t n = strlen(s) + 1;
	if (b->used + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		char *a;
		while (cap < b->used + n)
			cap *= 2;
		if (!(a = realloc(b->arena, cap))) {
			batch_null(b, col);
			return;
		}
		b->arena = a;
		b->cap = cap;
	}
	memcpy(b->arena + b->used, s, n);
	cell(b, col)->kind = V_TEXT;
	cell(b, col)->i = (int64_t)b->used;
	b->used += n;
}

/* bind_rows: binds rows [first, first+n) to st from parameter 1 on. */
static void bind_rows(struct batch *b, sqlite3_stmt *st, int first, int n)
{
	for (int r = 0; r < n; r++)
		for (int c = 0; c < b->ncols; c++) {
			const struct val *x = &b->vals[(first + r) * b->ncols + c];
			int p = r * b->ncols + c + 1;
			if (x->kind == V_INT)
				sqlite3_bind_int64(st, p, x->i);
			else if (x->kind == V_TEXT)
				sqlite3_bind_text(st, p, b->arena + x->i, -1, SQLITE_STATIC);
			else
				sqlite3_bind_null(st, p);
		}
}

/* run: steps st once; records the error. */
static int run(struct batch *b, sqlite3_stmt *st)
{
	return db_step_done(st, b->err, sizeof(b->err));
}

int batch_flush(struct batch *b)
{
	int rc = 0;
	if (b->nrows == ROWS) {
		bind_rows(b, b->many, 0, ROWS);
		rc = run(b, b->many);
	} else {
		for (int r = 0; r < b->nrows && !rc; r++) {
			bind_rows(b, b->one, r, 1);
			rc = run(b, b->one);
		}
	}
	b->nrows = 0;
	b->used = 0;
	return rc;
}

/* clear_row: sets every cell of the current row to NULL. */
static void clear_row(struct batch *b)
{
	for (int c = 0; c < b->ncols; c++)
		cell(b, c)->kind = V_NULL;
}

int batch_row(struct batch *b)
{
	int rc = 0;
	if (++b->nrows == ROWS)
		rc = batch_flush(b);
	clear_row(b);
	return rc;
}

const char *batch_error(const struct batch *b)
{
	return b->err;
}
