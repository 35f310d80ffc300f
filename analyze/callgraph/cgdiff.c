/* Call-graph diff: see cgdiff.h. Loads both sides into one calltree, then
 * computes the rows: tree nodes in caller order (children by descending
 * max(base%, new%), then name), pruned by --percent-limit, with the `=>`
 * marks and the straight chains; or one row per frame in the flat modes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/callgraph/cgdiff_int.h"
#include "analyze/session_info.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "schema/db.h"

/* run_share: run r's share (a fraction) of i in kind; 0 for an empty run. */
static double run_share(const struct ct_run *r, enum cg_kind k, int32_t i)
{
	return r->weight > 0 ? cg_value(r, k, i) / r->weight : 0;
}

/* side_share: side s's share of i: the mean of its runs' shares in run-level
 * mode, else pooled over its runs. *present: some run has weight there. */
static double side_share(const struct cgdiff *d, int s, enum cg_kind k, int32_t i, bool *present)
{
	const struct cg_side *sd = &d->side[s];
	double sum = 0, mean = 0;
	*present = false;
	for (int r = sd->first_run; r < sd->first_run + sd->nsessions; r++) {
		const struct ct_run *run = &d->t->runs[r];
		sum += cg_value(run, k, i);
		mean += run_share(run, k, i) / sd->nsessions;
		*present |= cg_value(run, k, i) > 0;
	}
	if (d->run_level)
		return mean;
	return sd->weight > 0 ? sum / sd->weight : 0;
}

/* side_count: side s's samples through tree node i. */
static int64_t side_count(const struct cgdiff *d, int s, int32_t i)
{
	const struct cg_side *sd = &d->side[s];
	int64_t n = 0;
	for (int r = sd->first_run; r < sd->first_run + sd->nsessions; r++)
		n += d->t->runs[r].nincl[i];
	return n;
}

/* run_summary: the summary of side s's run shares of i, its variance
 * raised to at least the mean binomial variance p (1 - p) / n of a run's
 * share (n its effective sample size): runs cannot agree better than their
 * own sampling allows, however alike a few runs happen to be. */
static struct summary run_summary(const struct cgdiff *d, int s, enum cg_kind k, int32_t i)
{
	const struct cg_side *sd = &d->side[s];
	double *v = xcalloc((size_t)sd->nsessions, sizeof(*v)), binom = 0;
	struct summary sum;
	for (int j = 0; j < sd->nsessions; j++) {
		const struct ct_run *r = &d->t->runs[sd->first_run + j];
		double n = r->weight_sq > 0 ? r->weight * r->weight / r->weight_sq : 0;
		v[j] = run_share(r, k, i);
		binom += n > 0 ? v[j] * (1 - v[j]) / n / sd->nsessions : 0;
	}
	sum = stats_summary(v, (size_t)sd->nsessions);
	if (sum.var < binom)
		sum.var = binom;
	free(v);
	return sum;
}

/* runs_ci: the t interval of the run shares of i, new minus base:
 * Student's (pooled) with equal run counts, whose standard error is then
 * Welch's and which keeps n0 + n1 - 2 degrees of freedom; Welch's else. */
static struct interval runs_ci(const struct cgdiff *d, enum cg_kind k, int32_t i)
{
	return stats_t_diff(run_summary(d, 0, k, i), run_summary(d, 1, k, i),
			    d->side[0].nsessions == d->side[1].nsessions, d->row_conf);
}

/* fill: the shares and delta of row r for i in kind (no interval yet). */
static void fill(const struct cgdiff *d, struct cg_row *r, enum cg_kind k, int32_t i)
{
	double p0 = side_share(d, 0, k, i, &r->in_base), p1;
	r->base_pct = 100 * p0;
	r->ci = (struct interval){ NAN, NAN };
	if (k == V_INCL)
		r->base_samples = side_count(d, 0, i);
	if (d->nsides < 2)
		return;
	p1 = side_share(d, 1, k, i, &r->in_new);
	r->new_pct = 100 * p1;
	r->delta_pct = 100 * (p1 - p0);
	if (k == V_INCL)
		r->new_samples = side_count(d, 1, i);
	r->ci_abs = (struct interval){ NAN, NAN };
	if (d->o.per != CG_PER_SHARE)
		cgdiff_per_fill(d, r, k, i);
}

