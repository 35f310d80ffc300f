/* A call-graph diff or single tree as findings (see cgdiff_findings.h):
 * the scalars, the side objects and the "nodes" table, laid out for
 * people as the kswapd profiles pasted into LKML (seed 004) and for
 * programs as flat rows with every number. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/callgraph/cgdiff_findings.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"

/* The columns of "nodes" (-1: not in this form). Human columns first, in
 * the order of the text form; then the ones for programs. */
struct cols {
	int arrow, base_h, new_h, delta_h, ci_h, star;	/* two sides, for people */
	int pct;					/* one side */
	int sym, indent;		/* the frame; its text indent (shown nowhere) */
	int node, parent, path, depth;
	int base, new, delta, lo, hi, sig, marked, mark, in_base, in_new;
	int nbase, nnew;
	int few, abase, anew, adelta, alo, ahi, ssig, mach;	/* too_few; --per's numbers */
	int ciw;			/* --per: the width of an interval end, text */
};

/* col(t, name, type, prec, show, label): a column shown as show, with
 * label (NULL: its name) as its text and md header; its index. */
static int col(struct table *t, const char *name, enum col_type type, int prec, unsigned show,
	       const char *label)
{
	int c = table_col(t, name, type, prec);
	table_col_show(t, c, show);
	if (label)
		table_col_label(t, c, label);
	return c;
}

/* per_short(per): the unit of a --per column header: run, s, op. */
static const char *per_short(enum cg_per per)
{
	return per == CG_PER_SECOND ? "s" : per == CG_PER_OP ? "op" : "run";
}

/* human_cols(t, d, c): the "=>", base%, new%, delta, interval and "*"
 * columns of a diff. base%, new% and delta are numeric (right-aligned)
 * but hold text where the profiles print a '-' (absent) or a sign. */
static void human_cols(struct table *t, const struct cgdiff *d, struct cols *c)
{
	bool per = d->o.per != CG_PER_SHARE;
	int prec = per ? d->unit.decimals : 2;
	char ci[32], b[32], n[32];
	snprintf(ci, sizeof(ci), "%.0f%% interval", 100 * d->o.conf);
	snprintf(b, sizeof(b), per ? "base/%s" : "base%%", per ? per_short(d->o.per) : "");
	snprintf(n, sizeof(n), per ? "new/%s" : "new%%", per ? per_short(d->o.per) : "");
	c->arrow = col(t, "arrow", COL_STR, 0, SHOW_HUMAN, "");
	c->base_h = col(t, "base", COL_REAL, prec, SHOW_HUMAN, b);
	c->new_h = col(t, "new", COL_REAL, prec, SHOW_HUMAN, n);
	c->delta_h = col(t, "delta", COL_REAL, 2, SHOW_HUMAN, NULL);
	c->ci_h = col(t, "interval", COL_STR, 0, SHOW_HUMAN, ci);
	c->star = col(t, "star", COL_STR, 0, SHOW_HUMAN, "");
}

/* diff_data_cols(t, c): the numbers of a diff for programs. */
static void diff_data_cols(struct table *t, struct cols *c)
{
	c->base = col(t, "base_pct", COL_REAL, -1, SHOW_DATA, NULL);
	c->new = col(t, "new_pct", COL_REAL, -1, SHOW_DATA, NULL);
	c->delta = col(t, "delta_pct", COL_REAL, -1, SHOW_DATA, NULL);
	c->lo = col(t, "ci95_low", COL_REAL, -1, SHOW_DATA, NULL);
	c->hi = col(t, "ci95_high", COL_REAL, -1, SHOW_DATA, NULL);
	c->sig = col(t, "significant", COL_BOOL, 0, SHOW_DATA, NULL);
	c->marked = col(t, "marked", COL_BOOL, 0, SHOW_DATA, NULL);
	c->mark = col(t, "mark", COL_STR, 0, SHOW_DATA, NULL);
	c->in_base = col(t, "in_base", COL_BOOL, 0, SHOW_DATA, NULL);
	c->in_new = col(t, "in_new", COL_BOOL, 0, SHOW_DATA, NULL);
	c->few = col(t, "too_few", COL_BOOL, 0, SHOW_DATA, NULL);
}

