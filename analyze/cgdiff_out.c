/* Printing a call-graph diff (or a single tree): text in the layout of the
 * kswapd profiles pasted into LKML (seed 004), md (the header as a list and
 * the rows in a fenced text block, since a tree needs its indentation), csv
 * and json (every row, nothing elided), and the differential flame graph. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/cgdiff.h"
#include "reports/svg_flame.h"
#include "reports/legacy_table.h"

/* side_desc: how a side is named in headers: "LABEL" (session 1) or
 * "LABEL" (sessions 1, 2, 3) for a label, else session N. */
static const char *side_desc(const struct cg_side *s, char *buf, size_t len)
{
	size_t n = 0;
	if (!s->label || strcmp(s->label, s->spec)) {
		snprintf(buf, len, "session %lld", (long long)s->sessions[0]);
		return buf;
	}
	n = (size_t)snprintf(buf, len, "\"%s\" (session%s ", s->label, s->nsessions > 1 ? "s" : "");
	for (int i = 0; i < s->nsessions && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%lld", i ? ", " : "",
				      (long long)s->sessions[i]);
	if (n < len)
		snprintf(buf + n, len - n, ")");
	return buf;
}

/* header: the lines above a diff, each starting with lead ("# " in text,
 * "- " in md). */
static void header(const struct cgdiff *d, FILE *out, const char *lead)
{
	char a[512], sel[512];
	static const char *what[] = { "call paths", "self (innermost frame)", "children (anywhere on the path)" };
	for (int s = 0; s < 2; s++)
		fprintf(out, "%s%s %s: %d run%s, %lld samples\n", lead, s ? "new: " : "base:",
			side_desc(&d->side[s], a, sizeof(a)), d->side[s].nsessions,
			d->side[s].nsessions > 1 ? "s" : "", (long long)d->side[s].samples);
	fprintf(out, "%s%s: %% of each side's %s, weighted by period; delta = new - base "
		"in points\n", lead, what[d->o.mode], cgdiff_selection(d, sel, sizeof(sel)));
	fprintf(out, "%s%.0f%% intervals of delta, simultaneous over the %zu rows (Bonferroni: each "
		"at 1-%.3g): %s; * = excludes 0\n", lead, 100 * d->o.conf, d->nrows, 1 - d->row_conf,
		!d->run_level ? "Newcombe hybrid score (Wilson) on pooled samples" :
		d->side[0].nsessions == d->side[1].nsessions ?
		"Student t over the runs' shares (shares are run means)" :
		"Welch t over the runs' shares (shares are run means)");
	if (d->run_level)
		fprintf(out, "%s(a side's run-to-run variance counts as at least its binomial "
			"sampling variance)\n", lead);
	fprintf(out, "%s=> the largest significant increase and decrease; - absent on that side%s\n",
		lead, d->o.mode == CG_TREE ? "; [N frames] a straight chain of unchanged shares" : "");
	if (d->o.limit > 0)
		fprintf(out, "%sleft out: rows below %g%% on both sides\n", lead, d->o.limit);
}

/* pct_cell: a share, or "-" where absent. */
static const char *pct_cell(double v, bool present, char *buf, size_t len)
{
	if (!present)
		return "-";
	snprintf(buf, len, "%.2f", v);
	return buf;
}

/* diff_line: one row of the text form of a diff. */
static void diff_line(const struct cgdiff *d, const struct cg_row *r, FILE *out)
{
	char b[32], n[32];
	fprintf(out, "%-2s %7s %7s %+8.2f  [%+7.2f, %+7.2f] %c  %*s%s\n",
		r->mark ? "=>" : "", pct_cell(r->base_pct, r->in_base, b, sizeof(b)),
		pct_cell(r->new_pct, r->in_new, n, sizeof(n)), r->delta_pct, r->ci.lo, r->ci.hi,
		r->significant ? '*' : ' ', d->o.mode == CG_TREE ? 2 * r->shown_depth : 0, "",
		cgdiff_row_name(d, r));
}

