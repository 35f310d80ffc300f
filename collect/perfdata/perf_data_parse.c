/* perf.data reader: decoding one record. SAMPLE records field by field in
 * the kernel's order for the evsel's sample_type; side-band records (COMM,
 * FORK, EXIT, MMAP, MMAP2, LOST, ...) plus their sample_id_all trailer.
 * Every read is bounds-checked against the record's own size. */
#include <string.h>
#include "lib/bytes.h"
#include "collect/perfdata/perf_data_int.h"

enum {
	S_IP = 1 << 0, S_TID = 1 << 1, S_TIME = 1 << 2, S_ADDR = 1 << 3,
	S_READ = 1 << 4, S_CALLCHAIN = 1 << 5, S_ID = 1 << 6, S_CPU = 1 << 7,
	S_PERIOD = 1 << 8, S_STREAM_ID = 1 << 9, S_RAW = 1 << 10,
	S_BRANCH_STACK = 1 << 11, S_REGS_USER = 1 << 12, S_STACK_USER = 1 << 13,
	S_WEIGHT = 1 << 14, S_DATA_SRC = 1 << 15, S_IDENTIFIER = 1 << 16,
	S_TRANSACTION = 1 << 17, S_REGS_INTR = 1 << 18, S_PHYS_ADDR = 1 << 19,
	S_AUX = 1 << 20, S_CGROUP = 1 << 21, S_DATA_PAGE_SIZE = 1 << 22,
	S_CODE_PAGE_SIZE = 1 << 23, S_WEIGHT_STRUCT = 1 << 24,
};
#define RF_TOTAL_TIME_ENABLED	1
#define RF_TOTAL_TIME_RUNNING	2
#define RF_ID			4
#define RF_GROUP		8
#define RF_LOST			16
#define BRANCH_HW_INDEX		(1ULL << 17)
#define BRANCH_COUNTERS		(1ULL << 19)

/* first_evsel: the evsel whose sample_type fixes where ids sit. */
static const struct pd_evsel *first_evsel(const struct pd_reader *r)
{
	return r->nr_evsels ? r->evsels[0] : NULL;
}

/* id_evsel: the evsel of a record's id; id 0 (what perf writes in the
 * records it synthesizes for tasks that existed before the recording)
 * means the first evsel, as in perf. NULL for an unknown id. */
static struct pd_evsel *id_evsel(struct pd_reader *r, uint64_t id)
{
	return id ? pd_id_lookup(r, id) : r->evsels[0];
}

/* sample_evsel: the evsel a SAMPLE record belongs to, or NULL. */
static struct pd_evsel *sample_evsel(struct pd_reader *r, const uint8_t *rec,
				     size_t size)
{
	const struct pd_evsel *f = first_evsel(r);
	uint64_t st;
	size_t pos = 8;
	if (!f)
		return NULL;
	if (r->nr_evsels == 1)
		return r->evsels[0];
	st = f->sample_type;
	if (!(st & S_IDENTIFIER)) {
		if (!(st & S_ID))
			return r->evsels[0];
		pos += 8 * (size_t)__builtin_popcountll(st & (S_IP | S_TID | S_TIME | S_ADDR));
	}
	if (pos + 8 > size)
		return NULL;
	return id_evsel(r, rd64(rec + pos, r->swap));
}

/* trailer_evsel: the evsel named by a side-band record's trailer, or the
 * first evsel when the trailer carries no id. */
static struct pd_evsel *trailer_evsel(struct pd_reader *r, const uint8_t *rec,
				      size_t size)
{
	const struct pd_evsel *f = first_evsel(r);
	uint64_t st;
	size_t back = 8;
	if (!f || !(f->flags & PD_ATTR_SAMPLE_ID_ALL) || r->nr_evsels == 1)
		return f ? r->evsels[0] : NULL;
	st = f->sample_type;
	if (!(st & S_IDENTIFIER)) {
		if (!(st & S_ID))
			return r->evsels[0];
		back += 8 * (size_t)__builtin_popcountll(st & (S_CPU | S_STREAM_ID));
	}
	if (back + 8 > size)
		return NULL;
	return id_evsel(r, rd64(rec + size - back, r->swap));
}