/* per_data_cols(t, c): the numbers of --per for programs. */
static void per_data_cols(struct table *t, struct cols *c)
{
	c->abase = col(t, "base_per", COL_REAL, -1, SHOW_DATA, NULL);
	c->anew = col(t, "new_per", COL_REAL, -1, SHOW_DATA, NULL);
	c->adelta = col(t, "delta_per", COL_REAL, -1, SHOW_DATA, NULL);
	c->alo = col(t, "per_ci95_low", COL_REAL, -1, SHOW_DATA, NULL);
	c->ahi = col(t, "per_ci95_high", COL_REAL, -1, SHOW_DATA, NULL);
	c->ssig = col(t, "share_significant", COL_BOOL, 0, SHOW_DATA, NULL);
	c->mach = col(t, "machine_explains", COL_INT, 0, SHOW_DATA, NULL);
}

/* declare(t, d): every column of d's "nodes" table. */
static struct cols declare(struct table *t, const struct cgdiff *d)
{
	bool tree = d->o.mode == CG_TREE, two = d->nsides > 1;
	struct cols c;
	memset(&c, 0xff, sizeof(c));	/* every index -1 until declared */
	if (two)
		human_cols(t, d, &c);
	else
		c.pct = col(t, "pct", COL_PCT, 2, SHOW_ALL, "share");
	c.sym = col(t, "symbol", COL_STR, 0, SHOW_ALL, tree ? "call path (callers first)" : NULL);
	if (tree) {
		c.indent = col(t, "indent", COL_INT, 0, 0, NULL);
		table_col_indent(t, c.sym, c.indent);
		c.node = col(t, "node", COL_INT, 0, SHOW_DATA, NULL);
		c.parent = col(t, "parent", COL_INT, 0, SHOW_DATA, NULL);
	}
	c.path = col(t, "path", COL_STR, 0, SHOW_DATA, NULL);
	c.depth = col(t, "depth", COL_INT, 0, SHOW_DATA, NULL);
	if (two)
		diff_data_cols(t, &c);
	if (two && d->o.per != CG_PER_SHARE)
		per_data_cols(t, &c);
	if (tree)
		c.nbase = col(t, two ? "base_samples" : "samples", COL_INT, 0, SHOW_DATA, NULL);
	if (tree && two)
		c.nnew = col(t, "new_samples", COL_INT, 0, SHOW_DATA, NULL);
	return c;
}

/* path_text(d, r, b): row r's path into b: the frames from the outermost
 * caller joined by ';' (tree), or its symbol (flat). */
static void path_text(const struct cgdiff *d, const struct cg_row *r, struct strbuf *b)
{
	size_t len;
	int32_t *fr;
	if (d->o.mode != CG_TREE) {
		sb_puts(b, cgdiff_row_name(d, r));
		return;
	}
	len = ct_path(d->t, r->node, NULL, 0);
	fr = xcalloc(len, sizeof(*fr));
	ct_path(d->t, r->node, fr, len);
	for (size_t i = 0; i < len; i++)
		sb_printf(b, "%s%s", i ? ";" : "", d->t->frames[fr[i]]);
	free(fr);
}

/* set_share(t, c, v, present): a human share cell: v, or "-" where the
 * path is absent on that side. */
static void set_share(struct table *t, int c, double v, bool present)
{
	if (present)
		table_set_real(t, c, v);
	else
		table_set_str(t, c, "-");
}

/* human_cells(t, c, d, r): the human cells of a diff row, as the LKML
 * profiles write them: signed deltas, the interval's ends aligned; "too
 * few samples" in place of an interval. */
static void human_cells(struct table *t, const struct cols *c, const struct cgdiff *d,
			const struct cg_row *r)
{
	bool per = d->o.per != CG_PER_SHARE;
	struct interval ci = per ? r->ci_abs : r->ci;
	int p = per ? d->unit.decimals : 2, w = per ? c->ciw : 7;
	if (r->mark)
		table_set_str(t, c->arrow, "=>");
	set_share(t, c->base_h, per ? r->base_abs : r->base_pct, r->in_base);
	set_share(t, c->new_h, per ? r->new_abs : r->new_pct, r->in_new);
	table_set_strf(t, c->delta_h, "%+.*f", p, per ? r->delta_abs : r->delta_pct);
	if (r->few)
		table_set_str(t, c->ci_h, "too few samples");
	else if (!isnan(ci.lo) && !isnan(ci.hi))
		table_set_strf(t, c->ci_h, "[%+*.*f, %+*.*f]", w, p, ci.lo, w, p, ci.hi);
	if (r->significant)
		table_set_str(t, c->star, "*");
}

