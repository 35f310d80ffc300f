/* Helpers shared by hitm_out.c (tables) and hitm_json.c (JSON); not for
 * other modules. */
#ifndef PERFDB_HITM_OUT_INT_H
#define PERFDB_HITM_OUT_INT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/hitm_out.h"

/* One row of a line's offsets table: one offset and code site. */
struct hitm_offset {
	unsigned offset;	/* in the line */
	int32_t site;		/* code site, -1 unknown */
	int32_t field;		/* field of the first sample (hitm_result.fields) */
	struct hitm_counts c;
	uint32_t st_l1hit, st_l1miss, st_na;
	int ncpus, ntids;
	uint64_t nodes;		/* NUMA nodes of its CPUs (0-63) */
	char pids[64];		/* up to 4 pids, "1,2,3,4+" */
};

/* hitm_metric(s, d): the display metric of counters s. */
uint32_t hitm_metric(const struct c2c_stats *s, enum hitm_display d);

/* hitm_shared_stats(d, out, nlines): the counters of the lines with HITMs
 * or peer snoops, added up, and how many there are. */
void hitm_shared_stats(const struct c2c_data *d, struct c2c_stats *out, uint32_t *nlines);

/* hitm_line_has_type(v, line): whether line has a field of type v->type. */
bool hitm_line_has_type(const struct hitm_view *v, size_t line);

/* hitm_cpumode_name(m): "kernel", "user", ... */
const char *hitm_cpumode_name(unsigned m);

/* hitm_line_objects(v, line, buf, len): the line's objects as text. */
void hitm_line_objects(const struct hitm_view *v, size_t line, char *buf, size_t len);

/* hitm_sites_text(v, f, max, buf, len): f's max busiest code sites as
 * "site (n), ...". */
void hitm_sites_text(const struct hitm_view *v, const struct hitm_field *f, int max,
		     char *buf, size_t len);

/* hitm_type_order(v, out): the per-type fields shown (those of v->type,
 * or with HITMs or stores), busiest first, into *out; returns the count. */
size_t hitm_type_order(const struct hitm_view *v, size_t **out);

/* hitm_cmp_tfields: qsort order of hitm_type_order (uses its view). */
int hitm_cmp_tfields(const void *a, const void *b);

/* hitm_offsets(v, line, out): the line's rows by offset and code site, in
 * that order, into *out (malloc'ed); returns their number. */
size_t hitm_offsets(const struct hitm_view *v, size_t line, struct hitm_offset **out);

/* hitm_print_json(v, sel, n, out): the JSON document for the n shown
 * lines sel. 0, or -1 when a write failed. */
int hitm_print_json(const struct hitm_view *v, const size_t *sel, size_t n, FILE *out);
#endif