/* get64: next u64 from the cursor into *v, or fail with *why. */
static int get64(struct cursor *c, uint64_t *v, const char **why, const char *what)
{
	if (cur_u64(c, v))
		return 0;
	*why = what;
	return -1;
}

/* tid_cpu: reads a {u32, u32} pair at the cursor. */
static int get_pair(struct cursor *c, uint32_t *a, uint32_t *b, const char **why,
		    const char *what)
{
	if (!cur_u32(c, a) || !cur_u32(c, b)) {
		*why = what;
		return -1;
	}
	return 0;
}

/* get_read: the READ block of read_format rf: where its values are
 * (value, then the id when rf has it, per member), so that the reader can
 * deliver one sample per value as perf does. */
static int get_read(struct cursor *c, uint64_t rf, struct pd_sample *s,
		    const char **why)
{
	size_t times = 8 * (size_t)(!!(rf & RF_TOTAL_TIME_ENABLED) + !!(rf & RF_TOTAL_TIME_RUNNING));
	size_t per = 8 * (size_t)(1 + !!(rf & RF_ID) + !!(rf & RF_LOST));
	uint64_t nr = 1;
	if (!(rf & RF_GROUP)) {
		s->read_nr = 1;
		s->read_stride = (uint32_t)(per + times);
		s->read_id_off = rf & RF_ID ? (uint32_t)(8 + times) : 0;
		if ((s->read = cur_bytes(c, per + times)))
			return 0;
	} else if (cur_u64(c, &nr) && cur_skip(c, times) && nr <= c->len / per) {
		s->read_nr = nr;
		s->read_stride = (uint32_t)per;
		s->read_id_off = rf & RF_ID ? 8 : 0;
		if ((s->read = cur_bytes(c, (size_t)nr * per)) || !nr)
			return 0;
	}
	*why = "READ values run past the record";
	return -1;
}

/* get_array: an array of nr u64-sized items of width w bytes. */
static int get_array(struct cursor *c, uint64_t nr, size_t w, const uint8_t **p,
		     const char **why, const char *what)
{
	if (nr > c->len / w || !(*p = cur_bytes(c, (size_t)nr * w))) {
		*why = what;
		return -1;
	}
	return 0;
}

/* skip_regs: skips a REGS_USER/REGS_INTR block for mask. */
static int skip_regs(struct cursor *c, uint64_t mask, const char **why)
{
	uint64_t abi;
	if (!cur_u64(c, &abi) ||
	    (abi && !cur_skip(c, 8 * (size_t)__builtin_popcountll(mask)))) {
		*why = "register dump runs past the record";
		return -1;
	}
	return 0;
}

/* get_regs_user: the REGS_USER block (abi, then a u64 per mask bit). */
static int get_regs_user(struct cursor *c, uint64_t mask, struct pd_sample *s, const char **why)
{
	if (!cur_u64(c, &s->regs_user_abi) ||
	    (s->regs_user_abi &&
	     !(s->regs_user = cur_bytes(c, 8 * (size_t)__builtin_popcountll(mask))) && mask)) {
		*why = "register dump runs past the record";
		return -1;
	}
	return 0;
}

/* get_stack_user: the STACK_USER block (size, data, dyn_size; dyn_size
 * clamped to size). */
static int get_stack_user(struct cursor *c, struct pd_sample *s, const char **why)
{
	uint64_t sz;
	if (!cur_u64(c, &sz) || sz > c->len || !(s->stack_user = cur_bytes(c, (size_t)sz)) ||
	    (sz && !cur_u64(c, &s->stack_user_dyn))) {
		*why = "user stack dump runs past the record";
		return -1;
	}
	s->stack_user_size = sz;
	if (s->stack_user_dyn > sz || !sz)
		s->stack_user_dyn = sz;
	return 0;
}

/* get_branches: BRANCH_STACK (nr, optional hw_idx, entries, counters). */
static int get_branches(struct cursor *c, const struct pd_evsel *e,
			struct pd_sample *s, const char **why)
{
	uint64_t hw;
	if (get64(c, &s->nr_branches, why, "branch stack runs past the record"))
		return -1;
	if (e->branch_sample_type & BRANCH_HW_INDEX &&
	    get64(c, &hw, why, "branch stack runs past the record"))
		return -1;
	if (get_array(c, s->nr_branches, 24, &s->branches, why,
		      "branch stack runs past the record"))
		return -1;
	if (e->branch_sample_type & BRANCH_COUNTERS &&
	    !cur_skip(c, (size_t)s->nr_branches * 8)) {
		*why = "branch counters run past the record";
		return -1;
	}
	return 0;
}