/* ci_width(d): the widest interval end of d's --per rows, as text. */
static int ci_width(const struct cgdiff *d)
{
	int w = 5;
	char buf[64];
	for (size_t i = 0; i < d->nrows; i++)
		if (!d->rows[i].few && !isnan(d->rows[i].ci_abs.lo)) {
			int a = snprintf(buf, sizeof(buf), "%+.*f", d->unit.decimals, d->rows[i].ci_abs.lo);
			int b = snprintf(buf, sizeof(buf), "%+.*f", d->unit.decimals, d->rows[i].ci_abs.hi);
			w = a > w ? a : w;
			w = b > w ? b : w;
		}
	return w;
}

/* mark_name: "increase", "decrease" or NULL. */
static const char *mark_name(int mark)
{
	return mark > 0 ? "increase" : mark < 0 ? "decrease" : NULL;
}

/* data_cells(t, c, r): the numbers of a diff row for programs. */
static void data_cells(struct table *t, const struct cols *c, const struct cg_row *r)
{
	table_set_real(t, c->base, r->base_pct);
	table_set_real(t, c->new, r->new_pct);
	table_set_real(t, c->delta, r->delta_pct);
	table_set_real(t, c->lo, r->ci.lo);
	table_set_real(t, c->hi, r->ci.hi);
	table_set_int(t, c->sig, r->significant);
	table_set_int(t, c->marked, r->mark != 0);
	table_set_str(t, c->mark, mark_name(r->mark));
	table_set_int(t, c->in_base, r->in_base);
	table_set_int(t, c->in_new, r->in_new);
	table_set_int(t, c->few, r->few);
	if (c->abase < 0)
		return;
	table_set_real(t, c->abase, r->base_abs);
	table_set_real(t, c->anew, r->new_abs);
	table_set_real(t, c->adelta, r->delta_abs);
	table_set_real(t, c->alo, r->ci_abs.lo);
	table_set_real(t, c->ahi, r->ci_abs.hi);
	table_set_int(t, c->ssig, r->share_significant);
	table_set_int(t, c->mach, r->machine);
}

/* tree_cells(t, c, d, r): the tree-mode cells: indent, node, parent and
 * the sample counts. */
static void tree_cells(struct table *t, const struct cols *c, const struct cgdiff *d,
		       const struct cg_row *r)
{
	int32_t parent = d->t->nodes[r->node].parent;
	table_set_int(t, c->indent, r->shown_depth);
	table_set_int(t, c->node, r->node);
	if (parent > 0)
		table_set_int(t, c->parent, parent);
	table_set_int(t, c->nbase, r->base_samples);
	if (c->nnew >= 0)
		table_set_int(t, c->nnew, r->new_samples);
}

/* add_row(t, c, d, r, show): one row of "nodes" for row r, shown as show. */
static void add_row(struct table *t, const struct cols *c, const struct cgdiff *d,
		    const struct cg_row *r, unsigned show)
{
	struct strbuf b = STRBUF_INIT;
	table_add_row(t);
	table_row_show(t, show);
	if (d->nsides > 1) {
		human_cells(t, c, d, r);
		data_cells(t, c, r);
	} else {
		table_set_real(t, c->pct, r->base_pct);
	}
	table_set_str(t, c->sym, cgdiff_row_name(d, r));
	path_text(d, r, &b);
	table_set_str(t, c->path, sb_str(&b));
	sb_free(&b);
	table_set_int(t, c->depth, r->depth);
	if (d->o.mode == CG_TREE)
		tree_cells(t, c, d, r);
}

/* elision_row(t, c, r): the "[N frames]" row for people under row r,
 * whose next r->elide rows it stands for. */
static void elision_row(struct table *t, const struct cols *c, const struct cg_row *r)
{
	table_add_row(t);
	table_row_show(t, SHOW_HUMAN);
	table_set_strf(t, c->sym, "[%d frames]", r->elide);
	table_set_int(t, c->indent, r->shown_depth + 1);
}

/* fill_rows(t, c, d): every row of d; an elided chain's middle rows for
 * programs only, after their "[N frames]" row. */