/* clamp_share(ci): ci (in points) within [-100, +100], where a
 * difference of two shares lies. */
static struct interval clamp_share(struct interval ci)
{
	if (!isnan(ci.lo))
		ci = (struct interval){ fmax(-100, fmin(100, ci.lo)), fmax(-100, fmin(100, ci.hi)) };
	return ci;
}

/* abs_pct(r): r's absolute interval in % of its base value (as is when
 * that value is 0). */
static struct interval abs_pct(const struct cg_row *r)
{
	if (!(r->base_abs > 0))
		return r->ci_abs;
	return (struct interval){ 100 * r->ci_abs.lo / r->base_abs, 100 * r->ci_abs.hi / r->base_abs };
}

/* fill_ci: row r's interval (for i in kind) at d's per-row level, and
 * whether it excludes 0. */
static void fill_ci(const struct cgdiff *d, struct cg_row *r, enum cg_kind k, int32_t i)
{
	bool per = d->o.per != CG_PER_SHARE;
	if (d->nsides < 2)
		return;
	r->few = cg_row_neff(d, k, i) < CG_MIN_ROW_SAMPLES;
	r->ci = (struct interval){ NAN, NAN };
	if (!r->few && !d->few_side) {
		if (d->run_level)
			r->ci = runs_ci(d, k, i);
		else
			r->ci = stats_newcombe(r->base_pct / 100, d->side[0].neff, r->new_pct / 100,
					       d->side[1].neff, d->row_conf);
		r->ci.lo *= 100;
		r->ci.hi *= 100;
		r->ci = clamp_share(r->ci);
	}
	r->share_significant = stats_excludes(r->ci, 0);
	if (per && !r->few)
		r->ci_abs = cgdiff_per_ci(d, k, i, d->row_conf);
	r->few |= !per && d->few_side;
	r->significant = per ? stats_excludes(r->ci_abs, 0) : r->share_significant;
	if (per && r->significant && machine_explains(&d->machine, 0, abs_pct(r), r->base_abs > 0, !d->run_level)) {
		r->machine = true;
		r->significant = false;
	}
}

/* cgdiff_row_delta: see cgdiff.h. */
double cgdiff_row_delta(const struct cgdiff *d, const struct cg_row *r)
{
	return d->o.per != CG_PER_SHARE ? r->delta_abs : r->delta_pct;
}

/* key: the larger of a row's two shares (its base share with one side). */
static double key(const struct cg_row *r)
{
	return fmax(r->base_pct, r->new_pct);
}

/* add_row: appends r to d's rows (*cap: their capacity). */
static void add_row(struct cgdiff *d, const struct cg_row *r, size_t *cap)
{
	ALLOC_GROW(d->rows, d->nrows + 1, *cap);
	d->rows[d->nrows++] = *r;
}

/* What children are sorted by: the diff and every node's row. */
struct by_share_ctx {
	const struct cgdiff *d;
	const struct cg_row *rows;
};

/* by_share: children order (node indexes, context a by_share_ctx):
 * larger max share first, then by name. */
static int by_share(const void *a, const void *b, void *ctx)
{
	const struct by_share_ctx *c = ctx;
	const struct cg_row *x = &c->rows[*(const int32_t *)a], *y = &c->rows[*(const int32_t *)b];
	if (key(x) != key(y))
		return key(x) > key(y) ? -1 : 1;
	return strcmp(cgdiff_row_name(c->d, x), cgdiff_row_name(c->d, y));
}

/* tree_rows: the visible nodes in caller order (depth-first, children by
 * by_share); all holds every node's row. */