/* diff_rows: the column header and the rows of a diff, chains elided. */
static void diff_rows(const struct cgdiff *d, FILE *out)
{
	char ci[32];
	snprintf(ci, sizeof(ci), "%.0f%% interval", 100 * d->o.conf);
	fprintf(out, "%-2s %7s %7s %8s  %-18s %c  %s\n", "", "base%", "new%", "delta", ci, ' ',
		d->o.mode == CG_TREE ? "call path (callers first)" : "symbol");
	for (size_t i = 0; i < d->nrows; i++) {
		const struct cg_row *r = &d->rows[i];
		diff_line(d, r, out);
		if (r->elide) {
			fprintf(out, "%51s%*s[%d frames]\n", "", 2 * (r->shown_depth + 1), "", r->elide);
			i += (size_t)r->elide;
		}
	}
}

/* one_title: the first line of a single tree: who and what was sampled. */
static void one_title(const struct cgdiff *d, FILE *out)
{
	const struct ct_filter *f = &d->o.filter;
	char a[512];
	if (f->comm)
		fprintf(out, "%s", f->comm);
	else if (f->tid >= 0)
		fprintf(out, "tid %lld", f->tid);
	else if (f->pid >= 0)
		fprintf(out, "pid %lld", f->pid);
	else
		fprintf(out, "all");
	fprintf(out, " (%s, %lld %s samples", side_desc(&d->side[0], a, sizeof(a)),
		(long long)d->side[0].samples, d->event);
	if (d->side[0].nsessions > 1)
		fprintf(out, ", %d runs pooled", d->side[0].nsessions);
	if (d->o.mode != CG_TREE)
		fprintf(out, ", %s", d->o.mode == CG_SELF ? "self" : "children");
	fprintf(out, ")\n");
}

/* one_rows: the rows of a single tree, seed-004 style: the share at the
 * row's depth, then the frame. */
static void one_rows(const struct cgdiff *d, FILE *out)
{
	for (size_t i = 0; i < d->nrows; i++) {
		const struct cg_row *r = &d->rows[i];
		int ind = d->o.mode == CG_TREE ? 2 * r->shown_depth : 0;
		fprintf(out, "  %*s%.2f%%  %s\n", ind, "", r->base_pct, cgdiff_row_name(d, r));
		if (r->elide) {
			fprintf(out, "  %*s[%d frames]\n", ind + 2, "", r->elide);
			i += (size_t)r->elide;
		}
	}
}

/* print_text: text (md: fenced) forms. */
static void print_text(const struct cgdiff *d, FILE *out, bool md)
{
	if (d->nsides > 1) {
		header(d, out, md ? "- " : "# ");
		fputs(md ? "\n```text\n" : "", out);
		diff_rows(d, out);
	} else {
		fputs(md ? "```text\n" : "", out);
		one_title(d, out);
		one_rows(d, out);
	}
	fputs(md ? "```\n" : "", out);
}

/* path_text: the frames from the root to tree node n joined by ';'. */
static char *path_text(const struct cgdiff *d, int32_t n)
{
	int32_t fr[4096];
	size_t len = ct_path(d->t, n, fr, 4096), sz = 0;
	char *buf = NULL;
	FILE *m = open_memstream(&buf, &sz);
	if (!m)
		return NULL;
	for (size_t i = 0; i < len && i < 4096; i++)
		fprintf(m, "%s%s", i ? ";" : "", d->t->frames[fr[i]]);
	fclose(m);
	return buf;
}

/* mark_name: "increase", "decrease" or NULL. */
static const char *mark_name(int mark)
{
	return mark > 0 ? "increase" : mark < 0 ? "decrease" : NULL;
}

/* The csv columns (-1: not in this form). */
struct csv_cols {
	int mark, depth, path, sym, base, new, delta, lo, hi, sig, in_base, in_new, nbase, nnew;
};

