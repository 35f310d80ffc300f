/* Tracepoint payloads into the field columns of their sample rows, read
 * through the typed views of schema/tracepoints.sql (or the generic JSON
 * view), and ipi_send_cpumask's table: one sink per tracepoint evsel. */
#ifndef PERFDB_TRACEPOINTS_H
#define PERFDB_TRACEPOINTS_H
#include <sqlite3.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

struct tep_handle;
struct tp_sink;
struct sqlq;
struct batch;

/* The sample row's field columns (f1..f7): no typed view has more. */
#define TP_FIELD_COLS 7

/* What a sink needs from the import: kernel symbol names for code
 * pointers into buf ("name+0xoff" with with_offset, as perf prints %pS;
 * "name" without, as %ps), or NULL when unknown. */
struct tp_ctx {
	void *ctx;
	const char *(*ksym)(void *ctx, uint64_t addr, bool with_offset, char *buf, size_t len);
};

/* tp_sink_new: the sink for the tracepoint with id config (attr.config)
 * in tep's formats; a tracepoint without a typed view (or without a
 * format) goes to the generic view. Fields are set in the current row of
 * samples, from column col0 on; ipi_send_cpumask's rows are written
 * through q. NULL when its table's insert cannot be prepared (or a typed
 * view has more fields than the sample row's columns). tp_sink_free(k):
 * frees it (NULL: no-op). */
struct tp_sink *tp_sink_new(sqlite3 *db, struct sqlq *q, struct tep_handle *tep, int config,
			    struct batch *samples, int col0);
void tp_sink_free(struct tp_sink *k);

/* tp_sink_insert: stores the payload raw[0..size) of sample sample_id:
 * sets the fields in the current sample row (the caller ends the row), or
 * writes ipi_send_cpumask's rows. Fields outside the payload are NULL.
 * 0 or -1 (err). */
int tp_sink_insert(struct tp_sink *k, struct tp_ctx *c, int64_t sample_id,
		   const uint8_t *raw, uint32_t size, char *err, size_t errlen);

/* tp_sink_flush: writes the rows of its own the sink still holds. 0 or
 * -1 (err). */
int tp_sink_flush(struct tp_sink *k, char *err, size_t errlen);

/* tp_sink_table: the view (or table) its samples' fields are read through
 * (event.tp_table). */
const char *tp_sink_table(const struct tp_sink *k);

/* tp_spec_columns: the view (or table) of the i-th typed spec and its
 * columns in order (sample_id first; a code-pointer field is followed by
 * its <name>_sym column), at most max of them; -1 past the end. For the
 * schema test. */
int tp_spec_columns(size_t i, const char **table, char cols[][64], int max);
#endif
