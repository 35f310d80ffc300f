/* Batched row inserts: rows are collected in memory and written ROWS at a
 * time with one multi-row INSERT, so SQLite keeps its cursor open across
 * rows and appends without a search per row. With a writer queue (sqlq),
 * full batches are handed to the writer thread. The import's hot path. */
#ifndef PERFDB_BATCH_H
#define PERFDB_BATCH_H
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

struct batch;
struct sqlq;

/* batch_new: a batch for INSERT INTO table(cols...) (ncols columns),
 * written through q (NULL: written here, synchronously). The statements
 * are prepared now, so every batch must be made before q runs. NULL when
 * they cannot be (bad table/column names). */
struct batch *batch_new(sqlite3 *db, struct sqlq *q, const char *table,
			const char *const *cols, int ncols);

/* batch_free: frees the batch; rows not yet flushed are lost. */
void batch_free(struct batch *b);

/* Setters for column col of the current row (all start NULL). Text is
 * copied. */
void batch_int(struct batch *b, int col, int64_t v);
void batch_text(struct batch *b, int col, const char *s);
/* batch_text_n: text of the n bytes at s (no NUL among them needed). */
void batch_text_n(struct batch *b, int col, const char *s, size_t n);
void batch_null(struct batch *b, int col);
/* batch_real: a double; batch_blob: a blob of the n bytes at s (copied;
 * n 0 is an empty blob, not NULL). */
void batch_real(struct batch *b, int col, double v);
void batch_blob(struct batch *b, int col, const void *s, size_t n);

/* batch_row: ends the current row; hands a full batch on. 0 or -1. */
int batch_row(struct batch *b);

/* batch_flush: hands on the rows collected so far; the next row starts
 * with every cell NULL again. 0 or -1. */
int batch_flush(struct batch *b);

/* batch_error: the last error message (synchronous batches). */
const char *batch_error(const struct batch *b);
#endif
