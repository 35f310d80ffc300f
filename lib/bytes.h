/* Byte-order aware loads from untrusted buffers: perf.data may come from a
 * machine of the other endianness, and nothing in it is aligned for sure. */
#ifndef PERFDB_BYTES_H
#define PERFDB_BYTES_H
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* rd16/rd32/rd64(p, swap): the integer at p (any alignment), byte-swapped
 * when swap is true (the file's endianness differs from ours). */
static inline uint16_t rd16(const void *p, bool swap)
{
	uint16_t v;
	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t rd32(const void *p, bool swap)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t rd64(const void *p, bool swap)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap64(v) : v;
}

/* A read cursor over [p, p+len): reads fail (return false) instead of
 * running past the end, so parsers of untrusted data stay in bounds. */
struct cursor {
	const uint8_t *base;
	size_t len, pos;
	bool swap;
};

static inline void cur_init(struct cursor *c, const void *p, size_t len, bool swap)
{
	c->base = p;
	c->len = len;
	c->pos = 0;
	c->swap = swap;
}

static inline bool cur_has(const struct cursor *c, size_t n)
{
	return c->pos <= c->len && c->len - c->pos >= n;
}

static inline bool cur_u32(struct cursor *c, uint32_t *v)
{
	if (!cur_has(c, 4))
		return false;
	*v = rd32(c->base + c->pos, c->swap);
	c->pos += 4;
	return true;
}

static inline bool cur_u64(struct cursor *c, uint64_t *v)
{
	if (!cur_has(c, 8))
		return false;
	*v = rd64(c->base + c->pos, c->swap);
	c->pos += 8;
	return true;
}

static inline bool cur_skip(struct cursor *c, size_t n)
{
	if (!cur_has(c, n))
		return false;
	c->pos += n;
	return true;
}

/* cur_bytes: a pointer to the next n bytes, or NULL when fewer remain. */
static inline const uint8_t *cur_bytes(struct cursor *c, size_t n)
{
	const uint8_t *p;
	if (!cur_has(c, n))
		return NULL;
	p = c->base + c->pos;
	c->pos += n;
	return p;
}
#endif
