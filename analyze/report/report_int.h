/* The parts of analyze/report/report.c, one file per section; not for other
 * modules. */
#ifndef PERFDB_REPORT_INT_H
#define PERFDB_REPORT_INT_H
#include <stdbool.h>
#include <stdint.h>
#include "analyze/bench/bench_data.h"
#include "analyze/bench/machine.h"
#include "analyze/report/report.h"
#include "lib/doc.h"
#include "lib/strbuf.h"

/* The most sides a report compares: the base and up to 7 new ones. */
#define REP_MAX_SIDES 8

/* One side of the comparison. */
struct rside {
	const char *name;	/* "base", "new", then "new2", "new3", ... */
	const char *label;	/* as given: LABEL or LABEL:NAME=V,... */
	char *bench_label;	/* LABEL alone */
	bool have_bench;
	struct bench_data b;	/* when have_bench */
	int64_t *sessions;	/* the label's sessions (recorded runs, perfdb record); of a
				 * side narrowed to cells, its cells' recorded runs' */
	int nsessions;
};

/* What a section finds of one pair of sides (the base and one new side),
 * kept while the report is made. */
struct rpair {
	struct machine_cmp machine;	/* the machine's own change from base to the new side */
	struct machine_side msides[2];
	long long ipis[2], unverified[2], unseen_flushes[2];	/* see struct rep */
	size_t unseen_from, unseen_to;	/* the findings "unseen" entries its evidence added */
};

/* A report being made. Sides are compared in pairs, the base against each
 * new side: side[] is the pair being written (shallow copies of sides[0]
 * and sides[pair]; rep_use_pair), machine..unseen_flushes its state. */
struct rep {
	sqlite3 *db;
	const struct report_opts *o;
	struct doc *d;
	struct rside sides[REP_MAX_SIDES];	/* every side, the base first; they own their data */
	int nsides;
	int pair;		/* side[1] is sides[pair] */
	struct rpair pairs[REP_MAX_SIDES];	/* each pair's state, by its new side's index */
	struct rside side[2];
	struct table *summary;	/* filled last, shown first */
	size_t nsignificant;
	struct machine_cmp machine;	/* the machine's own change from base to new */
	struct machine_side msides[2];
	size_t nwithheld;	/* significant rows the machine's change could explain */
	struct table *mm;	/* --style mmtests: the results in its layout, else NULL */
	struct table *lkp;	/* --style lkp: the same */
	struct table *lkp_shown;	/* --style lkp: its table once in the report (for the
					 * perf-profile rows), else NULL */
	bool lkp_later;		/* --style lkp without results: the table made for
				 * perf-profile rows, if any */
	struct lkp_prof *prof;	/* --style lkp: the call-graph rows kept for it */
	size_t nprof, prof_cap;
	int pivot;		/* --columns: the base's parameter index, or -1 */
	long long ipis[2], unverified[2];	/* from the IPI evidence, -1: none */
	long long unseen_flushes[2];	/* the IPI evidence: flushes of an mm another
					 * CPU ran, in sessions whose flush IPIs
					 * were not seen (ipis_unseen.h); 0: none */
};

/* rep_use_pair(r, k): makes the pair of the base and sides[k] the one
 * being written: the current pair's state is kept, k's put in place. */
void rep_use_pair(struct rep *r, int k);

/* rep_table(r, t): t into the report's findings (dv_table). With more
 * than one new side, t's section heading names the pair being written,
 * and the tables of the pairs after the first get its new side's name as
 * a suffix ("setup_new2"), so that every pair's tables stand apart. */
struct table *rep_table(struct rep *r, struct table *t);

/* rep_key(r, key): key, or with more than one new side and a pair after
 * the first, key_<new side's name>: malloc'ed. */
char *rep_key(const struct rep *r, const char *key);

/* Sections (report_setup.c, report_machine.c, report_headline.c,
 * report_evidence.c, report_quality.c, report_reproduce.c). Each adds its
 * tables to r->d; the headline and evidence add their significant changes
 * to r->summary. report_machine compares the machine's pulse and load of
 * the current pair's sides into r->machine (its warning first, before
 * any other); report_machine_tables adds its table to the setup;
 * report_sittings the table of every side's sittings. report_setup,
 * report_lost (the warning and findings "lost" of every side's
 * recordings) and report_reproduce cover every side at once, the others
 * the current pair. */
void report_setup(struct rep *r);
void report_machine(struct rep *r);
void report_machine_tables(struct rep *r);
void report_sittings(struct rep *r);
int report_headline(struct rep *r, char *err, size_t errlen);
void report_durations(struct rep *r);
void report_evidence(struct rep *r);
void report_quality(struct rep *r);
void report_lost(struct rep *r);
void report_reproduce(struct rep *r);

