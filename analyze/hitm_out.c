/* Text, md and csv output of `perfdb hitm` (see hitm_out.h): the trace
 * summary, the shared cacheline table, fields by type, each shown line's
 * fields, and its offsets with their code sites (perf c2c's Pareto
 * table). JSON is in hitm_json.c. */
#include "analyze/hitm_out.h"
#include "analyze/hitm_out_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* hitm_display_parse: see hitm_out.h. */
int hitm_display_parse(const char *s, enum hitm_display *d)
{
	static const char *const names[] = { "tot", "lcl", "rmt", "peer" };
	for (int i = 0; s && i < 4; i++)
		if (!strcmp(s, names[i])) {
			*d = (enum hitm_display)i;
			return 0;
		}
	return -1;
}

/* hitm_display_name: see hitm_out.h. */
const char *hitm_display_name(enum hitm_display d)
{
	static const char *const names[] = { "Total HITMs", "Local HITMs", "Remote HITMs",
					     "Peer snoops" };
	return d <= D_PEER ? names[d] : "?";
}

/* hitm_metric: see hitm_out_int.h. */
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

/* hitm_shared_stats: see hitm_out_int.h. */
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

/* hitm_line_has_type: see hitm_out_int.h. */
bool hitm_line_has_type(const struct hitm_view *v, size_t line)
{
	const struct hitm_line *hl = &v->r->lines[line];
	for (size_t i = 0; i < hl->n; i++)
		if (!strcmp(layout_type_key(v->r->strs[v->r->fields[hl->first + i].type]),
			    layout_type_key(v->type)))
			return true;
	return false;
}

/* The view being sorted (qsort has no context argument). */
static const struct hitm_view *sort_view;

/* cmp_lines: by the display metric, descending, then address, mode, pid. */
static int cmp_lines(const void *a, const void *b)
{
	const struct c2c_line *x = &sort_view->d->lines[*(const size_t *)a];
	const struct c2c_line *y = &sort_view->d->lines[*(const size_t *)b];
	uint32_t mx = hitm_metric(&x->st, sort_view->display), my = hitm_metric(&y->st, sort_view->display);
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

/* hitm_select: see hitm_out.h. */
size_t hitm_select(const struct hitm_view *v, size_t **out)
{
	struct c2c_stats shared;
	uint32_t nshared;
	size_t n = 0;
	hitm_shared_stats(v->d, &shared, &nshared);
	uint32_t total = hitm_metric(&shared, v->display);
	if (!(*out = malloc((v->d->nlines ? v->d->nlines : 1) * sizeof(**out))))
		abort();
	for (size_t i = 0; i < v->d->nlines; i++) {
		uint32_t m = hitm_metric(&v->d->lines[i].st, v->display);
		if (!v->show_all && (!total || (double)m / total < 0.001))
			continue;
		if (v->type && !hitm_line_has_type(v, i))
			continue;
		(*out)[n++] = i;
	}
	sort_view = v;
	if (n)
		qsort(*out, n, sizeof(**out), cmp_lines);
	if (v->limit > 0 && n > (size_t)v->limit)
		n = (size_t)v->limit;
	return n;
}

/* hitm_cpumode_name: see hitm_out_int.h. */
const char *hitm_cpumode_name(unsigned m)
{
	static const char *const names[] = { "unknown", "kernel", "user", "hypervisor",
					     "guest kernel", "guest user" };
	return m < 6 ? names[m] : "unknown";
}

/* hitm_line_objects: see hitm_out_int.h. */
void hitm_line_objects(const struct hitm_view *v, size_t line, char *buf, size_t len)
{
	const struct hitm_line *hl = &v->r->lines[line];
	int32_t seen[3];
	int ns = 0, more = 0;
	size_t at = 0;
	buf[0] = 0;
	for (size_t i = 0; i < hl->n; i++) {
		int32_t o = v->r->fields[hl->first + i].obj;
		bool dup = false;
		for (int k = 0; k < ns; k++)
			dup |= seen[k] == o;
		if (dup)
			continue;
		if (ns == 3) {
			more++;
			continue;
		}
		seen[ns++] = o;
		const char *name = o < 0 ? HITM_UNKNOWN : v->om->v[o].name ? v->om->v[o].name : "?";
		const char *type = o < 0 ? "" : v->om->v[o].type;
		at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%s%s%s", at ? ", " : "",
				       type, *type ? " " : "", name);
	}
	if (more && at < len)
		snprintf(buf + at, len - at, " +%d more", more);
}

