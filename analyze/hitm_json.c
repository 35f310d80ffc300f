/* The JSON document of `perfdb hitm --format json` (see hitm_out.h):
 *   { "sessions": [...], "events": [...], "display": "tot",
 *     "totals": { perf c2c's trace event counters },
 *     "shared_lines": N, "cachelines": [ per shown line: "index",
 *       "address" (hex), counts, "cpus", "nodes", "pids", "verdict",
 *       "verdict_detail", "objects", "fields": [...], "offsets": [...] ],
 *     "types": [ per-type fields ], "notes": [...] } */
#include "analyze/hitm_out_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* kv(j, k, v): one integer member. */
static void kv(struct json *j, const char *k, long long v)
{
	json_key(j, k);
	json_int(j, v);
}

/* kstr(j, k, v): one string member. */
static void kstr(struct json *j, const char *k, const char *v)
{
	json_key(j, k);
	json_str(j, v);
}

/* hex(j, v): v as a "0x..." string value. */
static void hex(struct json *j, uint64_t v)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	json_str(j, buf);
}

/* khex(j, k, v): one member holding v as a "0x..." string. */
static void khex(struct json *j, const char *k, uint64_t v)
{
	json_key(j, k);
	hex(j, v);
}

/* kmean(j, k, w, n): a mean latency member, null without samples. */
static void kmean(struct json *j, const char *k, uint64_t w, uint32_t n)
{
	json_key(j, k);
	if (n)
		json_real(j, (double)w / n);
	else
		json_null(j);
}

/* cpus_array(j, k, s, words): a CPU bitset as an array of numbers. */
static void cpus_array(struct json *j, const char *k, const uint64_t *s, int words)
{
	json_key(j, k);
	json_begin_array(j);
	for (int c = 0; c < words * 64; c++)
		if (s[c / 64] >> (c % 64) & 1)
			json_int(j, c);
	json_end_array(j);
}

/* totals(j, s): perf c2c's counters of s. */
static void totals(struct json *j, const struct c2c_stats *s)
{
	const struct { const char *k; long long v; } m[] = {
		{ "samples", s->nr_entries }, { "locks", s->locks }, { "loads", s->load },
		{ "ld_uncache", s->ld_uncache }, { "ld_io", s->ld_io }, { "ld_miss", s->ld_miss },
		{ "ld_noadrs", s->ld_noadrs }, { "ld_fbhit", s->ld_fbhit }, { "ld_l1hit", s->ld_l1hit },
		{ "ld_l2hit", s->ld_l2hit }, { "ld_llchit", s->ld_llchit }, { "hitm_total", s->tot_hitm },
		{ "hitm_local", s->lcl_hitm }, { "hitm_remote", s->rmt_hitm }, { "rmt_hit", s->rmt_hit },
		{ "lcl_dram", s->lcl_dram }, { "rmt_dram", s->rmt_dram }, { "ld_excl", s->ld_excl },
		{ "ld_shared", s->ld_shared }, { "llc_misses", (long long)c2c_llc_misses(s) },
		{ "blk_data", s->blk_data }, { "blk_addr", s->blk_addr }, { "peer_local", s->lcl_peer },
		{ "peer_remote", s->rmt_peer }, { "stores", s->store }, { "st_uncache", s->st_uncache },
		{ "st_noadrs", s->st_noadrs }, { "stores_l1hit", s->st_l1hit },
		{ "stores_l1miss", s->st_l1miss }, { "stores_na", s->st_na }, { "unparsable", s->noparse },
	};
	for (size_t i = 0; i < sizeof(m) / sizeof(*m); i++)
		kv(j, m[i].k, m[i].v);
}

/* line_counts(j, s): a line's counters. */
static void line_counts(struct json *j, const struct c2c_stats *s)
{
	const struct { const char *k; long long v; } m[] = {
		{ "hitm_total", s->tot_hitm }, { "hitm_local", s->lcl_hitm },
		{ "hitm_remote", s->rmt_hitm }, { "peer_total", s->tot_peer },
		{ "peer_local", s->lcl_peer }, { "peer_remote", s->rmt_peer },
		{ "records", (long long)s->load + s->store },
		{ "records_perf", (long long)c2c_records_perf(s) }, { "samples", s->nr_entries },
		{ "loads", s->load }, { "loads_perf", (long long)c2c_loads_perf(s) },
		{ "stores", s->store }, { "stores_l1hit", s->st_l1hit },
		{ "stores_l1miss", s->st_l1miss }, { "stores_na", s->st_na },
		{ "stores_uncached", s->st_uncache }, { "ld_fbhit", s->ld_fbhit },
		{ "ld_l1hit", s->ld_l1hit }, { "ld_l2hit", s->ld_l2hit }, { "ld_llchit", s->ld_llchit },
		{ "rmt_hit", s->rmt_hit }, { "lcl_dram", s->lcl_dram }, { "rmt_dram", s->rmt_dram },
		{ "locks", s->locks }, { "unparsable", s->noparse },
	};
	for (size_t i = 0; i < sizeof(m) / sizeof(*m); i++)
		kv(j, m[i].k, m[i].v);
}