static void fill_rows(struct table *t, const struct cols *c, const struct cgdiff *d)
{
	for (size_t i = 0; i < d->nrows; i++) {
		const struct cg_row *r = &d->rows[i];
		add_row(t, c, d, r, SHOW_ALL);
		if (!r->elide)
			continue;
		elision_row(t, c, r);
		for (int k = 1; k <= r->elide && i + 1 < d->nrows; k++)
			add_row(t, c, d, &d->rows[++i], SHOW_DATA);
	}
}

/* What the rows are, by mode, for the captions. */
static const char *const what[] = { "call paths", "self (innermost frame)",
	"children (anywhere on the path)" };

/* method(d): how the intervals were computed, for people. */
static const char *method(const struct cgdiff *d)
{
	if (!d->run_level)
		return "Newcombe hybrid score (Wilson) on pooled samples";
	return d->side[0].nsessions == d->side[1].nsessions ?
	       "Student t over the runs' shares (shares are run means)" :
	       "Welch t over the runs' shares (shares are run means)";
}

/* unit_text(d, b, len): what d's absolute values are, for captions:
 * "ms of cpu-clock (sample periods summed)", into b. */
static const char *unit_text(const struct cgdiff *d, char *b, size_t len)
{
	if (!strcmp(d->unit.name, "samples"))
		snprintf(b, len, "%s samples", d->event);
	else if (!strcmp(d->unit.name, "events"))
		snprintf(b, len, "%s events (sample periods summed)", d->event);
	else
		snprintf(b, len, "%s of %s (sample periods summed)", d->unit.name, d->event);
	return b;
}

/* per_method(d): how the --per intervals were computed, for people. */
static const char *per_method(const struct cgdiff *d)
{
	if (!d->run_level)
		return "counting (Poisson) interval on the pooled samples";
	return d->side[0].nsessions == d->side[1].nsessions ?
	       "Student t over the runs' values (values are run means)" :
	       "Welch t over the runs' values (values are run means)";
}

/* per_captions(t, d, sel): the lines saying what --per compares. */
static void per_captions(struct table *t, const struct cgdiff *d, const char *sel)
{
	char u[400];
	table_caption(t, "%s: each side's %s through the row per %s, of its %s; delta = new - base",
		      what[d->o.mode], unit_text(d, u, sizeof(u)),
		      d->o.per == CG_PER_SECOND ? "second of recording" : d->o.per == CG_PER_OP ? "operation" : "run",
		      sel);
	if (d->o.per == CG_PER_OP)
		table_caption(t, "operations: metric %s%s", d->metric,
			      d->metric_rate ? " (a rate) times each recording's length" : " (a count)");
	table_caption(t, "%.0f%% intervals of delta, simultaneous over the %zu rows (Bonferroni: each at 1-%.3g): "
		      "%s; * = excludes 0", 100 * d->o.conf, d->nrows, 1 - d->row_conf, per_method(d));
	if (d->run_level)
		table_caption(t, "(a side's run-to-run variance counts as at least its counting variance)");
}

/* totals_caption(t, d): the line saying the totals differ, in shares. */
static void totals_caption(struct table *t, const struct cgdiff *d)
{
	char u[400];
	int p = d->unit.decimals;
	if (!d->totals_differ || d->o.per != CG_PER_SHARE)
		return;
	table_caption(t, "the sides' totals differ: %.*f -> %.*f %s per run (%.0f%% interval of the change "
		      "[%+.*f, %+.*f]); shares do not show that: see --per run (or --per second, --per op)",
		      p, d->total[0], p, d->total[1], unit_text(d, u, sizeof(u)), 100 * d->o.conf,
		      p, d->total_ci.lo, p, d->total_ci.hi);
}

/* few_caption(t, d): the line saying what "too few samples" means. */
static void few_caption(struct table *t, const struct cgdiff *d)
{
	bool any = false;
	for (size_t i = 0; i < d->nrows && !any; i++)
		any = d->rows[i].few;
	if (!any)
		return;
	if (d->few_side && d->o.per == CG_PER_SHARE)
		table_caption(t, "too few samples: a side%s has fewer than %d effective samples, too few "
			      "for an interval of shares", d->run_level ? "'s run" : "", CG_MIN_SIDE_SAMPLES);
	else
		table_caption(t, "too few samples: fewer than %d effective samples through the row on both "
			      "sides together", CG_MIN_ROW_SAMPLES);
}

