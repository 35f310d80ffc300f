/* A hash map from a pair of u64 keys to a u64 value (open addressing,
 * linear probing). Used for id lookups on the import's hot path: stack
 * nodes by (parent, symbol), symbols by (dso, address), threads by tid. */
#ifndef PERFDB_HASHMAP_H
#define PERFDB_HASHMAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hashmap {
	uint64_t *k1, *k2, *val;
	uint8_t *used;
	size_t cap, count;
};

/* hm_init/hm_free: an empty map; freeing releases all its memory. */
void hm_init(struct hashmap *m);
void hm_free(struct hashmap *m);

/* hm_get: *val for (a, b) and true, or false when absent. */
bool hm_get(const struct hashmap *m, uint64_t a, uint64_t b, uint64_t *val);

/* hm_put: sets (a, b) -> val, replacing any value. Never fails (allocation
 * follows lib/alloc.h). */
void hm_put(struct hashmap *m, uint64_t a, uint64_t b, uint64_t val);

/* hm_del: removes (a, b) if present. */
void hm_del(struct hashmap *m, uint64_t a, uint64_t b);
#endif
