/* Output of `perfdb hitm`: which cachelines are shown and in what order
 * (perf c2c report's rules), and the tables and JSON document.
 *
 * Lines shown: as perf c2c report, a line is shown when its share of the
 * display metric (-d tot: HITMs, lcl: local HITMs, rmt: remote HITMs,
 * peer: peer snoops) among the "shared" lines (lines with HITMs or peer
 * snoops) is at least 0.1%; --show-all shows every line. -t TYPE keeps the
 * lines with a field of an object of TYPE. Lines are sorted on the metric,
 * then by address.
 *
 * Counts per line are perf's (c2c.h): hitm_*, stores (every store
 * sample, perf's "Total Stores"), stores_l1hit/l1miss/na and the load
 * columns equal perf c2c report's; loads and records are the true numbers
 * of load and of load+store samples, while loads_perf and records_perf
 * are perf's "Total loads" and "Total records" columns (which count a
 * remote HITM with the remote bit twice, and no load without a level). */
#ifndef PERFDB_HITM_OUT_H
#define PERFDB_HITM_OUT_H
#include <stdbool.h>
#include <stdio.h>

#include "analyze/hitm.h"
#include "reports/legacy_table.h"

enum hitm_display { D_TOT, D_LCL, D_RMT, D_PEER };

struct hitm_view {
	const struct c2c_data *d;
	const struct objmap *om;
	const struct hitm_result *r;
	enum hitm_display display;
	bool show_all;
	const char *type;	/* -t TYPE, or NULL */
	long limit;		/* lines shown at most (0: all) */
	enum out_format fmt;
	const char *sessions;	/* "session 3" / "sessions 1, 2" */
	const char *const *notes;
	int nnotes;
};

/* hitm_display_parse(s, d): "tot", "lcl", "rmt" or "peer" into *d; 0, or
 * -1 for anything else. */
int hitm_display_parse(const char *s, enum hitm_display *d);

/* hitm_display_name(d): "Total HITMs", "Local HITMs", "Remote HITMs",
 * "Peer snoops". */
const char *hitm_display_name(enum hitm_display d);

/* hitm_select(v, out): the indexes of the lines shown, in order, into
 * *out (malloc'ed); returns their number. */
size_t hitm_select(const struct hitm_view *v, size_t **out);

/* hitm_print(v, out): prints everything in v->fmt. 0, or -1 when a write
 * failed. */
int hitm_print(const struct hitm_view *v, FILE *out);
#endif
