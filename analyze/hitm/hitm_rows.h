/* The rows of each cacheline's offsets table (perf c2c's Pareto table),
 * added up sample by sample while hitm.h attributes them, finished into
 * its result (hitm_result.h): one row per line, offset in the line and
 * code site, with its counts by class, store levels, distinct CPUs and
 * NUMA nodes, its first pids and its distinct threads. What is kept is per
 * row (and per distinct CPU and thread of a row, 256 threads at most),
 * never per sample.
 *
 * A row's field is that of its first sample, and its pids text names the
 * first 4 distinct pids in sample order, then "+" when there is a 5th:
 * samples must come in sample order. */
#ifndef PERFDB_HITM_ROWS_H
#define PERFDB_HITM_ROWS_H
#include <stddef.h>
#include <stdint.h>

#include "analyze/hitm/c2c_load.h"
#include "analyze/hitm/hitm_result.h"

struct hitm_rows;

/* hitm_rows_new(): an empty set of rows. */
struct hitm_rows *hitm_rows_new(void);

/* hitm_rows_add(rs, s, field): adds sample s (line and site set) to its
 * row, field being the field s is attributed to (as the caller numbers
 * fields while adding). */
void hitm_rows_add(struct hitm_rows *rs, const struct c2c_sample *s, int32_t field);

/* hitm_rows_finish(rs, field_to, r): the rows into r, by line, offset and
 * site (r->rows; each line's range in r->lines, which must cover every
 * line a sample had), their fields renumbered: field f of hitm_rows_add
 * is r->fields[field_to[f]]. Frees rs. */
void hitm_rows_finish(struct hitm_rows *rs, const size_t *field_to, struct hitm_result *r);

/* hitm_rows_free(rs): frees rs (NULL: nothing) without finishing. */
void hitm_rows_free(struct hitm_rows *rs);
#endif