/* csv_columns: declares the columns of d's csv form in t. */
static struct csv_cols csv_columns(const struct cgdiff *d, struct ltable *t)
{
	bool tree = d->o.mode == CG_TREE, two = d->nsides > 1;
	struct csv_cols c;
	c.mark = two ? lt_col(t, "mark", COL_STR, 0) : -1;
	c.depth = tree ? lt_col(t, "depth", COL_INT, 0) : -1;
	c.path = tree ? lt_col(t, "path", COL_STR, 0) : -1;
	c.sym = lt_col(t, "symbol", COL_STR, 0);
	c.base = lt_col(t, two ? "base_pct" : "pct", COL_REAL, -1);
	c.new = two ? lt_col(t, "new_pct", COL_REAL, -1) : -1;
	c.delta = two ? lt_col(t, "delta_pct", COL_REAL, -1) : -1;
	c.lo = two ? lt_col(t, "ci95_low", COL_REAL, -1) : -1;
	c.hi = two ? lt_col(t, "ci95_high", COL_REAL, -1) : -1;
	c.sig = two ? lt_col(t, "significant", COL_INT, 0) : -1;
	c.in_base = two ? lt_col(t, "in_base", COL_INT, 0) : -1;
	c.in_new = two ? lt_col(t, "in_new", COL_INT, 0) : -1;
	c.nbase = tree ? lt_col(t, two ? "base_samples" : "samples", COL_INT, 0) : -1;
	c.nnew = tree && two ? lt_col(t, "new_samples", COL_INT, 0) : -1;
	return c;
}

/* csv_row: fills the last row of t from r. */
static void csv_row(const struct cgdiff *d, const struct cg_row *r, struct ltable *t,
		    const struct csv_cols *c)
{
	if (d->o.mode == CG_TREE) {
		char *p = path_text(d, r->node);
		lt_set_int(t, c->depth, r->depth);
		lt_set_str(t, c->path, p);
		lt_set_int(t, c->nbase, r->base_samples);
		free(p);
	}
	lt_set_str(t, c->sym, cgdiff_row_name(d, r));
	lt_set_real(t, c->base, r->base_pct);
	if (d->nsides < 2)
		return;
	lt_set_str(t, c->mark, mark_name(r->mark));
	lt_set_real(t, c->new, r->new_pct);
	lt_set_real(t, c->delta, r->delta_pct);
	lt_set_real(t, c->lo, r->ci.lo);
	lt_set_real(t, c->hi, r->ci.hi);
	lt_set_int(t, c->sig, r->significant);
	lt_set_int(t, c->in_base, r->in_base);
	lt_set_int(t, c->in_new, r->in_new);
	if (d->o.mode == CG_TREE)
		lt_set_int(t, c->nnew, r->new_samples);
}

/* csv_table: every row as a table (no elision). */
static struct ltable *csv_table(const struct cgdiff *d)
{
	struct ltable *t = lt_new(NULL);
	struct csv_cols c = csv_columns(d, t);
	for (size_t i = 0; i < d->nrows; i++) {
		lt_add_row(t);
		csv_row(d, &d->rows[i], t, &c);
	}
	return t;
}

/* json_side: one side's description object. */
static void json_side(struct json *j, const struct cg_side *s)
{
	json_begin_object(j);
	json_key(j, "spec");
	json_str(j, s->spec);
	json_key(j, "label");
	json_str(j, s->label);
	json_key(j, "sessions");
	json_begin_array(j);
	for (int i = 0; i < s->nsessions; i++)
		json_int(j, s->sessions[i]);
	json_end_array(j);
	json_key(j, "runs");
	json_int(j, s->nsessions);
	json_key(j, "samples");
	json_int(j, s->samples);
	json_key(j, "effective_samples");
	json_real(j, s->neff);
	json_end_object(j);
}

