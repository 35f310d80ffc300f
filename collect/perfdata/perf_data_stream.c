/* perf.data reader: the record stream. Reads the data section (file mode)
 * or the whole stream (pipe mode) record by record, handles perf's own
 * records (attrs, features, tracing data, id index, rounds, compression) and
 * queues the kernel's records for time-ordered delivery. */
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/bytes.h"
#include "collect/perfdata/perf_data_int.h"

#define PROGRESS_STEP	(4u << 20)
#define MAX_RECORD	(1u << 16)
#define INBUF_SIZE	(1u << 20)	/* > MAX_RECORD */
#define EVENT_UPDATE_NAME 1

/* begin_read: names the evsels and tells the consumer reading starts. Runs
 * once, before the first kernel record is handled. */
static int begin_read(struct pd_reader *r)
{
	if (r->in->begun)
		return 0;
	r->in->begun = true;
	pd_evsels_name(r);
	return r->in->ops->begin ? r->in->ops->begin(r->in->ops->ctx, r) : 0;
}

/* deliver_value: one counter value of a READ sample as a sample of the
 * value's own event, its period the counter's increase since the last one
 * seen (perf's delivery of PERF_SAMPLE_READ); nothing when it did not grow. */
static int deliver_value(struct pd_reader *r, struct pd_event *ev, const uint8_t *v)
{
	uint64_t value = rd64(v, r->swap), id = 0, last = 0;
	struct pd_evsel *e = NULL;
	if (ev->sample.read_id_off) {
		id = rd64(v + ev->sample.read_id_off, r->swap);
		e = pd_id_lookup(r, id);
	}
	if (!e) {
		r->nr_unknown_id++;
		return 0;
	}
	hm_get(&r->in->read_last, id, 0, &last);
	hm_put(&r->in->read_last, id, 0, value);
	if (value == last)
		return 0;
	ev->evsel = e;
	ev->sample.id = id;
	ev->sample.period = value - last;
	r->nr_samples++;
	return r->in->ops->event(r->in->ops->ctx, r, ev);
}

/* deliver_read: a sample with READ values: one delivery per value. */
static int deliver_read(struct pd_reader *r, struct pd_event *ev)
{
	const uint8_t *base = ev->sample.read;
	uint64_t nr = ev->sample.read_nr;
	int rc = 0;
	for (uint64_t i = 0; i < nr && !rc; i++)
		rc = deliver_value(r, ev, base + i * ev->sample.read_stride);
	return rc;
}

/* deliver: decodes one record and hands it to the consumer (the ordering
 * queue's oq_deliver_fn). */
static int deliver(struct pd_reader *r, const uint8_t *rec, uint32_t size,
		   uint64_t file_offset)
{
	struct pd_event ev;
	const char *why = NULL;
	if (pd_decode(r, rec, size, &ev, &why))
		return pd_errorf(r, file_offset, "%s", why);
	ev.file_offset = file_offset;
	if ((ev.type == PD_LOST || ev.type == PD_LOST_SAMPLES) && ev.sb.lost > PD_LOST_MAX)
		return pd_errorf(r, file_offset, "a %s record counts %llu lost, more than %llu: "
				 "not a count perf writes", ev.type == PD_LOST ? "LOST" : "LOST_SAMPLES",
				 (unsigned long long)ev.sb.lost, (unsigned long long)PD_LOST_MAX);
	switch (ev.type) {
	case PD_SAMPLE:
		if (!ev.evsel) {
			r->nr_unknown_id++;
			return 0;
		}
		if (ev.evsel->sample_type & PD_SAMPLE_READ)
			return deliver_read(r, &ev);
		r->nr_samples++;
		break;
	case PD_LOST:
		r->nr_lost += ev.sb.lost;
		r->nr_lost_records++;
		break;
	default:
		if (ev.type < PD_HEADER_ATTR && !ev.evsel) {
			r->nr_unknown_id++;	/* trailer id matches no attr: perf drops it */
			return 0;
		}
		break;
	case PD_LOST_SAMPLES:
		r->nr_lost_samples += ev.sb.lost;
		break;
	}
	return r->in->ops->event(r->in->ops->ctx, r, &ev);
}

