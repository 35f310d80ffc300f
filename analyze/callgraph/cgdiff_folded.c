/* A tree's call stacks as folded lines (see cgdiff_findings.h): one line
 * "a;b;c COUNT" per node with samples ending there, outermost caller
 * first, sorted as the lines compare, frames keyed and named as in cgdiff
 * (normalized symbols, "[unknown] (DSO)"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/callgraph/cgdiff_findings.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"

/* One folded line: "stack count", the stack being its first stack_len
 * bytes. */
struct line {
	char *text;
	size_t stack_len;
	long long count;
};

/* put_frame(b, s): a frame name with the characters the folded format
 * uses (';' separates frames, a line break ends the line) replaced. */
static void put_frame(struct strbuf *b, const char *s)
{
	for (; *s; s++)
		sb_putc(b, *s == ';' ? ':' : *s == '\n' || *s == '\r' ? ' ' : *s);
}

/* make_line(t, n, count): the folded line of node n. */
static struct line make_line(const struct calltree *t, int32_t n, long long count)
{
	struct strbuf b = STRBUF_INIT;
	size_t len = ct_path(t, n, NULL, 0), stack_len;
	int32_t *fr = xcalloc(len, sizeof(*fr));
	ct_path(t, n, fr, len);
	for (size_t i = 0; i < len; i++) {
		if (i)
			sb_putc(&b, ';');
		put_frame(&b, t->frames[fr[i]]);
	}
	free(fr);
	stack_len = b.len;
	sb_printf(&b, " %lld", count);
	return (struct line){ sb_take(&b), stack_len, count };
}

/* A node with samples ending there, before its line is made. */
struct weight {
	int32_t node;
	long long count;
};

/* by_count: heaviest first, then the lower node (a stable order). */
static int by_count(const void *a, const void *b)
{
	const struct weight *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return (x->node > y->node) - (x->node < y->node);
}

/* by_text: strcmp order of two lines. */
static int by_text(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->text, ((const struct line *)b)->text);
}

/* self_count(t, n, period): the samples ending at node n over every run,
 * or the sum of their weights (periods). */
static long long self_count(const struct calltree *t, size_t n, bool period)
{
	double sum = 0;
	for (int r = 0; r < t->nruns; r++)
		sum += period ? t->runs[r].self[n] : (double)t->runs[r].nself[n];
	return llround(sum);
}

/* heaviest(v, n, rows, tb): the rows heaviest of the n weights in v put
 * first, the rest left out with a caption of tb's; how many are kept. */
static size_t heaviest(struct weight *v, size_t n, long long rows, struct table *tb)
{
	if (rows <= 0 || (size_t)rows >= n)
		return n;
	qsort(v, n, sizeof(*v), by_count);
	table_caption(tb, "the %lld heaviest of %zu stacks (-n 0: all)", rows, n);
	return (size_t)rows;
}

/* stacks_table(d, period, rows): the sorted lines as the table "stacks". */
static struct table *stacks_table(const struct cgdiff *d, bool period, long long rows)
{
	const struct calltree *t = d->t;
	struct weight *w = xcalloc(t->nnodes, sizeof(*w));
	struct line *v;
	size_t n = 0;
	char sel[512], a[512];
	char *title = xasprintf("Folded call stacks: %s (%s), %s", cgdiff_selection(d, sel, sizeof(sel)),
				cgdiff_side_desc(&d->side[0], a, sizeof(a)), period ? "periods" : "samples");
	struct table *tb = table_new("stacks", title);
	free(title);
	table_style(tb, TABLE_PLAIN);
	table_col(tb, "stack", COL_STR, 0);
	table_col(tb, "count", COL_INT, 0);
	for (size_t i = 1; i < t->nnodes; i++) {
		long long c = self_count(t, i, period);
		if (c > 0)
			w[n++] = (struct weight){ (int32_t)i, c };
	}
	n = heaviest(w, n, rows, tb);
	v = xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = make_line(t, w[i].node, w[i].count);
	free(w);
	if (n)
		qsort(v, n, sizeof(*v), by_text);
	for (size_t i = 0; i < n; i++) {
		v[i].text[v[i].stack_len] = '\0';
		table_add_row(tb);
		table_set_str(tb, 0, v[i].text);
		table_set_int(tb, 1, v[i].count);
		free(v[i].text);
	}
	free(v);
	return tb;
}

/* cgdiff_folded_findings: see cgdiff_findings.h. */
void cgdiff_folded_findings(const struct cgdiff *d, bool period, long long rows, struct doc *doc)
{
	struct dval *f = doc_findings(doc);
	cgdiff_selection_findings(f, d);
	dv_str(f, "weight", period ? "period" : "samples");
	dv_int(f, "samples", d->side[0].samples);
	dv_table(f, stacks_table(d, period, rows));
	doc_set_main(doc, "stacks");
}