/* field_counts(j, v, f): a field's counts, CPUs and code sites. */
static void field_counts(struct json *j, const struct hitm_view *v, const struct hitm_field *f)
{
	kv(j, "hitm_total", (long long)f->c.lcl_hitm + f->c.rmt_hitm);
	kv(j, "hitm_local", f->c.lcl_hitm);
	kv(j, "hitm_remote", f->c.rmt_hitm);
	kv(j, "peer_local", f->c.lcl_peer);
	kv(j, "peer_remote", f->c.rmt_peer);
	kv(j, "loads", f->c.loads);
	kv(j, "stores", f->c.stores);
	kv(j, "records", f->c.records);
	kmean(j, "mean_rmt_hitm", f->c.w_rmt, f->c.n_rmt);
	kmean(j, "mean_lcl_hitm", f->c.w_lcl, f->c.n_lcl);
	kmean(j, "mean_load", f->c.w_load, f->c.n_load);
	cpus_array(j, "reader_cpus", f->readers, v->r->cpu_words);
	cpus_array(j, "writer_cpus", f->writers, v->r->cpu_words);
	json_key(j, "code_sites");
	json_begin_array(j);
	for (size_t i = 0; i < f->nsites; i++) {
		json_begin_object(j);
		kstr(j, "site", v->d->sites[f->sites[i].site]);
		kv(j, "count", f->sites[i].n);
		json_end_object(j);
	}
	json_end_array(j);
}

/* field_head(j, v, f): a field's type, name, offset and size. */
static void field_head(struct json *j, const struct hitm_view *v, const struct hitm_field *f)
{
	kstr(j, "type", v->r->strs[f->type]);
	kstr(j, "field", v->r->strs[f->name]);
	json_key(j, "offset");
	if (f->foff >= 0)
		json_int(j, f->foff);
	else
		json_null(j);
	json_key(j, "size");
	if (f->fsize > 0)
		json_int(j, f->fsize);
	else
		json_null(j);
}

/* line_fields(j, v, line): a line's fields. */
static void line_fields(struct json *j, const struct hitm_view *v, size_t line)
{
	const struct hitm_line *hl = &v->r->lines[line];
	json_key(j, "fields");
	json_begin_array(j);
	for (size_t i = 0; i < hl->n; i++) {
		const struct hitm_field *f = &v->r->fields[hl->first + i];
		json_begin_object(j);
		field_head(j, v, f);
		kv(j, "line_offset", f->line_off);
		json_key(j, "object");
		json_str(j, f->obj >= 0 ? v->om->v[f->obj].name : NULL);
		json_key(j, "object_address");
		if (f->obj >= 0)
			hex(j, v->om->v[f->obj].addr);
		else
			json_null(j);
		field_counts(j, v, f);
		json_end_object(j);
	}
	json_end_array(j);
}

/* line_offsets(j, v, line): a line's offsets and code sites. */
static void line_offsets(struct json *j, const struct hitm_view *v, size_t line)
{
	struct hitm_offset *rows;
	size_t n = hitm_offsets(v, line, &rows);
	json_key(j, "offsets");
	json_begin_array(j);
	for (size_t i = 0; i < n; i++) {
		const struct hitm_offset *o = &rows[i];
		json_begin_object(j);
		kv(j, "offset", o->offset);
		kstr(j, "field", o->field >= 0 ? v->r->strs[v->r->fields[o->field].name] : NULL);
		json_key(j, "code_site");
		json_str(j, o->site >= 0 ? v->d->sites[o->site] : NULL);
		kv(j, "hitm_remote", o->c.rmt_hitm);
		kv(j, "hitm_local", o->c.lcl_hitm);
		kv(j, "stores_l1hit", o->st_l1hit);
		kv(j, "stores_l1miss", o->st_l1miss);
		kv(j, "stores_na", o->st_na);
		kv(j, "loads", o->c.loads);
		kv(j, "stores", o->c.stores);
		kv(j, "records", o->c.records);
		kstr(j, "pids", o->pids);
		kv(j, "tids", o->ntids);
		kv(j, "cpus", o->ncpus);
		cpus_array(j, "nodes", &o->nodes, 1);
		kmean(j, "mean_rmt_hitm", o->c.w_rmt, o->c.n_rmt);
		kmean(j, "mean_lcl_hitm", o->c.w_lcl, o->c.n_lcl);
		kmean(j, "mean_load", o->c.w_load, o->c.n_load);
		json_end_object(j);
	}
	json_end_array(j);
	free(rows);
}

