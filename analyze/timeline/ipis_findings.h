/* `perfdb ipis` as findings: the TLB-flush IPIs of some sessions, each of
 * one class judged on arrival (the target running the flushed mm, holding
 * it lazily, on another mm, unknown, or unverified: no receiver recorded),
 * what the receiver's tlb_flush said, and, besides the classes, how many
 * IPIs went to a target that switched just before the send. The model is
 * analyze/timeline/ipis.h's and mm_timeline.h's; this file loads the sessions, adds
 * them up and fills the document. */
#ifndef PERFDB_IPIS_FINDINGS_H
#define PERFDB_IPIS_FINDINGS_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/doc.h"

struct ipis_opts {
	int64_t window_ns;	/* switched_near_send's window (IPIS_WINDOW_NS by default) */
	long long rows;		/* rows of "processes" and "pairs" at most (0: all) */
	bool timeline;		/* add the "timeline" table */
};

/* ipis_findings(db, ids, n, o, d, err, errlen): the sessions ids[0..n)
 * added up into d's findings. Scalars: seconds, source ("csd", "ipi_send"
 * or "csd+ipi_send"), window_us, attempts, ipis, interrupts, wasted (class
 * other), unverified, switched_near_send, attempts_per_sec, ipis_per_sec,
 * wasted_per_sec, lost_events, lost_samples; objects: targets {running,
 * lazy, other, unknown, unverified} (they add up to ipis), unverified_why
 * {not_seen, no_csd, recording_end, untraced_task, lost_events},
 * unknown_why {no_history, flushed_mm_unknown, untraced_switch,
 * target_mm_unknown, lazy_unsure} (they add up to targets.unknown),
 * switched_near_send_by_class {class: n}, receiver {reason1, reason5,
 * reason0, none}, matrix {class: {verdict: n}}, agreement {rule, compared,
 * agreeing, pct, wasted_rule, wasted_agreeing, wasted_pct} (over the
 * received IPIs of class running, lazy or other in sessions that traced
 * tlb_flush; the pcts null when nothing was compared). Tables, in this
 * order: "summary" (main), "class_vs_receiver", "processes", "pairs",
 * "callsites", "cpus" and, with o->timeline, "timeline". A warning when the
 * recording lost events; notes on unverified IPIs, on switched_near_send,
 * missing events and unnamed csd functions. When a session's flush IPIs
 * cannot be seen (ipis.h's guard: flushes of an mm other CPUs ran and no
 * flush IPI to them, analyze/timeline/ipis_unseen.h): a warning, the findings
 * flush_ipis_visible (false) and flush_ipi_check, the summary's rows of
 * those flushes and of the IPIs to such CPUs, and that session's rows of
 * "processes" without counts; when no session's were seen, every count of
 * flush IPIs (the scalars ipis .. wasted_per_sec but attempts, and the
 * objects) is null, and "not seen" in text and md. Nothing of this where
 * flush IPIs were seen. Returns 0, or -1 with one line
 * in err (a session could not be read). */
int ipis_findings(sqlite3 *db, const int64_t *ids, int n, const struct ipis_opts *o,
		  struct doc *d, char *err, size_t errlen);
#endif