/* json_path: the row's path (tree) or [symbol] (flat). */
static void json_path(struct json *j, const struct cgdiff *d, const struct cg_row *r)
{
	json_key(j, "path");
	json_begin_array(j);
	if (d->o.mode == CG_TREE) {
		int32_t fr[4096];
		size_t len = ct_path(d->t, r->node, fr, 4096);
		for (size_t i = 0; i < len && i < 4096; i++)
			json_str(j, d->t->frames[fr[i]]);
	} else {
		json_str(j, cgdiff_row_name(d, r));
	}
	json_end_array(j);
}

/* json_row: one row object. */
static void json_row(struct json *j, const struct cgdiff *d, const struct cg_row *r)
{
	bool two = d->nsides > 1;
	json_begin_object(j);
	json_path(j, d, r);
	json_key(j, "depth");
	json_int(j, r->depth);
	json_key(j, two ? "base_pct" : "pct");
	json_real(j, r->base_pct);
	if (two) {
		json_key(j, "new_pct");
		json_real(j, r->new_pct);
		json_key(j, "delta_pct");
		json_real(j, r->delta_pct);
		json_key(j, "ci95");
		json_begin_array(j);
		json_real(j, r->ci.lo);
		json_real(j, r->ci.hi);
		json_end_array(j);
		json_key(j, "significant");
		json_bool(j, r->significant);
		json_key(j, "marked");
		json_bool(j, r->mark != 0);
		json_key(j, "mark");
		json_str(j, mark_name(r->mark));
		json_key(j, "in_base");
		json_bool(j, r->in_base);
		json_key(j, "in_new");
		json_bool(j, r->in_new);
	}
	if (d->o.mode == CG_TREE) {
		json_key(j, two ? "base_samples" : "samples");
		json_int(j, r->base_samples);
		if (two) {
			json_key(j, "new_samples");
			json_int(j, r->new_samples);
		}
	}
	json_end_object(j);
}

/* json_filter: the selection object. */
static void json_filter(struct json *j, const struct cgdiff *d)
{
	const struct ct_filter *f = &d->o.filter;
	json_key(j, "event");
	json_str(j, d->event);
	json_key(j, "comm");
	json_str(j, f->comm);
	json_key(j, "pid");
	if (f->pid >= 0)
		json_int(j, f->pid);
	else
		json_null(j);
	json_key(j, "tid");
	if (f->tid >= 0)
		json_int(j, f->tid);
	else
		json_null(j);
}

/* print_json: the whole result as one object. */
static void print_json(const struct cgdiff *d, FILE *out)
{
	static const char *modes[] = { "tree", "self", "children" };
	struct json *j = json_new(out, true);
	json_begin_object(j);
	json_key(j, "mode");
	json_str(j, modes[d->o.mode]);
	for (int s = 0; s < d->nsides; s++) {
		json_key(j, d->nsides < 2 ? "session" : s ? "new" : "base");
		json_side(j, &d->side[s]);
	}
	json_filter(j, d);
	json_key(j, "weight");
	json_str(j, "period");
	if (d->nsides > 1) {
		json_key(j, "interval");
		json_str(j, !d->run_level ? "newcombe-pooled" :
			 d->side[0].nsessions == d->side[1].nsessions ? "student-t-runs" : "welch-t-runs");
		json_key(j, "confidence");
		json_real(j, d->o.conf);
		json_key(j, "row_confidence");
		json_real(j, d->row_conf);
	}
	json_key(j, "limit_pct");
	json_real(j, d->o.limit);
	json_key(j, "nodes");
	json_begin_array(j);
	for (size_t i = 0; i < d->nrows; i++)
		json_row(j, d, &d->rows[i]);
	json_end_array(j);
	json_end_object(j);
	json_free(j);
}