/* line_nodes_pids(j, v, line): the NUMA nodes and pids of a line. */
static void line_nodes_pids(struct json *j, const struct hitm_view *v, size_t line)
{
	const struct c2c_line *l = &v->d->lines[line];
	uint64_t nodes = 0;
	int32_t pids[64];
	int np = 0;
	for (size_t i = 0; i < l->n; i++) {
		const struct c2c_sample *s = &v->d->v[l->idx[i]];
		bool seen = false;
		if (s->node >= 0 && s->node < 64)
			nodes |= 1ULL << s->node;
		for (int k = 0; k < np; k++)
			seen |= pids[k] == s->pid;
		if (!seen && np < 64)
			pids[np++] = s->pid;
	}
	cpus_array(j, "nodes", &nodes, 1);
	json_key(j, "pids");
	json_begin_array(j);
	for (int k = 0; k < np; k++)
		json_int(j, pids[k]);
	json_end_array(j);
}

/* line_objects(j, v, line): the objects a line's samples fell in. */
static void line_objects(struct json *j, const struct hitm_view *v, size_t line)
{
	const struct hitm_line *hl = &v->r->lines[line];
	json_key(j, "objects");
	json_begin_array(j);
	for (size_t i = 0; i < hl->n; i++) {
		int32_t o = v->r->fields[hl->first + i].obj;
		bool dup = false;
		for (size_t k = 0; k < i; k++)
			dup |= v->r->fields[hl->first + k].obj == o;
		if (dup || o < 0)
			continue;
		json_begin_object(j);
		kstr(j, "type", v->om->v[o].type[0] ? v->om->v[o].type : NULL);
		kstr(j, "name", v->om->v[o].name);
		khex(j, "address", v->om->v[o].addr);
		kv(j, "size", (long long)v->om->v[o].size);
		json_end_object(j);
	}
	json_end_array(j);
}

/* one_line(j, v, idx, line, shared): a shown cacheline. */
static void one_line(struct json *j, const struct hitm_view *v, size_t idx, size_t line,
		     const struct c2c_stats *shared)
{
	const struct c2c_line *l = &v->d->lines[line];
	const struct hitm_line *hl = &v->r->lines[line];
	uint32_t tot = hitm_metric(shared, v->display);
	json_begin_object(j);
	kv(j, "index", (long long)idx);
	khex(j, "address", l->address);
	kv(j, "session", v->d->sessions[l->session]);
	kstr(j, "cpumode", hitm_cpumode_name(l->cpumode));
	json_key(j, "pid");
	if (l->pid >= 0)
		json_int(j, l->pid);
	else
		json_null(j);
	json_key(j, "pct");
	json_real(j, tot ? 100.0 * hitm_metric(&l->st, v->display) / tot : 0);
	line_counts(j, &l->st);
	cpus_array(j, "cpus", hl->cpus, v->r->cpu_words);
	line_nodes_pids(j, v, line);
	kstr(j, "verdict", hitm_verdict_name(hl->verdict));
	kstr(j, "verdict_detail", hl->detail);
	line_objects(j, v, line);
	line_fields(j, v, line);
	line_offsets(j, v, line);
	json_end_object(j);
}

/* types(j, v): the per-type fields. */
static void types(struct json *j, const struct hitm_view *v)
{
	size_t *ix, n = hitm_type_order(v, &ix);
	json_key(j, "types");
	json_begin_array(j);
	for (size_t i = 0; i < n; i++) {
		const struct hitm_field *f = &v->r->tfields[ix[i]];
		json_begin_object(j);
		field_head(j, v, f);
		field_counts(j, v, f);
		json_end_object(j);
	}
	json_end_array(j);
	free(ix);
}

/* head(j, v): sessions, events and display. */
static void head(struct json *j, const struct hitm_view *v)
{
	json_key(j, "sessions");
	json_begin_array(j);
	for (size_t i = 0; i < v->d->nsessions; i++)
		json_int(j, v->d->sessions[i]);
	json_end_array(j);
	json_key(j, "events");
	json_begin_array(j);
	for (size_t i = 0; i < v->d->nevents; i++)
		json_str(j, v->d->events[i]);
	json_end_array(j);
	static const char *const disp[] = { "tot", "lcl", "rmt", "peer" };
	kstr(j, "display", disp[v->display]);
	json_key(j, "show_all");
	json_bool(j, v->show_all);
	json_key(j, "type");
	json_str(j, v->type);
}

/* hitm_print_json: see hitm_out_int.h. */
int hitm_print_json(const struct hitm_view *v, const size_t *sel, size_t n, FILE *out)
{
	struct json *j = json_new(out, true);
	struct c2c_stats shared;
	uint32_t nshared;
	hitm_shared_stats(v->d, &shared, &nshared);
	json_begin_object(j);
	head(j, v);
	json_key(j, "totals");
	json_begin_object(j);
	totals(j, &v->d->total);
	json_end_object(j);
	kv(j, "shared_lines", nshared);
	json_key(j, "cachelines");
	json_begin_array(j);
	for (size_t i = 0; i < n; i++)
		one_line(j, v, i, sel[i], &shared);
	json_end_array(j);
	types(j, v);
	json_key(j, "notes");
	json_begin_array(j);
	for (int i = 0; i < v->nnotes; i++)
		json_str(j, v->notes[i]);
	json_end_array(j);
	json_end_object(j);
	json_free(j);
	return ferror(out) ? -1 : 0;
}
