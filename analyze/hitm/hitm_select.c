/* Which cachelines and per-type fields are shown and in what order, and
 * a line's rows by offset and code site (see hitm_select.h). */
#include <stdlib.h>
#include <string.h>
#include "analyze/hitm/hitm_select.h"
#include "lib/alloc.h"

/* hitm_display_names: see hitm_select.h. */
const char *const hitm_display_names[] = { "tot", "lcl", "rmt", "peer", NULL };

/* hitm_display_name: see hitm_select.h. */
const char *hitm_display_name(enum hitm_display d)
{
	static const char *const names[] = { "Total HITMs", "Local HITMs", "Remote HITMs",
					     "Peer snoops" };
	return d <= D_PEER ? names[d] : "?";
}

/* hitm_metric: see hitm_select.h. */
uint32_t hitm_metric(const struct c2c_stats *s, enum hitm_display d)
{
	switch (d) {
	case D_LCL:
		return s->lcl_hitm;
	case D_RMT:
		return s->rmt_hitm;
	case D_PEER:
		return s->tot_peer;
	default:
		return s->tot_hitm;
	}
}

/* hitm_shared_stats: see hitm_select.h. */
void hitm_shared_stats(const struct c2c_data *d, struct c2c_stats *out, uint32_t *nlines)
{
	*out = (struct c2c_stats){ 0 };
	*nlines = 0;
	for (size_t i = 0; i < d->nlines; i++) {
		const struct c2c_stats *s = &d->lines[i].st;
		if (s->lcl_hitm || s->rmt_hitm || s->lcl_peer || s->rmt_peer) {
			c2c_stats_add(out, s);
			(*nlines)++;
		}
	}
}

/* line_has_type(v, line): whether line has a field of type v->type. */
static bool line_has_type(const struct hitm_view *v, size_t line)
{
	const struct hitm_line *hl = &v->r->lines[line];
	for (size_t i = 0; i < hl->n; i++)
		if (!strcmp(layout_type_key(v->r->strs[v->r->fields[hl->first + i].type]),
			    layout_type_key(v->type)))
			return true;
	return false;
}

/* cmp_lines: indexes of view v's lines by the display metric, descending,
 * then address, mode, pid. */
static int cmp_lines(const void *a, const void *b, void *v)
{
	const struct hitm_view *view = v;
	const struct c2c_line *x = &view->d->lines[*(const size_t *)a];
	const struct c2c_line *y = &view->d->lines[*(const size_t *)b];
	uint32_t mx = hitm_metric(&x->st, view->display), my = hitm_metric(&y->st, view->display);
	if (mx != my)
		return mx > my ? -1 : 1;
	if (x->session != y->session)
		return x->session < y->session ? -1 : 1;
	if (x->address != y->address)
		return x->address < y->address ? -1 : 1;
	if (x->cpumode != y->cpumode)
		return x->cpumode < y->cpumode ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* hitm_select: see hitm_select.h. */
size_t hitm_select(const struct hitm_view *v, size_t **out)
{
	struct c2c_stats shared;
	uint32_t nshared;
	size_t n = 0;
	hitm_shared_stats(v->d, &shared, &nshared);
	uint32_t total = hitm_metric(&shared, v->display);
	*out = xcalloc(v->d->nlines + 1, sizeof(**out));
	for (size_t i = 0; i < v->d->nlines; i++) {
		uint32_t m = hitm_metric(&v->d->lines[i].st, v->display);
		if (!v->show_all && (!total || (double)m / total < 0.001))
			continue;
		if (v->type && !line_has_type(v, i))
			continue;
		(*out)[n++] = i;
	}
	if (n)
		qsort_r(*out, n, sizeof(**out), cmp_lines, (void *)v);
	if (v->limit > 0 && n > (size_t)v->limit)
		n = (size_t)v->limit;
	return n;
}

/* hitm_cpumode_name: see hitm_select.h. */
const char *hitm_cpumode_name(unsigned m)
{
	static const char *const names[] = { "unknown", "kernel", "user", "hypervisor",
					     "guest kernel", "guest user" };
	return m < 6 ? names[m] : "unknown";
}

/* cmp_tfields: indexes of result r's per-type fields by HITMs, stores,
 * loads (descending), then type and offset. */
static int cmp_tfields(const void *a, const void *b, void *r)
{
	const struct hitm_result *res = r;
	const struct hitm_field *x = &res->tfields[*(const size_t *)a];
	const struct hitm_field *y = &res->tfields[*(const size_t *)b];
	uint32_t hx = x->c.lcl_hitm + x->c.rmt_hitm, hy = y->c.lcl_hitm + y->c.rmt_hitm;
	if (hx != hy)
		return hx > hy ? -1 : 1;
	if (x->c.stores != y->c.stores)
		return x->c.stores > y->c.stores ? -1 : 1;
	if (x->c.loads != y->c.loads)
		return x->c.loads > y->c.loads ? -1 : 1;
	int c = strcmp(res->strs[x->type], res->strs[y->type]);
	return c ? c : (x->foff > y->foff) - (x->foff < y->foff);
}

/* hitm_type_order: see hitm_select.h. */
size_t hitm_type_order(const struct hitm_view *v, size_t **out)
{
	const struct hitm_result *r = v->r;
	size_t n = 0;
	*out = xcalloc(r->ntfields + 1, sizeof(**out));
	for (size_t i = 0; i < r->ntfields; i++) {
		const struct hitm_field *f = &r->tfields[i];
		bool match = v->type ? !strcmp(layout_type_key(r->strs[f->type]), layout_type_key(v->type))
				     : f->c.lcl_hitm + f->c.rmt_hitm + f->c.stores > 0;
		if (match)
			(*out)[n++] = i;
	}
	if (n)
		qsort_r(*out, n, sizeof(**out), cmp_tfields, (void *)r);
	return n;
}

/* hitm_offsets: see hitm_select.h. */
size_t hitm_offsets(const struct hitm_view *v, size_t line, const struct hitm_offset **out)
{
	const struct hitm_line *hl = &v->r->lines[line];
	*out = v->r->rows + hl->first_row;
	return hl->nrows;
}
