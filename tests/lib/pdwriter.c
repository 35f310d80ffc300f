/* pdwriter: a perf.data writer for test fixtures. See pdwriter.h. */
#include "tests/lib/pdwriter.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define FILE_HEADER_SIZE	104
#define PIPE_HEADER_SIZE	16
#define MAX_RECORD		65535
#define ZCHUNK			(32u << 10)	/* input per COMPRESSED record, at most */
#define ATTR_KNOWN		136		/* bytes of perf_event_attr pdw fills in */
#define NAME_ALIGN		64

struct buf {
	uint8_t *p;
	size_t n, cap;
};

struct evsel {
	struct pdw_attr a;		/* a.ids and a.name owned */
	uint64_t bst, regs_user, regs_intr;	/* as a reader sees them */
};

struct pdw {
	struct pdw_opts o;
	bool be;
	char err[256];
	struct evsel *ev;
	size_t nr_ev, ev_cap;	/* ev grows by doubling: a fixture may hold 65k attrs */
	struct buf feat[256];
	bool has_feat[256], event_desc;
	struct buf head;		/* pipe: header records */
	struct buf data;		/* the record stream */
	bool frozen, finished;
	uint64_t data_offset;
	/* compression */
	bool zon, zused;
	uint32_t ztype;
	ZSTD_CCtx *cctx;
	struct buf zpend;
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "pdwriter: out of memory\n");
		abort();
	}
	return p;
}

static int fail(struct pdw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct pdw *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->err, sizeof(w->err), fmt, ap);
	va_end(ap);
	return -1;
}

const char *pdw_error(const struct pdw *w)
{
	return w->err;
}

/* ---- byte buffers in the file's order ---- */

static void b_room(struct buf *b, size_t n)
{
	if (b->n + n <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->n + n)
		cap *= 2;
	b->p = xrealloc(b->p, cap);
	b->cap = cap;
}

