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

/* One side of the comparison. */
struct rside {
	const char *name;	/* "base" or "new" */
	const char *label;	/* as given: LABEL or LABEL:NAME=V,... */
	char *bench_label;	/* LABEL alone */
	bool have_bench;
	struct bench_data b;	/* when have_bench */
	int64_t *sessions;	/* the label's sessions (recorded runs, perfdb record); of a
				 * side narrowed to cells, its cells' recorded runs' */
	int nsessions;
};

/* A report being made. */
struct rep {
	sqlite3 *db;
	const struct report_opts *o;
	struct doc *d;
	struct rside side[2];
	struct table *summary;	/* filled last, shown first */
	size_t nsignificant;
	struct machine_cmp machine;	/* the machine's own change from base to new */
	struct machine_side msides[2];
	size_t nwithheld;	/* significant rows the machine's change could explain */
	struct table *mm;	/* --style mmtests: the results in its layout, else NULL */
	struct table *lkp;	/* --style lkp: the same */
	int pivot;		/* --columns: the base's parameter index, or -1 */
	long long ipis[2], unverified[2];	/* from the IPI evidence, -1: none */
	long long unseen_flushes[2];	/* the IPI evidence: flushes of an mm another
					 * CPU ran, in sessions whose flush IPIs
					 * were not seen (ipis_unseen.h); 0: none */
};

/* Sections (report_setup.c, report_machine.c, report_headline.c,
 * report_evidence.c, report_quality.c, report_reproduce.c). Each adds its
 * tables to r->d; the headline and evidence add their significant changes
 * to r->summary. report_machine compares the machine's pulse and load of
 * the sides into r->machine (its warning first, before any other);
 * report_machine_tables adds its tables to the setup. */
void report_setup(struct rep *r);
void report_machine(struct rep *r);
void report_machine_tables(struct rep *r);
int report_headline(struct rep *r, char *err, size_t errlen);
void report_durations(struct rep *r);
void report_evidence(struct rep *r);
void report_quality(struct rep *r);
void report_reproduce(struct rep *r);

/* The helpers the sections share (report_cells.c).
 * rep_summary(r, score, fmt, ...): a summary line; lines are sorted by
 * score (|change|), largest first, when the report is done. */
void rep_summary(struct rep *r, double score, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* rep_cell_text(b, cell): "cpus=2 mm=shared" of a bench cell, malloc'ed. */
char *rep_cell_text(const struct bench_data *b, size_t cell);

/* rep_same_cell(a, ca, b, cb): whether cell ca of a and cell cb of b have
 * the same parameters with the same values (in whatever order). */
bool rep_same_cell(const struct bench_data *a, size_t ca, const struct bench_data *b, size_t cb);

/* rep_quote(word, b): word shell-quoted when it needs it, into b. */
void rep_quote(const char *word, struct strbuf *b);

/* rep_shape_chart(r, m, cells, n, name): the chart (table name) of
 * distribution m's shape: each side's runs' p50, p90 and p99 (run_dist)
 * in the n pairs of cells (cells[2i] of base, cells[2i + 1] of new),
 * the points' cells "CELL pNN". */
struct table *rep_shape_chart(const struct rep *r, const struct bd_metric *m, const size_t *cells, size_t n,
			      const char *name);

/* rep_mmtests_table(r): the empty table of --style mmtests (name
 * "mmtests"): columns stat, metric, then each side headed by its label. */
struct table *rep_mmtests_table(const struct rep *r);

/* rep_mmtests_add(t, r, m, mi, cell, star): metric m's rows (its index
 * mi[k] on side k) of one pair of cells (cell[0] base's, cell[1] new's):
 * Amean or Hmean, Stddev, CoeffVar, Max, BAmean-95/99 of each side's
 * bare runs that ended well, with compare-kernels' gain; star marks the
 * mean's change (perfdb's test marked the row). */
void rep_mmtests_add(struct table *t, const struct rep *r, const struct bd_metric *m, const int *mi,
		     const size_t cell[2], bool star);

/* rep_mmtests_duration(t, r): the Duration rows: each side's bare runs'
 * user, system and elapsed seconds, summed. */
void rep_mmtests_duration(struct table *t, const struct rep *r);

/* rep_lkp_table(r): the empty table of --style lkp (name "lkp"):
 * base (± its stddev), %change, new, metric. */
struct table *rep_lkp_table(const struct rep *r);

/* rep_lkp_add(t, r, metric, cell, mean, sd_pct, change, star): one row:
 * metric (its cell's parameters appended, dot-separated) with each
 * side's mean and stddev %, the %change (NaN: none), star where perfdb's
 * test marks it. */
void rep_lkp_add(struct table *t, const struct rep *r, const char *metric, size_t cell, const double mean[2],
		 const double sd_pct[2], double change, bool star);

/* rep_pivot(t, b, param, mc, name): the table (name) of metric table t
 * (one cell a row: b's parameters first) with parameter param's values
 * as column groups, each its base, new, %change and mark (t's columns
 * mc[0..3]), the other parameters as rows (in t's order). */
struct table *rep_pivot(const struct table *t, const struct bench_data *b, size_t param, const int mc[4],
			const char *name);

/* rep_param_values(b, i, out): parameter i's distinct values in cell
 * order, ','-separated, into out. */
void rep_param_values(const struct bench_data *b, size_t i, struct strbuf *out);
#endif