/* get_raw: RAW (u32 size + payload). */
static int get_raw(struct cursor *c, struct pd_sample *s, const char **why)
{
	if (!cur_u32(c, &s->raw_size) || !(s->raw = cur_bytes(c, s->raw_size))) {
		*why = "raw tracepoint data runs past the record";
		return -1;
	}
	return 0;
}

/* get_weight_struct: WEIGHT_STRUCT's weight and instruction latency. */
static int get_weight_struct(struct pd_reader *r, struct cursor *c,
			     struct pd_sample *s, const char **why)
{
	const uint8_t *p = cur_bytes(c, 8);
	if (!p) {
		*why = "weight runs past the record";
		return -1;
	}
	if (r->big_endian) {
		s->ins_lat = rd16(p + 2, r->swap);
		s->weight = rd32(p + 4, r->swap);
	} else {
		s->weight = rd32(p, r->swap);
		s->ins_lat = rd16(p + 4, r->swap);
	}
	return 0;
}

/* parse_head: IDENTIFIER through PERIOD. */
static int parse_head(struct cursor *c, uint64_t st, struct pd_sample *s,
		      const char **why)
{
	uint32_t res;
	const char *m = "sample runs past its record";
	if ((st & S_IDENTIFIER && get64(c, &s->id, why, m)) ||
	    (st & S_IP && get64(c, &s->ip, why, m)) ||
	    (st & S_TID && get_pair(c, &s->pid, &s->tid, why, m)) ||
	    (st & S_TIME && get64(c, &s->time, why, m)) ||
	    (st & S_ADDR && get64(c, &s->addr, why, m)) ||
	    (st & S_ID && get64(c, &s->id, why, m)) ||
	    (st & S_STREAM_ID && get64(c, &s->stream_id, why, m)) ||
	    (st & S_CPU && get_pair(c, &s->cpu, &res, why, m)) ||
	    (st & S_PERIOD && get64(c, &s->period, why, m)))
		return -1;
	s->has_time = !!(st & S_TIME);
	s->has_cpu = !!(st & S_CPU);
	s->has_tid = !!(st & S_TID);
	return 0;
}

/* parse_tail: REGS_USER through CODE_PAGE_SIZE (AUX is left unread). */
static int parse_tail(struct pd_reader *r, struct cursor *c,
		      const struct pd_evsel *e, struct pd_sample *s, const char **why)
{
	uint64_t st = e->sample_type;
	const char *m = "sample runs past its record";
	if ((st & S_REGS_USER && get_regs_user(c, e->sample_regs_user, s, why)) ||
	    (st & S_STACK_USER && get_stack_user(c, s, why)))
		return -1;
	if (st & S_WEIGHT_STRUCT) {
		if (get_weight_struct(r, c, s, why))
			return -1;
	} else if (st & S_WEIGHT && get64(c, &s->weight, why, m)) {
		return -1;
	}
	if ((st & S_DATA_SRC && get64(c, &s->data_src, why, m)) ||
	    (st & S_TRANSACTION && get64(c, &s->transaction, why, m)) ||
	    (st & S_REGS_INTR && skip_regs(c, e->sample_regs_intr, why)) ||
	    (st & S_PHYS_ADDR && get64(c, &s->phys_addr, why, m)) ||
	    (st & S_CGROUP && get64(c, &s->cgroup, why, m)) ||
	    (st & S_DATA_PAGE_SIZE && get64(c, &s->data_page_size, why, m)) ||
	    (st & S_CODE_PAGE_SIZE && get64(c, &s->code_page_size, why, m)))
		return -1;
	return 0;
}