static void b_bytes(struct buf *b, const void *p, size_t n)
{
	b_room(b, n);
	if (n)
		memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void b_zero(struct buf *b, size_t n)
{
	b_room(b, n);
	memset(b->p + b->n, 0, n);
	b->n += n;
}

/* put_int: the low size bytes of v at p, in the chosen order. */
static void put_int(uint8_t *p, uint64_t v, int size, bool be)
{
	for (int i = 0; i < size; i++)
		p[i] = (uint8_t)(v >> (8 * (be ? size - 1 - i : i)));
}

static void b_int(struct buf *b, uint64_t v, int size, bool be)
{
	b_room(b, (size_t)size);
	put_int(b->p + b->n, v, size, be);
	b->n += (size_t)size;
}

static void b_u16(struct pdw *w, struct buf *b, uint16_t v) { b_int(b, v, 2, w->be); }
static void b_u32(struct pdw *w, struct buf *b, uint32_t v) { b_int(b, v, 4, w->be); }
static void b_u64(struct pdw *w, struct buf *b, uint64_t v) { b_int(b, v, 8, w->be); }

static void b_pad8(struct buf *b, size_t from)
{
	b_zero(b, (8 - (b->n - from) % 8) % 8);
}

/* b_str: a perf_header_string: u32 len (NUL included, rounded up to 64),
 * then the string, NUL padded. */
static void b_str(struct pdw *w, struct buf *b, const char *s)
{
	size_t l = strlen(s), len = (l + 1 + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
	b_u32(w, b, (uint32_t)len);
	b_bytes(b, s, l);
	b_zero(b, len - l);
}

static void b_strlist(struct pdw *w, struct buf *b, const char *const *v, uint32_t n)
{
	b_u32(w, b, n);
	for (uint32_t i = 0; i < n; i++)
		b_str(w, b, v[i]);
}

/* ---- attrs ---- */

void pdw_attr_flags_bytes(uint64_t flags, bool big_endian, uint8_t out[8])
{
	uint64_t v = 0;
	int s = 0;
	if (!big_endian) {
		put_int(out, flags, 8, false);
		return;
	}
	/* A big-endian compiler allocates each field from the most
	 * significant end; a field's own bits keep their order, so a 2-bit
	 * field is not mirrored (precise_ip 2 = binary 10 stays 10). */
	while (s < 64) {
		int width = s == 15 ? 2 : s == 38 ? 26 : 1;	/* precise_ip, __reserved_1 */
		uint64_t f = (flags >> s) & ((1ULL << width) - 1);
		v |= f << (64 - s - width);
		s += width;
	}
	put_int(out, v, 8, true);
}

void pdw_attr_bytes(const struct pdw_attr *a, bool be, uint8_t *out, size_t room)
{
	uint8_t t[ATTR_KNOWN];
	uint32_t size = a->size ? a->size : 128;
	memset(t, 0, sizeof(t));
	put_int(t + 0, a->type, 4, be);
	put_int(t + 4, size, 4, be);
	put_int(t + 8, a->config, 8, be);
	put_int(t + 16, a->sample_period, 8, be);
	put_int(t + 24, a->sample_type, 8, be);
	put_int(t + 32, a->read_format, 8, be);
	pdw_attr_flags_bytes(a->flags, be, t + 40);
	put_int(t + 48, a->wakeup_events, 4, be);
	put_int(t + 52, a->bp_type, 4, be);
	put_int(t + 56, a->config1, 8, be);
	put_int(t + 64, a->config2, 8, be);
	put_int(t + 72, a->branch_sample_type, 8, be);
	put_int(t + 80, a->sample_regs_user, 8, be);
	put_int(t + 88, a->sample_stack_user, 4, be);
	put_int(t + 92, (uint32_t)a->clockid, 4, be);
	put_int(t + 96, a->sample_regs_intr, 8, be);
	put_int(t + 104, a->aux_watermark, 4, be);
	put_int(t + 108, a->sample_max_stack, 2, be);
	put_int(t + 112, a->aux_sample_size, 4, be);
	put_int(t + 120, a->sig_data, 8, be);
	put_int(t + 128, a->config3, 8, be);
	size_t n = size < room ? size : room;
	memset(out, 0, room);
	memcpy(out, t, n < ATTR_KNOWN ? n : ATTR_KNOWN);
}

static uint32_t attr_size(const struct evsel *e)
{
	return e->a.size;
}

static void b_attr(struct pdw *w, struct buf *b, const struct evsel *e, uint32_t room)
{
	b_room(b, room);
	pdw_attr_bytes(&e->a, w->be, b->p + b->n, room);
	b->n += room;
}

int pdw_add_attr(struct pdw *w, const struct pdw_attr *a)
{
	struct evsel *e;
	if (w->frozen)
		return fail(w, "attrs must be added before the first record");
	if (w->nr_ev == w->ev_cap) {
		w->ev_cap = w->ev_cap ? 2 * w->ev_cap : 8;
		w->ev = xrealloc(w->ev, w->ev_cap * sizeof(*w->ev));
	}
	e = &w->ev[w->nr_ev];
	e->a = *a;
	if (!e->a.size)
		e->a.size = w->o.attr_size ? w->o.attr_size : 128;
	if (e->a.size < 64 || e->a.size > 4096)
		return fail(w, "attr.size %u is out of range", e->a.size);
	e->a.ids = NULL;
	if (a->nr_ids) {
		uint64_t *ids = xrealloc(NULL, a->nr_ids * sizeof(*ids));
		memcpy(ids, a->ids, a->nr_ids * sizeof(*ids));
		e->a.ids = ids;
	}
	e->a.name = NULL;
	if (a->name) {
		char *n = xrealloc(NULL, strlen(a->name) + 1);
		strcpy(n, a->name);
		e->a.name = n;
	}
	/* what a reader can see of the layout fields */
	e->bst = e->a.size >= 80 ? e->a.branch_sample_type : 0;
	e->regs_user = e->a.size >= 88 ? e->a.sample_regs_user : 0;
	e->regs_intr = e->a.size >= 104 ? e->a.sample_regs_intr : 0;
	return (int)w->nr_ev++;
}

/* ---- writer ---- */

struct pdw *pdw_new(const struct pdw_opts *opts)
{
	struct pdw *w = xrealloc(NULL, sizeof(*w));
	memset(w, 0, sizeof(*w));
	if (opts)
		w->o = *opts;
	w->be = w->o.big_endian;
	if (!w->o.tracing_rec_size)
		w->o.tracing_rec_size = 12;
	if (!w->o.zstd_level)
		w->o.zstd_level = 1;
	return w;
}

void pdw_free(struct pdw *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nr_ev; i++) {
		free((void *)w->ev[i].a.ids);
		free((void *)w->ev[i].a.name);
	}
	free(w->ev);
	for (int i = 0; i < 256; i++)
		free(w->feat[i].p);
	free(w->head.p);
	free(w->data.p);
	free(w->zpend.p);
	if (w->cctx)
		ZSTD_freeCCtx(w->cctx);
	free(w);
}

/* ---- features ---- */

static struct buf *feat_begin(struct pdw *w, int id)
{
	if (id <= 0 || id > 255)
		return NULL;
	if (w->frozen && w->o.pipe)
		return NULL;
	w->feat[id].n = 0;
	w->has_feat[id] = true;
	return &w->feat[id];
}

#define FEAT_BEGIN(b, w, id) do { if (!((b) = feat_begin(w, id))) \
	return fail(w, "feature %d: bad id, or pipe-mode features after the first record", id); } while (0)

int pdw_feat_string(struct pdw *w, int id, const char *s)
{
	struct buf *b;
	FEAT_BEGIN(b, w, id);
	b_str(w, b, s);
	return 0;
}

