/* perf.data reader internals shared by the collect/perfdata/perf_data_*.c files:
 * the id -> evsel map, the time-ordering queue and the zstd state. Not for
 * consumers of the reader, who use collect/perfdata/perf_data.h only. */
#ifndef PERFDB_PERF_DATA_INT_H
#define PERFDB_PERF_DATA_INT_H
#include <stdarg.h>
#include "lib/hashmap.h"
#include "collect/perfdata/perf_data.h"

/* Where a pending record is read back from (perf_data_store.c): the input
 * file, or the spill (a temporary file of {u64 time, u64 file offset,
 * record} entries: records decompressed from COMPRESSED records, or read
 * from a pipe). */
enum { OQ_SRC_FILE, OQ_SRC_SPILL };
#define OQ_SPILL_ENTRY	16		/* time and file offset before a spilled record */
#define OQ_BLOCKS	1024		/* blocks of the read-back cache */
#define OQ_BLOCK_SIZE	(16u << 10)	/* bytes of one block */
#define OQ_MAX_RUNS	16384		/* pending runs at most (see oq_push) */

/* One block of the read-back cache: bytes [off, off + len) of the store
 * owner reads from (owner: a run's slot, -1 for none). */
struct oq_block {
	uint8_t *buf;
	uint64_t off;
	size_t len;
	int32_t owner;
};

struct oq_store {
	int fd;				/* the input file, or -1 */
	int spill_fd;			/* -1 until the first record is spilled */
	uint8_t *wbuf;			/* spill entries not yet written */
	size_t wlen;
	uint64_t spill_end;		/* spill bytes, written or in wbuf */
	uint64_t punched;		/* spill bytes given back so far */
	uint64_t last_foff;		/* file offset of the last spilled record */
	bool punch_failed;
	unsigned clock;			/* the next block to take */
	struct oq_block blocks[OQ_BLOCKS];
	uint8_t *big;			/* a record larger than a block */
};

/* A pending ascending run: records of one store, one after the other, in
 * (time, arrival) order, of which the first pending one is the head. */
struct oq_run {
	uint64_t off, end;		/* the head's offset in its store; the run's end */
	uint64_t time, seq;		/* the head's time and arrival number */
	uint64_t foff;			/* the head's file offset */
	uint64_t last_time;		/* time of the run's last record */
	uint64_t pending;		/* records not yet delivered, head included */
	uint32_t size;			/* the head record's size */
	int32_t blk;			/* its block in the cache, or -1 */
	uint8_t src;			/* OQ_SRC_FILE or OQ_SRC_SPILL */
};

struct pd_reader;

/* oq_deliver_fn(r, rec, size, file_offset): where the ordering queue hands
 * each record on, in time order (the stream's decoding and delivery to the
 * consumer); 0, or a status that stops the read. */
typedef int (*oq_deliver_fn)(struct pd_reader *r, const uint8_t *rec, uint32_t size,
			     uint64_t file_offset);

/* Time ordering (perf_data_order.c): pending runs, a min-heap of them by
 * their heads' (time, arrival), and the FINISHED_ROUND bounds. */
struct order_queue {
	struct oq_run *runs;		/* slots, some free */
	size_t nslots, slots_cap;
	int32_t *free_slots, *heap;	/* free slots; the heap of pending runs */
	size_t nfree, free_cap, nheap, heap_cap;
	int32_t open;			/* the run the next record may extend, or -1 */
	uint64_t seq;			/* arrival number of the next queued record */
	uint64_t max_time;		/* largest time queued so far */
	uint64_t next_flush;		/* flush bound set at the last round */
	uint64_t last_flushed;		/* time of the last delivered record */
	bool capped;			/* the run cap was passed (warned once) */
	oq_deliver_fn deliver;		/* where records go (oq_start) */
	struct oq_store store;
};

/* What the reader keeps of a file's event selectors at most: attrs (file
 * mode: the attrs section; pipe mode: HEADER_ATTR records) and sample ids
 * over all of them (real recordings: events x CPUs or threads). */
#define PD_MAX_ATTRS	65536
#define PD_MAX_IDS	(1u << 21)

struct pd_internal {
	/* id -> evsel, open addressing on the id */
	uint64_t *id_keys;
	struct pd_evsel **id_vals;
	size_t id_cap, id_count;
	size_t ids_total;		/* ids added over all evsels */
	size_t evsels_cap;		/* room in r->evsels */
	struct order_queue q;
	void *zds;			/* ZSTD_DStream * */
	uint8_t *zout;			/* decompressed bytes not yet consumed */
	size_t zlen, zcap;
	uint64_t zoff;			/* offset of the last COMPRESSED record */
	uint8_t *rec;			/* scratch for one record */
	size_t rec_cap;
	uint8_t *ibuf;			/* input buffer: records are read in place */
	size_t ipos, ilen;
	bool ieof;
	struct hashmap read_last;	/* READ: id -> last counter value */
	struct hashmap id_cpu;		/* ID_INDEX: id -> cpu + 1 */
	bool begun;
	const struct pd_ops *ops;
	char *err;
	size_t errlen;
};

/* pd_errorf: formats "PATH: offset N: what" into the reader's error buffer
 * and returns -1 (so callers can `return pd_errorf(...)`). */
