/* perf.data reader: time ordering. Records inside a FINISHED_ROUND window
 * are not time-ordered (each CPU's buffer is drained in turn), so records are
 * queued and, at each round's end, those not newer than the previous round's
 * newest timestamp are delivered sorted by (time, arrival). The queue holds
 * about two rounds; a file without rounds is flushed by halves once the queue
 * passes QUEUE_LIMIT bytes, so memory stays bounded. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "collect/perf_data_int.h"

#define QUEUE_LIMIT (48u << 20)

/* before: whether queued record a comes before b: by time, then arrival. */
static inline bool before(const struct oq_item *a, const struct oq_item *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* run_end: the end of the ascending run of v[0..n) that starts at i. */
static size_t run_end(const struct oq_item *v, size_t i, size_t n)
{
	while (++i < n && !before(&v[i], &v[i - 1]))
		;
	return i;
}

/* merge: the ascending runs a[0..na) and b[0..nb) merged into out. */
static void merge(const struct oq_item *a, size_t na, const struct oq_item *b, size_t nb,
		  struct oq_item *out)
{
	size_t i = 0, j = 0;
	while (i < na && j < nb)
		*out++ = before(&b[j], &a[i]) ? b[j++] : a[i++];
	memcpy(out, a + i, (na - i) * sizeof(*a));
	memcpy(out + (na - i), b + j, (nb - j) * sizeof(*b));
}

/* sort_queue: sorts the queued items by (time, arrival). A round holds a
 * few ascending runs (each CPU's buffer is drained in time order, and what
 * the last round left is sorted), so a natural merge sort takes a few
 * linear passes where qsort took n log n calls of a comparison function. */
static void sort_queue(struct order_queue *q)
{
	struct oq_item *src = q->items, *dst, *t;
	size_t n = q->n, runs, c;
	if (n < 2 || run_end(src, 0, n) == n)
		return;
	if (q->tcap < q->cap) {
		free(q->tmp);
		q->tmp = xreallocarray(NULL, q->cap, sizeof(*q->tmp));
		q->tcap = q->cap;
	}
	dst = q->tmp;
	do {
		runs = 0;
		for (size_t i = 0, j, k; i < n; i = k, runs++) {
			j = run_end(src, i, n);
			k = j < n ? run_end(src, j, n) : n;
			merge(src + i, j - i, src + j, k - j, dst + i);
		}
		t = src, src = dst, dst = t;
	} while (runs > 1);
	if (src != q->items) {
		q->tmp = q->items, q->items = src;
		c = q->tcap, q->tcap = q->cap, q->cap = c;
	}
}

/* reserve: makes room for one more item of size bytes. */
static void reserve(struct order_queue *q, size_t size)
{
	ALLOC_GROW(q->items, q->n + 1, q->cap);
	ALLOC_GROW(q->arena, q->used + size, q->acap);
}

/* deliver_first: delivers the first n items of the sorted queue, then
 * moves the rest (items and their bytes) into the spare arena, which
 * becomes the current one: no record's bytes are overwritten before they
 * are moved, whatever their order. */
static int deliver_first(struct pd_reader *r, size_t n)
{
	struct order_queue *q = &r->in->q;
	size_t i, used = 0;
	uint8_t *tmp;
	int rc = 0;
	for (i = 0; i < n && !rc; i++) {
		struct oq_item *it = &q->items[i];
		q->last_flushed = it->time;
		rc = pd_deliver(r, q->arena + it->off, it->size, it->file_offset);
	}
	if (rc)
		return rc;
	if (q->spare_cap < q->used) {
		free(q->spare);
		q->spare = xmalloc(q->acap);
		q->spare_cap = q->acap;
	}
	for (i = n; i < q->n; i++) {
		struct oq_item *it = &q->items[i];
		memcpy(q->spare + used, q->arena + it->off, it->size);
		it->off = used;
		used += it->size;
		q->items[i - n] = *it;
	}
	tmp = q->arena;
	q->arena = q->spare;
	q->spare = tmp;
	i = q->acap;
	q->acap = q->spare_cap;
	q->spare_cap = i;
	q->n -= n;
	q->used = used;
	return 0;
}

/* flush_upto: delivers, in order, every queued record with time <= bound. */
static int flush_upto(struct pd_reader *r, uint64_t bound)
{
	struct order_queue *q = &r->in->q;
	size_t n = 0;
	if (!q->n)
		return 0;
	sort_queue(q);
	while (n < q->n && q->items[n].time <= bound)
		n++;
	return deliver_first(r, n);
}

/* oq_push: queues one record (copied) with its timestamp. A record without
 * a timestamp is delivered at once, as perf does. */
int oq_push(struct pd_reader *r, const uint8_t *rec, uint32_t size,
	    uint64_t time, uint64_t file_offset)
{
	struct order_queue *q = &r->in->q;
	struct oq_item *it;
	if (!time)
		return pd_deliver(r, rec, size, file_offset);
	if (q->used + size > QUEUE_LIMIT && q->n > 1) {
		int rc;
		sort_queue(q);
		rc = deliver_first(r, q->n / 2);
		if (rc)
			return rc;
	}
	reserve(q, size);
	if (time < q->last_flushed)
		r->nr_unordered++;
	it = &q->items[q->n++];
	it->time = time;
	it->seq = q->seq++;
	it->file_offset = file_offset;
	it->off = q->used;
	it->size = size;
	memcpy(q->arena + q->used, rec, size);
	q->used += size;
	if (time > q->max_time)
		q->max_time = time;
	return 0;
}

/* oq_round: at FINISHED_ROUND, flushes up to the previous round's newest
 * time, then remembers this round's newest for the next one. */
int oq_round(struct pd_reader *r)
{
	struct order_queue *q = &r->in->q;
	int rc = flush_upto(r, q->next_flush);
	q->next_flush = q->max_time;
	return rc;
}

/* oq_flush_all: delivers everything still queued (end of data). */
int oq_flush_all(struct pd_reader *r)
{
	return flush_upto(r, UINT64_MAX);
}

/* oq_free: frees the queue's memory. */
void oq_free(struct order_queue *q)
{
	free(q->items);
	free(q->tmp);
	free(q->arena);
	free(q->spare);
	memset(q, 0, sizeof(*q));
}
