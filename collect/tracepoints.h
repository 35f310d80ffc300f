/* Tracepoint payloads into the typed tables of schema/tracepoints.sql (or
 * the generic JSON table): one sink per tracepoint evsel. */
#ifndef PERFDB_TRACEPOINTS_H
#define PERFDB_TRACEPOINTS_H
#include <sqlite3.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

struct tep_handle;
struct tp_sink;
struct sqlq;

/* What a sink needs from the import: kernel symbol names for code
 * pointers into buf ("name+0xoff" with with_offset, as perf prints %pS;
 * "name" without, as %ps), or NULL when unknown. */
struct tp_ctx {
	void *ctx;
	const char *(*ksym)(void *ctx, uint64_t addr, bool with_offset, char *buf, size_t len);
};

/* tp_sink_new: the sink for the tracepoint with id config (attr.config)
 * in tep's formats; a tracepoint without a typed table (or without a
 * format) goes to the generic table. Rows are written through q. NULL on
 * error. */
struct tp_sink *tp_sink_new(sqlite3 *db, struct sqlq *q, struct tep_handle *tep, int config);
void tp_sink_free(struct tp_sink *k);

/* tp_sink_insert: stores the payload raw[0..size) of sample sample_id.
 * Fields outside the payload are stored as NULL. 0 or -1 (err). */
int tp_sink_insert(struct tp_sink *k, struct tp_ctx *c, int64_t sample_id,
		   const uint8_t *raw, uint32_t size, char *err, size_t errlen);

/* tp_sink_flush: writes the rows the sink still holds. 0 or -1 (err). */
int tp_sink_flush(struct tp_sink *k, char *err, size_t errlen);

/* tp_sink_table: the table this sink writes. */
const char *tp_sink_table(const struct tp_sink *k);

/* tp_spec_columns: the table and field columns of the i-th typed spec
 * (code-pointer fields also have a <name>_sym column); -1 past the end. */
int tp_spec_columns(size_t i, const char **table, const char **cols, int max);
#endif