/* header_attr: a pipe-mode HEADER_ATTR: an attr, then its ids. */
static int header_attr(struct pd_reader *r, const uint8_t *rec, size_t size,
		       uint64_t off)
{
	struct pd_evsel *e;
	uint32_t asz;
	size_t nids;
	uint64_t *ids;
	if (size < 8 + 64)
		return pd_errorf(r, off, "HEADER_ATTR record too short");
	asz = rd32(rec + 12, r->swap);
	if (!asz)
		asz = 64;
	if (asz < 64 || asz > size - 8)
		return pd_errorf(r, off + 12, "attr size %u does not fit its record", asz);
	nids = (size - 8 - asz) / 8;		/* what the record holds */
	if (r->nr_evsels >= PD_MAX_ATTRS)
		return pd_errorf(r, off, "more than %d HEADER_ATTR records", PD_MAX_ATTRS);
	if (nids > PD_MAX_IDS - r->in->ids_total)
		return pd_errorf(r, off, "HEADER_ATTR records declare more than %u sample ids together",
				 PD_MAX_IDS);
	e = pd_evsel_add(r, rec + 8, asz);	/* asz >= 64: never NULL */
	ids = xreallocarray(NULL, nids, sizeof(*ids));
	for (size_t i = 0; i < nids; i++)
		ids[i] = rd64(rec + 8 + asz + 8 * i, r->swap);
	pd_evsel_add_ids(r, e, ids, nids);
	free(ids);
	return 0;
}

/* id_index: ID_INDEX entries {id, idx, cpu, tid} tie ids to ring buffers
 * (idx is the mmap index, not an evsel): ids already name their evsel
 * through the attrs; the CPU of each id is kept for pd_id_cpu (the
 * LOST_SAMPLES records perf writes at the end carry no CPU of their own). */
static int id_index(struct pd_reader *r, const uint8_t *rec, size_t size,
		    uint64_t off)
{
	uint64_t nr;
	if (size < 16)
		return pd_errorf(r, off, "ID_INDEX record too short");
	nr = rd64(rec + 8, r->swap);
	if (nr > (size - 16) / 32)
		return pd_errorf(r, off, "ID_INDEX claims %llu entries in %zu bytes",
				 (unsigned long long)nr, size);
	for (uint64_t i = 0; i < nr; i++) {
		const uint8_t *e = rec + 16 + 32 * i;
		uint64_t cpu = rd64(e + 16, r->swap);
		if (cpu < (1u << 20))	/* (u64)-1: a per-thread buffer */
			hm_put(&r->in->id_cpu, rd64(e, r->swap), 0, cpu + 1);
	}
	return 0;
}

/* pd_id_cpu: see perf_data.h. */
int pd_id_cpu(const struct pd_reader *r, uint64_t id)
{
	uint64_t v;
	return hm_get(&r->in->id_cpu, id, 0, &v) ? (int)v - 1 : -1;
}

/* event_update: EVENT_UPDATE of type NAME renames the evsel of an id. */
static void event_update(struct pd_reader *r, const uint8_t *rec, size_t size)
{
	struct pd_evsel *e;
	if (size < 25 || rd64(rec + 8, r->swap) != EVENT_UPDATE_NAME)
		return;
	e = pd_id_lookup(r, rd64(rec + 16, r->swap));
	if (!e || !memchr(rec + 24, 0, size - 24))
		return;
	free(e->name);
	e->name = xstrdup((const char *)rec + 24);
}

/* header_feature: pipe-mode HEADER_FEATURE (u64 id + section bytes). */
static int header_feature(struct pd_reader *r, const uint8_t *rec, size_t size,
			  uint64_t off)
{
	char why[256];
	uint64_t id;
	int rc;
	if (size < 16)
		return pd_errorf(r, off, "HEADER_FEATURE record too short");
	id = rd64(rec + 8, r->swap);
	rc = id < 256 ? pd_feature_parse(&r->features, (int)id, rec + 16, size - 16,
					 r->swap, why, sizeof(why)) : 0;
	if (rc == -2)
		return pd_errorf(r, off, "%s", why);	/* a limit passed: refused */
	if (rc)
		pd_warnf(r, off, "%s", why);
	return 0;
}