static void tree_rows(struct cgdiff *d, const struct cg_row *all)
{
	const struct calltree *t = d->t;
	int32_t *stack = xcalloc(t->nnodes, sizeof(*stack)), *kids = xcalloc(t->nnodes, sizeof(*kids));
	size_t sp = 0, cap = 0;
	struct by_share_ctx ctx = { d, all };
	stack[sp++] = 0;
	while (sp) {
		int32_t n = stack[--sp], nk = 0;
		if (n > 0)
			add_row(d, &all[n], &cap);
		for (int32_t c = t->nodes[n].first_child; c >= 0; c = t->nodes[c].next_sibling)
			if (key(&all[c]) > 0 && key(&all[c]) >= d->o.limit)
				kids[nk++] = c;
		qsort_r(kids, (size_t)nk, sizeof(*kids), by_share, &ctx);
		while (nk--)	/* pushed last first, so popped in order */
			stack[sp++] = kids[nk];
	}
	free(stack);
	free(kids);
}

/* children_best: among the children of row i, the one with the largest
 * significant change of sign sg, or -1. */
static long children_best(const struct cgdiff *d, size_t i, int sg)
{
	long best = -1;
	for (size_t j = i + 1; j < d->nrows && d->rows[j].depth > d->rows[i].depth; j++) {
		const struct cg_row *r = &d->rows[j];
		if (r->depth == d->rows[i].depth + 1 && r->significant && sg * cgdiff_row_delta(d, r) > 0 &&
		    (best < 0 || sg * cgdiff_row_delta(d, r) > sg * cgdiff_row_delta(d, &d->rows[best])))
			best = (long)j;
	}
	return best;
}

/* mark: sets the `=>` of sign sg (+1 increase, -1 decrease): from the row
 * with the largest significant change of that sign (the shallowest of
 * equals), down to the child with the largest significant same-signed
 * change while that child keeps at least half of the starting change. */
static void mark(struct cgdiff *d, int sg, bool descend)
{
	long cur = -1, next;
	double start;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct cg_row *r = &d->rows[i];
		if (r->significant && sg * cgdiff_row_delta(d, r) > 0 &&
		    (cur < 0 || sg * cgdiff_row_delta(d, r) > sg * cgdiff_row_delta(d, &d->rows[cur])))
			cur = (long)i;
	}
	if (cur < 0)
		return;
	start = sg * cgdiff_row_delta(d, &d->rows[cur]);
	while (descend && (next = children_best(d, (size_t)cur, sg)) >= 0 &&
	       sg * cgdiff_row_delta(d, &d->rows[next]) >= start / 2)
		cur = next;
	d->rows[cur].mark = sg;
}

/* straight: whether row i's node passes all its samples, on every run, to
 * its one child, which is then the next row. */
static bool straight(const struct cgdiff *d, size_t i)
{
	const struct cg_row *r = &d->rows[i];
	if (i + 1 >= d->nrows || d->rows[i + 1].depth != r->depth + 1 || r->mark)
		return false;
	for (int k = 0; k < d->t->nruns; k++)
		if (d->t->runs[k].nincl[r->node] != d->t->runs[k].nincl[d->rows[i + 1].node])
			return false;
	return true;
}

/* shift_subtree: lowers the shown depth of row e and its descendants. */
static void shift_subtree(struct cgdiff *d, size_t e, int by)
{
	for (size_t j = e; j < d->nrows && (j == e || d->rows[j].depth > d->rows[e].depth); j++)
		d->rows[j].shown_depth -= by;
}

/* elide: marks straight chains whose middle has 2 or more rows: the
 * chain's first row gets elide = N, the middle is shown as "[N frames]"
 * one level down, and the chain's last row and its subtree move up. */
static void elide(struct cgdiff *d)
{
	for (size_t i = 0; i < d->nrows; i++)
		d->rows[i].shown_depth = d->rows[i].depth;
	for (size_t i = 0; i < d->nrows; ) {
		size_t e = i;
		while (straight(d, e))
			e++;
		if (e >= i + 3) {	/* at least 2 rows in the middle */
			d->rows[i].elide = (int)(e - i - 1);
			shift_subtree(d, e, (int)(e - i - 2));
			i = e;
		} else {
			i++;
		}
	}
}

