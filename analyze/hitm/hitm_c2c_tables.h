/* The rows memory-sample evidence adds to a field contention document
 * (hitm_doc.h): its shown lines in "cachelines" and their fields in
 * "fields", and its own tables:
 *   summary  perf c2c report's trace event information over every memory
 *            sample: one row per counter (counter: the key, what: in
 *            words, count), perf's c2c_stats names with "samples",
 *            "llc_misses", "unparsable" and "shared_lines";
 *   types    the fields by type over all cachelines: type, field, offset,
 *            size and the c2c field columns of hitm_doc.h;
 *   offsets  per shown line (idx), one row per offset in the line and
 *            code site, as perf c2c's Pareto table: offset, field,
 *            hitm_remote, hitm_local, stores_l1hit, stores_l1miss,
 *            stores_na, loads, stores, records, code_site, pids (4 at
 *            most, "+" for more), tids, cpus, nodes ("0-1"), mean_rmt_hitm,
 *            mean_lcl_hitm, mean_load. */
#ifndef PERFDB_HITM_C2C_TABLES_H
#define PERFDB_HITM_C2C_TABLES_H
#include <stddef.h>
#include "analyze/hitm/hitm_doc.h"
#include "analyze/hitm/hitm_select.h"
#include "lib/table.h"

/* c2c_line_rows(v, sel, n, hd, idx): the rows of the shown lines sel[0..n)
 * (and their fields) in hd, each line's idx into idx[0..n). */
void c2c_line_rows(const struct hitm_view *v, const size_t *sel, size_t n, struct hitm_doc *hd,
		   long long *idx);

/* c2c_summary_table(v, caption): the summary table, captioned with the
 * sessions it adds up. */
struct table *c2c_summary_table(const struct hitm_view *v, const char *caption);

/* c2c_types_table(v): the types table (fields of v->type only, when set). */
struct table *c2c_types_table(const struct hitm_view *v);

/* c2c_offsets_table(v, sel, idx, n): the offsets table of the shown lines
 * sel[0..n) whose idx are idx[0..n). */
struct table *c2c_offsets_table(const struct hitm_view *v, const size_t *sel, const long long *idx,
				size_t n);
#endif
