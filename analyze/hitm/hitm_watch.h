/* Hardware write-watchpoint traps as field contention evidence ("watch"
 * in hitm_doc.h): each session's watched fields loaded and counted
 * (watch.h), its cachelines and fields into the shared tables, and the
 * evidence's own tables:
 *   windows  one row per session: session, label, workload, seconds (the
 *            watched window), pid (the watched process, NULL unknown),
 *            mm_mode (--watch-mm), outside (writes before the watchpoints
 *            were armed or after the workload ended, left out),
 *            watchpoints (watch_firing_name: verified, do not fire, fired,
 *            unverified), canary ("recorded", "probe"), canary_writes,
 *            canary_seen, canary_lost (NULL without a canary);
 *   cpus     per watched field and CPU that wrote it: session, idx (the
 *            line), watch, cpu, writes, writes_per_sec, share (% of the
 *            field's writes);
 *   sites    per watched field, its store sites, most writes first
 *            (site_rows at most): session, idx, watch, store_site
 *            (function+offset of ip - 1: a trap reports the instruction
 *            after the store), writes, share, ip (a sample's);
 *   rates    the workload's own metric lines: session, metric, watched,
 *            unwatched (its --watch-baseline run, or another session of
 *            the same workload), change (%), unwatched_session.
 * A session whose watchpoints do not fire, or are unverified (watch.h),
 * gives its lines no verdict (NULL; verdict_detail says why) and a
 * warning. Other warnings: fields only partly watched, watches wider than
 * their field, a watch without its event, writes left out of the window.
 * Notes: how watching slows the workload, its rates watched and
 * unwatched. Only reads the database. */
#ifndef PERFDB_HITM_WATCH_H
#define PERFDB_HITM_WATCH_H
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include "analyze/hitm/hitm_doc.h"
#include "lib/doc.h"

struct hitm_watch_opts {
	long long min_transfers;	/* transfers a verdict needs (WATCH_MIN_TRANSFERS) */
	long long site_rows;		/* store sites per field in "sites" (0: all) */
	long long rows;			/* lines at most (0: all) */
};

/* The evidence's own tables. */
struct watch_tables {
	struct table *windows, *cpus, *sites, *rates;
};

/* hitm_watch(db, ids, n, o, hd, d, out, err, errlen): the watched fields
 * of sessions ids[0..n) as above: lines and fields into hd, the windows,
 * cpus, sites and rates tables into *out (owned by the caller), warnings
 * and notes into d, the scalar min_transfers under d's findings. A
 * session that watched nothing adds nothing. Returns 0, or -1 with one
 * line in err (a database error). */
int hitm_watch(sqlite3 *db, const int64_t *ids, int n, const struct hitm_watch_opts *o,
	       struct hitm_doc *hd, struct doc *d, struct watch_tables *out, char *err, size_t errlen);

/* hitm_watched(db, session): whether the session watched something (has
 * watch rows or breakpoint events), as watch_load sees it. */
int hitm_watched(sqlite3 *db, int64_t session);
#endif