int pd_errorf(struct pd_reader *r, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* pd_warnf: keeps a warning "PATH: offset N: what" in r->warnings (the
 * consumer shows them once the read has succeeded; at most 100). */
void pd_warnf(struct pd_reader *r, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Evsel table (perf_data_evsel.c). pd_evsel_add(r, attr, len): appends
 * an evsel decoded from the attr bytes attr[0..len) (at most attr.size of
 * them); NULL when len is below the smallest attr (64 bytes).
 * pd_evsel_add_ids(r, e, ids, n): adds n ids to e and to the id map.
 * pd_id_map(r, id, e): maps sample id to e (a later mapping wins).
 * pd_id_lookup(r, id): the evsel of id, or NULL. pd_evsels_name(r): names
 * every evsel still without a name. pd_evsels_free(r): frees them all and
 * the id map. */
struct pd_evsel *pd_evsel_add(struct pd_reader *r, const uint8_t *attr, size_t len);
void pd_evsel_add_ids(struct pd_reader *r, struct pd_evsel *e, const uint64_t *ids, size_t n);
void pd_id_map(struct pd_reader *r, uint64_t id, struct pd_evsel *e);
struct pd_evsel *pd_id_lookup(const struct pd_reader *r, uint64_t id);
void pd_evsels_name(struct pd_reader *r);
void pd_evsels_free(struct pd_reader *r);

/* Record decoding (perf_data_parse.c). Return 0, or -1 with *why set. */
int pd_sample_time(struct pd_reader *r, const uint8_t *rec, size_t size,
		   uint64_t *time, const char **why);
int pd_decode(struct pd_reader *r, const uint8_t *rec, size_t size,
	      struct pd_event *ev, const char **why);

/* Ordering queue (perf_data_order.c). oq_init(q): an empty queue (at
 * pd_open). oq_start(r, deliver): before the first record: records go to
 * deliver; the input file is read back by offset when it is a regular
 * file the reader opened itself.
 * oq_push(r, rec, size, time, file_offset, in_file): one kernel record;
 * in_file says its bytes are the input file's at file_offset (else they
 * are spilled); a record without time is delivered at once. oq_round(r):
 * at FINISHED_ROUND, delivers what is not newer than the previous round's
 * newest. oq_flush_all(r): delivers the rest (end of data). oq_free(q):
 * frees it all. Each returns 0, or the first non-zero status deliver
 * returned. */
void oq_init(struct order_queue *q);
void oq_start(struct pd_reader *r, oq_deliver_fn deliver);
int oq_push(struct pd_reader *r, const uint8_t *rec, uint32_t size,
	    uint64_t time, uint64_t file_offset, bool in_file);
int oq_round(struct pd_reader *r);
int oq_flush_all(struct pd_reader *r);
void oq_free(struct order_queue *q);

/* Read-back store (perf_data_store.c). os_init(s, fd): an empty store
 * over input fd (-1: none). os_spill(r, rec, size, time, foff): appends a
 * spill entry at s->spill_end (the spill is made at the first; an error
 * names foff). os_sync(r): writes what os_spill collected (before reading
 * back). os_bytes(r, src, owner, blk, off, n, limit): n bytes of store src
 * at off, through owner's block *blk (updated), reading ahead no further
 * than limit (>= off + n); valid until owner's next call; NULL when they
 * cannot be read. os_release(s, owner, blk): owner gives its block back.
 * os_trim(s, below): spill bytes below offset below are no longer needed.
 * os_free(s): closes and frees it. */
void os_init(struct oq_store *s, int fd);
int os_spill(struct pd_reader *r, const uint8_t *rec, uint32_t size, uint64_t time,
	     uint64_t foff);
int os_sync(struct pd_reader *r);
const uint8_t *os_bytes(struct pd_reader *r, int src, int32_t owner, int32_t *blk,
			uint64_t off, size_t n, uint64_t limit);
void os_release(struct oq_store *s, int32_t owner, int32_t blk);
void os_trim(struct oq_store *s, uint64_t below);
void os_free(struct oq_store *s);

/* pd_set_tracing_data(r, buf, len, offset): the first TRACING_DATA blob
 * (found at offset) parsed into r->tep, tried in a child first as
 * pd_set_tracing_vet says; later ones are ignored. 0, or -1 with the
 * error at offset (perf_data_header.c). */
int pd_set_tracing_data(struct pd_reader *r, const uint8_t *buf, size_t len,
			uint64_t offset);

/* pd_child_survives(fn, buf, len, why, whylen): runs fn(buf, len) in a
 * child process (stderr silenced) and returns 0 when fn came back: the
 * child then writes its verdict "ok" to a pipe and exits 0. Any other
 * end is -1 with the reason in why ("it dies of signal 11", "it exits
 * with status 1": a sanitizer that caught the fault, or no verdict), as
 * is a failed fork. How tracing data is vetted (perf_data_header.c). */
int pd_child_survives(void (*fn)(const uint8_t *, size_t), const uint8_t *buf, size_t len,
		      char *why, size_t whylen);

/* pd_inner_fn(r, rec, size, file_offset): where the zstd stream hands
 * each complete inner record (the stream's record dispatch); 0, or a
 * status that stops the read. */
typedef int (*pd_inner_fn)(struct pd_reader *r, const uint8_t *rec, size_t size,
			   uint64_t file_offset);

/* Zstd (perf_data_zstd.c). pd_decompress(r, payload, len, file_offset,
 * inner): feeds one COMPRESSED payload, handing each complete inner
 * record to inner; 0, or -1 (error set), or inner's status.
 * pd_zstd_free(r): frees the stream and its buffer. */
int pd_decompress(struct pd_reader *r, const uint8_t *payload, size_t len,
		  uint64_t file_offset, pd_inner_fn inner);
void pd_zstd_free(struct pd_reader *r);

#endif