int pdw_feat_nrcpus(struct pdw *w, uint32_t avail, uint32_t online)
{
	struct buf *b;
	FEAT_BEGIN(b, w, PDW_FEAT_NRCPUS);
	b_u32(w, b, avail);
	b_u32(w, b, online);
	return 0;
}

int pdw_feat_total_mem(struct pdw *w, uint64_t kb)
{
	struct buf *b;
	FEAT_BEGIN(b, w, PDW_FEAT_TOTAL_MEM);
	b_u64(w, b, kb);
	return 0;
}

int pdw_feat_cmdline(struct pdw *w, int argc, const char *const *argv)
{
	struct buf *b;
	FEAT_BEGIN(b, w, PDW_FEAT_CMDLINE);
	b_strlist(w, b, argv, (uint32_t)argc);
	return 0;
}

int pdw_feat_event_desc(struct pdw *w)
{
	struct buf *b;
	FEAT_BEGIN(b, w, PDW_FEAT_EVENT_DESC);
	w->event_desc = true;	/* encoded when the attrs are final */
	return 0;
}

/* enc_event_desc: u32 nr, u32 attr size, then per event the attr, u32
 * nr_ids, its name, its ids. */
static void enc_event_desc(struct pdw *w)
{
	struct buf *b = &w->feat[PDW_FEAT_EVENT_DESC];
	uint32_t sz = 0;
	b->n = 0;
	for (size_t i = 0; i < w->nr_ev; i++)
		if (attr_size(&w->ev[i]) > sz)
			sz = attr_size(&w->ev[i]);
	b_u32(w, b, (uint32_t)w->nr_ev);
	b_u32(w, b, sz);
	for (size_t i = 0; i < w->nr_ev; i++) {
		const struct evsel *e = &w->ev[i];
		b_attr(w, b, e, sz);
		b_u32(w, b, (uint32_t)e->a.nr_ids);
		b_str(w, b, e->a.name ? e->a.name : "");
		for (size_t j = 0; j < e->a.nr_ids; j++)
			b_u64(w, b, e->a.ids[j]);
	}
}

int pdw_feat_cpu_topology(struct pdw *w, const char *const *cores, uint32_t nr_cores,
			  const char *const *threads, uint32_t nr_threads,
			  const struct pdw_cpu_ids *cpus, uint32_t nr_cpus,
			  const char *const *dies, uint32_t nr_dies,
			  const uint32_t *die_ids)
{
	struct buf *b;
	FEAT_BEGIN(b, w, PDW_FEAT_CPU_TOPOLOGY);
	b_strlist(w, b, cores, nr_cores);
	b_strlist(w, b, threads, nr_threads);
	if (!cpus)
		return 0;
	for (uint32_t i = 0; i < nr_cpus; i++) {
		b_u32(w, b, cpus[i].core_id);
		b_u32(w, b, cpus[i].socket_id);
	}
	if (!dies)
		return 0;
	b_strlist(w, b, dies, nr_dies);
	for (uint32_t i = 0; i < nr_cpus; i++)
		b_u32(w, b, die_ids[i]);
	return 0;
}

int pdw_feat_numa(struct pdw *w, const struct pdw_numa_node *nodes, uint32_t n)
{
	struct buf *b;
	FEAT_BEGIN(b, w, PDW_FEAT_NUMA_TOPOLOGY);
	b_u32(w, b, n);
	for (uint32_t i = 0; i < n; i++) {
		b_u32(w, b, nodes[i].node);
		b_u64(w, b, nodes[i].mem_total);
		b_u64(w, b, nodes[i].mem_free);
		b_str(w, b, nodes[i].cpus);
	}
	return 0;
}

int pdw_feat_sample_time(struct pdw *w, uint64_t first, uint64_t last)
{
	struct buf *b;
	FEAT_BEGIN(b, w, PDW_FEAT_SAMPLE_TIME);
	b_u64(w, b, first);
	b_u64(w, b, last);
	return 0;
}

int pdw_feat_compressed(struct pdw *w, uint32_t version, uint32_t type,
			uint32_t level, uint32_t ratio, uint32_t mmap_len)
{
	struct buf *b;
	FEAT_BEGIN(b, w, PDW_FEAT_COMPRESSED);
	b_u32(w, b, version);
	b_u32(w, b, type);
	b_u32(w, b, level);
	b_u32(w, b, ratio);
	b_u32(w, b, mmap_len);
	return 0;
}

int pdw_feat_tracing_data(struct pdw *w, const void *blob, size_t len)
{
	return pdw_feat_raw(w, PDW_FEAT_TRACING_DATA, blob, len);
}

int pdw_feat_raw(struct pdw *w, int id, const void *bytes, size_t len)
{
	struct buf *b;
	FEAT_BEGIN(b, w, id);
	b_bytes(b, bytes, len);
	return 0;
}

/* ---- layout ---- */