/* cgdiff_node_row: see cgdiff.h. */
void cgdiff_node_row(const struct cgdiff *d, int32_t node, struct cg_row *r)
{
	*r = (struct cg_row){ .node = node, .depth = d->t->nodes[node].depth };
	fill(d, r, V_INCL, node);
	fill_ci(d, r, V_INCL, node);
}

/* all_intervals: the per-row level (Bonferroni over the rows, so that all
 * the intervals together hold with probability conf) and every row's
 * interval. */
static void all_intervals(struct cgdiff *d)
{
	enum cg_kind k = d->o.mode == CG_TREE ? V_INCL : d->o.mode == CG_SELF ? V_FSELF : V_FINCL;
	d->row_conf = 1 - (1 - d->o.conf) / (double)(d->nrows ? d->nrows : 1);
	for (size_t i = 0; i < d->nrows; i++)
		fill_ci(d, &d->rows[i], k, d->rows[i].node);
}

/* by_change: flat order of diff d's rows: the largest |delta| (one side:
 * share) first. */
static int by_change(const void *a, const void *b, void *d)
{
	const struct cgdiff *cd = d;
	const struct cg_row *x = a, *y = b;
	double kx = cd->nsides > 1 ? fabs(cgdiff_row_delta(cd, x)) : x->base_pct;
	double ky = cd->nsides > 1 ? fabs(cgdiff_row_delta(cd, y)) : y->base_pct;
	if (kx != ky)
		return kx > ky ? -1 : 1;
	return strcmp(cd->t->frames[x->node], cd->t->frames[y->node]);
}

/* flat_rows: one row per frame with a share at or above the limit, by
 * change; marks the largest significant increase and decrease. */
static void flat_rows(struct cgdiff *d)
{
	enum cg_kind k = d->o.mode == CG_SELF ? V_FSELF : V_FINCL;
	size_t cap = 0;
	for (size_t f = 0; f < d->t->nframes; f++) {
		struct cg_row r = { .node = (int32_t)f, .base_samples = -1, .new_samples = -1 };
		fill(d, &r, k, (int32_t)f);
		if (key(&r) > 0 && key(&r) >= d->o.limit)
			add_row(d, &r, &cap);
	}
	if (d->nrows)
		qsort_r(d->rows, d->nrows, sizeof(*d->rows), by_change, d);
	all_intervals(d);
	if (d->nsides > 1) {
		mark(d, 1, false);
		mark(d, -1, false);
		cgdiff_totals(d);
	}
}

/* all_node_rows: a row for every tree node (index = node). */
static struct cg_row *all_node_rows(const struct cgdiff *d)
{
	struct cg_row *all = xcalloc(d->t->nnodes, sizeof(*all));
	for (size_t n = 1; n < d->t->nnodes; n++) {
		all[n] = (struct cg_row){ .node = (int32_t)n, .depth = d->t->nodes[n].depth };
		fill(d, &all[n], V_INCL, (int32_t)n);
	}
	return all;
}

/* compute: the rows of d. */
static void compute(struct cgdiff *d)
{
	struct cg_row *all;
	if (d->o.mode != CG_TREE) {
		flat_rows(d);
		return;
	}
	all = all_node_rows(d);
	tree_rows(d, all);
	free(all);
	all_intervals(d);
	if (d->nsides > 1) {
		mark(d, 1, true);
		mark(d, -1, true);
		cgdiff_totals(d);
	}
	elide(d);
}

/* side_label: the label of session id, malloc'ed, or NULL. */
static char *side_label(sqlite3 *db, int64_t id)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT label FROM session WHERE id = ?");
	char *l = NULL;
	if (st) {
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			l = xstrdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	return l;
}