/* diff_captions(t, d): the header lines above a diff. */
static void diff_captions(struct table *t, const struct cgdiff *d)
{
	char a[512], sel[512];
	for (int s = 0; s < 2; s++)
		table_caption(t, "%s %s: %d run%s, %lld samples", s ? "new: " : "base:",
			      cgdiff_side_desc(&d->side[s], a, sizeof(a)), d->side[s].nsessions,
			      d->side[s].nsessions > 1 ? "s" : "", (long long)d->side[s].samples);
	cgdiff_selection(d, sel, sizeof(sel));
	if (d->o.per != CG_PER_SHARE) {
		per_captions(t, d, sel);
	} else {
		table_caption(t, "%s: %% of each side's %s, weighted by period; delta = new - base in points",
			      what[d->o.mode], sel);
		table_caption(t, "%.0f%% intervals of delta, simultaneous over the %zu rows (Bonferroni: each "
			      "at 1-%.3g): %s; * = excludes 0", 100 * d->o.conf, d->nrows, 1 - d->row_conf,
			      method(d));
		if (d->run_level)
			table_caption(t, "(a side's run-to-run variance counts as at least its binomial "
				      "sampling variance)");
	}
	few_caption(t, d);
	totals_caption(t, d);
	table_caption(t, "=> the largest significant increase and decrease; - absent on that side%s",
		      d->o.mode == CG_TREE ? "; [N frames] a straight chain of unchanged shares" : "");
	if (d->o.limit > 0)
		table_caption(t, "left out: rows below %g%% on both sides", d->o.limit);
}

/* one_title(d): the title of a single tree: who and what was sampled,
 * malloc'ed. */
static char *one_title(const struct cgdiff *d)
{
	const struct ct_filter *f = &d->o.filter;
	struct strbuf b = STRBUF_INIT;
	char a[512];
	if (f->comm)
		sb_puts(&b, f->comm);
	else if (f->tid >= 0)
		sb_printf(&b, "tid %lld", f->tid);
	else if (f->pid >= 0)
		sb_printf(&b, "pid %lld", f->pid);
	else
		sb_puts(&b, "all");
	sb_printf(&b, " (%s, %lld %s samples", cgdiff_side_desc(&d->side[0], a, sizeof(a)),
		  (long long)d->side[0].samples, d->event);
	if (d->side[0].nsessions > 1)
		sb_printf(&b, ", %d runs pooled", d->side[0].nsessions);
	if (d->o.mode != CG_TREE)
		sb_printf(&b, ", %s", d->o.mode == CG_SELF ? "self" : "children");
	sb_putc(&b, ')');
	return sb_take(&b);
}

/* one_captions(t, d): the lines under a single tree's title. */
static void one_captions(struct table *t, const struct cgdiff *d)
{
	char sel[512];
	table_caption(t, "%s: %% of the %s, weighted by period%s", what[d->o.mode],
		      cgdiff_selection(d, sel, sizeof(sel)),
		      d->o.mode == CG_TREE ? "; [N frames] a straight chain: each frame has all "
		      "of its caller's samples" : "");
	if (d->o.limit > 0)
		table_caption(t, "left out: rows below %g%%", d->o.limit);
}

/* nodes_table(d): the "nodes" table of d. */
static struct table *nodes_table(const struct cgdiff *d)
{
	char *title = d->nsides > 1 ? NULL : one_title(d);
	struct table *t = table_new("nodes", title);
	struct cols c = declare(t, d);
	c.ciw = ci_width(d);
	free(title);
	if (d->nsides > 1)
		diff_captions(t, d);
	else
		one_captions(t, d);
	fill_rows(t, &c, d);
	return t;
}

/* side_obj(f, key, s): one side's description object. */
static void side_obj(struct dval *f, const char *key, const struct cg_side *s)
{
	struct dval *o = dv_obj(f, key), *ids;
	dv_str(o, "spec", s->spec);
	dv_str(o, "label", s->label);
	ids = dv_arr(o, "sessions");
	for (int i = 0; i < s->nsessions; i++)
		dv_int(ids, NULL, s->sessions[i]);
	dv_int(o, "runs", s->nsessions);
	dv_int(o, "samples", s->samples);
	dv_real(o, "effective_samples", s->neff);
}

/* interval_name(d): the interval method, for programs. */
static const char *interval_name(const struct cgdiff *d)
{
	if (!d->run_level)
		return "newcombe-pooled";
	return d->side[0].nsessions == d->side[1].nsessions ? "student-t-runs" : "welch-t-runs";
}

