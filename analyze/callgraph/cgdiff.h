/* Call-graph diff: two sides (BASE and NEW, each one session or all the
 * sessions of a label = the runs of one configuration) loaded into one
 * calltree, and per node (or, in the flat modes, per frame) each side's
 * share of its selected samples, the difference in percentage points, its
 * 95% interval and whether it excludes 0, the `=>` marks and the
 * straight chains a text rendering elides. Also the one-side form that
 * `perfdb tree` prints.
 *
 * Shares are of each side's selected samples, weighted by period (as perf
 * report weights them). With one session per side, or fewer than 3 on
 * either side, the shares are pooled over the side's samples and the
 * interval is Newcombe's hybrid score interval from the two Wilson
 * intervals, with the effective sample size (sum w)^2 / sum w^2 of each
 * side's periods w. With at least 3 runs on both sides the shares are the
 * means of the runs' shares and the interval is a t interval over the
 * runs, which also captures run-to-run noise: Student's (pooled variance,
 * n0 + n1 - 2 degrees of freedom) when both sides have as many runs (its
 * standard error is then Welch's, and it is robust to unequal variances),
 * Welch's otherwise; each side's variance of the run shares is taken as at
 * least the binomial variance of one run's share, so that a few runs that
 * happen to agree closely (or a path with a sample or two per run) do not
 * make an interval narrower than sampling allows.
 *
 * The intervals are simultaneous: with m rows, each is computed at level
 * 1 - (1 - conf) / m (Bonferroni), so that all of them hold together with
 * probability conf and an A/A comparison marks nothing in 95% of cases
 * however many rows it shows. A row is significant when its interval
 * excludes 0, and `=>` only lands on significant rows.
 *
 * With --per (struct cg_opts.per) the rows also compare each side's
 * weight through the node in absolute terms: per run, per second of
 * recording or per operation of a workload metric (analyze/callgraph/cgdiff_per.c),
 * and `significant` and the `=>` marks follow that comparison.
 *
 * An interval of a share difference always lies within [-100, +100]
 * points. A row has no interval ("too few samples", cg_row.few) when the
 * samples through it on both sides together are fewer than
 * CG_MIN_ROW_SAMPLES, or, for shares, when a side (each run, at run
 * level) has fewer than CG_MIN_SIDE_SAMPLES effective samples.
 *
 * This file computes; it reads the database and never prints:
 * analyze/callgraph/cgdiff_findings.h turns a result into findings. */
#ifndef PERFDB_CGDIFF_H
#define PERFDB_CGDIFF_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "analyze/callgraph/calltree.h"
#include "analyze/bench/machine.h"
#include "lib/stats.h"

/* What the rows are: tree nodes in caller order, or one row per frame
 * with its self share (samples whose innermost frame it is) or children
 * share (samples with it anywhere on the path, once per sample). */
enum cg_mode { CG_TREE, CG_SELF, CG_CHILDREN };

/* What the rows compare: shares (the default), or each side's weight per
 * run, per second of recording, per operation of a workload metric. */
enum cg_per { CG_PER_SHARE, CG_PER_RUN, CG_PER_SECOND, CG_PER_OP };

/* The minimum samples through a row, both sides together, for an
 * interval; the minimum effective samples of a side (of each run, at run
 * level) for the intervals of shares. Below: "too few samples". */
#define CG_MIN_ROW_SAMPLES 10
#define CG_MIN_SIDE_SAMPLES 100

struct cg_opts {
	struct ct_filter filter;	/* event NULL: picked by ct_pick_event */
	enum cg_mode mode;
	double limit;		/* percent: rows below max(base%, new%) < limit are left out */
	double conf;		/* joint confidence level of all intervals, 0.95 */
	enum cg_per per;	/* what the rows compare */
	const char *metric;	/* CG_PER_OP: the metric (NULL: cg_metric picks) */
};

/* One side as the caller picked it (builtin/run.c: -s, --base, --new). */
struct cg_pick {
	const char *spec;	/* as given (an id or a label), or NULL: the latest session */
	const int64_t *ids;	/* its sessions, in id order */
	int n;
};

/* One side: its sessions and the totals of their runs. */
struct cg_side {
	char *spec;		/* as given, or NULL */
	char *label;		/* the first session's label, or NULL */
	int64_t *sessions;	/* in id order */
	int nsessions;		/* = runs */
	int first_run;		/* its runs are calltree runs first_run .. + nsessions - 1 */
	int64_t samples;
	double weight, neff;	/* total weight; effective sample size */
};

/* One output row. Percentages are in percent, the interval and delta in
 * percentage points (new - base). In a one-side result only base_pct,
 * in_base and base_samples are meaningful. */
struct cg_row {
	int32_t node;		/* CG_TREE: calltree node; flat modes: frame */
	int depth;		/* tree depth (0 = outermost); 0 in flat modes */
	int shown_depth;	/* depth after the elisions above it (text form) */
	double base_pct, new_pct, delta_pct;
	struct interval ci;
	bool in_base, in_new;	/* the path (frame) has samples on that side */
	bool significant;	/* ci excludes 0 */
	int mark;		/* +1: `=>` of the largest increase, -1: of the
				 * largest decrease, 0: none */
	int elide;		/* text form: the next elide rows are the middle of
				 * a straight chain, shown as one "[N frames]" line */
	int64_t base_samples, new_samples;	/* samples through the node (frame) */
	bool few;		/* too few samples: no interval, never significant */
	bool share_significant;	/* ci excludes 0 (= significant without --per) */
	/* with --per: each side's weight per run, second or operation (in
	 * struct cgdiff.unit), new - base, its interval */
	double base_abs, new_abs, delta_abs;
	struct interval ci_abs;
	bool machine;		/* with --per: ci_abs excludes 0, but the machine's own
				 * change could explain it, or it was busy and a side
				 * has fewer than 3 runs: not significant, no mark */
};