/* parse_sample: every field of a SAMPLE record of evsel e into s. */
static int parse_sample(struct pd_reader *r, const struct pd_evsel *e,
			const uint8_t *rec, size_t size, struct pd_sample *s,
			const char **why)
{
	struct cursor c;
	uint64_t st = e->sample_type;
	cur_init(&c, rec + 8, size - 8, r->swap);
	if (parse_head(&c, st, s, why))
		return -1;
	if (st & S_READ && get_read(&c, e->read_format, s, why))
		return -1;
	if (st & S_CALLCHAIN &&
	    (get64(&c, &s->nr_callchain, why, "callchain runs past the record") ||
	     get_array(&c, s->nr_callchain, 8, &s->callchain, why,
		       "callchain runs past the record")))
		return -1;
	if ((st & S_RAW && get_raw(&c, s, why)) ||
	    (st & S_BRANCH_STACK && get_branches(&c, e, s, why)))
		return -1;
	return parse_tail(r, &c, e, s, why);
}

/* parse_trailer: the sample_id_all fields at the end of a side-band record
 * (TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER), read back to front. Returns
 * the trailer's size in bytes, or -1 when the record is too short. */
static int parse_trailer(struct pd_reader *r, const struct pd_evsel *e,
			 const uint8_t *rec, size_t size, struct pd_sample *s)
{
	uint64_t st = e->sample_type;
	size_t n = (size_t)__builtin_popcountll(st & (S_TID | S_TIME | S_ID |
		S_STREAM_ID | S_CPU | S_IDENTIFIER));
	struct cursor c;
	uint32_t res;
	if (8 + 8 * n > size)
		return -1;
	cur_init(&c, rec + size - 8 * n, 8 * n, r->swap);
	if (st & S_TID)
		(void)(cur_u32(&c, &s->pid) && cur_u32(&c, &s->tid));
	if (st & S_TIME)
		(void)cur_u64(&c, &s->time);
	if (st & S_ID)
		(void)cur_u64(&c, &s->id);
	if (st & S_STREAM_ID)
		(void)cur_u64(&c, &s->stream_id);
	if (st & S_CPU)
		(void)(cur_u32(&c, &s->cpu) && cur_u32(&c, &res));
	if (st & S_IDENTIFIER)
		(void)cur_u64(&c, &s->id);
	s->has_time = !!(st & S_TIME);
	s->has_cpu = !!(st & S_CPU);
	s->has_tid = !!(st & S_TID);
	return (int)(8 * n);
}

/* bounded_str: a NUL-terminated string in p[0..len), or NULL if none. */
static const char *bounded_str(const uint8_t *p, size_t len)
{
	return len && memchr(p, 0, len) ? (const char *)p : NULL;
}

/* decode_mmap2_tail: MMAP2's device/inode or build-id union, prot, flags. */
static void decode_mmap2_tail(struct pd_reader *r, const uint8_t *p, uint16_t misc,
			      struct pd_sideband *sb)
{
	if (misc & PD_MISC_MMAP_BUILD_ID) {
		sb->build_id_size = p[0] <= 20 ? p[0] : 20;
		memcpy(sb->build_id, p + 4, 20);
	}
	sb->prot = rd32(p + 24, r->swap);
	sb->mflags = rd32(p + 28, r->swap);
}

/* decode_sideband: the body of a non-sample record; body is the record
 * without its header and trailer. Returns -1 (why) when too short. */