/* side_init(d, db, s, p): side s of d from the caller's pick p. */
static void side_init(struct cgdiff *d, sqlite3 *db, int s, const struct cg_pick *p)
{
	struct cg_side *sd = &d->side[s];
	sd->spec = xstrdup(p->spec);
	sd->nsessions = p->n;
	sd->sessions = xcalloc((size_t)p->n, sizeof(*sd->sessions));
	memcpy(sd->sessions, p->ids, (size_t)p->n * sizeof(*sd->sessions));
	sd->label = p->n ? side_label(db, p->ids[0]) : NULL;
}

/* The comms a message lists at most. */
#define CG_COMMS 5

/* comms_of(db, session, event, b): the names of the threads whose samples
 * of event session holds, the busiest first with their samples ("yield
 * 250, perf 12 and 3 more"), into b; nothing when there are none. */
static void comms_of(sqlite3 *db, int64_t session, const char *event, struct strbuf *b)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT coalesce(t.comm, '?'), count(*) FROM session se "
		"JOIN sample s ON s.id BETWEEN se.first_sample_id AND se.last_sample_id "
		"JOIN event e ON e.id = s.event_id LEFT JOIN thread t ON t.id = s.thread_id "
		"WHERE se.id = ? AND e.name = ? GROUP BY 1 ORDER BY 2 DESC, 1");
	int n = 0;
	if (st) {
		sqlite3_bind_int64(st, 1, session);
		sqlite3_bind_text(st, 2, event, -1, SQLITE_STATIC);
	}
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		if (n++ < CG_COMMS)
			sb_printf(b, "%s%s %lld", n > 1 ? ", " : "", (const char *)sqlite3_column_text(st, 0),
				  (long long)sqlite3_column_int64(st, 1));
	}
	if (n > CG_COMMS)
		sb_printf(b, " and %d more", n - CG_COMMS);
	sqlite3_finalize(st);
}

/* no_samples(d, db, s, session, err, errlen): the message of a session of
 * side s without selected samples (with --comm, the comms it has); 1. */
static int no_samples(const struct cgdiff *d, sqlite3 *db, int s, int64_t session, char *err,
		      size_t errlen)
{
	char sel[512];
	struct strbuf comms = STRBUF_INIT;
	cgdiff_selection(d, sel, sizeof(sel));
	if (d->o.filter.comm)
		comms_of(db, session, d->event, &comms);
	if (d->side[s].spec)
		snprintf(err, errlen, "%s (session %lld): no %s", d->side[s].spec, (long long)session, sel);
	else
		snprintf(err, errlen, "session %lld: no %s", (long long)session, sel);
	if (comms.len) {
		size_t n = strlen(err);
		snprintf(err + n, errlen - n, " (its %s samples are of comms %s)", d->event, sb_str(&comms));
	}
	sb_free(&comms);
	return 1;
}

/* side_load: loads side s's runs into the tree; 1 when one has no samples. */
static int side_load(struct cgdiff *d, sqlite3 *db, int s, char *err, size_t errlen)
{
	struct cg_side *sd = &d->side[s];
	double wsq = 0;
	sd->first_run = d->t->nruns;
	for (int i = 0; i < sd->nsessions; i++) {
		const struct ct_run *r;
		int k = ct_add_run(d->t, db, sd->sessions[i], &d->o.filter, err, errlen);
		if (k < 0)
			return -1;
		r = &d->t->runs[k];
		sd->samples += r->samples;
		sd->weight += r->weight;
		wsq += r->weight_sq;
		if (!r->samples)
			return no_samples(d, db, s, sd->sessions[i], err, errlen);
	}
	sd->neff = wsq > 0 ? sd->weight * sd->weight / wsq : 0;
	return 0;
}

/* all_ids(sides, nsides, n): the sessions of every side, malloc'ed; *n
 * gets their number. */
static int64_t *all_ids(const struct cg_pick *sides, int nsides, int *n)
{
	int64_t *all;
	*n = 0;
	for (int s = 0; s < nsides; s++)
		*n += sides[s].n;
	all = xcalloc((size_t)*n, sizeof(*all));
	*n = 0;
	for (int s = 0; s < nsides; s++)
		for (int i = 0; i < sides[s].n; i++)
			all[(*n)++] = sides[s].ids[i];
	return all;
}

