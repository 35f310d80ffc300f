/* `perfdb report` as findings: the changelog-ready A/B write-up of two
 * labels (the base and the new kernel, say), or of a base and several new
 * sides each compared with it, from their benches and their recorded
 * sessions:
 *  - Summary: the significant changes, largest first, one line each;
 *  - Setup: per side the kernel, boots, machine, perf, workload and plan,
 *    with a warning for anything but the kernel that differs;
 *  - Results: per metric a table of the cells (parameters first) with each
 *    side's mean and %stddev, the %change, its simultaneous 95% interval
 *    and a mark where the interval excludes 0; a chart of the runs; the
 *    durations (user, system, elapsed);
 *  - Evidence: what the analyzers find in each side's sessions (context
 *    switches, flush IPIs, contended cachelines, the call graph);
 *  - Data quality: lost events, failed runs, the perturbation of
 *    recording, what the import could not use;
 *  - Reproduce: the perfdb commands that made every side.
 * The test of a headline row: Welch's t interval of the difference of the
 * means, over the runs (pooled across boots), or over the boots' means
 * where both sides have 3 or more boots in the cell; in % of the base
 * mean (absolute when it is 0); untested with fewer than 2 units a side
 * or no spread on either; every row's level is 1 - 0.05 / R
 * for R rows (Bonferroni; a row a metric, cell and new side), so that an
 * A/A comparison marks nothing in 95% of reports however many rows they
 * have. */
#ifndef PERFDB_REPORT_H
#define PERFDB_REPORT_H
#include <sqlite3.h>
#include <stddef.h>
#include "lib/doc.h"

struct report_opts {
	const char *base;		/* the baseline's label (or session ids) */
	const char *const *new;		/* the other sides' labels, each compared with base */
	size_t nnew;			/* 1 or more */
	const char *comm;		/* the call graph's comm; NULL: the workload's */
	const char *const *metrics;	/* only these (nmetrics 0: all) */
	size_t nmetrics;
	const char *db_path;		/* as the user gave it, for the commands */
	const char *stat;		/* distributions' per-run statistic (bd_stats); NULL: mean */
	int style;			/* REPORT_STYLE_*: how the results are laid out */
	const char *columns;		/* a parameter whose values become column groups, or NULL */
};

/* The results' layouts (--style), and their names (NULL-terminated). */
enum { REPORT_STYLE_PERFDB, REPORT_STYLE_MMTESTS, REPORT_STYLE_LKP };
extern const char *const report_style_names[];

/* report_findings(db, o, d, err, errlen): the report into d. Returns 0,
 * or -1 with one line in err (no new side or more than 7, a side given
 * twice among several, a label with neither a bench nor a session, cells
 * its bench has not, a metric no run printed, --columns naming no
 * parameter of the base). */
int report_findings(sqlite3 *db, const struct report_opts *o, struct doc *d, char *err, size_t errlen);
#endif