/* summary_row(t, what, n): one row of the trace summary. */
static void summary_row(struct ltable *t, const char *what, long long n)
{
	lt_add_row(t);
	lt_set_str(t, 0, what);
	lt_set_int(t, 1, n);
}

/* summary_table(v): perf c2c's trace event information over every
 * memory sample. */
static struct ltable *summary_table(const struct hitm_view *v)
{
	const struct c2c_stats *s = &v->d->total;
	char title[1024];
	struct c2c_stats shared;
	uint32_t nshared;
	hitm_shared_stats(v->d, &shared, &nshared);
	snprintf(title, sizeof(title), "Memory samples of %s", v->sessions);
	struct ltable *t = lt_new(title);
	lt_col(t, "what", COL_STR, 0);
	lt_col(t, "count", COL_INT, 0);
	const struct { const char *what; long long n; } rows[] = {
		{ "memory samples", s->nr_entries }, { "locked loads/stores", s->locks },
		{ "loads", s->load }, { "loads uncacheable", s->ld_uncache },
		{ "loads IO", s->ld_io }, { "loads miss", s->ld_miss },
		{ "loads without address", s->ld_noadrs }, { "load fill buffer hits", s->ld_fbhit },
		{ "load L1D hits", s->ld_l1hit }, { "load L2D hits", s->ld_l2hit },
		{ "load LLC hits", (long long)s->ld_llchit + s->lcl_hitm },
		{ "load local HITMs", s->lcl_hitm }, { "load remote HITMs", s->rmt_hitm },
		{ "load remote HITs", s->rmt_hit }, { "load local DRAM", s->lcl_dram },
		{ "load remote DRAM", s->rmt_dram }, { "load LLC misses", (long long)c2c_llc_misses(s) },
		{ "load local peer hits", s->lcl_peer }, { "load remote peer hits", s->rmt_peer },
		{ "stores", s->store }, { "stores uncacheable", s->st_uncache },
		{ "stores without address", s->st_noadrs }, { "store L1D hits", s->st_l1hit },
		{ "store L1D misses", s->st_l1miss }, { "stores with level N/A", s->st_na },
		{ "unparsable data source", s->noparse }, { "shared cachelines", nshared },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++)
		summary_row(t, rows[i].what, rows[i].n);
	return t;
}

/* pct(n, d): 100 n / d, 0 when d is 0. */
static double pct(double n, double d)
{
	return d ? 100.0 * n / d : 0;
}