/* kernel_record: queues a kernel-generated record by its timestamp; its
 * bytes are the input file's at off unless it came out of a COMPRESSED
 * record. */
static int kernel_record(struct pd_reader *r, const uint8_t *rec, size_t size,
			 uint64_t off, bool from_compressed)
{
	const char *why = NULL;
	uint64_t t;
	int rc = begin_read(r);
	if (rc)
		return rc;
	if (pd_sample_time(r, rec, size, &t, &why))
		return pd_errorf(r, off, "%s", why);
	return oq_push(r, rec, (uint32_t)size, t, off, !from_compressed);
}

static int handle_record(struct pd_reader *r, const uint8_t *rec, size_t size,
			 uint64_t off, bool from_compressed);

/* inner_record: a record out of a COMPRESSED one (the zstd stream's
 * pd_inner_fn). */
static int inner_record(struct pd_reader *r, const uint8_t *rec, size_t size, uint64_t off)
{
	return handle_record(r, rec, size, off, true);
}

/* compressed: COMPRESSED / COMPRESSED2 payloads go to the zstd stream. */
static int compressed(struct pd_reader *r, uint32_t type, const uint8_t *rec,
		      size_t size, uint64_t off)
{
	uint64_t len;
	if (type == PD_COMPRESSED)
		return pd_decompress(r, rec + 8, size - 8, off, inner_record);
	if (size < 16)
		return pd_errorf(r, off, "COMPRESSED2 record too short");
	len = rd64(rec + 8, r->swap);
	if (len > size - 16)
		return pd_errorf(r, off + 8, "COMPRESSED2 data size %llu exceeds its record",
				 (unsigned long long)len);
	return pd_decompress(r, rec + 16, (size_t)len, off, inner_record);
}

/* handle_record: dispatches one complete record rec[0..size). */
static int handle_record(struct pd_reader *r, const uint8_t *rec, size_t size,
			 uint64_t off, bool from_compressed)
{
	uint32_t type = rd32(rec, r->swap);
	r->nr_records++;
	if (type < PD_HEADER_ATTR)
		return kernel_record(r, rec, size, off, from_compressed);
	switch (type) {
	case PD_HEADER_ATTR:
		return header_attr(r, rec, size, off);
	case PD_HEADER_FEATURE:
		return header_feature(r, rec, size, off);
	case PD_HEADER_BUILD_ID:
		(void)pd_feature_parse(&r->features, 2, rec, size, r->swap, NULL, 0);
		return 0;
	case PD_FINISHED_ROUND:
		return oq_round(r);
	case PD_ID_INDEX:
		return id_index(r, rec, size, off);
	case PD_EVENT_UPDATE:
		event_update(r, rec, size);
		return 0;
	case PD_COMPRESSED:
	case PD_COMPRESSED2:
		if (from_compressed)
			return pd_errorf(r, off, "compressed record inside a compressed record");
		return compressed(r, type, rec, size, off);
	default:
		return 0;	/* stat, maps, time conv, auxtrace info: not used */
	}
}

/* in_avail: makes up to n bytes of the stream available at the input
 * buffer's read position (moving what is left to the front and reading
 * more) and returns how many are (fewer than n only at the end). Pointers
 * into the buffer stay valid until the next call. */
static size_t in_avail(struct pd_reader *r, size_t n)
{
	struct pd_internal *in = r->in;
	if (in->ilen - in->ipos >= n)
		return n;
	memmove(in->ibuf, in->ibuf + in->ipos, in->ilen - in->ipos);
	in->ilen -= in->ipos;
	in->ipos = 0;
	while (in->ilen < n && !in->ieof) {
		size_t got = fread(in->ibuf + in->ilen, 1, INBUF_SIZE - in->ilen, r->fp);
		if (!got)
			in->ieof = true;
		in->ilen += got;
	}
	return in->ilen < n ? in->ilen : n;
}