/* hdr_rec: a header-material record (pipe mode): header, then body. */
static void rec_begin(struct pdw *w, struct buf *b, uint32_t type, uint16_t misc)
{
	b_u32(w, b, type);
	b_u16(w, b, misc);
	b_u16(w, b, 0);
}

static int rec_end(struct pdw *w, struct buf *b, size_t start)
{
	size_t n = b->n - start;
	if (n > MAX_RECORD)
		return fail(w, "record of %zu bytes exceeds 64 KiB", n);
	put_int(b->p + start + 6, n, 2, w->be);
	return 0;
}

static int pipe_attrs(struct pdw *w)
{
	for (size_t i = 0; i < w->nr_ev; i++) {
		const struct evsel *e = &w->ev[i];
		size_t start = w->head.n;
		rec_begin(w, &w->head, PDW_HEADER_ATTR, 0);
		b_attr(w, &w->head, e, attr_size(e));
		for (size_t j = 0; j < e->a.nr_ids; j++)
			b_u64(w, &w->head, e->a.ids[j]);
		if (rec_end(w, &w->head, start))
			return -1;
	}
	return 0;
}

static int pipe_features(struct pdw *w)
{
	if (w->event_desc)
		enc_event_desc(w);
	for (int id = 2; id < 256; id++) {
		size_t start = w->head.n;
		if (!w->has_feat[id])
			continue;
		rec_begin(w, &w->head, PDW_HEADER_FEATURE, 0);
		b_u64(w, &w->head, (uint64_t)id);
		b_bytes(&w->head, w->feat[id].p, w->feat[id].n);	/* unpadded, as perf */
		if (rec_end(w, &w->head, start))
			return -1;
	}
	return 0;
}

/* pipe_tracing: HEADER_TRACING_DATA {header, u32 size[, u32 pad]} with
 * header.size 12 or 16, then the blob and zeros up to size. */
static void pipe_tracing(struct pdw *w)
{
	const struct buf *t = &w->feat[PDW_FEAT_TRACING_DATA];
	size_t aligned = (t->n + 7) / 8 * 8, start = w->head.n;
	if (!w->has_feat[PDW_FEAT_TRACING_DATA])
		return;
	rec_begin(w, &w->head, PDW_HEADER_TRACING_DATA, 0);
	b_u32(w, &w->head, (uint32_t)aligned);
	if (w->o.tracing_rec_size >= 16)
		b_u32(w, &w->head, 0);
	put_int(w->head.p + start + 6, w->head.n - start, 2, w->be);
	b_bytes(&w->head, t->p, t->n);
	b_zero(&w->head, aligned - t->n);
}

/* freeze: fixes the layout before the first record. */
static int freeze(struct pdw *w)
{
	uint64_t off = FILE_HEADER_SIZE;
	uint32_t stride = 0;
	if (w->frozen)
		return 0;
	w->frozen = true;
	if (w->o.pipe) {
		if ((w->o.pipe_features_first ? pipe_features(w) : pipe_attrs(w)) ||
		    (w->o.pipe_features_first ? pipe_attrs(w) : pipe_features(w)))
			return -1;
		pipe_tracing(w);
		w->data_offset = PIPE_HEADER_SIZE + w->head.n;
		return 0;
	}
	for (size_t i = 0; i < w->nr_ev; i++) {
		off += 8 * w->ev[i].a.nr_ids;
		if (attr_size(&w->ev[i]) > stride)
			stride = attr_size(&w->ev[i]);
	}
	w->data_offset = off + w->nr_ev * (stride + 16ULL);
	return 0;
}

uint64_t pdw_data_offset(struct pdw *w)
{
	freeze(w);
	return w->data_offset;
}

uint64_t pdw_pos(struct pdw *w)
{
	freeze(w);
	return w->data_offset + w->data.n;
}

/* ---- records ---- */

/* emit: appends a finished record (or raw bytes) to the current stream. */
static int emit(struct pdw *w, const struct buf *r)
{
	if (w->finished)
		return fail(w, "writer already finished");
	if (freeze(w))
		return -1;
	b_bytes(w->zon ? &w->zpend : &w->data, r->p, r->n);
	return 0;
}

static int emit_free(struct pdw *w, struct buf *r)
{
	int rc = rec_end(w, r, 0);
	if (!rc)
		rc = emit(w, r);
	free(r->p);
	return rc;
}

static const struct evsel *evsel_at(struct pdw *w, int idx)
{
	if (idx < 0 || (size_t)idx >= w->nr_ev) {
		fail(w, "no evsel %d", idx);
		return NULL;
	}
	return &w->ev[idx];
}

