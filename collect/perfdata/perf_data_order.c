/* perf.data reader: time ordering. Records inside a FINISHED_ROUND window
 * are not time-ordered: perf drains each CPU's ring buffer in turn, so a
 * round is a few ascending runs, one per buffer. The reader keeps no record
 * bytes: it notes each ascending run (where it starts and ends in the input
 * file, or in the spill for records that are not in the file as such) and,
 * at each round's end, merges the runs' heads through a min-heap, reading
 * the records back (perf_data_store.c) and delivering, by (time, arrival),
 * those not newer than the previous round's newest timestamp. Memory is a
 * few dozen bytes per pending run, whatever the round's size; past
 * OQ_MAX_RUNS pending runs everything pending is delivered at once. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/bytes.h"
#include "collect/perfdata/perf_data_int.h"

/* before: whether run a's head comes before run b's: by time, then arrival. */
static inline bool before(const struct oq_run *a, const struct oq_run *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* heap_up / heap_down: restore the heap property from position i. */
static void heap_up(struct order_queue *q, size_t i)
{
	int32_t s = q->heap[i];
	while (i) {
		size_t p = (i - 1) / 2;
		if (!before(&q->runs[s], &q->runs[q->heap[p]]))
			break;
		q->heap[i] = q->heap[p];
		i = p;
	}
	q->heap[i] = s;
}

static void heap_down(struct order_queue *q, size_t i)
{
	int32_t s = q->heap[i];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= q->nheap)
			break;
		if (c + 1 < q->nheap && before(&q->runs[q->heap[c + 1]], &q->runs[q->heap[c]]))
			c++;
		if (!before(&q->runs[q->heap[c]], &q->runs[s]))
			break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	q->heap[i] = s;
}

/* oq_init: see perf_data_int.h. */
void oq_init(struct order_queue *q)
{
	memset(q, 0, sizeof(*q));
	q->open = -1;
	os_init(&q->store, -1);
}

/* oq_start: see perf_data_int.h. */
void oq_start(struct pd_reader *r, oq_deliver_fn deliver)
{
	r->in->q.deliver = deliver;
	if (r->file_size && r->fp != stdin)
		r->in->q.store.fd = fileno(r->fp);
}

/* new_run: a pending run whose head (and only record) is the record at
 * off in store src; it goes on the heap and is the open one. */
static void new_run(struct order_queue *q, int src, uint64_t off, uint64_t end,
		    uint64_t time, uint64_t foff, uint32_t size)
{
	int32_t s;
	struct oq_run *u;
	if (q->nfree) {
		s = q->free_slots[--q->nfree];
	} else {
		ALLOC_GROW(q->runs, q->nslots + 1, q->slots_cap);
		s = (int32_t)q->nslots++;
	}
	u = &q->runs[s];
	*u = (struct oq_run){ .off = off, .end = end, .time = time, .seq = q->seq,
			      .foff = foff, .last_time = time, .pending = 1, .size = size,
			      .blk = -1, .src = (uint8_t)src };
	ALLOC_GROW(q->heap, q->nheap + 1, q->heap_cap);
	q->heap[q->nheap++] = s;
	heap_up(q, q->nheap - 1);
	q->open = s;
}

/* drop_top: the run at the top of the heap has no record left. */
static void drop_top(struct order_queue *q)
{
	int32_t s = q->heap[0];
	os_release(&q->store, s, q->runs[s].blk);
	ALLOC_GROW(q->free_slots, q->nfree + 1, q->free_cap);
	q->free_slots[q->nfree++] = s;
	if (q->open == s)
		q->open = -1;
	q->heap[0] = q->heap[--q->nheap];
	if (q->nheap)
		heap_down(q, 0);
}

/* changed: the error for a run whose bytes no longer read as they did. */
static int changed(struct pd_reader *r, uint64_t off, const char *what)
{
	return pd_errorf(r, off, "reading records again for the time order: %s (the file "
			 "changed while it was read, or its attrs did)", what);
}

