/* The rows and tables of memory-sample evidence (see hitm_c2c_tables.h). */
#include <stdlib.h>
#include <string.h>
#include "analyze/hitm/hitm_c2c_tables.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"

/* pct(n, d): 100 n / d, 0 when d is 0. */
static double pct(double n, double d)
{
	return d ? 100.0 * n / d : 0;
}

/* set_sb(t, col, b): cell col becomes b's text; b is emptied. */
static void set_sb(struct table *t, int col, struct strbuf *b)
{
	table_set_str(t, col, sb_str(b));
	sb_reset(b);
}

/* line_objects(v, line, b): the line's objects ("TYPE NAME, ...", three
 * at most and "+N more") into b. */
static void line_objects(const struct hitm_view *v, size_t line, struct strbuf *b)
{
	const struct hitm_line *hl = &v->r->lines[line];
	int32_t seen[3];
	int ns = 0, more = 0;
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
		sb_printf(b, "%s%s%s%s", ns > 1 ? ", " : "", type, *type ? " " : "", name);
	}
	if (more)
		sb_printf(b, " +%d more", more);
}

/* line_counts(t, s): perf's counts of a line into the CL_* columns. */
static void line_counts(struct table *t, const struct c2c_stats *s)
{
	const struct { int col; long long v; } m[] = {
		{ CL_HITM_TOTAL, s->tot_hitm }, { CL_HITM_LOCAL, s->lcl_hitm },
		{ CL_HITM_REMOTE, s->rmt_hitm }, { CL_PEER_TOTAL, s->tot_peer },
		{ CL_PEER_LOCAL, s->lcl_peer }, { CL_PEER_REMOTE, s->rmt_peer },
		{ CL_RECORDS, (long long)s->load + s->store },
		{ CL_RECORDS_PERF, (long long)c2c_records_perf(s) }, { CL_SAMPLES, s->nr_entries },
		{ CL_LOADS, s->load }, { CL_LOADS_PERF, (long long)c2c_loads_perf(s) },
		{ CL_STORES, s->store }, { CL_STORES_L1HIT, s->st_l1hit },
		{ CL_STORES_L1MISS, s->st_l1miss }, { CL_STORES_NA, s->st_na },
		{ CL_STORES_UNCACHED, s->st_uncache }, { CL_LD_FBHIT, s->ld_fbhit },
		{ CL_LD_L1HIT, s->ld_l1hit }, { CL_LD_L2HIT, s->ld_l2hit },
		{ CL_LD_LLCHIT, s->ld_llchit }, { CL_RMT_HIT, s->rmt_hit }, { CL_LCL_DRAM, s->lcl_dram },
		{ CL_RMT_DRAM, s->rmt_dram }, { CL_LOCKS, s->locks }, { CL_UNPARSABLE, s->noparse },
	};
	for (size_t i = 0; i < sizeof(m) / sizeof(*m); i++)
		table_set_int(t, m[i].col, m[i].v);
}

/* field_sites(v, f, b): f's three busiest code sites into b. */
static void field_sites(const struct hitm_view *v, const struct hitm_field *f, struct strbuf *b)
{
	const char **names = xcalloc(f->nsites + 1, sizeof(*names));
	long long *counts = xcalloc(f->nsites + 1, sizeof(*counts));
	for (size_t i = 0; i < f->nsites; i++) {
		names[i] = v->d->sites[f->sites[i].site];
		counts[i] = f->sites[i].n;
	}
	sites_text(b, names, counts, f->nsites, 3);
	free(names);
	free(counts);
}

/* mean(t, col, w, n): the mean weight w / n, NULL without samples. */
static void mean(struct table *t, int col, uint64_t w, uint32_t n)
{
	if (n)
		table_set_real(t, col, (double)w / n);
}

/* field_counts(t, cols, v, f): f's counts, CPUs and code sites into the
 * columns cols[] names (FL_* order from FL_HITM_TOTAL). */