/* b_sid: the sample_id_all trailer of evsel idx. */
static void b_sid(struct pdw *w, struct buf *b, int idx, const struct pdw_sid *sid)
{
	static const struct pdw_sid none;
	const struct evsel *e;
	uint64_t st;
	if (idx < 0 || (size_t)idx >= w->nr_ev)
		return;
	e = &w->ev[idx];
	if (!(e->a.flags & PDW_ATTR_SAMPLE_ID_ALL))
		return;
	if (!sid)
		sid = &none;
	st = e->a.sample_type;
	if (st & PDW_SAMPLE_TID) {
		b_u32(w, b, sid->pid);
		b_u32(w, b, sid->tid);
	}
	if (st & PDW_SAMPLE_TIME)
		b_u64(w, b, sid->time);
	if (st & PDW_SAMPLE_ID)
		b_u64(w, b, sid->id);
	if (st & PDW_SAMPLE_STREAM_ID)
		b_u64(w, b, sid->stream_id);
	if (st & PDW_SAMPLE_CPU) {
		b_u32(w, b, sid->cpu);
		b_u32(w, b, 0);
	}
	if (st & PDW_SAMPLE_IDENTIFIER)
		b_u64(w, b, sid->id);
}

/* b_read: READ. Non-group: value, [time_enabled], [time_running], [id],
 * [lost]. Group: nr, [time_enabled], [time_running], then per member
 * value, [id], [lost]. */
static void b_read(struct pdw *w, struct buf *b, uint64_t rf, const struct pdw_sample *s)
{
	bool group = rf & PDW_FORMAT_GROUP;
	b_u64(w, b, group ? s->nr_read : s->read.value);
	if (rf & PDW_FORMAT_TOTAL_TIME_ENABLED)
		b_u64(w, b, s->read_time_enabled);
	if (rf & PDW_FORMAT_TOTAL_TIME_RUNNING)
		b_u64(w, b, s->read_time_running);
	for (uint64_t i = 0; i < (group ? s->nr_read : 1); i++) {
		const struct pdw_read_entry *r = group ? &s->read_group[i] : &s->read;
		if (group)
			b_u64(w, b, r->value);
		if (rf & PDW_FORMAT_ID)
			b_u64(w, b, r->id);
		if (rf & PDW_FORMAT_LOST)
			b_u64(w, b, r->lost);
	}
}

static void b_regs(struct pdw *w, struct buf *b, uint64_t abi, uint64_t mask, const uint64_t *regs)
{
	b_u64(w, b, abi);
	if (!abi)
		return;
	for (int i = 0; i < __builtin_popcountll(mask); i++)
		b_u64(w, b, regs ? regs[i] : 0);
}

int pdw_sample(struct pdw *w, int idx, uint16_t misc, const struct pdw_sample *s)
{
	const struct evsel *e = evsel_at(w, idx);
	struct buf b = { 0 };
	uint64_t st;
	if (!e)
		return -1;
	st = e->a.sample_type;
	rec_begin(w, &b, PDW_SAMPLE, misc);
	if (st & PDW_SAMPLE_IDENTIFIER)
		b_u64(w, &b, s->id);
	if (st & PDW_SAMPLE_IP)
		b_u64(w, &b, s->ip);
	if (st & PDW_SAMPLE_TID) {
		b_u32(w, &b, s->pid);
		b_u32(w, &b, s->tid);
	}
	if (st & PDW_SAMPLE_TIME)
		b_u64(w, &b, s->time);
	if (st & PDW_SAMPLE_ADDR)
		b_u64(w, &b, s->addr);
	if (st & PDW_SAMPLE_ID)
		b_u64(w, &b, s->id);
	if (st & PDW_SAMPLE_STREAM_ID)
		b_u64(w, &b, s->stream_id);
	if (st & PDW_SAMPLE_CPU) {
		b_u32(w, &b, s->cpu);
		b_u32(w, &b, s->cpu_res);
	}
	if (st & PDW_SAMPLE_PERIOD)
		b_u64(w, &b, s->period);
	if (st & PDW_SAMPLE_READ)
		b_read(w, &b, e->a.read_format, s);
	if (st & PDW_SAMPLE_CALLCHAIN) {
		b_u64(w, &b, s->nr_callchain);
		for (uint64_t i = 0; i < s->nr_callchain; i++)
			b_u64(w, &b, s->callchain[i]);
	}
	if (st & PDW_SAMPLE_RAW) {
		uint32_t padded = (uint32_t)((4 + (size_t)s->raw_size + 7) / 8 * 8 - 4);
		b_u32(w, &b, padded);
		b_bytes(&b, s->raw, s->raw_size);
		b_zero(&b, padded - s->raw_size);
	}
	if (st & PDW_SAMPLE_BRANCH_STACK) {
		b_u64(w, &b, s->nr_branches);
		if (e->bst & PDW_BRANCH_HW_INDEX)
			b_u64(w, &b, s->branch_hw_idx);
		for (uint64_t i = 0; i < s->nr_branches; i++) {
			b_u64(w, &b, s->branches[i].from);
			b_u64(w, &b, s->branches[i].to);
			b_u64(w, &b, s->branches[i].flags);
		}
		if (e->bst & PDW_BRANCH_COUNTERS)
			for (uint64_t i = 0; i < s->nr_branches; i++)
				b_u64(w, &b, s->branch_counters ? s->branch_counters[i] : 0);
	}
	if (st & PDW_SAMPLE_REGS_USER)
		b_regs(w, &b, s->regs_user_abi, e->regs_user, s->regs_user);
	if (st & PDW_SAMPLE_STACK_USER) {
		b_u64(w, &b, s->stack_user_size);
		if (s->stack_user_size) {
			b_bytes(&b, s->stack_user, s->stack_user_size);
			b_u64(w, &b, s->stack_user_dyn_size);
		}
	}
	if (st & PDW_SAMPLE_WEIGHT_STRUCT)
		/* the union is laid out so that its u64 reads the same */
		b_u64(w, &b, (s->weight & 0xffffffffULL) | (uint64_t)s->ins_lat << 32 |
			     (uint64_t)s->retire_lat << 48);
	else if (st & PDW_SAMPLE_WEIGHT)
		b_u64(w, &b, s->weight);
	if (st & PDW_SAMPLE_DATA_SRC)
		b_u64(w, &b, s->data_src);
	if (st & PDW_SAMPLE_TRANSACTION)
		b_u64(w, &b, s->transaction);
	if (st & PDW_SAMPLE_REGS_INTR)
		b_regs(w, &b, s->regs_intr_abi, e->regs_intr, s->regs_intr);
	if (st & PDW_SAMPLE_PHYS_ADDR)
		b_u64(w, &b, s->phys_addr);
	if (st & PDW_SAMPLE_CGROUP)
		b_u64(w, &b, s->cgroup);
	if (st & PDW_SAMPLE_DATA_PAGE_SIZE)
		b_u64(w, &b, s->data_page_size);
	if (st & PDW_SAMPLE_CODE_PAGE_SIZE)
		b_u64(w, &b, s->code_page_size);
	if (st & PDW_SAMPLE_AUX) {
		size_t start = b.n;
		b_u64(w, &b, s->aux_size);
		b_bytes(&b, s->aux, s->aux_size);
		b_pad8(&b, start);
	}
	return emit_free(w, &b);
}