/* read_exact: copies the next n bytes of the stream into buf; 1 at a clean
 * end, -1 when the stream ends early. */
static int read_exact(struct pd_reader *r, void *buf, size_t n, bool eof_ok)
{
	uint8_t *out = buf;
	size_t done = 0;
	while (done < n) {
		size_t k = n - done < INBUF_SIZE ? n - done : INBUF_SIZE;
		size_t got = in_avail(r, k);
		memcpy(out + done, r->in->ibuf + r->in->ipos, got);
		r->in->ipos += got;
		done += got;
		if (got < k)
			return done == 0 && eof_ok ? 1 : -1;
	}
	return 0;
}

/* skip_bytes: skips n bytes of the stream. */
static int skip_bytes(struct pd_reader *r, uint64_t n)
{
	uint8_t buf[4096];
	while (n) {
		size_t k = n < sizeof(buf) ? (size_t)n : sizeof(buf);
		if (read_exact(r, buf, k, false))
			return -1;
		n -= k;
	}
	return 0;
}

/* read_grown: the next len bytes of the stream in a new buffer that grows
 * as they arrive, so a length the stream does not hold (a pipe's size is
 * unknown) never allocates much more than was really read; NULL when the
 * stream ends first. */
static uint8_t *read_grown(struct pd_reader *r, size_t len)
{
	uint8_t *buf = NULL;
	size_t cap = 0, done = 0;
	while (done < len) {
		size_t k = len - done < INBUF_SIZE ? len - done : INBUF_SIZE;
		ALLOC_GROW(buf, done + k, cap);
		if (read_exact(r, buf + done, k, false)) {
			free(buf);
			return NULL;
		}
		done += k;
	}
	return buf ? buf : xmalloc(1);
}

/* tracing_payload: the tracing data that follows a pipe-mode
 * HEADER_TRACING_DATA record (at offset at) outside its size, padded to 8
 * bytes; *pos is where the payload starts, and is moved past it. The size
 * comes from the file: one the file's remaining bytes cannot hold is
 * refused as truncated before anything is allocated. */
static int tracing_payload(struct pd_reader *r, const uint8_t *rec, size_t size,
			   uint64_t at, uint64_t *pos)
{
	uint32_t len = size >= 12 ? rd32(rec + 8, r->swap) : 0;
	uint32_t pad = (8 - len % 8) % 8;
	uint8_t *buf = NULL;
	int rc;
	if (len > (256u << 20))
		return pd_errorf(r, at + 8, "tracing data size %u is implausible", len);
	if ((r->file_size && (*pos > r->file_size || len > r->file_size - *pos)) ||
	    !(buf = read_grown(r, len)) || skip_bytes(r, pad)) {
		free(buf);
		return pd_errorf(r, *pos, "tracing data truncated");
	}
	rc = pd_set_tracing_data(r, buf, len, *pos);
	free(buf);
	*pos += len + pad;
	return rc;
}

/* auxtrace_payload: AUXTRACE data follows its record (at offset at); it is
 * skipped, and *pos (where it starts) moved past it. */
static int auxtrace_payload(struct pd_reader *r, const uint8_t *rec, size_t size,
			    uint64_t at, uint64_t *pos)
{
	uint64_t len = size >= 16 ? rd64(rec + 8, r->swap) : 0;
	if (r->file_size && len > r->file_size)
		return pd_errorf(r, at + 8, "AUXTRACE size %llu exceeds the file",
				 (unsigned long long)len);
	if (skip_bytes(r, len))
		return pd_errorf(r, *pos, "AUXTRACE data truncated");
	*pos += len;
	return 0;
}

/* implausible: whether a pipe stream's next header is trailing junk (the
 * console text some perf versions append) rather than a record: its type
 * is no record type. */
static bool implausible(uint32_t type)
{
	return type == 0 || type > PD_COMPRESSED2 + 16;
}

/* cut_short: the end of an unfinished file's data: what is left at pos is
 * not a whole record (perf record was stopped while writing it). 1. */