/* lines_table(v, sel, n): the shared data cache line table. */
static struct ltable *lines_table(const struct hitm_view *v, const size_t *sel, size_t n)
{
	char title[256], buf[512];
	struct c2c_stats shared;
	uint32_t nshared;
	hitm_shared_stats(v->d, &shared, &nshared);
	snprintf(title, sizeof(title), "Shared data cache lines, sorted on %s%s",
		 hitm_display_name(v->display), v->show_all ? " (all lines)" : "");
	struct ltable *t = lt_new(title);
	static const char *const cols[] = { "hitm", "lcl_hitm", "rmt_hitm", "peer", "records",
		"loads", "stores", "st_l1hit", "st_l1miss", "st_na", "lcl_dram", "rmt_dram", "cpus" };
	lt_col(t, "idx", COL_INT, 0);
	lt_col(t, "address", COL_STR, 0);
	lt_col(t, "mode", COL_STR, 0);
	lt_col(t, "pct", COL_PCT, 2);
	for (size_t i = 0; i < sizeof(cols) / sizeof(*cols); i++)
		lt_col(t, cols[i], COL_INT, 0);
	lt_col(t, "verdict", COL_STR, 0);
	lt_col(t, "objects", COL_STR, 0);
	for (size_t i = 0; i < n; i++) {
		const struct c2c_line *l = &v->d->lines[sel[i]];
		const struct c2c_stats *s = &l->st;
		const long long vals[] = { s->tot_hitm, s->lcl_hitm, s->rmt_hitm, s->tot_peer,
			(long long)s->load + s->store, s->load, s->store, s->st_l1hit, s->st_l1miss,
			s->st_na, s->lcl_dram, s->rmt_dram,
			cpuset_count(v->r->lines[sel[i]].cpus, v->r->cpu_words) };
		lt_add_row(t);
		lt_set_int(t, 0, (long long)i);
		snprintf(buf, sizeof(buf), "0x%" PRIx64, l->address);
		lt_set_str(t, 1, buf);
		lt_set_str(t, 2, l->cpumode == 1 ? "k" : l->cpumode == 2 ? "u" : "?");
		lt_set_real(t, 3, pct(hitm_metric(s, v->display), hitm_metric(&shared, v->display)));
		for (size_t k = 0; k < sizeof(vals) / sizeof(*vals); k++)
			lt_set_int(t, 4 + (int)k, vals[k]);
		lt_set_str(t, 17, hitm_verdict_name(v->r->lines[sel[i]].verdict));
		hitm_line_objects(v, sel[i], buf, sizeof(buf));
		lt_set_str(t, 18, buf);
	}
	return t;
}

/* hitm_sites_text: see hitm_out_int.h. */
void hitm_sites_text(const struct hitm_view *v, const struct hitm_field *f, int max,
		     char *buf, size_t len)
{
	bool *used = calloc(f->nsites ? f->nsites : 1, sizeof(*used));
	size_t at = 0;
	buf[0] = 0;
	if (!used)
		abort();
	for (int k = 0; k < max && at < len; k++) {
		long best = -1;
		for (size_t i = 0; i < f->nsites; i++)
			if (!used[i] && (best < 0 || f->sites[i].n > f->sites[best].n))
				best = (long)i;
		if (best < 0)
			break;
		used[best] = true;
		at += (size_t)snprintf(buf + at, len - at, "%s%s (%u)", at ? ", " : "",
				       v->d->sites[f->sites[best].site], f->sites[best].n);
	}
	free(used);
}

/* field_cells(t, col, v, f): the count and CPU cells shared by the
 * per-type and per-line field tables, from column col. */
static void field_cells(struct ltable *t, int col, const struct hitm_view *v,
			const struct hitm_field *f)
{
	char buf[1024];
	lt_set_int(t, col++, (long long)f->c.lcl_hitm + f->c.rmt_hitm);
	lt_set_int(t, col++, f->c.lcl_hitm);
	lt_set_int(t, col++, f->c.rmt_hitm);
	lt_set_int(t, col++, f->c.loads);
	lt_set_int(t, col++, f->c.stores);
	cpuset_text(f->readers, v->r->cpu_words, buf, sizeof(buf));
	lt_set_str(t, col++, buf);
	cpuset_text(f->writers, v->r->cpu_words, buf, sizeof(buf));
	lt_set_str(t, col++, buf);
	hitm_sites_text(v, f, 3, buf, sizeof(buf));
	lt_set_str(t, col, buf);
}

/* field_cols(t): the columns field_cells fills; returns the first. */
static int field_cols(struct ltable *t)
{
	static const char *const ints[] = { "hitm", "lcl_hitm", "rmt_hitm", "loads", "stores" };
	int first = lt_col(t, ints[0], COL_INT, 0);
	for (int i = 1; i < 5; i++)
		lt_col(t, ints[i], COL_INT, 0);
	lt_col(t, "readers", COL_STR, 0);
	lt_col(t, "writers", COL_STR, 0);
	lt_col(t, "code_sites", COL_STR, 0);
	return first;
}

