/* The parts of the call-graph diff shared by analyze/callgraph/cgdiff.c (shares,
 * rows, marks), analyze/callgraph/cgdiff_per.c (absolute terms) and
 * analyze/callgraph/cgdiff_value.c (the weights both read); not for other
 * modules. */
#ifndef PERFDB_CGDIFF_INT_H
#define PERFDB_CGDIFF_INT_H
#include "analyze/callgraph/cgdiff.h"

/* Which per-run array a row's value comes from: a tree node's inclusive
 * weight, a frame's (--children) or a frame's self weight (--self). */
enum cg_kind { V_INCL, V_FINCL, V_FSELF };

/* A row's weights (cgdiff_value.c).
 * cg_value(r, k, i): run r's weight of node or frame i in kind k;
 * cg_value_sq: the sum of its samples' squared weights. */
double cg_value(const struct ct_run *r, enum cg_kind k, int32_t i);
double cg_value_sq(const struct ct_run *r, enum cg_kind k, int32_t i);

/* cg_row_neff(d, k, i): the effective samples of i, both sides together:
 * per side (sum w)^2 / sum w^2 of the samples through it (their count
 * when periods are equal). */
double cg_row_neff(const struct cgdiff *d, enum cg_kind k, int32_t i);

/* cgdiff_per_setup(d, db, err, errlen): d->denom (every run's
 * denominator under d->o.per: 1, its seconds, its operations), d->metric
 * and d->unit. 0, or 1 with err saying which session lacks its length or
 * the metric. */
int cgdiff_per_setup(struct cgdiff *d, sqlite3 *db, char *err, size_t errlen);

/* cgdiff_per_fill(d, r, k, i): r's base_abs, new_abs, delta_abs (in
 * d->unit) for i in kind k: pooled (sum of weights over sum of
 * denominators) or, at run level, the mean of the runs' ratios. */
void cgdiff_per_fill(const struct cgdiff *d, struct cg_row *r, enum cg_kind k, int32_t i);

/* cgdiff_per_ci(d, k, i, conf): the interval of new - base of i's
 * absolute value (in d->unit) at level conf: at run level a t interval
 * over the runs' ratios, each side's variance at least its mean counting
 * (Poisson) variance; else the counting interval (normal, variance sum
 * w^2 / denominator^2 of each side). */
struct interval cgdiff_per_ci(const struct cgdiff *d, enum cg_kind k, int32_t i, double conf);

/* cgdiff_totals(d): d->total, d->total_ci and d->totals_differ: the
 * sides' weight per run (in d->unit's scale) and its test at d->o.conf. */
void cgdiff_totals(struct cgdiff *d);
#endif
