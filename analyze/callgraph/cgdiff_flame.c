/* The frames of a differential flame graph as a table (see
 * cgdiff_findings.h): every tree node with new-side samples, pruned or
 * not, in pre-order with children by name (as flamegraph.pl orders them),
 * its width from the new side and its shares, delta and interval. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/callgraph/cgdiff_findings.h"
#include "lib/alloc.h"

/* by_name: children order of the flame graph: nodes of tree t by frame
 * name. */
static int by_name(const void *a, const void *b, void *tree)
{
	const struct calltree *t = tree;
	return strcmp(t->frames[t->nodes[*(const int32_t *)a].frame],
		      t->frames[t->nodes[*(const int32_t *)b].frame]);
}

/* Column indices of the flame table, in declaration order (the F_*_ABS
 * columns only with --per). */
enum { F_ID, F_PARENT, F_NAME, F_WIDTH, F_BASE, F_NEW, F_DELTA, F_LO, F_HI, F_IN_BASE, F_SIG, F_CHANGE,
       F_BASE_ABS, F_NEW_ABS, F_DELTA_ABS, F_LO_ABS, F_HI_ABS };

/* flame_new(d): the empty table, titled and captioned. */
static struct table *flame_new(const struct cgdiff *d)
{
	char a[512], b[512], sel[512];
	char *title = xasprintf("cgdiff: %s -> %s", cgdiff_side_desc(&d->side[0], a, sizeof(a)),
				cgdiff_side_desc(&d->side[1], b, sizeof(b)));
	struct table *t = table_new("flame", title);
	static const char *const reals[] = { "width", "base_pct", "new_pct", "delta_pct", "ci95_low",
		"ci95_high" };
	free(title);
	table_caption(t, "%s", cgdiff_selection(d, sel, sizeof(sel)));
	for (int s = 0; s < 2; s++)
		table_caption(t, "%s: %s, %d run%s, %lld samples", s ? "new" : "base",
			      cgdiff_side_desc(&d->side[s], s ? b : a, sizeof(a)), d->side[s].nsessions,
			      d->side[s].nsessions > 1 ? "s" : "", (long long)d->side[s].samples);
	if (d->o.per != CG_PER_SHARE)
		table_caption(t, "%s per %s", d->unit.name, cgdiff_per_name(d->o.per));
	else
		table_caption(t, "points");
	table_caption(t, "%g%%", 100 * d->o.conf);
	table_col(t, "id", COL_INT, 0);
	table_col(t, "parent", COL_INT, 0);
	table_col(t, "name", COL_STR, 0);
	for (size_t i = 0; i < sizeof(reals) / sizeof(*reals); i++)
		table_col(t, reals[i], COL_REAL, -1);
	table_col(t, "in_base", COL_BOOL, 0);
	table_col(t, "significant", COL_BOOL, 0);
	table_col(t, "change", COL_REAL, -1);
	if (d->o.per != CG_PER_SHARE) {
		static const char *const abs[] = { "base_per", "new_per", "delta_per", "per_ci95_low",
			"per_ci95_high" };
		for (size_t i = 0; i < sizeof(abs) / sizeof(*abs); i++)
			table_col(t, abs[i], COL_REAL, -1);
	}
	return t;
}

/* flame_row(t, id, parent, name, r, change, per): one frame; per: with
 * the absolute columns. */
static void flame_row(struct table *t, long long id, long long parent, const char *name,
		      const struct cg_row *r, double change, bool per)
{
	table_add_row(t);
	table_set_int(t, F_ID, id);
	if (parent >= 0)
		table_set_int(t, F_PARENT, parent);
	table_set_str(t, F_NAME, name);
	table_set_real(t, F_WIDTH, r->new_pct / 100);
	table_set_real(t, F_BASE, r->base_pct);
	table_set_real(t, F_NEW, r->new_pct);
	table_set_real(t, F_DELTA, r->delta_pct);
	table_set_real(t, F_LO, r->ci.lo);
	table_set_real(t, F_HI, r->ci.hi);
	table_set_int(t, F_IN_BASE, r->in_base);
	table_set_int(t, F_SIG, r->significant);
	table_set_real(t, F_CHANGE, change);
	if (per && id > 0) {	/* the root has no absolute row of its own */
		table_set_real(t, F_BASE_ABS, r->base_abs);
		table_set_real(t, F_NEW_ABS, r->new_abs);
		table_set_real(t, F_DELTA_ABS, r->delta_abs);
		table_set_real(t, F_LO_ABS, r->ci_abs.lo);
		table_set_real(t, F_HI_ABS, r->ci_abs.hi);
	}
}

/* node_rows(d): every tree node's row (index = node; the root's is 100%
 * on both sides, without an interval), malloc'ed. */
static struct cg_row *node_rows(const struct cgdiff *d)
{
	struct cg_row *byn = xcalloc(d->t->nnodes, sizeof(*byn));
	byn[0] = (struct cg_row){ .base_pct = 100, .new_pct = 100, .in_base = true, .in_new = true,
				  .ci = { NAN, NAN } };
	for (size_t i = 1; i < d->t->nnodes; i++)
		cgdiff_node_row(d, (int32_t)i, &byn[i]);
	return byn;
}

/* cgdiff_flame: see cgdiff_findings.h. */
struct table *cgdiff_flame(const struct cgdiff *d)
{
	const struct calltree *t = d->t;
	struct table *ft = flame_new(d);
	struct cg_row *byn = node_rows(d);
	int32_t *stack = xcalloc(t->nnodes, sizeof(*stack)), *kids = xcalloc(t->nnodes, sizeof(*kids));
	long long *id = xcalloc(t->nnodes, sizeof(*id)), next = 0;
	size_t sp = 0;
	stack[sp++] = 0;
	while (sp) {
		int32_t v = stack[--sp], nk = 0;
		id[v] = next++;
		flame_row(ft, id[v], v ? id[t->nodes[v].parent] : -1,
			  v ? t->frames[t->nodes[v].frame] : "all", &byn[v], cgdiff_row_delta(d, &byn[v]),
			  d->o.per != CG_PER_SHARE);
		for (int32_t c = t->nodes[v].first_child; c >= 0; c = t->nodes[c].next_sibling)
			if (byn[c].in_new)
				kids[nk++] = c;
		qsort_r(kids, (size_t)nk, sizeof(*kids), by_name, (void *)t);
		while (nk--)	/* pushed last first, so popped in order */
			stack[sp++] = kids[nk];
	}
	free(byn);
	free(stack);
	free(kids);
	free(id);
	return ft;
}