static int cut_short(struct pd_reader *r, uint64_t pos)
{
	if (pos < r->data_offset + r->data_size)
		pd_warnf(r, pos, "the file ends inside a record: %llu bytes left out",
			 (unsigned long long)(r->data_offset + r->data_size - pos));
	return 1;
}

/* next_record: the next record at *pos, in the input buffer. Returns 0
 * with *rec and *size set, 1 at the end of data, -1 on error. */
static int next_record(struct pd_reader *r, uint64_t *pos, uint64_t end,
		       const uint8_t **rec, size_t *size)
{
	const uint8_t *b;
	uint32_t type;
	uint16_t sz;
	size_t got;
	if (!r->pipe_mode && *pos >= end)
		return 1;
	got = in_avail(r, 8);
	if (!got && r->pipe_mode)
		return 1;
	if (got < 8 && r->unfinished)
		return cut_short(r, *pos);
	if (got < 8)
		return pd_errorf(r, *pos, "record header truncated");
	b = r->in->ibuf + r->in->ipos;
	type = rd32(b, r->swap);
	sz = rd16(b + 6, r->swap);
	if (r->unfinished && (implausible(type) || sz < 8 || sz > end - *pos || in_avail(r, sz) < sz))
		return cut_short(r, *pos);
	if (r->pipe_mode && implausible(type) && r->nr_records) {
		pd_warnf(r, *pos, "stopping at data that is not a record");
		return 1;
	}
	if (sz < 8)
		return pd_errorf(r, *pos, "record size %u is below the 8-byte header", sz);
	if (!r->pipe_mode && sz > end - *pos)
		return pd_errorf(r, *pos, "record of %u bytes runs past the data section", sz);
	if (in_avail(r, sz) < sz)
		return pd_errorf(r, *pos, "record of %u bytes truncated", sz);
	*rec = r->in->ibuf + r->in->ipos;
	r->in->ipos += sz;
	*size = sz;
	return 0;
}

/* report_progress: calls the progress callback every PROGRESS_STEP bytes. */
static void report_progress(struct pd_reader *r, uint64_t pos, uint64_t *next)
{
	r->bytes_done = pos;
	if (r->in->ops->progress && pos >= *next) {
		r->in->ops->progress(r->in->ops->ctx, r);
		*next = pos + PROGRESS_STEP;
	}
}

/* pd_read: see perf_data.h. */
int pd_read(struct pd_reader *r, const struct pd_ops *ops, char *err, size_t errlen)
{
	uint64_t pos = r->data_offset, end = r->data_offset + r->data_size, next = 0;
	const uint8_t *rec = NULL;
	size_t size = 0;
	int rc;
	r->in->ops = ops;
	r->in->err = err;
	r->in->errlen = errlen;
	if (!r->in->rec)
		r->in->rec = xmalloc(MAX_RECORD);
	if (!r->in->ibuf)
		r->in->ibuf = xmalloc(INBUF_SIZE);
	oq_start(r, deliver);
	while (!(rc = next_record(r, &pos, end, &rec, &size))) {
		uint64_t at = pos;
		uint32_t type = rd32(rec, r->swap);
		pos += size;
		if (type == PD_HEADER_TRACING_DATA || type == PD_AUXTRACE) {
			/* its payload follows: keep the record itself aside */
			memcpy(r->in->rec, rec, size);
			rec = r->in->rec;
		}
		if (type == PD_HEADER_TRACING_DATA)
			rc = tracing_payload(r, rec, size, at, &pos);
		else if (type == PD_AUXTRACE)
			rc = auxtrace_payload(r, rec, size, at, &pos);
		if (!rc)
			rc = handle_record(r, rec, size, at, false);
		if (rc)
			return rc;
		report_progress(r, pos, &next);
	}
	if (rc < 0)
		return rc;
	if (r->in->zlen) {	/* perf record can end its compressed data so; perf drops it too */
		r->zstd_tail = r->in->zlen;
		pd_warnf(r, r->in->zoff, "compressed data ends inside a record: its %zu bytes are "
			 "left out (as perf does)", r->in->zlen);
	}
	if ((rc = begin_read(r)))
		return rc;
	return oq_flush_all(r);
}
