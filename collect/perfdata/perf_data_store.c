/* perf.data reader: where the time-ordering merge reads pending records
 * back from. A record of the data section is read again from the input file
 * at its offset; a record that is not in the file as such (decompressed
 * from a COMPRESSED record, or read from a pipe) is first appended to the
 * spill, an unlinked temporary file, as an entry {u64 time, u64 file
 * offset, record}. Both are read with pread through a fixed cache of small
 * blocks, each held by one run, so memory stays the same whatever the
 * number of pending records. Spill bytes the merge has passed are given
 * back to the file system (hole punching). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/alloc.h"
#include "lib/bytes.h"
#include "collect/perfdata/perf_data_int.h"

#define SPILL_WBUF	(1u << 20)	/* spill bytes collected before a write */
#define PUNCH_STEP	(8u << 20)	/* give back spill bytes this many at a time */
#define BIG_SIZE	(OQ_SPILL_ENTRY + (1u << 16))	/* the largest entry */

/* os_init: the store of a read: fd is the input file when its records can
 * be read again by offset (a regular file), else -1. */
void os_init(struct oq_store *s, int fd)
{
	s->fd = fd;
	s->spill_fd = -1;
	for (int i = 0; i < OQ_BLOCKS; i++)
		s->blocks[i].owner = -1;
}

/* spill_dir: where the spill goes: $TMPDIR, else /tmp. */
static const char *spill_dir(void)
{
	const char *d = getenv("TMPDIR");
	return d && *d ? d : "/tmp";
}

/* spill_open: makes the unlinked spill file; -1 with errno when it cannot. */
static int spill_open(void)
{
	const char *dir = spill_dir();
	char *path;
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	path = xasprintf("%s/perfdb-order.XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	free(path);
	return fd;
}

/* write_all: writes n bytes at p to fd; 0, or -1 with errno. */
static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* os_sync: see perf_data_int.h. */
int os_sync(struct pd_reader *r)
{
	struct oq_store *s = &r->in->q.store;
	if (!s->wlen)
		return 0;
	if (write_all(s->spill_fd, s->wbuf, s->wlen))
		return pd_errorf(r, s->last_foff, "cannot write the temporary file in %s that "
				 "orders records in time: %s", spill_dir(), strerror(errno));
	s->wlen = 0;
	return 0;
}

/* os_spill: see perf_data_int.h. */
int os_spill(struct pd_reader *r, const uint8_t *rec, uint32_t size, uint64_t time,
	     uint64_t foff)
{
	struct oq_store *s = &r->in->q.store;
	uint8_t head[OQ_SPILL_ENTRY];
	if (s->spill_fd < 0 && (s->spill_fd = spill_open()) < 0)
		return pd_errorf(r, foff, "cannot make a temporary file in %s to order records "
				 "in time (%s): set TMPDIR to a writable directory", spill_dir(),
				 strerror(errno));
	if (!s->wbuf)
		s->wbuf = xmalloc(SPILL_WBUF);
	s->last_foff = foff;
	if (s->wlen + OQ_SPILL_ENTRY + size > SPILL_WBUF && os_sync(r))
		return -1;
	memcpy(head, &time, 8);
	memcpy(head + 8, &foff, 8);
	memcpy(s->wbuf + s->wlen, head, OQ_SPILL_ENTRY);
	memcpy(s->wbuf + s->wlen + OQ_SPILL_ENTRY, rec, size);
	s->wlen += OQ_SPILL_ENTRY + size;
	s->spill_end += OQ_SPILL_ENTRY + size;
	return 0;
}

/* read_at: reads up to n bytes of fd at off into buf (fewer only at the
 * end of the file); the count, or -1 with errno. */
static ssize_t read_at(int fd, uint8_t *buf, size_t n, uint64_t off)
{
	size_t done = 0;
	while (done < n) {
		ssize_t k = pread(fd, buf + done, n - done, (off_t)(off + done));
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (!k)
			break;
		done += (size_t)k;
	}
	return (ssize_t)done;
}

/* pick_block: the block owner reads through: its own while it still holds
 * it, else the next in turn (taken from whichever run held it). */
static struct oq_block *pick_block(struct oq_store *s, int32_t owner, int32_t *blk)
{
	struct oq_block *b;
	if (*blk < 0 || s->blocks[*blk].owner != owner) {
		*blk = (int32_t)(s->clock++ % OQ_BLOCKS);
		s->blocks[*blk].owner = owner;
	}
	b = &s->blocks[*blk];
	if (!b->buf)
		b->buf = xmalloc(OQ_BLOCK_SIZE);
	return b;
}

/* os_bytes: see perf_data_int.h. */
const uint8_t *os_bytes(struct pd_reader *r, int src, int32_t owner, int32_t *blk,
			uint64_t off, size_t n, uint64_t limit)
{
	struct oq_store *s = &r->in->q.store;
	int fd = src == OQ_SRC_SPILL ? s->spill_fd : s->fd;
	struct oq_block *b = *blk >= 0 ? &s->blocks[*blk] : NULL;
	uint8_t *buf;
	size_t want;
	ssize_t got;
	if (b && b->owner == owner && off >= b->off && n <= b->len && off - b->off <= b->len - n)
		return b->buf + (off - b->off);
	if (n > OQ_BLOCK_SIZE) {
		if (!s->big)
			s->big = xmalloc(BIG_SIZE);
		buf = s->big, want = n;
	} else {
		b = pick_block(s, owner, blk);
		buf = b->buf;
		want = limit - off < OQ_BLOCK_SIZE ? (size_t)(limit - off) : OQ_BLOCK_SIZE;
		b->len = 0;
	}
	got = n <= BIG_SIZE && fd >= 0 ? read_at(fd, buf, want, off) : -1;
	if (got < (ssize_t)n)
		return NULL;
	if (buf != s->big) {
		b->off = off;
		b->len = (size_t)got;
	}
	return buf;
}

/* os_release: see perf_data_int.h. */
void os_release(struct oq_store *s, int32_t owner, int32_t blk)
{
	if (blk >= 0 && s->blocks[blk].owner == owner)
		s->blocks[blk].owner = -1;
}

/* os_trim: see perf_data_int.h. */
void os_trim(struct oq_store *s, uint64_t below)
{
	uint64_t end = below & ~(uint64_t)(PUNCH_STEP - 1);
	if (s->spill_fd < 0 || s->punch_failed || end < s->punched + PUNCH_STEP)
		return;
	if (fallocate(s->spill_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)s->punched, (off_t)(end - s->punched)))
		s->punch_failed = true;	/* the file then keeps what was spilled */
	else
		s->punched = end;
}

/* os_free: see perf_data_int.h. */
void os_free(struct oq_store *s)
{
	if (s->spill_fd >= 0)
		close(s->spill_fd);
	for (int i = 0; i < OQ_BLOCKS; i++)
		free(s->blocks[i].buf);
	free(s->wbuf);
	free(s->big);
	memset(s, 0, sizeof(*s));
	s->fd = s->spill_fd = -1;
}