/* hitm_type_order: see hitm_out_int.h. */
size_t hitm_type_order(const struct hitm_view *v, size_t **out)
{
	const struct hitm_result *r = v->r;
	size_t n = 0;
	if (!(*out = malloc((r->ntfields ? r->ntfields : 1) * sizeof(**out))))
		abort();
	for (size_t i = 0; i < r->ntfields; i++) {
		const struct hitm_field *f = &r->tfields[i];
		bool match = v->type ? !strcmp(layout_type_key(r->strs[f->type]), layout_type_key(v->type))
				     : f->c.lcl_hitm + f->c.rmt_hitm + f->c.stores > 0;
		if (match)
			(*out)[n++] = i;
	}
	sort_view = v;
	if (n)
		qsort(*out, n, sizeof(**out), hitm_cmp_tfields);
	return n;
}

/* hitm_cmp_tfields: see hitm_out_int.h. */
int hitm_cmp_tfields(const void *a, const void *b)
{
	const struct hitm_field *x = &sort_view->r->tfields[*(const size_t *)a];
	const struct hitm_field *y = &sort_view->r->tfields[*(const size_t *)b];
	uint32_t hx = x->c.lcl_hitm + x->c.rmt_hitm, hy = y->c.lcl_hitm + y->c.rmt_hitm;
	if (hx != hy)
		return hx > hy ? -1 : 1;
	if (x->c.stores != y->c.stores)
		return x->c.stores > y->c.stores ? -1 : 1;
	if (x->c.loads != y->c.loads)
		return x->c.loads > y->c.loads ? -1 : 1;
	int c = strcmp(sort_view->r->strs[x->type], sort_view->r->strs[y->type]);
	return c ? c : (x->foff > y->foff) - (x->foff < y->foff);
}

/* types_table(v): fields by type over all lines. */
static struct ltable *types_table(const struct hitm_view *v)
{
	size_t *ix, n = hitm_type_order(v, &ix);
	char title[300];
	snprintf(title, sizeof(title), "Fields %s%s, over all cachelines", v->type ? "of " : "with HITMs or stores",
		 v->type ? v->type : "");
	struct ltable *t = lt_new(title);
	lt_col(t, "type", COL_STR, 0);
	lt_col(t, "field", COL_STR, 0);
	lt_col(t, "offset", COL_INT, 0);
	lt_col(t, "size", COL_INT, 0);
	int first = field_cols(t);
	lt_null_text(t, "-");
	for (size_t i = 0; i < n; i++) {
		const struct hitm_field *f = &v->r->tfields[ix[i]];
		lt_add_row(t);
		lt_set_str(t, 0, v->r->strs[f->type]);
		lt_set_str(t, 1, v->r->strs[f->name]);
		if (f->foff >= 0)
			lt_set_int(t, 2, f->foff);
		if (f->fsize > 0)
			lt_set_int(t, 3, f->fsize);
		field_cells(t, first, v, f);
	}
	free(ix);
	return t;
}

/* line_fields_table(v, sel, n): every shown line's fields. */
static struct ltable *line_fields_table(const struct hitm_view *v, const size_t *sel, size_t n)
{
	struct ltable *t = lt_new("Fields of each cacheline");
	lt_col(t, "idx", COL_INT, 0);
	lt_col(t, "line_offset", COL_STR, 0);
	lt_col(t, "type", COL_STR, 0);
	lt_col(t, "field", COL_STR, 0);
	lt_col(t, "field_offset", COL_INT, 0);
	int first = field_cols(t);
	lt_col(t, "object", COL_STR, 0);
	lt_null_text(t, "-");
	for (size_t i = 0; i < n; i++) {
		const struct hitm_line *hl = &v->r->lines[sel[i]];
		for (size_t k = 0; k < hl->n; k++) {
			const struct hitm_field *f = &v->r->fields[hl->first + k];
			char off[16];
			lt_add_row(t);
			lt_set_int(t, 0, (long long)i);
			snprintf(off, sizeof(off), "0x%x", f->line_off);
			lt_set_str(t, 1, off);
			lt_set_str(t, 2, v->r->strs[f->type]);
			lt_set_str(t, 3, v->r->strs[f->name]);
			lt_set_int(t, 4, f->foff);
			field_cells(t, first, v, f);
			if (f->obj >= 0)
				lt_set_str(t, first + 8, v->om->v[f->obj].name);
		}
	}
	return t;
}