static void field_counts(struct table *t, const int *cols, const struct hitm_view *v,
			 const struct hitm_field *f)
{
	struct strbuf b = STRBUF_INIT;
	int words = v->r->cpu_words;
	table_set_int(t, cols[0], (long long)f->c.lcl_hitm + f->c.rmt_hitm);
	table_set_int(t, cols[1], f->c.lcl_hitm);
	table_set_int(t, cols[2], f->c.rmt_hitm);
	table_set_int(t, cols[3], f->c.lcl_peer);
	table_set_int(t, cols[4], f->c.rmt_peer);
	table_set_int(t, cols[5], f->c.loads);
	table_set_int(t, cols[6], f->c.stores);
	table_set_int(t, cols[7], f->c.records);
	table_set_int(t, cols[8], cpuset_count(f->readers, words));
	cpuset_text(f->readers, words, &b);
	set_sb(t, cols[9], &b);
	table_set_int(t, cols[10], cpuset_count(f->writers, words));
	cpuset_text(f->writers, words, &b);
	set_sb(t, cols[11], &b);
	mean(t, cols[12], f->c.w_rmt, f->c.n_rmt);
	mean(t, cols[13], f->c.w_lcl, f->c.n_lcl);
	mean(t, cols[14], f->c.w_load, f->c.n_load);
	field_sites(v, f, &b);
	set_sb(t, cols[15], &b);
	sb_free(&b);
}

/* The "fields" columns field_counts fills, in its order. */
static const int fields_cols[16] = { FL_HITM_TOTAL, FL_HITM_LOCAL, FL_HITM_REMOTE, FL_PEER_LOCAL,
	FL_PEER_REMOTE, FL_LOADS, FL_STORES, FL_RECORDS, FL_READERS, FL_READER_CPUS, FL_WRITERS,
	FL_WRITER_CPUS, FL_MEAN_RMT_HITM, FL_MEAN_LCL_HITM, FL_MEAN_LOAD, FL_CODE_SITES };

/* field_row(v, hd, idx, session, f): one "fields" row. */
static void field_row(const struct hitm_view *v, struct hitm_doc *hd, long long idx,
		      int64_t session, const struct hitm_field *f)
{
	struct table *t = hd->fields;
	hitm_doc_field(hd, idx, EV_C2C, session);
	table_set_int(t, FL_LINE_OFFSET, f->line_off);
	table_set_str(t, FL_TYPE, v->r->strs[f->type]);
	table_set_str(t, FL_FIELD, v->r->strs[f->name]);
	if (f->obj >= 0) {
		const struct hobj *o = &v->om->v[f->obj];
		table_set_str(t, FL_OBJECT, o->name);
		hitm_doc_hex(t, FL_OBJECT_ADDRESS, o->addr);
		table_set_int(t, FL_OFFSET, f->foff);
		if (f->fsize > 0)
			table_set_int(t, FL_SIZE, f->fsize);
	}
	field_counts(t, fields_cols, v, f);
}

/* line_row(v, line, hd, shared): one "cachelines" row and its fields;
 * returns its idx. */
static long long line_row(const struct hitm_view *v, size_t line, struct hitm_doc *hd,
			  const struct c2c_stats *shared)
{
	const struct c2c_line *l = &v->d->lines[line];
	const struct hitm_line *hl = &v->r->lines[line];
	int64_t session = v->d->sessions[l->session];
	struct table *t = hd->lines;
	struct strbuf b = STRBUF_INIT;
	long long idx = hitm_doc_line(hd, EV_C2C, session, l->address);
	table_set_str(t, CL_CPUMODE, hitm_cpumode_name(l->cpumode));
	if (l->pid >= 0)
		table_set_int(t, CL_PID, l->pid);
	table_set_real(t, CL_PCT, pct(hitm_metric(&l->st, v->display), hitm_metric(shared, v->display)));
	line_counts(t, &l->st);
	table_set_int(t, CL_FIELDS, (long long)hl->n);
	table_set_int(t, CL_CPUS, cpuset_count(hl->cpus, v->r->cpu_words));
	cpuset_text(hl->cpus, v->r->cpu_words, &b);
	set_sb(t, CL_CPU_LIST, &b);
	table_set_str(t, CL_VERDICT, share_verdict_name(hl->verdict));
	table_set_str(t, CL_VERDICT_DETAIL, hl->detail);
	line_objects(v, line, &b);
	set_sb(t, CL_OBJECTS, &b);
	sb_free(&b);
	for (size_t k = 0; k < hl->n; k++)
		field_row(v, hd, idx, session, &v->r->fields[hl->first + k]);
	return idx;
}