/* b_cstr: a NUL-terminated string padded to 8 bytes (COMM, MMAP). */
static void b_cstr(struct buf *b, const char *s)
{
	size_t start = b->n;
	b_bytes(b, s, strlen(s) + 1);
	b_pad8(b, start);
}

int pdw_comm(struct pdw *w, int evsel, uint16_t misc, uint32_t pid, uint32_t tid,
	     const char *comm, const struct pdw_sid *sid)
{
	struct buf b = { 0 };
	rec_begin(w, &b, PDW_COMM, misc);
	b_u32(w, &b, pid);
	b_u32(w, &b, tid);
	b_cstr(&b, comm);
	b_sid(w, &b, evsel, sid);
	return emit_free(w, &b);
}

static int fork_exit(struct pdw *w, uint32_t type, int evsel, uint32_t pid,
		     uint32_t ppid, uint32_t tid, uint32_t ptid, uint64_t time,
		     const struct pdw_sid *sid)
{
	struct buf b = { 0 };
	rec_begin(w, &b, type, 0);
	b_u32(w, &b, pid);
	b_u32(w, &b, ppid);
	b_u32(w, &b, tid);
	b_u32(w, &b, ptid);
	b_u64(w, &b, time);
	b_sid(w, &b, evsel, sid);
	return emit_free(w, &b);
}

int pdw_fork(struct pdw *w, int evsel, uint32_t pid, uint32_t ppid, uint32_t tid,
	     uint32_t ptid, uint64_t time, const struct pdw_sid *sid)
{
	return fork_exit(w, PDW_FORK, evsel, pid, ppid, tid, ptid, time, sid);
}

int pdw_exit(struct pdw *w, int evsel, uint32_t pid, uint32_t ppid, uint32_t tid,
	     uint32_t ptid, uint64_t time, const struct pdw_sid *sid)
{
	return fork_exit(w, PDW_EXIT, evsel, pid, ppid, tid, ptid, time, sid);
}

static int mmap_rec(struct pdw *w, uint32_t type, int evsel, uint16_t misc,
		    const struct pdw_mmap *m, const struct pdw_sid *sid)
{
	struct buf b = { 0 };
	if (type == PDW_MMAP2 && m->build_id_size)
		misc |= PDW_MISC_MMAP_BUILD_ID;
	rec_begin(w, &b, type, misc);
	b_u32(w, &b, m->pid);
	b_u32(w, &b, m->tid);
	b_u64(w, &b, m->addr);
	b_u64(w, &b, m->len);
	b_u64(w, &b, m->pgoff);
	if (type == PDW_MMAP2) {
		if (m->build_id_size) {
			uint8_t u[24] = { m->build_id_size };
			memcpy(u + 4, m->build_id, 20);
			b_bytes(&b, u, sizeof(u));
		} else {
			b_u32(w, &b, m->maj);
			b_u32(w, &b, m->min);
			b_u64(w, &b, m->ino);
			b_u64(w, &b, m->ino_generation);
		}
		b_u32(w, &b, m->prot);
		b_u32(w, &b, m->flags);
	}
	b_cstr(&b, m->filename ? m->filename : "");
	b_sid(w, &b, evsel, sid);
	return emit_free(w, &b);
}

