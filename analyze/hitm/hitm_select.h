/* Which cachelines of memory samples are shown and in what order (perf
 * c2c report's rules), the per-type fields shown, and a line's rows by
 * offset and code site (perf c2c's Pareto table).
 *
 * Lines shown: as perf c2c report, a line is shown when its share of the
 * display metric (-d tot: HITMs, lcl: local HITMs, rmt: remote HITMs,
 * peer: peer snoops) among the "shared" lines (lines with HITMs or peer
 * snoops) is at least 0.1%; show_all shows every line. A type keeps the
 * lines with a field of an object of that type. Lines are sorted on the
 * metric (descending), then by session, address, cpumode and pid. */
#ifndef PERFDB_HITM_SELECT_H
#define PERFDB_HITM_SELECT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/hitm/hitm.h"

enum hitm_display { D_TOT, D_LCL, D_RMT, D_PEER };

/* hitm_display_names: "tot", "lcl", "rmt", "peer", NULL (the -d words). */
extern const char *const hitm_display_names[];

/* hitm_display_name(d): "Total HITMs", "Local HITMs", "Remote HITMs",
 * "Peer snoops". */
const char *hitm_display_name(enum hitm_display d);

/* What is shown of an attributed load. */
struct hitm_view {
	const struct c2c_data *d;
	const struct objmap *om;
	const struct hitm_result *r;
	enum hitm_display display;
	bool show_all;
	const char *type;	/* only lines and fields of this type, or NULL */
	long long limit;	/* lines shown at most (0: all) */
};

/* hitm_metric(s, d): the display metric of counters s. */
uint32_t hitm_metric(const struct c2c_stats *s, enum hitm_display d);

/* hitm_shared_stats(d, out, nlines): the counters of the lines with HITMs
 * or peer snoops, added up, and how many there are. */
void hitm_shared_stats(const struct c2c_data *d, struct c2c_stats *out, uint32_t *nlines);

/* hitm_select(v, out): the indexes of the lines shown, in order, into
 * *out (malloc'ed); returns their number. */
size_t hitm_select(const struct hitm_view *v, size_t **out);

/* hitm_type_order(v, out): the per-type fields shown (those of v->type,
 * or with HITMs or stores), busiest first (HITMs, stores, loads), into
 * *out (malloc'ed); returns their number. */
size_t hitm_type_order(const struct hitm_view *v, size_t **out);

/* hitm_offsets(v, line, out): the line's rows by offset and code site, in
 * that order (hitm_result.rows, added up by hitm_rows.h), at *out; returns
 * their number. */
size_t hitm_offsets(const struct hitm_view *v, size_t line, const struct hitm_offset **out);

/* hitm_cpumode_name(m): "kernel", "user", "hypervisor", "guest kernel",
 * "guest user", or "unknown". */
const char *hitm_cpumode_name(unsigned m);
#endif
