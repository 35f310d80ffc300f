/* perf.data reader: COMPRESSED records. Their payloads form one zstd stream
 * (flushed per record, never ended), and an inner record may straddle two
 * payloads, so decompressed bytes wait in a buffer until a whole record is
 * there. Inner records then go to the caller's inner (the stream handles
 * them like any other). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "lib/alloc.h"
#include "lib/bytes.h"
#include "collect/perfdata/perf_data_int.h"

#define ZOUT_CHUNK (256u << 10)

/* drain: hands every complete inner record to inner and keeps the
 * incomplete tail at the front of the buffer. */
static int drain(struct pd_reader *r, uint64_t off, pd_inner_fn inner)
{
	struct pd_internal *in = r->in;
	size_t pos = 0;
	int rc = 0;
	while (in->zlen - pos >= 8) {
		uint16_t sz = rd16(in->zout + pos + 6, r->swap);
		if (sz < 8) {
			rc = pd_errorf(r, off, "compressed data holds a record of size %u", sz);
			break;
		}
		if (sz > in->zlen - pos)
			break;
		rc = inner(r, in->zout + pos, sz, off);
		if (rc)
			break;
		pos += sz;
	}
	memmove(in->zout, in->zout + pos, in->zlen - pos);
	in->zlen -= pos;
	return rc;
}

/* pd_decompress: see perf_data_int.h. */
int pd_decompress(struct pd_reader *r, const uint8_t *payload, size_t len,
		  uint64_t off, pd_inner_fn inner)
{
	struct pd_internal *in = r->in;
	ZSTD_inBuffer ib = { payload, len, 0 };
	in->zoff = off;
	if (!in->zds) {
		if (!(in->zds = ZSTD_createDStream()))
			return pd_errorf(r, off, "out of memory");
		ZSTD_initDStream(in->zds);
	}
	/* go on while input is left, or the last call filled the output
	 * (zstd may then still hold decoded bytes) */
	for (bool full = true; ib.pos < ib.size || full;) {
		ZSTD_outBuffer ob;
		size_t ret, before = ib.pos;
		int rc;
		/* room for ZOUT_CHUNK more bytes; what waits is less than a
		 * record, so the buffer stays small whatever the frame says */
		ALLOC_GROW(in->zout, in->zlen + ZOUT_CHUNK, in->zcap);
		ob.dst = in->zout + in->zlen;
		ob.size = in->zcap - in->zlen;
		ob.pos = 0;
		ret = ZSTD_decompressStream(in->zds, &ob, &ib);
		if (ZSTD_isError(ret))
			return pd_errorf(r, off, "zstd: %s", ZSTD_getErrorName(ret));
		in->zlen += ob.pos;
		full = ob.pos == ob.size;
		if ((rc = drain(r, off, inner)))
			return rc;
		if (!ob.pos && ib.pos == before && ib.pos < ib.size)
			return pd_errorf(r, off, "zstd stream makes no progress");
	}
	return 0;
}

/* pd_zstd_free: frees the zstd stream and its buffer. */
void pd_zstd_free(struct pd_reader *r)
{
	if (r->in->zds)
		ZSTD_freeDStream(r->in->zds);
	free(r->in->zout);
	r->in->zds = NULL;
	r->in->zout = NULL;
	r->in->zlen = r->in->zcap = 0;
}