int pdw_mmap(struct pdw *w, int evsel, uint16_t misc, const struct pdw_mmap *m,
	     const struct pdw_sid *sid)
{
	return mmap_rec(w, PDW_MMAP, evsel, misc, m, sid);
}

int pdw_mmap2(struct pdw *w, int evsel, uint16_t misc, const struct pdw_mmap *m,
	      const struct pdw_sid *sid)
{
	return mmap_rec(w, PDW_MMAP2, evsel, misc, m, sid);
}

int pdw_lost(struct pdw *w, int evsel, uint64_t id, uint64_t lost,
	     const struct pdw_sid *sid)
{
	struct buf b = { 0 };
	rec_begin(w, &b, PDW_LOST, 0);
	b_u64(w, &b, id);
	b_u64(w, &b, lost);
	b_sid(w, &b, evsel, sid);
	return emit_free(w, &b);
}

int pdw_lost_samples(struct pdw *w, int evsel, uint16_t misc, uint64_t lost,
		     const struct pdw_sid *sid)
{
	struct buf b = { 0 };
	rec_begin(w, &b, PDW_LOST_SAMPLES, misc);
	b_u64(w, &b, lost);
	b_sid(w, &b, evsel, sid);
	return emit_free(w, &b);
}

int pdw_finished_round(struct pdw *w)
{
	struct buf b = { 0 };
	rec_begin(w, &b, PDW_FINISHED_ROUND, 0);
	return emit_free(w, &b);
}

int pdw_record(struct pdw *w, uint32_t type, uint16_t misc, const void *body, size_t len)
{
	struct buf b = { 0 };
	rec_begin(w, &b, type, misc);
	b_bytes(&b, body, len);
	return emit_free(w, &b);
}

int pdw_bytes(struct pdw *w, const void *p, size_t n)
{
	struct buf b = { (uint8_t *)p, n, n };
	return emit(w, &b);
}

/* ---- compression ---- */

int pdw_compress_start(struct pdw *w, uint32_t type)
{
	if (type != PDW_COMPRESSED && type != PDW_COMPRESSED2)
		return fail(w, "compression record type %u is not 81 or 83", type);
	if (w->zon)
		return fail(w, "compression already on");
	if (!w->cctx) {
		w->cctx = ZSTD_createCCtx();
		if (!w->cctx)
			return fail(w, "ZSTD_createCCtx failed");
		ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, w->o.zstd_level);
	}
	w->zon = w->zused = true;
	w->ztype = type;
	return 0;
}

size_t pdw_compress_pending(const struct pdw *w)
{
	return w->zpend.n;
}

/* compress_chunk: one COMPRESSED record holding in[0..n), flushed. */
static int compress_chunk(struct pdw *w, const uint8_t *in, size_t n)
{
	size_t cap = ZSTD_compressBound(n) + 64, rem;
	uint8_t *out = xrealloc(NULL, cap);
	ZSTD_inBuffer ib = { in, n, 0 };
	ZSTD_outBuffer ob = { out, cap, 0 };
	struct buf b = { 0 };
	int rc;
	do {
		rem = ZSTD_compressStream2(w->cctx, &ob, &ib, ZSTD_e_flush);
		if (ZSTD_isError(rem)) {
			free(out);
			return fail(w, "zstd: %s", ZSTD_getErrorName(rem));
		}
		if (rem && ob.pos == ob.size) {
			cap *= 2;
			out = xrealloc(out, cap);
			ob.dst = out;
			ob.size = cap;
		}
	} while (rem);
	rec_begin(w, &b, w->ztype, 0);
	if (w->ztype == PDW_COMPRESSED2)
		b_u64(w, &b, ob.pos);
	b_bytes(&b, out, ob.pos);
	if (w->ztype == PDW_COMPRESSED2)
		b_pad8(&b, 0);
	free(out);
	if ((rc = rec_end(w, &b, 0)) == 0)
		b_bytes(&w->data, b.p, b.n);
	free(b.p);
	return rc;
}