/* offset_row(t, v, idx, rows): one row of the offsets table. */
static void offset_row(struct ltable *t, const struct hitm_view *v, size_t idx,
		       const struct hitm_offset *o)
{
	char buf[64];
	const struct hitm_counts *c = &o->c;
	lt_add_row(t);
	lt_set_int(t, 0, (long long)idx);
	snprintf(buf, sizeof(buf), "0x%x", o->offset);
	lt_set_str(t, 1, buf);
	lt_set_str(t, 2, o->field >= 0 ? v->r->strs[v->r->fields[o->field].name] : "");
	lt_set_int(t, 3, c->rmt_hitm);
	lt_set_int(t, 4, c->lcl_hitm);
	lt_set_int(t, 5, o->st_l1hit);
	lt_set_int(t, 6, o->st_l1miss);
	lt_set_int(t, 7, o->st_na);
	lt_set_int(t, 8, c->loads);
	lt_set_str(t, 9, o->site >= 0 ? v->d->sites[o->site] : "?");
	lt_set_str(t, 10, o->pids);
	lt_set_int(t, 11, o->ncpus);
	cpuset_text(&o->nodes, 1, buf, sizeof(buf));
	lt_set_str(t, 12, buf);
	if (c->n_rmt)
		lt_set_real(t, 13, (double)c->w_rmt / c->n_rmt);
	if (c->n_lcl)
		lt_set_real(t, 14, (double)c->w_lcl / c->n_lcl);
	if (c->n_load)
		lt_set_real(t, 15, (double)c->w_load / c->n_load);
	lt_set_int(t, 16, c->records);
}

/* offsets_table(v, sel, n): per shown line, offset and code site. */
static struct ltable *offsets_table(const struct hitm_view *v, const size_t *sel, size_t n)
{
	static const char *const ints[] = { "rmt_hitm", "lcl_hitm", "st_l1hit", "st_l1miss",
					    "st_na", "loads" };
	struct ltable *t = lt_new("Offsets and code sites of each cacheline");
	lt_col(t, "idx", COL_INT, 0);
	lt_col(t, "offset", COL_STR, 0);
	lt_col(t, "field", COL_STR, 0);
	for (int i = 0; i < 6; i++)
		lt_col(t, ints[i], COL_INT, 0);
	lt_col(t, "code_site", COL_STR, 0);
	lt_col(t, "pids", COL_STR, 0);
	lt_col(t, "cpus", COL_INT, 0);
	lt_col(t, "nodes", COL_STR, 0);
	lt_col(t, "mean_rmt_hitm", COL_REAL, 0);
	lt_col(t, "mean_lcl_hitm", COL_REAL, 0);
	lt_col(t, "mean_load", COL_REAL, 0);
	lt_col(t, "records", COL_INT, 0);
	lt_null_text(t, "-");
	for (size_t i = 0; i < n; i++) {
		struct hitm_offset *rows;
		size_t nr = hitm_offsets(v, sel[i], &rows);
		for (size_t k = 0; k < nr; k++)
			offset_row(t, v, i, &rows[k]);
		free(rows);
	}
	return t;
}

/* hitm_print: see hitm_out.h. */
int hitm_print(const struct hitm_view *v, FILE *out)
{
	size_t *sel, n = hitm_select(v, &sel);
	int rc;
	if (v->fmt == FMT_JSON) {
		rc = hitm_print_json(v, sel, n, out);
		free(sel);
		return rc;
	}
	struct ltable *ts[5] = { summary_table(v), lines_table(v, sel, n), types_table(v),
				line_fields_table(v, sel, n), offsets_table(v, sel, n) };
	rc = lt_print_all((const struct ltable *const *)ts, 5, v->fmt, out);
	for (int i = 0; i < v->nnotes && v->fmt != FMT_CSV; i++)
		fprintf(out, "%snote: %s\n", i ? "" : "\n", v->notes[i]);
	for (int i = 0; i < 5; i++)
		lt_free(ts[i]);
	bool first = true;
	for (size_t i = 0; i < n && v->fmt != FMT_CSV; i++) {
		const struct hitm_line *hl = &v->r->lines[sel[i]];
		if (!hl->detail || !*hl->detail)
			continue;
		fprintf(out, "%sline %zu: %s: %s\n", first ? "\n" : "", i,
			hitm_verdict_name(hl->verdict), hl->detail);
		first = false;
	}
	free(sel);
	return rc || ferror(out) ? -1 : 0;
}