/* per_findings(f, d): what the rows compare (per, unit, metric), the
 * minimums of samples, and the totals' test. */
static void per_findings(struct dval *f, const struct cgdiff *d)
{
	struct dval *o;
	dv_str(f, "per", cgdiff_per_name(d->o.per));
	dv_str(f, "unit", d->unit.name);
	if (d->o.per == CG_PER_OP) {
		dv_str(f, "metric", d->metric);
		dv_str(f, "operations", d->metric_rate ? "rate times recording length" : "count");
	}
	dv_int(f, "min_row_samples", CG_MIN_ROW_SAMPLES);
	dv_int(f, "min_side_samples", CG_MIN_SIDE_SAMPLES);
	dv_bool(f, "too_few_side_samples", d->few_side);
	o = dv_obj(f, "totals_per_run");
	dv_real(o, "base", d->total[0]);
	dv_real(o, "new", d->total[1]);
	dv_real(o, "ci95_low", d->total_ci.lo);
	dv_real(o, "ci95_high", d->total_ci.hi);
	dv_bool(o, "differ", d->totals_differ);
}

/* cgdiff_selection_findings: see cgdiff_findings.h. */
void cgdiff_selection_findings(struct dval *f, const struct cgdiff *d)
{
	const struct ct_filter *s = &d->o.filter;
	dv_str(f, "event", d->event);
	dv_str(f, "comm", s->comm);
	if (s->pid >= 0)
		dv_int(f, "pid", s->pid);
	else
		dv_null(f, "pid");
	if (s->tid >= 0)
		dv_int(f, "tid", s->tid);
	else
		dv_null(f, "tid");
}

/* machine_findings(d, doc): the machine's own change between the sides'
 * recordings (a warning when it changed; with --per the rows it could
 * explain are not marked), and a note when a side has fewer than 3 runs. */
static void machine_findings(const struct cgdiff *d, struct doc *doc)
{
	const char *b = d->side[0].label ? d->side[0].label : "base";
	const char *n = d->side[1].label ? d->side[1].label : "new";
	machine_json(&d->machine, dv_obj(doc_findings(doc), "machine_verdict"));
	machine_warn(&d->machine, doc, "recordings", b, n);
	if (d->o.per != CG_PER_SHARE && !d->run_level)
		machine_warn_busy(&d->machine, doc, "recordings", b, n, "with fewer than 3 runs a side no row "
				  "whose change is within twice that share of 0 is marked (machine_explains 1); "
				  "record 3 or more runs a side");
	if (d->machine.changed && d->o.per == CG_PER_SHARE)
		doc_note(doc, "shares are of each side's own samples: a machine that is slower everywhere "
			 "leaves them as they are, so the machine's change withholds no share's mark (it "
			 "does with --per)");
	if (d->side[0].nsessions < 3 || d->side[1].nsessions < 3)
		doc_note(doc, "a side has fewer than 3 runs (base %d, new %d): the intervals count samples "
			 "only, so the variation from one run to the next (the workload's and the machine's) "
			 "is outside them and a mark may be that variation; record 3 or more runs a side "
			 "(perfdb bench -r RECIPE --record-every 1, or perfdb record -l LABEL again)",
			 d->side[0].nsessions, d->side[1].nsessions);
}

/* cgdiff_findings: see cgdiff_findings.h. */
void cgdiff_findings(const struct cgdiff *d, struct doc *doc)
{
	static const char *const modes[] = { "tree", "self", "children" };
	struct dval *f = doc_findings(doc);
	dv_str(f, "mode", modes[d->o.mode]);
	for (int s = 0; s < d->nsides; s++)
		side_obj(f, d->nsides < 2 ? "session" : s ? "new" : "base", &d->side[s]);
	cgdiff_selection_findings(f, d);
	dv_str(f, "weight", "period");
	if (d->nsides > 1) {
		dv_str(f, "interval", interval_name(d));
		dv_real(f, "confidence", d->o.conf);
		dv_real(f, "row_confidence", d->row_conf);
		per_findings(f, d);
		machine_findings(d, doc);
	}
	dv_real(f, "percent_limit", d->o.limit);
	dv_table(f, nodes_table(d));
	doc_set_main(doc, "nodes");
}