/* pick_event(d, db, err, errlen): d->event: the given one, or the one
 * ct_pick_event picks over both sides; 1 when the sessions have none. */
static int pick_event(struct cgdiff *d, sqlite3 *db, char *err, size_t errlen)
{
	struct cg_pick p[2];
	int64_t *all;
	int rc, n;
	if (d->o.filter.event) {
		snprintf(d->event, sizeof(d->event), "%s", d->o.filter.event);
		return 0;
	}
	for (int s = 0; s < d->nsides; s++)
		p[s] = (struct cg_pick){ d->side[s].spec, d->side[s].sessions, d->side[s].nsessions };
	all = all_ids(p, d->nsides, &n);
	rc = ct_pick_event(db, all, n, d->event, sizeof(d->event));
	free(all);
	if (rc)
		snprintf(err, errlen, "session %lld: no events recorded", (long long)d->side[0].sessions[0]);
	return rc ? 1 : 0;
}

/* few_side(d): whether a side has fewer than CG_MIN_SIDE_SAMPLES
 * effective samples (at run level: one of its runs has). */
static bool few_side(const struct cgdiff *d)
{
	for (int s = 0; s < d->nsides && d->nsides > 1; s++) {
		if (d->side[s].neff < CG_MIN_SIDE_SAMPLES)
			return true;
		for (int r = d->side[s].first_run; d->run_level && r < d->side[s].first_run +
		     d->side[s].nsessions; r++) {
			const struct ct_run *run = &d->t->runs[r];
			if (!(run->weight_sq > 0) || run->weight * run->weight / run->weight_sq < CG_MIN_SIDE_SAMPLES)
				return true;
		}
	}
	return false;
}

/* compare_machine(d, db): the machine's own change between the sides'
 * recordings. */
static void compare_machine(struct cgdiff *d, sqlite3 *db)
{
	struct machine_side m[2];
	for (int s = 0; s < 2; s++)
		machine_side_of_sessions(db, d->side[s].sessions, d->side[s].nsessions, &m[s]);
	machine_compare(&m[0], &m[1], &d->machine);
	for (int s = 0; s < 2; s++)
		machine_side_free(&m[s]);
}

/* setup: the sides, the event and the runs. */
static int setup(struct cgdiff *d, sqlite3 *db, const struct cg_pick *base, const struct cg_pick *new,
		 char *err, size_t errlen)
{
	int rc;
	for (int s = 0; s < d->nsides; s++) {
		side_init(d, db, s, s ? new : base);
		if (!d->side[s].nsessions) {
			snprintf(err, errlen, "%s: no sessions", s ? "new" : "base");
			return 1;
		}
	}
	if ((rc = pick_event(d, db, err, errlen)))
		return rc;
	d->o.filter.event = d->event;
	d->t = ct_new();
	for (int s = 0; s < d->nsides; s++)
		if ((rc = side_load(d, db, s, err, errlen)))
			return rc;
	d->run_level = d->nsides > 1 && d->side[0].nsessions >= 3 && d->side[1].nsessions >= 3;
	d->few_side = few_side(d);
	if (d->nsides > 1)
		compare_machine(d, db);
	return cgdiff_per_setup(d, db, err, errlen);
}

/* cgdiff_load: see cgdiff.h. */
int cgdiff_load(sqlite3 *db, const struct cg_pick *base, const struct cg_pick *new,
		const struct cg_opts *o, struct cgdiff **out, char *err, size_t errlen)
{
	struct cgdiff *d = xcalloc(1, sizeof(*d));
	int rc;
	d->o = *o;
	d->nsides = new ? 2 : 1;
	err[0] = '\0';
	if ((rc = setup(d, db, base, new, err, errlen))) {
		cgdiff_free(d);
		d = NULL;
	}
	*out = d;
	return rc;
}

