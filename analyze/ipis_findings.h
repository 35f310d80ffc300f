/* `perfdb ipis` as findings: the TLB-flush IPIs of some sessions, where
 * each found its target (running the flushed mm, holding it lazily,
 * holding another mm, unknown, or ambiguous) and what the receiver's
 * tlb_flush said. The model is analyze/ipis.h's and mm_timeline.h's; this
 * file loads the sessions, adds them up and fills the document. */
#ifndef PERFDB_IPIS_FINDINGS_H
#define PERFDB_IPIS_FINDINGS_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/doc.h"

struct ipis_opts {
	int64_t window_ns;	/* the ambiguity window (IPIS_WINDOW_NS by default) */
	long long rows;		/* rows of "processes" and "pairs" at most (0: all) */
	bool timeline;		/* add the "timeline" table */
};

/* ipis_findings(db, ids, n, o, d, err, errlen): the sessions ids[0..n)
 * added up into d's findings. Scalars: seconds, source ("csd", "ipi_send"
 * or "csd+ipi_send"), window_us, attempts, ipis, interrupts, wasted,
 * attempts_per_sec, ipis_per_sec, wasted_per_sec, lost_events,
 * lost_samples; objects: targets {running, lazy, other, unknown,
 * ambiguous}, ambiguous_on_arrival {class: n}, receiver {reason1,
 * reason5, reason0, none}, matrix {class or ambiguous: {verdict: n}},
 * ambiguous_matrix {class on arrival: {verdict: n}}, agreement {rule,
 * compared, agreeing, pct, alt_rule, alt_agreeing, alt_pct,
 * on_arrival_compared, on_arrival_agreeing, on_arrival_pct} (the pcts
 * null when nothing was compared). Tables, in this order: "summary"
 * (main), "class_vs_receiver", "processes", "pairs", "callsites", "cpus"
 * and, with o->timeline, "timeline". A warning when the recording lost
 * events; notes for missing events and unnamed csd functions. Returns 0,
 * or -1 with one line in err (a session could not be read). */
int ipis_findings(sqlite3 *db, const int64_t *ids, int n, const struct ipis_opts *o,
		  struct doc *d, char *err, size_t errlen);
#endif