/* The samples being sorted by hitm_offsets. */
static const struct c2c_sample *sort_samples;

/* cmp_offset_site: sample indexes by offset in the line, then code site. */
static int cmp_offset_site(const void *a, const void *b)
{
	const struct c2c_sample *x = &sort_samples[*(const uint32_t *)a];
	const struct c2c_sample *y = &sort_samples[*(const uint32_t *)b];
	unsigned ox = c2c_cl_offset(x->addr), oy = c2c_cl_offset(y->addr);
	if (ox != oy)
		return ox < oy ? -1 : 1;
	return (x->site > y->site) - (x->site < y->site);
}

/* add_pid(o, pid): notes pid in o's pid text (4 at most, then "+"). */
static void add_pid(struct hitm_offset *o, int32_t pid, int *npids, int32_t *pids)
{
	for (int i = 0; i < *npids; i++)
		if (pids[i] == pid)
			return;
	size_t at = strlen(o->pids);
	if (*npids < 4)
		snprintf(o->pids + at, sizeof(o->pids) - at, "%s%d", at ? "," : "", pid);
	else if (*npids == 4)
		snprintf(o->pids + at, sizeof(o->pids) - at, "+");
	if (*npids < 64)
		pids[(*npids)++] = pid;
}

/* offset_row_of(v, idx, n, o): the row of samples idx[0..n) (one offset
 * and site). */
static void offset_row_of(const struct hitm_view *v, const uint32_t *idx, size_t n,
			  struct hitm_offset *o)
{
	const struct c2c_sample *first = &v->d->v[idx[0]];
	uint64_t *cpus = calloc((size_t)v->r->cpu_words, sizeof(*cpus));
	int32_t pids[64], tids[256];
	int npids = 0, ntids = 0;
	if (!cpus)
		abort();
	*o = (struct hitm_offset){ .offset = c2c_cl_offset(first->addr), .site = first->site,
		.field = first->field };
	for (size_t i = 0; i < n; i++) {
		const struct c2c_sample *s = &v->d->v[idx[i]];
		bool seen = false;
		hitm_count_sample(&o->c, s);
		o->st_l1hit += !!(s->stc & C2C_ST_L1HIT);
		o->st_l1miss += !!(s->stc & C2C_ST_L1MISS);
		o->st_na += !!(s->stc & C2C_ST_NA);
		if (s->cpu >= 0)
			cpus[s->cpu / 64] |= 1ULL << (s->cpu % 64);
		if (s->node >= 0 && s->node < 64)
			o->nodes |= 1ULL << s->node;
		add_pid(o, s->pid, &npids, pids);
		for (int k = 0; k < ntids; k++)
			seen |= tids[k] == s->tid;
		if (!seen && ntids < 256)
			tids[ntids++] = s->tid;
	}
	o->ncpus = cpuset_count(cpus, v->r->cpu_words);
	o->ntids = ntids;
	free(cpus);
}

/* hitm_offsets: see hitm_out_int.h. */
size_t hitm_offsets(const struct hitm_view *v, size_t line, struct hitm_offset **out)
{
	const struct c2c_line *l = &v->d->lines[line];
	uint32_t *idx = malloc((l->n ? l->n : 1) * sizeof(*idx));
	size_t n = 0;
	*out = malloc((l->n ? l->n : 1) * sizeof(**out));
	if (!idx || !*out)
		abort();
	memcpy(idx, l->idx, l->n * sizeof(*idx));
	sort_samples = v->d->v;
	qsort(idx, l->n, sizeof(*idx), cmp_offset_site);
	for (size_t i = 0; i < l->n;) {
		size_t j = i + 1;
		while (j < l->n && !cmp_offset_site(&idx[i], &idx[j]))
			j++;
		offset_row_of(v, idx + i, j - i, &(*out)[n++]);
		i = j;
	}
	free(idx);
	return n;
}
