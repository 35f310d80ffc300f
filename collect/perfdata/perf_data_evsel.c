/* perf.data reader: the event selectors. Decodes perf_event_attr bytes of any
 * size and either endianness, keeps the id -> evsel map (attr ids, ID_INDEX)
 * and gives every evsel a name (EVENT_DESC, tracepoint formats, or perf's
 * names for the generic hardware and software events). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "lib/alloc.h"
#include "lib/bytes.h"
#include "collect/perfdata/perf_data_int.h"

/* Attr sizes by ABI version; size 0 in the oldest files means 64. */
#define ATTR_SIZE_VER0 64

/* reverse_bits: the byte b with its bit order reversed. */
static uint8_t reverse_bits(uint8_t b)
{
	uint8_t r = 0;
	for (int i = 0; i < 8; i++)
		if (b & (1u << i))
			r |= (uint8_t)(0x80u >> i);
	return r;
}

/* attr_flags: the attr bitfield word at p. A foreign-endian compiler
 * allocated the bitfields from the other end of the word: with bytes in
 * place and each byte's bits reversed, every 1-bit flag lands where ours
 * is; the one multi-bit field, precise_ip (bits 15-16), then has its two
 * bits the wrong way round and is swapped back. */
static uint64_t attr_flags(const uint8_t *p, bool swap)
{
	uint8_t b[8];
	uint64_t v, lo, hi;
	memcpy(b, p, 8);
	if (swap)
		for (int i = 0; i < 8; i++)
			b[i] = reverse_bits(b[i]);
	memcpy(&v, b, 8);
	if (swap) {
		lo = v >> 15 & 1;
		hi = v >> 16 & 1;
		v = (v & ~(3ULL << 15)) | lo << 16 | hi << 15;
	}
	return v;
}

/* attr_u64: the u64 at offset off of an attr of size len, or 0 when the
 * attr is too old to have it (never reads past attr.size). */
static uint64_t attr_u64(const uint8_t *a, size_t len, size_t off, bool swap)
{
	return off + 8 <= len ? rd64(a + off, swap) : 0;
}

static uint32_t attr_u32(const uint8_t *a, size_t len, size_t off, bool swap)
{
	return off + 4 <= len ? rd32(a + off, swap) : 0;
}

/* pd_evsel_add: appends an evsel decoded from the attr at attr[0..len), len
 * being the bytes available; reads at most attr.size of them. Returns the
 * evsel, or NULL when len is below the smallest attr. */
struct pd_evsel *pd_evsel_add(struct pd_reader *r, const uint8_t *attr, size_t len)
{
	struct pd_evsel *e;
	size_t sz;

	if (len < ATTR_SIZE_VER0)
		return NULL;
	sz = rd32(attr + 4, r->swap);
	if (sz == 0)
		sz = ATTR_SIZE_VER0;
	if (sz < ATTR_SIZE_VER0 || sz > len)
		sz = len < sz ? len : sz;
	e = xcalloc(1, sizeof(*e));
	ALLOC_GROW(r->evsels, r->nr_evsels + 1, r->in->evsels_cap);
	e->idx = (int)r->nr_evsels;
	e->type = rd32(attr, r->swap);
	e->size = rd32(attr + 4, r->swap);
	e->config = attr_u64(attr, sz, 8, r->swap);
	e->sample_period = attr_u64(attr, sz, 16, r->swap);
	e->sample_type = attr_u64(attr, sz, 24, r->swap);
	e->read_format = attr_u64(attr, sz, 32, r->swap);
	e->flags = attr_flags(attr + 40, r->swap);
	e->bp_type = attr_u32(attr, sz, 52, r->swap);
	e->config1 = attr_u64(attr, sz, 56, r->swap);
	e->config2 = attr_u64(attr, sz, 64, r->swap);
	e->branch_sample_type = attr_u64(attr, sz, 72, r->swap);
	e->sample_regs_user = attr_u64(attr, sz, 80, r->swap);
	e->sample_stack_user = attr_u32(attr, sz, 88, r->swap);
	e->sample_regs_intr = attr_u64(attr, sz, 96, r->swap);
	r->evsels[r->nr_evsels++] = e;
	return e;
}

/* pd_evsel_add_ids: records ids as belonging to e (and in the id map). */
void pd_evsel_add_ids(struct pd_reader *r, struct pd_evsel *e, const uint64_t *ids, size_t n)
{
	e->ids = xreallocarray(e->ids, e->nr_ids + n, sizeof(*e->ids));
	r->in->ids_total += n;
	for (size_t i = 0; i < n; i++) {
		e->ids[e->nr_ids++] = ids[i];
		pd_id_map(r, ids[i], e);
	}
}

/* id_slot: the slot of id in the open-addressing table (found or empty). */
static size_t id_slot(const struct pd_internal *in, uint64_t id)
{
	size_t mask = in->id_cap - 1;
	size_t i = (size_t)((id * 0x9E3779B97F4A7C15ULL) >> 17) & mask;
	while (in->id_vals[i] && in->id_keys[i] != id)
		i = (i + 1) & mask;
	return i;
}