/* file_head: makes the next record of input-file run s from pos its head,
 * skipping the records without time (delivered when first read). */
static int file_head(struct pd_reader *r, int32_t s, uint64_t pos)
{
	struct oq_run *u = &r->in->q.runs[s];
	for (;;) {
		const uint8_t *p;
		const char *why = NULL;
		uint64_t t;
		uint16_t sz;
		if (u->end - pos < 8 ||
		    !(p = os_bytes(r, OQ_SRC_FILE, s, &u->blk, pos, 8, u->end)))
			return changed(r, pos, "a record is missing");
		sz = rd16(p + 6, r->swap);
		if (sz < 8 || sz > u->end - pos || rd32(p, r->swap) >= PD_HEADER_ATTR ||
		    !(p = os_bytes(r, OQ_SRC_FILE, s, &u->blk, pos, sz, u->end)))
			return changed(r, pos, "a record is not the one first read");
		if (pd_sample_time(r, p, sz, &t, &why))
			return pd_errorf(r, pos, "%s", why);
		if (!t) {
			pos += sz;
			continue;
		}
		if (t < u->time)
			return changed(r, pos, "its time went back");
		u->off = u->foff = pos;
		u->time = t;
		u->size = sz;
		return 0;
	}
}

/* spill_head: makes the spill entry of run s at pos its head. */
static int spill_head(struct pd_reader *r, int32_t s, uint64_t pos)
{
	struct oq_run *u = &r->in->q.runs[s];
	const uint8_t *p = NULL;
	uint64_t t;
	uint16_t sz = 0;
	if (u->end - pos >= OQ_SPILL_ENTRY + 8)
		p = os_bytes(r, OQ_SRC_SPILL, s, &u->blk, pos, OQ_SPILL_ENTRY + 8, u->end);
	if (p)
		sz = rd16(p + OQ_SPILL_ENTRY + 6, r->swap);
	if (!p || sz < 8 || sz > u->end - pos - OQ_SPILL_ENTRY)
		return changed(r, u->foff, "the temporary file does not hold what was written");
	memcpy(&t, p, 8);
	if (t < u->time)
		return changed(r, u->foff, "the temporary file does not hold what was written");
	u->off = pos;
	u->time = t;
	memcpy(&u->foff, p + 8, 8);
	u->size = sz;
	return 0;
}

/* advance: the top run's head was delivered: its next record becomes the
 * head. 0, 1 when the run has no record left, -1 on error. */
static int advance(struct pd_reader *r, int32_t s)
{
	struct oq_run *u = &r->in->q.runs[s];
	uint64_t pos = u->off + u->size + (u->src == OQ_SRC_SPILL ? OQ_SPILL_ENTRY : 0);
	u->seq++;
	if (!--u->pending)
		return 1;
	return u->src == OQ_SRC_SPILL ? spill_head(r, s, pos) : file_head(r, s, pos);
}

/* head_bytes: the bytes of run s's head record, or NULL (error set). */
static const uint8_t *head_bytes(struct pd_reader *r, int32_t s)
{
	struct oq_run *u = &r->in->q.runs[s];
	uint64_t at = u->off + (u->src == OQ_SRC_SPILL ? OQ_SPILL_ENTRY : 0);
	const uint8_t *p = os_bytes(r, u->src, s, &u->blk, at, u->size, u->end);
	if (!p)
		changed(r, u->foff, "a record cannot be read");
	return p;
}

/* spill_low: the lowest spill offset a pending run still needs. */
static uint64_t spill_low(const struct order_queue *q)
{
	uint64_t low = q->store.spill_end;
	for (size_t i = 0; i < q->nheap; i++) {
		const struct oq_run *u = &q->runs[q->heap[i]];
		if (u->src == OQ_SRC_SPILL && u->off < low)
			low = u->off;
	}
	return low;
}

/* merge_upto: delivers, in (time, arrival) order, every pending record
 * with time <= bound. */