/* How absolute values print: value * scale in unit, with decimals. */
struct cg_unit {
	double scale;
	char name[48];		/* "ms", "us", "events", "samples" */
	int decimals;
};

struct cgdiff {
	struct calltree *t;
	struct cg_side side[2];
	int nsides;		/* 2 for a diff, 1 for a single tree */
	char event[256];
	bool run_level;		/* t over runs (else pooled Newcombe) */
	double row_conf;	/* each row's level: 1 - (1 - conf) / nrows */
	bool few_side;		/* a side (run) below CG_MIN_SIDE_SAMPLES: no share intervals */
	/* absolute terms (cgdiff_per.c): each run's denominator (1, its
	 * seconds, its operations); the metric of CG_PER_OP and whether it is
	 * a rate (operations = rate x recording length) */
	double *denom;
	char metric[128];
	bool metric_rate;
	struct cg_unit unit;
	/* the totals per run, base and new, their difference's interval at
	 * conf (one test), and whether it excludes 0 */
	double total[2];
	struct interval total_ci;
	bool totals_differ;
	/* the machine's own change from the base side's recordings to the
	 * new side's (their pulse and load): with --per, a row whose change
	 * it could explain is not significant */
	struct machine_cmp machine;
	struct cg_opts o;
	struct cg_row *rows;
	size_t nrows;
};

/* cgdiff_event(db, sides, nsides, given, event, len, err, errlen): the
 * event to analyze in every session of sides[0..nsides): given, or when
 * NULL the one ct_pick_event picks over all of them, written to event
 * (len bytes). Returns 0, or -1 with why a session has no samples of it
 * recorded with callchains in err: "session N has no E samples with
 * callchains (record them with perfdb record -r profile)"; when its E
 * samples were recorded without callchains, that it was recorded without
 * -g; when it recorded E but kept no sample, whether perf lost them or
 * they never fired (session_none_of). */
int cgdiff_event(sqlite3 *db, const struct cg_pick *sides, int nsides, const char *given,
		 char *event, size_t len, char *err, size_t errlen);

/* cg_metric(db, ids, n, preferred, name, len, rate): a metric that every
 * session of ids[0..n) printed with a value > 0 and that counts
 * operations: a count (a unit without '/' that is no unit of time, size
 * or ratio: "ops", "iterations") or a rate (a unit ending in "/s", whose
 * operations are the rate times the recording's length). preferred when
 * it is one, else the counts by name, then the rates by name. Returns 0
 * with its name in name (len bytes) and *rate set, or -1 when there is
 * none. */
int cg_metric(sqlite3 *db, const int64_t *ids, int n, const char *preferred, char *name, size_t len,
	      bool *rate);

/* cg_metric_ops(db, session, metric, rate): session's operations by
 * metric: its value, times the recording's length for a rate; 0 when the
 * session lacks it. */
double cg_metric_ops(sqlite3 *db, int64_t session, const char *metric, bool rate);

/* cg_seconds(db, session): the session's recording length in seconds
 * (first to last record), 0 when unknown. */
double cg_seconds(sqlite3 *db, int64_t session);

/* cgdiff_load(db, base, new, o, out, err, errlen): the runs of the
 * sessions of base and new (new NULL: one side) loaded into one calltree
 * under o, with each side's totals; no rows yet. Returns 0 with *out set;
 * 1 when a session has no selected samples (err says which: "SPEC
 * (session N): no cpu-clock samples of comm X") or lacks what o->per
 * divides by (its length, a metric: err says what); -1 on a database
 * error (err says what). */
int cgdiff_load(sqlite3 *db, const struct cg_pick *base, const struct cg_pick *new,
		const struct cg_opts *o, struct cgdiff **out, char *err, size_t errlen);

/* cgdiff_run(db, base, new, o, out, err, errlen): cgdiff_load, then the
 * rows (tree or flat, as o->mode says), their intervals, marks and
 * elisions. The same returns. */
int cgdiff_run(sqlite3 *db, const struct cg_pick *base, const struct cg_pick *new,
	       const struct cg_opts *o, struct cgdiff **out, char *err, size_t errlen);

/* cgdiff_per_name(per): "share", "run", "second" or "op". */
const char *cgdiff_per_name(enum cg_per per);

/* cgdiff_free(d): frees d and everything it owns; NULL is allowed. */
void cgdiff_free(struct cgdiff *d);

/* cgdiff_node_row(d, node, r): fills r with tree node's shares, delta and
 * interval (at d->row_conf), whether or not node is among d's rows. */
void cgdiff_node_row(const struct cgdiff *d, int32_t node, struct cg_row *r);

/* cgdiff_row_delta(d, r): the change the rows compare: delta_abs with
 * --per, else delta_pct. */
double cgdiff_row_delta(const struct cgdiff *d, const struct cg_row *r);

/* cgdiff_row_name(d, r): the frame name of row r. */
const char *cgdiff_row_name(const struct cgdiff *d, const struct cg_row *r);

/* cgdiff_selection(d, buf, len): what the shares are of, for headers:
 * "cpu-clock samples of comm X, pid P, tid T". Returns buf. */
const char *cgdiff_selection(const struct cgdiff *d, char *buf, size_t len);

/* cgdiff_side_desc(s, buf, len): how side s is named in headers: for a
 * label, "LABEL" (sessions 1, 2, 3); else "session N". Returns buf. */
const char *cgdiff_side_desc(const struct cg_side *s, char *buf, size_t len);
#endif
