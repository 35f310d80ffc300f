/* perf.data reader internals shared by the collect/perf_data_*.c files:
 * the id -> evsel map, the time-ordering queue and the zstd state. Not for
 * consumers of the reader, who use collect/perf_data.h only. */
#ifndef PERFDB_PERF_DATA_INT_H
#define PERFDB_PERF_DATA_INT_H
#include <stdarg.h>
#include "lib/hashmap.h"
#include "collect/perf_data.h"

/* A queued record: its bytes live in the queue's arena. */
struct oq_item {
	uint64_t time, seq, file_offset;
	size_t off;			/* into the arena */
	uint32_t size;
};

/* Time-ordering queue for one FINISHED_ROUND window (plus the previous). */
struct order_queue {
	struct oq_item *items;
	size_t n, cap;
	struct oq_item *tmp;		/* the merge sort's other buffer */
	size_t tcap;
	uint8_t *arena, *spare;		/* spare: where a flush moves the rest */
	size_t used, acap, spare_cap;
	uint64_t seq;
	uint64_t max_time;		/* largest time queued so far */
	uint64_t next_flush;		/* flush bound set at the last round */
	uint64_t last_flushed;		/* time of the last delivered record */
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

/* Ordering queue (perf_data_order.c). Delivery goes through pd_deliver. */
int oq_push(struct pd_reader *r, const uint8_t *rec, uint32_t size,
	    uint64_t time, uint64_t file_offset);
int oq_round(struct pd_reader *r);	/* at FINISHED_ROUND */
int oq_flush_all(struct pd_reader *r);	/* at end of data */
void oq_free(struct order_queue *q);
int pd_deliver(struct pd_reader *r, const uint8_t *rec, uint32_t size,
	       uint64_t file_offset);

/* Stream handling (perf_data_stream.c). */
int pd_handle_record(struct pd_reader *r, const uint8_t *rec, size_t size,
		     uint64_t file_offset, bool from_compressed);
int pd_begin(struct pd_reader *r);
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

/* Zstd (perf_data_zstd.c): feeds one COMPRESSED payload, handing each
 * complete inner record to pd_handle_record. */
int pd_decompress(struct pd_reader *r, const uint8_t *payload, size_t len,
		  uint64_t file_offset);
void pd_zstd_free(struct pd_reader *r);

#endif