/* id_grow: doubles the id table, rehashing what it holds. */
static void id_grow(struct pd_internal *in)
{
	size_t old = in->id_cap, ncap = old ? old * 2 : 64;
	uint64_t *ok = in->id_keys;
	struct pd_evsel **ov = in->id_vals;
	in->id_keys = xcalloc(ncap, sizeof(*ok));
	in->id_vals = xcalloc(ncap, sizeof(*ov));
	in->id_cap = ncap;
	for (size_t i = 0; i < old; i++)
		if (ov[i]) {
			size_t s = id_slot(in, ok[i]);
			in->id_keys[s] = ok[i];
			in->id_vals[s] = ov[i];
		}
	free(ok);
	free(ov);
}

/* pd_id_map: maps sample id -> e (a later mapping of the same id wins). */
void pd_id_map(struct pd_reader *r, uint64_t id, struct pd_evsel *e)
{
	struct pd_internal *in = r->in;
	size_t s;
	if ((in->id_count + 1) * 2 > in->id_cap)
		id_grow(in);
	s = id_slot(in, id);
	if (!in->id_vals[s])
		in->id_count++;
	in->id_keys[s] = id;
	in->id_vals[s] = e;
}

/* pd_id_lookup: the evsel of a sample id, or NULL when unknown. */
struct pd_evsel *pd_id_lookup(const struct pd_reader *r, uint64_t id)
{
	const struct pd_internal *in = r->in;
	if (!in->id_cap)
		return NULL;
	return in->id_vals[id_slot(in, id)];
}

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

/* generic_name: perf's name for e's (type, config) into buf. */
static void generic_name(const struct pd_reader *r, const struct pd_evsel *e,
			 char *buf, size_t len)
{
	struct tep_event *tp = NULL;
	if (e->type == 2 && r->tep)
		tp = tep_find_event(r->tep, (int)e->config);
	if (tp)
		snprintf(buf, len, "%s:%s", tp->system, tp->name);
	else if (e->type == 0 && e->config < sizeof(hw_names) / sizeof(*hw_names))
		snprintf(buf, len, "%s", hw_names[e->config]);
	else if (e->type == 1 && e->config < sizeof(sw_names) / sizeof(*sw_names))
		snprintf(buf, len, "%s", sw_names[e->config]);
	else if (e->type == 5)
		snprintf(buf, len, "mem:0x%llx:%s%s", (unsigned long long)e->config1,
			 e->bp_type & 1 ? "r" : "", e->bp_type & 2 ? "w" : "");
	else if (e->type == 4)
		snprintf(buf, len, "r%llx", (unsigned long long)e->config);
	else
		snprintf(buf, len, "type%u/config=0x%llx", e->type,
			 (unsigned long long)e->config);
}

/* desc_by_id: maps every EVENT_DESC id to the first event listing it. */
static void desc_by_id(const struct pd_features *f, struct hashmap *m)
{
	uint64_t have;
	for (size_t i = 0; i < f->nr_events; i++)
		for (size_t j = 0; j < f->events[i].nr_ids; j++)
			if (!hm_get(m, f->events[i].ids[j], 0, &have))
				hm_put(m, f->events[i].ids[j], 0, i);
}

/* desc_name: the EVENT_DESC name of e: of the first event sharing an id
 * with it (by ids, the map of desc_by_id), or by position when the file
 * lists no ids; NULL when there is none. */
static const char *desc_name(const struct pd_reader *r, const struct pd_evsel *e,
			     const struct hashmap *by_id)
{
	const struct pd_features *f = &r->features;
	uint64_t idx, best = UINT64_MAX;
	for (size_t k = 0; k < e->nr_ids; k++)
		if (hm_get(by_id, e->ids[k], 0, &idx) && idx < best)
			best = idx;
	if (best != UINT64_MAX)
		return f->events[best].name;
	if (f->nr_events == r->nr_evsels && f->events[e->idx].name)
		return f->events[e->idx].name;
	return NULL;
}

/* pd_evsels_name: names every evsel that has no name yet. */
void pd_evsels_name(struct pd_reader *r)
{
	struct hashmap by_id;
	char buf[256];
	hm_init(&by_id);
	desc_by_id(&r->features, &by_id);
	for (size_t i = 0; i < r->nr_evsels; i++) {
		struct pd_evsel *e = r->evsels[i];
		const char *d;
		if (e->name)
			continue;
		d = desc_name(r, e, &by_id);
		if (!d || !*d) {
			generic_name(r, e, buf, sizeof(buf));
			d = buf;
		}
		e->name = xstrdup(d);
	}
	hm_free(&by_id);
}

/* pd_evsels_free: frees every evsel and the id map. */
void pd_evsels_free(struct pd_reader *r)
{
	for (size_t i = 0; i < r->nr_evsels; i++) {
		free(r->evsels[i]->name);
		free(r->evsels[i]->ids);
		free(r->evsels[i]);
	}
	free(r->evsels);
	r->evsels = NULL;
	r->nr_evsels = 0;
	if (r->in)
		r->in->evsels_cap = 0;
	if (r->in) {
		free(r->in->id_keys);
		free(r->in->id_vals);
		r->in->id_keys = NULL;
		r->in->id_vals = NULL;
		r->in->id_cap = r->in->id_count = r->in->ids_total = 0;
	}
}