/* cgdiff_run: see cgdiff.h. */
int cgdiff_run(sqlite3 *db, const struct cg_pick *base, const struct cg_pick *new,
	       const struct cg_opts *o, struct cgdiff **out, char *err, size_t errlen)
{
	int rc = cgdiff_load(db, base, new, o, out, err, errlen);
	if (!rc)
		compute(*out);
	return rc;
}

/* The advice for a session without call graphs. */
#define CG_RECORD "record them with perfdb record -r profile"

/* no_callchains(db, session, event, err, errlen): why session has no
 * samples of event (may be "") with callchains, into err: a profiling
 * event (no tracepoint: no ':' in its name) sampled without callchains
 * was recorded without -g. */
static void no_callchains(sqlite3 *db, int64_t session, const char *event, char *err, size_t errlen)
{
	const char *one[2] = { event, NULL };
	char *why = *event ? session_none_of(db, session, one, CG_RECORD) : NULL;
	if (why && session_recorded(db, session, event))
		snprintf(err, errlen, "session %lld %s", (long long)session, why);
	else if (*event && !strchr(event, ':') && session_has_events(db, session, one))
		snprintf(err, errlen, "session %lld's %s samples have no callchains: it was recorded "
			 "without -g (record it with perfdb record -r profile, or perf record -g or "
			 "--call-graph)", (long long)session, event);
	else
		snprintf(err, errlen, "session %lld has no %s%ssamples with callchains (" CG_RECORD ")",
			 (long long)session, event, *event ? " " : "");
	free(why);
}

/* cgdiff_event: see cgdiff.h. */
int cgdiff_event(sqlite3 *db, const struct cg_pick *sides, int nsides, const char *given,
		 char *event, size_t len, char *err, size_t errlen)
{
	int n, rc = 0;
	int64_t *all = all_ids(sides, nsides, &n);
	if (given)
		snprintf(event, len, "%s", given);
	else if (ct_pick_event(db, all, n, event, len))
		*event = '\0';
	for (int i = 0; i < n && !rc; i++)
		if (!*event || !ct_has_callchains(db, all[i], event)) {
			no_callchains(db, all[i], event, err, errlen);
			rc = -1;
		}
	free(all);
	return rc;
}

/* cgdiff_free: see cgdiff.h. */
void cgdiff_free(struct cgdiff *d)
{
	if (!d)
		return;
	for (int s = 0; s < 2; s++) {
		free(d->side[s].spec);
		free(d->side[s].label);
		free(d->side[s].sessions);
	}
	ct_free(d->t);
	free(d->rows);
	free(d->denom);
	free(d);
}

/* cgdiff_row_name: see cgdiff.h. */
const char *cgdiff_row_name(const struct cgdiff *d, const struct cg_row *r)
{
	int32_t f = d->o.mode == CG_TREE ? d->t->nodes[r->node].frame : r->node;
	return d->t->frames[f];
}

/* cgdiff_selection: see cgdiff.h. */
const char *cgdiff_selection(const struct cgdiff *d, char *buf, size_t len)
{
	const struct ct_filter *f = &d->o.filter;
	int n = snprintf(buf, len, "%s samples", d->event);
	if (f->comm && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " of comm %s", f->comm);
	if (f->pid >= 0 && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%s pid %lld", f->comm ? "," : " of", f->pid);
	if (f->tid >= 0 && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%s tid %lld",
			 f->comm || f->pid >= 0 ? "," : " of", f->tid);
	return buf;
}

/* cgdiff_side_desc: see cgdiff.h. */
const char *cgdiff_side_desc(const struct cg_side *s, char *buf, size_t len)
{
	size_t n;
	if (!s->label || !s->spec || strcmp(s->label, s->spec)) {
		snprintf(buf, len, "session %lld", (long long)s->sessions[0]);
		return buf;
	}
	n = (size_t)snprintf(buf, len, "\"%s\" (session%s ", s->label, s->nsessions > 1 ? "s" : "");
	for (int i = 0; i < s->nsessions && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%lld", i ? ", " : "", (long long)s->sessions[i]);
	if (n < len)
		snprintf(buf + n, len - n, ")");
	return buf;
}