/* The helpers the sections share (report_cells.c).
 * rep_summary(r, score, fmt, ...): a summary line (with more than one
 * new side, after the current pair's new side's label); lines are sorted
 * by score (|change|), largest first, when the report is done. */
void rep_summary(struct rep *r, double score, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* rep_cell_text(b, cell): "cpus=2 mm=shared" of a bench cell, malloc'ed. */
char *rep_cell_text(const struct bench_data *b, size_t cell);

/* rep_same_cell(a, ca, b, cb): whether cell ca of a and cell cb of b have
 * the same parameters with the same values (in whatever order). */
bool rep_same_cell(const struct bench_data *a, size_t ca, const struct bench_data *b, size_t cb);

/* rep_quote(word, b): word shell-quoted when it needs it, into b. */
void rep_quote(const char *word, struct strbuf *b);

/* One row of the results: a cell of the base (cell[0]) and the same cell
 * on each other side (its index there, -1: that side has none). */
struct rcells {
	long cell[REP_MAX_SIDES];
};

/* rep_shape_chart(r, m, rows, n, name): the chart (table name) of
 * distribution m's shape: each side's runs' p50, p90 and p99 (run_dist)
 * in the n rows of cells, the points' cells "CELL pNN". */
struct table *rep_shape_chart(const struct rep *r, const struct bd_metric *m, const struct rcells *rows, size_t n,
			      const char *name);

/* rep_mmtests_table(r): the empty table of --style mmtests (name
 * "mmtests"): columns stat, metric, then each side headed by its label. */
struct table *rep_mmtests_table(const struct rep *r);

/* rep_mmtests_add(t, r, m, mi, c, star): metric m's rows (its index mi[k]
 * on side k, -1: none) of one row of cells c: Amean or Hmean, Stddev,
 * CoeffVar, Max, BAmean-95/99 of each side's bare runs that ended well,
 * with compare-kernels' gain against the base; star[k] marks side k's
 * mean's change (perfdb's test marked it). */
void rep_mmtests_add(struct table *t, const struct rep *r, const struct bd_metric *m, const int *mi,
		     const struct rcells *c, const bool *star);

/* rep_mmtests_duration(t, r): the Duration rows: each side's bare runs'
 * user, system and elapsed seconds, summed. */
void rep_mmtests_duration(struct table *t, const struct rep *r);

/* rep_lkp_table(r): the empty table of --style lkp (name "lkp"): base
 * (± its stddev), then each new side's %change and value, then metric. */
struct table *rep_lkp_table(const struct rep *r);

/* rep_lkp_add(t, r, metric, cell, mean, sd_pct, change, star): one row:
 * metric (base's cell's parameters appended, dot-separated) with each
 * side's mean and stddev % (NaN: none), each new side's %change against
 * the base (change[k], NaN: none), star[k] where perfdb's test marks it. */
void rep_lkp_add(struct table *t, const struct rep *r, const char *metric, size_t cell, const double *mean,
		 const double *sd_pct, const double *change, const bool *star);

/* rep_lkp_profile_add(r, d): --style lkp: the rows of the current pair's
 * call-graph diff d that perfdb's test marks (the largest 20 changes),
 * kept for rep_lkp_profile. */
struct cgdiff;
void rep_lkp_profile_add(struct rep *r, const struct cgdiff *d);

/* rep_lkp_profile(r): the kept call-graph rows into the lkp table (made
 * then, in the call graph's evidence, when the report has no results and
 * there are rows), 0-day's perf-profile rows: each side's share of the
 * samples through the call path (%), the change in points,
 * "perf-profile.calltrace.EVENT.FRAME.CALLER..." (the frame and up to 4
 * callers); largest change first. Frees them. */
void rep_lkp_profile(struct rep *r);

/* rep_pivot(t, r, param, mc, name): the table (name) of metric table t
 * (one cell a row: the base's parameters first) with parameter param's
 * values as column groups, each the base's mean (t's column mc[0]) and
 * every new side k's mean, %change and mark (mc[3k-2], mc[3k-1],
 * mc[3k]), the other parameters as rows (in t's order). */
struct table *rep_pivot(const struct table *t, const struct rep *r, size_t param, const int *mc,
			const char *name);

/* rep_param_values(b, i, out): parameter i's distinct values in cell
 * order, ','-separated, into out. */
void rep_param_values(const struct bench_data *b, size_t i, struct strbuf *out);
#endif
