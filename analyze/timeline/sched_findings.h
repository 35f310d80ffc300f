/* `perfdb sched` as findings: context switches per second per CPU and per
 * process of some sessions, or the medians of two labels side by side.
 * The accounting is analyze/timeline/sched.h's; this file loads the sessions and
 * fills the tables. */
#ifndef PERFDB_SCHED_FINDINGS_H
#define PERFDB_SCHED_FINDINGS_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/doc.h"

struct sched_opts {
	int64_t t0, t1;		/* the window (perf clock, ns); INT64_MIN/MAX: all */
	long long rows;		/* process rows at most (0: all) */
	bool latency;		/* add the wakeup-latency tables (main: "latency") */
};

/* sched_findings(db, ids, n, o, d, err, errlen): the sessions ids[0..n)
 * added up into d's findings: scalars seconds, start_ns, end_ns, lost,
 * mean_per_cpu {switches, untraced, per_sec, same_mm_per_sec, ...}; the
 * table "cpus" (main; a human-only "mean" row last) and "processes";
 * with o->latency the tables of analyze/timeline/sched_lat_findings.h ("latency"
 * main);
 * warnings for lost events, a note for untraced switches. Returns 0, or
 * -1 with one line in err (a database error). */
int sched_findings(sqlite3 *db, const int64_t *ids, int n, const struct sched_opts *o,
		   struct doc *d, char *err, size_t errlen);

/* One side of a comparison: its sessions and a name for headings. */
struct sched_side {
	const char *label;
	const int64_t *ids;
	int n;
};

/* sched_compare_findings(db, base, new, o, d, err, errlen): per metric
 * (switches per second per CPU, by kind, migrations, per-comm rates and
 * run times) each side's mean over its sessions (with 3 or more a side,
 * beside the interval of the difference of the means; else the median),
 * median, range and the % change, in the table "compare", with scalars
 * base, base_runs, new, new_runs.
 * Returns 0, or -1 with one line in err. */
int sched_compare_findings(sqlite3 *db, const struct sched_side *base, const struct sched_side *new,
			   const struct sched_opts *o, struct doc *d, char *err, size_t errlen);
#endif