/* c2c_line_rows: see hitm_c2c_tables.h. */
void c2c_line_rows(const struct hitm_view *v, const size_t *sel, size_t n, struct hitm_doc *hd,
		   long long *idx)
{
	struct c2c_stats shared;
	uint32_t nshared;
	hitm_shared_stats(v->d, &shared, &nshared);
	for (size_t i = 0; i < n; i++)
		idx[i] = line_row(v, sel[i], hd, &shared);
}

/* c2c_summary_table: see hitm_c2c_tables.h. */
struct table *c2c_summary_table(const struct hitm_view *v, const char *caption)
{
	const struct c2c_stats *s = &v->d->total;
	struct c2c_stats shared;
	uint32_t nshared;
	hitm_shared_stats(v->d, &shared, &nshared);
	const struct { const char *key, *what; long long n; } rows[] = {
		{ "samples", "memory samples", s->nr_entries },
		{ "locks", "locked loads/stores", s->locks }, { "loads", "loads", s->load },
		{ "ld_uncache", "loads uncacheable", s->ld_uncache }, { "ld_io", "loads IO", s->ld_io },
		{ "ld_miss", "loads miss", s->ld_miss },
		{ "ld_noadrs", "loads without address", s->ld_noadrs },
		{ "ld_fbhit", "load fill buffer hits", s->ld_fbhit },
		{ "ld_l1hit", "load L1D hits", s->ld_l1hit }, { "ld_l2hit", "load L2D hits", s->ld_l2hit },
		{ "ld_llchit", "load LLC hits (perf's LLC hit count adds the local HITMs)", s->ld_llchit },
		{ "hitm_total", "load HITMs", s->tot_hitm },
		{ "hitm_local", "load local HITMs", s->lcl_hitm },
		{ "hitm_remote", "load remote HITMs", s->rmt_hitm },
		{ "rmt_hit", "load remote HITs", s->rmt_hit }, { "lcl_dram", "load local DRAM", s->lcl_dram },
		{ "rmt_dram", "load remote DRAM", s->rmt_dram },
		{ "ld_excl", "load DRAM exclusive", s->ld_excl },
		{ "ld_shared", "load DRAM shared", s->ld_shared },
		{ "llc_misses", "load LLC misses", (long long)c2c_llc_misses(s) },
		{ "blk_data", "loads blocked by data", s->blk_data },
		{ "blk_addr", "loads blocked by address", s->blk_addr },
		{ "peer_local", "load local peer hits", s->lcl_peer },
		{ "peer_remote", "load remote peer hits", s->rmt_peer },
		{ "stores", "stores", s->store }, { "st_uncache", "stores uncacheable", s->st_uncache },
		{ "st_noadrs", "stores without address", s->st_noadrs },
		{ "stores_l1hit", "store L1D hits", s->st_l1hit },
		{ "stores_l1miss", "store L1D misses", s->st_l1miss },
		{ "stores_na", "stores with level N/A", s->st_na },
		{ "unparsable", "unparsable data source", s->noparse },
		{ "shared_lines", "shared cachelines", nshared },
	};
	struct table *t = table_new("summary", "Memory samples (perf c2c's trace event information)");
	table_caption(t, "%s", caption);
	table_col(t, "counter", COL_STR, 0);
	table_col(t, "what", COL_STR, 0);
	table_col(t, "count", COL_INT, 0);
	table_col_show(t, 0, SHOW_DATA);
	for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++) {
		table_add_row(t);
		table_set_str(t, 0, rows[i].key);
		table_set_str(t, 1, rows[i].what);
		table_set_int(t, 2, rows[i].n);
	}
	return t;
}

/* The columns of the types table after type, field, offset, size. */
static const char *const count_cols[16] = { "hitm_total", "hitm_local", "hitm_remote",
	"peer_local", "peer_remote", "loads", "stores", "records", "readers", "reader_cpus",
	"writers", "writer_cpus", "mean_rmt_hitm", "mean_lcl_hitm", "mean_load", "code_sites" };

/* types_columns(t, cols): the types table's columns; cols[] gets the
 * indexes of count_cols. */