static int merge_upto(struct pd_reader *r, uint64_t bound)
{
	struct order_queue *q = &r->in->q;
	int rc = os_sync(r);
	while (!rc && q->nheap && q->runs[q->heap[0]].time <= bound) {
		int32_t s = q->heap[0];
		const uint8_t *p = head_bytes(r, s);
		if (!p)
			return -1;
		q->last_flushed = q->runs[s].time;
		if ((rc = q->deliver(r, p, q->runs[s].size, q->runs[s].foff)))
			return rc;
		rc = advance(r, s);
		if (rc == 1)
			drop_top(q);
		else if (!rc)
			heap_down(q, 0);
		rc = rc < 0 ? rc : 0;
	}
	os_trim(&q->store, spill_low(q));
	return rc;
}

/* extends: whether a record of store src at off with time extends the open
 * run (it follows its last record there, and is not older). */
static bool extends(const struct order_queue *q, int src, uint64_t off, uint64_t time)
{
	const struct oq_run *u = q->open >= 0 ? &q->runs[q->open] : NULL;
	return u && u->src == src && u->end == off && time >= u->last_time;
}

/* at_cap: no more than OQ_MAX_RUNS runs are pending: past it, everything
 * pending is delivered now (once warned), as at the end of the data; later
 * records older than it are delivered and counted in nr_unordered. */
static int at_cap(struct pd_reader *r, uint64_t foff)
{
	struct order_queue *q = &r->in->q;
	if (q->nheap < OQ_MAX_RUNS)
		return 0;
	if (!q->capped)
		pd_warnf(r, foff, "more than %d ascending runs of records wait for a round's end: "
			 "delivering them at once; records after may be out of time order",
			 OQ_MAX_RUNS);
	q->capped = true;
	return merge_upto(r, UINT64_MAX);
}

/* oq_push: see perf_data_int.h. A record without time inside an input-file
 * run stays in its range (reading the run again skips it). */
int oq_push(struct pd_reader *r, const uint8_t *rec, uint32_t size,
	    uint64_t time, uint64_t file_offset, bool in_file)
{
	struct order_queue *q = &r->in->q;
	int src = in_file && q->store.fd >= 0 ? OQ_SRC_FILE : OQ_SRC_SPILL;
	uint64_t off = src == OQ_SRC_FILE ? file_offset : q->store.spill_end;
	uint64_t end = off + size + (src == OQ_SRC_SPILL ? OQ_SPILL_ENTRY : 0);
	int rc;
	if (!time) {
		if (src == OQ_SRC_FILE && q->open >= 0 && q->runs[q->open].src == src &&
		    q->runs[q->open].end == off)
			q->runs[q->open].end = end;
		return q->deliver(r, rec, size, file_offset);
	}
	if (!extends(q, src, off, time) && (rc = at_cap(r, file_offset)))
		return rc;
	if (time < q->last_flushed)
		r->nr_unordered++;
	if (time > q->max_time)
		q->max_time = time;
	if (src == OQ_SRC_SPILL && (rc = os_spill(r, rec, size, time, file_offset)))
		return rc;
	if (extends(q, src, off, time)) {
		struct oq_run *u = &q->runs[q->open];
		u->end = end;
		u->last_time = time;
		u->pending++;
	} else {
		new_run(q, src, off, end, time, file_offset, size);
	}
	q->seq++;
	return 0;
}

/* oq_round: at FINISHED_ROUND, delivers up to the previous round's newest
 * time, then remembers this round's newest for the next one. */
int oq_round(struct pd_reader *r)
{
	struct order_queue *q = &r->in->q;
	int rc = merge_upto(r, q->next_flush);
	q->next_flush = q->max_time;
	return rc;
}

/* oq_flush_all: delivers everything still pending (end of data). */
int oq_flush_all(struct pd_reader *r)
{
	return merge_upto(r, UINT64_MAX);
}

/* oq_free: see perf_data_int.h. */
void oq_free(struct order_queue *q)
{
	free(q->runs);
	free(q->free_slots);
	free(q->heap);
	os_free(&q->store);
	oq_init(q);
}