static int decode_sideband(struct pd_reader *r, uint32_t type, uint16_t misc,
			   const uint8_t *b, size_t len, struct pd_sideband *sb,
			   const char **why)
{
	bool sw = r->swap;
	size_t need = 0;
	switch (type) {
	case PD_COMM: need = 8; break;
	case PD_FORK: case PD_EXIT: need = 24; break;
	case PD_MMAP: need = 32; break;
	case PD_MMAP2: need = 64; break;
	case PD_LOST: need = 16; break;
	case PD_LOST_SAMPLES: need = 8; break;
	case PD_SWITCH_CPU_WIDE: need = 8; break;
	case PD_KSYMBOL: need = 16; break;
	case PD_CGROUP: need = 8; break;
	default: return 0;
	}
	if (len < need) {
		*why = "record shorter than its type requires";
		return -1;
	}
	switch (type) {
	case PD_COMM:
		sb->pid = rd32(b, sw);
		sb->tid = rd32(b + 4, sw);
		sb->str = bounded_str(b + 8, len - 8);
		break;
	case PD_FORK: case PD_EXIT:
		sb->pid = rd32(b, sw);
		sb->ppid = rd32(b + 4, sw);
		sb->tid = rd32(b + 8, sw);
		sb->ptid = rd32(b + 12, sw);
		sb->fork_time = rd64(b + 16, sw);
		break;
	case PD_MMAP: case PD_MMAP2:
		sb->pid = rd32(b, sw);
		sb->tid = rd32(b + 4, sw);
		sb->addr = rd64(b + 8, sw);
		sb->len = rd64(b + 16, sw);
		sb->pgoff = rd64(b + 24, sw);
		if (type == PD_MMAP2)
			decode_mmap2_tail(r, b + 32, misc, sb);
		sb->str = bounded_str(b + need, len - need);
		break;
	case PD_LOST:
		sb->lost_id = rd64(b, sw);
		sb->lost = rd64(b + 8, sw);
		break;
	case PD_LOST_SAMPLES:
		sb->lost = rd64(b, sw);
		break;
	case PD_SWITCH_CPU_WIDE:
		sb->pid = rd32(b, sw);
		sb->tid = rd32(b + 4, sw);
		break;
	case PD_KSYMBOL:
		sb->addr = rd64(b, sw);
		sb->len = rd32(b + 8, sw);
		sb->str = bounded_str(b + 16, len - 16);
		break;
	case PD_CGROUP:
		sb->addr = rd64(b, sw);
		sb->str = bounded_str(b + 8, len - 8);
		break;
	}
	return 0;
}

/* pd_decode: decodes the record rec[0..size) (header included, size >= 8)
 * into ev. Returns 0, or -1 with *why describing the problem. */
int pd_decode(struct pd_reader *r, const uint8_t *rec, size_t size,
	      struct pd_event *ev, const char **why)
{
	int tsize = 0;
	memset(ev, 0, sizeof(*ev));
	ev->type = rd32(rec, r->swap);
	ev->misc = rd16(rec + 4, r->swap);
	if (ev->type == PD_SAMPLE) {
		ev->evsel = sample_evsel(r, rec, size);
		if (!ev->evsel)
			return 0;	/* unknown id: the caller counts it */
		return parse_sample(r, ev->evsel, rec, size, &ev->sample, why);
	}
	if (ev->type >= PD_HEADER_ATTR)
		return 0;
	ev->evsel = trailer_evsel(r, rec, size);
	if (ev->evsel && (r->evsels[0]->flags & PD_ATTR_SAMPLE_ID_ALL)) {
		tsize = parse_trailer(r, ev->evsel, rec, size, &ev->sample);
		if (tsize < 0) {
			*why = "record too short for its sample_id_all trailer";
			return -1;
		}
	}
	return decode_sideband(r, ev->type, ev->misc, rec + 8,
			       size - 8 - (size_t)tsize, &ev->sb, why);
}

/* pd_sample_time: the timestamp of a record for ordering (0: none). The
 * time of a SAMPLE sits at a fixed place for its sample_type, so it is read
 * directly; other records are decoded (which checks their trailer too). */
int pd_sample_time(struct pd_reader *r, const uint8_t *rec, size_t size,
		   uint64_t *time, const char **why)
{
	struct pd_event ev;
	if (rd32(rec, r->swap) == PD_SAMPLE) {
		const struct pd_evsel *e = sample_evsel(r, rec, size);
		uint64_t st = e ? e->sample_type : 0;
		size_t at = 8 + 8 * (size_t)__builtin_popcountll(st & (S_IDENTIFIER | S_IP | S_TID));
		*time = 0;
		if (st & S_TIME && at + 8 <= size)
			*time = rd64(rec + at, r->swap);
		return 0;
	}
	if (pd_decode(r, rec, size, &ev, why))
		return -1;
	*time = ev.sample.has_time ? ev.sample.time : 0;
	return 0;
}

/* pd_u64_at: the u64 at p in host byte order. */
uint64_t pd_u64_at(const struct pd_reader *r, const uint8_t *p)
{
	return rd64(p, r->swap);
}

/* pd_callchain_at: the i-th callchain entry of s in host byte order. */
uint64_t pd_callchain_at(const struct pd_reader *r, const struct pd_sample *s,
			 uint64_t i)
{
	return rd64(s->callchain + 8 * i, r->swap);
}