static void types_columns(struct table *t, int *cols)
{
	table_col(t, "type", COL_STR, 0);
	table_col(t, "field", COL_STR, 0);
	table_col(t, "offset", COL_INT, 0);
	table_col(t, "size", COL_INT, 0);
	for (int i = 0; i < 16; i++) {
		bool str = i == 9 || i == 11 || i == 15, real = i >= 12 && i <= 14;
		cols[i] = table_col(t, count_cols[i], str ? COL_STR : real ? COL_REAL : COL_INT, 0);
		if (i == 3 || i == 4 || i == 7 || i == 8 || i == 10 || real)
			table_col_show(t, cols[i], SHOW_DATA);
	}
	table_null_text(t, "-");
}

/* c2c_types_table: see hitm_c2c_tables.h. */
struct table *c2c_types_table(const struct hitm_view *v)
{
	size_t *ix, n = hitm_type_order(v, &ix);
	struct table *t = table_new("types", v->type ? "Fields of the type, over all cachelines"
					    : "Fields with HITMs or stores, over all cachelines");
	int cols[16];
	types_columns(t, cols);
	if (v->type)
		table_caption(t, "type %s", v->type);
	for (size_t i = 0; i < n; i++) {
		const struct hitm_field *f = &v->r->tfields[ix[i]];
		table_add_row(t);
		table_set_str(t, 0, v->r->strs[f->type]);
		table_set_str(t, 1, v->r->strs[f->name]);
		if (f->foff >= 0)
			table_set_int(t, 2, f->foff);
		if (f->fsize > 0)
			table_set_int(t, 3, f->fsize);
		field_counts(t, cols, v, f);
	}
	free(ix);
	return t;
}

/* offset_row(t, v, idx, o): one row of the offsets table. */
static void offset_row(struct table *t, const struct hitm_view *v, long long idx,
		       const struct hitm_offset *o)
{
	struct strbuf b = STRBUF_INIT;
	const struct hitm_counts *c = &o->c;
	const long long counts[] = { c->rmt_hitm, c->lcl_hitm, o->st_l1hit, o->st_l1miss, o->st_na,
		c->loads, c->stores, c->records };
	table_add_row(t);
	table_set_int(t, 0, idx);
	table_set_int(t, 1, o->offset);
	table_set_str(t, 2, o->field >= 0 ? v->r->strs[v->r->fields[o->field].name] : NULL);
	for (int k = 0; k < 8; k++)
		table_set_int(t, 3 + k, counts[k]);
	table_set_str(t, 11, o->site >= 0 ? v->d->sites[o->site] : NULL);
	table_set_str(t, 12, o->pids);
	table_set_int(t, 13, o->ntids);
	table_set_int(t, 14, o->ncpus);
	cpuset_text(&o->nodes, 1, &b);
	set_sb(t, 15, &b);
	mean(t, 16, c->w_rmt, c->n_rmt);
	mean(t, 17, c->w_lcl, c->n_lcl);
	mean(t, 18, c->w_load, c->n_load);
	sb_free(&b);
}

/* c2c_offsets_table: see hitm_c2c_tables.h. */
struct table *c2c_offsets_table(const struct hitm_view *v, const size_t *sel, const long long *idx,
				size_t n)
{
	static const char *const cols[] = { "idx", "offset", "field", "hitm_remote", "hitm_local",
		"stores_l1hit", "stores_l1miss", "stores_na", "loads", "stores", "records",
		"code_site", "pids", "tids", "cpus", "nodes", "mean_rmt_hitm", "mean_lcl_hitm",
		"mean_load" };
	struct table *t = table_new("offsets", "Offsets and code sites of each cacheline");
	for (int c = 0; c < 19; c++)
		table_col(t, cols[c], c == 2 || c == 11 || c == 12 || c == 15 ? COL_STR
				      : c >= 16 ? COL_REAL : COL_INT, 0);
	table_col_show(t, 13, SHOW_DATA);
	table_null_text(t, "-");
	for (size_t i = 0; i < n; i++) {
		const struct hitm_offset *rows;
		size_t nr = hitm_offsets(v, sel[i], &rows);
		for (size_t k = 0; k < nr; k++)
			offset_row(t, v, idx[i], &rows[k]);
	}
	return t;
}