/* cgdiff_print: see cgdiff.h. */
int cgdiff_print(const struct cgdiff *d, int format, FILE *out)
{
	struct ltable *t;
	switch (format) {
	case FMT_JSON:
		print_json(d, out);
		break;
	case FMT_CSV:
		t = csv_table(d);
		lt_print(t, FMT_CSV, out);
		lt_free(t);
		break;
	default:
		print_text(d, out, format == FMT_MD);
	}
	return ferror(out) ? -1 : 0;
}

/* Children order of the flame graph: by name (as flamegraph.pl does). */
static const struct calltree *svg_tree;

/* by_name: qsort order of tree nodes by frame name. */
static int by_name(const void *a, const void *b)
{
	const struct calltree *t = svg_tree;
	return strcmp(t->frames[t->nodes[*(const int32_t *)a].frame],
		      t->frames[t->nodes[*(const int32_t *)b].frame]);
}

/* svg_frames: the nodes of the tree with new-side samples, pre-order,
 * under an "all" root; *n gets the count. NULL on out of memory. */
static struct flame_frame *svg_frames(const struct cgdiff *d, const struct cg_row *byn, size_t *n)
{
	const struct calltree *t = d->t;
	struct flame_frame *f = calloc(t->nnodes, sizeof(*f));
	int32_t *stack = malloc(t->nnodes * sizeof(*stack)), *kids = malloc(t->nnodes * sizeof(*kids));
	int *idx = malloc(t->nnodes * sizeof(*idx));
	size_t sp = 0;
	*n = 0;
	svg_tree = t;
	if (f && stack && kids && idx)
		stack[sp++] = 0;
	while (sp) {
		int32_t v = stack[--sp], nk = 0;
		const struct cg_row *r = &byn[v];
		idx[v] = (int)(*n)++;
		f[idx[v]] = (struct flame_frame){ v ? idx[t->nodes[v].parent] : -1,
			v ? t->frames[t->nodes[v].frame] : "all", r->new_pct / 100, r->base_pct,
			r->new_pct, r->delta_pct, r->ci.lo, r->ci.hi, r->in_base };
		for (int32_t c = t->nodes[v].first_child; c >= 0; c = t->nodes[c].next_sibling)
			if (byn[c].in_new)
				kids[nk++] = c;
		qsort(kids, (size_t)nk, sizeof(*kids), by_name);
		while (nk--)
			stack[sp++] = kids[nk];
	}
	if (!stack || !kids || !idx) {
		free(f);
		f = NULL;
	}
	free(stack);
	free(kids);
	free(idx);
	return f;
}

/* cgdiff_svg: see cgdiff.h. */
int cgdiff_svg(const struct cgdiff *d, FILE *out, char *err, size_t errlen)
{
	struct cg_row *byn = calloc(d->t->nnodes, sizeof(*byn));
	struct flame_frame *f = NULL;
	char title[1200], a[512], b[512], sel[512];
	size_t n = 0;
	int rc = -1;
	if (byn && d->nsides > 1) {	/* shares of every node, pruned or not */
		byn[0] = (struct cg_row){ .base_pct = 100, .new_pct = 100, .in_base = true,
					  .in_new = true, .ci = { NAN, NAN } };
		for (size_t i = 1; i < d->t->nnodes; i++)
			cgdiff_node_row(d, (int32_t)i, &byn[i]);
		f = svg_frames(d, byn, &n);
	}
	if (f) {
		snprintf(title, sizeof(title), "cgdiff: %s -> %s", side_desc(&d->side[0], a, sizeof(a)),
			 side_desc(&d->side[1], b, sizeof(b)));
		rc = svg_flame_write(out, f, n, &(struct flame_opts){ title,
				     cgdiff_selection(d, sel, sizeof(sel)), 1200 });
	}
	if (rc)
		snprintf(err, errlen, d->nsides > 1 ? "cannot write the flame graph" :
			 "a flame graph needs two sides");
	free(byn);
	free(f);
	return rc;
}