int pdw_compress_flush(struct pdw *w, size_t n)
{
	size_t done = 0;
	if (!w->zon)
		return fail(w, "compression is off");
	if (n > w->zpend.n)
		n = w->zpend.n;
	if (freeze(w))
		return -1;
	if (!n)		/* an empty flush: a COMPRESSED record of no input */
		return compress_chunk(w, (const uint8_t *)"", 0);
	while (done < n) {
		size_t k = n - done < ZCHUNK ? n - done : ZCHUNK;
		if (compress_chunk(w, w->zpend.p + done, k))
			return -1;
		done += k;
	}
	memmove(w->zpend.p, w->zpend.p + n, w->zpend.n - n);
	w->zpend.n -= n;
	return 0;
}

int pdw_compress_stop(struct pdw *w)
{
	if (!w->zon)
		return fail(w, "compression is off");
	if (w->zpend.n && pdw_compress_flush(w, SIZE_MAX))
		return -1;
	w->zon = false;
	return 0;
}

/* ---- output ---- */

static void b_magic(struct pdw *w, struct buf *b)
{
	if (w->o.v1_magic)
		b_bytes(b, "PERFFILE", 8);
	else
		b_u64(w, b, 0x32454c4946524550ULL);	/* "PERFILE2" read as a u64 */
}

static int finish_file(struct pdw *w, struct buf *out)
{
	uint64_t bits[4] = { 0 }, ids_off = FILE_HEADER_SIZE, attrs_off, feat_at;
	uint32_t stride = 0;
	int nfeat = 0;
	if (w->event_desc)
		enc_event_desc(w);
	if (w->zused && !w->has_feat[PDW_FEAT_COMPRESSED])
		pdw_feat_compressed(w, 0, 1, (uint32_t)w->o.zstd_level, 1, 1u << 20);
	for (size_t i = 0; i < w->nr_ev; i++)
		if (attr_size(&w->ev[i]) > stride)
			stride = attr_size(&w->ev[i]);
	attrs_off = w->data_offset - w->nr_ev * (stride + 16ULL);
	for (int id = 1; id < 256; id++)
		if (w->has_feat[id]) {
			bits[id / 64] |= 1ULL << (id % 64);
			nfeat++;
		}
	b_magic(w, out);
	b_u64(w, out, FILE_HEADER_SIZE);
	b_u64(w, out, stride + 16);
	b_u64(w, out, attrs_off);
	b_u64(w, out, w->nr_ev * (stride + 16ULL));
	b_u64(w, out, w->data_offset);
	b_u64(w, out, w->data.n);
	b_u64(w, out, 0);
	b_u64(w, out, 0);
	for (int i = 0; i < 4; i++)
		b_u64(w, out, bits[i]);
	/* ids, then the attrs, each followed by {offset, size} of its ids */
	for (size_t i = 0; i < w->nr_ev; i++)
		for (size_t j = 0; j < w->ev[i].a.nr_ids; j++)
			b_u64(w, out, w->ev[i].a.ids[j]);
	for (size_t i = 0; i < w->nr_ev; i++) {
		b_attr(w, out, &w->ev[i], stride);
		b_u64(w, out, w->ev[i].a.nr_ids ? ids_off : 0);
		b_u64(w, out, 8 * w->ev[i].a.nr_ids);
		ids_off += 8 * w->ev[i].a.nr_ids;
	}
	if (out->n != w->data_offset)
		return fail(w, "internal: data offset %zu != %llu", out->n,
			    (unsigned long long)w->data_offset);
	b_bytes(out, w->data.p, w->data.n);
	feat_at = out->n + 16ULL * (uint64_t)nfeat;
	for (int id = 1; id < 256; id++)
		if (w->has_feat[id]) {
			b_u64(w, out, feat_at);
			b_u64(w, out, w->feat[id].n);
			feat_at += w->feat[id].n;
		}
	for (int id = 1; id < 256; id++)
		if (w->has_feat[id])
			b_bytes(out, w->feat[id].p, w->feat[id].n);
	return 0;
}

int pdw_finish(struct pdw *w, uint8_t **out, size_t *len)
{
	struct buf o = { 0 };
	if (w->finished)
		return fail(w, "writer already finished");
	if (freeze(w))
		return -1;
	if (w->zon && pdw_compress_stop(w))
		return -1;
	w->finished = true;
	if (w->o.pipe) {
		b_magic(w, &o);
		b_u64(w, &o, PIPE_HEADER_SIZE);
		b_bytes(&o, w->head.p, w->head.n);
		b_bytes(&o, w->data.p, w->data.n);
	} else if (finish_file(w, &o)) {
		free(o.p);
		return -1;
	}
	*out = o.p ? o.p : xrealloc(NULL, 1);
	*len = o.n;
	return 0;
}

int pdw_write(struct pdw *w, const char *path)
{
	uint8_t *p;
	size_t n;
	FILE *f;
	int rc = 0;
	if (pdw_finish(w, &p, &n))
		return -1;
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n)
		rc = fail(w, "%s: cannot write", path);
	if (f && fclose(f))
		rc = fail(w, "%s: cannot write", path);
	free(p);
	return rc;
}
